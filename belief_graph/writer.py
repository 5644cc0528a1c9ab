"""The write path of ``remember``: detect → decide → apply, for one draft or a batch of them.

``remember`` is a batch of one, so single writes and bulk ingest share every rule. A batch is
planned in memory in order (later drafts see the effects of earlier ones), then applied in one
transaction that locks every slot it touches, checks that none changed since it was read (else
the batch is planned again), and writes one Revision per draft.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from .detect import Detector, cosine
from .errors import ConflictError, NotFound
from .models import Cardinality, Claim, ClaimDraft, RevisionResult
from .policy import Candidate, PairScores, Plan, Policy, contradicted, decide, match_text
from .store import StaleSlot, Store, Tx
from .vocabulary import Vocabulary, normalize_key

MAX_ATTEMPTS = 100

SlotKey = tuple[str, str, str]  # (namespace, subject_key, predicate)
TEXT_PREDICATE = "statement"  # the predicate of a slot opened by a text-only claim


def claim_properties(
    draft: ClaimDraft,
    claim_id: str,
    key: SlotKey,
    subject: str | None,
    *,
    status: str,
    version: int | None,
    contradiction: bool,
    disputed: bool,
    valid_from: datetime,
    recorded_at: datetime,
    embedding: list[float] | None,
) -> dict[str, Any]:
    """The stored properties of a new claim in slot ``key`` (absent values left out)."""
    props: dict[str, Any] = {
        "id": claim_id,
        "namespace": key[0],
        "subject": subject,
        "subject_key": key[1],
        "predicate": key[2],
        "predicate_text": draft.predicate,
        "object": draft.object,
        "object_key": normalize_key(draft.object) if draft.object is not None else None,
        "text": draft.text,
        "source_type": draft.source_type,
        "confidence": draft.confidence,
        "frequency": 1,
        "author": draft.author,
        "origin": draft.origin,
        "kind": draft.kind,
        "status": status,
        "version": version,
        "valid_from": valid_from,
        "valid_to": draft.valid_to,
        "recorded_at": recorded_at,
        "accepted_at": recorded_at if status == "active" else None,
        "contradiction": contradiction,
        "disputed": disputed,
        "needs_review": False,
        "embedding": embedding,
    }
    return {k: v for k, v in props.items() if v is not None}


def _iso(value: datetime | str | None) -> str | None:
    """A moment as ISO-8601 text for the write statements (they make it a DateTime)."""
    return value.isoformat() if isinstance(value, datetime) else value


class _Replayed(Exception):
    """Some of the batch's revision ids ran meanwhile: plan again (they become replays)."""


@dataclass
class Request:
    """One draft to remember, with its revision id (the idempotency key) and actor."""

    draft: ClaimDraft
    revision_id: str
    actor: str | None = None


@dataclass
class _SlotState:
    key: SlotKey
    subject: str | None
    cardinality: Cardinality
    slot_id: str
    seq: int
    versions: int
    head: str | None
    last_recorded_at: datetime | None
    active: list[dict[str, Any]]
    new: bool
    touched_by: str | None = None

    def claims(self) -> list[Claim]:
        return [Claim.model_validate(row) for row in self.active]


@dataclass
class _Batch:
    """Everything one transaction writes, gathered while planning."""

    claims: list[dict[str, Any]] = field(default_factory=list)
    closes: list[dict[str, Any]] = field(default_factory=list)
    supersedes: list[dict[str, Any]] = field(default_factory=list)
    reinforcements: list[dict[str, Any]] = field(default_factory=list)
    contradictions: list[dict[str, Any]] = field(default_factory=list)
    references: list[dict[str, Any]] = field(default_factory=list)
    retired: list[dict[str, Any]] = field(default_factory=list)
    revisions: list[dict[str, Any]] = field(default_factory=list)
    results: list[RevisionResult] = field(default_factory=list)


class Writer:
    """Plans and applies ``remember`` for batches of drafts."""

    def __init__(
        self,
        store: Store,
        vocabulary: Vocabulary,
        policy: Policy,
        detector: Detector,
        clock: Callable[[], datetime],
        new_id: Callable[[], str],
    ) -> None:
        self.store = store
        self.vocabulary = vocabulary
        self.policy = policy
        self.detector = detector
        self.clock = clock
        self.new_id = new_id

    def slot_key(self, namespace: str, subject: str, predicate: str) -> tuple[SlotKey, Cardinality]:
        """The slot a (subject, predicate) belongs to, and its cardinality."""
        canonical = self.vocabulary.canonical(predicate)
        key = (namespace, normalize_key(subject), canonical)
        return key, self.vocabulary.cardinality(canonical)

    def write(self, requests: Sequence[Request]) -> list[RevisionResult]:
        """Remember every request in order, in one transaction; results in the same order."""
        embeddings = self.detector.embed([r.draft.text for r in requests])
        for _ in range(MAX_ATTEMPTS):
            state = self._read(requests, embeddings)
            batch = self._plan(requests, embeddings, state)
            if not batch.revisions:
                return batch.results
            try:
                return self.store.transaction(partial(self._apply, state=state, batch=batch))
            except (StaleSlot, _Replayed):
                continue
        raise ConflictError(f"the facts kept changing under {MAX_ATTEMPTS} attempts; try again")

    # -- detect --------------------------------------------------------------------------------

    def _read(
        self, requests: Sequence[Request], embeddings: Sequence[list[float] | None]
    ) -> dict[str, Any]:
        keys: dict[SlotKey, tuple[str, Cardinality]] = {}
        for r in requests:
            if r.draft.subject is not None and r.draft.predicate is not None:
                key, cardinality = self.slot_key(
                    r.draft.namespace, r.draft.subject, r.draft.predicate
                )
                keys.setdefault(key, (r.draft.subject, cardinality))
        claim_ids = [
            {"namespace": r.draft.namespace, "id": i}
            for r in requests
            for i in (*r.draft.depends_on, *r.draft.supports, *([r.draft.id] if r.draft.id else []))
        ]
        row = self.store.read(
            "write/state",
            slots=[{"namespace": k[0], "subject_key": k[1], "predicate": k[2]} for k in keys],
            near=self._near(requests, embeddings),
            revisions=[{"namespace": r.draft.namespace, "id": r.revision_id} for r in requests],
            claim_ids=claim_ids,
        )[0]
        slots: dict[SlotKey, _SlotState] = {}
        for s in row["near"]:
            key = (s["namespace"], s["subject_key"], s["predicate"])
            slots[key] = self._state(key, s["subject"], s["cardinality"], s)
        for s in row["slots"]:
            key = (s["namespace"], s["subject_key"], s["predicate"])
            if key not in slots:
                subject, cardinality = keys[key]
                slots[key] = self._state(key, subject, cardinality, s)
        return {
            "slots": slots,
            "replays": {(r["namespace"], r["id"]): r["result"] for r in row["replays"]},
            "existing": {(c["namespace"], c["id"]) for c in row["existing"]},
            "existing_ids": {c["id"] for c in row["existing"]},
        }

    def _state(
        self, key: SlotKey, subject: str | None, cardinality: Cardinality, row: dict[str, Any]
    ) -> _SlotState:
        return _SlotState(
            key=key,
            subject=subject,
            cardinality=cardinality,
            slot_id=row["slot_id"] or self.new_id(),
            seq=row["seq"] or 0,
            versions=row["versions"] or 0,
            head=row["head"],
            last_recorded_at=(
                datetime.fromisoformat(row["last_recorded_at"]) if row["last_recorded_at"] else None
            ),
            active=row["claims"],
            new=row["slot_id"] is None,
        )

    def _near(
        self, requests: Sequence[Request], embeddings: Sequence[list[float] | None]
    ) -> list[dict[str, str]]:
        """Slots of the nearest active claims, for drafts that need them: text-only drafts (to
        find the fact they are about) and, with a contradiction model, every draft (to find
        implicit conflicts in other slots)."""
        queries = [
            {
                "index": i,
                "namespace": r.draft.namespace,
                "embedding": e,
                "fetch": self.policy.neighbours * 20,
                "k": self.policy.neighbours,
            }
            for i, (r, e) in enumerate(zip(requests, embeddings, strict=True))
            if e is not None and (r.draft.text_only or self.detector.scorer is not None)
        ]
        if not queries:
            return []
        near: dict[tuple[str, str], None] = {}
        for row in self.store.read("write/neighbours", queries=queries):
            namespace = requests[row["index"]].draft.namespace
            for slot_id in row["slot_ids"]:
                near[(namespace, slot_id)] = None
        return [{"namespace": ns, "id": slot_id} for ns, slot_id in near]

    # -- decide --------------------------------------------------------------------------------

    def _plan(
        self,
        requests: Sequence[Request],
        embeddings: Sequence[list[float] | None],
        state: dict[str, Any],
    ) -> _Batch:
        batch = _Batch()
        slots: dict[SlotKey, _SlotState] = state["slots"]
        created: set[tuple[str, str]] = set()
        for request, embedding in zip(requests, embeddings, strict=True):
            draft, rid = request.draft, request.revision_id
            replay = state["replays"].get((draft.namespace, rid))
            if replay is not None:
                batch.results.append(replayed(replay))
                continue
            claim_id = draft.id or self.new_id()
            slot, rivals = self._locate(draft, claim_id, embedding, slots)
            now = self.clock()
            recorded_at = draft.recorded_at or now
            self._check(draft, recorded_at, slot, state, created)
            valid_from = draft.valid_from or recorded_at
            active = slot.claims()
            scores = self.detector.score(draft.object, draft.text, embedding, slot.active)
            plan = decide(
                draft.source_type,
                draft.confidence,
                draft.correction,
                slot.key[2],
                slot.cardinality,
                active,
                scores,
                self.policy,
            )
            if plan.action == "supersede" and plan.target is not None:
                old = next(c for c in active if c.id == plan.target)
                if valid_from < old.valid_from:
                    raise ConflictError(
                        f"valid_from {valid_from.isoformat()} is earlier than the current belief's "
                        f"valid_from ({old.valid_from.isoformat()}): backfilling history behind "
                        "the current belief is not supported"
                    )
            result = self._stage(
                batch,
                request,
                claim_id,
                slot,
                plan,
                scores,
                rivals,
                now,
                recorded_at,
                valid_from,
                embedding,
            )
            if result.added:
                created.add((draft.namespace, result.added[0]))
            batch.results.append(result)
        return batch

    def _locate(
        self,
        draft: ClaimDraft,
        claim_id: str,
        embedding: list[float] | None,
        slots: dict[SlotKey, _SlotState],
    ) -> tuple[_SlotState, list[tuple[Candidate, _SlotState]]]:
        """The draft's slot, and claims in other slots it contradicts (implicit conflicts).

        A structured draft's slot is its (subject, predicate). A text-only draft joins the slot
        of the claim it updates or restates (``match_text``); otherwise it opens a slot of its
        own, keyed by its claim id.
        """
        if draft.subject is not None and draft.predicate is not None:
            slot = slots[self.slot_key(draft.namespace, draft.subject, draft.predicate)[0]]
        else:
            slot = None
        candidates = self._candidates(draft, embedding, slots, exclude=slot)
        if slot is None:
            match = match_text([c for c, _ in candidates], self.policy)
            if match is not None:
                slot = next(s for c, s in candidates if c is match)
            else:
                key = (draft.namespace, f"text:{claim_id}", TEXT_PREDICATE)
                slot = slots[key] = _SlotState(
                    key=key,
                    subject=None,
                    cardinality="single",
                    slot_id=self.new_id(),
                    seq=0,
                    versions=0,
                    head=None,
                    last_recorded_at=None,
                    active=[],
                    new=True,
                )
        hits = {c.claim_id for c in contradicted([c for c, _ in candidates], self.policy)}
        rivals = [(c, s) for c, s in candidates if c.claim_id in hits and s is not slot]
        return slot, rivals

    def _candidates(
        self,
        draft: ClaimDraft,
        embedding: list[float] | None,
        slots: dict[SlotKey, _SlotState],
        exclude: _SlotState | None,
    ) -> list[tuple[Candidate, _SlotState]]:
        """The nearest active claims in the draft's namespace (outside ``exclude``), scored."""
        if embedding is None or (not draft.text_only and self.detector.scorer is None):
            return []
        near: list[tuple[float, dict[str, Any], _SlotState]] = []
        for slot in slots.values():
            if slot.key[0] != draft.namespace or slot is exclude:
                continue
            for row in slot.active:
                if row.get("embedding"):
                    similarity = cosine(embedding, row["embedding"])
                    if similarity >= self.policy.candidate_similarity:
                        near.append((similarity, row, slot))
        near.sort(key=lambda t: -t[0])
        near = near[: self.policy.neighbours]
        scores = self.detector.relate(draft.text, embedding, [row for _, row, _ in near])
        return [
            (Candidate(row["id"], slot.slot_id, slot.cardinality, scores[row["id"]]), slot)
            for _, row, slot in near
        ]

    def _check(
        self,
        draft: ClaimDraft,
        recorded_at: datetime,
        slot: _SlotState,
        state: dict[str, Any],
        created: set[tuple[str, str]],
    ) -> None:
        if slot.last_recorded_at is not None and recorded_at < slot.last_recorded_at:
            raise ConflictError(
                f"recorded_at {recorded_at.isoformat()} is earlier than this fact's last recorded "
                f"change ({slot.last_recorded_at.isoformat()})"
            )
        known = state["existing"] | created
        for name, values in (("depends_on", draft.depends_on), ("supports", draft.supports)):
            for value in values:
                if (draft.namespace, value) not in known:
                    raise NotFound(f"{name}: no claim {value!r} in namespace {draft.namespace!r}")
        if draft.id and (
            draft.id in state["existing_ids"] or any(draft.id == c for _, c in created)
        ):
            raise ConflictError(f"id: a claim {draft.id!r} already exists")

    def _stage(
        self,
        batch: _Batch,
        request: Request,
        claim_id: str,
        slot: _SlotState,
        plan: Plan,
        scores: dict[str, PairScores],
        rivals: list[tuple[Candidate, _SlotState]],
        now: datetime,
        recorded_at: datetime,
        valid_from: datetime,
        embedding: list[float] | None,
    ) -> RevisionResult:
        """Add one draft's changes to the batch and to the in-memory slot state."""
        draft, rid, ns = request.draft, request.revision_id, request.draft.namespace
        added: list[str] = []
        retired: list[dict[str, Any]] = []
        reinforced: list[str] = []
        flagged: list[dict[str, str]] = []
        slot.touched_by = rid
        slot.last_recorded_at = max(filter(None, [slot.last_recorded_at, recorded_at]))
        if plan.action == "reinforce":
            assert plan.target is not None
            batch.reinforcements.append(
                {
                    "namespace": ns,
                    "id": plan.target,
                    "at": _iso(recorded_at),
                    "confidence": draft.confidence,
                    "episode_id": draft.episode_id,
                    "episode_content": draft.episode_content,
                    "origin": draft.origin,
                }
            )
            reinforced.append(plan.target)
            for row in slot.active:
                if row["id"] == plan.target:
                    row["frequency"] = row.get("frequency", 1) + 1
                    row["confidence"] = max(row["confidence"], draft.confidence)
        else:
            status = {"expand": "active", "supersede": "active", "hold_pending": "pending"}.get(
                plan.action, "rejected"
            )
            joins_chain = status == "active" and slot.cardinality == "single"
            version: int | None = 1 if status == "active" and not joins_chain else None
            if joins_chain:
                slot.versions += 1
                version = slot.versions
                if slot.head is not None:
                    batch.supersedes.append(
                        {
                            "namespace": ns,
                            "from": claim_id,
                            "to": slot.head,
                            "revision_id": rid,
                            "verdict": plan.verdict,
                        }
                    )
                slot.head = claim_id
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
            )
            moments = ("valid_from", "valid_to", "recorded_at", "accepted_at")
            batch.claims.append(
                {
                    "slot_id": slot.slot_id,
                    "props": {k: _iso(v) if k in moments else v for k, v in props.items()},
                    "episode_id": draft.episode_id,
                    "episode_content": draft.episode_content,
                }
            )
            added.append(claim_id)
            for target, kind in (
                *((t, "DEPENDS_ON") for t in draft.depends_on),
                *((t, "SUPPORTS") for t in draft.supports),
            ):
                batch.references.append(
                    {"namespace": ns, "from": claim_id, "to": target, "kind": kind}
                )
            if plan.action == "supersede" and plan.target is not None:
                old = next(r for r in slot.active if r["id"] == plan.target)
                batch.closes.append(
                    {
                        "namespace": ns,
                        "id": plan.target,
                        "valid_to": valid_from,
                        "at": _iso(recorded_at),
                    }
                )
                retired.append(
                    {
                        "id": plan.target,
                        "previous_valid_to": _iso(old.get("valid_to")),
                        "previous_status": "active",
                    }
                )
                batch.retired.append(
                    {"namespace": ns, "id": plan.target, "revision_id": rid, "why": "superseded"}
                )
                slot.active = [r for r in slot.active if r["id"] != plan.target]
            if plan.action in ("hold_pending", "reject") and plan.target is not None:
                score = scores.get(plan.target)
                batch.contradictions.append(
                    {
                        "namespace": ns,
                        "from": claim_id,
                        "to": plan.target,
                        "score": score.contradiction if score else None,
                        "revision_id": rid,
                        "dispute": plan.action == "hold_pending",
                        "resolution": None
                        if plan.action == "hold_pending"
                        else "rejected: lower trust",
                    }
                )
                if plan.action == "hold_pending":
                    flagged.append({"id": plan.target, "flag": "disputed"})
            if status in ("active", "pending"):
                for rival, rival_slot in rivals:
                    batch.contradictions.append(
                        {
                            "namespace": ns,
                            "from": claim_id,
                            "to": rival.claim_id,
                            "score": rival.scores.contradiction,
                            "revision_id": rid,
                            "dispute": True,
                            "resolution": None,
                        }
                    )
                    flagged.append({"id": rival.claim_id, "flag": "disputed"})
                    rival_slot.touched_by = rid
            if status == "active":
                # A copy: later drafts of the batch update it in memory (frequency), while
                # props is what the claims statement writes.
                slot.active.append(dict(props))
        result = RevisionResult(
            revision_id=rid,
            namespace=ns,
            op="remember",
            verdict=plan.verdict,
            decision=plan.action,
            reason=plan.reason,
            slot_id=slot.slot_id,
            added=added,
            retired=[r["id"] for r in retired],
            reinforced=reinforced,
            flagged=[f["id"] for f in flagged],
        )
        batch.revisions.append(
            {
                "props": {
                    "id": rid,
                    "namespace": ns,
                    "op": "remember",
                    "at": _iso(now),
                    "actor": request.actor,
                    "verdict": plan.verdict,
                    "decision": plan.action,
                    "reason": plan.reason,
                    "slot_ids": [slot.slot_id],
                },
                "added": added,
                "retired": retired,
                "reinforced": reinforced,
                "flagged": flagged,
                "restored": [],
            }
        )
        return result

    # -- apply ---------------------------------------------------------------------------------

    def _apply(self, tx: Tx, state: dict[str, Any], batch: _Batch) -> list[RevisionResult]:
        slots: dict[SlotKey, _SlotState] = state["slots"]
        touched = sorted((s for s in slots.values() if s.touched_by), key=lambda s: s.key)
        lock = tx.one(
            "write/lock",
            slots=[
                {
                    "namespace": s.key[0],
                    "subject_key": s.key[1],
                    "predicate": s.key[2],
                    "id": s.slot_id,
                    "subject": s.subject,
                    "cardinality": s.cardinality,
                }
                for s in touched
            ],
            revisions=[
                {"namespace": rv["props"]["namespace"], "id": rv["props"]["id"]}
                for rv in batch.revisions
            ],
        )
        assert lock is not None
        if lock["replayed"]:
            raise _Replayed()
        for row in lock["slots"]:
            s = slots[(row["namespace"], row["subject_key"], row["predicate"])]
            if row["seq_before"] != s.seq or row["slot_id"] != s.slot_id:
                raise StaleSlot()
        tx.run(
            "write/changes",
            claims=batch.claims,
            closes=batch.closes,
            edges=batch.supersedes,
            reinforcements=batch.reinforcements,
            contradictions=batch.contradictions,
            references=batch.references,
        )
        flagged_by: dict[str, list[str]] = {}
        if batch.retired:
            for row in tx.run("write/flags", retired=batch.retired):
                flagged_by[row["revision_id"]] = row["flagged"]
        results: list[RevisionResult] = []
        for result in batch.results:
            extra = flagged_by.get(result.revision_id, []) if not result.replayed else []
            results.append(
                result.model_copy(update={"flagged": [*result.flagged, *extra]})
                if extra
                else result
            )
        by_rid = {r.revision_id: r for r in results}
        for rv in batch.revisions:
            rid = rv["props"]["id"]
            rv["flagged"] = [
                *rv["flagged"],
                *({"id": i, "flag": "needs_review"} for i in flagged_by.get(rid, [])),
            ]
            rv["props"]["result"] = by_rid[rid].model_dump_json()
        tx.run(
            "write/finish",
            slots=[
                {
                    "namespace": s.key[0],
                    "id": s.slot_id,
                    "versions": s.versions,
                    "head": s.head,
                    "last_recorded_at": _iso(s.last_recorded_at),
                    "last_revision": s.touched_by,
                }
                for s in touched
            ],
            revisions=batch.revisions,
        )
        return results


def replayed(result: str) -> RevisionResult:
    """The stored result of a revision that already ran, marked as a replay."""
    data = json.loads(result)
    data["replayed"] = True
    return RevisionResult.model_validate(data)
