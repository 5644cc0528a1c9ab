"""Reads of facts: what one fact holds at a moment (``current``, ``as_of``), its history, and
every current belief about a subject or of a predicate.

A read names a fact by phrase; the phrase may mean more than one fact (``readings``), and the
first that holds anything answers. A fact of up to ``ReadTuning.walk_up_to`` claims is walked,
a longer one read by index (``ReadTuning``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..models import Cardinality, Claim, CurrentBelief
from ..store import Row
from ..vocabulary import Vocabulary, normalize_key
from ..write.remember import slot_key
from ..write.state import moments
from .context import ReadContext


@dataclass(frozen=True)
class Slot:
    """One fact a read names: its key and cardinality."""

    namespace: str
    subject: str
    subject_key: str
    predicate: str
    cardinality: Cardinality


def claim_of(row: Row) -> Claim:
    """A claim read back with its moments as ISO-8601 text (the claim reads return them so)."""
    return Claim.model_validate(moments(row))


def slot(vocabulary: Vocabulary, namespace: str, subject: str, predicate: str) -> Slot:
    """The fact a (subject, predicate) phrase means first."""
    key, cardinality = slot_key(vocabulary, namespace, subject, predicate)
    return Slot(
        namespace=namespace,
        subject=subject,
        subject_key=key[1],
        predicate=key[2],
        cardinality=cardinality,
    )


def readings(vocabulary: Vocabulary, namespace: str, subject: str, predicate: str) -> list[Slot]:
    """The facts a read by this phrase may mean, likeliest first: one, unless the phrase
    means another predicate for some objects ("uses Redis for caching": ``uses_cache``),
    which a read without an object cannot tell (``Vocabulary.readings``)."""
    first = slot(vocabulary, namespace, subject, predicate)
    others = vocabulary.readings(predicate, subject)[1:]
    return [first] + [
        Slot(
            namespace=namespace,
            subject=subject,
            subject_key=first.subject_key,
            predicate=name,
            cardinality=vocabulary.cardinality(name) if name in vocabulary.predicates else "multi",
        )
        for name in others
        if name != first.predicate
    ]


def holding(
    reads: ReadContext,
    namespace: str,
    subject: str,
    predicate: str,
    valid_at: datetime | None,
    known_at: datetime | None,
) -> Claim | list[Claim] | None:
    """``as_of`` of the first fact the phrase may mean that holds anything then."""
    valid, known = reads.moments(valid_at, known_at)
    slots = readings(reads.vocabulary, namespace, subject, predicate)
    for fact in slots:
        rows = reads.store.on(namespace).read(
            "read/as_of_claims",
            namespace=namespace,
            subject_key=fact.subject_key,
            predicate=fact.predicate,
            valid_at=valid.isoformat(),
            known_at=known.isoformat(),
            walk_up_to=reads.tuning.walk_up_to,
        )
        if rows:
            return _shape(fact, rows)
    return _shape(slots[0], [])


def _shape(fact: Slot, rows: list[Row]) -> Claim | list[Claim] | None:
    claims = [claim_of(r["claim"]) for r in rows]
    if fact.cardinality == "multi":
        return claims
    return claims[0] if claims else None


def history(reads: ReadContext, namespace: str, subject: str, predicate: str) -> list[Claim]:
    """Every claim ever made about the first fact the phrase may mean that has any."""
    for fact in readings(reads.vocabulary, namespace, subject, predicate):
        rows = reads.store.on(namespace).read(
            "read/slot_history",
            namespace=namespace,
            subject_key=fact.subject_key,
            predicate=fact.predicate,
        )
        if rows:
            return [claim_of(r["claim"]) for r in rows]
    return []


def beliefs(reads: ReadContext, namespace: str, subject: str) -> list[Claim]:
    """Every current belief about ``subject``."""
    rows = reads.store.on(namespace).read(
        "read/beliefs_subject",
        namespace=namespace,
        subject_key=normalize_key(subject),
        now=reads.clock().isoformat(),
        walk_up_to=reads.tuning.walk_up_to,
    )
    return [claim_of(r["claim"]) for r in rows]


def current_beliefs(reads: ReadContext, namespace: str, predicate: str) -> list[CurrentBelief]:
    """Every current belief of ``predicate`` in ``namespace``, by subject, each with when its
    fact was first recorded."""
    rows = reads.store.on(namespace).read(
        "read/store_items",
        namespace=namespace,
        predicate=reads.vocabulary.canonical(predicate),
        now=reads.clock(),
    )
    return [
        CurrentBelief(claim=Claim.model_validate(r["claim"]), since=r["created_at"]) for r in rows
    ]
