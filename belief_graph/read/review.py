"""Reads of what waits for a human: recorded conflicts, pending claims, claims whose premise
was retired, and policies that evidence disputes."""

from __future__ import annotations

from collections.abc import Sequence

from ..evidence import union
from ..models import Claim, Conflict, Dispute
from ..store import Store


def conflicts(store: Store, namespace: str, open_only: bool) -> list[Conflict]:
    """Recorded contradictions, newest first (``open_only``: those still unresolved)."""
    rows = store.read("read/conflicts_list", namespace=namespace, open_only=open_only)
    return [
        Conflict(
            claim=Claim.model_validate(r["claim"]),
            rival=Claim.model_validate(r["rival"]),
            score=r["score"],
            revision_id=r["revision_id"],
            resolution=r["resolution"],
        )
        for r in rows
    ]


def pending(store: Store, namespace: str) -> list[Claim]:
    """Claims waiting for a human to confirm or reject them."""
    return [
        Claim.model_validate(r["claim"])
        for r in store.read("read/pending_list", namespace=namespace)
    ]


def needs_review(store: Store, namespace: str) -> list[Claim]:
    """Claims whose premise was retired, with ``review_reason``."""
    return [
        Claim.model_validate(r["claim"])
        for r in store.read("read/review_list", namespace=namespace)
    ]


def rivals(claims: Sequence[Claim], conflicts: list[Conflict], pending: list[Claim]) -> list[Claim]:
    """The claims standing against ``claims``: the other side of each of the open
    conflicts, and the ``pending`` claims of the same facts."""
    ids = {c.id for c in claims}
    slots = {c.slot_id for c in claims if c.slot_id is not None}
    found: dict[str, Claim] = {}
    for k in conflicts:
        for mine, other in ((k.claim, k.rival), (k.rival, k.claim)):
            if mine.id in ids:
                found[other.id] = other
    for p in pending:
        if p.id not in ids and p.slot_id in slots:
            found[p.id] = p
    return list(found.values())


def disputes(store: Store, namespace: str) -> list[Dispute]:
    """Policies that evidence disputes, or that were demoted, each with the evidence held
    against it and how independent that evidence is (episodes, sources)."""
    found = []
    for row in store.read("read/disputes_list", namespace=namespace):
        evidence = [Claim.model_validate(c) for c in row["evidence"]]
        together = union(c.model_dump() for c in evidence)
        found.append(
            Dispute(
                policy=Claim.model_validate(row["policy"]),
                evidence=evidence,
                episodes=len(together.episodes),
                sources=len(together.sources),
            )
        )
    return found
