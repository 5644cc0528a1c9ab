"""What a bulk write does to the process around it: Python's cyclic garbage collector makes
fewer full passes while it runs.

The collector passes over its youngest objects every 700 allocations or so, and over every
object the process holds every ten passes of the middle generation (when the objects
promoted since the last full pass make up a quarter of those held). An ingest allocates a few
hundred container objects a draft and keeps every result, so its full passes grow with it and
took an eighth to a fifth of its time (docs/benchmarks.md, "Bulk ingest and the garbage
collector"). While any ingest runs, the oldest generation is collected
``FULL_PASS_DEFERRAL`` times less often; the young generations as before (cyclic garbage dies
there). The thresholds go back as they were when the last ingest ends, whatever happened.
If by then a full pass is due by them, and the ingests themselves made it due (they ran more
passes of the middle generation than the oldest one's threshold), it runs then, inside the
ingest: else it would run in whatever call came next (after an ingest of 60,000 drafts, a
``remember`` took 866 ms, 859 of them the deferred pass: docs/benchmarks.md, "The full pass an
ingest deferred"). A small ingest leaves the collector to decide, as it would have without
one: in a process holding many objects it may skip a pass that would find little to free.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

FULL_PASS_DEFERRAL = 100


class _Deferral:
    """The thresholds as they were, held while any bulk write runs (they may overlap)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.saved: tuple[int, int, int] = gc.get_threshold()
        self.middle_passes = 0  # the middle generation's passes before the first one began


_deferral = _Deferral()


@contextmanager
def fewer_full_collections() -> Iterator[None]:
    """Collect the oldest generation ``FULL_PASS_DEFERRAL`` times less often meanwhile."""
    with _deferral.lock:
        if _deferral.running == 0:
            _deferral.saved = young, middle, old = gc.get_threshold()
            _deferral.middle_passes = _middle_passes()
            gc.set_threshold(young, middle, old * FULL_PASS_DEFERRAL)
        _deferral.running += 1
    try:
        yield
    finally:
        due = False
        with _deferral.lock:
            _deferral.running -= 1
            if _deferral.running == 0:
                gc.set_threshold(*_deferral.saved)
                oldest = _deferral.saved[2]
                made = _middle_passes() - _deferral.middle_passes > oldest
                due = made and gc.get_count()[2] > oldest
        if due:  # outside the lock: another ingest starting meanwhile need not wait for it
            gc.collect()


def _middle_passes() -> int:
    """How many passes of the middle generation the collector has made in this process."""
    return int(gc.get_stats()[1]["collections"])
