"""The pure ``decide`` and ``Policy.load``: every resolution rule, no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from belief_graph.errors import ConfigError
from belief_graph.models import Claim, SourceType
from belief_graph.policy import PairScores, Plan, Policy, PredicateRule, decide, reverses

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def claim(
    cid: str = "old",
    *,
    source_type: SourceType = "user_stated",
    confidence: float = 0.8,
    frequency: int = 1,
    minutes: int = 0,
    obj: str = "cautious",
) -> Claim:
    at = T0 + timedelta(minutes=minutes)
    return Claim(
        id=cid,
        namespace="user:priya",
        subject="user",
        predicate="risk_tolerance",
        object=obj,
        text=f"Priya is {obj}.",
        source_type=source_type,
        confidence=confidence,
        frequency=frequency,
        status="active",
        version=1,
        valid_from=at,
        recorded_at=at,
    )


def run(
    current: list[Claim],
    scores: dict[str, PairScores] | None = None,
    *,
    source: SourceType = "user_stated",
    confidence: float = 0.8,
    correction: bool = False,
    predicate: str = "risk_tolerance",
    cardinality: str = "single",
    policy: Policy | None = None,
) -> Plan:
    return decide(
        source,
        confidence,
        correction,
        predicate,
        cardinality,  # type: ignore[arg-type]
        current,
        scores or {},
        policy or Policy(),
    )


def test_empty_slot_is_new_and_expands() -> None:
    plan = run([])
    assert (plan.verdict, plan.action, plan.target, plan.contradiction) == (
        "NEW",
        "expand",
        None,
        False,
    )


def test_empty_multi_slot_is_new() -> None:
    assert run([], cardinality="multi").action == "expand"


def test_same_object_reinforces_its_claim() -> None:
    old = claim()
    plan = run([old], {"old": PairScores(same_object=True)})
    assert (plan.verdict, plan.action, plan.target) == ("SAME", "reinforce", "old")


def test_same_object_wins_even_from_a_lower_trust_source() -> None:
    old = claim(source_type="human_verified")
    plan = run([old], {"old": PairScores(same_object=True)}, source="inferred")
    assert plan.verdict == "SAME" and plan.action == "reinforce"


def test_different_object_without_scores_is_an_update() -> None:
    plan = run([claim()], {"old": PairScores()})
    assert (plan.verdict, plan.action, plan.target, plan.contradiction) == (
        "UPDATE",
        "supersede",
        "old",
        False,
    )


def test_correction_flag_makes_a_conflict() -> None:
    plan = run([claim()], {"old": PairScores()}, correction=True)
    assert (plan.verdict, plan.action, plan.contradiction) == ("CONFLICT", "supersede", True)


def test_correction_without_any_score_entry_is_still_a_conflict() -> None:
    assert run([claim()], {}, correction=True).verdict == "CONFLICT"


@pytest.mark.parametrize(
    ("score", "verdict"),
    [(0.95, "CONFLICT"), (0.9, "CONFLICT"), (0.89, "UPDATE"), (0.1, "UPDATE")],
)
def test_contradiction_score_against_the_default_threshold(score: float, verdict: str) -> None:
    plan = run([claim()], {"old": PairScores(denial=True, contradiction=score)})
    assert plan.verdict == verdict
    assert plan.action == "supersede"
    assert plan.contradiction is (verdict == "CONFLICT")


@pytest.mark.parametrize(
    "score",
    [
        PairScores(values=True, contradiction=0.99),  # 150 commits, then 165
        PairScores(values=True, denial=True, contradiction=0.99),  # read values: a change
        PairScores(contradiction=0.99),  # "We use Express" / "We switched to Koa"
        PairScores(denial=True, contradiction=0.5),  # a denial the model does not confirm
    ],
)
def test_a_change_of_value_is_an_update_whatever_the_model_says(score: PairScores) -> None:
    plan = run([claim()], {"old": score})
    assert (plan.verdict, plan.action, plan.contradiction) == ("UPDATE", "supersede", False)


def test_contradiction_threshold_is_configurable() -> None:
    strict = Policy(contradiction_threshold=0.5)
    assert run(
        [claim()], {"old": PairScores(denial=True, contradiction=0.6)}, policy=strict
    ).verdict == ("CONFLICT")
    lax = Policy(contradiction_threshold=0.99)
    assert (
        run([claim()], {"old": PairScores(denial=True, contradiction=0.95)}, policy=lax).verdict
        == "UPDATE"
    )


def test_multi_valued_slot_appends_a_new_value() -> None:
    likes = [claim("a", obj="jazz"), claim("b", obj="tea", minutes=1)]
    plan = run(likes, {"a": PairScores(), "b": PairScores(contradiction=0.99)}, cardinality="multi")
    assert (plan.verdict, plan.action, plan.target) == ("NEW", "expand", None)


def test_multi_valued_slot_reinforces_a_repeated_value() -> None:
    likes = [claim("a", obj="jazz"), claim("b", obj="tea", minutes=1)]
    plan = run(likes, {"a": PairScores(), "b": PairScores(same_object=True)}, cardinality="multi")
    assert (plan.verdict, plan.action, plan.target) == ("SAME", "reinforce", "b")


@pytest.mark.parametrize(
    ("old_source", "new_source"),
    [
        ("user_stated", "inferred"),
        ("user_stated", "observed"),
        ("human_verified", "user_stated"),
        ("observed", "inferred"),
        ("tool_output", "inferred"),
    ],
)
def test_lower_trust_source_is_rejected(old_source: SourceType, new_source: SourceType) -> None:
    plan = run(
        [claim(source_type=old_source)], {"old": PairScores()}, source=new_source, confidence=1.0
    )
    assert (plan.action, plan.target, plan.contradiction) == ("reject", "old", True)
    assert new_source in plan.reason and old_source in plan.reason


def test_rejection_keeps_the_verdict() -> None:
    plan = run([claim()], {"old": PairScores(denial=True, contradiction=0.99)}, source="inferred")
    assert (plan.verdict, plan.action) == ("CONFLICT", "reject")


@pytest.mark.parametrize("preset", ["recency", "conservative", "freshness"])
def test_human_verified_always_supersedes(preset: str) -> None:
    old = claim(source_type="human_verified", frequency=10, confidence=1.0)
    plan = run(
        [old],
        {"old": PairScores()},
        source="human_verified",
        confidence=0.1,
        policy=Policy(preset=preset),
    )  # type: ignore[arg-type]
    assert (plan.action, plan.target) == ("supersede", "old")
    assert "human" in plan.reason


def test_human_verified_supersedes_a_reinforced_lower_trust_belief() -> None:
    plan = run(
        [claim(frequency=7)],
        {"old": PairScores(denial=True, contradiction=0.99)},
        source="human_verified",
    )
    assert (plan.verdict, plan.action, plan.contradiction) == ("CONFLICT", "supersede", True)


def test_conservative_holds_every_change_pending() -> None:
    plan = run([claim()], {"old": PairScores()}, policy=Policy(preset="conservative"))
    assert (plan.action, plan.target) == ("hold_pending", "old")
    assert plan.verdict == "UPDATE"


def test_conservative_still_rejects_lower_trust() -> None:
    plan = run(
        [claim()], {"old": PairScores()}, source="inferred", policy=Policy(preset="conservative")
    )
    assert plan.action == "reject"


def test_conservative_higher_trust_still_waits() -> None:
    plan = run(
        [claim(source_type="inferred")],
        {"old": PairScores()},
        source="user_stated",
        policy=Policy(preset="conservative"),
    )
    assert plan.action == "hold_pending"


@pytest.mark.parametrize("frequency", [3, 4, 20])
def test_recency_reinforced_belief_vs_single_mention_waits(frequency: int) -> None:
    plan = run(
        [claim(frequency=frequency)],
        {"old": PairScores(denial=True, contradiction=0.95)},
        confidence=1.0,
    )
    assert (plan.verdict, plan.action, plan.target, plan.contradiction) == (
        "CONFLICT",
        "hold_pending",
        "old",
        True,
    )
    assert str(frequency) in plan.reason


def test_recency_belief_seen_twice_is_still_superseded() -> None:
    plan = run([claim(frequency=2)], {"old": PairScores()})
    assert plan.action == "supersede"


def test_recency_pending_rule_needs_equal_trust() -> None:
    plan = run(
        [claim(frequency=5, source_type="inferred")], {"old": PairScores()}, source="user_stated"
    )
    assert plan.action == "supersede"
    assert "higher-trust" in plan.reason


def test_pending_after_reinforcements_is_configurable() -> None:
    policy = Policy(pending_after_reinforcements=5)
    assert run([claim(frequency=4)], {"old": PairScores()}, policy=policy).action == "supersede"
    assert run([claim(frequency=5)], {"old": PairScores()}, policy=policy).action == (
        "hold_pending"
    )


def test_freshness_ignores_the_reinforcement_rule() -> None:
    plan = run(
        [claim(frequency=9)],
        {"old": PairScores(denial=True, contradiction=0.99)},
        policy=Policy(preset="freshness"),
    )
    assert (plan.verdict, plan.action) == ("CONFLICT", "supersede")


def test_supersede_reasons() -> None:
    confident = run([claim(confidence=0.5)], {"old": PairScores()}, confidence=0.9)
    assert confident.reason == "more confident claim replaces a once-seen belief"
    newest = run([claim(confidence=0.9, frequency=2)], {"old": PairScores()}, confidence=0.5)
    assert newest.reason == "newest claim wins"


def test_the_newest_active_claim_is_the_target() -> None:
    older, newer = claim("a", minutes=0), claim("b", minutes=5, source_type="inferred")
    plan = run([newer, older], {"a": PairScores(), "b": PairScores()}, source="inferred")
    assert plan.target == "b" and plan.action == "supersede"


def test_per_predicate_override() -> None:
    policy = Policy(predicates={"has_condition": PredicateRule(preset="conservative")})
    assert policy.preset_for("has_condition") == "conservative"
    assert policy.preset_for("risk_tolerance") == "recency"
    assert policy.preset_for(None) == "recency"
    held = run([claim()], {"old": PairScores()}, predicate="has_condition", policy=policy)
    assert held.action == "hold_pending"
    free = run([claim()], {"old": PairScores()}, predicate="risk_tolerance", policy=policy)
    assert free.action == "supersede"


def test_per_predicate_freshness_override_of_a_recency_policy() -> None:
    policy = Policy(predicates={"risk_tolerance": PredicateRule(preset="freshness")})
    assert run([claim(frequency=5)], {"old": PairScores()}, policy=policy).action == "supersede"
    assert (
        run([claim(frequency=5)], {"old": PairScores()}, predicate="lives_in", policy=policy).action
        == "hold_pending"
    )


@pytest.mark.parametrize("similarity", [0.92, 0.95, 1.0])
def test_paraphrase_is_same(similarity: float) -> None:
    plan = run([claim()], {"old": PairScores(similarity=similarity)})
    assert (plan.verdict, plan.action, plan.target) == ("SAME", "reinforce", "old")


def test_paraphrase_below_same_similarity_is_not_same() -> None:
    assert run([claim()], {"old": PairScores(similarity=0.91)}).verdict == "UPDATE"


def test_paraphrase_that_contradicts_is_a_conflict() -> None:
    plan = run([claim()], {"old": PairScores(similarity=0.97, denial=True, contradiction=0.95)})
    assert (plan.verdict, plan.action) == ("CONFLICT", "supersede")


def test_paraphrase_with_a_low_contradiction_score_is_same() -> None:
    assert run([claim()], {"old": PairScores(similarity=0.97, contradiction=0.2)}).verdict == (
        "SAME"
    )


def test_same_similarity_is_configurable() -> None:
    policy = Policy(same_similarity=0.8)
    assert run([claim()], {"old": PairScores(similarity=0.85)}, policy=policy).verdict == "SAME"


def test_trust_ranks_are_configurable() -> None:
    policy = Policy(trust={"human_verified": 4, "user_stated": 1, "inferred": 3})
    plan = run([claim()], {"old": PairScores()}, source="inferred", policy=policy)
    assert plan.action == "supersede"
    assert policy.rank("observed") == 0


# -- Policy.load ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["recency", "conservative", "freshness"])
def test_load_preset(preset: str) -> None:
    policy = Policy.load(preset)
    assert policy.preset == preset
    assert policy.trust["human_verified"] > policy.trust["user_stated"] > policy.trust["inferred"]


def test_load_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(
        'preset = "freshness"\n'
        "pending_after_reinforcements = 4\n"
        "same_similarity = 0.9\n"
        "contradiction_threshold = 0.8\n"
        "[trust]\n"
        "human_verified = 9\n"
        "user_stated = 5\n"
        "inferred = 1\n"
        "[predicates.has_condition]\n"
        'preset = "conservative"\n',
        encoding="utf-8",
    )
    policy = Policy.load(path)
    assert policy.preset == "freshness"
    assert policy.pending_after_reinforcements == 4
    assert policy.same_similarity == 0.9
    assert policy.contradiction_threshold == 0.8
    assert policy.trust == {"human_verified": 9, "user_stated": 5, "inferred": 1}
    assert policy.preset_for("has_condition") == "conservative"
    assert Policy.load(str(path)) == policy


@pytest.mark.parametrize(
    "content",
    [
        'preset = "recency"\nnot toml at all = = =\n',
        'preset = "optimistic"\n',
        "contradiction_threshold = 1.5\n",
        "pending_after_reinforcements = 0\n",
        "unknown_key = 1\n",
        '[predicates.city]\npreset = "whatever"\n',
    ],
)
def test_bad_toml_raises_config_error_naming_the_file(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad-policy.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad-policy\.toml"):
        Policy.load(path)


def test_missing_file_raises_config_error_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml"):
        Policy.load(tmp_path / "nowhere.toml")


# -- identity: values decide, similarity never makes another value the same --------------------


def test_a_different_value_is_never_same_however_similar() -> None:
    scores = {"old": PairScores(values=True, similarity=0.99, contradiction=0.0)}
    plan = run([claim()], scores)
    assert plan.verdict == "UPDATE" and plan.action == "supersede"


def test_a_negation_of_the_held_value_ends_it_as_a_conflict() -> None:
    scores = {"old": PairScores(values=True, negates=True, similarity=0.95)}
    plan = run([claim()], scores)
    assert (plan.verdict, plan.action, plan.target, plan.contradiction) == (
        "CONFLICT",
        "supersede",
        "old",
        True,
    )


def test_a_negation_ends_one_value_of_a_multi_valued_fact() -> None:
    current = [claim("a", obj="jazz"), claim("b", obj="hiking", minutes=1)]
    scores = {"a": PairScores(values=True, negates=True), "b": PairScores(values=True)}
    plan = run(current, scores, cardinality="multi")
    assert (plan.verdict, plan.action, plan.target) == ("CONFLICT", "supersede", "a")


def test_a_negation_never_reinforces() -> None:
    scores = {"old": PairScores(values=True, negates=True, similarity=1.0)}
    assert run([claim()], scores).verdict != "SAME"


def test_denying_a_value_the_fact_does_not_hold_waits_for_review() -> None:
    scores = {"old": PairScores(values=True)}
    plan = decide(
        "user_stated", 0.8, False, "works_at", "single", [claim()], scores, Policy(), negated=True
    )
    assert (plan.action, plan.target) == ("hold_pending", "old")


def test_a_paraphrase_counts_only_when_no_values_are_stated() -> None:
    text_only = {"old": PairScores(similarity=0.95, contradiction=0.1)}
    assert run([claim()], text_only).verdict == "SAME"
    with_values = {"old": PairScores(values=True, similarity=0.95, contradiction=0.1)}
    assert run([claim()], with_values).verdict == "UPDATE"


@pytest.mark.parametrize(
    ("score", "stance", "flagged"),
    [
        # two values read, contradicting: a reversal only in a stance
        (PairScores(values=True, contradiction=0.99), True, True),
        (PairScores(values=True, contradiction=0.99), False, False),
        # a stance moved, not reversed
        (PairScores(values=True, contradiction=0.5), True, False),
        # the same value is never a reversal
        (PairScores(values=True, same_object=True, contradiction=0.99), True, False),
        # values not read: a denial the model reads as contradicting, in any fact
        (PairScores(denial=True, contradiction=0.99), False, True),
        (PairScores(denial=False, contradiction=0.99), True, False),
        (None, True, False),
    ],
)
def test_a_reversal_is_a_contradicted_stance_or_a_denial(
    score: PairScores | None, stance: bool, flagged: bool
) -> None:
    assert reverses(score, Policy(), stance=stance) is flagged


def test_a_changed_stance_is_a_flagged_conflict_a_changed_place_an_update() -> None:
    old = claim()
    scores = {old.id: PairScores(values=True, contradiction=0.99)}
    args = ("user_stated", 0.8, False, "risk_tolerance", "single", [old], scores, Policy())
    flipped = decide(*args, stance=True)  # type: ignore[arg-type]
    assert flipped.verdict == "CONFLICT" and flipped.contradiction
    moved = decide(*args, stance=False)  # type: ignore[arg-type]
    assert moved.verdict == "UPDATE" and not moved.contradiction
