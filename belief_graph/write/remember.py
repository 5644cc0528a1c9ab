"""``remember`` for a batch of drafts: find each draft's slot, score it, let ``policy.decide``
choose, and express the choice as a ``ChangeSet``.

A batch is planned in order against the state read once: later drafts see the effects of
earlier ones because each plan also updates the in-memory slot state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from ..detect import Vectors, nearest
from ..errors import BeliefGraphError
from ..grounding import Grounding, grounding, in_third_person
from ..identity import Statement, has_negation, parse, relation_frame, stated_value
from ..models import Cardinality, ClaimDraft, RevisionResult
from ..policy import Candidate, PairScores, Unanswered, contradicted, match_text
from ..store import StaleSlot
from ..vocabulary import normalize_key
from ..widening import Widening
from .changes import TEXT_PREDICATE, ChangeSet, SlotKey, SlotState
from .decision import (
    REFUSED_BY_SOURCE,
    UNSUPPORTED_BY_SOURCE,
    Detection,
    NeedsWholePast,
    check_references,
    decide,
    may_contradict,
    needs_older,
    pairs_needed,
)
from .engine import Engine
from .lookup import Neighbours
from .request import Request, draft_slot, polarity, replayed, slot_key
from .state import State, assumed, found_state, new_slot, read_state

__all__ = [
    "REFUSED_BY_SOURCE",
    "UNSUPPORTED_BY_SOURCE",
    "PastNeeded",
    "Remember",
    "Request",
    "after_apply",
    "replayed",
    "slot_key",
]

T = TypeVar("T")

# A call of this many drafts has its look-up ride with its state read; a batch's run first, on
# their own, and their ranks are kept for planning (``Neighbours.reach``).
RIDES_UP_TO = 1
# A call of one draft with the models on has its draft embedded while what its fact believes is
# read, and its likely pairs scored while its state read looks up its nearest claims
# (``Remember._score_beside``), on a thread of the models' own: they release Python's lock while
# they run.
BESIDE = True
_MODELS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="models")


def _seqs(state: State) -> dict[SlotKey, tuple[str, int]]:
    """Each slot's id and write counter: equal in two states of the same slots when nothing was
    written to them between the two."""
    return {key: (s.slot_id, s.seq) for key, s in state.slots.items() if not s.new}


class PastNeeded(StaleSlot):
    """A draft is placed before the past versions its slot's state holds (``past_since``):
    read the slots with every past version and decide again."""


def after_apply(state: State) -> dict[SlotKey, SlotState]:
    """The slots a plan touched as its apply leaves them (``seq`` one on, no longer new, last
    written by the plan's revision), copies the next plan may change: what a read after the
    apply would find, for a structural batch, whose plan changes nothing outside its slots but
    review flags and disputed marks, which ``remember`` decides on neither."""
    return {
        key: s.copy(seq=s.seq + 1, new=False, last_revision=s.touched_by, touched_by=None).recent()
        for key, s in state.slots.items()
        if s.touched_by is not None
    }


class Remember:
    """Reads and plans one batch of ``remember`` requests (``apply.run`` drives it)."""

    def __init__(
        self,
        engine: Engine,
        requests: Sequence[Request],
        known: Callable[[list[SlotKey]], dict[SlotKey, SlotState] | None] | None = None,
        after: dict[SlotKey, SlotState] | None = None,
        ahead: bool = False,
        whole_past: bool = False,
        reaches: Widening | None = None,
        vectors: Vectors | None = None,
    ) -> None:
        """``known``: the state of those of the slots this client's last write of them left
        (when it gives them, the batch is decided with no read, the slots not known taken as
        not created yet, and a refused apply's slots, ``found``, taken as read; None: read).
        ``after``: the slots a batch still being applied touched, as its plan leaves them
        (``after_apply``): those are not read but taken from there, the rest is read (a
        pipelined ingest). ``ahead``: read before the batches before it are written (a
        pipelined ingest with the models on): each look-up ranks twice the slots it reads, so
        that ``adopt`` can tell whether what those batches change could have moved a draft's
        nearest slots. ``whole_past``: read every past version of the drafts' slots and of their
        nearest slots (else those from the newest window on, or from the earliest a draft gives;
        every one only when a draft is placed before those). ``reaches``: where the look-ups
        before this batch's found their slots, by namespace and rank (the writer's, so that one
        in a crowded namespace starts as wide as most of the last there needed: ``_lookup``).
        ``vectors``: stored claims' vectors kept from the batches before (an ingest's), for
        ``detect.nearest``."""
        store, policy, detector = engine.store, engine.policy, engine.detector
        self.engine = engine
        self.store = store
        self.known = known
        self.after = after or {}
        self.ahead = ahead
        self._carried = False  # the last read was the carried state (no statement)
        self.walk_up_to = engine.tuning.walk_up_to
        # The slots a refused apply found under its locks (``found``), for the next read.
        self._found: list[dict[str, Any]] | None = None
        # A refusal decided on a carried state, and the slots (id, seq) it was decided on.
        self._refused: tuple[Exception, dict[SlotKey, tuple[str, int]]] | None = None
        self.vocabulary = engine.vocabulary
        self.policy = policy
        self.detector = detector
        self.clock = engine.clock
        self.new_id = engine.new_id
        self.requests = requests
        self.neighbours = Neighbours(
            store,
            policy,
            engine.new_id,
            walk_up_to=self.walk_up_to,
            reaches=reaches if reaches is not None else Widening(engine.tuning.lookup_window),
            rides=self._rides,
            ahead=ahead,
            # Every past version of the slots: asked, or a draft was placed before the past
            # read held (``_read_whole_past``).
            whole_past=whole_past,
        )
        # Generate-then-verify: each claim is checked against the source it came with, by its
        # words first (``_grounded``); a source whose words do not decide is scored by the
        # models, and embedded in the drafts' call (one call, its texts run by length).
        # Verification is the contradiction model's job; similarity alone only measures support
        # once the model has found no contradiction: without a model, nothing is verified.
        self.verifying = policy.verify and detector.scorer is not None
        self.groundings = [
            _grounded(r.draft) if self.verifying and r.draft.episode_content else None
            for r in requests
        ]
        scored = [
            i
            for i, (r, grounded) in enumerate(zip(requests, self.groundings, strict=True))
            if self.verifying and r.draft.episode_content and grounded is None
        ]
        self._scored = scored
        texts = [r.draft.text for r in requests] + [_premise(requests[i].draft) for i in scored]
        self._embedding: Future[list[list[float] | None]] | None = None
        if BESIDE and detector.embedder is not None and self._rides:
            # Made on the models' thread while the draft's slot is read (``read``).
            self._embedding = _MODELS.submit(detector.embed, texts)
        else:
            self._embedded(detector.embed(texts))
        # Drafts that joined a fact as a paraphrase of one of its claims (by id(draft)).
        self._restates: dict[int, str] = {}
        self._vectors = vectors if vectors is not None else Vectors()

    def _embedded(self, vectors: list[list[float] | None]) -> None:
        self._embeddings = vectors[: len(self.requests)]
        self._source_embeddings: list[list[float] | None] = [None] * len(self.requests)
        for i, vector in zip(self._scored, vectors[len(self.requests) :], strict=True):
            self._source_embeddings[i] = vector

    def _wait_for_embeddings(self) -> None:
        pending, self._embedding = self._embedding, None
        if pending is not None:
            self._embedded(pending.result())

    @property
    def embeddings(self) -> list[list[float] | None]:
        """Each draft's embedding (None without a model)."""
        self._wait_for_embeddings()
        return self._embeddings

    @property
    def source_embeddings(self) -> list[list[float] | None]:
        """The embedding of each draft's source, where the models verify the draft against it."""
        self._wait_for_embeddings()
        return self._source_embeddings

    # -- read ----------------------------------------------------------------------------------

    def read(self) -> State:
        keys: dict[SlotKey, tuple[str | None, Cardinality]] = {}
        # A slot's past versions from the start of its newest window on, or from the earliest
        # start a draft of it gives; all of them for a correction's slot (it may reach further
        # back), a text-only draft's, and after a draft needed more (``decision.decide``).
        starts: dict[SlotKey, datetime | None] = {}
        whole: set[SlotKey] = set()
        for r in self.requests:
            if r.draft.subject is not None and r.draft.predicate is not None:
                key, cardinality = draft_slot(self.vocabulary, r.draft)
                keys.setdefault(key, (r.draft.subject, cardinality))
                given = r.draft.valid_from
                if r.draft.correction:
                    whole.add(key)
                elif given is not None:
                    start = starts.get(key)
                    starts[key] = given if start is None or given < start else start
                else:
                    starts.setdefault(key, None)
            elif (framed := self._framed(r.draft)) is not None:
                keys.setdefault(framed[0], (framed[2].subject, framed[1]))
                whole.add(framed[0])
        past = (
            None
            if self.neighbours.whole_past
            else {k: v for k, v in starts.items() if k not in whole}
        )
        known, self.known = self.known, None  # only the first attempt: a retry reads
        found, self._found = self._found, None
        self._carried = False
        self.neighbours.ranked, self.neighbours.moved = {}, {}
        if found is not None and self.structural():
            state = found_state(keys, found, self.new_id)
            if state is not None:
                return state
        held = known(list(keys)) if known is not None and self.structural() else None
        if held is not None:
            self._carried = True
            return assumed(held, keys, self.new_id)
        scoring = self._score_beside(keys) if self._embedding is not None else None
        try:
            near = self._lookups()
            slot_refs: list[tuple[str, str]] = []
            if near and not self._rides:
                # In halves side by side when there are several (``Store.read_leader_split``).
                slot_refs, near = self.neighbours.near(near), []
            state = read_state(
                self.store,
                self.new_id,
                keys={k: v for k, v in keys.items() if k not in self.after},
                slot_refs=slot_refs,
                near=near,
                fetch=self.neighbours.fetch,
                past=past,
                walk_up_to=self.walk_up_to,
                by_id_whole=self.neighbours.whole_past,
                revisions=[(r.draft.namespace, r.revision_id) for r in self.requests],
                claim_ids=[
                    (r.draft.namespace, i)
                    for r in self.requests
                    for i in (
                        *r.draft.depends_on,
                        *r.draft.supports,
                        *([r.draft.id] if r.draft.id else []),
                    )
                ],
            )
        finally:
            if scoring is not None:
                wait([scoring])  # the detector is the models' thread's until it is done
        if scoring is not None:
            scoring.result()  # raises the model's error, if any
        self.neighbours.learned(state.ranked, self.neighbours.ranks)
        for key in keys:
            if key in self.after:
                state.slots[key] = self.after[key]
        return state

    def _score_beside(self, keys: Iterable[SlotKey]) -> Future[None] | None:
        """While a draft is embedded, read what its facts believe (write/values), to score the
        pairs its decision will likely read (``_ahead``) on the models' thread while the state
        read looks up its nearest claims: the model's time and the look-up's overlap, where one
        waited for the other (benchmarks.md, "A single draft's models beside its reads"). A
        guess for that only: the draft is decided on the state read."""
        slots = [{"namespace": k[0], "subject_key": k[1], "predicate": k[2]} for k in keys]
        if self.detector.scorer is None or not slots:
            return None
        rows = self.store.read("write/values", batch={"slots": slots})  # any member will do
        facts = {(r["namespace"], r["subject_key"], r["predicate"]): r for r in rows}

        def fact(key: SlotKey) -> tuple[Cardinality, list[dict[str, Any]]] | None:
            row = facts.get(key)
            return None if row is None else (row["cardinality"], row["active"])

        self.detector.ahead(self._ahead(fact))
        return _MODELS.submit(self.detector.score_ahead)

    def found(self, rows: list[dict[str, Any]]) -> None:
        """The slots as a refused apply found them under its locks (write/slot_states' rows):
        the next read takes them, as a read would have found them then."""
        self._found = rows

    def structural(self) -> bool:
        """Whether every draft is decided on its own fact's slot alone: a subject and predicate
        given, no claim ids to check (``id``, ``depends_on``, ``supports``), and no
        contradiction model (which reads the nearest claims of other facts)."""
        return self.detector.scorer is None and all(
            r.draft.subject is not None
            and r.draft.predicate is not None
            and not r.draft.depends_on
            and not r.draft.supports
            and r.draft.id is None
            for r in self.requests
        )

    def _lookups(self) -> list[dict[str, Any]]:
        """The vector look-ups of the drafts that need the slots of their nearest active claims
        (write/neighbours): text-only drafts (to find the fact they are about) and, with a
        contradiction model, every draft (to find implicit conflicts in other slots)."""
        looking = [
            i
            for i, r in enumerate(self.requests)
            if r.draft.text_only or self.detector.scorer is not None
        ]
        if not looking or self.detector.embedder is None:
            return []  # (so a read that needs no embedding does not wait for one being made)
        embeddings, near = self.embeddings, self.neighbours
        return [
            near.lookup(i, self.requests[i].draft.namespace, e, near.cover, near.ranks)
            for i in looking
            if (e := embeddings[i]) is not None
        ]

    @property
    def _rides(self) -> bool:
        """Whether the call's look-ups ride with its state read (``RIDES_UP_TO``)."""
        return len(self.requests) <= RIDES_UP_TO and not self.ahead

    def adopt(self, state: State, written: dict[SlotKey, SlotState]) -> bool:
        """Bring a state read ``ahead`` up to the batches written since the read began
        (``Neighbours.adopt``); False when the batch must be read again."""
        return self.neighbours.adopt(state, written)

    def _framed(self, draft: ClaimDraft) -> tuple[SlotKey, Cardinality, Statement] | None:
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
            self.vocabulary,
            draft.namespace,
            subject,
            statement.relation,
            statement.value,
            draft.text,
        )
        if (statement.cardinality_hint == "multi" and key[2] == statement.relation) or (
            statement.relation in ("has", "have") and statement.relation not in self.vocabulary
        ):
            cardinality = "multi"
        return key, cardinality, statement

    # -- decide --------------------------------------------------------------------------------

    def plan(self, state: State) -> list[ChangeSet | RevisionResult]:
        refused, self._refused = self._refused, None
        if refused is not None and not state.replays and _seqs(state) == refused[1]:
            # The read found the slots as carried: the refusal stands, decided once (its
            # clock and ids drawn once, as on a read).
            raise refused[0]
        if not self._carried:
            return self._plan(state)
        seqs = _seqs(state)
        try:
            return self._plan(state)
        except (ValueError, BeliefGraphError) as exc:
            # Decided on a carried state: the refusal is the answer only if a read finds the
            # same state (another writer may have come in between).
            self._refused = (exc, seqs)
            raise StaleSlot() from exc

    def _plan(self, state: State) -> list[ChangeSet | RevisionResult]:
        planned: list[ChangeSet | RevisionResult] = []
        created: set[tuple[str, str]] = set()
        self.neighbours.held = {s.slot_id: s for s in state.slots.values()}
        if any(self._before_past(r, state) for r in self.requests):
            # Before any clock read or id drawn, so a batch decided again reads and draws as
            # often as one read whole at once (a draft with no moment of its own is checked
            # in ``decision.decide``, once it has one).
            raise self._read_whole_past()
        if self.detector.scorer is not None and len(self.requests) > 1:

            def fact(key: SlotKey) -> tuple[Cardinality, list[dict[str, Any]]] | None:
                slot = state.slots.get(key)
                return None if slot is None else (slot.cardinality, slot.active)

            self.detector.ahead(self._ahead(fact))
        for index, (request, embedding, source_embedding, grounded) in enumerate(
            zip(
                self.requests, self.embeddings, self.source_embeddings, self.groundings, strict=True
            )
        ):
            draft = request.draft
            replay = state.replays.get((draft.namespace, request.revision_id))
            if replay is not None:
                planned.append(replayed(replay))
                continue
            claim_id = draft.id or self.new_id()
            self.detector.forget()
            slot, candidates, subject = self._locate(index, claim_id, embedding, state)
            now = self.clock()
            recorded_at = request.recorded_at or now
            if recorded_at > now + timedelta(seconds=self.policy.clock_skew_seconds):
                raise ValueError(
                    f"recorded_at: {recorded_at.isoformat()} is in the future (the engine's "
                    f"clock says {now.isoformat()}; clock_skew_seconds allows "
                    f"{self.policy.clock_skew_seconds:g} s)"
                )
            check_references(draft, recorded_at, slot, state, created)
            valid_from = draft.valid_from or recorded_at
            if draft.valid_to is not None and draft.valid_to <= valid_from:
                raise ValueError(
                    "valid_to: must be later than valid_from (which defaults to recorded_at: "
                    "give valid_from for a window in the past)"
                )
            scores = self.detector.score(
                draft.object, draft.text, embedding, slot.claims, negated=polarity(draft)
            )
            restated = self._restates.pop(id(draft), None)
            if restated is not None and restated in scores:
                # Joined as a paraphrase of that claim: it restates it (SAME).
                scores[restated] = PairScores(same_object=True, values=True)
            structural, source = self._source_score(draft, grounded, embedding, source_embedding)
            found = Detection(
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
            self.detector.expect(pairs_needed(found, self.policy, self.vocabulary))
            try:
                change = self._answered(partial(decide, found, self.policy, self.vocabulary))
            except NeedsWholePast:
                raise self._read_whole_past() from None
            created.update((draft.namespace, i) for i in change.added)
            planned.append(change)
        return planned

    def _answered(self, stage: Callable[[], T]) -> T:
        """Run a pure ``stage`` that reads model scores, scoring each pair it lacks
        (``Unanswered``: with the pairs announced, in one model call) and running it again."""
        while True:
            try:
                return stage()
            except Unanswered as lacking:
                self.detector.answer(lacking.pair)

    def _before_past(self, request: Request, state: State) -> bool:
        """``decision.needs_older`` for a draft by the start it gives (none: its moment is the
        clock's, checked when it is read)."""
        draft = request.draft
        if draft.subject is None or draft.predicate is None:
            return False
        if (draft.namespace, request.revision_id) in state.replays:
            return False
        key, _ = draft_slot(self.vocabulary, draft)
        slot = state.slots.get(key)
        start = draft.valid_from or request.recorded_at
        return slot is not None and needs_older(slot, start, correction=draft.correction)

    def _read_whole_past(self) -> PastNeeded:
        """Have the next read take every past version of the slots."""
        self.neighbours.whole_past = True
        return PastNeeded()

    def _ahead(
        self, fact: Callable[[SlotKey], tuple[Cardinality, list[dict[str, Any]]] | None]
    ) -> list[PairScores]:
        """The scores a batch's drafts will likely read, guessed before any is decided: each
        draft against its source (verification), and each structured draft that denies the
        value a single-valued fact holds then, or brings another one the structure cannot read,
        every draft before it taken to have become its fact's value (not a correction's: a
        CONFLICT whatever the score; two values read are a change, ``policy.reverses``). A
        guess for batching only, as ``_likely``: a wrong one costs a pair scored for nothing, a
        missed one is scored when read. ``fact``: a fact's cardinality and active claims by key
        (None: not stored)."""
        out: list[PairScores] = []
        values: dict[SlotKey, dict[str, Any]] = {}
        for request, embedding, source_embedding, grounded in zip(
            self.requests, self.embeddings, self.source_embeddings, self.groundings, strict=True
        ):
            draft = request.draft
            source = self._source_score(draft, grounded, embedding, source_embedding)[1]
            if source is not None:
                out.append(source)
            if draft.subject is None or draft.predicate is None:
                continue
            key, declared = draft_slot(self.vocabulary, draft)
            cardinality, active = fact(key) or (declared, [])
            if cardinality != "single":
                continue
            negated = polarity(draft)
            value = values.get(key) or max(active, key=lambda row: row["recorded_at"], default=None)
            if value is not None and not draft.correction:
                score = self.detector.score(
                    draft.object, draft.text, None, [value], negated=negated
                )[value["id"]]
                if score.same_object or (
                    score.values and not score.negates and not self.vocabulary.stance(key[2])
                ):
                    continue
                out.append(score)
            values[key] = {
                "id": "ahead",
                "object": draft.object,
                "text": draft.text,
                "negated": negated,
            }
        return out

    def _source_score(
        self,
        draft: ClaimDraft,
        grounded: Grounding | None,
        embedding: list[float] | None,
        source_embedding: list[float] | None,
    ) -> tuple[str | None, PairScores | None]:
        """How the draft's source bears on it: the verdict its words decide alone
        (``grounded``), else the pair (draft, source) scored on first read, for
        ``policy.verification``; ``(None, None)`` without a source or a model to check with."""
        if not draft.episode_content or not self.verifying:
            return None, None
        if grounded is not None:
            return grounded, None
        row = {"id": "source", "text": _premise(draft), "embedding": source_embedding}
        return None, self.detector.relate(draft.text, embedding, [row])["source"]

    def _locate(
        self, index: int, claim_id: str, embedding: list[float] | None, state: State
    ) -> tuple[SlotState, list[tuple[Candidate, SlotState]], str | None]:
        """Draft ``index``'s slot, the nearest claims in other slots (scored), and who the draft
        is about when known.

        A structured draft's slot is its (subject, predicate). A text-only draft joins the slot
        of the claim it updates or restates (``match_text``); otherwise it opens a slot of its
        own, keyed by its claim id.
        """
        draft = self.requests[index].draft
        slot: SlotState | None = None
        subject: str | None = None
        relation: str | None = None
        if draft.subject is not None and draft.predicate is not None:
            key = draft_slot(self.vocabulary, draft)[0]
            slot = state.slots[key]
            subject = key[1]
        framed = self._framed(draft)
        own: SlotState | None = None
        if framed is not None:
            own = state.slots[framed[0]]
            subject, relation = framed[0][1], framed[0][2]
            if own.active or own.waiting:
                slot = own
        elif draft.text_only:
            relation = self._relation_in(draft.text)
        ranked = None
        if embedding is not None:
            ranked = self.neighbours.reach(index, embedding, state, exclude=slot or own)
        candidates = self._candidates(draft, embedding, state, slot or own, ranked)
        if slot is None:
            self.detector.expect(
                [
                    c.scores
                    for c, _ in candidates
                    if may_contradict(c, subject, self.policy)
                    or c.similarity
                    >= min(self.policy.paraphrase_similarity, self.policy.same_similarity)
                ]
            )
            near = [c for c, _ in candidates]

            def matched() -> tuple[Candidate | None, bool]:
                """The claim the draft updates or restates, and whether it restates it."""
                match = match_text(near, self.policy, subject, relation)
                return match, match is not None and not contradicted([match], self.policy, subject)

            match, restates = self._answered(matched)
            if match is not None:
                slot = next(s for c, s in candidates if c is match)
                if restates:
                    self._restates[id(draft)] = match.claim_id
            elif own is not None:
                slot = own
            else:
                key = (draft.namespace, f"text:{claim_id}", TEXT_PREDICATE)
                slot = state.slots[key] = new_slot(key, self.new_id())
        return slot, candidates, subject

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
        if embedding is None or (not draft.text_only and self.detector.scorer is None):
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
                self.policy.candidate_similarity,
                self.policy.neighbours,
                self._vectors,
            )
        ]
        scores = self.detector.relate(
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
                    relation_key=self._relation_of(slot, row),
                ),
                slot,
            )
            for _, row, slot in near
        ]

    def _relation_of(self, slot: SlotState, row: dict[str, Any]) -> str | None:
        """Which relation a claim states: its slot's canonical predicate, or for a slot a
        text-only claim opened without a frame, the canonical relation of its sentence if the
        frame reader reads it."""
        if not slot.key[1].startswith("text:"):
            return slot.key[2]
        return self._relation_in(row["text"]) if row.get("text") else None

    def _relation_in(self, text: str) -> str | None:
        """The canonical relation a sentence states (``identity.relation_frame``: a pronoun
        subject's too), for its value in this sentence; None when it cannot be read."""
        statement = relation_frame(text)
        if statement is None:
            return None
        return self.vocabulary.resolve(
            statement.relation, statement.subject, statement.value, text
        )[0]


_FIRST_PERSON = frozenset({"i", "me"})


def _subject_of(slot: SlotState, row: dict[str, Any]) -> str | None:
    """Who a claim is about: its slot's subject, or for a slot a text-only claim opened
    without a frame, the subject of its sentence if the frame reader reads it."""
    if not slot.key[1].startswith("text:"):
        return slot.key[1]
    statement = parse(row["text"]) if row.get("text") else None
    return normalize_key(statement.subject) if statement is not None else None


def _grounded(draft: ClaimDraft) -> Grounding | None:
    """How a draft's source bears on it by its words alone (``grounding``), else ``None``:
    structure first, a source that states the claim's value with its polarity supports it (and
    one that states it only negated contradicts it) whatever a model reads."""
    value = stated_value(draft.object, draft.text)
    return grounding(value, polarity(draft), draft.episode_content or "")


def _premise(draft: ClaimDraft) -> str:
    """What a draft is verified against: its source, read as its author's words ("I" is the
    author), so that a model compares two third-person sentences."""
    source = draft.episode_content or ""
    return in_third_person(source, draft.author) if draft.author else source
