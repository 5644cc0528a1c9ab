"""World-time windows of one fact, as known now: which claim holds at a moment, and where a new
draft falls among the versions already known. Pure functions over claim rows (``valid_from``,
``valid_to``, ``accepted_at``, ``version``), the same rules ``as_of`` applies in Cypher."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

Row = dict[str, Any]


def covers(row: Row, t: datetime) -> bool:
    """True when ``row``'s window ``[valid_from, valid_to)`` holds ``t``."""
    end = row.get("valid_to")
    return bool(row["valid_from"] <= t and (end is None or t < end))


def _rank(row: Row) -> tuple[datetime, int]:
    accepted = row.get("accepted_at") or row.get("recorded_at") or row["valid_from"]
    return accepted, row.get("version") or 0


def held_at(known: Sequence[Row], t: datetime) -> Row | None:
    """The claim that holds at ``t``: of those whose window covers it, the one accepted last
    (a later restore or correction outranks what it replaced)."""
    covering = [r for r in known if covers(r, t)]
    return max(covering, key=_rank) if covering else None


Where = Literal["head", "reinforce", "earlier", "after_end", "empty", "overlap"]


@dataclass
class Placement:
    """Where a draft's window ``[valid_from, valid_to)`` falls among a single-valued fact's
    known versions:

    - ``head``: it starts inside the newest version's window (or the newest version is open or
      scheduled to end later): the policy decides against it (``target``)
    - ``reinforce``: it restates the value that held at its start (``target``), a SAME
    - ``earlier``: it fits a gap before a later version without overlapping any: late knowledge
      about the past, stored as an earlier version; open-ended, it ends where the later version
      starts (``end``)
    - ``after_end``: the newest version's window ended before the draft starts: a new window
      follows it (``target``, the ended version), which is not closed again
    - ``empty``: nothing is known about the fact
    - ``overlap``: it disagrees with a known version over part of its window (``target``)
    """

    where: Where
    target: Row | None = None
    later: list[Row] = field(default_factory=list)
    end: datetime | None = None


def place(
    known: Sequence[Row],
    head: Row | None,
    valid_from: datetime,
    valid_to: datetime | None,
    same: Callable[[Row], bool],
) -> Placement:
    """Place a draft among ``known`` (the versions believed for their windows, as known now);
    ``head`` is the newest version, if it is among them; ``same`` says whether a row holds the
    draft's value."""
    if not known:
        return Placement("empty")
    held = held_at(known, valid_from)
    later = sorted(
        (r for r in known if r["valid_from"] > valid_from), key=lambda r: r["valid_from"]
    )
    runs_into = later and (valid_to is None or valid_to > later[0]["valid_from"])
    if runs_into:
        if held is not None and same(held):
            return Placement("reinforce", held, later)
        if held is None and valid_to is None:
            # An open-ended value learned late: it held until the later value started, which
            # is what "from March 1" says; only a stated end past that start disagrees.
            return Placement("earlier", None, later, end=later[0]["valid_from"])
        return Placement("overlap", later[0] if held is None else held, later)
    if held is not None:
        if held is head:
            return Placement("head", held, later)
        if same(held):
            return Placement("reinforce", held, later)
        return Placement("overlap", held, later)
    if later:
        return Placement("earlier", None, later)
    if head is not None:
        return Placement("after_end", head)
    return Placement("empty")


@dataclass
class Correction:
    """What a correction of a single-valued fact retracts, and where the right value starts."""

    wrong: list[Row]
    valid_from: datetime


def correction(
    known: Sequence[Row],
    head: Row | None,
    valid_from: datetime | None,
    recorded_at: datetime,
    same: Callable[[Row], bool],
) -> Correction | None:
    """A correction ("I was wrong: it is X") of the newest version, or ``None`` when the newest
    version already holds X (or nothing is known).

    It corrects from ``valid_from`` or, when not given, from the start of the value it replaces
    (the one held at ``recorded_at``). Every version with another value that starts there or
    later was never true: it is retracted. The right value continues the version before, when
    that one held it already (so "it is still Express" reads as Express throughout).
    """
    if head is None or same(head):
        return None
    if valid_from is None:
        held = held_at(known, recorded_at)
        valid_from = held["valid_from"] if held is not None and not same(held) else recorded_at
    start = valid_from
    wrong = [r for r in known if r["valid_from"] >= start and not same(r)]
    if head["id"] not in {r["id"] for r in wrong}:
        return None
    ids = {r["id"] for r in wrong}
    before = [
        r
        for r in known
        if r["id"] not in ids
        and r["valid_from"] < start
        and (r.get("valid_to") is None or r["valid_to"] >= start)
    ]
    previous = max(before, key=_rank) if before else None
    if previous is not None and same(previous):
        start = previous["valid_from"]
    return Correction(wrong, start)
