"""Erasure (GDPR Art. 17): after erasing a subject, then a whole namespace, no erased string or
vector remains anywhere in the database; other namespaces are untouched; invariants hold."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.detect import Detector
from belief_graph.store import Store
from belief_graph.testing.graph import check_graph, q
from belief_graph.testing.graph import namespace_snapshot as snapshot
from belief_graph.testing.offline import offline_embedder

NS, OTHER = "user:erasable", "user:keeper"


def story(bg: BeliefGraph, ns: str, subject: str, tag: str) -> None:
    """Versions, a reinforcement, a conflict, a dependent, episodes: content in every corner."""
    facts = [
        ("city", f"Zarnow-{tag}"),
        ("city", f"Quillby-{tag}"),
        ("likes", f"oboe-{tag}"),
        ("city", f"Quillby-{tag}"),
        ("diagnosis", f"hypoxemia-{tag}"),
    ]
    first = None
    for i, (predicate, obj) in enumerate(facts):
        result = bg.remember(
            ClaimDraft(
                namespace=ns,
                subject=subject,
                predicate=predicate,
                object=obj,
                text=f"{subject} {predicate} is {obj} (secret-{tag}-{i}).",
                author=f"author-{tag}",
                origin=f"origin-{tag}-{i}",
                episode_id=f"ep-{tag}-{i}",
                episode_content=f"raw chat {tag} line {i}: {obj}",
                depends_on=(first,) if first and predicate == "diagnosis" else (),
            )
        )
        first = first or result.claim_id
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject=subject,
            predicate="city",
            object=f"Vexmoor-{tag}",
            text=f"{subject} moved to Vexmoor-{tag}.",
            source_type="inferred",
            confidence=0.2,
        )
    )


def content(store: Store, ns: str, subject_key: str | None) -> tuple[set[str], list[list[float]]]:
    rows = q(
        store,
        "MATCH (c:Claim {namespace: $ns}) WHERE $key IS NULL OR c.subject_key = $key "
        "OPTIONAL MATCH (c)-[:DERIVED_FROM]->(e:Episode) "
        "RETURN c.text AS text, c.object AS object, c.subject AS subject, "
        "c.origin AS origin, c.embedding AS embedding, collect(e.content) AS episodes",
        ns=ns,
        key=subject_key,
    )
    strings = {s for r in rows for s in (r["text"], r["object"], r["origin"], *r["episodes"]) if s}
    vectors = [r["embedding"] for r in rows if r["embedding"]]
    return strings, vectors


def dump(store: Store) -> tuple[list[str], list[list[float]]]:
    """Every string and every float list held by any node or relationship property."""
    rows = q(
        store,
        "CALL () { MATCH (n) RETURN properties(n) AS p "
        "UNION ALL MATCH ()-[r]->() RETURN properties(r) AS p } RETURN p",
    )
    strings: list[str] = []
    vectors: list[list[float]] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, list):
            if value and all(isinstance(v, float) for v in value):
                vectors.append(value)
            for v in value:
                walk(v)

    for row in rows:
        for value in row["p"].values():
            walk(value)
    return strings, vectors


def assert_gone(store: Store, strings: set[str], vectors: list[list[float]]) -> None:
    held, held_vectors = dump(store)
    for s in strings:
        assert not any(s in h for h in held), f"{s!r} survived erase"
    for v in vectors:
        for h in held_vectors:
            assert not (
                len(h) == len(v)
                and all(math.isclose(a, b, abs_tol=1e-6) for a, b in zip(h, v, strict=True))
            ), "an erased embedding survived"


@pytest.mark.slow
def test_erase_subject_then_namespace_leaves_nothing(
    store: Store, make_bg: Callable[..., BeliefGraph]
) -> None:
    bg = make_bg(detector=Detector(offline_embedder()))
    story(bg, NS, "Priya", "p")
    story(bg, NS, "Omar", "o")
    story(bg, OTHER, "Priya", "k")
    kept = snapshot(store, OTHER)
    claims_before = q(store, "MATCH (c:Claim) RETURN count(c) AS n")[0]["n"]

    strings, vectors = content(store, NS, "priya")
    assert strings and len(vectors) >= 5 and all(len(v) == 384 for v in vectors)
    bg.erase(NS, subject="Priya")
    assert_gone(store, strings, vectors)
    assert bg.current(NS, "Priya", "city") is None
    assert bg.current(NS, "Omar", "city") is not None  # the other subject is intact
    assert snapshot(store, OTHER) == kept

    strings, vectors = content(store, NS, None)
    assert strings and vectors
    bg.erase(NS)
    assert_gone(store, strings, vectors)
    assert all(c.status == "erased" and c.text is None for c in bg.history(NS, "Omar", "city"))
    assert snapshot(store, OTHER) == kept
    assert bg.current(OTHER, "Priya", "city") is not None
    # Tombstones, not deletions: ids, times, statuses and revisions remain.
    assert q(store, "MATCH (c:Claim) RETURN count(c) AS n")[0]["n"] == claims_before
    assert check_graph(store) == []
