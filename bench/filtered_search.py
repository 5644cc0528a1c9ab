"""How fast and how exact is a filtered vector search, on each path the server has?

On whichever Neo4j the run is configured for: p50/p95 and recall. N claims of memory-style
sentences spread over M namespaces that talk about the same people and things, so another
namespace always holds sentences near the query (each claim's vector is the offline
all-MiniLM-L6-v2 embedding of its sentence template, moved by a little noise: see
``bench.data.embeddings``). Each query searches one namespace (k=10, current beliefs); the query
embedding is looked up, not computed, so the figures are the database's. Recall is against the
exact top k of that namespace (every claim here is a current belief).

Measured per path the server offers: ``SEARCH ... WHERE`` filtering inside the index (Neo4j
2026.01+) and the ``queryNodes`` fetch-and-widen loop (every version), the loop two ways in
turns (every search from the foot of the widening ladder, and from where the last search in its
namespace found its hits: the engine's); on 2026, once per quantization of the index
(``--quantization``), each a rebuilt index. ``--chain N`` searches through a scope chain of N
namespaces instead (``scoped_search``: the query's namespace and the next ones), recall
against the chain's exact top k.

    BELIEF_GRAPH_NEO4J_VERSION=2026.08.1 python -m bench filtered_search --claims 50000
    BELIEF_GRAPH_NEO4J_VERSION=5.26.30 python -m bench filtered_search --claims 50000
    ... --vectors random   # no structure at all: the hardest case for quantization
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from belief_graph import BeliefGraph, cypher
from belief_graph.detect import Detector
from bench.common import connect, report, stopwatch, summary
from bench.data import Lookup, embeddings, fill, sentence

# Rebuilding claim_embedding with a chosen quantization (Neo4j 2026; fixed statements, one per
# setting, since index options take no parameters).
REBUILD = {
    "NONE": "CYPHER 25 CREATE VECTOR INDEX claim_embedding FOR (c:Claim) ON c.embedding "
    "WITH [c.namespace, c.status] OPTIONS {indexConfig: {`vector.dimensions`: 384, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}}",
    "SCALAR": "CYPHER 25 CREATE VECTOR INDEX claim_embedding FOR (c:Claim) ON c.embedding "
    "WITH [c.namespace, c.status] OPTIONS {indexConfig: {`vector.dimensions`: 384, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.type`: 'SCALAR'}}",
    "BINARY": "CYPHER 25 CREATE VECTOR INDEX claim_embedding FOR (c:Claim) ON c.embedding "
    "WITH [c.namespace, c.status] OPTIONS {indexConfig: {`vector.dimensions`: 384, "
    "`vector.similarity_function`: 'cosine', `vector.quantization.type`: 'BINARY'}}",
}


def measure(
    bg: BeliefGraph,
    in_index: bool,
    queries: list[tuple[str, list[str]]],
    exact: dict[int, set[str]],
    k: int,
    ways: Sequence[str] = ("learned",),
) -> dict[str, dict[str, Any]]:
    """``search`` over ``queries`` (``scoped_search`` for a query of more than one namespace: a
    chain) each way of ``ways`` in turns, query by query: ``learned``
    starts where the last search in the query's namespace found its hits (the engine's);
    ``foot`` starts every search at the foot of the widening ladder (the engine until
    2026-12-05)."""
    bg.store.vector_filtering = in_index  # force the path under test
    reads = [0]
    original = bg.store.read

    def counting(name: str, **params: Any) -> list[dict[str, Any]]:
        reads[0] += name.endswith(("search_claims", "scope_search"))  # the index's reads
        return original(name, **params)

    kept = bg._widening  # the engine's memory of where each namespace's searches end

    def search(way: str, query: str, chain: list[str]) -> list[Any]:
        bg._widening = kept if way == "learned" else type(kept)()
        if len(chain) > 1:
            return bg.scoped_search(query, chain, k=k)
        return bg.search(query, chain[0], k=k)

    bg.store.read = counting  # type: ignore[method-assign]
    samples: dict[str, list[float]] = {way: [] for way in ways}
    recalls: dict[str, list[float]] = {way: [] for way in ways}
    trips: dict[str, list[int]] = {way: [] for way in ways}
    try:
        # Warm-up: every query once. A rebuilt index is cold (its first few hundred reads run
        # about twice as slow as later ones), and the figures are of a server in use.
        for query, chain in queries:
            for way in ways:
                search(way, query, chain)
        for j, (query, chain) in enumerate(queries):
            for way in ways if j % 2 == 0 else list(reversed(ways)):
                reads[0] = 0
                start = time.perf_counter()
                hits = search(way, query, chain)
                samples[way].append((time.perf_counter() - start) * 1000)
                trips[way].append(reads[0])
                recalls[way].append(len({h.claim.object for h in hits} & exact[j]) / k)
    finally:
        bg.store.read = original  # type: ignore[method-assign]
        bg._widening = kept
    return {
        way: {
            **summary(samples[way]),
            "recall@k (mean)": round(sum(recalls[way]) / len(recalls[way]), 4),
            "recall@k (min)": round(min(recalls[way]), 2),
            "index reads per search (mean)": round(sum(trips[way]) / len(trips[way]), 2),
            "index reads per search (max)": max(trips[way]),
        }
        for way in ways
    }


# The index read alone, with the engine's filter and fetch: what the vector index costs before
# the time test, the rivals and the hits' properties (a fixed statement for this measurement).
INDEX_ONLY = (
    "CYPHER 25 MATCH (node:Claim) SEARCH node IN (VECTOR INDEX claim_embedding FOR $embedding "
    "WHERE node.namespace = $namespace AND node.status IN $statuses LIMIT $fetch) SCORE AS score "
    "RETURN count(node) AS n"
)


def stages(bg: BeliefGraph, queries: list[tuple[str, str]], k: int) -> dict[str, Any]:
    """Where a filtered search spends its time, the stages taking turns query by query: the
    whole ``search`` call, the engine's statement alone (server and driver, no hits built), the
    index read alone at the engine's fetch and at ``k``; then the PROFILE of one statement."""
    store = bg.store
    statement = cypher.variant("read/search_claims", True)
    now = bg.clock()
    statuses = ["active", "superseded", "retracted"]
    fetch = max(20, k * 3)
    timings: dict[str, list[float]] = {
        "search() whole call": [],
        "statement (server + driver)": [],
        f"index read alone, LIMIT {fetch}": [],
        f"index read alone, LIMIT {k}": [],
    }

    def params(ns: str, query: str) -> dict[str, Any]:
        """The engine's parameters for a current-beliefs search of ``query`` in ``ns``."""
        return dict(
            namespace=ns,
            embedding=bg.detector.embed([query])[0],
            statuses=statuses,
            fetch=fetch,
            k=k,
            mode="current",
            now=now,
            valid_at=now,
            known_at=now,
            walk_up_to=bg.read_tuning.walk_up_to,
        )

    for query, ns in queries:
        full = params(ns, query)
        index = {key: full[key] for key in ("namespace", "embedding", "statuses")}
        runs: list[Callable[[], object]] = [
            partial(bg.search, query, ns, k=k),
            partial(store.read, statement, **full),
            partial(store.run_literal, INDEX_ONLY, **index, fetch=fetch),
            partial(store.run_literal, INDEX_ONLY, **index, fetch=k),
        ]
        for name, run in zip(timings, runs, strict=True):
            start = time.perf_counter()
            run()
            timings[name].append((time.perf_counter() - start) * 1000)
    rows: dict[str, Any] = {
        name: f"p50 {summary(v)['p50_ms']:.2f} / p95 {summary(v)['p95_ms']:.2f} ms"
        for name, v in timings.items()
    }
    query, ns = queries[0]
    with store._driver.session(database=store.database) as session:
        for _ in range(2):  # the first run plans the statement
            result = session.run("PROFILE " + cypher.load(statement), params(ns, query))
            profiled = result.consume().profile

    def walk(node: Any) -> None:
        details = node.get("args", {}).get("Details", "")
        key = f"hits / rows  {node['operatorType']}: {details[:70]}"
        rows[key] = f"{node.get('dbHits', 0)} / {node.get('rows', 0)}"
        for child in node.get("children", []):
            walk(child)

    walk(profiled)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=50_000)
    parser.add_argument("--namespaces", type=int, default=20)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument(
        "--chain", type=int, default=1, help="namespaces a query reads: above 1, scoped_search"
    )
    parser.add_argument(
        "--quantization", default="NONE,SCALAR,BINARY", help="on 2026: index settings to compare"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "belief-graph-filtered-search.npy",
    )
    parser.add_argument("--noise", type=float, default=0.02, help="per-dimension noise")
    parser.add_argument(
        "--vectors",
        choices=["sentences", "random"],
        default="sentences",
        help="random: unit vectors with no structure, the hardest case for quantization",
    )
    parser.add_argument(
        "--stages", action="store_true", help="on 2026: also time the stages of a filtered search"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    texts = [sentence(i) for i in range(args.claims + args.queries)]
    if args.vectors == "random":
        drawn = np.random.default_rng(3).normal(0, 1, (len(texts), 384)).astype(np.float32)
        vectors = drawn / np.linalg.norm(drawn, axis=1, keepdims=True)
    else:
        vectors = embeddings(len(texts), args.noise, args.cache)
    lookup = Lookup({t: v.tolist() for t, v in zip(texts, vectors, strict=True)})
    bg = connect(detector=Detector(lookup))
    features = bg.store.features()
    run = f"{time.time_ns()}"
    spaces = [f"bench:fs:{run}:{n}" for n in range(args.namespaces)]
    with stopwatch() as elapsed:
        fill(bg, texts[: args.claims], spaces)

    rng = random.Random(5)
    owner = np.arange(args.claims) % args.namespaces
    queries: list[tuple[str, list[str]]] = []
    exact = {}
    for j in range(args.queries):
        n = rng.randrange(args.namespaces)
        chain = [(n + i) % args.namespaces for i in range(args.chain)]
        q = vectors[args.claims + j]
        members = np.nonzero(np.isin(owner, chain))[0]
        scores = vectors[members] @ q
        best = members[np.argsort(-scores)[: args.k]]
        exact[j] = {str(i) for i in best}
        queries.append((texts[args.claims + j], [spaces[i] for i in chain]))
    call = "search" if args.chain == 1 else f"scoped_search through {args.chain} namespaces,"

    header = {
        "server": f"Neo4j {features.version}",
        "claims": args.claims,
        "namespaces": args.namespaces,
        "vectors": args.vectors,
        "ingest seconds": round(elapsed[0], 1),
    }
    report("filtered search: the data", header, args.json)
    if not args.stages:
        ways = measure(bg, False, queries, exact, args.k, ("foot", "learned"))
        for way, start in (
            ("foot", "each from the ladder's foot"),
            ("learned", "each from where the last in its namespace ended (the engine's)"),
        ):
            report(
                f"{call} k={args.k}, fetch-and-widen (queryNodes over every namespace), {start}",
                ways[way],
                args.json,
            )
    if features.vector_filters:
        for setting in [s.strip().upper() for s in args.quantization.split(",") if s.strip()]:
            bg.store.run_literal("DROP INDEX claim_embedding IF EXISTS")
            with stopwatch() as rebuilt:
                bg.store.run_literal(REBUILD[setting])  # type: ignore[arg-type]
                bg.store.write("admin/schema_await", timeout=1800)
            rows = measure(bg, True, queries, exact, args.k)["learned"]
            rows["index rebuild seconds"] = round(rebuilt[0], 1)
            report(
                f"{call} k={args.k}, SEARCH ... WHERE in the index, quantization {setting}",
                rows,
                args.json,
            )
            if args.stages:
                plain = [(query, chain[0]) for query, chain in queries]  # a search's stages
                report(f"stages, quantization {setting}", stages(bg, plain, args.k), args.json)
    return 0
