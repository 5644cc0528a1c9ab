"""Does Neo4j keep a plan made before the schema existed?

A plan made before the schema existed is not kept by ``CYPHER replan=skip``: Neo4j drops its
cached plans when an index or constraint is created. On a throwaway server of its own (it
writes before the schema on purpose): 60,000 slots, ``write/state`` timed before
``init_schema`` (a label scan), after it, and as a fresh text that no cache holds. Medians of
20 calls, ms.

    python -m bench replan_schema [--json]
"""

from __future__ import annotations

import argparse
from typing import Any

from belief_graph import BeliefGraph, cypher
from belief_graph.server.launcher import LocalNeo4j
from belief_graph.settings import ServerSettings
from belief_graph.store import Store
from belief_graph.write.state import WALK_UP_TO
from bench.common import report, timed

PARAMS: dict[str, Any] = {
    "batch": {
        "slots": [{"namespace": "x", "subject_key": "k5", "predicate": "p"}],
        "slot_refs": [],
        "claim_refs": [],
        "revisions": [],
        "claim_ids": [],
        "near": [],
        "walk_up_to": WALK_UP_TO,
        "by_id_whole": False,
    }
}


def median_ms(call: Any) -> float:
    return timed(call, 20)["p50_ms"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    server = LocalNeo4j.throwaway(ServerSettings())
    server.start()
    try:
        store = Store(server.bolt_uri, None)
        store.run_literal(
            "UNWIND range(1, 60000) AS i CREATE (:Slot {namespace: 'x', id: 's' + i, "
            "subject_key: 'k' + i, predicate: 'p', seq: 0})"
        )
        shipped = lambda: store.write("write/state", **PARAMS)  # noqa: E731
        rows = {"before the schema (planned once, now)": median_ms(shipped)}
        BeliefGraph(store).init_schema()
        rows["after init_schema, the same text"] = median_ms(shipped)
        fresh: Any = cypher.load("write/state") + "\n// a text no cache holds"
        rows["after init_schema, a fresh text"] = median_ms(
            lambda: store.run_literal(fresh, **PARAMS)
        )
        report(f"write/state, 60,000 slots, {store.verify()['agent']}", rows, args.json)
    finally:
        server.discard()
    return 0
