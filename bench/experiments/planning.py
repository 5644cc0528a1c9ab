"""How long does Neo4j take to plan each shipped statement?

How long Neo4j takes to plan each shipped statement: what the first call after a server
start pays, and every call after Neo4j decides a cached plan is stale and plans it again (a
plan older than ``dbms.cypher.min_replan_interval``, 10 s by default, whose statistics moved
by more than ``dbms.cypher.statistics_divergence_threshold``, 0.75 of ``abs(a-b)/max(a,b)``).

Each round EXPLAINs a copy of the statement that no cache holds (a comment of its own at the
end), so every figure is a whole planning. Medians over ``--rounds``.

    BELIEF_GRAPH_NEO4J_VERSION=5.26.30 python -m bench planning --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid

from belief_graph import cypher
from bench.common import connect, report

STATEMENTS = [
    "write/apply",
    "write/changes",
    "write/state",
    "write/lock",
    "write/flags",
    "write/finish",
    "read/claim_lineage",
    "read/claim_get",
    "read/as_of_claims",
    "read/beliefs_subject",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    store = connect().store
    rows = {}
    for name in STATEMENTS:
        text = cypher.load(name)
        samples = []
        for _ in range(args.rounds):
            fresh = f"EXPLAIN {text}\n// {uuid.uuid4()}"
            start = time.perf_counter()
            store.run_literal(fresh)  # type: ignore[arg-type]  # a shipped statement
            samples.append((time.perf_counter() - start) * 1000)
        rows[name] = {
            "p50_ms": round(statistics.median(samples)),
            "max_ms": round(max(samples)),
            "chars": len(text),
        }
    report(f"planning, {store.verify()['agent']}", rows, args.json)
    return 0
