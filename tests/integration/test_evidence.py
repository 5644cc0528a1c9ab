"""Evidence and policy (issue #12, docs/policy.md) on a real Neo4j: independent support, trust
raised by a restatement, policy changed only by promotion, demotion, trust in time after a human
verification, generate-then-verify and the confidence floor. Each case the issue lists first is
a test here showing the intended behaviour."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft, ConflictError, Policy
from belief_graph.detect import Detector
from belief_graph.store import Store
from belief_graph.testing.factories import draft
from belief_graph.testing.graph import check_graph, string_values

NS = "project:atlas"


def said(obj: str, predicate: str = "package_manager", **kw: Any) -> ClaimDraft:
    """Atlas's ``predicate`` is ``obj``, in the words "Atlas uses obj." unless ``text`` says."""
    return draft("atlas", predicate, obj, **{"namespace": NS, "text": f"Atlas uses {obj}.", **kw})


def belief(bg: BeliefGraph, predicate: str = "package_manager") -> Any:
    found = bg.current(NS, "atlas", predicate)
    assert not isinstance(found, list)
    return found


# -- 1. independent evidence ---------------------------------------------------------------------


def test_replays_of_one_episode_count_once(bg: BeliefGraph) -> None:
    """Issue case: the same draft from S1 three times no longer holds the user's change."""
    for _ in range(3):
        last = bg.remember(said("pnpm", episode_id="S1"))
    claim = belief(bg)
    assert (claim.frequency, claim.support) == (3, 1)
    assert last.verdict == "SAME"
    moved = bg.remember(said("npm", episode_id="S2"))
    assert moved.decision == "supersede", moved.reason
    assert belief(bg).object == "npm"


def test_a_source_sent_without_an_episode_id_is_kept_as_its_revisions_episode(
    bg: BeliefGraph,
) -> None:
    """The source text is provenance even without an id: lineage shows each mention's own, the
    two mentions count as two units, and an erase takes the text with the claim."""
    first = bg.remember(said("pnpm", episode_content="Ana: we moved Atlas to pnpm."))
    again = bg.remember(said("pnpm", episode_content="Ben: Atlas installs with pnpm now."))
    assert again.reinforced == [first.claim_id]
    assert belief(bg).support == 2
    episodes = bg.lineage(NS, first.claim_id).episodes
    assert sorted(e.content for e in episodes) == [
        "Ana: we moved Atlas to pnpm.",
        "Ben: Atlas installs with pnpm now.",
    ]
    assert sorted(e.id for e in episodes) == sorted(
        f"revision:{r.revision_id}" for r in (first, again)
    )
    bg.erase(NS, subject="atlas")
    assert not [v for v in string_values(bg.store) if "pnpm" in v]


def test_independent_episodes_still_hold_a_single_mention_pending(bg: BeliefGraph) -> None:
    for session in ("S1", "S2", "S3"):
        bg.remember(said("pnpm", episode_id=session))
    assert belief(bg).support == 3
    held = bg.remember(said("npm", episode_id="S4"))
    assert held.decision == "hold_pending"
    assert "3 independent episodes" in held.reason


def test_lower_trust_echoes_add_no_weight_against_the_user(bg: BeliefGraph) -> None:
    """Issue case: two inferred echoes of a user_stated claim no longer lock it."""
    first = bg.remember(said("pnpm", episode_id="S1"))
    for session in ("A1", "A2"):
        echo = bg.remember(said("pnpm", episode_id=session, source_type="inferred", author="bot"))
        assert echo.reinforced == first.added
    claim = belief(bg)
    assert claim.source_type == "user_stated" and claim.support == 3 and claim.sources == 2
    moved = bg.remember(said("npm", episode_id="S2"))
    assert moved.decision == "supersede", moved.reason
    assert belief(bg).object == "npm"


def test_a_more_trusted_restatement_raises_trust(bg: BeliefGraph) -> None:
    """Issue case: an inferred claim restated by the user becomes user_stated, so a later
    tool_output no longer overrides it; the revision records who raised it, and a rollback
    sets it back."""
    guess = bg.remember(said("pnpm", source_type="inferred", author="agent", episode_id="A1"))
    restated = bg.remember(said("pnpm", source_type="user_stated", author="ana", episode_id="S1"))
    assert restated.reinforced == guess.added
    assert "trust raised from inferred" in restated.reason
    claim = belief(bg)
    assert claim.source_type == "user_stated" and claim.sources == 2
    assert {e.id for e in bg.lineage(NS, claim.id).episodes} == {"A1", "S1"}
    # A rollback of the restatement sets the trust back.
    bg.rollback(NS, restated.revision_id)
    back = belief(bg)
    assert back.source_type == "inferred" and back.support == 1 and back.frequency == 1
    again = bg.remember(said("pnpm", source_type="user_stated", author="ana", episode_id="S1"))
    assert again.reinforced == guess.added and belief(bg).source_type == "user_stated"
    tool = bg.remember(said("npm", source_type="tool_output", author="ci"))
    assert tool.decision == "reject"
    assert belief(bg).object == "pnpm"


# -- 2. policy vs evidence -----------------------------------------------------------------------


def convention(bg: BeliefGraph) -> str:
    result = bg.remember(
        said("pnpm", kind="policy", origin="ADR-7", author="tech-lead", episode_id="ADR-7")
    )
    return result.added[0]


def observe(bg: BeliefGraph, episode: str, author: str = "agent") -> Any:
    return bg.remember(
        said(
            "npm",
            source_type="observed",
            author=author,
            origin=f"ci run {episode}",
            episode_id=episode,
        )
    )


def test_evidence_never_supersedes_a_policy_it_is_a_dispute(bg: BeliefGraph) -> None:
    """Issue case: a policy ("use pnpm", from an ADR) is no longer superseded by one agent's
    evidence ("npm"): the evidence is held as a dispute, surfaced, and confirm refuses it."""
    rule = convention(bg)
    seen = observe(bg, "run-1")
    assert seen.decision == "hold_pending" and not seen.retired
    assert "dispute" in seen.reason
    assert belief(bg).id == rule and belief(bg).kind == "policy"
    [dispute] = bg.disputes(NS)
    assert dispute.policy.id == rule and [c.id for c in dispute.evidence] == seen.added
    assert (dispute.episodes, dispute.sources, dispute.demoted) == (1, 1, False)
    assert bg.rivals(NS, [belief(bg)])[0].id == seen.added[0]
    with pytest.raises(ConflictError, match="only promote changes a policy"):
        bg.confirm(NS, seen.added[0])
    with pytest.raises(ConflictError, match="only promote changes a policy"):
        bg.resolve(NS, seen.added[0], rule, keep=seen.added[0])
    # Rejecting the evidence works the queue down.
    bg.reject(NS, seen.added[0])
    assert bg.disputes(NS) == [] and bg.pending(NS) == []


def test_a_guess_cannot_even_dispute_a_policy(bg: BeliefGraph) -> None:
    rule = convention(bg)
    guess = bg.remember(said("npm", source_type="inferred"))
    assert guess.decision == "reject" and bg.disputes(NS) == []
    assert belief(bg).id == rule


@pytest.mark.slow
def test_repeated_independent_disputes_demote_the_policy_for_a_human(
    bg: BeliefGraph, store: Store
) -> None:
    rule = convention(bg)
    first = observe(bg, "run-1", author="agent-a")
    # A replay of the same run adds nothing; the same agent in new runs adds episodes.
    observe(bg, "run-1", author="agent-a")
    observe(bg, "run-2", author="agent-a")
    assert not bg.get(NS, rule).demoted
    third = observe(bg, "run-3", author="agent-b")
    assert third.reinforced == first.added
    assert "demoted to disputed" in third.reason and rule in third.flagged
    policy = bg.get(NS, rule)
    assert policy.demoted and policy.needs_review and policy.status == "active"
    assert "3 independent episodes and 2 sources" in (policy.review_reason or "")
    assert belief(bg).id == rule, "a demoted policy stays the belief until a human decides"
    [dispute] = bg.disputes(NS)
    assert (dispute.episodes, dispute.sources, dispute.demoted) == (3, 2, True)
    assert [c.id for c in bg.needs_review(NS)] == [rule]
    # A human's decision promotes the evidence: it becomes the policy, pnpm is superseded.
    promoted = bg.promote(NS, first.added[0], by="human", actor="tech-lead", reason="we moved")
    assert promoted.op == "promote" and promoted.retired == [rule]
    now = belief(bg)
    assert (now.object, now.kind, now.version) == ("npm", "policy", 2)
    old = bg.get(NS, rule)
    assert old.status == "superseded" and old.valid_to == now.valid_from
    assert bg.disputes(NS) == [] and bg.pending(NS) == []
    audit = bg.lineage(NS, now.id).revisions
    assert any(r.op == "promote" and r.actor == "tech-lead" for r in audit)
    assert check_graph(store) == []


def test_promotion_needs_its_basis(bg: BeliefGraph) -> None:
    fact = bg.remember(said("pnpm", episode_id="S1")).added[0]
    with pytest.raises(ValueError, match="actor"):
        bg.promote(NS, fact, by="human")
    with pytest.raises(ValueError, match="origin"):
        bg.promote(NS, fact, by="record")
    with pytest.raises(ConflictError, match="1 independent episode"):
        bg.promote(NS, fact, by="outcome")
    for session in ("S2", "S3"):
        bg.remember(said("pnpm", episode_id=session))
    by_outcome = bg.promote(NS, fact, by="outcome", reason="three green releases")
    assert "3 independent episodes" in by_outcome.reason
    now = belief(bg)
    assert now.kind == "policy" and now.promoted_from == fact and now.support == 3
    with pytest.raises(ConflictError, match="already a policy"):
        bg.promote(NS, now.id, by="record", origin="PR #42")
    # The evidence stays on record for its window; as_of before the promotion answers it.
    earlier = bg.get(NS, fact)
    assert earlier.status == "superseded" and earlier.kind == "evidence"


def test_promotion_by_a_merged_record_names_it(bg: BeliefGraph) -> None:
    fact = bg.remember(said("pnpm")).added[0]
    result = bg.promote(NS, fact, by="record", origin="PR #42")
    assert "merged record" in result.reason
    assert belief(bg).origin == "PR #42" and belief(bg).kind == "policy"


def test_demote_by_hand_reinstate_and_roll_back(bg: BeliefGraph) -> None:
    rule = convention(bg)
    with pytest.raises(ConflictError, match="not a policy"):
        bg.demote(NS, bg.remember(said("x", predicate="ci")).added[0])
    demoted = bg.demote(NS, rule, reason="builds keep failing", actor="ana")
    assert demoted.op == "demote" and bg.get(NS, rule).demoted
    assert [d.policy.id for d in bg.disputes(NS)] == [rule]
    with pytest.raises(ConflictError, match="already demoted"):
        bg.demote(NS, rule)
    bg.rollback(NS, demoted.revision_id)
    back = bg.get(NS, rule)
    assert not back.demoted and not back.needs_review
    bg.demote(NS, rule)
    reinstated = bg.promote(NS, rule, by="human", actor="tech-lead", reason="keep pnpm")
    assert reinstated.decision == "reinstate"
    assert not bg.get(NS, rule).demoted and bg.disputes(NS) == []


# -- 4. trust in time ----------------------------------------------------------------------------


def test_a_verified_value_holds_its_window_not_the_fact_forever(bg: BeliefGraph) -> None:
    """Issue case: after a rectify, the user's genuine later change is held pending beside the
    verified value (not rejected); confirm makes it the belief."""
    wrong = bg.remember(said("Lisbon", predicate="lives_in", text="Ana lives in Lisbon."))
    verified = bg.rectify(
        NS, wrong.added[0], object="Porto", text="Ana lives in Porto.", actor="ana"
    ).added[0]
    moved = bg.remember(said("Madrid", predicate="lives_in", text="Ana moved to Madrid."))
    assert moved.decision == "hold_pending", moved.reason
    assert "human-verified" in moved.reason
    assert belief(bg, "lives_in").id == verified
    assert [c.id for c in bg.rivals(NS, [belief(bg, "lives_in")])] == moved.added
    bg.confirm(NS, moved.added[0], actor="ana")
    assert belief(bg, "lives_in").object == "Madrid"


def test_a_back_dated_contradiction_of_a_verified_window_is_rejected(bg: BeliefGraph) -> None:
    first = bg.remember(said("Lisbon", predicate="lives_in"))
    bg.rectify(NS, first.added[0], object="Porto", text="Ana lives in Porto.", actor="ana")
    claim = belief(bg, "lives_in")
    back = bg.remember(said("Faro", predicate="lives_in", valid_from=claim.valid_from))
    assert back.decision == "reject"
    wrong = bg.remember(said("Faro", predicate="lives_in", correction=True))
    assert wrong.decision == "reject"
    assert belief(bg, "lives_in").object == "Porto"


@pytest.mark.parametrize(("after", "decision"), [("supersede", "supersede"), ("reject", "reject")])
def test_after_verified_follows_the_policy_file(
    make_bg: Callable[..., BeliefGraph], after: str, decision: str
) -> None:
    bg = make_bg(policy=Policy(after_verified=after))  # type: ignore[arg-type]
    bg.remember(said("Porto", predicate="lives_in", source_type="human_verified"))
    moved = bg.remember(said("Madrid", predicate="lives_in"))
    assert moved.decision == decision


def test_a_lower_trust_change_after_a_verification_is_still_rejected(bg: BeliefGraph) -> None:
    bg.remember(said("Porto", predicate="lives_in", source_type="human_verified"))
    assert bg.remember(said("Madrid", predicate="lives_in", source_type="observed")).decision == (
        "reject"
    )


# -- 5. generate-then-verify and the confidence floor --------------------------------------------


def test_the_confidence_floor_keeps_a_guess_from_becoming_the_belief(bg: BeliefGraph) -> None:
    """Issue case: an inferred claim at confidence 0.1 no longer becomes the current belief."""
    guess = bg.remember(said("yarn", source_type="inferred", confidence=0.1))
    assert guess.decision == "hold_pending" and "confidence floor" in guess.reason
    assert belief(bg) is None
    assert [c.id for c in bg.pending(NS)] == guess.added
    bg.confirm(NS, guess.added[0], actor="ana")
    assert belief(bg).object == "yarn"
    # Above the floor, a change goes through as before.
    assert bg.remember(said("pnpm", confidence=0.5)).decision == "supersede"
    low = bg.remember(said("npm", confidence=0.1))
    assert low.decision == "hold_pending" and belief(bg).object == "pnpm"


def test_the_floor_is_in_the_policy_file(make_bg: Callable[..., BeliefGraph]) -> None:
    bg = make_bg(policy=Policy(confidence_floor=0.0))
    assert bg.remember(said("yarn", source_type="inferred", confidence=0.1)).decision == "expand"


@pytest.fixture
def verifying(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> Callable[..., BeliefGraph]:
    embedder, scorer = offline_models

    def make(policy: Policy | None = None) -> BeliefGraph:
        return make_bg(detector=Detector(embedder, scorer), policy=policy)  # type: ignore[arg-type]

    return make


car = partial(draft, "priya", "drives", "a red car", namespace=NS, text="Priya drives a red car.")


def test_a_claim_its_source_contradicts_is_refused(verifying: Callable[..., BeliefGraph]) -> None:
    bg = verifying()
    refused = bg.remember(
        car(episode_id="S1", episode_content="Priya said she has never owned a car.")
    )
    assert refused.decision == "refuse"
    assert "contradicts" in refused.reason
    stored = bg.get(NS, refused.added[0])
    assert stored.status == "rejected" and stored.refused_reason
    assert bg.current(NS, "priya", "drives") in (None, [])


def test_a_claim_its_source_does_not_support_waits(verifying: Callable[..., BeliefGraph]) -> None:
    bg = verifying()
    held = bg.remember(
        car(episode_id="S1", episode_content="We talked about the weather and a football match.")
    )
    assert held.decision == "hold_pending" and "does not support" in held.reason
    assert bg.current(NS, "priya", "drives") in (None, [])
    supported = bg.remember(
        said(
            "pnpm",
            text="The project uses pnpm.",
            episode_id="S2",
            episode_content="The test suite ran with pnpm and passed.",
        )
    )
    assert supported.decision == "expand"


def test_unsupported_can_mean_low_confidence(verifying: Callable[..., BeliefGraph]) -> None:
    bg = verifying(Policy(unsupported="low_confidence", unsupported_confidence=0.3))
    kept = bg.remember(
        car(
            confidence=0.9,
            episode_id="S1",
            episode_content="We talked about the weather and a football match.",
        )
    )
    assert kept.decision == "expand"
    assert bg.get(NS, kept.added[0]).confidence == 0.3


def test_the_demo_tells_the_convention_story(bg: BeliefGraph) -> None:
    import io

    from rich.console import Console

    from belief_graph.cli import demo

    out = io.StringIO()
    ns = demo.run(bg, Console(file=out, width=200))
    text = out.getvalue()
    assert "An agent's observation disputes a convention" in text
    assert "demoted to disputed" in text and "promote" in text
    now = bg.current(ns, "atlas", "package_manager")
    assert not isinstance(now, list) and now is not None
    assert (now.object, now.kind) == ("npm", "policy")
