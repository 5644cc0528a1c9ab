"""Benchmarks that answered a settled question about Neo4j's plans and its vector index, kept to
be run again when the server changes (its version, or its settings); what each answered:
docs/benchmarks.md, "What we tried". Run one with ``python -m bench NAME``."""
