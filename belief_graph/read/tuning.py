"""How the reads are tuned: a value the client holds and hands to every read."""

from __future__ import annotations

from dataclasses import dataclass

WALK_UP_TO = 16
"""A fact of up to this many claims is walked when it is read (current, as_of, beliefs, search);
a longer one is read by index (read/held_claims): three index reads cost about as much as
walking sixteen claims. The write path's read has a knob of its own (``write/state.py``)."""


@dataclass(frozen=True)
class ReadTuning:
    """The reads' knobs. ``walk_up_to``: see ``WALK_UP_TO``."""

    walk_up_to: int = WALK_UP_TO
