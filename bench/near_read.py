"""A single draft's neighbour look-up inside its state read, against on its own before it.

With the models on, ``remember`` looks up the slots of the claims nearest to the draft's
embedding (write/neighbours) and reads the state of its slot and of those; a single draft's
look-up now rides with the state read (one round trip fewer), where a batch's still runs on its
own, in halves side by side. Stores ``--claims`` drafts with their embeddings (the offline
embedder, no contradiction model: a fast fill), then times ``remember`` of random facts with
both offline models, the look-up folded and on its own, call by call in turn (the first 50 of
each not counted), and prints p50 / p95 of each and their ratio.

    python bench/near_read.py [--claims 20000] [--samples 300] [--json]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta

from _common import connect, report, summary
from engine import BASE, drafts, offline_models, random_fact

from belief_graph.detect import Detector
from belief_graph.write import remember

WARM_UP = 50


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    embedder, scorer = offline_models()
    fill = connect(detector=Detector(embedder))
    ns = f"bench:near:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)
    fill.ingest(drafts(ns, args.claims, subjects, rng), batch_size=250)
    bg = connect(detector=Detector(embedder, scorer))
    clock = BASE + timedelta(seconds=args.claims + 10)
    rides_up_to = remember.RIDES_UP_TO
    ways = {"folded into the state read": rides_up_to, "on its own": 0}
    times: dict[str, list[float]] = {way: [] for way in ways}
    try:
        for i in range(2 * (args.samples + WARM_UP)):
            way = list(ways)[i % 2]
            remember.RIDES_UP_TO = ways[way]
            clock += timedelta(seconds=1)
            draft = random_fact(ns, subjects, rng, clock, i)
            started = time.perf_counter()
            bg.remember(draft)
            if i >= 2 * WARM_UP:
                times[way].append((time.perf_counter() - started) * 1000)
    finally:
        remember.RIDES_UP_TO = rides_up_to
    figures = {way: summary(t) for way, t in times.items()}
    for way, f in figures.items():
        title = f"remember, models on, a random fact, the neighbour look-up {way}"
        report(f"{title}, at {args.claims} stored drafts", f, args.json)
    folded, alone = figures.values()
    report(
        "folded / on its own",
        {
            "p50": round(folded["p50_ms"] / alone["p50_ms"], 3),
            "p95": round(folded["p95_ms"] / alone["p95_ms"], 3),
        },
        args.json,
    )
    fill.close()
    bg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
