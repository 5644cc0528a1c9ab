"""What do a filtered vector search's LIMIT (recall) and a Vector query (time) buy?

What a filtered vector search's fetch buys (Neo4j 2026): recall by LIMIT, and the query
vector sent as a list of floats against a driver ``Vector``.

The same claims as ``filtered_search`` (sentence vectors over M namespaces). A query is a
stored claim's vector moved by noise: ``near`` (0.03: a paraphrase of a stored sentence) and
``far`` (0.3: near none of them). For k in 1, 3, 10 and each LIMIT, the recall of the top k of
``SEARCH ... WHERE`` (one namespace, the engine's statuses) against the exact top k of that
namespace. Then ``search()`` k=10 with the query vector as a list and as a ``Vector``, taking
turns query by query, round after round (the first round a warm-up).

    BELIEF_GRAPH_NEO4J_VERSION=2026.08.1 python -m bench vector_beam --claims 100000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from belief_graph.detect import Detector
from belief_graph.store import Store
from bench.common import connect, report, summary
from bench.data import Lookup, embeddings, fill, sentence

# The index read with the engine's filter, at a given LIMIT (a fixed statement for this
# measurement; the engine's own runs the time test and the rivals after it).
INDEX_READ = (
    "CYPHER 25 MATCH (node:Claim) SEARCH node IN (VECTOR INDEX claim_embedding FOR $embedding "
    "WHERE node.namespace = $namespace AND node.status IN ['active', 'superseded', 'retracted'] "
    "LIMIT $limit) SCORE AS score RETURN node.object AS object ORDER BY score DESC"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--namespaces", type=int, default=20)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "belief-graph-filtered-search.npy",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    texts = [sentence(i) for i in range(args.claims)]
    vectors = embeddings(args.claims, 0.02, args.cache)
    lookup = Lookup({t: v.tolist() for t, v in zip(texts, vectors, strict=True)})
    bg = connect(detector=Detector(lookup))
    if not bg.store.features().vector_filters:
        print("vector_beam: needs Neo4j 2026.01+ (SEARCH ... WHERE)", file=sys.stderr)
        return 1
    spaces = [f"bench:beam:{time.time_ns()}:{n}" for n in range(args.namespaces)]
    fill(bg, texts, spaces)
    owner = np.arange(args.claims) % args.namespaces
    rng = np.random.default_rng(7)
    picked = rng.choice(args.claims, args.queries, replace=False)

    def queries(noise: float) -> list[tuple[np.ndarray, int]]:
        out = []
        for i in picked:
            q = vectors[i] + rng.normal(0, noise, 384)
            out.append((q / np.linalg.norm(q), int(owner[i])))
        return out

    recall: dict[str, Any] = {}
    for label, noise in (("near", 0.03), ("far", 0.3)):
        asked = queries(noise)
        for k in (1, 3, 10):
            for limit in sorted({k, 2 * k, max(20, 3 * k)}):
                found = []
                for q, n in asked:
                    members = np.nonzero(owner == n)[0]
                    exact = {str(i) for i in members[np.argsort(-(vectors[members] @ q))[:k]]}
                    rows = bg.store.run_literal(
                        INDEX_READ, embedding=q.tolist(), namespace=spaces[n], limit=limit
                    )
                    found.append(len(exact & {r["object"] for r in rows[:k]}) / k)
                recall[f"{label} queries, k={k}, LIMIT {limit}"] = (
                    f"recall {statistics.mean(found):.4f} (worst query {min(found):.2f})"
                )
    report("recall by LIMIT (SEARCH ... WHERE, one namespace)", recall, args.json)

    # search() with the query vector packed both ways, in turns.
    asked = queries(0.03)
    for j, (q, _) in enumerate(asked):
        lookup.vectors[f"query {j}"] = q.tolist()
    as_vector = Store.query_vector

    def as_list(store: Store, embedding: Any) -> list[float]:
        return list(embedding)

    ways = {"list of floats": as_list, "Vector": as_vector}
    rounds: dict[str, list[dict[str, float]]] = {way: [] for way in ways}
    try:
        for r in range(args.rounds):
            samples: dict[str, list[float]] = {way: [] for way in ways}
            for j, (_, n) in enumerate(asked):
                for way, packed in ways.items():
                    Store.query_vector = packed  # type: ignore[method-assign]
                    start = time.perf_counter()
                    bg.search(f"query {j}", spaces[n], k=10)
                    samples[way].append((time.perf_counter() - start) * 1000)
            if r:  # the first round warms the index and the plans
                for way in ways:
                    rounds[way].append(summary(samples[way]))
    finally:
        Store.query_vector = as_vector  # type: ignore[method-assign]
    timing = {
        f"search() k=10, {way}": (
            f"p50 {statistics.median(s['p50_ms'] for s in rounds[way]):.2f} / "
            f"p95 {statistics.median(s['p95_ms'] for s in rounds[way]):.2f} ms "
            f"(medians of {len(rounds[way])} rounds of {args.queries})"
        )
        for way in ways
    }
    report("the query vector as a list or a Vector, in turns", timing, args.json)
    return 0
