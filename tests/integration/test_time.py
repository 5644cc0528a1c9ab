"""Both time axes, corrections, and the queues that must close (DESIGN §1, §4, §5, §7): each
class of case with its neighbours, against a real Neo4j."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft, ConflictError, Policy
from tests.conftest import Clock

NS = "project:atlas"


def d(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, 0, tzinfo=UTC)


def value(found: Any) -> str | None:
    assert not isinstance(found, list)
    return found.object if found is not None else None


class World:
    """The engine with its clock set to the date of each call."""

    def __init__(self, make_bg: Callable[..., BeliefGraph], policy: Policy | None = None) -> None:
        self.clock = Clock(d(1, 1))
        self.bg = make_bg(clock=self.clock, policy=policy)

    def on(self, month: int, day: int) -> BeliefGraph:
        self.clock.set(d(month, day))
        return self.bg

    def r(
        self,
        month: int,
        day: int,
        obj: str,
        subject: str = "atlas",
        predicate: str = "uses",
        **kw: Any,
    ):  # noqa: ANN201
        return self.on(month, day).remember(
            ClaimDraft(
                namespace=NS,
                subject=subject,
                predicate=predicate,
                object=obj,
                text=f"{subject} {predicate} {obj}.",
                **kw,
            )
        )

    def now(self, subject: str = "atlas", predicate: str = "uses") -> str | None:
        return value(self.bg.current(NS, subject, predicate))

    def at(
        self,
        valid: datetime | None = None,
        known: datetime | None = None,
        subject: str = "atlas",
        predicate: str = "uses",
    ) -> str | None:
        return value(self.bg.as_of(NS, subject, predicate, valid_at=valid, known_at=known))


def test_smoke_never_rewrite_the_past(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    w.r(1, 2, "Berlin", "priya", "lives_in", valid_from=d(1, 1), valid_to=d(1, 31))
    w.on(2, 15)
    before = w.at(d(2, 15), d(2, 15), "priya", "lives_in")
    assert before is None
    res = w.r(3, 1, "Lisbon", "priya", "lives_in")
    assert res.decision == "expand", res
    assert w.at(d(2, 15), d(2, 15), "priya", "lives_in") is None
    assert w.at(d(2, 15), None, "priya", "lives_in") is None
    assert w.at(d(1, 15), None, "priya", "lives_in") == "Berlin"
    assert w.now("priya", "lives_in") == "Lisbon"
