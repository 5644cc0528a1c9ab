"""The seed stories end to end on a real Neo4j: what a user of the engine sees."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial

import pytest

from belief_graph import BeliefGraph, ClaimDraft, ConflictError, NotFound, Policy
from belief_graph.testing import factories
from belief_graph.testing.graph import q

NS = "user:priya"


draft = partial(factories.draft, namespace=NS, subject="user")


def d(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, 0, tzinfo=UTC)


def test_priya_risk_tolerance_flip(bg: BeliefGraph) -> None:
    first = bg.remember(
        draft(
            predicate="risk tolerance",
            object="cautious",
            text="Priya is cautious with money.",
            episode_id="S1",
            episode_content="I'd rather keep my savings safe.",
        )
    )
    assert first.verdict == "NEW"
    flip = bg.remember(
        draft(
            predicate="risk_tolerance",
            object="aggressive",
            text="Priya now has an aggressive risk tolerance.",
            episode_id="S2",
        )
    )
    # A change in the world (not a correction: correction=True would retract "cautious" as
    # never true, see test_time.py); without a contradiction model it is an UPDATE.
    assert flip.verdict == "UPDATE"
    assert flip.retired == first.added

    now = bg.current(NS, "user", "risk_tolerance")
    assert now is not None and not isinstance(now, list)
    assert now.object == "aggressive" and now.version == 2
    history = bg.history(NS, "user", "risk_tolerance")
    assert [c.object for c in history] == ["cautious", "aggressive"]
    assert history[0].status == "superseded" and history[0].valid_to == now.valid_from

    lineage = bg.lineage(NS, now.id)
    assert [c.version for c in lineage.chain] == [1, 2]
    assert lineage.supersedes == [
        {
            "from": now.id,
            "to": first.added[0],
            "verdict": "UPDATE",
            "revision_id": flip.revision_id,
        }
    ]
    assert {(e.id, e.claim_id) for e in lineage.episodes} == {
        ("S1", first.added[0]),
        ("S2", now.id),
    }
    assert "I'd rather keep my savings safe." in {e.content for e in lineage.episodes}


def test_express_to_go_on_both_time_axes(bg: BeliefGraph) -> None:
    ns = "project:atlas"
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="uses",
            object="Express.js",
            text="The project uses Express.js.",
            valid_from=d(3, 1),
            recorded_at=d(3, 3),
        )
    )
    go = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="atlas",
            predicate="is built with",
            object="Go",
            text="We switched the backend to Go.",
            valid_from=d(5, 15),
            recorded_at=d(5, 16),
        )
    )
    assert go.verdict == "UPDATE"

    def obj(**kw: datetime) -> str | None:
        claim = bg.as_of(ns, "atlas", "uses_framework", **kw)
        assert not isinstance(claim, list)
        return claim.object if claim else None

    current = bg.current(ns, "Atlas", "runs on")
    assert current is not None and not isinstance(current, list) and current.object == "Go"
    assert obj() == "Go"
    assert obj(valid_at=d(4, 1)) == "Express.js"
    assert obj(known_at=d(5, 10)) == "Express.js"
    assert obj(valid_at=d(5, 20), known_at=d(5, 10)) == "Express.js"
    assert obj(valid_at=d(5, 20), known_at=d(5, 17)) == "Go"
    assert obj(valid_at=d(2, 1)) is None
    assert obj(known_at=d(3, 2)) is None


def test_two_goals_coexist_while_risk_flip_supersedes(bg: BeliefGraph) -> None:
    bg.remember(draft(predicate="goal", object="buy a house", text="Priya wants to buy a house."))
    bg.remember(
        draft(predicate="wants to", object="retire early", text="Priya wants to retire early.")
    )
    bg.remember(draft(predicate="risk_tolerance", object="cautious", text="Priya is cautious."))
    bg.remember(draft(predicate="risk_tolerance", object="aggressive", text="Priya is aggressive."))
    goals = bg.current(NS, "user", "has_goal")
    assert isinstance(goals, list)
    assert sorted(g.object or "" for g in goals) == ["buy a house", "retire early"]
    risk = bg.current(NS, "user", "risk_tolerance")
    assert risk is not None and not isinstance(risk, list) and risk.object == "aggressive"
    assert {c.predicate for c in bg.beliefs(NS, "USER")} == {"has_goal", "risk_tolerance"}


def test_user_stated_fact_survives_repeated_inference(bg: BeliefGraph) -> None:
    bg.remember(draft(predicate="lives in", object="Lisbon", text="Priya lives in Lisbon."))
    for _ in range(5):
        result = bg.remember(
            draft(
                predicate="lives in",
                object="Porto",
                text="Priya probably lives in Porto.",
                source_type="inferred",
                confidence=0.4,
            )
        )
        assert result.decision == "reject"
    city = bg.current(NS, "user", "lives_in")
    assert city is not None and not isinstance(city, list) and city.object == "Lisbon"
    conflicts = bg.conflicts(NS)
    assert len(conflicts) == 5
    assert all(c.claim.status == "rejected" and c.rival.object == "Lisbon" for c in conflicts)


def test_retiring_a_premise_flags_its_dependent(bg: BeliefGraph) -> None:
    db = bg.remember(
        draft(
            subject="atlas",
            predicate="uses database",
            object="PostgreSQL",
            text="Atlas stores its data in PostgreSQL.",
        )
    )
    premise = db.added[0]
    dep = bg.remember(
        draft(
            subject="atlas",
            predicate="migration tool",
            object="Alembic",
            text="Atlas runs its schema migrations with Alembic.",
            depends_on=(premise,),
        )
    )
    unrelated = bg.remember(
        draft(subject="atlas", predicate="license", object="MIT", text="Atlas is MIT-licensed.")
    )
    assert bg.needs_review(NS) == []
    retired = bg.contract(NS, premise, reason="moved to SQLite")
    assert retired.flagged == dep.added
    review = bg.needs_review(NS)
    assert [c.id for c in review] == dep.added
    assert premise in (review[0].review_reason or "")
    assert retired.revision_id in (review[0].review_reason or "")
    assert bg.get(NS, unrelated.added[0]).needs_review is False
    assert bg.current(NS, "atlas", "uses_database") is None
    assert bg.get(NS, premise).status == "retracted"


def test_rollback_restores_the_previous_belief(bg: BeliefGraph) -> None:
    bg.remember(draft(predicate="city", object="Lisbon", text="Priya lives in Lisbon."))
    move = bg.remember(draft(predicate="city", object="Berlin", text="Priya moved to Berlin."))
    undo = bg.rollback(NS, move.revision_id)
    city = bg.current(NS, "user", "lives_in")
    assert city is not None and not isinstance(city, list)
    assert city.object == "Lisbon" and city.status == "active"
    assert bg.get(NS, move.added[0]).status == "retracted"
    assert undo.restored == [city.id]
    # Nothing was deleted: both originals and the restored copy are in the history.
    assert [c.status for c in bg.history(NS, "user", "city")] == [
        "superseded",
        "retracted",
        "active",
    ]
    # The chain stays linear: the restored copy supersedes the rolled-back version.
    lineage = bg.lineage(NS, city.id)
    assert [e["verdict"] for e in lineage.supersedes] == ["UPDATE", "ROLLBACK"]


def test_rollback_refuses_when_a_later_revision_touched_the_fact(bg: BeliefGraph) -> None:
    bg.remember(draft(predicate="city", object="Lisbon", text="Priya lives in Lisbon."))
    move = bg.remember(draft(predicate="city", object="Berlin", text="Priya moved to Berlin."))
    bg.remember(draft(predicate="city", object="Paris", text="Priya moved to Paris."))
    with pytest.raises(ConflictError, match="roll that back first"):
        bg.rollback(NS, move.revision_id)
    with pytest.raises(NotFound, match="revision_id"):
        bg.rollback(NS, "no-such-revision")


def test_reinforced_belief_holds_a_single_contrary_mention_pending(bg: BeliefGraph) -> None:
    for session in ("S1", "S2", "S3"):
        r = bg.remember(
            draft(
                predicate="diet",
                object="vegetarian",
                text="Priya is vegetarian.",
                episode_id=session,
            )
        )
    assert r.verdict == "SAME"
    belief = bg.current(NS, "user", "dietary_preference")
    assert belief is not None and not isinstance(belief, list) and belief.frequency == 3
    held = bg.remember(draft(predicate="diet", object="vegan", text="Priya is vegan now."))
    assert held.decision == "hold_pending"
    assert [c.id for c in bg.pending(NS)] == held.added
    assert bg.get(NS, belief.id).disputed
    assert [c.claim.id for c in bg.conflicts(NS, open_only=True)] == held.added

    confirmed = bg.confirm(NS, held.added[0], actor="priya")
    now = bg.current(NS, "user", "dietary_preference")
    assert now is not None and not isinstance(now, list)
    assert now.object == "vegan" and now.version == 2
    assert confirmed.retired == [belief.id]
    assert bg.pending(NS) == [] and bg.conflicts(NS, open_only=True) == []


def test_rejecting_a_pending_claim_keeps_the_belief(bg: BeliefGraph) -> None:
    bg.remember(draft(predicate="city", object="Lisbon", text="Priya lives in Lisbon."))
    bg_conservative = BeliefGraph(bg.store, policy=Policy(preset="conservative"))
    held = bg_conservative.remember(
        draft(predicate="city", object="Rome", text="Priya lives in Rome.")
    )
    assert held.decision == "hold_pending"
    bg.reject(NS, held.added[0])
    city = bg.current(NS, "user", "lives_in")
    assert city is not None and not isinstance(city, list)
    assert city.object == "Lisbon" and not city.disputed
    assert bg.get(NS, held.added[0]).status == "rejected"
    with pytest.raises(ConflictError, match="not pending"):
        bg.confirm(NS, held.added[0])


def test_replaying_a_revision_id_changes_nothing(bg: BeliefGraph) -> None:
    c = draft(predicate="city", object="Lisbon", text="Priya lives in Lisbon.")
    first = bg.remember(c, revision_id="rev-1")
    again = bg.remember(c, revision_id="rev-1")
    assert again.replayed and again.model_dump(exclude={"replayed"}) == first.model_dump(
        exclude={"replayed"}
    )
    assert len(bg.history(NS, "user", "lives_in")) == 1
    current = bg.current(NS, "user", "lives_in")
    assert current is not None and not isinstance(current, list) and current.frequency == 1


def test_contract_closing_validity_differs_from_retraction(bg: BeliefGraph) -> None:
    job = bg.remember(
        draft(
            predicate="works at",
            object="Acme",
            text="Priya works at Acme.",
            valid_from=d(1, 1),
            recorded_at=d(1, 2),
        )
    )
    bg.contract(NS, job.added[0], retract=False, valid_to=d(6, 30))
    ended = bg.get(NS, job.added[0])
    assert ended.status == "superseded" and ended.valid_to == d(6, 30)
    assert ended.retracted_at is None and ended.superseded_at is not None
    assert bg.current(NS, "user", "works_at") is None
    past = bg.as_of(NS, "user", "works_at", valid_at=d(3, 1))
    assert past is not None and not isinstance(past, list) and past.object == "Acme"


def test_rectify_replaces_the_record_over_the_same_window(bg: BeliefGraph) -> None:
    wrong = bg.remember(
        draft(
            predicate="birthday",
            object="1990-05-01",
            text="Priya was born on 1 May 1990.",
            valid_from=d(1, 1),
            recorded_at=d(1, 1),
        )
    )
    fixed = bg.rectify(
        NS,
        wrong.added[0],
        object="1990-05-10",
        text="Priya was born on 10 May 1990.",
        actor="dpo@example.org",
    )
    now = bg.current(NS, "user", "birthday")
    assert now is not None and not isinstance(now, list)
    assert now.object == "1990-05-10" and now.source_type == "human_verified"
    assert now.valid_from == d(1, 1)
    assert bg.get(NS, wrong.added[0]).status == "retracted"
    # What we believed before the rectification is still answerable.
    before = bg.as_of(NS, "user", "birthday", valid_at=d(2, 1), known_at=d(2, 1))
    assert before is not None and not isinstance(before, list) and before.object == "1990-05-01"
    assert fixed.verdict == "CONFLICT"


def test_erase_subject_leaves_tombstones_and_no_content(
    bg: BeliefGraph, make_bg: Callable[..., BeliefGraph]
) -> None:
    secret = "Priya's secret diagnosis is XYZZY-42."
    bg.remember(
        draft(
            predicate="health condition",
            object="XYZZY-42",
            text=secret,
            episode_id="S9",
            episode_content="I was told it is XYZZY-42.",
        )
    )
    bg.remember(
        ClaimDraft(
            namespace="user:other",
            subject="user",
            predicate="health condition",
            object="XYZZY-42",
            text=secret,
        )
    )
    before = bg.store.read("admin/namespace_stats", namespace=NS)
    result = bg.erase(NS, subject="user")
    assert result.op == "erase" and len(result.retired) == 1
    records = q(bg.store, "MATCH (n) WHERE n.namespace = $ns RETURN properties(n) AS p", ns=NS)
    assert records and not any("XYZZY" in str(r["p"]) for r in records)
    assert not bg.current(NS, "user", "health_condition")
    after = bg.store.read("admin/namespace_stats", namespace=NS)
    assert sum(r["claims"] for r in after) == sum(r["claims"] for r in before)
    other = bg.current("user:other", "user", "health_condition")
    assert [c.object for c in (other if isinstance(other, list) else [other])] == ["XYZZY-42"]
    with pytest.raises(ConflictError, match="erase cannot be rolled back"):
        bg.rollback(NS, result.revision_id)


def test_a_repeat_in_the_same_ingest_batch_counts_once(bg: BeliefGraph) -> None:
    same = draft(predicate="city", object="Lisbon", text="Priya lives in Lisbon.")
    results = bg.ingest([same, same, same], batch_size=10)
    assert [r.verdict for r in results] == ["NEW", "SAME", "SAME"]
    city = bg.current(NS, "user", "lives_in")
    assert city is not None and not isinstance(city, list) and city.frequency == 3
