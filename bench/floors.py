"""What this machine and server allow before any engine work: the floors under #13's targets.

Each floor is a statement as small as it can be, timed in turns with the others block by block
(so a noisy machine weighs on all alike), after a warm-up:

- a round trip that does nothing (``RETURN 1``): under every read;
- a durable write of one small node (an auto-commit ``CREATE``, the transaction log flushed):
  under every write;
- the same node with a 384-float list on it, no index on the list: what the bytes cost;
- the same into a vector index made as the engine's is on this server (384 dimensions,
  cosine; on Neo4j 2026 filterable by namespace and status, full precision), holding
  ``--vectors`` vectors: under every write with the models on, whose new claims carry their
  embedding;
- a write that changes the status of a node in that index (Neo4j 2026 declares ``status`` in
  the index, so the index changes too): under a structural write that supersedes a claim
  carrying an embedding.

With ``--models``, the offline models too: one sentence embedded alone and in a batch of 50
(per sentence), one contradiction pair scored alone and four to a call (per pair). Scratch
nodes have labels of this script's own (``BenchFloor*``) and an index of its own; both are
removed at the end.

    python bench/floors.py [--samples 400] [--warmup 1000] [--vectors 5000] [--models] [--json]
    BELIEF_GRAPH_NEO4J_VERSION=2026.08.1 python bench/floors.py --models
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from _common import connect, report, summary

from belief_graph.store import Store

DIM = 384
INDEX_5 = (
    "CREATE VECTOR INDEX bench_floor_vector IF NOT EXISTS FOR (n:BenchFloorVector) ON n.embedding "
    "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}"
)
INDEX_25 = (
    "CYPHER 25 CREATE VECTOR INDEX bench_floor_vector IF NOT EXISTS "
    "FOR (n:BenchFloorVector) ON n.embedding WITH [n.namespace, n.status] "
    "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', "
    "`vector.quantization.type`: 'NONE'}}"
)
SENTENCE = "Priya moved to Lisbon in March and works at a bakery there."


def unit(rng: random.Random) -> list[float]:
    v = [rng.gauss(0.0, 1.0) for _ in range(DIM)]
    norm = sum(x * x for x in v) ** 0.5
    return [x / norm for x in v]


def in_turns(
    ways: dict[str, Callable[[], Any]], samples: int, warmup: int, block: int = 50
) -> dict[str, list[float]]:
    """Milliseconds per call of each way, the ways taking turns block by block (``block``
    calls of one, then of the next: call by call, a write into the vector index slowed the
    plain write after it to twice its time alone), after ``warmup`` calls of each that are not
    counted (a server just started runs its first thousands of statements slower, its code not
    compiled yet); the first call of each block is not counted either."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    for call in ways.values():
        for _ in range(warmup):
            call()
    for _ in range(max(1, samples // (block - 1))):
        for name, call in ways.items():
            for i in range(block):
                start = time.perf_counter()
                call()
                if i:
                    times[name].append((time.perf_counter() - start) * 1000)
    return times


def server_floors(
    store: Store, samples: int, warmup: int, vectors: int, rng: random.Random, as_json: bool
) -> None:
    in_index = store.features().vector_filters
    store.run_literal(INDEX_25 if in_index else INDEX_5)
    store.run_literal("CALL db.awaitIndexes(300)")
    for start in range(0, vectors, 1000):
        batch = [unit(rng) for _ in range(min(1000, vectors - start))]
        store.run_literal(
            "UNWIND $vs AS v CREATE (:BenchFloorVector {namespace: 'bench:floors', "
            "status: 'active', embedding: v})",
            vs=batch,
        )
    held: list[str] = []
    n = [0]

    def write(query: Any) -> Callable[[], Any]:
        def call() -> Any:
            n[0] += 1
            rows = store.run_literal(query, i=n[0], v=unit(rng))
            if rows and "id" in rows[0]:
                held.append(rows[0]["id"])

        return call

    def supersede() -> Any:
        if held:
            store.run_literal(
                "MATCH (n:BenchFloorVector) WHERE elementId(n) = $id SET n.status = 'superseded'",
                id=held.pop(),
            )

    times = in_turns(
        {
            "a round trip, no work (RETURN 1)": lambda: store.run_literal("RETURN 1 AS one"),
            "a durable write of one small node": write(
                "CREATE (:BenchFloor {namespace: 'bench:floors', status: 'active', n: $i})"
            ),
            "the same with 384 floats, not indexed": write(
                "CREATE (:BenchFloorList {namespace: 'bench:floors', status: 'active', n: $i, "
                "embedding: $v})"
            ),
            "the same into the vector index": write(
                "CREATE (n:BenchFloorVector {namespace: 'bench:floors', status: 'active', "
                "n: $i, embedding: $v}) RETURN elementId(n) AS id"
            ),
            "a status changed on a node in the vector index": supersede,
        },
        samples,
        warmup,
    )
    server = "Neo4j 2026: status filterable in the index" if in_index else "Neo4j 5"
    report(
        f"floors of this server ({server}, {vectors} vectors in the index; ms, the ways in turns)",
        {name: summary(ms) for name, ms in times.items()},
        as_json,
    )


def model_floors(samples: int, as_json: bool) -> None:
    from belief_graph.testing.offline import offline_embedder, offline_scorer

    embedder, scorer = offline_embedder(), offline_scorer()
    batch = [f"{SENTENCE[:-1]} ({i})." for i in range(50)]
    pair = ("Priya lives in Lisbon.", "Priya lives in Porto.")
    times = in_turns(
        {
            "one sentence embedded": lambda: embedder.embed([SENTENCE]),
            "50 sentences embedded in one call (the call)": lambda: embedder.embed(batch),
            "one contradiction pair scored": lambda: scorer.score([pair]),
            "four pairs scored in one call (the call)": lambda: scorer.score([pair] * 4),
        },
        max(20, samples // 4),
        10,
        block=5,
    )
    rows: dict[str, Any] = {name: summary(ms) for name, ms in times.items()}
    rows["per sentence in a batch of 50, p50 ms"] = round(
        rows["50 sentences embedded in one call (the call)"]["p50_ms"] / 50, 3
    )
    rows["per pair, four to a call, p50 ms"] = round(
        rows["four pairs scored in one call (the call)"]["p50_ms"] / 4, 3
    )
    report("floors of the offline models (one thread; ms, the ways in turns)", rows, as_json)


SCRATCH = (
    "MATCH (n:BenchFloor) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n:BenchFloorList) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n:BenchFloorVector) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "DROP INDEX bench_floor_vector IF EXISTS",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=1000, help="uncounted calls of each way")
    parser.add_argument("--vectors", type=int, default=5000, help="vectors in the probe index")
    parser.add_argument("--models", action="store_true", help="the offline models' floors too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect(schema=False)
    store = bg.store
    try:
        server_floors(store, args.samples, args.warmup, args.vectors, random.Random(5), args.json)
    finally:
        for statement in SCRATCH:
            store.run_literal(statement)
        bg.close()
    if args.models:
        model_floors(args.samples, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
