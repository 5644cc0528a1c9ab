"""The detection stage of ``remember``: what one draft meets in the state read, a frozen
``decision.Detection``: its slot (by key, or the claim a text-only draft updates or restates),
its scores against the slot's claims, the nearest claims in other slots (scored), who it is
about and how its source bears on it.

Not pure: a draft's nearest slots the batch's read did not hold are read (``Neighbours.reach``),
and matching a text-only draft reads model scores (``answered``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from ..detect import Detector, Vectors, nearest
from ..grounding import Grounding, grounding, in_third_person, quoted
from ..identity import Statement, has_negation, parse, relation_frame, stated_value
from ..models import Cardinality, ClaimDraft
from ..policy import Candidate, PairScores, Unanswered, contradicted, match_text
from ..vocabulary import Vocabulary, normalize_key
from .changes import TEXT_PREDICATE, SlotKey, SlotState
from .decision import Detection, check_references, may_contradict
from .engine import Engine
from .lookup import Neighbours
from .request import Request, draft_slot, polarity, slot_key
from .state import State, new_slot

T = TypeVar("T")

_FIRST_PERSON = frozenset({"i", "me"})


class BatchDetection:
    """Detection for the drafts of one batch, in order, each against the state as the drafts
    before it left it. ``neighbours``: the batch's look-ups (``Neighbours.reach``); ``vectors``:
    stored claims' vectors kept across batches, for ``detect.nearest``."""

    def __init__(self, engine: Engine, neighbours: Neighbours, vectors: Vectors) -> None:
        self.engine = engine
        self.neighbours = neighbours
        self.vectors = vectors

    def detect(
        self,
        index: int,
        request: Request,
        embedding: list[float] | None,
        source_embedding: list[float] | None,
        grounded: Grounding | None,
        state: State,
        created: set[tuple[str, str]],
    ) -> Detection:
        """What draft ``index`` of the batch (``request``) meets in ``state``; ``created``: the
        claims the drafts before it added, which it may name."""
        engine, draft = self.engine, request.draft
        detector, policy = engine.detector, engine.policy
        claim_id = draft.id or engine.new_id()
        detector.forget()
        slot, candidates, subject, restated = self._locate(index, draft, claim_id, embedding, state)
        now = engine.clock()
        recorded_at = request.recorded_at or now
        if recorded_at > now + timedelta(seconds=policy.clock_skew_seconds):
            raise ValueError(
                f"recorded_at: {recorded_at.isoformat()} is in the future (the engine's "
                f"clock says {now.isoformat()}; clock_skew_seconds allows "
                f"{policy.clock_skew_seconds:g} s)"
            )
        check_references(draft, recorded_at, slot, state, created)
        valid_from = draft.valid_from or recorded_at
        if draft.valid_to is not None and draft.valid_to <= valid_from:
            raise ValueError(
                "valid_to: must be later than valid_from (which defaults to recorded_at: "
                "give valid_from for a window in the past)"
            )
        scores = detector.score(
            draft.object, draft.text, embedding, slot.claims, negated=polarity(draft)
        )
        if restated is not None and restated in scores:
            # Joined as a paraphrase of that claim: it restates it (SAME).
            scores[restated] = PairScores(same_object=True, values=True)
        structural, source = source_score(engine, draft, grounded, embedding, source_embedding)
        return Detection(
            request,
            claim_id,
            slot,
            scores,
            candidates,
            subject,
            structural,
            source,
            now,
            recorded_at,
            valid_from,
            embedding,
        )

    def _locate(
        self,
        index: int,
        draft: ClaimDraft,
        claim_id: str,
        embedding: list[float] | None,
        state: State,
    ) -> tuple[SlotState, list[tuple[Candidate, SlotState]], str | None, str | None]:
        """Draft ``index``'s slot, the nearest claims in other slots (scored), who the draft is
        about when known, and the claim it restates when it joined a fact as a paraphrase of it.

        A structured draft's slot is its (subject, predicate). A text-only draft joins the slot
        of the claim it updates or restates (``match_text``); otherwise it opens a slot of its
        own, keyed by its claim id.
        """
        vocabulary, policy = self.engine.vocabulary, self.engine.policy
        slot: SlotState | None = None
        subject: str | None = None
        relation: str | None = None
        restated: str | None = None
        if draft.subject is not None and draft.predicate is not None:
            key = draft_slot(vocabulary, draft)[0]
            slot = state.slots[key]
            subject = key[1]
        found = framed(vocabulary, draft)
        own: SlotState | None = None
        if found is not None:
            own = state.slots[found[0]]
            subject, relation = found[0][1], found[0][2]
            if own.active or own.waiting:
                slot = own
        elif draft.text_only:
            relation = relation_in(vocabulary, draft.text)
        ranked = None
        if embedding is not None:
            ranked = self.neighbours.reach(index, embedding, state, exclude=slot or own)
        candidates = self._candidates(draft, embedding, state, slot or own, ranked)
        if slot is None:
            self.engine.detector.expect(
                [
                    c.scores
                    for c, _ in candidates
                    if may_contradict(c, subject, policy)
                    or c.similarity >= min(policy.paraphrase_similarity, policy.same_similarity)
                ]
            )
            near = [c for c, _ in candidates]

            def matched() -> tuple[Candidate | None, bool]:
                """The claim the draft updates or restates, and whether it restates it."""
                match = match_text(near, policy, subject, relation)
                return match, match is not None and not contradicted([match], policy, subject)

            match, restates = answered(self.engine.detector, matched)
            if match is not None:
                slot = next(s for c, s in candidates if c is match)
                if restates:
                    restated = match.claim_id
            elif own is not None:
                slot = own
            else:
                key = (draft.namespace, f"text:{claim_id}", TEXT_PREDICATE)
                slot = state.slots[key] = new_slot(key, self.engine.new_id())
        return slot, candidates, subject, restated

    def _candidates(
        self,
        draft: ClaimDraft,
        embedding: list[float] | None,
        state: State,
        exclude: SlotState | None,
        ranked: set[str] | None,
    ) -> list[tuple[Candidate, SlotState]]:
        """The nearest active claims in the draft's namespace (outside ``exclude``), scored.

        Looked for in the slots the batch touched and the untouched ones ``ranked`` names (the
        draft's nearest, ``Neighbours.reach``), not in every slot the batch read for its other
        drafts: the claims nearest to this one cannot lie there, and a batch's read holds
        hundreds."""
        engine = self.engine
        if embedding is None or (not draft.text_only and engine.detector.scorer is None):
            return []
        namespace = draft.namespace
        if ranked is not None:
            # ``_touched`` unrolled: this runs over every slot the batch read, for each draft.
            ranked = ranked | self.neighbours.moved.get(namespace, set())
        pool = [
            (row, slot)
            for slot in state.slots.values()
            if (ranked is None or slot.touched_by is not None or slot.slot_id in ranked)
            and slot.key[0] == namespace
            and slot is not exclude
            for row in slot.claims
            if row["status"] == "active" and row.get("embedding")
        ]
        near = [
            (similarity, *pool[i])
            for similarity, i in nearest(
                embedding,
                [row for row, _ in pool],
                engine.policy.candidate_similarity,
                engine.policy.neighbours,
                self.vectors,
            )
        ]
        scores = engine.detector.relate(
            draft.text,
            embedding,
            [row for _, row, _ in near],
            similarities={row["id"]: similarity for similarity, row, _ in near},
            negated=polarity(draft) or has_negation(draft.object)
            if draft.object is not None
            else None,
        )
        return [
            (
                Candidate(
                    row["id"],
                    slot.slot_id,
                    slot.cardinality,
                    scores[row["id"]],
                    subject_key=_subject_of(slot, row),
                    relation_key=_relation_of(engine.vocabulary, slot, row),
                ),
                slot,
            )
            for _, row, slot in near
        ]


def answered(detector: Detector, stage: Callable[[], T]) -> T:
    """Run a pure ``stage`` that reads model scores, scoring each pair it lacks
    (``Unanswered``: with the pairs announced, in one model call) and running it again."""
    while True:
        try:
            return stage()
        except Unanswered as lacking:
            detector.answer(lacking.pair)


def verifying(engine: Engine) -> bool:
    """Whether drafts are verified against the source they came with.

    Generate-then-verify: each claim is checked against its source by its words first
    (``grounded_by_words``); a source whose words do not decide is scored by the models.
    Verification is the contradiction model's job; similarity alone only measures support once
    the model has found no contradiction: without a model, nothing is verified."""
    return engine.policy.verify and engine.detector.scorer is not None


def source_score(
    engine: Engine,
    draft: ClaimDraft,
    grounded: Grounding | None,
    embedding: list[float] | None,
    source_embedding: list[float] | None,
) -> tuple[str | None, PairScores | None]:
    """How the draft's source bears on it: the verdict its words decide alone
    (``grounded``), else the pair (draft, source) scored on first read, for
    ``policy.verification``; ``(None, None)`` without a source or a model to check with."""
    if not draft.episode_content or not verifying(engine):
        return None, None
    if grounded is not None:
        return grounded, None
    row = {"id": "source", "text": premise(draft), "embedding": source_embedding}
    return None, engine.detector.relate(draft.text, embedding, [row])["source"]


def grounded_by_words(draft: ClaimDraft) -> Grounding | None:
    """How a draft's source bears on it by its words alone (``grounding``), else ``None``:
    structure first, a source that states the claim's value with its polarity supports it (and
    one that states it only negated contradicts it) whatever a model reads; a text-only draft
    made of its source's own sentences (a turn kept as said) is supported by it."""
    if draft.text_only and quoted(draft.text, draft.episode_content or ""):
        return "supported"
    value = stated_value(draft.object, draft.text)
    return grounding(value, polarity(draft), draft.episode_content or "")


def premise(draft: ClaimDraft) -> str:
    """What a draft is verified against: its source, read as its author's words ("I" is the
    author), so that a model compares two third-person sentences."""
    source = draft.episode_content or ""
    return in_third_person(source, draft.author) if draft.author else source


def framed(
    vocabulary: Vocabulary, draft: ClaimDraft
) -> tuple[SlotKey, Cardinality, Statement] | None:
    """The slot of a text-only draft whose sentence ``identity.parse`` reads: (namespace,
    subject, canonical relation; a first-person subject is the draft's author), the same
    key a structured draft of that fact has; the
    vocabulary gives the cardinality, except that a copula's bare attribute of a named
    subject and possession ("has") are multi-valued, unless the vocabulary reads the
    attribute as a predicate of its own ("is a nurse": a job title)."""
    if not draft.text_only:
        return None
    statement = parse(draft.text)
    if statement is None:
        return None
    subject = statement.subject
    if draft.author and normalize_key(subject) in _FIRST_PERSON:
        # "I work at Kelp" is about whoever said it: the fact a structured draft of it has,
        # which erase(subject=...) finds with the rest of the speaker's facts.
        subject = draft.author
    key, cardinality = slot_key(
        vocabulary,
        draft.namespace,
        subject,
        statement.relation,
        statement.value,
        draft.text,
    )
    if (statement.cardinality_hint == "multi" and key[2] == statement.relation) or (
        statement.relation in ("has", "have") and statement.relation not in vocabulary
    ):
        cardinality = "multi"
    return key, cardinality, statement


def relation_in(vocabulary: Vocabulary, text: str) -> str | None:
    """The canonical relation a sentence states (``identity.relation_frame``: a pronoun
    subject's too), for its value in this sentence; None when it cannot be read."""
    statement = relation_frame(text)
    if statement is None:
        return None
    return vocabulary.resolve(statement.relation, statement.subject, statement.value, text)[0]


def _relation_of(vocabulary: Vocabulary, slot: SlotState, row: dict[str, Any]) -> str | None:
    """Which relation a claim states: its slot's canonical predicate, or for a slot a
    text-only claim opened without a frame, the canonical relation of its sentence if the
    frame reader reads it."""
    if not slot.key[1].startswith("text:"):
        return slot.key[2]
    return relation_in(vocabulary, row["text"]) if row.get("text") else None


def _subject_of(slot: SlotState, row: dict[str, Any]) -> str | None:
    """Who a claim is about: its slot's subject, or for a slot a text-only claim opened
    without a frame, the subject of its sentence if the frame reader reads it."""
    if not slot.key[1].startswith("text:"):
        return slot.key[1]
    statement = parse(row["text"]) if row.get("text") else None
    return normalize_key(statement.subject) if statement is not None else None
