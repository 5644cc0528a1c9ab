"""DESIGN §7 invariants, checked with plain Cypher over the whole graph after random operation
sequences (hypothesis), plus a deterministic check that revise = contract then expand.

Every operation may be replayed with its revision id and every revision but an erase may be
rolled back; regression tests below pin the cases that once broke (rolling back a ``reject`` or a
``rollback``, retrying contract/confirm/reject/rectify with the same revision id).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belief_graph import BeliefGraph, ClaimDraft, Policy, RevisionResult
from belief_graph.store import Store
from belief_graph.testing.examples import examples
from belief_graph.testing.factories import Clock, draft
from belief_graph.testing.graph import counts, one_active_per_single_slot, q, version_chains, wipe
from belief_graph.testing.sequences import OPS, Run, check_namespace_isolation

PRESETS = ["recency", "conservative", "freshness"]
# 150 random sequences in all, a third under each preset: three tests, so that two workers can
# share them.
EXAMPLES = examples(150) // len(PRESETS)


def play(store: Store, ops: list[tuple[Any, ...]], preset: str, reinforce_after: int) -> None:
    """Apply ``ops`` on an empty database, checking the invariants after each, then work every
    queue down and check them all again."""
    wipe(store)
    policy = Policy(preset=preset, pending_after_reinforcements=reinforce_after)  # type: ignore[arg-type]
    run = Run(store, BeliefGraph(store, policy=policy, clock=Clock()))
    for op in run.steps(ops):
        run.apply(op)
    assert one_active_per_single_slot(store) == []
    assert version_chains(store) == []
    assert counts(store)["revisions"] == run.revisions
    check_namespace_isolation(store, run.bg)
    run.work_queues_down()
    run.check_time(everything=True)
    assert one_active_per_single_slot(store) == []
    assert version_chains(store) == []


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=st.lists(OPS, min_size=1, max_size=20), reinforce_after=st.sampled_from([2, 3]))
def test_random_sequences_keep_every_invariant(
    store: Store, preset: str, ops: list[tuple[Any, ...]], reinforce_after: int
) -> None:
    play(store, ops, preset, reinforce_after)


# Pinned: a window with an end of its own, then a new value inside it (the end is never moved);
# an end scheduled by a contract, then a new value before it; a correction after two versions.
PINNED = [
    (
        [
            ("remember", 0, 0, 0, 0, "user_stated", 0.8, False, False, None, 3),
            ("remember", 0, 0, 0, 1, "user_stated", 0.8, False, False, None, None),
            ("wait", 10),
            ("remember", 0, 0, 0, 2, "user_stated", 0.8, False, False, None, None),
        ],
        "recency",
        3,
    ),
    (
        [
            ("remember", 0, 0, 1, 3, "user_stated", 0.8, False, False, -40, None),
            ("contract", 0, False, 30),
            ("wait", 10),
            ("remember", 0, 0, 1, 4, "user_stated", 0.8, False, False, None, None),
            ("wait", 45),
            ("remember", 0, 0, 1, 3, "user_stated", 0.8, True, False, None, None),
        ],
        "recency",
        3,
    ),
    (
        [
            ("remember", 1, 1, 0, 0, "user_stated", 0.8, False, False, -40, None),
            ("remember", 1, 1, 0, 1, "user_stated", 0.8, False, False, -5, None),
            ("remember", 1, 1, 0, 2, "user_stated", 0.8, False, False, None, None),
            ("remember", 1, 1, 0, 0, "user_stated", 0.8, True, False, -5, None),
            ("rollback", 3),
        ],
        "freshness",
        2,
    ),
]


@pytest.mark.parametrize(("ops", "preset", "reinforce_after"), PINNED)
@pytest.mark.slow
def test_pinned_sequences_keep_every_invariant(
    store: Store, ops: list[tuple[Any, ...]], preset: str, reinforce_after: int
) -> None:
    play(store, ops, preset, reinforce_after)


# -- invariant 6: revise = contract then expand ---------------------------------------------


def at(day: int) -> datetime:
    return datetime(2026, 4, day, 12, 0, tzinfo=UTC)


def slot_graph(store: Store, ns: str) -> list[dict[str, Any]]:
    rows = q(
        store,
        "MATCH (s:Slot {namespace: $ns})<-[:IN_SLOT]-(c:Claim) "
        "OPTIONAL MATCH (c)-[e:SUPERSEDES]->(p:Claim) "
        "RETURN s.predicate AS predicate, s.cardinality AS cardinality, s.versions AS versions, "
        "c.object AS object, c.status AS status, c.version AS version, "
        "c.valid_from AS valid_from, c.valid_to AS valid_to, c.recorded_at AS recorded_at, "
        "c.accepted_at AS accepted_at, c.superseded_at AS superseded_at, "
        "c.retracted_at AS retracted_at, c.frequency AS frequency, "
        "c.contradiction AS contradiction, c.disputed AS disputed, "
        "p.version AS supersedes_version "
        "ORDER BY predicate, version",
        ns=ns,
    )
    return rows


def test_revise_equals_contract_then_expand(make_bg: Callable[..., BeliefGraph]) -> None:
    # A clock that reads what it was set to, however often it is read: each write below is at
    # its story's moment (the engine stamps recorded_at), the contract and its expand alike.
    now = [at(1)]
    bg = make_bg(clock=lambda: now[0])
    story = [("Lisbon", at(2), at(3)), ("Porto", at(10), at(11)), ("Oslo", at(20), at(22))]

    def claim(ns: str, obj: str, valid_from: datetime) -> ClaimDraft:
        return draft(
            "ana", "city", obj, namespace=ns, text=f"Ana lives in {obj}.", valid_from=valid_from
        )

    def at_next_read(recorded_at: datetime) -> None:
        now[0] = recorded_at

    # Way one: each new value revises the belief in one operation.
    for obj, valid_from, recorded_at in story:
        at_next_read(recorded_at)
        result = bg.remember(claim("way:revise", obj, valid_from))
        assert result.decision in ("expand", "supersede")

    # Way two: close the belief at the new value's valid_from, then expand with the new value.
    previous: str | None = None
    for obj, valid_from, recorded_at in story:
        if previous is not None:
            at_next_read(recorded_at)  # contract at recorded_at
            bg.contract("way:levi", previous, retract=False, valid_to=valid_from)
        at_next_read(recorded_at)
        result = bg.remember(claim("way:levi", obj, valid_from))
        assert result.decision == "expand"
        previous = result.added[0]

    revised, levi = slot_graph(bg.store, "way:revise"), slot_graph(bg.store, "way:levi")
    assert [r["object"] for r in revised] == ["Lisbon", "Porto", "Oslo"]
    assert [r["status"] for r in revised] == ["superseded", "superseded", "active"]
    assert [r["supersedes_version"] for r in revised] == [None, 1, 2]
    assert revised[0]["valid_to"] == at(10) and revised[0]["superseded_at"] == at(11)
    assert revised == levi

    # The final graphs answer every bitemporal question the same way.
    for valid_at, known_at in itertools.product(
        [None, at(5), at(15), at(25)], [None, at(4), at(12), at(23)]
    ):
        a = bg.as_of("way:revise", "ana", "city", valid_at=valid_at, known_at=known_at)
        b = bg.as_of("way:levi", "ana", "city", valid_at=valid_at, known_at=known_at)
        assert not isinstance(a, list) and not isinstance(b, list)
        assert (a.object if a else None) == (b.object if b else None)


# -- known engine bugs, pinned --------------------------------------------------------------


def two_claims(bg: BeliefGraph, ns: str) -> tuple[RevisionResult, RevisionResult]:
    first = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="ana",
            predicate="city",
            object="Lisbon",
            text="Ana lives in Lisbon.",
        )
    )
    second = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="ana",
            predicate="city",
            object="Porto",
            text="Ana lives in Porto.",
        )
    )
    return first, second


def test_rollback_of_a_reject_keeps_one_active_claim(
    store: Store, make_bg: Callable[..., BeliefGraph]
) -> None:
    bg = make_bg(policy=Policy(preset="conservative"), clock=Clock())
    _, held = two_claims(bg, "user:ana")
    assert held.decision == "hold_pending"
    rejected = bg.reject("user:ana", held.added[0])
    bg.rollback("user:ana", rejected.revision_id)
    assert one_active_per_single_slot(store) == []


def test_rollback_of_a_rollback_keeps_one_active_claim(
    store: Store, make_bg: Callable[..., BeliefGraph]
) -> None:
    bg = make_bg(policy=Policy(preset="conservative"), clock=Clock())
    _, held = two_claims(bg, "user:ana")
    undo = bg.rollback("user:ana", held.revision_id)
    bg.rollback("user:ana", undo.revision_id)
    assert one_active_per_single_slot(store) == []


@pytest.mark.parametrize("op", ["contract", "rectify", "confirm", "reject"])
def test_retrying_an_operation_with_its_revision_id_replays(
    op: str, make_bg: Callable[..., BeliefGraph]
) -> None:
    bg = make_bg(policy=Policy(preset="conservative"), clock=Clock())
    first, held = two_claims(bg, "user:ana")
    calls: dict[str, Callable[[], RevisionResult]] = {
        "contract": lambda: bg.contract("user:ana", first.added[0], revision_id="r-1"),
        "rectify": lambda: bg.rectify(
            "user:ana",
            first.added[0],
            object="Faro",
            text="Ana lives in Faro.",
            actor="dpo",
            revision_id="r-1",
        ),
        "confirm": lambda: bg.confirm("user:ana", held.added[0], revision_id="r-1"),
        "reject": lambda: bg.reject("user:ana", held.added[0], revision_id="r-1"),
    }
    original = calls[op]()
    again = calls[op]()
    assert again.replayed and again.model_copy(update={"replayed": False}) == original
