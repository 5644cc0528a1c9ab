"""Does each pair and stream of data/verdicts get the verdict a user expects?

The verdict evaluation set (data/verdicts/): memory-style pairs and short claim streams,
written for this project, each labelled, split once into a calibration half and a held-out half.

Each pair is written to an empty namespace (first claim, then second) and the outcome the user
would see is read back:

- SAME: the second claim reinforced the first;
- UPDATE: the second replaced the first as the fact's one current value;
- CONFLICT: the second denies or ends the first (a negated claim retired it), or the
  contradiction is on record (the second waits as pending or was rejected, or a CONTRADICTS
  edge joins the two);
- NEW: both are current, nothing recorded between them.

A stream passes when the claims it expects current are current (a claim that was reinforced
into another counts through that one), those it expects ended are not, and the stream leaves the
expected number of distinct current claims.

Every item runs in two modes: ``structured`` (subject, predicate, object given where the item
has them) and ``text`` (the sentence only), each with models off and on (the offline embedder
and classifier). Thresholds are tuned on ``--split calibration`` only.

    python -m bench verdicts [--split held_out|calibration|all] [--mode structured|text|both]
                             [--models off|on|both] [--paraphrase-similarity X] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from belief_graph import BeliefGraph, ClaimDraft, Policy
from belief_graph.detect import Detector
from bench.common import connect, report

DATA = Path(__file__).resolve().parents[1] / "data" / "verdicts"
LABELS = ("SAME", "UPDATE", "CONFLICT", "NEW")


def load(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def draft(ns: str, item: dict[str, Any], structured: bool) -> ClaimDraft:
    fields: dict[str, Any] = {"namespace": ns, "text": item["text"]}
    if structured and "subject" in item:
        fields.update(subject=item["subject"], predicate=item["predicate"], object=item["object"])
        if "negated" in item:
            fields["negated"] = item["negated"]
    return ClaimDraft(**fields)


def outcome(bg: BeliefGraph, ns: str, first: str, result: Any) -> str:
    """The label a user would read off the store after the second claim."""
    if result.verdict == "SAME":
        return "SAME"
    second = result.claim_id
    if second is None:
        return "NEW"
    new = bg.get(ns, second)
    if new.status in ("pending", "rejected"):
        return "CONFLICT"
    if first in result.retired:
        return "CONFLICT" if new.negated else "UPDATE"
    between = any(
        {c.claim.id, c.rival.id} == {first, second} for c in bg.conflicts(ns, open_only=True)
    )
    return "CONFLICT" if between else "NEW"


def run_pairs(
    bg: BeliefGraph, run: str, pairs: list[dict[str, Any]], structured: bool
) -> list[tuple[dict[str, Any], str]]:
    observed = []
    for pair in pairs:
        ns = f"{run}:{pair['id']}"
        first = bg.remember(draft(ns, pair["first"], structured))
        assert first.claim_id is not None
        second = bg.remember(draft(ns, pair["second"], structured))
        observed.append((pair, outcome(bg, ns, first.claim_id, second)))
    return observed


def run_streams(
    bg: BeliefGraph, run: str, streams: list[dict[str, Any]], structured: bool
) -> list[tuple[dict[str, Any], bool]]:
    observed = []
    for stream in streams:
        ns = f"{run}:{stream['id']}"
        ids = []
        for item in stream["claims"]:
            result = bg.remember(draft(ns, item, structured))
            ids.append(result.claim_id or (result.reinforced[0] if result.reinforced else None))
        status = {i: bg.get(ns, i).status for i in set(ids) if i is not None}
        expect = stream["expect"]
        ok = (
            all(status.get(ids[i]) == "active" for i in expect["current"])
            and all(status.get(ids[i]) != "active" for i in expect["ended"])
            and sum(1 for s in status.values() if s == "active") == expect["count"]
        )
        observed.append((stream, ok))
    return observed


def scores(observed: list[tuple[dict[str, Any], str]]) -> dict[str, Any]:
    """Accuracy, and precision/recall per label, overall and per category."""

    def table(rows: list[tuple[dict[str, Any], str]]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": len(rows),
            "accuracy": round(sum(p["expected"] == o for p, o in rows) / len(rows), 3)
            if rows
            else None,
        }
        for label in LABELS:
            predicted = [p for p, o in rows if o == label]
            actual = [p for p, _ in rows if p["expected"] == label]
            hits = sum(1 for p, o in rows if o == label and p["expected"] == label)
            out[label] = {
                "precision": round(hits / len(predicted), 3) if predicted else None,
                "recall": round(hits / len(actual), 3) if actual else None,
                "support": len(actual),
            }
        return out

    by_category: dict[str, list[tuple[dict[str, Any], str]]] = defaultdict(list)
    for row in observed:
        by_category[row[0]["category"]].append(row)
    return {
        "all": table(observed),
        "categories": {c: table(rows) for c, rows in sorted(by_category.items())},
        "confusion": dict(
            Counter(f"{p['expected']}->{o}" for p, o in observed if p["expected"] != o)
        ),
        "errors": [
            f"{p['id']} {p['expected']}->{o}: {p['first']['text']} / {p['second']['text']}"
            for p, o in observed
            if p["expected"] != o
        ],
    }


def fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.2f}"


def print_side_by_side(title: str, results: dict[str, dict[str, Any]]) -> None:
    names = list(results)
    print(f"\n== {title}")
    header = f"{'category':<13}{'label':<10}" + "".join(f"{n:>16}" for n in names)
    print(header + "\n" + " " * 23 + "".join(f"{'P / R':>16}" for _ in names))
    categories = ["all", *sorted(next(iter(results.values()))["pairs"]["categories"])]
    for category in categories:
        for label in (*LABELS, "accuracy"):
            cells = []
            for name in names:
                t = results[name]["pairs"]
                t = t["all"] if category == "all" else t["categories"][category]
                if label == "accuracy":
                    cells.append(f"{fmt(t['accuracy']):>16}")
                elif t[label]["support"] == 0 and t[label]["precision"] is None:
                    continue
                else:
                    cell = f"{fmt(t[label]['precision'])} / {fmt(t[label]['recall'])}"
                    cells.append(f"{cell:>16}")
            if cells and len(cells) == len(names):
                print(f"{category:<13}{label:<10}" + "".join(cells))
    print(f"{'streams':<13}{'passed':<10}" + "".join(f"{results[n]['streams']:>16}" for n in names))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=["held_out", "calibration", "all"], default="held_out")
    parser.add_argument("--mode", choices=["structured", "text", "both"], default="both")
    parser.add_argument("--models", choices=["off", "on", "both"], default="both")
    parser.add_argument("--paraphrase-similarity", type=float, default=None)
    parser.add_argument("--contradiction-threshold", type=float, default=None)
    parser.add_argument("--errors", action="store_true", help="list the misjudged pairs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pairs = [p for p in load("pairs.jsonl") if args.split in ("all", p["split"])]
    streams = [s for s in load("streams.jsonl") if args.split in ("all", s["split"])]
    overrides: dict[str, float] = {}
    if args.paraphrase_similarity is not None:
        overrides["paraphrase_similarity"] = args.paraphrase_similarity
    if args.contradiction_threshold is not None:
        overrides["contradiction_threshold"] = args.contradiction_threshold
    policy = Policy(**overrides)

    base = connect()
    detectors: dict[str, Detector] = {}
    if args.models in ("off", "both"):
        detectors["off"] = Detector()
    if args.models in ("on", "both"):
        from belief_graph.testing.offline import offline_embedder, offline_scorer

        detectors["on"] = Detector(offline_embedder(), offline_scorer(dynamic_length=True))
    modes = ["structured", "text"] if args.mode == "both" else [args.mode]
    stamp = f"{datetime.now(UTC):%Y%m%d%H%M%S}"
    results: dict[str, dict[str, Any]] = {}
    for mode in modes:
        for models, detector in detectors.items():
            bg = BeliefGraph(base.store, policy=policy, detector=detector)
            run = f"bench:verdicts-{stamp}:{mode}:{models}"
            started = time.perf_counter()
            observed = run_pairs(bg, run, pairs, mode == "structured")
            passed = run_streams(bg, run, streams, mode == "structured")
            results[f"{mode}/models {models}"] = {
                "pairs": scores(observed),
                "streams": f"{sum(ok for _, ok in passed)}/{len(passed)}",
                "failed_streams": [s["id"] + " " + s["template"] for s, ok in passed if not ok],
                "seconds": round(time.perf_counter() - started, 1),
            }
            took = time.perf_counter() - started
            done = results[f"{mode}/models {models}"]
            print(
                f"  {mode}/models {models}: {took:.0f} s, pair accuracy "
                f"{done['pairs']['all']['accuracy']}, streams {done['streams']}",
                file=sys.stderr,
            )
    base.close()
    title = f"Verdicts, {args.split} split ({len(pairs)} pairs, {len(streams)} streams)"
    if args.json:
        report(title, {"policy": overrides, "results": results}, True)
        return 0
    print_side_by_side(title, results)
    if args.errors:
        for name, r in results.items():
            print(f"\n-- {name}: misjudged pairs")
            for line in r["pairs"]["errors"]:
                print("  " + line)
            for line in r["failed_streams"]:
                print("  stream " + line)
    return 0
