"""The one write transaction. Every write operation of the engine ends here.

``run`` reads and decides (outside any transaction; models may run there), then applies the
``ChangeSet``s in one transaction: lock the touched slots in a fixed order, check that none
changed since the read (else read and decide again), write the changes, flag the direct
dependents of retired claims, write one Revision per ``ChangeSet``, commit. A revision id that
ran meanwhile makes the next attempt return its stored result (exactly-once replays).

All of it is one statement (``write/apply``, one round trip), or statement by statement
(``_apply``: the tests compare the two). An erase is the exception: one Revision over many
transactions (``erase_begin``, ``erase_batch``, ``erase_tombstones``, ``erase_scrub``,
``erase_close``; write/erasure.py says why), which the writer runs in turn.

A write to what a running erase covers is refused (``ConflictError``): write/apply and
write/lock find the erase's label and change nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from ..errors import ConflictError
from ..models import CLAIM_MOMENTS, RevisionResult
from ..store import Row, StaleSlot, Store, Tx
from .changes import ASSIGNED_MOMENTS, ChangeSet, SlotState
from .erasure import batch
from .state import WALK_UP_TO, State

MAX_ATTEMPTS = 100

Planned = list[ChangeSet | RevisionResult]  # a ChangeSet to apply, or a replay's stored result


class _Replayed(Exception):
    """A revision id of the batch ran meanwhile: plan again (it becomes a replay)."""


class _Left(Exception):
    """An erase about to finish found something it covers left: it is not finished yet."""


def run(
    store: Store,
    read: Callable[[], State],
    decide: Callable[[State], Planned],
    *,
    one_trip: bool = True,
    walk_up_to: int = WALK_UP_TO,
    carry: Callable[[State], None] | None = None,
    found: Callable[[list[Row]], None] | None = None,
) -> list[RevisionResult]:
    """Read, decide and apply until the transaction commits on the state it was decided on;
    the results in the order ``decide`` planned them. ``one_trip``: apply a batch without an
    erasure as one statement (``write/apply``); else, and for an erasure, statement by
    statement (lock, changes, flags, finish); a refused statement reads its long facts back by
    index (more than ``walk_up_to`` claims). ``carry``: given the state as planned, once its
    changes are committed. ``found``: given the slots a refused one-statement apply found
    under its locks, before the next read."""
    for _ in range(MAX_ATTEMPTS):
        state = read()
        try:
            planned = decide(state)
        except StaleSlot:  # the state read was not one to decide on: read again
            continue
        changes = [p for p in planned if isinstance(p, ChangeSet)]
        if not changes:
            return in_order(planned, [])
        try:
            if one_trip and all(c.erasure is None for c in changes):
                applied = apply_at_once(store, state, changes, walk_up_to)
            else:
                applied = store.transaction(partial(_apply, state=state, changes=changes))
        except StaleSlot as stale:
            if found is not None and stale.found is not None:
                found(stale.found)
            continue
        except _Replayed:
            continue
        if carry is not None:
            carry(state)
        return in_order(planned, applied)
    raise ConflictError(f"the facts kept changing under {MAX_ATTEMPTS} attempts; try again")


def _erasing(namespace: str, erases: list[str]) -> ConflictError:
    """The refusal of a write to what a running erase covers."""
    return ConflictError(
        f"namespace {namespace!r}: the erase {', '.join(repr(e) for e in erases)} is running "
        "over what this write touches: nothing of it was written. What an erase covers takes "
        "no writes until it has finished (erase again with the same arguments to finish one "
        "that stopped)"
    )


def erase_begin(store: Store, params: dict[str, Any]) -> bool:
    """An erase's Revision, labelled as running (``write/erase_begin``); whether this call made
    it (False: it existed, the caller resumes or replays it)."""
    row = store.write("write/erase_begin", **params)
    return bool(row and row[0]["created"])


def erase_batch(
    store: Store, job_params: dict[str, Any], rid: str, at: datetime, limit: int
) -> list[str]:
    """One batch of an erase, one transaction: up to ``limit`` of its claims (their facts
    locked) lose their content as ``erasure.batch`` says, the dismissals' text goes from their
    conflicts, and the erase's Revision is linked to them and to the dependents flagged. The
    ids erased (none: no claim is left)."""
    namespace = job_params["namespace"]

    def work(tx: Tx) -> list[str]:
        found = tx.one("write/erase_targets", **job_params, id=rid, limit=limit)
        assert found is not None
        ids = [c["id"] for c in found["claims"]]
        if not ids:
            return []
        change = batch(namespace, rid, at, ids)
        tx.run("write/changes", batch=_statement_params([change]))
        flagged = [
            i
            for row in tx.run("write/flags", batch={"retired": _retired([change])})
            for i in row["flagged"]
        ]
        tx.run("write/erase_scrub", namespace=namespace, revisions=[], claim_ids=ids)
        tx.run(
            "write/erase_record",
            namespace=namespace,
            id=rid,
            claims=ids,
            flagged=sorted(set(flagged)),
            slot_ids=found["slot_ids"],
        )
        return ids

    return store.transaction(work)


def erase_tombstones(store: Store, job_params: dict[str, Any], rid: str, limit: int) -> int:
    """Up to ``limit`` of the facts an erase covers left as tombstones, one transaction; how
    many (none: no fact is left named)."""
    namespace = job_params["namespace"]
    params = {k: v for k, v in job_params.items() if k not in ("mention", "legacy")}

    def work(tx: Tx) -> int:
        found = tx.one("write/erase_slots", **params, id=rid, limit=limit)
        assert found is not None
        if found["new_slot_ids"]:
            tx.run(
                "write/erase_record",
                namespace=namespace,
                id=rid,
                claims=[],
                flagged=[],
                slot_ids=found["new_slot_ids"],
            )
        return len(found["slot_ids"])

    return store.transaction(work)


def erase_scrub(store: Store, namespace: str, revisions: list[dict[str, Any]]) -> None:
    """Rewrite revisions as an erase decided (``erasure.scrub``), one transaction."""
    store.transaction(
        lambda tx: tx.run(
            "write/erase_scrub", namespace=namespace, revisions=revisions, claim_ids=[]
        )
    )


def erase_close(
    store: Store,
    job_params: dict[str, Any],
    rid: str,
    result: Callable[[Row], RevisionResult],
) -> RevisionResult | None:
    """An erase's last transaction: its claims and facts looked for once more (a write that
    committed as it began), and, none left, its result written (``result`` of what
    ``write/erase_outcome`` read) and its label taken off. None when some were left: they are
    erased (committed) and the caller goes on."""
    namespace = job_params["namespace"]
    slot_params = {k: v for k, v in job_params.items() if k not in ("mention", "legacy")}

    def work(tx: Tx) -> RevisionResult:
        left = tx.one("write/erase_targets", **job_params, id=rid, limit=1)
        named = tx.one("write/erase_slots", **slot_params, id=rid, limit=1)
        assert left is not None and named is not None
        if left["claims"] or named["slot_ids"]:
            raise _Left()  # nothing of this transaction is kept: the caller erases them first
        outcome = tx.one("write/erase_outcome", namespace=namespace, id=rid)
        assert outcome is not None
        done = result(outcome)
        tx.run("write/erase_close", namespace=namespace, id=rid, result=done.model_dump_json())
        return done

    try:
        return store.transaction(work)
    except _Left:
        return None


def in_order(planned: Planned, applied: list[RevisionResult]) -> list[RevisionResult]:
    """The results in the order planned: each ``ChangeSet``'s from ``applied`` (in the same
    order), each replay's stored result where it stands."""
    results = iter(applied)
    return [next(results) if isinstance(p, ChangeSet) else p for p in planned]


def lock_slots(tx: Tx, namespace: str, slot_ids: Iterable[str]) -> None:
    """Take the write locks of existing slots (by id) in ``tx``, as a write to them would."""
    tx.run(
        "write/lock",
        slots=[
            {"namespace": namespace, "id": i, "new": False, "subject_key": None, "predicate": None}
            for i in sorted(slot_ids)
        ],
        revisions=[],
    )


def load(store: Store, statement: str, namespace: str, rows: list[Any]) -> None:
    """Snapshot restore: one batch of rows into a namespace checked empty beforehand (a bulk
    load, not an operation on beliefs: no slot locks, no Revision)."""
    store.transaction(lambda tx: tx.run(statement, namespace=namespace, rows=rows))


def load_all(
    store: Store, namespace: str, batches: Callable[[], Iterable[tuple[str, list[Any]]]]
) -> None:
    """Snapshot restore, all or nothing: every (statement, rows) batch ``batches()`` yields, in
    one transaction (``batches`` is called again if the driver retries it)."""

    def work(tx: Tx) -> None:
        for statement, rows in batches():
            tx.run(statement, namespace=namespace, rows=rows)

    store.transaction(work)


def set_embeddings(store: Store, namespace: str, rows: list[dict[str, Any]]) -> int:
    """``embed``: one batch of vectors (``{id, text, embedding}``) for claims that had none, in
    one transaction; how many claims took theirs. Derived data, not a belief: no slot locks,
    no Revision (the claims' content, versions and history stay as they were)."""
    written = store.transaction(
        lambda tx: tx.run("write/embeddings_set", namespace=namespace, rows=rows)
    )
    return int(written[0]["written"]) if written else 0


PROBE_PREFIX = "doctor:probe:"
"""The namespaces ``doctor`` writes its probe into, and removes whole afterwards."""


def drop_probe(store: Store, namespace: str) -> int:
    """Remove a doctor probe's namespace whole (nothing left, not even a tombstone); how many
    nodes went. Refuses any namespace that is not a probe's."""
    if not namespace.startswith(PROBE_PREFIX):
        raise ValueError(f"namespace: {namespace!r} is not a doctor probe's namespace")
    removed = store.transaction(lambda tx: tx.run("write/probe_drop", namespace=namespace))
    return int(removed[0]["nodes"]) if removed else 0


def _iso(value: datetime | str | None) -> str | None:
    """A moment as ISO-8601 text for the write statements (they make it a DateTime)."""
    return value.isoformat() if isinstance(value, datetime) else value


# A new claim's moments the statement makes DateTimes (each written once, not as text first).
_CLAIM_DATETIMES = ("valid_from", "valid_to", "recorded_at", "accepted_at")


def _apply(tx: Tx, state: State, changes: list[ChangeSet]) -> list[RevisionResult]:
    touched = sorted((s for s in state.slots.values() if s.touched_by), key=lambda s: s.key)
    lock = tx.one(
        "write/lock",
        slots=[_slot_identity(s) for s in touched],
        revisions=[{"namespace": c.namespace, "id": c.revision_id} for c in changes],
    )
    assert lock is not None
    if lock["erasing"]:
        raise _erasing(changes[0].namespace, lock["erasing"])
    if lock["replayed"]:
        raise _Replayed()
    if len(lock["slots"]) != len(touched):
        raise StaleSlot()
    for row in lock["slots"]:
        s = state.slots[(row["namespace"], row["subject_key"], row["predicate"])]
        if (
            row["seq_before"] != s.seq
            or row["slot_id"] != s.slot_id
            or row["key_now"] != row["subject_key"]
        ):
            raise StaleSlot()
    tx.run("write/changes", batch=_statement_params(changes))
    retired = _retired(changes)
    flagged_by: dict[str, list[str]] = {}
    if retired:
        for row in tx.run("write/flags", batch={"retired": retired}):
            flagged_by[row["revision_id"]] = row["flagged"]
    results = [c.result(flagged_by.get(c.revision_id, [])) for c in changes]
    slots = [
        {
            "namespace": s.key[0],
            "id": s.slot_id,
            "versions": s.versions,
            "head": s.head,
            "last_recorded_at": _iso(s.last_recorded_at),
            "last_revision": s.touched_by,
        }
        for s in touched
    ]
    revisions = [
        _revision(c, result, flagged_by.get(c.revision_id, []))
        for c, result in zip(changes, results, strict=True)
    ]
    tx.run("write/finish", batch={"slots": slots, "revisions": revisions})
    return results


@dataclass(frozen=True)
class AtOnce:
    """A batch's one statement (``write/apply``) with its parameters, and each change's result
    as it stands before the statement flags dependents: built while the batch before is on the
    server (``Writer.ingest``), sent by ``send``."""

    params: dict[str, Any]
    bases: list[RevisionResult]


def apply_at_once(
    store: Store,
    state: State,
    changes: list[ChangeSet],
    walk_up_to: int = WALK_UP_TO,
) -> list[RevisionResult]:
    """``_apply`` as one statement, its own auto-commit transaction (``write/apply``): one round
    trip. The slot locks and their seq check gate the changes in the statement itself, which
    changes nothing when a slot changed or a revision of the batch ran since the read, and
    returns the slots as it found them: ``StaleSlot`` with those, plan again."""
    return send(store, at_once(state, changes, walk_up_to))


def at_once(state: State, changes: list[ChangeSet], walk_up_to: int = WALK_UP_TO) -> AtOnce:
    """The statement ``apply_at_once`` runs for ``changes`` planned on ``state``. The
    dependents it flags go into each stored result between the two halves written here (claim
    ids are identifiers: letters, digits and ``_.:-/@``, nothing JSON escapes)."""
    bases = [c.result() for c in changes]
    touched = sorted((s for s in state.slots.values() if s.touched_by), key=lambda s: s.key)
    revisions = []
    for c, base in zip(changes, bases, strict=True):
        revision = _revision(c, None, [])
        revision["result_head"], revision["result_sep"], revision["result_tail"] = _split(base)
        revisions.append(revision)
    params: dict[str, Any] = {
        **_statement_params(changes),
        "slots": [
            {
                **_slot_identity(s),
                "seq": s.seq,
                # A refusal reads the slots back (write/slot_states) from the past it was
                # decided on.
                "since": _iso(s.past_since),
                "whole_past": False,
                "versions": s.versions,
                "head": s.head,
                "last_recorded_at": _iso(s.last_recorded_at),
                "last_revision": s.touched_by,
            }
            for s in touched
        ],
        "revisions": revisions,
        "retired": _retired(changes),
        "walk_up_to": walk_up_to,
    }
    return AtOnce(params, bases)


def send(store: Store, statement: AtOnce) -> list[RevisionResult]:
    """Run ``statement``: the results with the dependents it flagged; ``StaleSlot`` with the
    slots as it found them when it was refused."""
    row = store.write_once("write/apply", batch=statement.params)[0]
    if row["erasing"]:
        revisions = statement.params["revisions"]
        raise _erasing(revisions[0]["props"]["namespace"], row["erasing"])
    if not row["ok"]:
        raise StaleSlot(row["found"])
    flagged_by = {d["revision_id"]: d["flagged"] for d in row["dependents"] if d["flagged"]}
    return [
        r.model_copy(update={"flagged": [*r.flagged, *flagged_by[r.revision_id]]})
        if r.revision_id in flagged_by
        else r
        for r in statement.bases
    ]


_FLAGGED = '"flagged":['


def _split(result: RevisionResult) -> tuple[str, str, str]:
    """A stored result as (head, separator, tail): with the dependents the apply statement
    flags, ``head + separator + '"id1","id2"' + tail``; without, ``head + tail``. The flagged
    list is the last one but ``restored`` (ids too): no free text follows it, and ids hold no
    ``]``."""
    text = result.model_dump_json()
    start = text.rindex(_FLAGGED) + len(_FLAGGED)
    end = text.index("]", start)
    return text[:end], "," if end > start else "", text[end:]


def _retired(changes: list[ChangeSet]) -> list[dict[str, Any]]:
    """The retired claims whose direct dependents are flagged for review."""
    return [
        {"namespace": c.namespace, "id": r.id, "revision_id": c.revision_id, "why": r.why}
        for c in changes
        for r in c.retires
        if r.why is not None
    ] + [
        {"namespace": c.namespace, "id": i, "revision_id": c.revision_id, "why": "erased"}
        for c in changes
        if c.erasure is not None
        for i in c.erasure.claim_ids
    ]


def _slot_identity(s: SlotState) -> dict[str, Any]:
    """What both write statements need to find or create a slot."""
    return {
        "namespace": s.key[0],
        "subject_key": s.key[1],
        "predicate": s.key[2],
        "id": s.slot_id,
        "subject": s.subject,
        "cardinality": s.cardinality,
        "new": s.new,
    }


def _statement_params(changes: list[ChangeSet]) -> dict[str, list[dict[str, Any]]]:
    """The batch's changes as the lists ``write/changes`` takes, in the batch's order."""
    p: dict[str, list[dict[str, Any]]] = {
        name: []
        for name in (
            "claims",
            "restores",
            "retires",
            "reopens",
            "activations",
            "edges",
            "reinforcements",
            "contradictions",
            "settles",
            "references",
            "clears",
            "repoints",
            "erase_claims",
            "erase_slots",
            "merges",
            "disputes",
            "raises",
            "unsettles",
            "unlinks",
            "assigns",
            "demotions",
            "deactivations",
        )
    }
    for c in changes:
        ns, rid, at = c.namespace, c.revision_id, _iso(c.at)
        for new in c.creates:
            p["claims"].append(
                {
                    "slot_id": new.slot_id,
                    "props": {
                        k: _iso(v) if k in CLAIM_MOMENTS else v
                        for k, v in new.props.items()
                        if k not in _CLAIM_DATETIMES
                    },
                    "moments": {k: _iso(new.props.get(k)) for k in _CLAIM_DATETIMES},
                    "episode_id": new.episode_id,
                    "episode_content": new.episode_content,
                }
            )
            for kind, targets in (("DEPENDS_ON", new.depends_on), ("SUPPORTS", new.supports)):
                p["references"] += [
                    {"namespace": ns, "from": new.props["id"], "to": t, "kind": kind}
                    for t in targets
                ]
        p["restores"] += [
            {
                "namespace": ns,
                "id": r.id,
                "new_id": r.new_id,
                "valid_to": _iso(r.valid_to),
                "version": r.version,
                "status": r.status,
                "undoes": r.undoes,
                "at": at,
            }
            for r in c.restores
        ]
        p["retires"] += [
            {
                "namespace": ns,
                "id": r.id,
                "status": r.status,
                "valid_to": _iso(r.valid_to),
                "at": _iso(r.at) or at,
            }
            for r in c.retires
        ]
        p["reopens"] += [{"namespace": ns, "id": r.id, "status": r.status} for r in c.reopens]
        p["deactivations"] += [
            {
                "namespace": ns,
                "id": d.id,
                "record_id": d.record_id,
                "valid_from": _iso(d.previous["valid_from"]),
                "contradiction": bool(d.previous.get("contradiction")),
                "kind": d.previous.get("kind") or "evidence",
                "disputes_policy": d.previous.get("disputes_policy"),
                "at": at,
            }
            for d in c.deactivations
        ]
        p["activations"] += [
            {
                "namespace": ns,
                "id": a.id,
                "contradiction": a.contradiction,
                "version": a.version,
                "valid_from": _iso(a.valid_from),
                "kind": a.kind,
                "at": at,
            }
            for a in c.activations
        ]
        p["edges"] += [
            {"namespace": ns, "from": e.new, "to": e.old, "revision_id": rid, "verdict": e.verdict}
            for e in c.supersedes
        ]
        p["reinforcements"] += [
            {
                "namespace": ns,
                "id": r.id,
                "delta": r.delta,
                "at": (_iso(r.at) or at) if r.delta > 0 else None,
                "confidence": r.confidence,
                "episode_id": r.episode_id,
                "episode_content": r.episode_content,
                "origin": r.origin,
                "revision_id": rid,
                "previous_confidence": r.previous_confidence,
                "previous_at": _iso(r.previous_at),
                "undoes": r.undoes,
                "evidence": r.evidence,
                "source_type": r.source_type,
            }
            for r in c.reinforcements
        ]
        p["demotions"] += [
            {
                "namespace": ns,
                "id": d.id,
                "reason": d.reason,
                "undo": d.undo,
                "revision_id": rid,
                "at": at,
            }
            for d in c.demotions
        ]
        p["contradictions"] += [
            {
                "namespace": ns,
                "from": x.claim,
                "to": x.rival,
                "score": x.score,
                "revision_id": rid,
                "dispute": x.dispute,
                "resolution": x.resolution,
            }
            for x in c.contradictions
        ]
        # A claim that leaves the beliefs settles its open conflicts: nothing stays disputed by
        # a rival that is gone.
        ended: list[tuple[str, str]] = [(r.id, r.status) for r in c.retires]
        if c.erasure is not None:
            ended += [(i, "erased") for i in c.erasure.claim_ids]
        p["settles"] += [
            {
                "namespace": ns,
                "id": s.id,
                "rival": s.rival,
                "resolution": s.resolution,
                "revision_id": rid,
            }
            for s in c.settles
        ] + [
            {"namespace": ns, "id": i, "rival": None, "resolution": status, "revision_id": rid}
            for i, status in ended
        ]
        p["repoints"] += [
            {"namespace": ns, "id": r.id, "old": r.old, "premise": r.premise} for r in c.repoints
        ]
        p["clears"] += [
            {"namespace": ns, "id": i, "revision_id": c.cleared_revision} for i in c.clear_review_of
        ]
        if c.erasure is not None:
            p["erase_claims"] += [{"namespace": ns, "id": i, "at": at} for i in c.erasure.claim_ids]
            p["erase_slots"] += [{"namespace": ns, "id": i} for i in c.erasure.slot_ids]
        p["merges"] += [
            {"namespace": ns, "id": m.id, "into": m.into, "revision_id": rid} for m in c.merges
        ]
        p["disputes"] += [{"namespace": ns, "id": i, "disputed": d} for i, d in c.disputes]
        p["raises"] += [
            {"namespace": ns, "id": i, "reason": why, "revision_id": rid} for i, why in c.raises
        ]
        p["unsettles"] += [
            {
                "namespace": ns,
                "from": u.claim,
                "to": u.rival,
                "revision": u.revision,
                "previous": u.previous,
            }
            for u in c.unsettles
        ]
        p["unlinks"] += [
            {"namespace": ns, "id": i, "revision_id": c.unlinked_revision} for i in c.unlink
        ]
        p["assigns"] += [
            {
                "namespace": ns,
                "id": a.id,
                "props": {k: v for k, v in a.props.items() if k not in ASSIGNED_MOMENTS},
                "moments": {k: _iso(v) for k, v in a.props.items() if k in ASSIGNED_MOMENTS},
            }
            for a in c.assigns
        ]
    return p


def _revision(
    change: ChangeSet, result: RevisionResult | None, dependents: list[str]
) -> dict[str, Any]:
    """The Revision node of one ``ChangeSet`` and its edges to every claim it touched
    (``result`` None: the statement writes it)."""
    props = {
        "id": change.revision_id,
        "namespace": change.namespace,
        "op": change.op,
        "actor": change.actor,
        "verdict": change.verdict,
        "decision": change.decision,
        "reason": change.reason,
        "slot_ids": change.slot_ids,
        "result": result.model_dump_json() if result is not None else None,
        "undo": json.dumps(change.undo, sort_keys=True) if change.undo is not None else None,
        "undoes": change.undoes,
    }
    retired = [
        {
            "id": r.id,
            "previous_valid_to": _iso(r.previous_valid_to),
            "previous_status": r.previous_status,
        }
        for r in change.retires
    ]
    if change.erasure is not None:
        retired += [
            {"id": i, "previous_valid_to": None, "previous_status": None}
            for i in change.erasure.claim_ids
        ]
    # What an activation changed, on its ADDED edge: a rollback makes the claim wait as it did.
    activated = {
        a.id: {
            "previous_status": a.previous.get("status"),
            "previous_valid_from": _iso(a.previous.get("valid_from")),
            "previous_contradiction": a.previous.get("contradiction"),
            "previous_kind": a.previous.get("kind"),
            "previous_disputes_policy": a.previous.get("disputes_policy"),
        }
        for a in change.activations
        if a.previous is not None
    }
    return {
        "props": {k: v for k, v in props.items() if v is not None},
        "at": _iso(change.at),  # written once, as a DateTime
        "added": [{"id": i, **activated.get(i, {})} for i in change.added],
        "retired": retired,
        "reinforced": [
            {"id": r.id, "delta": r.delta, **r.record}
            if r.record is not None
            else {
                "id": r.id,
                "delta": r.delta,
                "previous_confidence": r.previous_confidence,
                "previous_at": _iso(r.previous_at),
                **_previous_evidence(r.previous_evidence),
                "previous_source_type": r.previous_source_type,
            }
            for r in change.reinforcements
        ],
        "flagged": [
            *({"id": i, "flag": f} for i, f in change.flags),
            *({"id": i, "flag": "needs_review"} for i, _ in change.raises),
            *({"id": i, "flag": "needs_review"} for i in dependents),
            *change.records,
        ],
        "restored": [
            *({"id": r.new_id, "from": r.id} for r in change.restores),
            *({"id": r.id, "from": r.id, "previous_status": r.previous} for r in change.reopens),
            *(
                {
                    "id": d.id,
                    "from": d.id,
                    "previous_status": "active",
                    "previous_kind": d.kind,
                    "previous_valid_from": _iso(d.valid_from),
                }
                for d in change.deactivations
            ),
            *({"id": a.id, "from": a.id} for a in change.assigns if a.restored),
        ],
    }


def _previous_evidence(evidence: dict[str, Any] | None) -> dict[str, Any]:
    """A reinforcement's evidence before it, kept on its REINFORCED edge for a rollback."""
    if evidence is None:
        return {}
    return {f"previous_{k}": v for k, v in evidence.items()}
