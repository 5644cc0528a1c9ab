"""The decision stage of ``remember``: from what detection found for one draft
(``Detection``) to its ``ChangeSet``. Pure: no store, no model. The model scores it reads
are those detection left as ``LazyScores``; ``pairs_needed`` names the ones it will likely
read, and a score read before the model gave it raises ``Unanswered``: the caller scores
that pair with those named, in one model call, and decides again. Nothing is changed before
the last score is read, so deciding again decides the same."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..errors import ConflictError, NotFound
from ..evidence import Evidence, mention_key, source_key, union, with_mention
from ..identity import value_key
from ..models import Claim, ClaimDraft
from ..policy import (
    STATUS_OF,
    Candidate,
    PairScores,
    Plan,
    Policy,
    apply_floor,
    contradicted,
    is_same,
    opposes,
    verification,
)
from ..policy import decide as policy_decide
from ..vocabulary import Vocabulary
from .changes import (
    CORRECTED,
    NEWEST_WINS,
    ChangeSet,
    Contradiction,
    Demotion,
    NewClaim,
    Reinforce,
    Retire,
    SlotState,
    Supersedes,
    claim_properties,
)
from .request import Request, polarity
from .state import State
from .timeline import Correction, correction, place

REFUSED_BY_SOURCE = "refused: the source it came with (episode_content) contradicts it"
UNSUPPORTED_BY_SOURCE = "its source (episode_content) does not support it: waits for confirmation"


class NeedsWholePast(Exception):
    """The draft is placed before the past versions its slot's state holds: the caller reads
    the slots with every past version and decides again."""


@dataclass(frozen=True)
class Detection:
    """What detection found for one draft: its slot (its state as the drafts before it in the
    batch left it), its scores against the slot's claims, the nearest claims in other slots
    (``candidates``, scored) and who the draft is about when known; how its source bears on
    it (``structural``: the verdict its words decide alone; ``source``: else the pair
    (draft, source) scored); its moments and its embedding."""

    request: Request
    claim_id: str
    slot: SlotState
    scores: dict[str, PairScores]
    candidates: list[tuple[Candidate, SlotState]]
    subject: str | None
    structural: str | None
    source: PairScores | None
    now: datetime
    recorded_at: datetime
    valid_from: datetime
    embedding: list[float] | None


def pairs_needed(found: Detection, policy: Policy, vocabulary: Vocabulary) -> list[PairScores]:
    """The scores ``decide`` will likely read the model's part of: scored together in one
    model call the first time it lacks one. A guess for batching only: a score not named is
    still asked for (``Unanswered``) if it is read."""
    return [
        *_likely(found.slot, found.scores, policy, vocabulary),
        *(c.scores for c, _ in found.candidates if may_contradict(c, found.subject, policy)),
        *([found.source] if found.source is not None else []),
    ]


def decide(found: Detection, policy: Policy, vocabulary: Vocabulary) -> ChangeSet:
    """The draft's ``ChangeSet``: its source verifies it first (a source that contradicts it
    refuses it; one that does not support it lowers its confidence or holds it pending, as
    ``policy.unsupported`` says), then the policy decides on the fact's timeline, the claims
    in other slots it contradicts recorded as open conflicts. Applied to the in-memory slot
    state as well."""
    slot, scores = found.slot, found.scores
    draft = found.request.draft
    rivals = _rivals(found.candidates, slot, found.subject, policy) + _inside(slot, scores, policy)
    source = found.source
    verified, verified_score = (
        (found.structural, None)
        if found.structural is not None
        else (verification(source, policy), source.entailment)
        if source is not None
        else (None, None)
    )
    if verified == "contradicted":
        return _changes(found, [], Plan("CONFLICT", "refuse", REFUSED_BY_SOURCE), policy=policy)
    if (
        verified == "supported"
        and verified_score is not None
        and "confidence" not in draft.model_fields_set
    ):
        # The verified score becomes the confidence of a draft that gave none.
        found = _with_confidence(found, round(verified_score, 4))
    if verified == "unsupported" and policy.unsupported == "low_confidence":
        found = _with_confidence(found, min(draft.confidence, policy.unsupported_confidence))
    return _placed(
        found,
        rivals,
        policy,
        vocabulary,
        unsupported=verified == "unsupported" and policy.unsupported == "hold_pending",
    )


def _with_confidence(found: Detection, confidence: float) -> Detection:
    draft = found.request.draft.model_copy(update={"confidence": confidence})
    return replace(found, request=replace(found.request, draft=draft))


def needs_older(slot: SlotState, start: datetime | None, *, correction: bool) -> bool:
    """Whether a draft of the single-valued ``slot`` that starts at ``start`` (or corrects it,
    which may retract versions back to the start of the value it replaces) needs past versions
    older than those its state holds (``SlotState.past_since``)."""
    if slot.past_since is None or slot.cardinality != "single":
        return False
    return correction or (start is not None and start < slot.past_since)


def check_references(
    draft: ClaimDraft,
    recorded_at: datetime,
    slot: SlotState,
    state: State,
    created: set[tuple[str, str]],
) -> None:
    if slot.last_recorded_at is not None and recorded_at < slot.last_recorded_at:
        raise ConflictError(
            f"recorded_at {recorded_at.isoformat()} is earlier than this fact's last recorded "
            f"change ({slot.last_recorded_at.isoformat()})"
        )
    known = state.existing | created
    for name, values in (("depends_on", draft.depends_on), ("supports", draft.supports)):
        for value in values:
            if (draft.namespace, value) not in known:
                raise NotFound(f"{name}: no claim {value!r} in namespace {draft.namespace!r}")
    if draft.id and (
        any(draft.id == i for _, i in state.existing) or any(draft.id == i for _, i in created)
    ):
        raise ConflictError(f"id: a claim {draft.id!r} already exists")


def _inside(
    slot: SlotState, scores: dict[str, PairScores], policy: Policy
) -> list[tuple[Candidate, SlotState]]:
    """Values of a multi-valued slot that the draft contradicts ("is allergic to peanuts" /
    "has no allergies at all"): they stay (values coexist) and the conflict is recorded.
    Different values of one relation ("speaks French" / "speaks Spanish", the ``value``
    frame) are what a multi-valued fact is for, so their score counts only when one of the
    two negates and the other does not (``PairScores.negation``); two unframed sentences
    close in meaning need what two facts need to be recorded (``policy.opposes``)."""
    if slot.cardinality != "multi":
        return []
    found = []
    for row in slot.active:
        score = scores.get(row["id"])
        if (
            score is not None
            and not score.same_object
            and not score.negates
            and (
                score.negation
                # Two values the structure reads are values of the fact: they coexist.
                or (not score.values and score.frame == "negated")
                or (
                    not score.values
                    and score.frame == "other"
                    and (score.similarity or 0.0) >= policy.unframed_similarity
                    # Read last: the model runs only for a pair the rules let through.
                    and opposes(score, policy)
                )
            )
            and score.contradiction is not None
            and score.contradiction >= policy.contradiction_threshold
        ):
            found.append((Candidate(row["id"], slot.slot_id, slot.cardinality, score), slot))
    return found


def _placed(
    found: Detection,
    rivals: list[tuple[Candidate, SlotState]],
    policy: Policy,
    vocabulary: Vocabulary,
    *,
    unsupported: bool = False,
) -> ChangeSet:
    """Place the draft on the fact's timeline, let the policy decide, build the change.
    ``unsupported``: verification found no support in the draft's source, so it may not
    become the belief without confirmation."""
    draft, slot, scores = found.request.draft, found.slot, found.scores
    valid_from, recorded_at = found.valid_from, found.recorded_at
    key = value_key(draft.object) if draft.object is not None else None

    def same(row: dict[str, Any]) -> bool:
        score = scores.get(row["id"])
        if score is not None:
            return is_same(score, policy)
        theirs = row.get("object") if row.get("object") is not None else row.get("object_key")
        return key is not None and theirs is not None and value_key(theirs) == key

    negated = polarity(draft)

    def judged(current: list[dict[str, Any]]) -> Plan:
        plan = policy_decide(
            draft.source_type,
            draft.confidence,
            draft.correction,
            slot.key[2],
            slot.cardinality,
            [Claim.model_validate(r) for r in current],
            scores,
            policy,
            waiting=[Claim.model_validate(r) for r in slot.waiting],
            draft_kind=draft.kind,
            draft_valid_from=valid_from,
            negated=negated,
            stance=vocabulary.stance(slot.key[2]),
        )
        return held_unsupported(plan) if unsupported else plan

    def held_unsupported(plan: Plan) -> Plan:
        if plan.action not in ("expand", "supersede"):
            return plan
        return Plan(
            plan.verdict,
            "hold_pending",
            UNSUPPORTED_BY_SOURCE,
            target=plan.target,
            contradiction=plan.contradiction,
        )

    if slot.cardinality == "multi":
        # Values coexist; one whose window has ended is history, not the value restated.
        live = [r for r in slot.active if r.get("valid_to") is None or r["valid_to"] > valid_from]
        return _changes(found, rivals, judged(live), policy=policy)
    if needs_older(slot, valid_from, correction=draft.correction):
        raise NeedsWholePast()
    known = slot.known
    # The newest version still believed (the chain's head, unless it was retracted).
    head = max((r for r in known if r.get("version")), key=lambda r: r["version"], default=None)
    if draft.correction:
        fix = correction(known, head, draft.valid_from, recorded_at, same)
        if fix is not None and head is not None:
            plan = judged([head])
            if plan.action == "supersede":
                return _correct(found, rivals, fix, policy)
            change = _changes(found, rivals, plan, policy=policy)
            if plan.action == "hold_pending":
                # Confirmed later, it still corrects (retracts) rather than supersedes.
                props = change.creates[-1].props
                props["correction"] = True
                if draft.valid_from is not None:
                    props["correction_from"] = draft.valid_from
            return change
    placed = place(known, head, valid_from, draft.valid_to, same)
    if placed.where == "overlap":
        assert placed.target is not None
        raise ConflictError(
            f"valid_from: the window from {valid_from.isoformat()} disagrees with claim "
            f"{placed.target['id']!r} (valid from {placed.target['valid_from'].isoformat()}); "
            "give a window that does not overlap it, or correction=True if it was wrong"
        )
    if placed.where == "reinforce":
        assert placed.target is not None
        plan = Plan(
            "SAME",
            "reinforce",
            "restates the value held then: reinforced",
            target=placed.target["id"],
        )
        return _changes(found, rivals, plan, policy=policy)
    if placed.where == "earlier":
        reason = "an earlier window of the fact, learned late"
        if placed.end is not None:
            reason += ": it ends where the later value starts"
        plan = Plan("NEW", "expand", reason)
        return _changes(found, rivals, plan, policy=policy, earlier=True, end=placed.end)
    if placed.where == "after_end":
        assert placed.target is not None
        plan = Plan("NEW", "expand", "the previous value's window had ended")
        plan = apply_floor(plan, draft.source_type, draft.confidence, policy)
        if unsupported:
            plan = held_unsupported(plan)
        if plan.action != "expand":
            return _changes(found, rivals, plan, policy=policy)
        return _changes(found, rivals, plan, policy=policy, ended=placed.target)
    plan = judged([head] if placed.where == "head" and head else [])
    return _changes(found, rivals, plan, policy=policy)


def _likely(
    slot: SlotState, scores: dict[str, PairScores], policy: Policy, vocabulary: Vocabulary
) -> list[PairScores]:
    """Scores of the slot's claims whose contradiction score the decision will likely read:
    the value a single-valued fact holds, a value of a multi-valued one the draft may
    contradict (``_inside``), a claim a paraphrase may restate. A guess for batching only:
    a score not announced is still computed if it is read."""
    out = []
    stance = vocabulary.stance(slot.key[2])
    for row in slot.claims:
        score = scores.get(row["id"])
        if score is None or score.same_object:
            continue
        if (
            # Two values the structure reads are a change, whatever the model says, but in
            # a stance (``policy.reverses``): else the score of such a pair is read only to
            # record it.
            (
                slot.cardinality == "single"
                and row["status"] == "active"
                and (not score.values or stance)
            )
            or score.negates
            or (not score.values and (score.similarity or 0.0) >= policy.same_similarity)
            or (
                slot.cardinality == "multi"
                and (
                    score.frame in ("negated", "value")
                    or (
                        score.frame == "other"
                        and (score.similarity or 0.0) >= policy.unframed_similarity
                    )
                    or score.negation
                )
            )
        ):
            out.append(score)
    return out


def may_contradict(candidate: Candidate, subject: str | None, policy: Policy) -> bool:
    """A candidate the rules of ``policy.contradicted`` let through to the model's score."""
    similarity, found = candidate.similarity, candidate.scores.frame
    return (
        (subject is None or candidate.subject_key in (None, subject))
        and similarity >= policy.candidate_similarity
        and found not in ("predicate", "subject")
        and (found != "other" or similarity >= policy.unframed_similarity)
    )


def _rivals(
    candidates: list[tuple[Candidate, SlotState]],
    slot: SlotState,
    subject: str | None,
    policy: Policy,
) -> list[tuple[Candidate, SlotState]]:
    """Claims in other slots the draft contradicts (implicit conflicts), recorded as open
    conflicts (``policy.opposes``): "is allergic to peanuts" / "has no allergies at all",
    "is allergic to cats" / "adopted a cat" are; "speaks Spanish" / "works as a French
    translator", two facts with no point of contact, are not unless the model is very sure
    (it scores many pairs of one subject's facts a contradiction: docs/semantic.md)."""
    others = [c for c, s in candidates if s is not slot]
    hits = {c.claim_id for c in contradicted(others, policy, subject) if opposes(c.scores, policy)}
    return [(c, s) for c, s in candidates if c.claim_id in hits]


def _changes(
    found: Detection,
    rivals: list[tuple[Candidate, SlotState]],
    plan: Plan,
    *,
    policy: Policy,
    earlier: bool = False,
    ended: dict[str, Any] | None = None,
    end: datetime | None = None,
) -> ChangeSet:
    """One draft's ``ChangeSet``, applied to the in-memory slot state as well. ``earlier``: it
    is stored as an earlier version (late knowledge about the past), its window closed at
    ``end`` when it gave none; ``ended``: the newest version, whose window ended before the
    draft starts, gives way without being closed."""
    request, claim_id, slot, scores = found.request, found.claim_id, found.slot, found.scores
    recorded_at, valid_from = found.recorded_at, found.valid_from
    _read_recorded(plan, slot, scores, rivals, earlier)
    draft, rid, ns = request.draft, request.revision_id, request.draft.namespace
    change = ChangeSet(
        revision_id=rid,
        namespace=ns,
        op="remember" if request.recorded_at is None else "import",
        decision=plan.action,
        reason=plan.reason,
        at=found.now,
        actor=request.actor,
        verdict=plan.verdict,
        slot_id=slot.slot_id,
        slot_ids=[slot.slot_id],
    )
    slot.touched_by = rid
    episode = mention_key(draft.episode_id, rid)
    # A source sent without an episode id is still the claim's provenance: it is stored as the
    # episode of its revision (the evidence unit it already is), so lineage shows it.
    episode_id = draft.episode_id or (episode if draft.episode_content else None)
    source = source_key(draft.author, draft.origin, draft.source_type)
    if plan.action not in ("reject", "refuse"):
        # A rejected claim changes nothing of the fact, so it does not move the fact's clock.
        slot.last_recorded_at = max(filter(None, [slot.last_recorded_at, recorded_at]))
    if plan.action == "reinforce":
        assert plan.target is not None
        change.reinforcements.append(
            Reinforce(
                plan.target,
                1,
                confidence=draft.confidence,
                episode_id=episode_id,
                episode_content=draft.episode_content,
                origin=draft.origin,
                at=recorded_at,
            )
        )
        row = slot.find(plan.target)
        assert row is not None
        mention = change.reinforcements[-1]
        mention.previous_confidence = row["confidence"]
        mention.previous_at = row.get("reinforced_at")
        trust = policy.trust
        evidence = with_mention(row, episode, draft.source_type, source, trust, policy.support_cap)
        mention.evidence = evidence.props()
        mention.previous_evidence = {
            k: row.get(k) for k in ("evidence_episodes", "evidence_types", "evidence_sources")
        }
        if trust.get(draft.source_type, 0) > trust.get(row["source_type"], 0):
            # A more trusted source restated the value: the claim is as trusted as its best
            # source, and the revision records who raised it.
            mention.source_type = draft.source_type
            mention.previous_source_type = row["source_type"]
            change.reason += f"; restated by a {draft.source_type} source: trust raised from " + (
                f"{row['source_type']}"
            )
            row["source_type"] = draft.source_type
        row.update(mention.evidence)
        row["frequency"] = row.get("frequency", 1) + 1
        row["confidence"] = max(row["confidence"], draft.confidence)
        row["reinforced_at"] = recorded_at
        if row.get("disputes_policy"):
            _demote_if_due(change, slot, policy)
        return change
    status = "superseded" if earlier else STATUS_OF[plan.action]
    # Each value of a multi-valued fact is version 1; a single-valued one joins the chain.
    version = (change.join_chain(slot, claim_id, plan.verdict) or 1) if status == "active" else None
    if status == "active" and slot.cardinality == "multi" and plan.action == "supersede":
        # A value of a multi-valued fact ended by its negation (or restored by its
        # affirmation): the one value's own chain.
        assert plan.target is not None
        change.supersedes.append(Supersedes(claim_id, plan.target, plan.verdict))
    props = claim_properties(
        draft,
        claim_id,
        slot.key,
        slot.subject,
        status=status,
        version=version,
        contradiction=plan.contradiction,
        disputed=plan.action == "hold_pending",
        valid_from=valid_from,
        recorded_at=recorded_at,
        embedding=found.embedding,
        negated=polarity(draft),
    )
    props.update(Evidence({episode: draft.source_type}, (source,)).props())
    if end is not None and props.get("valid_to") is None:
        props["valid_to"] = end
    if plan.dispute:
        props["disputes_policy"] = True
    if plan.action == "refuse":
        props["refused_reason"] = plan.reason
    change.creates.append(
        NewClaim(
            slot.slot_id,
            props,
            episode_id=episode_id,
            episode_content=draft.episode_content,
            depends_on=draft.depends_on,
            supports=draft.supports,
        )
    )
    if plan.action == "supersede" and plan.target is not None:
        old = slot.find(plan.target)
        assert old is not None
        if old["status"] == "active":
            # An open window closes where the new value starts; an end it already had (stated,
            # or scheduled by a contract) stays: where they overlap, the newer claim holds.
            end = valid_from if old.get("valid_to") is None else None
            change.retires.append(
                Retire(
                    plan.target,
                    "superseded",
                    previous_status="active",
                    previous_valid_to=old.get("valid_to"),
                    valid_to=end,
                    why="superseded",
                    at=recorded_at,
                )
            )
            slot.retire(old, "superseded", end)
            if plan.contradiction:
                # The contradiction is resolved (newest wins) and stays on record, so the new
                # belief can name what it contradicted.
                score = scores.get(plan.target)
                change.contradictions.append(
                    Contradiction(
                        claim_id,
                        plan.target,
                        score.contradiction if score else None,
                        dispute=False,
                        resolution=NEWEST_WINS,
                    )
                )
    if ended is not None and ended["status"] == "active":
        change.retires.append(
            Retire(ended["id"], "superseded", "active", ended.get("valid_to"), valid_to=None)
        )
        slot.retire(ended, "superseded", None)
    if plan.action in ("hold_pending", "reject") and plan.target is not None:
        score = scores.get(plan.target)
        change.contradictions.append(
            Contradiction(
                claim_id,
                plan.target,
                score.contradiction if score else None,
                dispute=plan.action == "hold_pending",
                resolution=None if plan.action == "hold_pending" else "rejected: lower trust",
            )
        )
        if plan.action == "hold_pending":
            change.flags.append((plan.target, "disputed"))
    if status in ("active", "pending"):
        for rival, rival_slot in rivals:
            change.contradictions.append(
                Contradiction(claim_id, rival.claim_id, rival.scores.contradiction, dispute=True)
            )
            change.flags.append((rival.claim_id, "disputed"))
            rival_slot.touched_by = rid
        # A copy: later drafts of the batch update it in memory (frequency), while props is
        # what the create statement writes.
        slot.claims.append(dict(props))
    if earlier:
        slot.past.append(dict(props))
    if plan.dispute:
        _demote_if_due(change, slot, policy)
    return change


def _read_recorded(
    plan: Plan,
    slot: SlotState,
    scores: dict[str, PairScores],
    rivals: list[tuple[Candidate, SlotState]],
    earlier: bool,
) -> None:
    """Read the model's scores ``_changes`` records, those it reads as it changes the slot:
    one not given yet raises ``Unanswered`` here, while the slot is as it was."""
    if plan.action == "reinforce":
        return
    target = scores.get(plan.target) if plan.target is not None else None
    if target is not None:
        old = slot.find(plan.target) if plan.target is not None else None
        superseded = plan.action == "supersede" and plan.contradiction
        if plan.action in ("hold_pending", "reject") or (
            superseded and old is not None and old["status"] == "active"
        ):
            _ = target.contradiction
    if ("superseded" if earlier else STATUS_OF[plan.action]) in ("active", "pending"):
        for rival, _slot in rivals:
            _ = rival.scores.contradiction


def _demote_if_due(change: ChangeSet, slot: SlotState, policy: Policy) -> None:
    """A policy that independent evidence keeps contradicting (``demote_after_disputes``
    episodes from ``demote_after_sources`` sources, counted over every claim disputing it) is
    demoted to disputed and put in front of a human: flagged, never deleted or replaced."""
    rules = [r for r in slot.active if r.get("kind") == "policy" and not r.get("demoted")]
    if not rules:
        return
    against = union(r for r in slot.waiting if r.get("disputes_policy"))
    episodes, sources = len(against.episodes), len(against.sources)
    if episodes < policy.demote_after_disputes or sources < policy.demote_after_sources:
        return
    for rule in rules:
        reason = (
            f"policy contradicted by evidence from {episodes} independent episodes and "
            f"{sources} sources: demoted to disputed, a human decides (promote or reviewed)"
        )
        change.demotions.append(Demotion(rule["id"], reason))
        change.flags.append((rule["id"], "demoted"))
        rule["demoted"] = True
        change.reason += f"; policy {rule['id']} demoted to disputed"


def _correct(
    found: Detection,
    rivals: list[tuple[Candidate, SlotState]],
    fix: Correction,
    policy: Policy,
) -> ChangeSet:
    """A correction: the versions it names wrong are retracted (they were never true) and the
    right value becomes the belief from ``fix.valid_from``, continuing the version before it
    when that one held the same value."""
    change = _changes(
        replace(found, valid_from=fix.valid_from),
        rivals,
        Plan("CONFLICT", "expand", "", contradiction=True),
        policy=policy,
    )
    claim_id, slot, recorded_at = found.claim_id, found.slot, found.recorded_at
    change.decision = "correct"
    change.reason = (
        f"a correction: {len(fix.wrong)} version(s) it replaces were never true and are retracted"
    )
    for row in fix.wrong:
        change.retires.append(
            Retire(
                row["id"],
                "retracted",
                row["status"],
                row.get("valid_to"),
                why="retracted",
                at=recorded_at,
            )
        )
        change.contradictions.append(
            Contradiction(claim_id, row["id"], None, dispute=False, resolution=CORRECTED)
        )
        if row in slot.claims:
            slot.claims.remove(row)
        elif row in slot.past:
            slot.past.remove(row)
    return change
