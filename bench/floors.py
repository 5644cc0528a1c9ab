"""What do this machine and its server allow before any engine work (the floors)?

The floors under #13's targets. Each floor is a statement as small as it can be, timed in turns
with the others block by block (so a noisy machine weighs on all alike), after a warm-up:

- a round trip that does nothing (``RETURN 1``): under every read;
- the same carrying the comment lines of ``write/apply`` before it (what every write sent until
  statements were sent without them, ``cypher.sent``), and carrying as many characters of code
  as ``write/apply`` sends now (``RETURN 1 + 1 + …``): what a statement's text costs;
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
(per sentence), one contradiction pair scored alone and four to a call (per pair).

With ``--bulk``, the floor under an ``ingest``: what a new fact's nodes and edges cost the server
when nothing is checked, locked or sought (a slot, a claim with the properties the engine gives
one, ``IN_SLOT``, a revision and ``ADDED``, created in one ``UNWIND`` a batch, under indexes and
constraints of the engine's shapes), the rows built before the clock starts: ``--bulk`` drafts
500 a batch, and a tenth of them 100 a batch with an embedding on each claim into a vector index
(the models-on ingest's writes). Printed as CPU per 1,000 drafts on each side and the drafts/s
two busy cores would allow for those writes alone.

Scratch nodes have labels of this script's own (``BenchFloor*``, ``BenchBulk*``) and indexes of
its own; all are removed at the end.

    python -m bench floors [--samples 400] [--warmup 1000] [--vectors 5000] [--models]
                           [--bulk 20000] [--json]
    BELIEF_GRAPH_NEO4J_VERSION=2026.08.1 python -m bench floors --models
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from belief_graph import cypher
from belief_graph.store import Store
from bench.common import connect, cpu_budget, cpu_used, report, stopwatch, summary

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
    apply = cypher.load("write/apply")
    comments = "\n".join(line for line in apply.split("\n") if line.lstrip().startswith("//"))
    code = "RETURN " + " + ".join(["1"] * ((len(cypher.sent("write/apply")) - 14) // 4)) + " AS one"

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
            f"the same after {len(comments):,} characters of comment": lambda: store.run_literal(
                comments + "\nRETURN 1 AS one"
            ),
            f"the same, {len(code):,} characters of code": lambda: store.run_literal(code),
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


# The indexes and constraints the engine's schema gives claims, slots and revisions, on labels
# of this script's own (cypher/schema holds the engine's).
BULK_KEYS = [
    ("CONSTRAINT", "claim_id", "BenchBulkClaim", "n.id", True),
    ("INDEX", "claim_ns", "BenchBulkClaim", "n.namespace, n.status", False),
    ("INDEX", "claim_status", "BenchBulkClaim", "n.slot_id, n.status", False),
    ("INDEX", "claim_sup", "BenchBulkClaim", "n.slot_id, n.superseded_at", False),
    ("INDEX", "claim_from", "BenchBulkClaim", "n.slot_id, n.valid_from", False),
    ("INDEX", "claim_to", "BenchBulkClaim", "n.slot_id, n.valid_to", False),
    ("INDEX", "claim_version", "BenchBulkClaim", "n.slot_id, n.version", False),
    ("CONSTRAINT", "slot_id", "BenchBulkSlot", "n.id", True),
    ("CONSTRAINT", "slot_key", "BenchBulkSlot", "n.namespace, n.subject_key, n.predicate", True),
    ("CONSTRAINT", "revision_key", "BenchBulkRevision", "n.namespace, n.id", True),
    ("INDEX", "revision_at", "BenchBulkRevision", "n.namespace, n.at", False),
]
BULK_SCHEMA = [
    f"CREATE {kind} bench_bulk_{name} IF NOT EXISTS FOR (n:{label}) "
    + (f"REQUIRE ({keys}) IS UNIQUE" if unique else f"ON ({keys})")
    for kind, name, label, keys, unique in BULK_KEYS
]
BULK_INDEX_5 = INDEX_5.replace("bench_floor_vector", "bench_bulk_vector").replace(
    "BenchFloorVector", "BenchBulkClaim"
)
BULK_INDEX_25 = INDEX_25.replace("bench_floor_vector", "bench_bulk_vector").replace(
    "BenchFloorVector", "BenchBulkClaim"
)
BULK_WRITE = """
UNWIND $rows AS row
CREATE (s:BenchBulkSlot)
SET s = row.slot, s.last_recorded_at = datetime(row.at)
CREATE (c:BenchBulkClaim)-[:IN_SLOT]->(s)
SET c = row.claim, c.valid_from = datetime(row.at), c.recorded_at = datetime(row.at),
    c.accepted_at = datetime(row.at)
CREATE (r:BenchBulkRevision)
SET r = row.revision, r.at = datetime(row.at)
CREATE (r)-[:ADDED]->(c)
"""


def bulk_rows(run: str, start: int, count: int, rng: random.Random, embedded: bool) -> list[Any]:
    """The rows of ``count`` new facts, each with the properties the engine gives a claim, its
    slot and its revision (25 on a structural ingest's claim; ``embedded`` adds the vector)."""
    rows = []
    for i in range(start, start + count):
        claim_id, slot_id, revision_id = f"{run}C{i:012d}", f"{run}S{i:012d}", f"{run}R{i:012d}"
        ns, subject, value = f"bench:bulk:{run}", f"person-{i}", f"value-{i % 4}"
        claim = {
            "id": claim_id,
            "namespace": ns,
            "slot_id": slot_id,
            "subject": subject,
            "subject_key": subject,
            "predicate": "lives_in",
            "predicate_text": "lives_in",
            "object": value,
            "object_key": value,
            "text": f"{subject} lives in {value} ({i}).",
            "source_type": "user_stated",
            "confidence": 0.8,
            "frequency": 1,
            "kind": "evidence",
            "status": "active",
            "version": 1,
            "contradiction": False,
            "disputed": False,
            "needs_review": False,
            "evidence_episodes": [f"revision:{revision_id}"],
            "evidence_types": ["user_stated"],
            "evidence_sources": ["anonymous:user_stated"],
        }
        if embedded:
            claim["embedding"] = unit(rng)
        slot = {
            "id": slot_id,
            "namespace": ns,
            "subject": subject,
            "subject_key": subject,
            "predicate": "lives_in",
            "cardinality": "single",
            "seq": 1,
            "versions": 1,
            "head": claim_id,
            "last_revision": revision_id,
        }
        revision = {
            "id": revision_id,
            "namespace": ns,
            "op": "remember",
            "verdict": "NEW",
            "decision": "expand",
            "reason": "empty slot",
            "slot_ids": [slot_id],
            "result": json.dumps(
                {
                    "revision_id": revision_id,
                    "namespace": ns,
                    "op": "remember",
                    "verdict": "NEW",
                    "decision": "expand",
                    "reason": "empty slot",
                    "slot_id": slot_id,
                    "added": [claim_id],
                    "retired": [],
                    "reinforced": [],
                    "flagged": [],
                    "restored": [],
                    "replayed": False,
                },
                separators=(",", ":"),
            ),
        }
        at = f"2026-01-01T00:00:{i % 60:02d}.{i % 1000000:06d}Z"
        rows.append({"slot": slot, "claim": claim, "revision": revision, "at": at})
    return rows


def bulk_floor(bg: Any, drafts: int, batch: int, embedded: bool, as_json: bool) -> None:
    """Time ``drafts`` new facts written ``batch`` to a statement, rows built beforehand."""
    store = bg.store
    run = f"{time.time_ns():x}"
    rng = random.Random(11)
    batches = [
        bulk_rows(run, start, min(batch, drafts - start), rng, embedded)
        for start in range(0, drafts, batch)
    ]
    warm = bulk_rows(run + "w", 0, batch, rng, embedded)
    store.run_literal(BULK_WRITE, rows=warm)  # the statement planned before the clock starts
    with stopwatch() as elapsed, cpu_used(bg) as cpu:
        for rows in batches:
            store.run_literal(BULK_WRITE, rows=rows)
    what = "with an embedding into a vector index" if embedded else "structural"
    report(
        f"the floor under an ingest, {what}: a new fact's nodes and edges, nothing checked",
        {
            "drafts": drafts,
            "batch size": batch,
            "seconds": round(elapsed[0], 2),
            "drafts/s": round(drafts / elapsed[0]),
            **cpu_budget(cpu, drafts, elapsed[0]),
        },
        as_json,
    )


def bulk_floors(bg: Any, drafts: int, as_json: bool) -> None:
    store = bg.store
    for statement in BULK_SCHEMA:
        store.run_literal(statement)
    store.run_literal(BULK_INDEX_25 if store.features().vector_filters else BULK_INDEX_5)
    store.run_literal("CALL db.awaitIndexes(300)")
    bulk_floor(bg, drafts, 500, False, as_json)
    bulk_floor(bg, max(100, drafts // 10), 100, True, as_json)


SCRATCH = (
    "MATCH (n:BenchFloor) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n:BenchFloorList) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n:BenchFloorVector) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "DROP INDEX bench_floor_vector IF EXISTS",
    "MATCH (n:BenchBulkRevision) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n:BenchBulkClaim) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n:BenchBulkSlot) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS",
    "DROP INDEX bench_bulk_vector IF EXISTS",
    *(f"DROP {kind} bench_bulk_{name} IF EXISTS" for kind, name, *_ in BULK_KEYS),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=1000, help="uncounted calls of each way")
    parser.add_argument("--vectors", type=int, default=5000, help="vectors in the probe index")
    parser.add_argument("--models", action="store_true", help="the offline models' floors too")
    parser.add_argument(
        "--bulk", type=int, default=0, help="drafts of the floor under an ingest (0: not run)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect(schema=False)
    store = bg.store
    try:
        server_floors(store, args.samples, args.warmup, args.vectors, random.Random(5), args.json)
        if args.bulk:
            bulk_floors(bg, args.bulk, args.json)
    finally:
        for statement in SCRATCH:
            store.run_literal(statement)
        bg.close()
    if args.models:
        model_floors(args.samples, args.json)
    return 0
