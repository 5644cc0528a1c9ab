"""Rollback restores the state before the operation it reverses, whatever the operation, and a
rollback of that rollback restores the state after it (issue 64, item 9; issue 60, item 6).
"The state" is what a reader of the namespace sees: each fact's beliefs and waiting claims with
their values, mentions, confidence, kind and flags (disputed, needs review, demoted), the open
conflicts, and current(); not claim ids, since a retired belief comes back as a new version
(history is never rewritten). A confirmed claim rolled back waits again as itself."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from belief_graph import BeliefGraph, RevisionResult
from belief_graph.policy import Policy
from belief_graph.testing.factories import Clock, as_history, draft
from belief_graph.testing.graph import check_graph, q

NS = "user:undo"


def seen(bg: BeliefGraph) -> dict[str, Any]:
    """What a reader of the namespace sees, by value."""
    live = q(
        bg.store,
        "MATCH (s:Slot {namespace: $ns})<-[:IN_SLOT]-(c:Claim) "
        "WHERE c.status IN ['active', 'pending', 'rejected'] "
        "RETURN s.subject_key AS subject, s.predicate AS predicate, c.object AS object, "
        "c.status AS status, c.frequency AS frequency, c.confidence AS confidence, "
        "c.kind AS kind, coalesce(c.demoted, false) AS demoted, c.disputed AS disputed, "
        "c.needs_review AS needs_review, c.review_reason AS review_reason, c.negated AS negated",
        ns=NS,
    )
    conflicts = q(
        bg.store,
        "MATCH (a:Claim {namespace: $ns})-[x:CONTRADICTS]->(b:Claim) "
        "WHERE x.resolution IS NULL RETURN a.object AS a, b.object AS b",
        ns=NS,
    )
    facts = sorted({(r["subject"], r["predicate"]) for r in live})
    current = {}
    for subject, predicate in facts:
        found = bg.current(NS, subject, predicate)
        values = found if isinstance(found, list) else [found] if found else []
        current[f"{subject}/{predicate}"] = sorted(c.object or "" for c in values)
    return {
        "claims": sorted(live, key=lambda r: sorted((k, str(v)) for k, v in r.items())),
        "conflicts": sorted(tuple(sorted((c["a"], c["b"]))) for c in conflicts),
        "current": current,
    }


def fact(value: str, predicate: str = "lives_in", subject: str = "ana", **more: Any) -> Any:
    return draft(subject, predicate, value, namespace=NS, **more)


Setup = Callable[[BeliefGraph], Callable[[], RevisionResult]]


def expand(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    return lambda: bg.remember(fact("Lisbon"))


def supersede(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon"))
    return lambda: bg.remember(fact("Porto"))


def reinforce(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    """The issue's case: three mentions and a confidence of 0.9 after the third."""
    bg.remember(fact("Lisbon", confidence=0.5, episode_id="e1"))
    bg.remember(fact("Lisbon", confidence=0.5, episode_id="e2"))
    return lambda: bg.remember(fact("Lisbon", confidence=0.9, episode_id="e3"))


def hold_pending(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon"))
    return lambda: bg.remember(fact("Porto"))


def reject_weaker(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon", source_type="human_verified"))
    return lambda: bg.remember(fact("Porto", source_type="inferred"))


def correction(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon"))
    bg.remember(fact("Porto"))
    return lambda: bg.remember(fact("Faro", correction=True))


def contract_with_dependent(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    job = bg.remember(fact("Kelp", "works_at")).added[0]
    bg.remember(fact("tram", "commutes_by", depends_on=(job,)))
    return lambda: bg.contract(NS, job, reason="wrong")


def close(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    job = bg.remember(fact("Kelp", "works_at")).added[0]
    return lambda: bg.contract(NS, job, retract=False)


def confirm(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon"))
    held = bg.remember(fact("Porto")).added[0]
    return lambda: bg.confirm(NS, held)


def reject(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon"))
    held = bg.remember(fact("Porto")).added[0]
    return lambda: bg.reject(NS, held)


def resolve_for_the_waiting(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    first = bg.remember(fact("Lisbon")).added[0]
    held = bg.remember(fact("Porto")).added[0]
    return lambda: bg.resolve(NS, held, first, keep=held, reason="asked")


def resolve_for_the_belief(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    first = bg.remember(fact("Lisbon")).added[0]
    held = bg.remember(fact("Porto")).added[0]
    return lambda: bg.resolve(NS, held, first, keep=first, reason="asked")


def dismiss(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    first = bg.remember(fact("Lisbon")).added[0]
    held = bg.remember(fact("Porto")).added[0]
    return lambda: bg.dismiss(NS, held, first, reason="both")


def reviewed(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    job = bg.remember(fact("Kelp", "works_at")).added[0]
    tram = bg.remember(fact("tram", "commutes_by", depends_on=(job,))).added[0]
    bg.contract(NS, job, reason="wrong")
    return lambda: bg.reviewed(NS, tram, reason="still fine")


def rectify(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    home = bg.remember(fact("Lisbon")).added[0]
    return lambda: bg.rectify(NS, home, object="Porto", text="Ana lives in Porto.", actor="dpo")


def promote(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    rule = bg.remember(fact("tabs", "indentation", "team")).added[0]
    return lambda: bg.promote(NS, rule, by="human", actor="lead")


def demote(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    rule = bg.remember(fact("tabs", "indentation", "team")).added[0]
    policy = bg.promote(NS, rule, by="human", actor="lead").added[0]
    return lambda: bg.demote(NS, policy, reason="disputed")


def reinstate(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    rule = bg.remember(fact("tabs", "indentation", "team")).added[0]
    policy = bg.promote(NS, rule, by="human", actor="lead").added[0]
    bg.demote(NS, policy, reason="disputed")
    return lambda: bg.promote(NS, policy, by="human", actor="lead")


def supersede_a_premise(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    job = bg.remember(fact("Kelp", "works_at")).added[0]
    bg.remember(fact("tram", "commutes_by", depends_on=(job,)))
    return lambda: bg.remember(fact("Acme", "works_at"))


def add_a_value(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("tea", "likes"))
    return lambda: bg.remember(fact("coffee", "likes"))


def negate(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Kelp", "works_at"))
    return lambda: bg.remember(
        fact("Kelp", "works_at", text="ana no longer works at Kelp.", negated=True)
    )


def policy(bg: BeliefGraph) -> str:
    return bg.remember(
        fact("pnpm", "package_manager", "atlas", kind="policy", origin="ADR-7", episode_id="ADR")
    ).added[0]


def observed(run: str, author: str = "agent-a") -> Any:
    return fact(
        "npm", "package_manager", "atlas", source_type="observed", author=author, episode_id=run
    )


def dispute_a_policy(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    policy(bg)
    return lambda: bg.remember(observed("run-1"))


def demote_by_disputes(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    """The third independent episode demotes the policy as it reinforces the evidence."""
    policy(bg)
    bg.remember(observed("run-1"))
    bg.remember(observed("run-2"))
    return lambda: bg.remember(observed("run-3", author="agent-b"))


def promote_the_evidence(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    policy(bg)
    evidence = bg.remember(observed("run-1")).added[0]
    bg.remember(observed("run-2"))
    bg.remember(observed("run-3", author="agent-b"))
    return lambda: bg.promote(NS, evidence, by="human", actor="lead", reason="we moved")


def ingest(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon"))
    return lambda: bg.ingest([fact("Porto")])[0]


def import_history(bg: BeliefGraph) -> Callable[[], RevisionResult]:
    bg.remember(fact("Lisbon", valid_from=datetime(2025, 1, 1, tzinfo=UTC)))
    return lambda: bg.import_history(
        [as_history(fact("Porto"), datetime.now(UTC) + timedelta(seconds=1))], actor="ops"
    )[0]


OPERATIONS: dict[str, tuple[Setup, str]] = {
    "remember: expand": (expand, "recency"),
    "remember: supersede": (supersede, "recency"),
    "remember: reinforce": (reinforce, "recency"),
    "remember: hold pending": (hold_pending, "conservative"),
    "remember: reject a weaker source": (reject_weaker, "recency"),
    "remember: correction": (correction, "recency"),
    "remember: supersede a premise": (supersede_a_premise, "recency"),
    "remember: add a value": (add_a_value, "recency"),
    "remember: negation": (negate, "recency"),
    "remember: dispute a policy": (dispute_a_policy, "recency"),
    "remember: a dispute demotes the policy": (demote_by_disputes, "recency"),
    "ingest": (ingest, "recency"),
    "import": (import_history, "recency"),
    "contract: retract": (contract_with_dependent, "recency"),
    "contract: close": (close, "recency"),
    "confirm": (confirm, "conservative"),
    "reject": (reject, "conservative"),
    "resolve: keep the waiting claim": (resolve_for_the_waiting, "conservative"),
    "resolve: keep the belief": (resolve_for_the_belief, "conservative"),
    "dismiss": (dismiss, "conservative"),
    "reviewed": (reviewed, "recency"),
    "rectify": (rectify, "recency"),
    "promote": (promote, "recency"),
    "demote": (demote, "recency"),
    "promote: reinstate": (reinstate, "recency"),
    "promote: evidence over a policy": (promote_the_evidence, "recency"),
}


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_rollback_restores_the_state_before_and_its_rollback_the_state_after(
    make_bg: Callable[..., BeliefGraph], name: str
) -> None:
    setup, preset = OPERATIONS[name]
    bg = make_bg(policy=Policy(preset=preset), clock=Clock(datetime.now(UTC)))
    operation = setup(bg)
    before = seen(bg)
    done = operation()
    after = seen(bg)
    assert after != before, "the operation changed nothing a reader sees"
    undone = bg.rollback(NS, done.revision_id)
    assert seen(bg) == before
    assert check_graph(bg.store) == []
    redone = bg.rollback(NS, undone.revision_id)
    assert seen(bg) == after
    assert check_graph(bg.store) == []
    bg.rollback(NS, redone.revision_id)
    assert seen(bg) == before
    assert check_graph(bg.store) == []


def test_reinforce_rollback_rollback_gives_back_three_mentions_and_confidence(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    bg = make_bg()
    third = reinforce(bg)()
    undone = bg.rollback(NS, third.revision_id)
    claim = bg.get(NS, third.reinforced[0])
    assert (claim.frequency, claim.confidence) == (2, 0.5)
    bg.rollback(NS, undone.revision_id)
    claim = bg.get(NS, third.reinforced[0])
    assert (claim.frequency, claim.confidence) == (3, 0.9)


def test_a_confirmed_claim_rolled_back_waits_again_as_itself(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """Issue 60, item 6: not a copy retracted and another waiting: the claim itself is pending
    again (its id is the one a caller holds), and what it was meanwhile stays on record."""
    clock = Clock(datetime(2026, 3, 1, tzinfo=UTC))
    bg = make_bg(policy=Policy(preset="conservative"), clock=clock)
    bg.remember(fact("Lisbon"))
    clock.advance(days=1)
    held = bg.remember(fact("Porto")).added[0]
    clock.advance(days=1)
    confirmed = bg.confirm(NS, held)
    meanwhile = clock.advance(days=1)
    clock.advance(days=1)
    undone = bg.rollback(NS, confirmed.revision_id)
    claim = bg.get(NS, held)
    assert claim.status == "pending" and [c.id for c in bg.pending(NS)] == [held]
    now = bg.current(NS, "ana", "lives_in")
    assert now is not None and not isinstance(now, list) and now.object == "Lisbon"
    then = bg.as_of(NS, "ana", "lives_in", known_at=meanwhile)
    assert then is not None and not isinstance(then, list) and then.object == "Porto"
    assert len(bg.conflicts(NS, open_only=True)) == 1
    bg.confirm(NS, held)  # the caller's id confirms it again
    again = bg.current(NS, "ana", "lives_in")
    assert again is not None and not isinstance(again, list) and again.id == held
    assert undone.restored and check_graph(bg.store) == []


def test_a_rolled_back_remember_flags_its_dependents_as_a_contract_would(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    bg = make_bg()
    job = bg.remember(fact("Kelp", "works_at"))
    tram = bg.remember(fact("tram", "commutes_by", depends_on=(job.added[0],))).added[0]
    undone = bg.rollback(NS, job.revision_id)
    assert undone.flagged == [tram]
    [flagged] = bg.needs_review(NS)
    assert flagged.id == tram and "retracted by revision" in (flagged.review_reason or "")
