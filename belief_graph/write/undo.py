"""The pure decision step of ``rollback``: (the revision to reverse, the state read before the
transaction) → the ``ChangeSet`` that undoes it, each change with what it replaced. No I/O."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from ..errors import ConflictError
from .changes import (
    ChangeSet,
    Deactivate,
    Demotion,
    Reinforce,
    Reopen,
    Restore,
    Retire,
    Settle,
    Unsettle,
)
from .operations import believe
from .state import State


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
            believe(
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
