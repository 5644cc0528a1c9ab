"""What tests and benchmarks build their inputs from: drafts, episodes and a clock under their
control, each with one signature, so a test says only what is particular to it.

A draft is a triple in a namespace, in that order: ``draft("ana", "lives_in", "Lisbon",
namespace="user:ana")``. Its sentence is made from the triple unless given; every other
``ClaimDraft`` field passes through by name. A text-only draft is ``draft(text="...")``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from belief_graph.extraction.episode import Episode
from belief_graph.models import ClaimDraft, HistoricalDraft

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


def historical(
    subject: str | None = None,
    predicate: str | None = None,
    obj: str | None = None,
    *,
    recorded_at: datetime,
    namespace: str = NAMESPACE,
    text: str | None = None,
    **fields: Any,
) -> HistoricalDraft:
    """``draft``'s draft as history learned at ``recorded_at``, for ``import_history``."""
    made = draft(subject, predicate, obj, namespace=namespace, text=text, **fields)
    return HistoricalDraft(**made.model_dump(), recorded_at=recorded_at)


def as_history(made: ClaimDraft, recorded_at: datetime) -> HistoricalDraft:
    """``made`` as history learned at ``recorded_at``, for ``import_history``."""
    return HistoricalDraft(**made.model_dump(), recorded_at=recorded_at)


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


def people(namespace: str, n: int, *, tag: str = "") -> Iterator[ClaimDraft]:
    """``n`` facts of ``n // 6`` people (three facts each, so most drafts update a fact and make
    a version), every tenth with a provenance episode, every fiftieth text-only: a namespace
    of any size, with ``tag`` in every string it stores (an erase test looks for it)."""
    subjects = max(1, n // 6)
    predicates = ("lives_in", "works_at", "drives")
    for i in range(n):
        person = f"{tag}person-{i % subjects}"
        if i % 50 == 49:
            yield draft(text=f"Note: {person}, remark {i}.", namespace=namespace)
            continue
        said = (
            {"episode_id": f"ep-{i}", "episode_content": f"{tag}said in chat {i}"}
            if i % 10 == 0
            else {}
        )
        yield draft(
            person,
            predicates[i % 3],
            f"{tag}value-{i}",
            namespace=namespace,
            author=f"{tag}author",
            **said,
        )


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
