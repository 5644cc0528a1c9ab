"""Poisoning: a stream of low-trust ``inferred`` claims, repeated and reinforced, never
supersedes a ``user_stated`` or ``human_verified`` belief, and every one shows in conflicts()."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.store import Store
from belief_graph.testing.graph import check_graph

NS = "user:target"


@pytest.mark.parametrize("trusted", ["user_stated", "human_verified"])
def test_inferred_flood_never_supersedes_trusted(
    store: Store, make_bg: Callable[..., BeliefGraph], trusted: str
) -> None:
    bg = make_bg()
    truth = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="priya",
            predicate="risk_tolerance",
            object="cautious",
            text="Priya is cautious with money.",
            source_type=trusted,
            confidence=0.6,
        )
    )
    poison: list[str] = []
    for i in range(30):
        obj = ["aggressive", "reckless", "aggressive"][i % 3]  # repeats: reinforcement attempts
        result = bg.remember(
            ClaimDraft(
                namespace=NS,
                subject="Priya",
                predicate="risk tolerance",
                object=obj,
                text=f"Priya is {obj} with money.",
                source_type="inferred",
                confidence=1.0,
                correction=i % 2 == 0,
                author=f"bot-{i % 4}",
            )
        )
        assert truth.claim_id not in result.retired
        poison += result.added + result.reinforced
        current = bg.current(NS, "priya", "risk_tolerance")
        assert current is not None and not isinstance(current, list)
        assert current.id == truth.claim_id and current.object == "cautious"
    assert poison
    history = bg.history(NS, "priya", "risk_tolerance")
    assert [c.id for c in history if c.status == "active"] == [truth.claim_id]
    assert all(c.status in ("rejected", "pending") for c in history if c.id != truth.claim_id)
    listed = {c.claim.id for c in bg.conflicts(NS)} | {c.rival.id for c in bg.conflicts(NS)}
    assert set(poison) <= listed, "a poisoned claim is missing from conflicts()"
    assert all(
        c.claim.id == truth.claim_id or c.rival.id == truth.claim_id for c in bg.conflicts(NS)
    )
    assert check_graph(store) == []
