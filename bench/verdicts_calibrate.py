"""Which paraphrase similarity threshold labels the calibration pairs best?

Calibrates ``Policy.paraphrase_similarity`` on the calibration half of data/verdicts only.

The threshold decides one question: is a sentence about the same subject under another relation
a restatement (SAME) or not? The pairs that ask it are the calibration pairs whose two sentences
``identity.parse`` reads with one subject and two different relations. For each threshold the
script counts how many of them the rule "similarity ≥ threshold → SAME" labels right, with the
offline embedder (no database, no classifier).

    python -m bench verdicts_calibrate [--split calibration|held_out] [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from belief_graph.detect import cosine
from belief_graph.identity import parse
from belief_graph.testing.offline import offline_embedder
from belief_graph.vocabulary import Vocabulary, normalize_key

DATA = Path(__file__).resolve().parents[1] / "data" / "verdicts" / "pairs.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=["calibration", "held_out"], default="calibration")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    vocabulary = Vocabulary.default()
    pairs = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    asked = []
    for pair in pairs:
        if pair["split"] != args.split:
            continue
        a, b = parse(pair["first"]["text"]), parse(pair["second"]["text"])
        if a is None or b is None or normalize_key(a.subject) != normalize_key(b.subject):
            continue
        if vocabulary.canonical(a.relation) == vocabulary.canonical(b.relation):
            continue
        asked.append(pair)
    embedder = offline_embedder()
    vectors = embedder.embed([t for p in asked for t in (p["first"]["text"], p["second"]["text"])])
    rows = [
        (cosine(vectors[2 * i], vectors[2 * i + 1]), p["expected"] == "SAME", p["id"])
        for i, p in enumerate(asked)
    ]
    sweep = []
    for step in range(70, 100):
        threshold = step / 100
        right = sum((sim >= threshold) == same for sim, same, _ in rows)
        sweep.append({"threshold": threshold, "right": right, "of": len(rows)})
    best = max(sweep, key=lambda r: (r["right"], -abs(r["threshold"] - 0.85)))
    result = {
        "split": args.split,
        "pairs asked": len(rows),
        "pairs": [
            {"id": i, "similarity": round(s, 3), "same": same} for s, same, i in sorted(rows)
        ],
        "best": best,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for r in result["pairs"]:
            print(f"  {r['id']}  {r['similarity']:.3f}  {'SAME' if r['same'] else 'not same'}")
        print(f"best threshold {best['threshold']}: {best['right']}/{best['of']} right")
    return 0
