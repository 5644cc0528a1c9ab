"""Reads through a scope chain (docs/policy.md, "Scopes"): one fact's answer, and search.

A chain is namespaces nearest first; one statement reads each namespace's answer and
``scopes.resolve`` decides which of them stands (a policy outranks evidence, then the nearer
namespace answers first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from .. import cypher
from ..errors import ConfigError
from ..models import Claim, ScopedAnswer, ScopedClaim, ScopedHit, Support
from ..scopes import resolve, value_key
from ..store import Row, Store
from ..write.remember import slot_key
from .context import ReadContext
from .search import AS_OF_STATUSES, HISTORY_STATUSES, MAX_FETCH, asked_when, query_embedding, reach


def chain_store(store: Store, scope: Sequence[str]) -> Store:
    """The store a chain is read in: one statement reads the whole chain, so its namespaces
    must live in one database (``NEO4J_DATABASES`` maps them there together)."""
    databases = {store.database_of(ns) for ns in scope}
    if len(databases) > 1:
        raise ConfigError(
            f"scope: the chain {' > '.join(scope)} spans the databases "
            f"{', '.join(sorted(databases))}; a scope chain is read in one database, so map "
            "its namespaces to the same one"
        )
    return store.on(scope[0])


def scoped_answer(
    reads: ReadContext,
    scope: Sequence[str],
    subject: str,
    predicate: str,
    valid_at: datetime | None,
    known_at: datetime | None,
) -> ScopedAnswer:
    """``BeliefGraph.scoped_as_of``: one fact's answer through ``scope`` then."""
    valid, known = reads.moments(valid_at, known_at)
    key, cardinality = slot_key(reads.vocabulary, scope[0], subject, predicate)
    rows = _scope_facts(reads, scope, [(key[1], key[2])], valid, known)
    if rows:  # the slots' own cardinality, as each namespace's answer was read with it
        cardinality = rows[0]["cardinality"]
    resolved = resolve([_held(scope, r) for r in rows], cardinality)
    answer = {b.claim.id for b in resolved.beliefs}
    rivals = {r.id: r for row in rows if row["claim"]["id"] in answer for r in _row_rivals(row)}
    return ScopedAnswer(
        scope=list(scope),
        cardinality=cardinality,
        beliefs=resolved.beliefs,
        rivals=list(rivals.values()),
        disputes=resolved.disputes,
        shadowed=resolved.shadowed,
    )


def scoped_nearest(
    reads: ReadContext,
    query: str,
    scope: Sequence[str],
    k: int,
    history: bool,
    valid_at: datetime | None,
    known_at: datetime | None,
) -> list[ScopedHit]:
    """``BeliefGraph.scoped_search``: ``search.nearest`` through ``scope``."""
    embedding = query_embedding(reads.detector, query)
    now = reads.clock()
    mode, valid, known = asked_when(now, history, valid_at, known_at)
    fetch = reads.widening.start((tuple(scope), mode), max(20, k * 3), 4, MAX_FETCH)
    limit = k
    store = chain_store(reads.store, scope)
    statement = cypher.variant("read/scope_search", store.filters_in_vector_index())
    vector = store.query_vector(embedding)
    while True:
        found = store.read(
            statement,
            namespaces=list(scope),
            statuses=HISTORY_STATUSES if mode == "history" else AS_OF_STATUSES,
            embedding=vector,
            fetch=fetch,
            k=limit,
            mode=mode,
            now=now,
            valid_at=valid,
            known_at=known,
            walk_up_to=reads.tuning.walk_up_to,
        )[0]
        hits = _scoped_hits(scope, found["hits"], found["answers"], history)
        # As search: widen until k hits survive, or the index has no more (where it cannot
        # filter, it spans every namespace). Here one fact's hits from several namespaces
        # also merge into one, so candidates the limit cut off are taken too before the
        # index is asked for more.
        cut = len(found["hits"]) >= limit and limit < MAX_FETCH
        more = found["fetched"] >= fetch and fetch < MAX_FETCH
        if len(hits) >= k or not (cut or more):
            reads.widening.learned((tuple(scope), mode), reach(found, limit))
            return hits[:k]
        if cut:
            limit = min(limit + k, MAX_FETCH)
        else:
            fetch = min(fetch * 4, MAX_FETCH)


def _scope_facts(
    reads: ReadContext,
    scope: Sequence[str],
    facts: Iterable[tuple[str, str]],
    valid: datetime,
    known: datetime,
) -> list[Row]:
    answers: list[Row] = chain_store(reads.store, scope).read(
        "read/scope_facts",
        namespaces=list(scope),
        facts=[{"subject_key": s, "predicate": p} for s, p in sorted(set(facts))],
        valid_at=valid,
        known_at=known,
        embedding=None,
        walk_up_to=reads.tuning.walk_up_to,
    )[0]["answers"]
    return answers


def _held(scope: Sequence[str], row: Row) -> ScopedClaim:
    claim = Claim.model_validate(row["claim"])
    return ScopedClaim(
        claim=claim,
        scope=scope[row["layer"]],
        layer=row["layer"],
        support=Support(frequency=claim.frequency, episodes=row["episodes"]),
    )


def _row_rivals(row: Row) -> list[Claim]:
    return list({r["id"]: Claim.model_validate(r) for r in row["rivals"]}.values())


def _scoped_hits(
    scope: Sequence[str], rows: list[Row], facts: list[Row], history: bool
) -> list[ScopedHit]:
    """The hits ``rows`` of a search through ``scope``, each fact resolved through the chain
    from ``facts`` (each namespace's answer for it, read/scope_facts')."""

    def hit(
        held: ScopedClaim, score: float, rivals: list[Claim], disputes: list[ScopedClaim]
    ) -> ScopedHit:
        return ScopedHit(
            claim=held.claim,
            score=score,
            kind=held.claim.kind,
            scope=held.scope,
            layer=held.layer,
            support=held.support,
            rivals=rivals,
            disputes=disputes,
        )

    if history:
        return [hit(_held(scope, r), r["score"], _row_rivals(r), []) for r in rows]
    # What each fact's hits said and how near they came; the fact is then resolved through
    # the whole chain, so a nearer namespace or a policy that the index did not rank answers.
    found: dict[tuple[str, str], dict[str, float]] = {}
    ranked = {r["claim"]["id"]: r["score"] for r in rows}
    for r in rows:
        values = found.setdefault((r["subject_key"], r["predicate"]), {})
        said = value_key(_held(scope, r))
        values[said] = max(values.get(said, 0.0), r["score"])
    by_fact: dict[tuple[str, str], list[Row]] = {}
    for r in facts:
        by_fact.setdefault((r["subject_key"], r["predicate"]), []).append(r)
    hits = []
    for fact, fact_rows in by_fact.items():
        resolved = resolve([_held(scope, r) for r in fact_rows], fact_rows[0]["cardinality"])
        scores = {r["claim"]["id"]: r["score"] for r in fact_rows}
        rivals = {r["claim"]["id"]: _row_rivals(r) for r in fact_rows}
        for belief in resolved.beliefs:
            said = value_key(belief)
            if fact_rows[0]["cardinality"] == "multi" and said not in found[fact]:
                continue  # another value of the fact, not what the query found
            # The index's score where it ranked the claim (as search gives it), else the
            # exact similarity; a claim stored without an embedding ranks where its fact came.
            score = ranked.get(belief.claim.id, scores[belief.claim.id])
            if score is None:
                score = max(found[fact].values())
            hits.append(hit(belief, score, rivals.get(belief.claim.id, []), resolved.disputes))
    return sorted(hits, key=lambda h: h.score, reverse=True)
