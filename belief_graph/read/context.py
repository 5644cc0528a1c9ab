"""What every read needs of the engine, in one value the client hands it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..detect import Detector
from ..store import Store
from ..vocabulary import Vocabulary
from ..widening import Widening
from .tuning import ReadTuning


def asked(
    now: datetime, valid_at: datetime | None, known_at: datetime | None
) -> tuple[datetime, datetime]:
    """The (valid, known) moments a read asks about: both default to ``now``; given only
    ``known_at``, ``valid_at`` is the same moment (``as_of``)."""
    known = known_at or now
    valid = valid_at or (known_at if known_at is not None else now)
    return valid, known


@dataclass(frozen=True)
class ReadContext:
    """The store (a read routes its namespace to its database: ``Store.on``), the vocabulary
    that names facts, the models, the clock, the reads' tuning, and the memory of how wide the
    last vector reads had to fetch."""

    store: Store
    vocabulary: Vocabulary
    detector: Detector
    clock: Callable[[], datetime]
    tuning: ReadTuning
    widening: Widening

    def moments(
        self, valid_at: datetime | None, known_at: datetime | None
    ) -> tuple[datetime, datetime]:
        """``asked`` now."""
        return asked(self.clock(), valid_at, known_at)
