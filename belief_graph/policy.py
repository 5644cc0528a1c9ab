"""Resolution policy and the pure ``decide``: (current claims, draft, scores, policy) → a plan.

No I/O here: the store reads, the models score, and this module only decides, so every rule is a
unit test away from being checked.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import ConfigError
from .evidence import support_at
from .models import Cardinality, Claim, Kind, SourceType, Status, Verdict

Preset = Literal["recency", "conservative", "freshness"]
Action = Literal["expand", "reinforce", "supersede", "hold_pending", "reject", "refuse"]
Frame = Literal["same", "value", "predicate", "subject", "negated", "other"]

# The status a new claim gets from the action decided for it (``reinforce`` creates no claim).
STATUS_OF: dict[Action, Status] = {
    "expand": "active",
    "supersede": "active",
    "hold_pending": "pending",
    "reject": "rejected",
    "refuse": "rejected",
}

DEFAULT_TRUST: dict[str, int] = {
    "human_verified": 4,
    "user_stated": 3,
    "observed": 2,
    "tool_output": 2,
    "inferred": 1,
}


class PredicateRule(BaseModel):
    """A per-predicate override of the namespace-wide preset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: Preset


class Policy(BaseModel):
    """How conflicts are resolved. Presets:

    - ``recency`` (default): the newest claim wins and nothing is deleted, except that a belief
      reinforced ``pending_after_reinforcements`` times or more is not overturned by a single new
      mention: the newcomer waits as ``pending`` and the old belief is marked ``disputed``.
    - ``conservative``: every change to a single-valued fact waits for confirmation.
    - ``freshness``: the newest claim always wins (no pending rule).

    A lower-trust source never supersedes a higher-trust one; ``human_verified`` outranks all.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    preset: Preset = "recency"
    trust: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_TRUST))
    pending_after_reinforcements: int = Field(default=3, ge=1)
    same_similarity: float = Field(default=0.92, ge=0.0, le=1.0)
    contradiction_threshold: float = Field(default=0.9, ge=0.0, le=1.0)
    # Two facts of one subject with no point of contact (neither denies the other, no shared
    # term: PairScores.opposed) are compatible unless the model is this sure (calibrated on
    # bench/verdicts, docs/semantic.md).
    apart_contradiction_threshold: float = Field(default=0.99, ge=0.0, le=1.0)
    neighbours: int = Field(default=5, ge=1, le=100)
    # How far ahead of the engine's clock a draft's recorded_at may be (clocks drift); further
    # ahead is refused, or one claim stamped in the far future would freeze its fact.
    clock_skew_seconds: float = Field(default=300.0, ge=0.0, le=86_400.0)
    candidate_similarity: float = Field(default=0.5, ge=0.0, le=1.0)
    unframed_similarity: float = Field(default=0.75, ge=0.0, le=1.0)
    # A sentence about the same subject under another relation ("is cautious with money" /
    # "is careful with her money") restates that fact from this similarity up (calibrated on
    # data/verdicts, docs/semantic.md).
    paraphrase_similarity: float = Field(default=0.9, ge=0.0, le=1.0)
    predicates: dict[str, PredicateRule] = Field(default_factory=dict)
    # Evidence and policy (docs/policy.md): independent support, promotion, demotion.
    support_cap: int = Field(default=64, ge=1, le=1_000)
    promote_after_episodes: int = Field(default=3, ge=1)
    demote_after_disputes: int = Field(default=3, ge=1)
    demote_after_sources: int = Field(default=2, ge=1)
    dispute_min_source: SourceType = "observed"
    # Trust in time: a later change stated by a user (or a more trusted source) to a value a
    # human verified before the change started.
    after_verified: Literal["hold_pending", "supersede", "reject"] = "hold_pending"
    # Generate-then-verify and the confidence floor.
    confidence_floor: float = Field(default=0.2, ge=0.0, le=1.0)
    verify: bool = True
    verify_entailment: float = Field(default=0.5, ge=0.0, le=1.0)
    verify_similarity: float = Field(default=0.3, ge=-1.0, le=1.0)
    unsupported: Literal["hold_pending", "low_confidence"] = "hold_pending"
    unsupported_confidence: float = Field(default=0.3, ge=0.0, le=1.0)

    def preset_for(self, predicate: str | None) -> Preset:
        """The preset in force for ``predicate`` (its override, else the policy's own)."""
        rule = self.predicates.get(predicate or "")
        return rule.preset if rule else self.preset

    def rank(self, source_type: SourceType) -> int:
        """The trust rank of a source type (higher wins)."""
        return self.trust.get(source_type, 0)

    @classmethod
    def load(cls, spec: str | Path) -> Policy:
        """A preset name (``recency``, ``conservative``, ``freshness``) or a TOML file path."""
        if str(spec) in ("recency", "conservative", "freshness"):
            return cls.model_validate({"preset": str(spec)})
        path = Path(spec)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"policy file {path}: {exc}") from exc
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise ConfigError(f"policy file {path}: {exc}") from exc


class Unanswered(Exception):
    """A decision read a pair's model score (``contradiction``, ``entailment``) that has not
    been given yet: the caller scores ``pair`` (with the pairs it expects to be read) and
    decides again. A decision never runs a model."""

    def __init__(self, pair: tuple[str, str]) -> None:
        super().__init__(pair)
        self.pair = pair


@dataclass(frozen=True)
class PairScores:
    """How a draft relates to one existing claim, as detect measured it."""

    same_object: bool = False
    # Both sides state a value (an object, or the value of a sentence the frame reader reads):
    # identity is then decided by the values alone, never by similarity.
    values: bool = False
    # The same value with the opposite polarity ("works at Acme" / "no longer works at Acme").
    negates: bool = False
    frame: Frame | None = None
    similarity: float | None = None
    contradiction: float | None = None
    entailment: float | None = None
    # Exactly one of the two sentences denies ("I never sent it": ``identity.denies``); exactly
    # one side negates, an end among them: a claim with an object by its polarity or a value
    # that denies ("none"), a sentence alone by its words (``identity.has_negation``).
    denial: bool = False
    negation: bool = False
    # The two sentences share a content word beyond their subject (``identity.shared_terms``):
    # two facts with a point of contact ("allergic to cats" / "adopted a cat").
    shared: bool = False

    @property
    def opposed(self) -> bool:
        """Whether two claims of one subject's different facts have a point of contact: one
        side denies or ends what the other says (a negation on one side only, the ``negated``
        frame), or they share what they speak of. Without one, they are compatible facts
        ("speaks Spanish" / "works as a French translator") unless the model is very sure
        (``Policy.apart_contradiction_threshold``)."""
        return self.negation or self.frame == "negated" or self.shared


@dataclass(frozen=True)
class Plan:
    """What ``remember`` will do, decided before any transaction opens."""

    verdict: Verdict
    action: Action
    reason: str
    target: str | None = None
    contradiction: bool = False
    dispute: bool = False  # evidence held against a policy (see docs/policy.md)


def decide(
    draft_source: SourceType,
    draft_confidence: float,
    correction: bool,
    predicate: str | None,
    cardinality: Cardinality,
    current: Sequence[Claim],
    scores: Mapping[str, PairScores],
    policy: Policy,
    waiting: Sequence[Claim] = (),
    negated: bool = False,
    *,
    draft_kind: Kind = "evidence",
    draft_valid_from: datetime | None = None,
    stance: bool = False,
) -> Plan:
    """Decide what a new claim does to its slot. ``current`` holds the belief(s) the draft is
    compared with; ``waiting`` the slot's pending claims (a repeat of a waiting value is
    evidence for it: it reinforces the waiting claim instead of queueing a second one).
    ``negated``: the draft denies or ends its value (see ``polarity_plan``). ``stance``: the
    predicate's values are a stance (``Vocabulary.stance``; see ``reverses``)."""
    same = next((c for c in current if is_same(scores.get(c.id), policy)), None)
    if same is not None:
        return Plan("SAME", "reinforce", "same value: reinforced, no new version", target=same.id)
    held = next((c for c in waiting if is_same(scores.get(c.id), policy)), None)
    if held is not None:
        return Plan(
            "SAME",
            "reinforce",
            "same value as a claim waiting for confirmation: reinforced, still pending",
            target=held.id,
        )
    flipped = next((c for c in current if _negates(scores.get(c.id))), None)
    if flipped is not None:
        current = [flipped]
    else:
        held_plan = polarity_plan(negated, cardinality, current, scores)
        if held_plan is not None:
            return held_plan
        if cardinality == "multi" or not current:
            plan = Plan("NEW", "expand", "new value" if current else "empty slot")
            return apply_floor(plan, draft_source, draft_confidence, policy)

    old = max(current, key=lambda c: c.recorded_at)
    score = scores.get(old.id)
    contradicts = correction or flipped is not None or reverses(score, policy, stance=stance)
    verdict: Verdict = "CONFLICT" if contradicts else "UPDATE"
    new_rank, old_rank = policy.rank(draft_source), policy.rank(old.source_type)
    if old.kind == "policy" and draft_kind == "evidence":
        return _against_policy(verdict, draft_source, old, policy, contradicts)
    if (
        old.source_type == "human_verified"
        and draft_source != "human_verified"
        and new_rank >= policy.rank("user_stated")
        and not correction
        and draft_valid_from is not None
        and draft_valid_from > (old.accepted_at or old.recorded_at)
    ):
        # Trust in time: the verification holds for the window it verified, not forever.
        if policy.after_verified == "hold_pending":
            return Plan(
                verdict,
                "hold_pending",
                "a change after the human-verified value: waits for confirmation beside it",
                target=old.id,
                contradiction=contradicts,
            )
        if policy.after_verified == "supersede":
            return apply_floor(
                Plan(
                    verdict,
                    "supersede",
                    "a change after the human-verified value (after_verified = supersede)",
                    target=old.id,
                    contradiction=contradicts,
                ),
                draft_source,
                draft_confidence,
                policy,
            )
    if new_rank < old_rank:
        return Plan(
            verdict,
            "reject",
            f"a {draft_source} claim cannot override a {old.source_type} belief",
            target=old.id,
            contradiction=True,
        )
    if draft_source == "human_verified":
        return Plan(
            verdict, "supersede", "human-verified claim", target=old.id, contradiction=contradicts
        )
    preset = policy.preset_for(predicate)
    if preset == "conservative":
        return Plan(
            verdict,
            "hold_pending",
            "conservative policy: waits for confirmation",
            target=old.id,
            contradiction=contradicts,
        )
    # Support is counted in independent episodes stated at the newcomer's trust or above:
    # replays count once, and lower-trust echoes add no weight against it.
    support = support_at(old.model_dump(), new_rank, policy.trust)
    if (
        preset == "recency"
        and new_rank == old_rank
        and support >= policy.pending_after_reinforcements
    ):
        return Plan(
            verdict,
            "hold_pending",
            f"belief supported by {support} independent episodes against a single new "
            "mention: waits for confirmation",
            target=old.id,
            contradiction=contradicts,
        )
    if support_at(old.model_dump(), 0, policy.trust) == 1 and draft_confidence > old.confidence:
        reason = "more confident claim replaces a once-seen belief"
    elif new_rank > old_rank:
        reason = "higher-trust source replaces the belief"
    else:
        reason = "newest claim wins"
    plan = Plan(verdict, "supersede", reason, target=old.id, contradiction=contradicts)
    return apply_floor(plan, draft_source, draft_confidence, policy)


def reverses(score: PairScores | None, policy: Policy, *, stance: bool = False) -> bool:
    """Whether a draft contradicts the value its fact holds rather than changing it: the
    ``contradiction`` flag's model-read case (a correction and a denial of the same value, which
    the structure reads, are the others). Two values the structure reads are a change of value
    (150 commits then 165, a meeting moved to Tuesday, a move to Porto), never a contradiction
    however the model scores them, unless the fact is a ``stance`` its subject takes: there a
    value the model reads as contradicting the old one reverses it ("cautious with money" /
    "wants an aggressive, high-risk portfolio"; "vegan" / "eats meat now"), while one it does
    not is a change ("cautious" / "takes moderate risks"). Where a side's value cannot be read,
    the model's contradiction counts when exactly one of the two sentences denies ("I sent the
    report" / "I never sent the report"): an end ("no longer") is a change too."""
    if score is None or score.same_object:
        return False
    if score.values and not stance:
        return False
    if not score.values and not score.denial:
        return False
    # Read last: the model runs only for a pair the structure leaves to it.
    return score.contradiction is not None and score.contradiction >= policy.contradiction_threshold


def apply_floor(plan: Plan, source: SourceType, confidence: float, policy: Policy) -> Plan:
    """A draft below the confidence floor never becomes the belief: it waits (a human's word
    is exempt: ``human_verified`` is the confirmation)."""
    if confidence >= policy.confidence_floor or source == "human_verified":
        return plan
    return Plan(
        plan.verdict,
        "hold_pending",
        f"confidence {confidence:g} is below the confidence floor "
        f"({policy.confidence_floor:g}): waits for confirmation",
        target=plan.target,
        contradiction=plan.contradiction,
    )


def _against_policy(
    verdict: Verdict, source: SourceType, rule: Claim, policy: Policy, contradicts: bool
) -> Plan:
    """Evidence against a policy never supersedes it: a dispute, recorded and surfaced (a
    source below ``dispute_min_source`` is rejected as a lower-trust claim)."""
    if policy.rank(source) < policy.rank(policy.dispute_min_source):
        return Plan(
            verdict,
            "reject",
            f"a {source} claim cannot dispute a policy (below dispute_min_source)",
            target=rule.id,
            contradiction=True,
        )
    return Plan(
        verdict,
        "hold_pending",
        "evidence against a policy: recorded as a dispute (only promote changes a policy)",
        target=rule.id,
        contradiction=contradicts,
        dispute=True,
    )


@dataclass(frozen=True)
class Candidate:
    """An active claim near a draft (by embedding), with how the draft relates to it."""

    claim_id: str
    slot_id: str
    cardinality: Cardinality
    scores: PairScores
    # Who the candidate is about (its slot's subject, or its sentence's frame), when known.
    subject_key: str | None = None
    # Which relation it states (its slot's canonical predicate, or its sentence's), when known.
    relation_key: str | None = None

    @property
    def similarity(self) -> float:
        return self.scores.similarity or 0.0


def contradicted(
    candidates: Sequence[Candidate], policy: Policy, subject: str | None = None
) -> list[Candidate]:
    """Candidates close enough to compare whose contradiction score crosses the threshold.

    A pair whose words show the same value under another relation or subject (frames
    ``predicate``, ``subject``) is two facts, whatever the score: the offline classifier flags
    such pairs as contradictions. Sentences with no shared frame must also be close in meaning
    (``unframed_similarity``) before a contradiction score counts. With ``subject`` (the
    draft's frame), a candidate known to be about another subject is never contradicted.
    """
    return [
        c
        for c in candidates
        if _about(c, subject)
        and c.similarity >= policy.candidate_similarity
        and c.scores.frame not in ("predicate", "subject")
        and (c.scores.frame != "other" or c.similarity >= policy.unframed_similarity)
        and c.scores.contradiction is not None
        and c.scores.contradiction >= policy.contradiction_threshold
    ]


def opposes(score: PairScores, policy: Policy) -> bool:
    """Whether a contradiction between two facts of one subject (or two unframed values of one
    multi-valued fact) is recorded: the model's score crosses ``contradiction_threshold`` and
    the two have a point of contact (``PairScores.opposed``), or it crosses
    ``apart_contradiction_threshold``. Read the score last: it may run the model."""
    threshold = (
        policy.contradiction_threshold if score.opposed else policy.apart_contradiction_threshold
    )
    return score.contradiction is not None and score.contradiction >= threshold


def _about(candidate: Candidate, subject: str | None) -> bool:
    return subject is None or candidate.subject_key in (None, subject)


def match_text(
    candidates: Sequence[Candidate],
    policy: Policy,
    subject: str | None = None,
    relation: str | None = None,
) -> Candidate | None:
    """The claim a text-only draft is about, whose slot it joins; ``None``: a new fact.

    The nearest single-valued claim it contradicts (it updates that fact), else the nearest
    paraphrase (it restates that fact). A contradicted value of a multi-valued fact is not a
    match: values coexist there, so that contradiction is recorded, never resolved by
    supersession.

    With ``subject`` (the draft's sentence was read as subject, relation, value), only
    candidates about that subject can match, and a restatement under another relation needs
    ``paraphrase_similarity`` and no contradiction; without it (a sentence the frame reader
    cannot read), a paraphrase needs ``same_similarity``.

    With ``relation`` (the draft's canonical relation), a contradicted claim known to state
    another relation is never the fact it updates: identity is structural, so "X is married to
    Y" and "X died in Z" stay two facts whatever the contradiction score (the conflict between
    them is still recorded, as a rival). Words that negate the claim ("Mom likes gardening" /
    "Mom lost interest in gardening") end it under whatever relation they use.
    """
    updates = [
        c
        for c in contradicted(candidates, policy, subject)
        if c.cardinality == "single"
        and (relation is None or c.relation_key in (None, relation) or c.scores.frame == "negated")
    ]
    if updates:
        return max(updates, key=lambda c: c.similarity)
    if subject is not None:
        same = [
            c
            for c in candidates
            if c.subject_key == subject
            and not c.scores.negates
            and c.similarity >= policy.paraphrase_similarity
            and not _contradicts(c.scores, policy)
        ]
    else:
        same = [c for c in candidates if is_same(c.scores, policy)]
    return max(same, key=lambda c: c.similarity) if same else None


def _contradicts(score: PairScores, policy: Policy) -> bool:
    return score.contradiction is not None and score.contradiction >= policy.contradiction_threshold


def _negates(score: PairScores | None) -> bool:
    return score is not None and score.negates


def polarity_plan(
    negated: bool,
    cardinality: Cardinality,
    current: Sequence[Claim],
    scores: Mapping[str, PairScores],
) -> Plan | None:
    """A negated draft whose value the single-valued fact does not hold ("Priya doesn't work
    at Globex" while she works at Acme) neither ends nor replaces the belief; it waits as
    pending beside it, for review. ``None``: no such case."""
    if not negated or cardinality != "single" or not current:
        return None
    old = max(current, key=lambda c: c.recorded_at)
    score = scores.get(old.id)
    if score is None or not score.values or score.same_object or old.negated:
        return None
    return Plan(
        "CONFLICT",
        "hold_pending",
        "denies a value the fact does not hold: waits for review beside the belief",
        target=old.id,
    )


def is_same(score: PairScores | None, policy: Policy) -> bool:
    """True when a draft holds the same value as the claim ``score`` compares it with.

    The same value with the opposite polarity is never the same. When both sides state a value,
    only the values decide (``same_object``): similarity never turns another value into SAME.
    """
    if score is None or score.negates:
        return False
    if score.same_object:
        return True
    if score.values:
        return False
    paraphrase = score.similarity is not None and score.similarity >= policy.same_similarity
    # The contradiction score is read only for a paraphrase: it is computed when first read.
    return paraphrase and not _contradicts(score, policy)


Verification = Literal["supported", "unsupported", "contradicted"]


def verification(score: PairScores | None, policy: Policy) -> Verification | None:
    """Generate-then-verify: how a claim's source (its ``episode_content``, the premise) bears on
    the claim. ``contradicted``: the contradiction score crosses ``contradiction_threshold``;
    ``unsupported``: the entailment score (where the model has one) is below
    ``verify_entailment``, else the sentences' similarity is below ``verify_similarity``;
    ``None``: nothing to check with (no models, or verification off)."""
    if score is None or not policy.verify:
        return None
    if score.contradiction is not None and score.contradiction >= policy.contradiction_threshold:
        return "contradicted"
    if score.entailment is not None:
        return "supported" if score.entailment >= policy.verify_entailment else "unsupported"
    if score.similarity is not None:
        return "supported" if score.similarity >= policy.verify_similarity else "unsupported"
    return None if score.contradiction is None else "supported"
