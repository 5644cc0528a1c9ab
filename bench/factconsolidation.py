"""MemoryAgentBench FactConsolidation (6K) on belief-graph.

Structured mode writes each fact's (subject, relation, object) in serial order, serial as time
(a base date plus the serial in minutes), every relation single-valued. It measures the engine's
bookkeeping: current-value accuracy on the 100 single-hop questions, stale answers returned,
supersession precision/recall against the 161 gold pairs, and point-in-time accuracy on the 74
probes.

    python bench/factconsolidation.py [--data DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _common import connect, report

from belief_graph import Claim, ClaimDraft
from belief_graph.vocabulary import normalize_key

BASE = datetime(2026, 1, 1, tzinfo=UTC)
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "eval" / "factconsolidation"


def at(serial: int) -> datetime:
    return BASE + timedelta(minutes=serial)


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    facts = load(args.data / "facts_structured.jsonl")
    questions = load(args.data / "sh_questions_structured.jsonl")
    probes = load(args.data / "pit_probes.jsonl")

    bg = connect()
    ns = f"bench:factconsolidation:{datetime.now(UTC):%Y%m%d%H%M%S}"
    serial_of: dict[str, int] = {}
    results = bg.ingest(
        (
            ClaimDraft(
                namespace=ns, subject=f["subject"], predicate=f["relation"], object=f["object"],
                text=f["text"], source_type="observed", valid_from=at(f["serial"]),
                recorded_at=at(f["serial"]),
            )
            for f in sorted(facts, key=lambda f: f["serial"])
        ),
        batch_size=50,
    )
    for fact, result in zip(sorted(facts, key=lambda f: f["serial"]), results, strict=True):
        for claim_id in result.added:
            serial_of[claim_id] = fact["serial"]

    gold_pairs = {(f["serial"], f["superseded_by_serial"]) for f in facts if "superseded_by_serial" in f}
    found_pairs: set[tuple[int, int]] = set()
    for result in results:
        for old in result.retired:
            found_pairs.add((serial_of[old], serial_of[result.added[0]]))
    true_pos = len(found_pairs & gold_pairs)

    correct = stale = 0
    for q in questions:
        belief = bg.current(ns, q["subject"], q["relation"])
        assert not isinstance(belief, list)
        answer = normalize_key(belief.object or "") if isinstance(belief, Claim) else None
        if answer in {normalize_key(g) for g in q["gold"]}:
            correct += 1
        if answer in {normalize_key(s) for s in q.get("stale_values", [])}:
            stale += 1

    pit_correct = 0
    for p in probes:
        then = bg.as_of(ns, p["subject"], p["relation"], valid_at=at(p["as_of_serial"]),
                        known_at=at(p["as_of_serial"]))
        assert not isinstance(then, list)
        if isinstance(then, Claim) and normalize_key(then.object or "") == normalize_key(p["expected"]):
            pit_correct += 1

    report(
        "FactConsolidation 6K, structured mode",
        {
            "facts written": len(facts),
            "single-hop accuracy": f"{correct}/{len(questions)}",
            "stale answers returned": stale,
            "supersession precision": round(true_pos / len(found_pairs), 4) if found_pairs else None,
            "supersession recall": round(true_pos / len(gold_pairs), 4),
            "supersessions found / gold": f"{len(found_pairs)}/{len(gold_pairs)}",
            "point-in-time accuracy": f"{pit_correct}/{len(probes)}",
            "namespace": ns,
        },
        args.json,
    )
    bg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
