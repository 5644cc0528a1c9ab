"""Hardening of the write path (issue: no way to freeze a fact): a claim stamped in the future,
and a client whose vocabulary disagrees with a stored fact's cardinality."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.policy import Policy
from belief_graph.testing.factories import Clock, as_history, draft
from belief_graph.testing.graph import one_active_per_single_slot
from belief_graph.vocabulary import Vocabulary

NS = "user:priya"
NOW = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def lives_in(city: str, **extra: object) -> ClaimDraft:
    return draft("priya", "lives_in", city, namespace=NS, text=f"Priya lives in {city}.", **extra)


@pytest.mark.parametrize("ahead", [timedelta(minutes=6), timedelta(days=1), timedelta(days=3000)])
def test_a_recorded_at_in_the_future_is_refused_by_name(
    make_bg: Callable[..., BeliefGraph], ahead: timedelta
) -> None:
    bg = make_bg(clock=Clock(NOW))
    bg.remember(lives_in("Lisbon"))
    porto = lives_in("Porto", source_type="inferred")
    with pytest.raises(ValueError, match="recorded_at"):
        bg.import_history([as_history(porto, NOW + ahead)], actor="migration")
    assert [c.object for c in bg.history(NS, "priya", "lives_in")] == ["Lisbon"]


def test_a_recorded_at_within_the_clock_skew_is_accepted(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    bg = make_bg(clock=Clock(NOW), policy=Policy(clock_skew_seconds=600))
    ahead = as_history(lives_in("Lisbon"), NOW + timedelta(minutes=9))
    [result] = bg.import_history([ahead], actor="migration")
    assert result.verdict == "NEW" and result.op == "import"


def test_a_rejected_claim_does_not_move_the_facts_clock(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    clock = Clock(NOW)
    bg = make_bg(clock=clock)
    bg.remember(lives_in("Lisbon", source_type="human_verified"))
    # A low-trust claim stamped a little ahead (within the skew) is rejected ...
    mars = as_history(lives_in("Mars", source_type="inferred"), NOW + timedelta(minutes=4))
    [rejected] = bg.import_history([mars], actor="migration")
    assert rejected.decision == "reject"
    # ... and does not freeze the fact: the user's change a minute later goes through.
    clock.set(NOW + timedelta(minutes=1))
    moved = bg.remember(lives_in("Madrid", source_type="human_verified"))
    assert moved.added and moved.decision != "reject"
    belief = bg.current(NS, "priya", "lives_in")
    assert belief is not None and not isinstance(belief, list) and belief.object == "Madrid"


def test_the_stored_cardinality_wins_over_a_clients_vocabulary(
    make_bg: Callable[..., BeliefGraph], store: object, tmp_path: Path
) -> None:
    single = make_bg()
    single.remember(lives_in("Lisbon"))
    toml = tmp_path / "vocabulary.toml"
    toml.write_text('[predicates.lives_in]\ncardinality = "multi"\n', encoding="utf-8")
    other = BeliefGraph(single.store, vocabulary=Vocabulary.load(toml))
    assert other.vocabulary.cardinality("lives_in") == "multi"
    result = other.remember(lives_in("Porto"))
    assert result.verdict == "UPDATE" and result.retired
    assert one_active_per_single_slot(single.store) == []
    history = single.history(NS, "priya", "lives_in")
    assert [(c.object, c.status) for c in history] == [
        ("Lisbon", "superseded"),
        ("Porto", "active"),
    ]


def test_remember_racing_an_erase_of_its_subject_plans_again(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """An erase commits between remember's read and its transaction: the slot it read was renamed
    to a tombstone key, so the write is planned again (a new fact) instead of failing."""
    from belief_graph.write.apply import run
    from belief_graph.write.engine import Engine
    from belief_graph.write.remember import Remember, Request

    bg = make_bg()
    bg.remember(lives_in("Lisbon"))
    engine = Engine(
        bg.store, bg.vocabulary, bg.policy, bg.detector, bg.clock, lambda: f"ID{next(ids)}"
    )
    batch = Remember(engine, [Request(lives_in("Porto"), "race-1")])
    ids = iter(range(10_000))
    reads: list[int] = []

    def read_then_erase() -> object:
        state = batch.read()
        if not reads:
            bg.erase(NS, subject="priya")
        reads.append(1)
        return state

    [result] = run(bg.store, read_then_erase, batch.plan)  # type: ignore[arg-type]
    assert len(reads) == 2, "the first plan was refused and the operation read again"
    assert result.verdict == "NEW" and not result.retired
    belief = bg.current(NS, "priya", "lives_in")
    assert belief is not None and not isinstance(belief, list) and belief.object == "Porto"
