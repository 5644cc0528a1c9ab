"""``remember`` for a batch of drafts: find each draft's slot, score it, let ``policy.decide``
choose, and express the choice as a ``ChangeSet``.

A batch is planned in order against the state read once: later drafts see the effects of
earlier ones because each plan also updates the in-memory slot state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from .. import cypher
from ..detect import Vectors, nearest
from ..errors import BeliefGraphError, ConflictError, NotFound
from ..evidence import Evidence, mention_key, source_key, union, with_mention
from ..grounding import Grounding, grounding, in_third_person
from ..identity import (
    Statement,
    has_negation,
    parse,
    relation_frame,
    stated_value,
    value_key,
)
from ..identity import polarity as read_polarity
from ..models import Cardinality, Claim, ClaimDraft, RevisionResult
from ..policy import (
    STATUS_OF,
    Candidate,
    PairScores,
    Plan,
    Policy,
    apply_floor,
    contradicted,
    decide,
    is_same,
    match_text,
    opposes,
    verification,
)
from ..store import StaleSlot
from ..vocabulary import Vocabulary, normalize_key
from ..widening import Widening
from .changes import (
    CORRECTED,
    NEWEST_WINS,
    TEXT_PREDICATE,
    ChangeSet,
    Contradiction,
    Demotion,
    NewClaim,
    Reinforce,
    Retire,
    SlotKey,
    SlotState,
    Supersedes,
    claim_properties,
)
from .engine import Engine
from .state import State, assumed, found_state, new_slot, read_state
from .timeline import Correction, correction, place

# A call of this many drafts has its look-up ride with its state read; a batch's run first, on
# their own, and their ranks are kept for planning (``Remember._reach``).
RIDES_UP_TO = 1
# A call of one draft with the models on has its draft embedded while what its fact believes is
# read, and its likely pairs scored while its state read looks up its nearest claims
# (``Remember._score_beside``), on a thread of the models' own: they release Python's lock while
# they run.
BESIDE = True
_MODELS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="models")
# A look-up returns up to this many times the slots it ranks, as many as its fetch holds (free:
# the claims are fetched already). In a batch of many drafts of few facts the drafts before one
# move most of the slots it ranked, and each such draft looked its slots up again on its own.
LOOKUP_EXTENT = 4

REFUSED_BY_SOURCE = "refused: the source it came with (episode_content) contradicts it"
UNSUPPORTED_BY_SOURCE = "its source (episode_content) does not support it: waits for confirmation"


@dataclass
class Request:
    """One draft to remember, with its revision id (the idempotency key) and actor. ``fresh``:
    the engine drew the revision id for this call, so it cannot name a revision that ran.
    ``recorded_at``: the transaction time an import of history keeps (``import_history``: its
    revision is an ``import``); None, as for every other write, is the engine's clock."""

    draft: ClaimDraft
    revision_id: str
    actor: str | None = None
    fresh: bool = False
    recorded_at: datetime | None = None


def _seqs(state: State) -> dict[SlotKey, tuple[str, int]]:
    """Each slot's id and write counter: equal in two states of the same slots when nothing was
    written to them between the two."""
    return {key: (s.slot_id, s.seq) for key, s in state.slots.items() if not s.new}


class PastNeeded(StaleSlot):
    """A draft is placed before the past versions its slot's state holds (``past_since``):
    read the slots with every past version and decide again."""


def _needs_older(slot: SlotState, start: datetime | None, *, correction: bool) -> bool:
    """Whether a draft of the single-valued ``slot`` that starts at ``start`` (or corrects it,
    which may retract versions back to the start of the value it replaces) needs past versions
    older than those its state holds (``SlotState.past_since``)."""
    if slot.past_since is None or slot.cardinality != "single":
        return False
    return correction or (start is not None and start < slot.past_since)


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


@lru_cache(maxsize=4096)
def slot_key(
    vocabulary: Vocabulary,
    namespace: str,
    subject: str,
    predicate: str,
    obj: str | None = None,
    text: str | None = None,
) -> tuple[SlotKey, Cardinality]:
    """The slot a (subject, predicate) belongs to, and its cardinality: the predicate the
    phrase means for this subject and object (``Vocabulary.resolve``; ``text``: the sentence
    the object was said in). Remembered: a batch asks for each draft's several times, and a
    vocabulary never changes."""
    canonical, cardinality = vocabulary.resolve(predicate, subject, obj, text)
    return (namespace, normalize_key(subject), canonical), cardinality


def draft_slot(vocabulary: Vocabulary, draft: ClaimDraft) -> tuple[SlotKey, Cardinality]:
    """``slot_key`` of a structured draft."""
    assert draft.subject is not None and draft.predicate is not None
    return slot_key(
        vocabulary, draft.namespace, draft.subject, draft.predicate, draft.object, draft.text
    )


def polarity(draft: ClaimDraft) -> bool:
    """A draft's polarity: its ``negated``, else what its sentence says about its object
    (``identity.polarity``)."""
    return _polarity(draft.negated, draft.text, draft.object, draft.subject, draft.predicate)


@lru_cache(maxsize=4096)
def _polarity(
    negated: bool | None, text: str, obj: str | None, subject: str | None, predicate: str | None
) -> bool:
    # Remembered: planning a draft asks for it several times, and reading a sentence's frame is
    # the costliest step of planning a structured draft.
    triple = " ".join(filter(None, (subject, predicate)))
    return read_polarity(negated, text, obj, triple=triple)


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
        # Each look-up's slots, nearest first, as the last read found them, by draft index.
        self._ranked: dict[int, dict[str, Any]] = {}
        # The slots the batches written since the read ahead touched (``adopt``): ids by
        # namespace.
        self._moved: dict[str, set[str]] = {}
        # The slots of the state being planned, by id (``_reach``).
        self._held: dict[str, SlotState] = {}
        self._carried = False  # the last read was the carried state (no statement)
        # Read every past version of the slots (asked, or a draft was placed before the past
        # read held).
        self._whole_past = whole_past
        self.walk_up_to = engine.tuning.walk_up_to
        self.reaches = reaches if reaches is not None else Widening(engine.tuning.lookup_window)
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
        # back), a text-only draft's, and after a draft needed more (``_decide``).
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
        past = None if self._whole_past else {k: v for k, v in starts.items() if k not in whole}
        known, self.known = self.known, None  # only the first attempt: a retry reads
        found, self._found = self._found, None
        self._carried = False
        self._ranked, self._moved = {}, {}
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
                slot_refs, near = self._near(near), []
            state = read_state(
                self.store,
                self.new_id,
                keys={k: v for k, v in keys.items() if k not in self.after},
                slot_refs=slot_refs,
                near=near,
                fetch=self._fetch,
                past=past,
                walk_up_to=self.walk_up_to,
                by_id_whole=self._whole_past,
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
        self._learned(state.ranked, self._ranks)
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
        embeddings = self.embeddings
        return [
            self._lookup(i, self.requests[i].draft.namespace, e, self._cover, self._ranks)
            for i in looking
            if (e := embeddings[i]) is not None
        ]

    def _lookup(
        self, index: int, namespace: str, embedding: list[float], k: int, rank: int
    ) -> dict[str, Any]:
        """Draft ``index``'s look-up: its ``rank`` nearest slots ranked, the first ``k`` read.

        Where the index spans every namespace (write/neighbours), it fetches 20 claims a
        neighbour, and 16 times as many when those hold too few of the namespace's slots; in a
        namespace where most of the last look-ups needed more, it starts at the step of that
        ladder (×4) that held them, one index read where it took two. It returns the slots its
        fetch holds beyond the ``rank`` first too, up to ``LOOKUP_EXTENT`` times as many: still
        the nearest in order, they cost no index read, and a draft whose ranked slots the
        drafts before it moved finds the untouched ones there instead of in a look-up of its
        own (``_reach``)."""
        base = max(self.policy.neighbours * 20, rank * 4)
        fetch = base
        if not self.store.filters_in_vector_index():
            fetch = self.reaches.start((namespace, rank), base, 4, base * 16)
        return {
            "draft": index,
            "namespace": namespace,
            "embedding": self.store.query_vector(embedding),
            "fetch": fetch,
            "wider": base * 16,
            "k": k,
            "rank": rank,
            # A look-up riding with the state read reads its first k slots and keeps no ranks.
            "extent": rank if self._rides else rank * LOOKUP_EXTENT,
        }

    def _learned(self, ranked: Iterable[dict[str, Any]], rank: int) -> None:
        """What the look-ups ``ranked`` (of ``rank`` slots each) needed, for the next ones in
        their namespaces, one by one (a batch's last few stand for it)."""
        for r in ranked:
            self.reaches.learned((r["namespace"], rank), r["reach"])

    @property
    def _neighbours(self) -> str:
        """The look-ups' statement on this server (filtered inside the index where it can)."""
        return cypher.variant("write/neighbours", self.store.filters_in_vector_index())

    @property
    def _cover(self) -> int:
        """How many of its nearest slots each look-up reads: a draft's candidates are the
        ``neighbours`` nearest claims outside its own slot, and its own slot is often the
        nearest. Read with one more, they do not depend on which other slots the read holds
        (a batch's read holds those of every draft's look-up, a read ahead more)."""
        return self.policy.neighbours + 1

    @property
    def _rides(self) -> bool:
        """Whether the call's look-ups ride with its state read (``RIDES_UP_TO``)."""
        return len(self.requests) <= RIDES_UP_TO and not self.ahead

    @property
    def _ranks(self) -> int:
        """How many of its nearest slots each look-up ranks (it reads the first ``_cover``)."""
        return self._cover * (2 if self.ahead else 1)

    @property
    def _fetch(self) -> int:
        # Filtered inside the index (Neo4j 2026), every hit is an active claim of the namespace:
        # a few more than the slots ranked cover those that hold several of them (a look-up that
        # still finds too few asks once more, wider: write/neighbours).
        return self._ranks * 4

    def _near(self, lookups: list[dict[str, Any]]) -> list[tuple[str, str]]:
        """The slots ``lookups`` find, read on their own (in halves side by side)."""
        rows = self.store.read_leader_split(self._neighbours, "near", lookups, fetch=self._fetch)
        self._ranked = {r["draft"]: r for row in rows for r in row["ranked"]}
        self._learned(self._ranked.values(), self._ranks)
        refs = (ref for row in rows for ref in row["near"])
        return list(dict.fromkeys((ref["namespace"], ref["id"]) for ref in refs))

    def adopt(self, state: State, written: dict[SlotKey, SlotState]) -> bool:
        """Bring a state read ``ahead`` up to the batches written since the read began: every
        slot they touched (``written``: as their plans left them, ``after_apply``) is taken from
        there, and joins the slots a draft's nearest claims are looked for in. False when that
        is not enough, and the batch must be read again once those batches are written.

        Those batches changed only the slots they touched: an untouched slot ranks as it did
        for each look-up, so the untouched ones a look-up ranked are the nearest untouched
        slots there are. A draft's nearest claims after the write lie in touched slots (all
        taken here) or in its nearest untouched ones (``_cover`` of them): read now when the
        read ahead did not (it read each look-up's first ones, some of them touched since). A
        look-up ranks twice as many, so it holds enough untouched ones unless the touched slots
        took more than that margin (retired claims still ranked by the read, which may have
        pushed a slot out), or it found every slot there was (``complete``)."""
        touched = {s.slot_id for s in written.values()}
        k = self._cover
        wanted: list[tuple[str, str]] = []
        for found in self._ranked.values():
            untouched = [i for i in found["ids"] if i not in touched]
            if len(untouched) < min(k, len(found["ids"])) and not found["complete"]:
                return False
            wanted += [(found["namespace"], i) for i in untouched[:k]]
        held = {s.slot_id for s in state.slots.values()}
        missing = [ref for ref in dict.fromkeys(wanted) if ref[1] not in held]
        if missing:
            more = self._read_by_id(missing)
            for key, slot in more.slots.items():
                state.slots.setdefault(key, slot)
        for key, slot in written.items():
            state.slots[key] = slot.copy()
        self._moved = {}
        for key, s in written.items():
            self._moved.setdefault(key[0], set()).add(s.slot_id)
        return True

    def _read_by_id(self, refs: list[tuple[str, str]]) -> State:
        """The slots ``refs`` (namespace, id), read as the batch's read reads its nearest slots."""
        return read_state(
            self.store,
            self.new_id,
            slot_refs=refs,
            walk_up_to=self.walk_up_to,
            by_id_whole=self._whole_past,
        )

    def _reach(
        self, index: int, embedding: list[float], state: State, exclude: SlotState | None
    ) -> set[str] | None:
        """Make sure ``state`` holds the slots of draft ``index``'s nearest claims outside
        ``exclude`` as they are now, after the drafts before it in the batch (and the batches
        ``adopt`` brought in): its look-up was made before any of them was planned.

        Those drafts changed only the slots they touched, which ``state`` holds as they left
        them; an untouched slot ranks as it did. So the first ``neighbours`` untouched slots the
        look-up ranked are enough, read now when the batch's read did not hold them. When the
        touched ones took too many of its ranks (and it did not find every slot there was), the
        draft's slots are ranked again first, twice as many each time until enough of them are
        untouched (at most as many more as were touched since, which is always enough): a round
        trip or two of its own, taken only by such a draft.

        Returns the ids of those untouched slots: the draft's candidates lie in them or in
        touched ones (``_candidates``). None when the draft has no look-up of its own (a call
        whose look-ups rode with its state read holds only their slots)."""
        found = self._ranked.get(index)
        if found is None:
            return None
        namespace, n = found["namespace"], self.policy.neighbours
        held = self._held  # the state's slots by id (planning changes them in place)
        own = exclude.slot_id if exclude is not None else None

        def moved(i: str) -> bool:
            slot = held.get(i)
            return slot is not None and self._touched(slot)

        def untouched(found: dict[str, Any]) -> tuple[list[str], bool]:
            others = [i for i in found["ids"] if i != own]
            left = [i for i in others if not moved(i)]
            return left, len(left) >= min(n, len(others)) or found["complete"]

        left, enough = untouched(found)
        if not enough:
            # Ranks enough for any order of the touched slots, but one look-up that wide reads
            # many times what the usual case needs: double the ranks until they hold enough.
            touched = sum(1 for i, s in held.items() if s.key[0] == namespace and moved(i))
            rank, widest = max(1, len(found["ids"])), n + 1 + touched
            while not enough and rank < widest:
                rank = min(2 * rank, widest)
                found = self._rank(index, embedding, namespace, rank)
                left, enough = untouched(found)
        missing = [(namespace, i) for i in left[:n] if i not in held]
        if missing:
            more = self._read_by_id(missing)
            for key, slot in more.slots.items():
                held[slot.slot_id] = state.slots.setdefault(key, slot)
        return set(left[:n])

    def _touched(self, slot: SlotState) -> bool:
        """Whether a draft planned before in this batch, or a batch written since the read
        ahead (``adopt``), changed ``slot``: it may rank otherwise than the look-ups found it."""
        return slot.touched_by is not None or slot.slot_id in self._moved.get(slot.key[0], ())

    def _rank(
        self, index: int, embedding: list[float], namespace: str, rank: int
    ) -> dict[str, Any]:
        """Draft ``index``'s ``rank`` nearest slots, looked up again (none read)."""
        lookup = self._lookup(index, namespace, embedding, 0, rank)
        rows = self.store.read_leader(self._neighbours, batch={"near": [lookup]}, fetch=rank * 4)
        found = next(iter(rows[0]["ranked"]), None) if rows else None
        self._learned([found] if found else [], rank)
        return found or {"ids": [], "complete": True}

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
        self._held = {s.slot_id: s for s in state.slots.values()}
        if any(self._before_past(r, state) for r in self.requests):
            # Before any clock read or id drawn, so a batch decided again reads and draws as
            # often as one read whole at once (a draft with no moment of its own is checked
            # in ``_decide``, once it has one).
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
            _check_references(draft, recorded_at, slot, state, created)
            valid_from = draft.valid_from or recorded_at
            if draft.valid_to is not None and draft.valid_to <= valid_from:
                raise ValueError(
                    "valid_to: must be later than valid_from (which defaults to recorded_at: "
                    "give valid_from for a window in the past)"
                )
            negated = polarity(draft)
            scores = self.detector.score(
                draft.object, draft.text, embedding, slot.claims, negated=negated
            )
            restated = self._restates.pop(id(draft), None)
            if restated is not None and restated in scores:
                # Joined as a paraphrase of that claim: it restates it (SAME).
                scores[restated] = PairScores(same_object=True, values=True)
            structural, source = self._source_score(draft, grounded, embedding, source_embedding)
            # The pairs the decision will likely read, scored in one model call on first read.
            self.detector.expect(
                [
                    *self._likely(slot, scores),
                    *(c.scores for c, _ in candidates if self._may_contradict(c, subject)),
                    *([source] if source is not None else []),
                ]
            )
            rivals = self._rivals(candidates, slot, subject) + self._inside(slot, scores)
            verified, verified_score = (
                (structural, None)
                if structural is not None
                else (verification(source, self.policy), source.entailment)
                if source is not None
                else (None, None)
            )
            if verified == "contradicted":
                plan = Plan(
                    "CONFLICT",
                    "refuse",
                    REFUSED_BY_SOURCE,
                )
                change = _changes(
                    request,
                    claim_id,
                    slot,
                    scores,
                    [],
                    now,
                    recorded_at,
                    valid_from,
                    embedding,
                    plan,
                    policy=self.policy,
                )
                created.update((draft.namespace, i) for i in change.added)
                planned.append(change)
                continue
            if (
                verified == "supported"
                and verified_score is not None
                and "confidence" not in draft.model_fields_set
            ):
                # The verified score becomes the confidence of a draft that gave none.
                request = replace(
                    request,
                    draft=draft.model_copy(update={"confidence": round(verified_score, 4)}),
                )
            if verified == "unsupported" and self.policy.unsupported == "low_confidence":
                confidence = min(draft.confidence, self.policy.unsupported_confidence)
                request = replace(
                    request, draft=draft.model_copy(update={"confidence": confidence})
                )
            change = self._decide(
                request,
                claim_id,
                slot,
                scores,
                rivals,
                now,
                recorded_at,
                valid_from,
                embedding,
                unsupported=verified == "unsupported" and self.policy.unsupported == "hold_pending",
            )
            created.update((draft.namespace, i) for i in change.added)
            planned.append(change)
        return planned

    def _before_past(self, request: Request, state: State) -> bool:
        """``_needs_older`` for a draft by the start it gives (none: its moment is the clock's,
        checked when it is read)."""
        draft = request.draft
        if draft.subject is None or draft.predicate is None:
            return False
        if (draft.namespace, request.revision_id) in state.replays:
            return False
        key, _ = draft_slot(self.vocabulary, draft)
        slot = state.slots.get(key)
        start = draft.valid_from or request.recorded_at
        return slot is not None and _needs_older(slot, start, correction=draft.correction)

    def _read_whole_past(self) -> PastNeeded:
        """Have the next read take every past version of the slots."""
        self._whole_past = True
        return PastNeeded()

    def _inside(
        self, slot: SlotState, scores: dict[str, PairScores]
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
                        and (score.similarity or 0.0) >= self.policy.unframed_similarity
                        # Read last: the model runs only for a pair the rules let through.
                        and opposes(score, self.policy)
                    )
                )
                and score.contradiction is not None
                and score.contradiction >= self.policy.contradiction_threshold
            ):
                found.append((Candidate(row["id"], slot.slot_id, slot.cardinality, score), slot))
        return found

    def _decide(
        self,
        request: Request,
        claim_id: str,
        slot: SlotState,
        scores: dict[str, PairScores],
        rivals: list[tuple[Candidate, SlotState]],
        now: datetime,
        recorded_at: datetime,
        valid_from: datetime,
        embedding: list[float] | None,
        *,
        unsupported: bool = False,
    ) -> ChangeSet:
        """Place the draft on the fact's timeline, let the policy decide, build the change.
        ``unsupported``: verification found no support in the draft's source, so it may not
        become the belief without confirmation."""
        draft = request.draft
        key = value_key(draft.object) if draft.object is not None else None

        def same(row: dict[str, Any]) -> bool:
            score = scores.get(row["id"])
            if score is not None:
                return is_same(score, self.policy)
            theirs = row.get("object") if row.get("object") is not None else row.get("object_key")
            return key is not None and theirs is not None and value_key(theirs) == key

        negated = polarity(draft)

        def policy(current: list[dict[str, Any]]) -> Plan:
            plan = decide(
                draft.source_type,
                draft.confidence,
                draft.correction,
                slot.key[2],
                slot.cardinality,
                [Claim.model_validate(r) for r in current],
                scores,
                self.policy,
                waiting=[Claim.model_validate(r) for r in slot.waiting],
                draft_kind=draft.kind,
                draft_valid_from=valid_from,
                negated=negated,
                stance=self.vocabulary.stance(slot.key[2]),
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

        args = (request, claim_id, slot, scores, rivals, now, recorded_at, valid_from, embedding)
        if slot.cardinality == "multi":
            # Values coexist; one whose window has ended is history, not the value restated.
            live = [
                r for r in slot.active if r.get("valid_to") is None or r["valid_to"] > valid_from
            ]
            return _changes(*args, policy(live), policy=self.policy)
        if _needs_older(slot, valid_from, correction=draft.correction):
            raise self._read_whole_past()
        known = slot.known
        # The newest version still believed (the chain's head, unless it was retracted).
        head = max((r for r in known if r.get("version")), key=lambda r: r["version"], default=None)
        if draft.correction:
            fix = correction(known, head, draft.valid_from, recorded_at, same)
            if fix is not None and head is not None:
                plan = policy([head])
                if plan.action == "supersede":
                    return _correct(*args, fix, self.policy)
                change = _changes(*args, plan, policy=self.policy)
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
            return _changes(*args, plan, policy=self.policy)
        if placed.where == "earlier":
            reason = "an earlier window of the fact, learned late"
            if placed.end is not None:
                reason += ": it ends where the later value starts"
            plan = Plan("NEW", "expand", reason)
            return _changes(*args, plan, policy=self.policy, earlier=True, end=placed.end)
        if placed.where == "after_end":
            assert placed.target is not None
            plan = Plan("NEW", "expand", "the previous value's window had ended")
            plan = apply_floor(plan, draft.source_type, draft.confidence, self.policy)
            if unsupported:
                plan = held_unsupported(plan)
            if plan.action != "expand":
                return _changes(*args, plan, policy=self.policy)
            return _changes(*args, plan, policy=self.policy, ended=placed.target)
        return _changes(
            *args, policy([head] if placed.where == "head" and head else []), policy=self.policy
        )

    def _likely(self, slot: SlotState, scores: dict[str, PairScores]) -> list[PairScores]:
        """Scores of the slot's claims whose contradiction score the decision will likely read:
        the value a single-valued fact holds, a value of a multi-valued one the draft may
        contradict (``_inside``), a claim a paraphrase may restate. A guess for batching only:
        a score not announced is still computed if it is read."""
        out = []
        stance = self.vocabulary.stance(slot.key[2])
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
                or (not score.values and (score.similarity or 0.0) >= self.policy.same_similarity)
                or (
                    slot.cardinality == "multi"
                    and (
                        score.frame in ("negated", "value")
                        or (
                            score.frame == "other"
                            and (score.similarity or 0.0) >= self.policy.unframed_similarity
                        )
                        or score.negation
                    )
                )
            ):
                out.append(score)
        return out

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

    def _may_contradict(self, candidate: Candidate, subject: str | None) -> bool:
        """A candidate the rules of ``policy.contradicted`` let through to the model's score."""
        similarity, found = candidate.similarity, candidate.scores.frame
        return (
            (subject is None or candidate.subject_key in (None, subject))
            and similarity >= self.policy.candidate_similarity
            and found not in ("predicate", "subject")
            and (found != "other" or similarity >= self.policy.unframed_similarity)
        )

    def _rivals(
        self, candidates: list[tuple[Candidate, SlotState]], slot: SlotState, subject: str | None
    ) -> list[tuple[Candidate, SlotState]]:
        """Claims in other slots the draft contradicts (implicit conflicts), recorded as open
        conflicts (``policy.opposes``): "is allergic to peanuts" / "has no allergies at all",
        "is allergic to cats" / "adopted a cat" are; "speaks Spanish" / "works as a French
        translator", two facts with no point of contact, are not unless the model is very sure
        (it scores many pairs of one subject's facts a contradiction: docs/semantic.md)."""
        others = [c for c, s in candidates if s is not slot]
        hits = {
            c.claim_id
            for c in contradicted(others, self.policy, subject)
            if opposes(c.scores, self.policy)
        }
        return [(c, s) for c, s in candidates if c.claim_id in hits]

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
            ranked = self._reach(index, embedding, state, exclude=slot or own)
        candidates = self._candidates(draft, embedding, state, slot or own, ranked)
        if slot is None:
            self.detector.expect(
                [
                    c.scores
                    for c, _ in candidates
                    if self._may_contradict(c, subject)
                    or c.similarity
                    >= min(self.policy.paraphrase_similarity, self.policy.same_similarity)
                ]
            )
            match = match_text([c for c, _ in candidates], self.policy, subject, relation)
            if match is not None:
                slot = next(s for c, s in candidates if c is match)
                if match not in contradicted([match], self.policy, subject):
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
        draft's nearest, ``_reach``), not in every slot the batch read for its other drafts:
        the claims nearest to this one cannot lie there, and a batch's read holds hundreds."""
        if embedding is None or (not draft.text_only and self.detector.scorer is None):
            return []
        namespace = draft.namespace
        if ranked is not None:
            # ``_touched`` unrolled: this runs over every slot the batch read, for each draft.
            ranked = ranked | self._moved.get(namespace, set())
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


def _check_references(
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


def _changes(
    request: Request,
    claim_id: str,
    slot: SlotState,
    scores: dict[str, PairScores],
    rivals: list[tuple[Candidate, SlotState]],
    now: datetime,
    recorded_at: datetime,
    valid_from: datetime,
    embedding: list[float] | None,
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
    draft, rid, ns = request.draft, request.revision_id, request.draft.namespace
    change = ChangeSet(
        revision_id=rid,
        namespace=ns,
        op="remember" if request.recorded_at is None else "import",
        decision=plan.action,
        reason=plan.reason,
        at=now,
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
        embedding=embedding,
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
    request: Request,
    claim_id: str,
    slot: SlotState,
    scores: dict[str, PairScores],
    rivals: list[tuple[Candidate, SlotState]],
    now: datetime,
    recorded_at: datetime,
    valid_from: datetime,
    embedding: list[float] | None,
    fix: Correction,
    policy: Policy,
) -> ChangeSet:
    """A correction: the versions it names wrong are retracted (they were never true) and the
    right value becomes the belief from ``fix.valid_from``, continuing the version before it
    when that one held the same value."""
    change = _changes(
        request,
        claim_id,
        slot,
        scores,
        rivals,
        now,
        recorded_at,
        fix.valid_from,
        embedding,
        Plan("CONFLICT", "expand", "", contradiction=True),
        policy=policy,
    )
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


def replayed(result: str) -> RevisionResult:
    """The stored result of a revision that already ran, marked as a replay."""
    return RevisionResult.model_validate_json(result).model_copy(update={"replayed": True})
