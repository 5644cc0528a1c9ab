"""Support shared by the tests and the benchmarks: invariant checks, offline models, a guarded wipe."""
