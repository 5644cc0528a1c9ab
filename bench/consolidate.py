"""How long do consolidation, its dry run, a second pass and the rollback take?

On a large namespace, the "sleep" pass, its dry run, a second pass and the rollback, and
what the pass found.

    python -m bench consolidate [--facts 5000] [--json]

Without ``NEO4J_URI`` it runs on a private Neo4j started for this run (never the user's own).
The namespace holds ``--facts`` structured facts written through ``ingest`` (models off), then,
as an older writer would have left them (direct Cypher, each with the revision that added it):
a duplicate of one fact in ten in its own slot, and a text-only twin of one fact in twenty in a
fact of its own.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from typing import Any

from belief_graph.testing.factories import draft
from belief_graph.testing.graph import check_graph, q
from bench.common import connect, report

NS = "bench:consolidate"
AT = "2026-01-05T09:00:00+00:00"


def _legacy(claim_id: str, slot_id: str, text: str, obj: str | None) -> dict[str, Any]:
    return {
        "slot": slot_id,
        "at": AT,
        "props": {
            "id": claim_id,
            "namespace": NS,
            "slot_id": slot_id,
            "predicate": "statement" if obj is None else "attribute",
            "object": obj,
            "object_key": obj.casefold() if obj else None,
            "text": text,
            "source_type": "user_stated",
            "confidence": 0.7,
            "frequency": 1,
            "kind": "evidence",
            "status": "active",
            "version": 1,
            "contradiction": False,
            "disputed": False,
            "needs_review": False,
        },
        "result": json.dumps(
            {
                "revision_id": f"legacy-{claim_id}",
                "namespace": NS,
                "op": "import",
                "decision": "expand",
                "added": [claim_id],
            }
        ),
    }


def seed(bg: Any, facts: int) -> dict[str, int]:
    results = bg.ingest(
        draft(
            f"person {i}",
            "attribute",
            f"value {i}",
            namespace=NS,
            text=f"Person {i} has value {i}.",
        )
        for i in range(facts)
    )
    rows, slots = [], []
    for i, r in enumerate(results):
        if i % 10 == 0:
            rows.append(_legacy(f"dup-{i}", r.slot_id, f"Person {i} has value {i}", f"Value {i}"))
        if i % 20 == 5:
            slots.append({"id": f"slot-twin-{i}", "key": f"text:twin-{i}", "head": f"twin-{i}"})
            rows.append(_legacy(f"twin-{i}", f"slot-twin-{i}", f"person {i} has value {i}", None))
    q(
        bg.store,
        "UNWIND $slots AS x CREATE (:Slot {id: x.id, namespace: $ns, subject_key: x.key, "
        "predicate: 'statement', cardinality: 'single', seq: 1, versions: 1, head: x.head})",
        slots=slots,
        ns=NS,
    )
    q(
        bg.store,
        "UNWIND $rows AS row MATCH (s:Slot {namespace: $ns, id: row.slot}) "
        "CREATE (c:Claim)-[:IN_SLOT]->(s) SET c = row.props, c.valid_from = datetime(row.at), "
        "c.recorded_at = datetime(row.at), c.accepted_at = datetime(row.at) "
        "CREATE (r:Revision {id: 'legacy-' + row.props.id, namespace: $ns, op: 'import', "
        "at: datetime(row.at), decision: 'expand', result: row.result})-[:ADDED]->(c)",
        rows=rows,
        ns=NS,
    )
    return {"facts": facts, "duplicates": len(rows) - len(slots), "text_twins": len(slots)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=5000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect()
    q(bg.store, "MATCH (n {namespace: $ns}) DETACH DELETE n", ns=NS)
    seeded = seed(bg, args.facts)

    def clock(fn: Any) -> tuple[Any, float]:
        start = time.perf_counter()
        out = fn()
        return out, round(time.perf_counter() - start, 2)

    dry, dry_s = clock(lambda: bg.consolidate(NS, dry_run=True))
    done, done_s = clock(lambda: bg.consolidate(NS))
    again, again_s = clock(lambda: bg.consolidate(NS))
    violations = check_graph(bg.store)
    assert done.revision is not None
    _, rollback_s = clock(lambda: bg.rollback(NS, done.revision.revision_id))
    steps: dict[str, int] = {}
    for step in done.steps:
        steps[step.action] = steps.get(step.action, 0) + 1
    report(
        "consolidate",
        {
            **seeded,
            "claims_read": done.examined["claims"],
            "steps": steps,
            "dry_run_s": dry_s,
            "consolidate_s": done_s,
            "claims_per_s": round(done.examined["claims"] / done_s, 1) if done_s else None,
            "second_pass_s": again_s,
            "second_pass_steps": len(again.steps),
            "dry_run_steps_equal": len(dry.steps) == len(done.steps),
            "rollback_s": rollback_s,
            "invariant_violations_after": len(violations),
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        },
        args.json,
    )
    bg.close()
    return 0
