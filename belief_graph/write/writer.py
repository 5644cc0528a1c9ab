"""The write operations' entry points: each reads its state, decides with a pure function and
hands the ``ChangeSet`` to ``apply.run`` (which retries read → decide → apply when a slot
changed meanwhile)."""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from .. import cypher
from ..detect import Detector, Vectors
from ..errors import ConflictError, NotFound
from ..models import ConsolidationReport, RevisionResult
from ..policy import PairScores, Policy
from ..store import Store, Tx
from ..vocabulary import Vocabulary, normalize_key
from ..widening import Widening
from . import apply, consolidation, erasure, operations, undo
from .apply import Planned, run
from .changes import TEXT_PREDICATE, ChangeSet, SlotKey, SlotState
from .engine import Engine, Tuning
from .ingest import Ingest
from .remember import Remember, Request, after_apply, replayed
from .state import State, read_namespace, read_state

# After a structural batch of up to CARRIED_BATCH drafts commits, the writer keeps the state its
# plan left the slots in, the last CARRIED_SLOTS of them (an agent keeps writing the same few
# facts); a larger batch is an import, whose facts are unlikely to come again soon.
CARRIED_BATCH = 16
CARRIED_SLOTS = 1024
# Whether a fact a small write does not hold is new is judged on the last UNHELD_WINDOW such
# facts (``Tuning.assume_new_at``; one more new fact is counted before any is seen, so a client
# starts out deciding blind).
UNHELD_WINDOW = 32


class Writer:
    """Every write the engine makes, each reading what it needs of one ``Engine``."""

    def __init__(
        self,
        store: Store,
        vocabulary: Vocabulary,
        policy: Policy,
        detector: Detector,
        clock: Callable[[], datetime],
        new_id: Callable[[], str],
        tuning: Tuning = Tuning(),
    ) -> None:
        """``new_id``: the id factory, unless ``tuning`` gives one (``Tuning.ids``)."""
        self.engine = Engine(
            store, vocabulary, policy, detector, clock, tuning.ids or new_id, tuning
        )
        # The slots this client's last small batches wrote, as the write left them (with
        # ``Tuning.carry``). A small structural remember reads nothing: it is decided on these,
        # and on a fact it does not hold as not created yet (while that has mostly been so:
        # ``assume_new_at``), and the apply step's check says whether that was so (else the
        # refused apply returns the slots as it found them under their locks and the batch is
        # decided again on those, a read's worth: a fact another client wrote costs two
        # statements, as a read and an apply would). A write of another fact may still change a
        # claim here without moving this slot's seq (a review flag on a dependent, a disputed
        # mark on a rival): remember decides on neither, and writes neither from the state.
        # Used only for revision ids the engine drew (``fresh``: no replay to find); a refusal
        # decided on it stands only if a read finds the same slots. Every other write empties
        # it (it would only go stale), an erase before and after.
        self._carried: dict[SlotKey, SlotState] = {}
        self._carried_lock = threading.Lock()
        # Whether each of the last facts written without holding them was new (under the lock).
        self._unheld: deque[bool] = deque(maxlen=UNHELD_WINDOW)
        # Where the last look-ups of each namespace found their nearest slots (Remember._lookup).
        self.reaches = Widening(tuning.lookup_window)

    @property
    def new_id(self) -> Callable[[], str]:
        """The engine's id factory (the client draws revision ids with it)."""
        return self.engine.new_id

    def remember(
        self,
        requests: Sequence[Request],
        embedded: Remember | None = None,
        *,
        ingested: bool = False,
        vectors: Vectors | None = None,
    ) -> list[RevisionResult]:
        """Remember every request in order, in one transaction; results in the same order.
        ``embedded``: these requests as read ahead, whose embeddings are made (read again, not
        embedded again). ``ingested``: a batch of an ingest, read and not carried, as its
        pipeline's batches are (an import's facts are unlikely to come again soon).
        ``vectors``: the stored claims' vectors an ingest keeps for its batches."""
        keep = (
            self.engine.tuning.carry
            and not ingested
            and self.engine.detector.scorer is None
            and len(requests) <= CARRIED_BATCH
        )
        if not keep:
            self._forget()
        use = keep and all(r.fresh for r in requests)
        unheld: list[SlotKey] = []  # the slots of this batch the client does not hold

        def known(keys: list[SlotKey]) -> dict[SlotKey, SlotState] | None:
            held = self._known(keys)
            unheld[:] = [key for key in keys if key not in held]
            return held if not unheld or self._assume_new() else None

        batch = embedded or self._batch(requests, vectors, known=known if use else None)
        return run(
            self.engine.store,
            batch.read,
            batch.plan,
            one_trip=self.engine.tuning.one_trip,
            walk_up_to=self.engine.tuning.walk_up_to,
            carry=partial(self._keep, unheld=unheld) if keep else None,
            found=batch.found if use else None,
        )

    def ingest(self, batches: Iterable[Sequence[Request]]) -> Iterator[list[RevisionResult]]:
        """Remember batch after batch, each as ``remember`` would, pipelined (``Ingest``)."""
        self._forget()
        yield from Ingest(
            self.engine.store,
            remember=self.remember,
            batch=self._batch,
            models=self.engine.detector.scorer is not None,
            one_trip=self.engine.tuning.one_trip,
            walk_up_to=self.engine.tuning.walk_up_to,
        ).run(batches)

    def _batch(
        self, requests: Sequence[Request], vectors: Vectors | None = None, **state_from: Any
    ) -> Remember:
        """A ``Remember`` of ``requests`` with this writer's engine; ``vectors``: those an
        ingest keeps for its batches; ``state_from``: where some slots' state comes from
        instead of a read (``known``, ``after``)."""
        return Remember(
            self.engine,
            requests,
            whole_past=self.engine.tuning.whole_past,
            reaches=self.reaches,
            vectors=vectors,
            **state_from,
        )

    def _known(self, keys: list[SlotKey]) -> dict[SlotKey, SlotState]:
        """The carried state of the slots in ``keys`` this client holds (to be copied before
        planning on it)."""
        with self._carried_lock:
            return {key: self._carried[key] for key in keys if key in self._carried}

    def _assume_new(self) -> bool:
        """Whether a fact this client does not hold is decided as not there yet."""
        with self._carried_lock:
            new, seen = sum(self._unheld), len(self._unheld)
        return new + 1 >= self.engine.tuning.assume_new_at * (seen + 1)

    def _keep(self, state: State, unheld: list[SlotKey]) -> None:
        """Carry the slots a statement just wrote, as its plan left them (``after_apply``), and
        learn whether those of ``unheld`` (not held when it was decided) were new."""
        with self._carried_lock:
            self._unheld.extend(state.slots[k].new for k in unheld if k in state.slots)
            for key, slot in after_apply(state).items():
                self._carried.pop(key, None)
                self._carried[key] = slot
            while len(self._carried) > CARRIED_SLOTS:
                self._carried.pop(next(iter(self._carried)))

    def _forget(self) -> None:
        with self._carried_lock:
            self._carried.clear()

    def _one(
        self,
        namespace: str,
        revision_id: str | None,
        read: Callable[[str], State],
        decide: Callable[[State, str], ChangeSet],
    ) -> RevisionResult:
        """One operation under revision id ``revision_id`` (a replay returns its stored result
        before any precondition is checked)."""
        self._forget()
        rid = revision_id or self.engine.new_id()
        plan = _planner(namespace, rid, decide)
        return run(
            self.engine.store,
            lambda: read(rid),
            plan,
            one_trip=self.engine.tuning.one_trip,
            walk_up_to=self.engine.tuning.walk_up_to,
        )[0]

    def _read(self, store: Store | Tx, *, whole: bool = False, **refs: Any) -> State:
        """``read_state`` of ``refs`` as an operation reads: each fact by id cut as the write
        path's read cuts it (by index past ``walk_up_to`` claims), or every past version with
        ``whole`` or ``whole_past``."""
        return read_state(
            store,
            self.engine.new_id,
            walk_up_to=self.engine.tuning.walk_up_to,
            by_id_whole=whole or self.engine.tuning.whole_past,
            **refs,
        )

    def _claim_state(
        self, namespace: str, *claim_ids: str, believed: str | None = None
    ) -> Callable[[str], State]:
        """The read of an operation on ``claim_ids``: the claims and their facts, cut (no
        operation on a claim looks at older versions), but read again whole when ``believed``,
        the claim the operation makes the belief, is a waiting correction that reaches before
        the versions read."""

        def state(rid: str) -> State:
            refs: dict[str, Any] = {
                "claim_refs": [(namespace, i) for i in claim_ids],
                "revisions": [(namespace, rid)],
            }
            cut = self._read(self.engine.store, **refs)
            if believed and operations.correction_needs_past(cut, namespace, believed):
                return self._read(self.engine.store, whole=True, **refs)
            return cut

        return state

    def _conflict_state(
        self,
        namespace: str,
        claim_id: str,
        rival_id: str,
        found: dict[str, bool],
        *,
        keep: str | None = None,
    ) -> Callable[[str], State]:
        """The read of an operation on a conflict: whether it is open, and the two claims
        (``keep``: the one a resolve keeps, which may be a waiting correction)."""
        claims = self._claim_state(namespace, claim_id, rival_id, believed=keep)

        def read(rid: str) -> State:
            rows = self.engine.store.read_leader(
                "write/conflict_open", namespace=namespace, claim_id=claim_id, rival_id=rival_id
            )
            found["open"] = bool(rows and rows[0]["open"])
            return claims(rid)

        return read

    def resolve(
        self,
        namespace: str,
        claim_id: str,
        rival_id: str,
        *,
        keep: str,
        reason: str,
        revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        found: dict[str, bool] = {}
        return self._one(
            namespace,
            revision_id,
            self._conflict_state(namespace, claim_id, rival_id, found, keep=keep),
            lambda state, rid: operations.resolve(
                state,
                namespace,
                claim_id,
                rival_id,
                keep=keep,
                reason=reason,
                open_conflict=found["open"],
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
            ),
        )

    def dismiss(
        self,
        namespace: str,
        claim_id: str,
        rival_id: str,
        *,
        reason: str,
        revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        found: dict[str, bool] = {}
        return self._one(
            namespace,
            revision_id,
            self._conflict_state(namespace, claim_id, rival_id, found),
            lambda state, rid: operations.dismiss(
                state,
                namespace,
                claim_id,
                rival_id,
                reason=reason,
                open_conflict=found["open"],
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
            ),
        )

    def reviewed(
        self,
        namespace: str,
        claim_id: str,
        *,
        premise: str | None,
        reason: str,
        revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        ids = [claim_id] if premise is None else [claim_id, premise]
        return self._one(
            namespace,
            revision_id,
            self._claim_state(namespace, *ids),
            lambda state, rid: operations.reviewed(
                state,
                namespace,
                claim_id,
                premise=premise,
                reason=reason,
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
            ),
        )

    def contract(
        self,
        namespace: str,
        claim_id: str,
        *,
        retract: bool,
        valid_to: datetime | None,
        reason: str,
        revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        return self._one(
            namespace,
            revision_id,
            self._claim_state(namespace, claim_id),
            lambda state, rid: operations.contract(
                state,
                namespace,
                claim_id,
                retract=retract,
                valid_to=valid_to,
                reason=reason,
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
            ),
        )

    def settle(
        self,
        namespace: str,
        claim_id: str,
        *,
        accept: bool,
        revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        return self._one(
            namespace,
            revision_id,
            self._claim_state(namespace, claim_id, believed=claim_id if accept else None),
            lambda state, rid: operations.settle(
                state,
                namespace,
                claim_id,
                accept=accept,
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
            ),
        )

    def rectify(
        self,
        namespace: str,
        claim_id: str,
        *,
        object: str,
        text: str,
        actor: str,
        revision_id: str | None,
    ) -> RevisionResult:
        embedding = self.engine.detector.embed([text])[0]
        new_id = self.engine.new_id()
        return self._one(
            namespace,
            revision_id,
            self._claim_state(namespace, claim_id),
            lambda state, rid: operations.rectify(
                state,
                namespace,
                claim_id,
                object=object,
                text=text,
                actor=actor,
                new_id=new_id,
                embedding=embedding,
                rid=rid,
                now=self.engine.clock(),
            ),
        )

    def rollback(
        self,
        namespace: str,
        revision_id: str,
        *,
        new_revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        target: dict[str, Any] = {}

        def read(rid: str) -> State:
            rows = self.engine.store.read_leader(
                "write/revision_changes", namespace=namespace, revision_id=revision_id
            )
            target.clear()
            target.update(rows[0] if rows else {})
            changed = target.get("changes", [])
            claims = {c["id"] for c in changed} | {c["rival"] for c in changed if c.get("rival")}
            return self._read(
                self.engine.store,
                slot_refs=[(namespace, i) for i in (target.get("slot_ids") or [])],
                claim_refs=[(namespace, i) for i in sorted(claims)],
                revisions=[(namespace, rid)],
            )

        def decide(state: State, rid: str) -> ChangeSet:
            if not target:
                raise NotFound(
                    f"revision_id: no revision {revision_id!r} in namespace {namespace!r}"
                )
            if target["op"] == "consolidate":
                return consolidation.undo(
                    state,
                    namespace,
                    {**target, "undo": json.loads(target["undo"])},
                    revision_id=revision_id,
                    rid=rid,
                    actor=actor,
                    now=self.engine.clock(),
                )
            return undo.rollback(
                state,
                namespace,
                target,
                revision_id=revision_id,
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
                new_id=self.engine.new_id,
            )

        return self._one(namespace, new_revision_id, read, decide)

    def erase(
        self,
        namespace: str,
        *,
        subject: str | None,
        claim_ids: Sequence[str] | None,
        revision_id: str | None,
        actor: str | None,
        progress: Callable[[str, int], None] | None = None,
    ) -> RevisionResult:
        """Erase what ``subject``, ``claim_ids`` or (neither) the whole namespace covers, at any
        size (write/erasure.py): its Revision first (from then on what it covers is neither
        read nor written), batches of claims, the facts' tombstones, the caller's text in the
        revisions, its result last. An erase of the same scope left unfinished (a crash, a
        failure) is found and finished, not begun again; a finished revision id replays.
        ``progress`` is told each step: ("claims" | "facts" | "revisions", how many so far)."""
        ids = tuple(sorted(set(claim_ids))) if claim_ids is not None else None
        job = erasure.Job(
            namespace,
            "namespace" if subject is None and ids is None else "claims" if ids else "subject",
            key=normalize_key(subject) if subject is not None else None,
            mention=erasure.mention(subject) if subject is not None else None,
            legacy=erasure.legacy_mention(subject) if subject is not None else None,
            ids=ids,
        )
        self._forget()  # what it held of the erased facts goes with them, now and after
        try:
            return self._erase(job, revision_id, actor, progress or (lambda step, n: None))
        finally:
            self._forget()

    def _erase(
        self,
        job: erasure.Job,
        revision_id: str | None,
        actor: str | None,
        progress: Callable[[str, int], None],
    ) -> RevisionResult:
        begun = self._erase_begun(job, revision_id, actor)
        if isinstance(begun, RevisionResult):
            return begun
        rid, resumed = begun
        params = job.params()
        erased = facts = 0
        while True:
            while ids := apply.erase_batch(
                self.engine.store, params, rid, self.engine.clock(), erasure.ERASE_BATCH
            ):
                erased += len(ids)
                progress("claims", erased)
            while count := apply.erase_tombstones(
                self.engine.store, params, rid, erasure.ERASE_BATCH
            ):
                facts += count
                progress("facts", facts)
            scrubbed = self._erase_scrub(job, rid, progress)
            done = apply.erase_close(
                self.engine.store,
                params,
                rid,
                partial(erasure.finished, job, rid, scrubbed=scrubbed, resumed=resumed),
            )
            if done is not None:
                if job.scope == "namespace":
                    self._erase_covered(job.namespace, rid)
                return done

    def _erase_covered(self, namespace: str, rid: str) -> None:
        """Finish the unfinished erases of a subject or of claims of ``namespace`` that its whole
        erase ``rid`` covered: nothing of theirs is left, so each only writes its result."""
        rows = self.engine.store.read_leader("write/erase_running", namespace=namespace, id=None)
        for row in rows:
            if not row["running"] or row["id"] == rid:
                continue
            job = erasure.Job(
                namespace,
                row["scope"],
                key=row["key"],
                mention=row["mention"],
                legacy=row["legacy"],
                ids=tuple(row["ids"]) if row["ids"] is not None else None,
            )
            other = str(row["id"])
            apply.erase_close(
                self.engine.store,
                job.params(),
                other,
                partial(erasure.finished, job, other, scrubbed=0, resumed=True),
            )

    def _erase_begun(
        self, job: erasure.Job, revision_id: str | None, actor: str | None
    ) -> RevisionResult | tuple[str, bool]:
        """The erase to run: (its revision id, whether it had begun before) of an unfinished
        erase of this scope, or of a new one written now; or the stored result of a finished
        ``revision_id`` (a replay)."""
        for _ in range(2):  # a concurrent erase may write the same id between the two steps
            rows = self.engine.store.read_leader(
                "write/erase_running", namespace=job.namespace, id=revision_id
            )
            named = next((r for r in rows if r["id"] == revision_id), None)
            if named is not None:
                if named["op"] != "erase":
                    raise ConflictError(
                        f"revision_id: {revision_id!r} is a revision of another operation "
                        f"({named['op']})"
                    )
                if not named["running"]:
                    return replayed(named["result"])
                if not job.same(named):
                    raise ConflictError(
                        f"revision_id: erase {revision_id!r} covers another {named['scope']}; "
                        "finish it with its own arguments"
                    )
                return str(named["id"]), True
            running = next((r for r in rows if r["running"] and job.same(r)), None)
            if running is not None and revision_id is None:
                return str(running["id"]), True
            rid = revision_id or self.engine.new_id()
            made = apply.erase_begin(
                self.engine.store,
                {
                    **job.params(),
                    "id": rid,
                    "at": self.engine.clock().isoformat(),
                    "actor": actor,
                    "reason": job.reason,
                    "result": erasure.started(job, rid).model_dump_json(),
                },
            )
            if made:
                return rid, False
        raise ConflictError(f"revision_id: {revision_id!r} is being written by another client")

    def _erase_scrub(self, job: erasure.Job, rid: str, progress: Callable[[str, int], None]) -> int:
        """The caller's free text about what erase ``rid`` erased, gone from every revision of
        the namespace that held some (``erasure.scrub``), page by page; how many hold none now."""
        outcome = self.engine.store.read_leader(
            "write/erase_outcome", namespace=job.namespace, id=rid
        )[0]
        erased, slots = set(outcome["retired"]), set(outcome["slot_ids"])
        after, scrubbed = "", 0
        while True:
            rows = self.engine.store.read_leader(
                "write/erase_revisions",
                namespace=job.namespace,
                id=rid,
                after=after,
                limit=erasure.ERASE_BATCH,
            )
            if not rows:
                return scrubbed
            rewrite, done = erasure.scrub(rows, rid, erased, slots, job.scope == "namespace")
            if rewrite:
                apply.erase_scrub(self.engine.store, job.namespace, rewrite)
            scrubbed += done
            progress("revisions", scrubbed)
            after = rows[-1]["id"]

    def consolidate(
        self,
        namespace: str,
        *,
        dry_run: bool,
        revision_id: str | None,
        actor: str | None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ConsolidationReport:
        """Read the whole namespace, plan its consolidation (pure) and apply it as one
        revision; a dry run stops after the plan."""
        rid = revision_id or self.engine.new_id()
        found: dict[str, Any] = {}

        def read() -> State:
            state, claims = read_namespace(self.engine.store, namespace, progress=progress)
            if revision_id is not None:
                state.replays = read_state(
                    self.engine.store, self.engine.new_id, revisions=[(namespace, rid)]
                ).replays
            found["survey"] = consolidation.Survey(
                namespace, state, claims, self._paraphrases(namespace, claims)
            )
            return state

        def decide(state: State) -> Planned:
            stored = state.replays.get((namespace, rid))
            if stored is not None:
                found["plan"] = consolidation.Plan(None, [], [])
                return [replayed(stored)]
            plan = consolidation.consolidate(
                found["survey"],
                policy=self.engine.policy,
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
            )
            found["plan"] = plan
            return [] if dry_run or plan.change is None else [plan.change]

        self._forget()
        results = run(
            self.engine.store,
            read,
            decide,
            one_trip=self.engine.tuning.one_trip,
            walk_up_to=self.engine.tuning.walk_up_to,
        )
        survey: consolidation.Survey = found["survey"]
        plan: consolidation.Plan = found["plan"]
        claims = survey.claims.values()
        return ConsolidationReport(
            namespace=namespace,
            dry_run=dry_run,
            examined={
                "slots": len(survey.state.slots),
                "claims": len(survey.claims),
                "open_conflicts": sum(len(c.get("conflicts") or []) for c in claims),
                "review_flags": sum(1 for c in claims if c.get("needs_review")),
            },
            steps=plan.steps,
            problems=plan.problems,
            revision=results[0] if results else None,
        )

    def _paraphrases(
        self, namespace: str, claims: dict[str, dict[str, Any]]
    ) -> dict[str, dict[str, PairScores]]:
        """With models: the scores of each text-only active claim of a fact of its own against
        the active claims nearest to it by stored embedding (outside any transaction)."""
        if self.engine.detector.embedder is None:
            return {}
        ids = sorted(
            c["id"]
            for c in claims.values()
            if c["status"] == "active"
            and c.get("object_key") is None
            and c.get("predicate") == TEXT_PREDICATE
        )
        rows: list[tuple[str, str, PairScores]] = []
        twins = cypher.variant(
            "write/consolidate_twins", self.engine.store.filters_in_vector_index()
        )
        for start in range(0, len(ids), 200):
            for row in self.engine.store.read_leader(
                twins,
                namespace=namespace,
                ids=ids[start : start + 200],
                fetch=50,
                k=5,
            ):
                text = claims[row["id"]].get("text") or ""
                scores = self.engine.detector.relate(text, row["embedding"], row["near"])
                rows += [(row["id"], other, s) for other, s in scores.items()]
        # The plan is pure and runs no model: the pairs whose scores it may read (those whose
        # words do not decide: ``consolidation.same_value``) are scored here, in one call.
        self.engine.detector.answer_all([s for _, _, s in rows if s.frame in ("same", "other")])
        return consolidation.scored(rows)

    def promote(
        self,
        namespace: str,
        claim_id: str,
        *,
        by: operations.PromotionBasis,
        origin: str | None,
        reason: str,
        revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        new_id = self.engine.new_id()
        return self._one(
            namespace,
            revision_id,
            self._claim_state(namespace, claim_id, believed=claim_id),
            lambda state, rid: operations.promote(
                state,
                namespace,
                claim_id,
                by=by,
                origin=origin,
                reason=reason,
                promote_after=self.engine.policy.promote_after_episodes,
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
                new_id=new_id,
            ),
        )

    def demote(
        self,
        namespace: str,
        claim_id: str,
        *,
        reason: str,
        revision_id: str | None,
        actor: str | None,
    ) -> RevisionResult:
        return self._one(
            namespace,
            revision_id,
            self._claim_state(namespace, claim_id),
            lambda state, rid: operations.demote(
                state,
                namespace,
                claim_id,
                reason=reason,
                rid=rid,
                actor=actor,
                now=self.engine.clock(),
            ),
        )


def _planner(
    namespace: str, rid: str, decide: Callable[[State, str], ChangeSet]
) -> Callable[[State], Planned]:
    """One operation's plan under revision id ``rid``: its stored result when that revision ran
    already (a replay, before any precondition is checked), else what ``decide`` makes of it."""

    def plan(state: State) -> Planned:
        stored = state.replays.get((namespace, rid))
        return [replayed(stored) if stored is not None else decide(state, rid)]

    return plan
