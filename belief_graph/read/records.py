"""Reads of the record: one claim, its lineage, and what a namespace or the whole store holds
(subjects, namespaces)."""

from __future__ import annotations

from ..errors import NotFound
from ..models import Claim, EpisodeRecord, Lineage, NamespaceInfo, RevisionRecord
from ..store import Store
from .context import ReadContext
from .facts import claim_of


def get(store: Store, namespace: str, claim_id: str) -> Claim:
    """One claim by id (``NotFound`` if it is not in the namespace)."""
    rows = store.read("read/claim_get", namespace=namespace, id=claim_id)
    if not rows:
        raise NotFound(f"claim_id: no claim {claim_id!r} in namespace {namespace!r}")
    return claim_of(rows[0]["claim"])


def lineage(store: Store, namespace: str, claim_id: str) -> Lineage:
    """The claim's version chain, SUPERSEDES verdicts, provenance, revisions, dependents."""
    rows = store.read("read/claim_lineage", namespace=namespace, id=claim_id)
    if not rows:
        raise NotFound(f"claim_id: no claim {claim_id!r} in namespace {namespace!r}")
    row = rows[0]
    return Lineage(
        claim=Claim.model_validate(row["claim"]),
        chain=[Claim.model_validate(c) for c in row["chain"]],
        supersedes=row["supersedes"],
        episodes=[EpisodeRecord.model_validate(e) for e in row["episodes"]],
        revisions=[RevisionRecord.model_validate(r) for r in row["revisions"]],
        dependents=[Claim.model_validate(c) for c in row["dependents"]],
        premises=[Claim.model_validate(c) for c in row["premises"]],
    )


def subjects(store: Store, namespace: str, limit: int) -> list[str]:
    """The subjects the namespace holds claims about, the most talked-about first."""
    rows = store.read("read/subjects_list", namespace=namespace, limit=limit)
    return [r["subject"] for r in rows]


def namespaces(store: Store) -> list[NamespaceInfo]:
    """Every namespace holding claims, in every database ``store`` uses, with its claim counts
    and the database it is mapped to now; sorted by namespace."""
    found = [
        NamespaceInfo(
            namespace=r["namespace"],
            database=database.database,
            claims=r["claims"],
            active=r["active"],
            mapped_to=store.database_of(r["namespace"]),
        )
        for database in store.every_database()
        for r in database.read("admin/namespaces")
    ]
    return sorted(found, key=lambda n: (n.namespace, n.database))


def namespaces_holding(reads: ReadContext, predicate: str, prefix: str) -> list[str]:
    """The namespaces under ``prefix`` (``''``: every one) holding a current belief of
    ``predicate``, sorted. Namespaces mapped to databases of their own are listed
    from each; a namespace counts only in the database it is mapped to (where it is read)."""
    canonical = reads.vocabulary.canonical(predicate)
    found: set[str] = set()
    for database in reads.store.every_database():
        rows = database.read(
            "read/store_namespaces", prefix=prefix, predicate=canonical, now=reads.clock()
        )
        found.update(
            r["namespace"]
            for r in rows
            if reads.store.database_of(r["namespace"]) == database.database
        )
    return sorted(found)
