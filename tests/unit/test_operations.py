"""The pure decision step of each operation on existing claims, without a database: the state
read before the transaction in, a ChangeSet out."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import count
from typing import Any

import pytest

from belief_graph.errors import ConflictError, NotFound
from belief_graph.write import operations
from belief_graph.write.changes import SlotState
from belief_graph.write.state import State
from belief_graph.write.undo import rollback

NS = "user:priya"
NOW = datetime(2026, 5, 1, tzinfo=UTC)


def at(month: int) -> datetime:
    return datetime(2026, month, 1, tzinfo=UTC)


def claim(claim_id: str, status: str = "active", **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": claim_id,
        "namespace": NS,
        "slot_id": "S1",
        "subject": "priya",
        "predicate": "lives_in",
        "object": claim_id,
        "text": f"Priya lives in {claim_id}.",
        "source_type": "user_stated",
        "confidence": 0.8,
        "frequency": 1,
        "status": status,
        "valid_from": at(1),
        "recorded_at": at(1),
        "contradiction": False,
    }
    return row | extra


def state(*claims: dict[str, Any], cardinality: str = "single", **slot: Any) -> State:
    s = SlotState(
        key=(NS, "priya", "lives_in"),
        subject="priya",
        cardinality=cardinality,  # type: ignore[arg-type]
        slot_id="S1",
        seq=4,
        versions=slot.get("versions", 1),
        head=slot.get("head", claims[0]["id"] if claims else None),
        last_recorded_at=at(1),
        last_revision=slot.get("last_revision"),
        claims=[c for c in claims if c["status"] in ("active", "pending")],
        new=False,
    )
    return State(slots={s.key: s}, claims={(NS, c["id"]): c for c in claims})


def test_contract_retracts_and_flags_dependents_as_retracted() -> None:
    st = state(claim("lisbon"))
    change = operations.contract(
        st, NS, "lisbon", retract=True, valid_to=None, reason="wrong", rid="R", actor=None, now=NOW
    )
    [retire] = change.retires
    assert (retire.id, retire.status, retire.why) == ("lisbon", "retracted", "retracted")
    assert change.result().retired == ["lisbon"]
    assert st.slots[(NS, "priya", "lives_in")].touched_by == "R"


def test_contract_closes_at_valid_to_or_now() -> None:
    change = operations.contract(
        state(claim("lisbon")),
        NS,
        "lisbon",
        retract=False,
        valid_to=None,
        reason="",
        rid="R",
        actor=None,
        now=NOW,
    )
    [retire] = change.retires
    assert (retire.status, retire.valid_to, retire.why) == ("superseded", NOW, "closed")
    assert change.decision == "close"


def test_contract_refuses_an_empty_window_by_name() -> None:
    with pytest.raises(ValueError, match="valid_to"):
        operations.contract(
            state(claim("lisbon")),
            NS,
            "lisbon",
            retract=False,
            valid_to=at(1),
            reason="",
            rid="R",
            actor=None,
            now=NOW,
        )


@pytest.mark.parametrize("status", ["retracted", "pending", "rejected", "erased"])
def test_contract_needs_a_believed_claim(status: str) -> None:
    with pytest.raises(ConflictError, match=f"is {status}, not active"):
        operations.contract(
            state(claim("lisbon", status)),
            NS,
            "lisbon",
            retract=True,
            valid_to=None,
            reason="",
            rid="R",
            actor=None,
            now=NOW,
        )


def test_an_unknown_claim_is_not_found_by_name() -> None:
    with pytest.raises(NotFound, match="claim_id"):
        operations.settle(state(), NS, "nope", accept=True, rid="R", actor=None, now=NOW)


def test_confirm_supersedes_the_belief_and_joins_the_chain() -> None:
    st = state(
        claim("lisbon"),
        claim("porto", "pending", valid_from=at(3), contradiction=True),
        versions=1,
        head="lisbon",
    )
    change = operations.settle(st, NS, "porto", accept=True, rid="R", actor=None, now=NOW)
    [retire] = change.retires
    assert (retire.id, retire.status, retire.valid_to) == ("lisbon", "superseded", at(3))
    [activate] = change.activations
    assert (activate.id, activate.version, activate.contradiction) == ("porto", 2, True)
    [edge] = change.supersedes
    assert (edge.new, edge.old, edge.verdict) == ("porto", "lisbon", "CONFLICT")
    assert [(s.id, s.resolution) for s in change.settles] == [("porto", "confirmed")]
    assert change.actor == "human" and change.result().added == ["porto"]


def test_confirm_in_a_multi_valued_fact_keeps_the_other_values() -> None:
    st = state(claim("tea"), claim("coffee", "pending"), cardinality="multi")
    change = operations.settle(st, NS, "coffee", accept=True, rid="R", actor=None, now=NOW)
    assert change.retires == [] and change.supersedes == []
    assert change.activations[0].version is None


def test_reject_keeps_the_belief() -> None:
    st = state(claim("lisbon"), claim("porto", "pending"))
    change = operations.settle(st, NS, "porto", accept=False, rid="R", actor="ana", now=NOW)
    [retire] = change.retires
    assert (retire.id, retire.status, retire.previous_status) == ("porto", "rejected", "pending")
    assert retire.why is None  # a claim that was never believed has no dependents to warn
    assert change.activations == [] and change.actor == "ana"


def test_rectify_retracts_and_writes_a_verified_claim_over_the_same_window() -> None:
    st = state(claim("lisbon", valid_from=at(2), valid_to=at(4)), head="lisbon")
    change = operations.rectify(
        st,
        NS,
        "lisbon",
        object="Porto",
        text="Priya lived in Porto.",
        actor="dpo",
        new_id="NEW",
        embedding=None,
        rid="R",
        now=NOW,
    )
    assert [(r.id, r.status, r.why) for r in change.retires] == [
        ("lisbon", "retracted", "rectified")
    ]
    [new] = change.creates
    assert new.props["source_type"] == "human_verified"
    assert (new.props["valid_from"], new.props["valid_to"]) == (at(2), at(4))
    assert new.props["version"] == 2 and new.props["object"] == "Porto"
    assert [(e.new, e.old) for e in change.supersedes] == [("NEW", "lisbon")]


def target(op: str, *changes: dict[str, Any]) -> dict[str, Any]:
    return {"op": op, "slot_ids": ["S1"], "changes": list(changes)}


def test_rollback_of_a_supersession_restores_the_old_value_as_a_new_version() -> None:
    st = state(
        claim("porto"),
        claim("lisbon", "superseded", valid_to=at(3)),
        versions=2,
        head="porto",
        last_revision="R1",
    )
    ids = count()
    change = rollback(
        st,
        NS,
        target(
            "remember",
            {"kind": "ADDED", "id": "porto"},
            {
                "kind": "RETIRED",
                "id": "lisbon",
                "previous_status": "active",
                "previous_valid_to": None,
            },
        ),
        revision_id="R1",
        rid="R2",
        actor=None,
        now=NOW,
        new_id=lambda: f"copy{next(ids)}",
    )
    assert [(r.id, r.status) for r in change.retires] == [("porto", "retracted")]
    [restore] = change.restores
    assert (restore.id, restore.new_id, restore.version, restore.valid_to) == (
        "lisbon",
        "copy0",
        3,
        None,
    )
    assert [(e.new, e.old, e.verdict) for e in change.supersedes] == [
        ("copy0", "porto", "ROLLBACK")
    ]
    assert change.result().restored == ["copy0"]


def test_rollback_is_refused_after_a_later_change_to_the_fact() -> None:
    st = state(claim("porto"), last_revision="R9")
    with pytest.raises(ConflictError, match="R9"):
        rollback(
            st,
            NS,
            target("remember", {"kind": "ADDED", "id": "porto"}),
            revision_id="R1",
            rid="R2",
            actor=None,
            now=NOW,
            new_id=lambda: "x",
        )


def test_rollback_of_an_erase_is_refused() -> None:
    with pytest.raises(ConflictError, match="erase"):
        rollback(
            state(),
            NS,
            target("erase"),
            revision_id="R1",
            rid="R2",
            actor=None,
            now=NOW,
            new_id=lambda: "x",
        )


def test_rollback_undoes_reinforcements_and_review_flags_and_reopens_pending() -> None:
    st = state(
        claim("lisbon", needs_review=True, review_revision="R1", review_reason="why"),
        claim("porto", "rejected"),
        last_revision="R1",
    )
    change = rollback(
        st,
        NS,
        target(
            "reject",
            {"kind": "REINFORCED", "id": "lisbon"},
            {"kind": "FLAGGED", "id": "lisbon", "flag": "needs_review"},
            {"kind": "FLAGGED", "id": "lisbon", "flag": "disputed"},
            {
                "kind": "RETIRED",
                "id": "porto",
                "previous_status": "pending",
                "previous_valid_to": None,
            },
        ),
        revision_id="R1",
        rid="R2",
        actor=None,
        now=NOW,
        new_id=lambda: "x",
    )
    assert [(r.id, r.delta) for r in change.reinforcements] == [("lisbon", -1)]
    assert change.clear_review_of == ["lisbon"] and change.cleared_revision == "R1"
    assert [(r.id, r.status, r.previous) for r in change.reopens] == [
        ("porto", "pending", "rejected")
    ]
    assert change.restores == []
    # What it undid is recorded, for its own rollback: the flag and its reason.
    assert change.records == [
        {"id": "lisbon", "flag": "review_cleared", "previous_reason": "why",
         "previous_revision": "R1"}
    ]  # fmt: skip


def test_contract_schedules_an_end_in_the_future_but_never_moves_one() -> None:
    later = datetime(2026, 9, 1, tzinfo=UTC)
    change = operations.contract(
        state(claim("lisbon")),
        NS,
        "lisbon",
        retract=False,
        valid_to=later,
        reason="",
        rid="R",
        actor=None,
        now=NOW,
    )
    assert change.retires[0].valid_to == later
    with pytest.raises(ConflictError, match=r"valid_to: .* already ends"):
        operations.contract(
            state(claim("lisbon", valid_to=at(8))),
            NS,
            "lisbon",
            retract=False,
            valid_to=later,
            reason="",
            rid="R",
            actor=None,
            now=NOW,
        )


def test_confirming_a_stale_pending_claim_is_refused() -> None:
    st = state(
        claim("rust", valid_from=at(4), accepted_at=at(4)),
        claim("porto", "pending", valid_from=at(3), recorded_at=at(3)),
        head="rust",
    )
    with pytest.raises(ConflictError, match="stale"):
        operations.settle(st, NS, "porto", accept=True, rid="R", actor=None, now=NOW)


def test_a_confirm_closes_only_an_open_window() -> None:
    st = state(
        claim("lisbon", valid_to=at(9), accepted_at=at(1)),
        claim("porto", "pending", valid_from=at(3), recorded_at=at(3)),
    )
    change = operations.settle(st, NS, "porto", accept=True, rid="R", actor=None, now=NOW)
    assert [(r.id, r.valid_to) for r in change.retires] == [("lisbon", None)]


def test_rollback_of_a_confirm_makes_the_claim_wait_again_and_keeps_its_reign_in_a_copy() -> None:
    st = state(
        claim("porto", accepted_at=at(4), version=2),
        claim("lisbon", "superseded", valid_to=at(3)),
        versions=2,
        head="porto",
        last_revision="R1",
    )
    ids = count()
    change = rollback(
        st,
        NS,
        target(
            "confirm",
            {
                "kind": "ADDED",
                "id": "porto",
                "previous_status": "pending",
                "previous_valid_from": "2026-01-01T00:00:00+00:00",
                "previous_contradiction": True,
            },
            {
                "kind": "RETIRED",
                "id": "lisbon",
                "previous_status": "active",
                "previous_valid_to": None,
            },
        ),
        revision_id="R1",
        rid="R2",
        actor=None,
        now=NOW,
        new_id=lambda: f"copy{next(ids)}",
    )
    assert change.retires == []  # the confirmed claim itself is not retracted: it waits again
    [wait] = change.deactivations
    assert (wait.id, wait.record_id, wait.previous["contradiction"]) == ("porto", "copy0", True)
    # The restored belief is the next version, after the copy that holds porto's place.
    assert [(r.id, r.new_id, r.status, r.version) for r in change.restores] == [
        ("lisbon", "copy1", "active", 3)
    ]
    assert [(e.new, e.old) for e in change.supersedes] == [("copy1", "copy0")]
    assert change.result().restored == ["copy1", "porto"]


def test_rollback_of_a_reinforcement_sets_confidence_back_and_unlinks_its_episode() -> None:
    change = rollback(
        state(claim("lisbon"), last_revision="R1"),
        NS,
        target(
            "remember",
            {
                "kind": "REINFORCED",
                "id": "lisbon",
                "previous_confidence": 0.5,
                "previous_at": "2026-02-01T00:00:00Z",
            },
        ),
        revision_id="R1",
        rid="R2",
        actor=None,
        now=NOW,
        new_id=lambda: "x",
    )
    [undo] = change.reinforcements
    assert (undo.delta, undo.previous_confidence, undo.previous_at, undo.undoes) == (
        -1,
        0.5,
        datetime(2026, 2, 1, tzinfo=UTC),
        "R1",
    )


def test_rollback_brings_earlier_versions_back_before_the_belief() -> None:
    st = state(
        claim("express"),
        claim("go", "retracted"),
        claim("rust", "retracted"),
        versions=3,
        head="express",
        last_revision="R1",
    )
    ids = count()
    change = rollback(
        st,
        NS,
        target(
            "remember",
            {"kind": "ADDED", "id": "express"},
            {
                "kind": "RETIRED",
                "id": "rust",
                "previous_status": "active",
                "previous_valid_to": None,
            },
            {
                "kind": "RETIRED",
                "id": "go",
                "previous_status": "superseded",
                "previous_valid_to": at(5),
            },
        ),
        revision_id="R1",
        rid="R2",
        actor=None,
        now=NOW,
        new_id=lambda: f"copy{next(ids)}",
    )
    assert [(r.id, r.status, r.version, r.valid_to) for r in change.restores] == [
        ("go", "superseded", 4, at(5)),
        ("rust", "active", 5, None),
    ]


def two_sides() -> State:
    """An active belief and a pending claim held against it."""
    return state(
        claim("lisbon", accepted_at=at(1)),
        claim("porto", "pending", valid_from=at(3), recorded_at=at(3)),
    )


@pytest.mark.parametrize("keep", ["lisbon", "porto"])
def test_resolve_retires_the_side_that_was_wrong(keep: str) -> None:
    st = two_sides()
    change = operations.resolve(
        st,
        NS,
        "porto",
        "lisbon",
        keep=keep,
        reason="asked",
        open_conflict=True,
        rid="R",
        actor=None,
        now=NOW,
    )
    assert change.op == "resolve" and change.reason == f"kept {keep}: asked"
    assert [(s.id, s.rival) for s in change.settles] == [("porto", "lisbon")]
    if keep == "lisbon":
        assert [(r.id, r.status) for r in change.retires] == [("porto", "rejected")]
        assert change.activations == []
    else:
        assert [(r.id, r.status) for r in change.retires] == [("lisbon", "retracted")]
        assert [a.id for a in change.activations] == ["porto"]


def test_resolve_and_dismiss_need_an_open_conflict_and_a_side_to_keep() -> None:
    with pytest.raises(ConflictError, match="rival_id: no open conflict"):
        operations.dismiss(
            two_sides(),
            NS,
            "porto",
            "lisbon",
            reason="",
            open_conflict=False,
            rid="R",
            actor=None,
            now=NOW,
        )
    with pytest.raises(ValueError, match="keep"):
        operations.resolve(
            two_sides(),
            NS,
            "porto",
            "lisbon",
            keep="faro",
            reason="",
            open_conflict=True,
            rid="R",
            actor=None,
            now=NOW,
        )
    change = operations.dismiss(
        two_sides(),
        NS,
        "porto",
        "lisbon",
        reason="compatible",
        open_conflict=True,
        rid="R",
        actor=None,
        now=NOW,
    )
    assert change.retires == [] and [s.resolution for s in change.settles] == [
        "dismissed: compatible"
    ]


def test_reviewed_lifts_the_flag_and_repoints_to_the_new_premise() -> None:
    st = state(claim("plan", needs_review=True), claim("koa"))
    change = operations.reviewed(
        st, NS, "plan", premise="koa", reason="fine", rid="R", actor=None, now=NOW
    )
    assert change.clear_review_of == ["plan"] and change.cleared_revision is None
    assert [(r.id, r.old, r.premise) for r in change.repoints] == [("plan", None, "koa")]
    with pytest.raises(ConflictError, match="not flagged"):
        operations.reviewed(
            state(claim("plan")),
            NS,
            "plan",
            premise=None,
            reason="",
            rid="R",
            actor=None,
            now=NOW,
        )


def test_a_rollback_of_a_rollback_gives_back_what_the_first_took() -> None:
    """Each rollback records what it undid on its own edges (the claim as it found it); the
    rollback of it reads them and does the operation again: a mention given back with its
    confidence, a review flag raised again with its reason, a demotion made again."""
    st = state(
        claim("lisbon", frequency=2, confidence=0.5, needs_review=False, demoted=False),
        last_revision="R2",
    )
    change = rollback(
        st,
        NS,
        target(
            "rollback",
            {
                "kind": "REINFORCED",
                "id": "lisbon",
                "delta": -1,
                "previous_confidence": 0.9,
                "previous_at": "2026-03-01T00:00:00+00:00",
            },
            {
                "kind": "FLAGGED",
                "id": "lisbon",
                "flag": "review_cleared",
                "previous_reason": "it depends on claim x",
            },
            {
                "kind": "FLAGGED",
                "id": "lisbon",
                "flag": "demotion_undone",
                "previous_reason": "policy demoted to disputed: why",
            },
        ),
        revision_id="R2",
        rid="R3",
        actor=None,
        now=NOW,
        new_id=lambda: "x",
    )
    [given] = change.reinforcements
    assert (given.delta, given.confidence, given.at) == (1, 0.9, at(3))
    assert given.record is not None and given.record["previous_confidence"] == 0.5
    assert change.raises == [("lisbon", "it depends on claim x")]
    assert [(d.id, d.reason, d.undo) for d in change.demotions] == [
        ("lisbon", "policy demoted to disputed: why", False)
    ]


def test_a_rolled_back_creation_flags_its_dependents_as_a_retraction() -> None:
    change = rollback(
        state(claim("lisbon"), last_revision="R1"),
        NS,
        target("remember", {"kind": "ADDED", "id": "lisbon"}),
        revision_id="R1",
        rid="R2",
        actor=None,
        now=NOW,
        new_id=lambda: "x",
    )
    [retire] = change.retires
    assert (retire.id, retire.status, retire.why) == ("lisbon", "retracted", "retracted")
