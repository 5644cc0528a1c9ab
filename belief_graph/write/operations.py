"""The pure decision step of every operation on existing claims: (the operation, the state read
before its transaction) → a ``ChangeSet``. No I/O: each rule is a unit test away."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, Literal

from ..errors import ConflictError, NotFound
from ..evidence import evidence_of
from ..identity import value_key
from ..models import ClaimDraft, Verdict
from .changes import (
    Activate,
    ChangeSet,
    Demotion,
    NewClaim,
    Repoint,
    Retire,
    Settle,
    SlotState,
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
    believe(change, slot, claim, verdict, field="claim_id")
    change.settles.append(Settle(claim_id, "confirmed"))
    return change


def believe(
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
        believe(change, home, winner, "CONFLICT", field="keep", retired={loser["id"]})
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
        believe(change, slot, claim, "PROMOTE", field="claim_id", kind="policy", start=now)
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
