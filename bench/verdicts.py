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

``classes.jsonl`` holds the items written for issue #60's classes, each in a category of its
own, split into halves by a hash of its id (never by hand): ``polarity`` (a structured claim's
polarity from what its sentence says about its object), ``relations`` (a phrase's sense by its
subject and object), ``forms`` (one value however it is worded), ``flags`` (the contradiction
flag on denials, not on ordinary updates: both rates are reported), ``compatible`` (compatible
facts of one subject are not conflicts: the false-contradiction rate is reported, beside the
pairs that cannot both hold), ``late_facts`` and ``promotion`` (timelines on a clock: what
``as_of`` answers after late, corrected or promoted claims), and ``visible`` (the claims a
belief names as contradicted, and ``conflicts`` listing them). An item passes when every
outcome it expects is seen; ``modes`` says which modes it runs in.

    python -m bench verdicts [--split held_out|calibration|all] [--mode structured|text|both]
                             [--models off|on|both] [--set original|classes|both]
                             [--paraphrase-similarity X] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from belief_graph import BeliefGraph, Claim, ClaimDraft, ConflictError, Policy
from belief_graph.detect import Detector
from belief_graph.testing.factories import Clock
from bench.common import connect, report

DATA = Path(__file__).resolve().parents[1] / "data" / "verdicts"
LABELS = ("SAME", "UPDATE", "CONFLICT", "NEW")


def load(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def half(item_id: str) -> str:
    """The half an item of ``classes.jsonl`` belongs to, by a hash of its id alone."""
    return "calibration" if hashlib.sha256(item_id.encode()).digest()[0] % 2 == 0 else "held_out"


def load_classes(split: str) -> list[dict[str, Any]]:
    items = [{**item, "split": half(item["id"])} for item in load("classes.jsonl")]
    return [i for i in items if split in ("all", i["split"])]


def draft(ns: str, item: dict[str, Any], structured: bool, **extra: Any) -> ClaimDraft:
    fields: dict[str, Any] = {"namespace": ns, "text": item["text"], **extra}
    if structured and "subject" in item:
        fields.update(subject=item["subject"], predicate=item["predicate"], object=item["object"])
        if "negated" in item:
            fields["negated"] = item["negated"]
    if "correction" in item:
        fields["correction"] = item["correction"]
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


# -- issue #60's classes ------------------------------------------------------------------------


def moment(day: str) -> datetime:
    """A day at noon (UTC), or the time it names."""
    at = datetime.fromisoformat(day)
    return (at if "T" in day else at.replace(hour=12)).replace(tzinfo=UTC)


def run_class_pair(
    bg: BeliefGraph, ns: str, item: dict[str, Any], structured: bool
) -> tuple[bool, dict[str, Any]]:
    """A pair of ``classes.jsonl``: its label as ``outcome`` reads it and, for ``flags``, the
    contradiction flag on the second claim."""
    first = bg.remember(draft(ns, item["first"], structured))
    assert first.claim_id is not None
    second = bg.remember(draft(ns, item["second"], structured))
    seen = {"label": outcome(bg, ns, first.claim_id, second)}
    if "flag" in item:
        claim = bg.get(ns, second.claim_id) if second.claim_id else None
        seen["flag"] = bool(claim and claim.contradiction and second.verdict != "SAME")
    ok = seen["label"] == item["expected"] and seen.get("flag", item.get("flag")) == item.get(
        "flag"
    )
    return ok, seen


def run_timeline(
    base: BeliefGraph, ns: str, item: dict[str, Any], detector: Detector, policy: Policy
) -> tuple[bool, dict[str, Any]]:
    """A timeline: each step on the clock (a claim, or the promotion of an earlier step's
    claim), then ``as_of`` at each check. Passes when every refusal, decision and answer is
    the one expected."""
    clock = Clock(moment(item["steps"][0]["at"]))
    bg = BeliefGraph(base.store, policy=policy, detector=detector, clock=clock)
    added: list[str | None] = []
    problems: list[str] = []
    for i, step in enumerate(item["steps"]):
        clock.set(moment(step["at"]))
        if "promote" in step:
            target = added[step["promote"]]
            assert target is not None
            result = bg.promote(ns, target, by=step["by"], actor="lead", origin=step.get("origin"))
            added.append(result.claim_id)
            continue
        fields: dict[str, Any] = {
            k: moment(step[k]) for k in ("valid_from", "valid_to") if k in step
        }
        for key in ("correction", "episode_id"):
            if key in step:
                fields[key] = step[key]
        claim = {"text": step["text"], "subject": item["subject"], "predicate": item["predicate"]}
        claim["object"] = step["object"]
        try:
            result = bg.remember(draft(ns, claim, True, **fields))
        except ConflictError:
            added.append(None)
            if not step.get("refused"):
                problems.append(f"step {i} refused")
            continue
        added.append(result.claim_id)
        if step.get("refused"):
            problems.append(f"step {i} accepted")
        if "expect" in step and result.decision != step["expect"]:
            problems.append(f"step {i} {result.decision}")
    for check in item["checks"]:
        found = bg.as_of(
            ns,
            item["subject"],
            item["predicate"],
            valid_at=moment(check["valid_at"]),
            known_at=moment(check["known_at"]) if "known_at" in check else None,
        )
        value = found.object if isinstance(found, Claim) else None
        if value != check["expect"] or (
            "kind" in check and isinstance(found, Claim) and found.kind != check["kind"]
        ):
            problems.append(f"as_of {check} -> {value}")
    return not problems, {"problems": problems}


def run_visible(
    bg: BeliefGraph, ns: str, item: dict[str, Any], structured: bool
) -> tuple[bool, dict[str, Any]]:
    """A stream whose last claim must name, as contradicted, exactly the claims ``names``
    lists (by index), in every read and in ``conflicts``."""
    ids = []
    for claim in item["claims"]:
        result = bg.remember(draft(ns, claim, structured))
        ids.append(result.claim_id)
    last = ids[-1]
    assert last is not None
    wanted = sorted(ids[i] or "" for i in item["names"])
    named = sorted(c.id for c in bg.get(ns, last).contradicts)
    listed = sorted(
        k.rival.id for k in bg.conflicts(ns) if k.claim.id == last and k.resolution is not None
    )
    return named == wanted and listed == wanted, {"named": len(named)}


def run_classes(
    base: BeliefGraph,
    run: str,
    items: list[dict[str, Any]],
    mode: str,
    detector: Detector,
    policy: Policy,
) -> list[tuple[dict[str, Any], bool, dict[str, Any]]]:
    bg = BeliefGraph(base.store, policy=policy, detector=detector)
    out = []
    for item in items:
        if mode not in item["modes"]:
            continue
        ns = f"{run}:{item['id']}"
        structured = mode == "structured"
        if item["kind"] == "pair":
            ok, seen = run_class_pair(bg, ns, item, structured)
        elif item["kind"] == "timeline":
            ok, seen = run_timeline(base, ns, item, detector, policy)
        else:
            ok, seen = run_visible(bg, ns, item, structured)
        out.append((item, ok, seen))
    return out


def class_table(observed: list[tuple[dict[str, Any], bool, dict[str, Any]]]) -> dict[str, Any]:
    """Per category and half: items passed; for ``flags`` the flag rate on real contradictions
    and on ordinary updates; for ``compatible`` how many compatible pairs were called a
    conflict, and how many pairs that cannot both hold were recorded."""
    table: dict[str, Any] = {}
    for (category, split), rows in sorted(
        _grouped(observed, lambda i: (i["category"], i["split"])).items()
    ):
        cell: dict[str, Any] = {"passed": f"{sum(ok for _, ok, _ in rows)}/{len(rows)}"}
        if category == "flags":
            for name, want in (("flag on contradictions", True), ("flag on updates", False)):
                group = [seen for item, _, seen in rows if item["flag"] is want]
                flagged = sum(bool(seen.get("flag")) for seen in group)
                cell[name] = f"{flagged}/{len(group)}"
        if category == "compatible":
            for name, want in (("called a conflict", "NEW"), ("conflict recorded", "CONFLICT")):
                group = [seen for item, _, seen in rows if item["expected"] == want]
                hits = sum(seen["label"] == "CONFLICT" for seen in group)
                cell[name] = f"{hits}/{len(group)}"
        cell["failed"] = [
            f"{item['id']} {seen}" for item, ok, seen in rows if not ok and "problems" not in seen
        ] + [
            f"{item['id']} {seen['problems']}"
            for item, ok, seen in rows
            if not ok and "problems" in seen
        ]
        table[f"{category}/{split}"] = cell
    return table


def _grouped(rows: list[Any], key: Any) -> dict[Any, list[Any]]:
    out: dict[Any, list[Any]] = defaultdict(list)
    for row in rows:
        out[key(row[0])].append(row)
    return out


def print_classes(title: str, results: dict[str, dict[str, Any]], errors: bool) -> None:
    names = list(results)
    print(f"\n== {title}")
    print(f"{'category/half':<24}{'':<24}" + "".join(f"{n:>22}" for n in names))
    keys = sorted({k for r in results.values() for k in r})
    for key in keys:
        fields = [f for f in next(r[key] for r in results.values() if key in r) if f != "failed"]
        for field in fields:
            cells = [str(results[n].get(key, {}).get(field, "-")) for n in names]
            print(f"{key:<24}{field:<24}" + "".join(f"{c:>22}" for c in cells))
    if errors:
        for name, r in results.items():
            failed = [line for cell in r.values() for line in cell["failed"]]
            if failed:
                print(f"\n-- {name}: failed class items")
                for line in failed:
                    print("  " + line)


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
    parser.add_argument("--set", choices=["original", "classes", "both"], default="both")
    parser.add_argument("--paraphrase-similarity", type=float, default=None)
    parser.add_argument("--contradiction-threshold", type=float, default=None)
    parser.add_argument("--apart-contradiction-threshold", type=float, default=None)
    parser.add_argument("--errors", action="store_true", help="list the misjudged pairs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    original = args.set in ("original", "both")
    pairs = (
        [p for p in load("pairs.jsonl") if args.split in ("all", p["split"])] if original else []
    )
    streams = (
        [s for s in load("streams.jsonl") if args.split in ("all", s["split"])] if original else []
    )
    classes = load_classes(args.split) if args.set in ("classes", "both") else []
    overrides: dict[str, float] = {}
    if args.paraphrase_similarity is not None:
        overrides["paraphrase_similarity"] = args.paraphrase_similarity
    if args.contradiction_threshold is not None:
        overrides["contradiction_threshold"] = args.contradiction_threshold
    if args.apart_contradiction_threshold is not None:
        overrides["apart_contradiction_threshold"] = args.apart_contradiction_threshold
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
    class_results: dict[str, dict[str, Any]] = {}
    for mode in modes:
        for models, detector in detectors.items():
            bg = BeliefGraph(base.store, policy=policy, detector=detector)
            run = f"bench:verdicts-{stamp}:{mode}:{models}"
            started = time.perf_counter()
            name = f"{mode}/models {models}"
            if original:
                observed = run_pairs(bg, run, pairs, mode == "structured")
                passed = run_streams(bg, run, streams, mode == "structured")
                results[name] = {
                    "pairs": scores(observed),
                    "streams": f"{sum(ok for _, ok in passed)}/{len(passed)}",
                    "failed_streams": [s["id"] + " " + s["template"] for s, ok in passed if not ok],
                    "seconds": round(time.perf_counter() - started, 1),
                }
            if classes:
                class_results[name] = class_table(
                    run_classes(base, f"{run}:c", classes, mode, detector, policy)
                )
            took = time.perf_counter() - started
            done = results.get(name)
            print(
                f"  {name}: {took:.0f} s"
                + (
                    f", pair accuracy {done['pairs']['all']['accuracy']}, streams {done['streams']}"
                    if done
                    else ""
                ),
                file=sys.stderr,
            )
    base.close()
    title = f"Verdicts, {args.split} split ({len(pairs)} pairs, {len(streams)} streams)"
    classes_title = f"Issue #60 classes, {args.split} split ({len(classes)} items)"
    if args.json:
        report(title, {"policy": overrides, "results": results, "classes": class_results}, True)
        return 0
    if classes:
        print_classes(classes_title, class_results, args.errors)
    if not original:
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
