"""What every stage of a write needs (``Engine``), and the knobs that choose between ways of
writing that give the same beliefs (``Tuning``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from ..detect import Detector
from ..policy import Policy
from ..store import Store
from ..vocabulary import Vocabulary
from .state import WALK_UP_TO

# A fact a small write does not hold is decided as not there yet, with no read, while at least
# ASSUME_NEW_AT of the last facts this client wrote without holding them were not there yet;
# else it reads first. A blind write of a fact that was there costs a refused statement and a
# second plan: at 100k claims a new fact was 1.4 ms faster blind than read first, a stored one
# 0.65 ms slower (docs/benchmarks.md), so blind pays while about a third of them or more are new.
ASSUME_NEW_AT = 1 / 3
# A look-up starts where most of the last five in its namespace found their slots (Widening):
# how crowded a look-up is depends on the draft's own neighbourhood, and a start wider than the
# foot costs about as much as the foot and one widening (docs/benchmarks.md), so it pays only
# where most look-ups widen.
LOOKUP_WINDOW = 5


@dataclass(frozen=True)
class Tuning:
    """How the engine writes, where two ways give the same beliefs and differ in cost; the
    tests compare the ways, the benchmarks time them. The defaults are the engine's.

    ``one_trip``: apply a batch as one statement (False: statement by statement, as an erase
    always is). ``carry``: keep the slots this client's last small batches wrote and decide the
    next small structural write on them with no read (``Writer.remember``). ``assume_new_at``:
    decide a fact not held as not there yet while at least this share of the last ones were
    new (0: always; above 1: never, read first). ``whole_past``: read every past version of a
    fact before deciding on it (False: those from its newest window on, all only when a draft
    is placed before them). ``walk_up_to``: a fact of more claims has its past read by index
    (write/slot_states), not walked. ``lookup_window``: how many of a namespace's last
    look-ups say where the next one starts (``Widening``; 0: always at the foot). ``ids``: the
    id factory for claims, slots and revisions (None: ULIDs)."""

    one_trip: bool = True
    carry: bool = True
    assume_new_at: float = ASSUME_NEW_AT
    whole_past: bool = False
    walk_up_to: int = WALK_UP_TO
    lookup_window: int = LOOKUP_WINDOW
    ids: Callable[[], str] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Engine:
    """What every stage of a write needs: where it reads and writes, the vocabulary and policy
    it decides by, the detector that scores, its clock and its id factory."""

    store: Store
    vocabulary: Vocabulary
    policy: Policy
    detector: Detector
    clock: Callable[[], datetime]
    new_id: Callable[[], str]
    tuning: Tuning = Tuning()
