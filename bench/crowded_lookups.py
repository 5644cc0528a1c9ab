"""How often does a draft's look-up widen where many tenants share the index, at what cost?

A draft's look-up (write/neighbours: the slots of its nearest active claims outside its own
fact) in a database that many namespaces of like sentences share: how often the first fetch of
the vector index holds fewer of the namespace's slots than the look-up ranks (on Neo4j 5.26,
whose index spans every namespace, other tenants' nearer sentences fill it), how often the
look-up still does after it asks once more, wider, and what the look-up costs, widened or not.
Each tenant holds ``--per`` drafts of ``bench.data``'s people with their embeddings; the drafts
looked up are more of the first tenant's. Each look-up runs two ways in turns: from the foot of
the fetch ladder, and from where the last look-ups in the namespace found their slots (the
engine's way, ``widening.Widening``: on 5.26 only). Then ``remember`` and ``ingest`` with both
offline models, the two ways in turns.

    python -m bench crowded_lookups [--tenants 20] [--per 1000] [--drafts 300] [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from belief_graph import BeliefGraph, Policy, Tuning, cypher
from belief_graph.detect import Detector
from belief_graph.store import Store
from belief_graph.testing.offline import offline_embedder, offline_scorer
from belief_graph.widening import Widening
from belief_graph.write.engine import LOOKUP_WINDOW
from bench.common import connect, instrument, percentile, report
from bench.data import BASE, random_fact

# Remember's look-up of one draft (``Neighbours.lookup``): the policy's neighbours + 1 slots,
# fetching 20 per neighbour.
NEIGHBOURS = Policy().neighbours
RANK, FETCH = NEIGHBOURS + 1, max(NEIGHBOURS * 20, (NEIGHBOURS + 1) * 4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tenants", type=int, default=20)
    parser.add_argument("--per", type=int, default=1000)
    parser.add_argument("--drafts", type=int, default=300)
    parser.add_argument("--remembers", type=int, default=100, help="each way, models on")
    parser.add_argument("--ingests", type=int, default=10, help="batches of 50 each way")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    embedder = offline_embedder()
    bg = connect(detector=Detector(embedder, None))
    store = bg.store
    run = f"bench:crowded:{time.time_ns()}"
    spaces = [f"{run}:{i}" for i in range(args.tenants)]
    rng = random.Random(11)
    people = max(1, args.per // 5)
    started = time.perf_counter()
    for ns in spaces:
        bg.ingest(
            [random_fact(ns, people, rng, BASE + timedelta(seconds=i), i) for i in range(args.per)]
        )
        print(f"  filled {ns}", file=sys.stderr)
    filled = time.perf_counter() - started
    drafts = [random_fact(spaces[0], people, rng, BASE, 10**6 + i) for i in range(args.drafts)]
    vectors = embedder.embed([d.text for d in drafts])
    statement = cypher.variant("write/neighbours", store.filters_in_vector_index())
    first_short = still_short = differ = 0
    widened: list[float] = []
    plain: list[float] = []
    learned: list[float] = []
    starts: list[int] = []
    reaches = Widening(LOOKUP_WINDOW)  # the engine's memory (Neighbours.lookup), fed alike

    def look_up(vector: Any, fetch: int) -> tuple[float, dict[str, Any] | None]:
        look = {"draft": 0, "namespace": spaces[0], "embedding": vector, "fetch": fetch}
        look |= {"wider": FETCH * 16, "k": RANK, "rank": RANK, "extent": RANK}
        t = time.perf_counter()
        rows = store.read_leader(statement, batch={"near": [look]}, fetch=RANK * 4)
        took = (time.perf_counter() - t) * 1000
        return took, next(iter(rows[0]["ranked"]), None)

    for fetch in (FETCH, FETCH * 4, FETCH * 16):  # warm-up: every first fetch, untimed
        look_up(store.query_vector(vectors[0]), fetch)
    for i, vector in enumerate(store.query_vector(v) for v in vectors):
        start = FETCH
        if not store.filters_in_vector_index():
            start = reaches.start(spaces[0], FETCH, 4, FETCH * 16)
        # The two ways in turns, each first every other draft.
        ways = [("foot", FETCH), ("learned", start)]
        found = {way: look_up(vector, fetch) for way, fetch in (ways if i % 2 else ways[::-1])}
        took, ranked = found["foot"]
        short = len(first_fetch(store, spaces[0], vector)) < RANK
        first_short += short
        still_short += ranked is None or len(ranked["ids"]) < RANK
        (widened if short else plain).append(took)
        took, again = found["learned"]
        learned.append(took)
        starts.append(start)
        differ += (ranked or {}).get("ids") != (again or {}).get("ids")
        if again is not None:
            reaches.learned(spaces[0], again["reach"])
    rows_out = {
        "claims (tenants x per)": f"{args.tenants * args.per} ({args.tenants} x {args.per})",
        "fill, s": round(filled, 1),
        "server filters inside the index": store.filters_in_vector_index(),
        f"look-ups whose first fetch held < {RANK} slots": f"{first_short} of {args.drafts}",
        f"look-ups holding < {RANK} slots in the end": f"{still_short} of {args.drafts}",
    }
    for name, values in (("widened", widened), ("not widened", plain)):
        if values:
            rows_out[f"look-up from the foot, {name} (p50 / p95 ms, n)"] = (
                f"{statistics.median(values):.2f} / {percentile(values, 0.95):.2f}, {len(values)}"
            )
    every = widened + plain
    rows_out["look-up from the foot, all (p50 / p95 ms)"] = (
        f"{statistics.median(every):.2f} / {percentile(every, 0.95):.2f}"
    )
    rows_out["look-up from where the last ended, all (p50 / p95 ms)"] = (
        f"{statistics.median(learned):.2f} / {percentile(learned, 0.95):.2f}"
    )
    rows_out["its first fetch (count of look-ups)"] = ", ".join(
        f"{fetch}: {starts.count(fetch)}" for fetch in sorted(set(starts))
    )
    rows_out["look-ups whose slots differ between the two ways"] = differ
    rows_out |= remembers(bg, embedder, spaces[0], people, rng, args.remembers)
    rows_out |= ingests(bg, embedder, spaces[0], people, rng, args.ingests)
    report("a draft's look-up among many tenants", rows_out, args.json)
    bg.close()
    return 0


WAYS = ("foot", "learned")
LABELS = {"foot": "from the foot", "learned": "from where the last ended"}


def in_turns(
    filler: BeliefGraph,
    embedder: Any,
    calls: int,
    warm: int,
    call: Callable[[BeliefGraph, int], Any],
) -> dict[str, list[tuple[float, dict[str, float]]]]:
    """``call(bg, i)`` for ``calls`` turns on a client with both offline models, the two ways in
    turns (each way first every other pair): the writer's look-up memory emptied before each of
    the first way's calls (a client that remembers none: ``Tuning.lookup_window`` 0), kept as
    the engine keeps it for the other's. Each call's ms and stages, per way, past the first
    ``warm`` calls (warm-up)."""
    detector, stages = instrument(Detector(embedder, offline_scorer()))
    windows = {"foot": 0, "learned": LOOKUP_WINDOW}
    clients = {
        way: BeliefGraph(filler.store, detector=detector, tuning=Tuning(lookup_window=window))
        for way, window in windows.items()
    }
    out: dict[str, list[tuple[float, dict[str, float]]]] = {way: [] for way in WAYS}
    for i in range(calls):
        way = WAYS[(i + i // 2) % 2]
        t = time.perf_counter()
        with stages.measure():
            call(clients[way], i)
        if i >= warm:
            out[way].append(((time.perf_counter() - t) * 1000, stages.samples[-1]))
    return out


def p50_p95(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} / {percentile(values, 0.95):.2f}"


def remembers(
    filler: BeliefGraph, embedder: Any, namespace: str, people: int, rng: random.Random, n: int
) -> dict[str, str]:
    """``remember``, ``n`` drafts each way in turns. Each writes a draft, so the two ways meet
    the same database, growing alike; the drafts differ, and whether one needs the
    contradiction model (15-25 ms) weighs on a p50 more than the look-up: the read stage (the
    state read its look-up rides with) is timed on its own."""
    if n == 0:
        return {}
    later = BASE + timedelta(days=1)
    drafts = [
        random_fact(namespace, people, rng, later + timedelta(seconds=i), 2 * 10**6 + i)
        for i in range(2 * n + 4)
    ]
    runs = in_turns(filler, embedder, len(drafts), 4, lambda bg, i: bg.remember(drafts[i]))
    out = {}
    for way in WAYS:
        out[f"remember, models on, look-ups {LABELS[way]} (p50 / p95 ms)"] = p50_p95(
            [ms for ms, _ in runs[way]]
        )
        out[f"remember's read stage (its look-up rides), {LABELS[way]} (p50 / p95 ms)"] = p50_p95(
            [stages.get("read", 0.0) for _, stages in runs[way]]
        )
    return out


def ingests(
    filler: BeliefGraph, embedder: Any, namespace: str, people: int, rng: random.Random, n: int
) -> dict[str, str]:
    """``ingest``, ``n`` calls of one batch of 50 drafts each way in turns: the batch's look-ups
    (one statement of their own, in halves side by side) timed as the neighbours stage."""
    if n == 0:
        return {}
    later = BASE + timedelta(days=2)
    batches = [
        [
            random_fact(namespace, people, rng, at + timedelta(seconds=j), 3 * 10**6 + 50 * i + j)
            for j in range(50)
        ]
        for i, at in enumerate(later + timedelta(minutes=i) for i in range(2 * n + 2))
    ]
    runs = in_turns(
        filler, embedder, len(batches), 2, lambda bg, i: bg.ingest(batches[i], batch_size=50)
    )
    return {
        f"ingest, models on, look-ups {LABELS[way]} (drafts/s; look-ups ms a batch, p50)": (
            f"{statistics.median([50_000 / ms for ms, _ in runs[way]]):.1f}; "
            f"{statistics.median([stages.get('neighbours', 0.0) for _, stages in runs[way]]):.1f}"
        )
        for way in WAYS
    }


def first_fetch(store: Store, namespace: str, embedding: Any) -> list[Any]:
    """The namespace's active slots among the index's first hits: what a look-up held before
    it widened (5.26: the first ``FETCH`` of every namespace; 2026: the first ``RANK * 4`` of
    the namespace's active claims, filtered inside the index)."""
    if store.filters_in_vector_index():
        return store.run_literal(
            "CYPHER 25 MATCH (node:Claim) SEARCH node IN (VECTOR INDEX claim_embedding "
            "FOR $embedding WHERE node.namespace = $namespace AND node.status = 'active' "
            "LIMIT $fetch) RETURN DISTINCT node.slot_id AS slot",
            fetch=RANK * 4,
            embedding=embedding,
            namespace=namespace,
        )
    return store.run_literal(
        "CALL db.index.vector.queryNodes('claim_embedding', $fetch, $embedding) "
        "YIELD node WHERE node.namespace = $namespace AND node.status = 'active' "
        "RETURN DISTINCT node.slot_id AS slot",
        fetch=FETCH,
        embedding=embedding,
        namespace=namespace,
    )
