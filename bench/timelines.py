"""Told in plain sentences, do values that changed several times come back current, not stale?

Timelines: facts whose value changes several times, told in plain sentences (text only, no
subject, predicate or object given), then asked about. Does retrieval answer with the current
value, and do the values it replaced come back?

``data/timelines/timelines.jsonl`` holds 60 timelines written for this benchmark, in 12 groups (a
person, a household, a project, a team): each group is one namespace, its sentences told in
turn (the first value of every fact, then the second, ...), one minute apart, so a question
meets the group's other facts as neighbours. Each timeline is assigned to the calibration or
the held-out half by a hash of its id; both halves share their groups' namespaces, and each
half is scored on its own questions.

For each question (``search(question, k=5)``, current beliefs only) and, as the baseline,
plain top-5 retrieval over every sentence ever told with the same embedder (cosine):

- **answered**: the first hit names the current value;
- **resurfaced**: of the values the timeline replaced, the share that a top-5 hit names (with
  the group's name, and without the current value: "moved from Porto to Berlin" is the
  current value, not Porto resurfacing).

    python -m bench timelines [--split held_out|calibration|all] [--json] [--errors]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from belief_graph import HistoricalDraft
from belief_graph.detect import Detector, cosine
from belief_graph.vocabulary import normalize_key
from bench.common import connect, report

DATA = Path(__file__).resolve().parents[1] / "data" / "timelines" / "timelines.jsonl"
BASE = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
K = 5


def half(item_id: str) -> str:
    """The half a timeline belongs to, by a hash of its id alone."""
    return "calibration" if hashlib.sha256(item_id.encode()).digest()[0] % 2 == 0 else "held_out"


def names(text: str, value: str) -> bool:
    """Whether ``text`` names ``value`` as a whole word or phrase ("4" is not in "40")."""
    return (
        re.search(rf"(?<!\w){re.escape(normalize_key(value))}(?!\w)", normalize_key(text))
        is not None
    )


def told(timelines: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """A group's sentences in the order they are told: every fact's first value, then every
    fact's second, and so on."""
    longest = max(len(t["steps"]) for t in timelines)
    return [(t, i) for i in range(longest) for t in timelines if i < len(t["steps"])]


def score(timeline: dict[str, Any], texts: list[str]) -> dict[str, Any]:
    """What the top hits ``texts`` say about one timeline's question."""
    values = [s["value"] for s in timeline["steps"]]
    current = values[-1]
    replaced = [v for v in dict.fromkeys(values[:-1]) if normalize_key(v) != normalize_key(current)]
    group = timeline["group"]
    back = [
        v
        for v in replaced
        if any(
            group in normalize_key(text) and names(text, v) and not names(text, current)
            for text in texts[:K]
        )
    ]
    return {
        "answered": bool(texts) and names(texts[0], current),
        "replaced": len(replaced),
        "resurfaced": back,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=["held_out", "calibration", "all"], default="held_out")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--errors", action="store_true", help="print each miss")
    args = parser.parse_args()
    timelines = [
        {**t, "split": half(t["id"])}
        for t in (
            json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line
        )
    ]
    from belief_graph.testing.offline import offline_embedder, offline_scorer

    embedder = offline_embedder()
    bg = connect(detector=Detector(embedder, offline_scorer(dynamic_length=True)))
    stamp = f"{datetime.now(UTC):%Y%m%d%H%M%S}"
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for t in timelines:
        groups[t["group"]].append(t)

    results: dict[str, list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]] = {}
    started = time.perf_counter()
    for group, members in groups.items():
        ns = f"bench:timelines-{stamp}:{group}"
        order = told(members)
        # History, each step learned a minute after the one before (the order it was told).
        drafts = [
            HistoricalDraft(
                namespace=ns,
                text=t["steps"][i]["text"],
                valid_from=BASE + timedelta(minutes=n),
                recorded_at=BASE + timedelta(minutes=n),
            )
            for n, (t, i) in enumerate(order)
        ]
        bg.import_history(drafts, actor="bench", batch_size=50)
        said = [t["steps"][i]["text"] for t, i in order]
        vectors = embedder.embed(said)
        for t in members:
            if args.split not in ("all", t["split"]):
                continue
            hits = [h.claim.text or "" for h in bg.search(t["question"], ns, k=K)]
            asked = embedder.embed([t["question"]])[0]
            ranked = sorted(range(len(said)), key=lambda j: -cosine(asked, vectors[j]))
            plain = [said[j] for j in ranked[:K]]
            results.setdefault(t["split"], []).append(
                (t, score(t, hits) | {"hits": hits}, score(t, plain) | {"hits": plain})
            )
    seconds = time.perf_counter() - started

    figures: dict[str, Any] = {}
    for split, rows in sorted(results.items()):
        for name, column in (("engine", 1), ("plain top-5", 2)):
            replaced = sum(r[column]["replaced"] for r in rows)
            back = sum(len(r[column]["resurfaced"]) for r in rows)
            answered = sum(r[column]["answered"] for r in rows)
            figures[f"{split}: {name}"] = (
                f"answered with the current value {answered}/{len(rows)} "
                f"({answered / len(rows):.2f}); replaced values in the top {K} "
                f"{back}/{replaced} ({back / replaced:.2f})"
            )
    figures["timelines / groups"] = f"{len(timelines)} / {len(groups)}"
    figures["seconds"] = round(seconds, 1)
    report(f"Timelines ({args.split})", figures, args.json)
    if args.errors:
        for split, rows in sorted(results.items()):
            for t, engine, _ in rows:
                if engine["resurfaced"] or not engine["answered"]:
                    print(
                        json.dumps(
                            {
                                "id": t["id"],
                                "split": split,
                                "question": t["question"],
                                "resurfaced": engine["resurfaced"],
                                "answered": engine["answered"],
                                "hits": engine["hits"],
                            },
                            ensure_ascii=False,
                        )
                    )
    bg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
