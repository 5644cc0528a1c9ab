"""What tests and benchmarks build their inputs from: drafts, episodes and a clock under their
control, each with one signature, so a test says only what is particular to it.

A draft is a triple in a namespace, in that order: ``draft("ana", "lives_in", "Lisbon",
namespace="user:ana")``. Its sentence is made from the triple unless given; every other
``ClaimDraft`` field passes through by name. A text-only draft is ``draft(text="...")``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from belief_graph.extraction.episode import Episode
from belief_graph.models import ClaimDraft

NAMESPACE = "test:default"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def draft(
    subject: str | None = None,
    predicate: str | None = None,
    obj: str | None = None,
    *,
    namespace: str = NAMESPACE,
    text: str | None = None,
    **fields: Any,
) -> ClaimDraft:
    """A draft of ``(subject, predicate, obj)`` in ``namespace``; its sentence is ``text`` or
    "subject predicate obj." (the predicate's underscores as spaces). With no triple it is a
    text-only draft, and ``text`` is required. The object may be passed by its field's name,
    ``object=`` (as a dict of fields spells it)."""
    obj = fields.pop("object", obj)
    if text is None:
        parts = [p for p in (subject, (predicate or "").replace("_", " "), obj) if p]
        if not parts:
            raise ValueError("a text-only draft needs its text")
        text = " ".join(parts) + "."
    return ClaimDraft(
        namespace=namespace,
        subject=subject,
        predicate=predicate,
        object=obj,
        text=text,
        **fields,
    )


def episode(
    text: str,
    *context: str,
    at: datetime = START,
    speaker: str = "user",
    id: str | None = None,
) -> Episode:
    """One turn said by ``speaker`` at ``at``, after the earlier turns ``context`` (oldest
    first)."""
    return Episode(speaker=speaker, at=at, text=text, context=context, id=id)


class Clock:
    """A controllable clock: starts at ``start``, ticks 1 ms per read unless set."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now

    def set(self, moment: datetime) -> None:
        """Make ``moment`` the time the next read ticks from."""
        self.now = moment

    def advance(self, **delta: float) -> datetime:
        """Move the clock on by ``timedelta(**delta)``; the new time."""
        self.now += timedelta(**delta)
        return self.now
