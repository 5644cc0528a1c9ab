"""The pure decision step of every operation on existing claims: (the operation, the state read
before its transaction) → a ``ChangeSet``. No I/O: each rule is a unit test away."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any, Literal

from ..errors import ConflictError, NotFound
from ..evidence import evidence_of
from ..identity import value_key
from ..models import ClaimDraft, Verdict
from .changes import (
    Activate,
    ChangeSet,
    Deactivate,
    Demotion,
    NewClaim,
    Reinforce,
    Reopen,
    Repoint,
    Restore,
    Retire,
    Settle,
    SlotState,
    Unsettle,
    claim_properties,
)
from .state import State
from .timeline import Correction, correction


def _claim(
    state: State, namespace: str, claim_id: str, *statuses: str, field: str = "claim_id"
) -> dict[str, Any]:
    claim = state.claims.get((namespace, claim_id))
    if claim is None:
        raise NotFound(f"{field}: no claim {claim_id!r} in namespace {namespace!r}")
    if claim["status"] not in statuses:
        raise ConflictError(
            f"{field}: claim {claim_id!r} is {claim['status']}, not {' or '.join(statuses)}"
        )
    return claim


def _slot(state: State, claim: dict[str, Any], rid: str) -> SlotState:
    slot = state.slot(claim["slot_id"])
    assert slot is not None, "a claim's slot is read with it"
    slot.touched_by = rid
    return slot


def contract(
    state: State,
    namespace: str,
    claim_id: str,
    *,
    retract: bool,
    valid_to: datetime | None,
    reason: str,
    rid: str,
    actor: str | None,
    now: datetime,
) -> ChangeSet:
    """Retract a claim believed for its window (it was wrong) or close an active claim's
    validity (it was true until then; a ``valid_to`` in the future schedules the end: the
    claim stays the current belief until then). An end a claim already has is never moved."""
    claim = _claim(
        state, namespace, claim_id, *(("active", "superseded") if retract else ("active",))
    )
    slot = _slot(state, claim, rid)
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="contract",
        decision="retract" if retract else "close",
        reason=reason,
        at=now,
        actor=actor,
        slot_id=slot.slot_id,
        slot_ids=[slot.slot_id],
    )
    if retract:
        retire = Retire(
            claim_id, "retracted", claim["status"], claim.get("valid_to"), why="retracted"
        )
    else:
        end = valid_to or now
        if end <= claim["valid_from"]:
            raise ValueError("valid_to: must be later than the claim's valid_from")
        if claim.get("valid_to") is not None:
            raise ConflictError(
                f"valid_to: claim {claim_id!r} already ends at {claim['valid_to'].isoformat()} "
                "and an end is never moved; retract it and remember the right window instead"
            )
        retire = Retire(
            claim_id, "superseded", "active", claim.get("valid_to"), valid_to=end, why="closed"
        )
    change.retires.append(retire)
    return change


def settle(
    state: State,
    namespace: str,
    claim_id: str,
    *,
    accept: bool,
    rid: str,
    actor: str | None,
    now: datetime,
) -> ChangeSet:
    """A human confirms a pending claim (it becomes the belief; in a single-valued fact the
    active claim is superseded) or rejects it (the belief stands)."""
    claim = _claim(state, namespace, claim_id, "pending")
    slot = _slot(state, claim, rid)
    verdict: Verdict = "CONFLICT" if claim.get("contradiction") else "UPDATE"
    op: Literal["confirm", "reject"] = "confirm" if accept else "reject"
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op=op,
        decision=op,
        reason="confirmed by a human" if accept else "rejected by a human",
        at=now,
        actor=actor or "human",
        verdict=verdict,
        slot_id=slot.slot_id,
        slot_ids=[slot.slot_id],
    )
    if not accept:
        change.retires.append(Retire(claim_id, "rejected", "pending", claim.get("valid_to")))
        change.settles.append(Settle(claim_id, "rejected"))
        return change
    if claim.get("disputes_policy") and any(r.get("kind") == "policy" for r in slot.active):
        raise ConflictError(
            f"claim_id: claim {claim_id!r} is evidence disputing a policy; only promote changes "
            "a policy (or reject it)"
        )
    _believe(change, slot, claim, verdict, field="claim_id")
    change.settles.append(Settle(claim_id, "confirmed"))
    return change


def _believe(
    change: ChangeSet,
    slot: SlotState,
    claim: dict[str, Any],
    verdict: str,
    *,
    field: str,
    retired: Collection[str] = (),
    kind: str | None = None,
    start: datetime | None = None,
) -> None:
    """``claim``, pending, becomes the belief of ``slot`` (a human confirmed it, kept it in a
    conflict or promoted it, ``kind="policy"``): a correction retracts the versions it
    corrects, as ``remember`` would have, any other claim supersedes a single-valued fact's
    active one; ``verdict`` goes on its SUPERSEDES edge. Refused when stale (``field`` names the
    claim in the error). ``retired``: a claim the operation retires already (the side a resolve
    did not keep; claims a rollback retracts). ``start``: it holds from then at the earliest (a
    policy holds from the decision that made it one: until then the old one held)."""
    waited = {
        "status": claim["status"],
        "valid_from": claim["valid_from"],
        "contradiction": bool(claim.get("contradiction")),
        "kind": claim.get("kind") or "evidence",
        "disputes_policy": bool(claim.get("disputes_policy")),
    }
    fix = _correction(slot, claim) if slot.cardinality == "single" else None
    begins = None
    if fix is None and start is not None and claim["valid_from"] < start:
        begins = start
        claim = {**claim, "valid_from": start}
    wrong = {row["id"]: row for row in fix.wrong if row["id"] not in retired} if fix else {}
    for row in wrong.values():
        change.retires.append(
            Retire(row["id"], "retracted", row["status"], row.get("valid_to"), why="retracted")
        )
    for old in slot.active if slot.cardinality == "single" else []:
        if old["id"] in retired:
            continue
        if _stale(claim, old, retracted=old["id"] in wrong):
            raise ConflictError(
                f"{field}: pending claim {claim['id']!r} (valid from "
                f"{claim['valid_from'].isoformat()}) is stale: claim {old['id']!r}, valid "
                f"from {old['valid_from'].isoformat()}, has become the belief since; reject "
                "it, or remember its value again"
            )
        if fix is None:
            change.retires.append(_superseded_by(old, claim))
    version = change.join_chain(slot, claim["id"], verdict)
    change.activations.append(
        Activate(
            claim["id"],
            bool(claim.get("contradiction")),
            version,
            valid_from=fix.valid_from if fix is not None else begins,
            kind=kind,
            previous=waited,
        )
    )


def correction_needs_past(state: State, namespace: str, claim_id: str) -> bool:
    """Whether making ``claim_id`` the belief (confirmed, kept in a conflict, promoted) needs its
    fact's older versions, which the read left out: a pending correction retracts the versions
    from its moment on, however old."""
    claim = state.claims.get((namespace, claim_id))
    if claim is None or claim["status"] != "pending" or not claim.get("correction"):
        return False
    slot = state.slot(claim["slot_id"]) if claim.get("slot_id") else None
    return slot is not None and slot.cardinality == "single" and slot.past_since is not None


def _correction(slot: SlotState, claim: dict[str, Any]) -> Correction | None:
    """What a pending correction retracts when it is confirmed (as remember would have)."""
    if not claim.get("correction"):
        return None
    known = slot.known
    head = max((r for r in known if r.get("version")), key=lambda r: r["version"], default=None)
    key = _value_of(claim)
    return correction(
        known,
        head,
        claim.get("correction_from"),
        claim["recorded_at"],
        lambda row: key is not None and _value_of(row) == key,
    )


def _value_of(row: dict[str, Any]) -> str | None:
    """A structured claim's value identity (``identity.value_key``), or None."""
    value = row.get("object") if row.get("object") is not None else row.get("object_key")
    return value_key(value) if value is not None else None


def _superseded_by(old: dict[str, Any], newcomer: dict[str, Any]) -> Retire:
    """``old`` stops being the belief because ``newcomer`` takes over: its open window closes
    where the newcomer's starts (a window already closed keeps its end)."""
    return Retire(
        old["id"],
        "superseded",
        "active",
        old.get("valid_to"),
        valid_to=newcomer["valid_from"] if old.get("valid_to") is None else None,
        why="superseded",
    )


def _stale(waiting: dict[str, Any], belief: dict[str, Any], *, retracted: bool = False) -> bool:
    """True when ``belief`` became the belief after ``waiting`` was held against another one,
    or starts no earlier than it: confirming ``waiting`` would silently override a newer
    decision, or leave ``belief`` an empty (or inverted) window. A belief the confirmation
    retracts (``retracted``: a correction back to before it began) keeps no window to empty. A
    belief a rollback restored is no newer decision: it is the one ``waiting`` was held
    against, back (a confirmation rolled back, then confirmed again)."""
    accepted = belief.get("accepted_at")
    return bool(
        (not retracted and belief["valid_from"] >= waiting["valid_from"])
        or (
            accepted is not None
            and accepted > waiting["recorded_at"]
            and not belief.get("restored_from")
        )
    )


def rectify(
    state: State,
    namespace: str,
    claim_id: str,
    *,
    object: str,
    text: str,
    actor: str,
    new_id: str,
    embedding: list[float] | None,
    rid: str,
    now: datetime,
) -> ChangeSet:
    """A human correction: the active claim is retracted (it was never true) and the corrected
    value, ``human_verified``, takes its place over the same validity."""
    claim = _claim(state, namespace, claim_id, "active")
    slot = _slot(state, claim, rid)
    draft = ClaimDraft(
        namespace=namespace,
        subject=claim.get("subject"),
        predicate=claim.get("predicate"),
        object=object,
        text=text,
        source_type="human_verified",
        confidence=1.0,
        author=actor,
        origin="rectification",
        kind=claim.get("kind", "evidence"),
        valid_from=claim["valid_from"],
        valid_to=claim.get("valid_to"),
    )
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="rectify",
        decision="rectify",
        reason="rectified by a human (GDPR Art. 16)",
        at=now,
        actor=actor,
        verdict="CONFLICT",
        slot_id=slot.slot_id,
        slot_ids=[slot.slot_id],
    )
    change.retires.append(
        Retire(claim_id, "retracted", "active", claim.get("valid_to"), why="rectified")
    )
    version = change.join_chain(slot, new_id, "CONFLICT")
    props = claim_properties(
        draft,
        new_id,
        slot.key,
        claim.get("subject"),
        status="active",
        version=1 if version is None else version,
        contradiction=True,
        disputed=False,
        valid_from=claim["valid_from"],
        recorded_at=now,
        embedding=embedding,
    )
    change.creates.append(NewClaim(slot.slot_id, props))
    return change


def rollback(
    state: State,
    namespace: str,
    target: dict[str, Any],
    *,
    revision_id: str,
    rid: str,
    actor: str | None,
    now: datetime,
    new_id: Callable[[], str],
) -> ChangeSet:
    """Reverse revision ``target`` (its op, slot ids and changes, each edge with what it
    recorded): the state before it comes back, and this revision records what it undid in turn,
    so that its own rollback brings the target's state back. Edge by edge:

    - a claim it created is retracted (its dependents flagged, as a contract's are);
    - a claim it made the belief (confirm, resolve, promote) waits again as it did, and a copy
      keeps what it was meanwhile (``Deactivate``); one a rollback made wait again is the belief
      again;
    - a claim it retired comes back: one that was never a belief to its old status, a belief as
      a new version (history is never rewritten); one a rollback reopened goes back;
    - a reinforcement is taken back (or, a rollback's, given again) with the confidence,
      evidence and time it had;
    - review flags it raised are cleared, and those it cleared raised again with their reason;
      a demotion undone, or done again; a dismissed conflict open again, or dismissed again.

    Refused when the revision was an erase, a rollback of a consolidation (consolidate again),
    or when a later revision touched the same fact."""
    if target["op"] == "erase":
        raise ConflictError("revision_id: an erase cannot be rolled back (the content is gone)")
    if target["op"] == "rollback" and target.get("undone_op") == "consolidate":
        raise ConflictError(
            "revision_id: the rollback of a consolidation is not rolled back; run consolidate again"
        )
    slot_ids: list[str] = target["slot_ids"] or []
    slots = [s for s in (state.slot(i) for i in slot_ids) if s is not None]
    for slot in slots:
        if slot.last_revision != revision_id:
            raise ConflictError(
                f"revision_id: revision {slot.last_revision!r} changed the same fact after "
                f"{revision_id!r}; roll that back first"
            )
        slot.touched_by = rid
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="rollback",
        decision="rollback",
        reason=f"reverses revision {revision_id}",
        at=now,
        actor=actor,
        slot_id=slot_ids[0] if slot_ids else None,
        slot_ids=slot_ids,
        undoes=revision_id,
    )
    changes: Sequence[dict[str, Any]] = target["changes"]

    def claim_of(claim_id: str) -> dict[str, Any] | None:
        return state.claims.get((namespace, claim_id))

    created = [i for i in changes if i["kind"] == "ADDED" and i.get("previous_status") is None]
    # A rollback's claims are copies it restored: retracting them redoes what the first
    # operation did, whose review flags come back from the rollback's own records instead.
    why: Literal["retracted"] | None = "retracted" if target["op"] != "rollback" else None
    retracted = set()
    for item in created:
        claim = claim_of(item["id"])
        if claim is not None and claim["status"] in ("active", "pending", "rejected"):
            change.retires.append(Retire(item["id"], "retracted", claim["status"], None, why=why))
            change.settles.append(Settle(item["id"], "rolled back"))
            retracted.add(item["id"])
    for item in changes:
        kind, claim_id = item["kind"], item["id"]
        claim = claim_of(claim_id)
        if claim is None:
            continue
        if kind == "ADDED" and item.get("previous_status") is not None:
            _wait_again(change, state, claim, item, new_id)
        elif kind == "REINFORCED":
            change.reinforcements.append(_take_back(claim, item, revision_id))
        elif kind == "FLAGGED":
            _unflag(change, state, claim, item, revision_id)
    _unretire(change, state, namespace, changes, revision_id, retracted, new_id)
    return change


def _wait_again(
    change: ChangeSet,
    state: State,
    claim: dict[str, Any],
    item: dict[str, Any],
    new_id: Callable[[], str],
) -> None:
    """A claim the rolled-back revision made the belief waits again as it did before, a copy
    keeping what it was meanwhile (its place in the chain with it)."""
    if claim["status"] not in ("active", "superseded"):
        return
    slot = state.slot(claim["slot_id"]) if claim.get("slot_id") else None
    record = new_id()
    if slot is not None and slot.head == claim["id"]:
        slot.head = record
    change.deactivations.append(
        Deactivate(
            claim["id"],
            record,
            kind=claim.get("kind") or "evidence",
            valid_from=claim["valid_from"],
            previous={
                "valid_from": _moment(item.get("previous_valid_from")) or claim["valid_from"],
                "contradiction": bool(item.get("previous_contradiction")),
                "kind": item.get("previous_kind") or "evidence",
                "disputes_policy": bool(item.get("previous_disputes_policy")),
            },
        )
    )
    if slot is not None:
        slot.claims = [c for c in slot.claims if c["id"] != claim["id"]]
        slot.claims.append({**claim, "status": "pending", "version": None})


def _take_back(claim: dict[str, Any], item: dict[str, Any], revision_id: str) -> Reinforce:
    """The reverse of a reinforcement (or of a reinforcement's rollback): the mention taken
    back (or given back), confidence, time, evidence and source type as they were; what they
    are now recorded, for this one's own rollback."""
    delta = -int(item.get("delta") or 1)
    evidence = ("evidence_episodes", "evidence_types", "evidence_sources")
    return Reinforce(
        claim["id"],
        delta,
        # Taken back: confidence and time set back; given back: raised to what they were.
        confidence=item.get("previous_confidence") if delta > 0 else None,
        at=_moment(item.get("previous_at")) if delta > 0 else None,
        previous_confidence=item.get("previous_confidence"),
        previous_at=_moment(item.get("previous_at")),
        undoes=revision_id if delta < 0 else None,
        evidence={k: item.get(f"previous_{k}") for k in evidence},
        source_type=item.get("previous_source_type"),
        record={
            "previous_confidence": claim.get("confidence"),
            "previous_at": _iso_or_none(claim.get("reinforced_at")),
            **{f"previous_{k}": claim.get(k) for k in evidence},
            "previous_source_type": claim.get("source_type"),
        },
    )


def _unflag(
    change: ChangeSet,
    state: State,
    claim: dict[str, Any],
    item: dict[str, Any],
    revision_id: str,
) -> None:
    """The reverse of a flag the rolled-back revision set, or of one it took away."""
    flag, claim_id = item.get("flag"), claim["id"]
    if flag == "needs_review":
        if claim.get("needs_review") and claim.get("review_revision") == revision_id:
            change.clear_review_of.append(claim_id)
            change.cleared_revision = revision_id
            change.records.append(
                {
                    "id": claim_id,
                    "flag": "review_cleared",
                    "previous_reason": claim.get("review_reason"),
                    "previous_revision": revision_id,
                }
            )
    elif flag == "review_cleared":
        if not claim.get("needs_review") and claim["status"] in ("active", "pending"):
            change.raises.append((claim_id, item.get("previous_reason") or "flagged again"))
    elif flag == "demoted":
        if claim.get("demoted"):
            change.demotions.append(Demotion(claim_id, "", undo=True))
            change.records.append(
                {
                    "id": claim_id,
                    "flag": "demotion_undone",
                    "previous_reason": claim.get("review_reason"),
                }
            )
    elif flag == "demotion_undone":
        if not claim.get("demoted") and claim["status"] == "active":
            change.demotions.append(Demotion(claim_id, item.get("previous_reason") or ""))
            change.flags.append((claim_id, "demoted"))
    elif flag == "dismissed" and item.get("rival"):
        change.unsettles.append(Unsettle(claim_id, item["rival"], revision_id))
        change.unsettles.append(Unsettle(item["rival"], claim_id, revision_id))
        change.records.append({"id": claim_id, "flag": "undismissed", "rival": item["rival"]})
        live = [c for c in (claim, state.claims.get((claim["namespace"], item["rival"])))
                if c is not None and c["status"] in ("active", "pending")]  # fmt: skip
        change.disputes += [(c["id"], True) for c in live]
    elif flag == "undismissed" and item.get("rival"):
        change.settles.append(Settle(claim_id, "dismissed", rival=item["rival"]))
        change.records.append({"id": claim_id, "flag": "dismissed", "rival": item["rival"]})


def _unretire(
    change: ChangeSet,
    state: State,
    namespace: str,
    changes: Sequence[dict[str, Any]],
    revision_id: str,
    retracted: set[str],
    new_id: Callable[[], str],
) -> None:
    """The claims the rolled-back revision retired (or reopened, or made wait again) come back
    as they were."""
    reopened = [i for i in changes if i["kind"] == "RESTORED" and i.get("restored_from") == i["id"]]
    for item in reopened:
        claim = state.claims.get((namespace, item["id"]))
        previous = item.get("previous_status")
        if claim is None:
            continue
        if previous == "active" and claim["status"] == "pending":
            # A rollback made it wait again: it is the belief again, as its confirmation (or
            # promotion, with the kind it gave) made it.
            home = state.slot(claim["slot_id"])
            assert home is not None
            kind = item.get("previous_kind")
            _believe(
                change,
                home,
                claim,
                "ROLLBACK",
                field="revision_id",
                retired=retracted,
                kind=kind if kind != claim.get("kind") else None,
                start=_moment(item.get("previous_valid_from")),
            )
            change.settles.append(Settle(claim["id"], "confirmed again"))
        elif (
            previous in ("rejected", "retracted")
            and claim["status"] in ("pending", "rejected")
            and claim["status"] != previous
        ):
            status: Literal["rejected", "retracted"] = (
                "rejected" if previous == "rejected" else "retracted"
            )
            change.retires.append(Retire(claim["id"], status, claim["status"], None))
            change.settles.append(Settle(claim["id"], status))
    retired = [i for i in changes if i["kind"] == "RETIRED"]
    # Earlier versions first, so the one that was the belief comes back as the chain's head.
    retired.sort(key=lambda i: i.get("previous_status") == "active")
    for item in retired:
        claim_id, previous = item["id"], item.get("previous_status")
        claim = state.claims.get((namespace, claim_id))
        if previous in ("pending", "rejected"):
            # Never a belief, so no history to keep: it goes back to waiting (or rejected).
            if claim is not None and claim["status"] != previous:
                change.reopens.append(Reopen(claim_id, previous, previous=claim["status"]))
        elif claim is not None and claim["status"] in ("superseded", "retracted", "rejected"):
            home = state.slot(claim["slot_id"])
            assert home is not None
            copy = new_id()
            version = change.join_chain(home, copy, "ROLLBACK")
            change.restores.append(
                Restore(
                    claim_id,
                    copy,
                    _moment(item.get("previous_valid_to")),
                    1 if version is None else version,
                    status="superseded" if previous == "superseded" else "active",
                    undoes=revision_id,
                )
            )


def _iso_or_none(value: datetime | str | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value


def _moment(value: datetime | str | None) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def resolve(
    state: State,
    namespace: str,
    claim_id: str,
    rival_id: str,
    *,
    keep: str,
    reason: str,
    open_conflict: bool,
    rid: str,
    actor: str | None,
    now: datetime,
) -> ChangeSet:
    """A human settles an open conflict for one side (``keep``): the other side was wrong (an
    active one is retracted, a pending one rejected); a pending side kept becomes the belief."""
    sides = {
        claim_id: _claim(state, namespace, claim_id, "active", "superseded", "pending"),
        rival_id: _claim(
            state, namespace, rival_id, "active", "superseded", "pending", field="rival_id"
        ),
    }
    if keep not in sides:
        raise ValueError("keep: must be claim_id or rival_id")
    if not open_conflict:
        raise ConflictError(f"rival_id: no open conflict between {claim_id!r} and {rival_id!r}")
    winner = sides[keep]
    loser = sides[rival_id if keep == claim_id else claim_id]
    slots = {s.slot_id: s for s in (_slot(state, c, rid) for c in (winner, loser))}
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="resolve",
        decision="resolve",
        reason=f"kept {keep}: {reason}" if reason else f"kept {keep}",
        at=now,
        actor=actor or "human",
        slot_id=winner["slot_id"],
        slot_ids=sorted(slots),
    )
    change.settles.append(Settle(claim_id, f"resolved: kept {keep}", rival=rival_id))
    if loser["status"] == "pending":
        change.retires.append(Retire(loser["id"], "rejected", "pending", loser.get("valid_to")))
    else:
        change.retires.append(
            Retire(
                loser["id"], "retracted", loser["status"], loser.get("valid_to"), why="retracted"
            )
        )
    home = slots[winner["slot_id"]]
    if winner.get("disputes_policy") and any(r.get("kind") == "policy" for r in home.active):
        raise ConflictError(
            f"keep: claim {keep!r} is evidence disputing a policy; only promote changes a policy"
        )
    if winner["status"] == "pending":
        _believe(change, home, winner, "CONFLICT", field="keep", retired={loser["id"]})
    return change


def dismiss(
    state: State,
    namespace: str,
    claim_id: str,
    rival_id: str,
    *,
    reason: str,
    open_conflict: bool,
    rid: str,
    actor: str | None,
    now: datetime,
) -> ChangeSet:
    """A human dismisses a conflict as not one (the two claims are compatible): both stay."""
    claim = _claim(state, namespace, claim_id, "active", "superseded", "pending", "retracted")
    rival = _claim(
        state, namespace, rival_id, "active", "superseded", "pending", "retracted", field="rival_id"
    )
    if not open_conflict:
        raise ConflictError(f"rival_id: no open conflict between {claim_id!r} and {rival_id!r}")
    slots = sorted({_slot(state, c, rid).slot_id for c in (claim, rival)})
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="dismiss",
        decision="dismiss",
        reason=reason or "not a contradiction",
        at=now,
        actor=actor or "human",
        slot_id=claim["slot_id"],
        slot_ids=slots,
    )
    change.settles.append(
        Settle(claim_id, f"dismissed: {reason}" if reason else "dismissed", rival=rival_id)
    )
    change.records.append({"id": claim_id, "flag": "dismissed", "rival": rival_id})
    return change


def reviewed(
    state: State,
    namespace: str,
    claim_id: str,
    *,
    premise: str | None,
    reason: str,
    rid: str,
    actor: str | None,
    now: datetime,
) -> ChangeSet:
    """A human (or agent) has reviewed a flagged claim: the flag is lifted and, given
    ``premise``, the claim now depends on it instead of its retired premises."""
    claim = _claim(state, namespace, claim_id, "active", "pending")
    if not claim.get("needs_review"):
        raise ConflictError(f"claim_id: claim {claim_id!r} is not flagged for review")
    if premise is not None:
        _claim(state, namespace, premise, "active", "superseded", field="premise")
    slot = _slot(state, claim, rid)
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="review",
        decision="reviewed",
        reason=reason or "reviewed",
        at=now,
        actor=actor,
        slot_id=slot.slot_id,
        slot_ids=[slot.slot_id],
    )
    change.clear_review_of.append(claim_id)
    change.records.append(
        {
            "id": claim_id,
            "flag": "review_cleared",
            "previous_reason": claim.get("review_reason"),
            "previous_revision": claim.get("review_revision"),
        }
    )
    if premise is not None:
        change.repoints.append(Repoint(claim_id, None, premise))
    return change


PromotionBasis = Literal["human", "record", "outcome"]

# Properties a promoted copy does not inherit from the evidence claim it copies.
_NOT_INHERITED = (
    "superseded_at",
    "retracted_at",
    "reinforced_at",
    "review_reason",
    "review_revision",
    "correction",
    "correction_from",
    "restored_from",
    "demoted_at",
    "refused_reason",
)


def promote(
    state: State,
    namespace: str,
    claim_id: str,
    *,
    by: PromotionBasis,
    origin: str | None,
    reason: str,
    promote_after: int,
    rid: str,
    actor: str | None,
    now: datetime,
    new_id: str,
) -> ChangeSet:
    """Evidence becomes policy, explicitly and on the record: a human's decision (``human``,
    naming the human as ``actor``), a merged ADR or pull request (``record``, named as
    ``origin``), or an outcome repeated across ``promote_after`` independent episodes
    (``outcome``). A pending claim (one disputing a policy) becomes the belief from now,
    superseding the policy it disputed, which held until now; an active evidence claim
    continues as a new version, ``kind=policy``, from now. A demoted policy promoted again is
    reinstated."""
    claim = _claim(state, namespace, claim_id, "active", "pending")
    if by == "human" and not actor:
        raise ValueError("actor: a promotion by a human names the human")
    if by == "record" and not origin:
        raise ValueError("origin: name the merged ADR or pull request the promotion rests on")
    support = len(evidence_of(claim).episodes)
    if by == "outcome" and support < promote_after:
        raise ConflictError(
            f"claim_id: claim {claim_id!r} has {support} independent episode(s); an outcome "
            f"is promoted after {promote_after} (promote_after_episodes)"
        )
    # Ids, counts and the caller's reason only: the actor is on the Revision, the origin on the
    # claim, where erase can reach it (revision reasons outlive an erase).
    basis = {
        "human": "a human decision",
        "record": "a merged record (the policy's origin)",
        "outcome": f"an outcome repeated across {support} independent episodes",
    }[by]
    slot = _slot(state, claim, rid)
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="promote",
        decision="promote",
        reason=f"promoted to policy on {basis}" + (f": {reason}" if reason else ""),
        at=now,
        actor=actor,
        verdict="UPDATE",
        slot_id=slot.slot_id,
        slot_ids=[slot.slot_id],
    )
    if claim.get("kind") == "policy":
        if not claim.get("demoted"):
            raise ConflictError(f"claim_id: claim {claim_id!r} is already a policy in force")
        change.decision = "reinstate"
        change.reason = f"policy reinstated on {basis}" + (f": {reason}" if reason else "")
        change.demotions.append(Demotion(claim_id, "", undo=True))
        change.records.append(
            {
                "id": claim_id,
                "flag": "demotion_undone",
                "previous_reason": claim.get("review_reason"),
            }
        )
        return change
    if claim["status"] == "pending":
        _believe(change, slot, claim, "PROMOTE", field="claim_id", kind="policy", start=now)
        change.settles.append(Settle(claim_id, "promoted"))
        return change
    row = slot.find(claim_id)
    assert row is not None, "an active claim is in its slot's state"
    if claim["valid_from"] > now or (claim.get("valid_to") and claim["valid_to"] <= now):
        raise ConflictError(
            f"claim_id: claim {claim_id!r} does not hold now; promote a claim that is believed"
        )
    version = change.join_chain(slot, new_id, "PROMOTE")
    props = {k: v for k, v in row.items() if k not in _NOT_INHERITED and v is not None}
    props.update(
        id=new_id,
        kind="policy",
        status="active",
        version=1 if version is None else version,
        valid_from=now,
        recorded_at=now,
        accepted_at=now,
        promoted_from=claim_id,
        origin=origin or row.get("origin"),
        contradiction=False,
        disputed=False,
        disputes_policy=False,
        needs_review=False,
    )
    change.creates.append(NewClaim(slot.slot_id, props))
    # An end the claim already has stays (an end is never moved): the copy inherits it.
    end = now if claim.get("valid_to") is None else None
    change.retires.append(
        Retire(claim_id, "superseded", "active", claim.get("valid_to"), valid_to=end)
    )
    change.settles.append(Settle(claim_id, "promoted"))
    return change


def demote(
    state: State,
    namespace: str,
    claim_id: str,
    *,
    reason: str,
    rid: str,
    actor: str | None,
    now: datetime,
) -> ChangeSet:
    """A policy is demoted to disputed: it stays the belief (never deleted or replaced) and is
    flagged for a human, who promotes the evidence against it or reinstates it."""
    claim = _claim(state, namespace, claim_id, "active")
    if claim.get("kind") != "policy":
        raise ConflictError(f"claim_id: claim {claim_id!r} is evidence, not a policy")
    if claim.get("demoted"):
        raise ConflictError(f"claim_id: policy {claim_id!r} is already demoted")
    slot = _slot(state, claim, rid)
    why = reason or "demoted by hand"
    change = ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="demote",
        decision="demote",
        reason=why,
        at=now,
        actor=actor,
        slot_id=slot.slot_id,
        slot_ids=[slot.slot_id],
    )
    change.demotions.append(Demotion(claim_id, f"policy demoted to disputed: {why}"))
    change.flags.append((claim_id, "demoted"))
    return change
