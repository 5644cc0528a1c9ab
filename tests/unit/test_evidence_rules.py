"""Evidence and policy, pure (docs/policy.md): support counting, the decisions that read it,
verification, and the promote/demote decisions, without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from belief_graph.errors import ConflictError
from belief_graph.evidence import (
    evidence_of,
    mention_key,
    source_key,
    support_at,
    union,
    with_mention,
)
from belief_graph.models import Claim, SourceType
from belief_graph.policy import DEFAULT_TRUST, PairScores, Plan, Policy, decide, verification
from belief_graph.write import operations
from belief_graph.write.changes import SlotState
from belief_graph.write.state import State

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
NS = "project:atlas"


def row(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "old",
        "namespace": NS,
        "slot_id": "S1",
        "subject": "atlas",
        "predicate": "package_manager",
        "object": "pnpm",
        "text": "Atlas uses pnpm.",
        "source_type": "user_stated",
        "confidence": 0.8,
        "frequency": 1,
        "kind": "evidence",
        "status": "active",
        "version": 1,
        "valid_from": T0,
        "recorded_at": T0,
        "accepted_at": T0,
        "contradiction": False,
    }
    return base | extra


def mentions(*units: tuple[str, str, str]) -> dict[str, Any]:
    """A row's evidence lists from (episode, source type, source) mentions, in order."""
    current: dict[str, Any] = row()
    current.update(
        evidence_episodes=[mention_key(units[0][0], "r0")],
        evidence_types=[units[0][1]],
        evidence_sources=[units[0][2]],
    )
    for episode, source_type, source in units[1:]:
        ev = with_mention(
            current, mention_key(episode, "r"), source_type, source, DEFAULT_TRUST, 64
        )
        current.update(ev.props())
    return current


def test_a_replayed_episode_counts_once() -> None:
    r = mentions(*[("S1", "user_stated", "author:ana")] * 5)
    assert len(evidence_of(r).episodes) == 1 and evidence_of(r).sources == ("author:ana",)


def test_lower_trust_echoes_count_only_against_lower_trust() -> None:
    r = mentions(
        ("S1", "user_stated", "author:ana"),
        ("A1", "inferred", "author:bot"),
        ("A2", "inferred", "author:bot"),
    )
    assert support_at(r, DEFAULT_TRUST["user_stated"], DEFAULT_TRUST) == 1
    assert support_at(r, DEFAULT_TRUST["inferred"], DEFAULT_TRUST) == 3


def test_a_unit_keeps_its_most_trusted_source_type() -> None:
    r = mentions(("S1", "inferred", "author:bot"), ("S1", "user_stated", "author:ana"))
    assert evidence_of(r).episodes == {"episode:S1": "user_stated"}
    r = mentions(("S1", "user_stated", "author:ana"), ("S1", "inferred", "author:bot"))
    assert evidence_of(r).episodes == {"episode:S1": "user_stated"}


def test_support_is_capped() -> None:
    current = row()
    for i in range(100):
        current.update(
            with_mention(
                current, f"episode:{i}", "inferred", f"author:{i}", DEFAULT_TRUST, 10
            ).props()
        )
    assert len(current["evidence_episodes"]) == 10 and len(current["evidence_sources"]) == 10


def test_a_claim_without_recorded_evidence_counts_its_mentions() -> None:
    assert support_at(row(frequency=4), 3, DEFAULT_TRUST) == 4
    assert support_at(row(frequency=4, source_type="inferred"), 3, DEFAULT_TRUST) == 0


def test_sources_are_the_author_else_the_origin() -> None:
    assert source_key("Ana ", "chat", "user_stated") == source_key("ana", None, "observed")
    assert source_key(None, "CI run 1", "observed") == "origin:ci run 1"
    assert source_key(None, None, "inferred") == "anonymous:inferred"
    together = union([mentions(("S1", "observed", "a")), mentions(("S1", "observed", "b"))])
    assert len(together.episodes) == 1 and set(together.sources) == {"a", "b"}


# -- decide ----------------------------------------------------------------------------------


def plan(
    old: dict[str, Any],
    *,
    source: SourceType = "user_stated",
    confidence: float = 0.8,
    kind: str = "evidence",
    valid_from: datetime | None = None,
    correction: bool = False,
    policy: Policy | None = None,
) -> Plan:
    return decide(
        source,
        confidence,
        correction,
        "package_manager",
        "single",
        [Claim.model_validate(old)],
        {"old": PairScores()},
        policy or Policy(),
        draft_kind=kind,  # type: ignore[arg-type]
        draft_valid_from=valid_from or T0 + timedelta(days=1),
    )


def test_replays_do_not_trigger_the_pending_rule() -> None:
    replayed = mentions(*[("S1", "user_stated", "author:ana")] * 3) | {"frequency": 3}
    assert plan(replayed).action == "supersede"
    independent = mentions(
        ("S1", "user_stated", "a"), ("S2", "user_stated", "a"), ("S3", "user_stated", "a")
    )
    assert plan(independent).action == "hold_pending"


def test_echoes_below_the_users_trust_do_not_lock_the_belief() -> None:
    echoed = mentions(
        ("S1", "user_stated", "ana"), ("A1", "inferred", "bot"), ("A2", "inferred", "bot")
    )
    assert plan(echoed).action == "supersede"
    # ... but against another guess they do count.
    guessed = echoed | {"source_type": "inferred"}
    assert plan(guessed, source="inferred").action == "hold_pending"


def test_evidence_against_a_policy_is_a_dispute() -> None:
    rule = row(kind="policy")
    p = plan(rule, source="observed")
    assert (p.action, p.dispute, p.target) == ("hold_pending", True, "old")
    assert plan(rule, source="human_verified").dispute
    assert plan(rule, source="inferred").action == "reject"
    assert plan(rule, kind="policy").action == "supersede"
    lenient = Policy(dispute_min_source="inferred")
    assert plan(rule, source="inferred", policy=lenient).dispute


def test_a_change_after_a_verification_waits_beside_it() -> None:
    verified = row(source_type="human_verified", accepted_at=T0 + timedelta(hours=1))
    later = plan(verified, valid_from=T0 + timedelta(days=2))
    assert later.action == "hold_pending" and "human-verified" in later.reason
    assert plan(verified, valid_from=T0).action == "reject"
    assert plan(verified, correction=True).action == "reject"
    assert plan(verified, source="observed").action == "reject"
    assert plan(verified, policy=Policy(after_verified="supersede")).action == "supersede"
    assert plan(verified, policy=Policy(after_verified="reject")).action == "reject"
    assert plan(verified, source="human_verified").action == "supersede"


@pytest.mark.parametrize("confidence", [0.0, 0.1, 0.19])
def test_the_confidence_floor_holds_a_guess(confidence: float) -> None:
    empty = decide("inferred", confidence, False, "p", "single", [], {}, Policy())
    assert empty.action == "hold_pending" and "confidence floor" in empty.reason
    assert plan(row(), confidence=confidence).action == "hold_pending"
    assert plan(row(), confidence=confidence, source="human_verified").action == "supersede"
    assert decide("inferred", 0.2, False, "p", "single", [], {}, Policy()).action == "expand"


def test_verification_outcomes() -> None:
    policy = Policy()
    assert verification(None, policy) is None
    assert verification(PairScores(contradiction=0.95, similarity=0.9), policy) == "contradicted"
    assert verification(PairScores(contradiction=0.1, entailment=0.2), policy) == "unsupported"
    assert verification(PairScores(contradiction=0.1, entailment=0.8), policy) == "supported"
    assert verification(PairScores(contradiction=0.1, similarity=0.1), policy) == "unsupported"
    assert verification(PairScores(contradiction=0.1, similarity=0.6), policy) == "supported"
    assert verification(PairScores(contradiction=0.1), policy) == "supported"
    assert verification(PairScores(contradiction=0.99), Policy(verify=False)) is None


def test_every_evidence_key_loads_from_a_policy_file(tmp_path: Any) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(
        "support_cap = 8\npromote_after_episodes = 2\ndemote_after_disputes = 4\n"
        'demote_after_sources = 1\ndispute_min_source = "inferred"\n'
        'after_verified = "reject"\nconfidence_floor = 0.05\nverify = false\n'
        'verify_entailment = 0.6\nverify_similarity = 0.2\nunsupported = "low_confidence"\n'
        "unsupported_confidence = 0.25\n",
        encoding="utf-8",
    )
    policy = Policy.load(path)
    assert (policy.support_cap, policy.after_verified, policy.unsupported) == (
        8,
        "reject",
        "low_confidence",
    )


# -- promote / demote ------------------------------------------------------------------------


def state(*claims: dict[str, Any]) -> State:
    s = SlotState(
        key=(NS, "atlas", "package_manager"),
        subject="atlas",
        cardinality="single",
        slot_id="S1",
        seq=1,
        versions=1,
        head=claims[0]["id"],
        last_recorded_at=T0,
        last_revision=None,
        claims=[dict(c) for c in claims if c["status"] in ("active", "pending")],
        new=False,
    )
    return State(slots={s.key: s}, claims={(NS, c["id"]): c for c in claims})


def promote(st: State, claim_id: str, **kw: Any) -> Any:
    args: dict[str, Any] = {
        "by": "human",
        "origin": None,
        "reason": "",
        "promote_after": 3,
        "rid": "R",
        "actor": "ana",
        "now": T0 + timedelta(days=3),
        "new_id": "NEW",
    }
    args.update(kw)
    return operations.promote(st, NS, claim_id, **args)


def test_promoting_disputing_evidence_supersedes_the_policy() -> None:
    rule = row(id="rule", kind="policy")
    evidence = row(
        id="ev",
        object="npm",
        status="pending",
        disputes_policy=True,
        valid_from=T0 + timedelta(days=1),
        recorded_at=T0 + timedelta(days=1),
        accepted_at=None,
    )
    change = promote(state(rule, evidence), "ev")
    [activation] = change.activations
    assert (activation.id, activation.kind, activation.version) == ("ev", "policy", 2)
    assert [(r.id, r.status) for r in change.retires] == [("rule", "superseded")]
    assert change.op == "promote" and "a human decision" in change.reason
    assert change.actor == "ana"


def test_promoting_active_evidence_continues_it_as_a_policy() -> None:
    fact = mentions(("S1", "user_stated", "a"), ("S2", "user_stated", "a"))
    fact["id"] = "fact"
    st = state(fact)
    with pytest.raises(ConflictError, match="2 independent episode"):
        promote(st, "fact", by="outcome")
    change = promote(st, "fact", by="outcome", promote_after=2)
    [new] = change.creates
    assert new.props["kind"] == "policy" and new.props["promoted_from"] == "fact"
    assert new.props["evidence_episodes"] == fact["evidence_episodes"]
    [retire] = change.retires
    assert (retire.id, retire.valid_to, retire.why) == ("fact", T0 + timedelta(days=3), None)
    with pytest.raises(ValueError, match="actor"):
        promote(state(fact), "fact", actor=None)
    with pytest.raises(ValueError, match="origin"):
        promote(state(fact), "fact", by="record")


def test_demote_flags_a_policy_and_promote_reinstates_it() -> None:
    rule = row(id="rule", kind="policy")
    change = operations.demote(
        state(rule), NS, "rule", reason="fails", rid="R", actor="ana", now=T0
    )
    [demotion] = change.demotions
    assert (demotion.id, demotion.undo) == ("rule", False) and ("rule", "demoted") in change.flags
    with pytest.raises(ConflictError, match="not a policy"):
        operations.demote(state(row()), NS, "old", reason="", rid="R", actor=None, now=T0)
    back = promote(state(rule | {"demoted": True}), "rule")
    assert back.decision == "reinstate" and back.demotions[0].undo
    with pytest.raises(ConflictError, match="already a policy"):
        promote(state(rule), "rule")


def test_import_reports_refused_lines_and_why() -> None:
    from rich.console import Console

    from belief_graph.cli.render import fit
    from belief_graph.cli.views.summaries import import_summary
    from belief_graph.models import RevisionResult
    from belief_graph.transfer.claims import ImportStats

    stats = ImportStats()
    why = "refused: the source it came with (episode_content) contradicts it"
    stats.count(RevisionResult(revision_id="r1", namespace=NS, op="remember", decision="expand"), 1)
    stats.count(
        RevisionResult(
            revision_id="r2",
            namespace=NS,
            op="remember",
            verdict="CONFLICT",
            decision="refuse",
            reason=why,
            added=["c2"],
        ),
        2,
    )
    stats.lines = 2
    assert stats.as_dict()["refused"] == [{"line": 2, "claim_id": "c2", "reason": why}]
    console = Console(record=True, width=200)
    console.print(fit(console, import_summary(stats)))
    shown = console.export_text()
    assert "refused, line 2" in shown and "contradicts it" in shown
