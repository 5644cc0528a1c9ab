"""``remember`` for a batch of drafts, its stages run in turn: read the state, look up the
drafts' nearest slots, detect what each draft meets (``detection``), score the pairs its
decision names in one model call, and decide (``decision``): a ``ChangeSet`` each.

A batch is planned in order against the state read once: later drafts see the effects of
earlier ones because each plan also updates the in-memory slot state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import datetime
from functools import partial
from typing import Any

from ..detect import Vectors
from ..errors import BeliefGraphError
from ..models import Cardinality, RevisionResult
from ..policy import PairScores
from ..store import StaleSlot
from ..widening import Widening
from .changes import ChangeSet, SlotKey, SlotState
from .decision import (
    REFUSED_BY_SOURCE,
    UNSUPPORTED_BY_SOURCE,
    NeedsWholePast,
    decide,
    needs_older,
    pairs_needed,
)
from .detection import (
    BatchDetection,
    answered,
    framed,
    grounded_by_words,
    premise,
    source_score,
    verifying,
)
from .engine import Engine
from .lookup import Neighbours
from .request import Request, draft_slot, polarity, replayed, slot_key
from .state import State, assumed, found_state, read_state

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
        self.engine = engine
        self.known = known
        self.after = after or {}
        self.ahead = ahead
        self._carried = False  # the last read was the carried state (no statement)
        # The slots a refused apply found under its locks (``found``), for the next read.
        self._found: list[dict[str, Any]] | None = None
        # A refusal decided on a carried state, and the slots (id, seq) it was decided on.
        self._refused: tuple[Exception, dict[SlotKey, tuple[str, int]]] | None = None
        self.requests = requests
        self.neighbours = Neighbours(
            engine.store,
            engine.policy,
            engine.new_id,
            walk_up_to=engine.tuning.walk_up_to,
            reaches=reaches if reaches is not None else Widening(engine.tuning.lookup_window),
            rides=self._rides,
            ahead=ahead,
            # Every past version of the slots: asked, or a draft was placed before the past
            # read held (``_read_whole_past``).
            whole_past=whole_past,
        )
        # A source whose words do not decide (``grounded_by_words``) is scored by the models,
        # and embedded in the drafts' call (one call, its texts run by length).
        verifies = verifying(engine)
        self.groundings = [
            grounded_by_words(r.draft) if verifies and r.draft.episode_content else None
            for r in requests
        ]
        scored = [
            i
            for i, (r, grounded) in enumerate(zip(requests, self.groundings, strict=True))
            if verifies and r.draft.episode_content and grounded is None
        ]
        self._scored = scored
        texts = [r.draft.text for r in requests] + [premise(requests[i].draft) for i in scored]
        self._embedding: Future[list[list[float] | None]] | None = None
        detector = engine.detector
        if BESIDE and detector.embedder is not None and self._rides:
            # Made on the models' thread while the draft's slot is read (``read``).
            self._embedding = _MODELS.submit(detector.embed, texts)
        else:
            self._embedded(detector.embed(texts))
        self.detection = BatchDetection(
            engine, self.neighbours, vectors if vectors is not None else Vectors()
        )

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
                key, cardinality = draft_slot(self.engine.vocabulary, r.draft)
                keys.setdefault(key, (r.draft.subject, cardinality))
                given = r.draft.valid_from
                if r.draft.correction:
                    whole.add(key)
                elif given is not None:
                    start = starts.get(key)
                    starts[key] = given if start is None or given < start else start
                else:
                    starts.setdefault(key, None)
            elif (frame := framed(self.engine.vocabulary, r.draft)) is not None:
                keys.setdefault(frame[0], (frame[2].subject, frame[1]))
                whole.add(frame[0])
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
            state = found_state(keys, found, self.engine.new_id)
            if state is not None:
                return state
        held = known(list(keys)) if known is not None and self.structural() else None
        if held is not None:
            self._carried = True
            return assumed(held, keys, self.engine.new_id)
        scoring = self._score_beside(keys) if self._embedding is not None else None
        try:
            near = self._lookups()
            slot_refs: list[tuple[str, str]] = []
            if near and not self._rides:
                # In halves side by side when there are several (``Store.read_leader_split``).
                slot_refs, near = self.neighbours.near(near), []
            state = read_state(
                self.engine.store,
                self.engine.new_id,
                keys={k: v for k, v in keys.items() if k not in self.after},
                slot_refs=slot_refs,
                near=near,
                fetch=self.neighbours.fetch,
                past=past,
                walk_up_to=self.engine.tuning.walk_up_to,
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
        if self.engine.detector.scorer is None or not slots:
            return None
        rows = self.engine.store.read("write/values", batch={"slots": slots})  # any member will do
        facts = {(r["namespace"], r["subject_key"], r["predicate"]): r for r in rows}

        def fact(key: SlotKey) -> tuple[Cardinality, list[dict[str, Any]]] | None:
            row = facts.get(key)
            return None if row is None else (row["cardinality"], row["active"])

        self.engine.detector.ahead(self._ahead(fact))
        return _MODELS.submit(self.engine.detector.score_ahead)

    def found(self, rows: list[dict[str, Any]]) -> None:
        """The slots as a refused apply found them under its locks (write/slot_states' rows):
        the next read takes them, as a read would have found them then."""
        self._found = rows

    def structural(self) -> bool:
        """Whether every draft is decided on its own fact's slot alone: a subject and predicate
        given, no claim ids to check (``id``, ``depends_on``, ``supports``), and no
        contradiction model (which reads the nearest claims of other facts)."""
        return self.engine.detector.scorer is None and all(
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
            if r.draft.text_only or self.engine.detector.scorer is not None
        ]
        if not looking or self.engine.detector.embedder is None:
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
        engine = self.engine
        planned: list[ChangeSet | RevisionResult] = []
        created: set[tuple[str, str]] = set()
        self.neighbours.held = {s.slot_id: s for s in state.slots.values()}
        if any(self._before_past(r, state) for r in self.requests):
            # Before any clock read or id drawn, so a batch decided again reads and draws as
            # often as one read whole at once (a draft with no moment of its own is checked
            # in ``decision.decide``, once it has one).
            raise self._read_whole_past()
        if engine.detector.scorer is not None and len(self.requests) > 1:

            def fact(key: SlotKey) -> tuple[Cardinality, list[dict[str, Any]]] | None:
                slot = state.slots.get(key)
                return None if slot is None else (slot.cardinality, slot.active)

            engine.detector.ahead(self._ahead(fact))
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
            found = self.detection.detect(
                index, request, embedding, source_embedding, grounded, state, created
            )
            engine.detector.expect(pairs_needed(found, engine.policy, engine.vocabulary))
            try:
                change = answered(
                    engine.detector, partial(decide, found, engine.policy, engine.vocabulary)
                )
            except NeedsWholePast:
                raise self._read_whole_past() from None
            created.update((draft.namespace, i) for i in change.added)
            planned.append(change)
        return planned

    def _before_past(self, request: Request, state: State) -> bool:
        """``decision.needs_older`` for a draft by the start it gives (none: its moment is the
        clock's, checked when it is read)."""
        draft = request.draft
        if draft.subject is None or draft.predicate is None:
            return False
        if (draft.namespace, request.revision_id) in state.replays:
            return False
        key, _ = draft_slot(self.engine.vocabulary, draft)
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
        engine = self.engine
        out: list[PairScores] = []
        values: dict[SlotKey, dict[str, Any]] = {}
        for request, embedding, source_embedding, grounded in zip(
            self.requests, self.embeddings, self.source_embeddings, self.groundings, strict=True
        ):
            draft = request.draft
            source = source_score(engine, draft, grounded, embedding, source_embedding)[1]
            if source is not None:
                out.append(source)
            if draft.subject is None or draft.predicate is None:
                continue
            key, declared = draft_slot(engine.vocabulary, draft)
            cardinality, active = fact(key) or (declared, [])
            if cardinality != "single":
                continue
            negated = polarity(draft)
            value = values.get(key) or max(active, key=lambda row: row["recorded_at"], default=None)
            if value is not None and not draft.correction:
                score = engine.detector.score(
                    draft.object, draft.text, None, [value], negated=negated
                )[value["id"]]
                if score.same_object or (
                    score.values and not score.negates and not engine.vocabulary.stance(key[2])
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
