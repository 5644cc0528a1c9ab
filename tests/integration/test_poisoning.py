"""Poisoning: a stream of low-trust ``inferred`` claims, repeated and reinforced, never
supersedes a ``user_stated`` or ``human_verified`` belief, and every one shows in conflicts()."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.store import Store
from belief_graph.testing.factories import draft
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


def test_replays_and_echoes_never_outvote_the_users_word(
    store: Store, make_bg: Callable[..., BeliefGraph]
) -> None:
    """A low-trust claim replayed and echoed 100 times (one episode resent, and new episodes
    from many bot authors) adds no weight against the user: the user's belief still changes at
    the user's word, and the flood of a rival value never becomes the belief."""
    bg = make_bg()

    def lives(obj: str, **kw: Any) -> ClaimDraft:
        return draft("priya", "lives_in", obj, namespace=NS, text=f"Priya lives in {obj}.", **kw)

    said = bg.remember(lives("Lisbon", episode_id="chat-1", author="priya"))
    echoes = [
        lives(
            "Lisbon",
            source_type="inferred",
            episode_id="scrape-1" if i % 2 else f"scrape-{i}",
            author=f"bot-{i % 7}",
            confidence=1.0,
        )
        for i in range(100)
    ]
    results = bg.ingest(echoes, batch_size=25)
    assert {r.decision for r in results} == {"reinforce"}
    held = bg.get(NS, said.added[0])
    assert held.frequency == 101 and held.source_type == "user_stated"
    assert held.support <= 64, "support is capped: a write stays O(1)"
    # The user's own change goes through at once: the echoes are below the user's trust.
    moved = bg.remember(lives("Porto", episode_id="chat-2", author="priya"))
    assert moved.decision == "supersede", moved.reason
    assert moved.retired == said.added
    # A flood of a rival value, replayed and echoed, never becomes the belief.
    for i in range(100):
        flood = bg.remember(
            lives("Madrid", source_type="inferred", episode_id=f"scrape-{i % 3}", author="bot")
        )
        assert flood.decision in ("reject", "reinforce")
    current = bg.current(NS, "priya", "lives_in")
    assert current is not None and not isinstance(current, list) and current.object == "Porto"
    # And the user's next word still counts as one word against one: no lock.
    again = bg.remember(lives("Faro", episode_id="chat-3", author="priya"))
    assert again.decision == "supersede", again.reason
    assert check_graph(store) == []
