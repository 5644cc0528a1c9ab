"""A models-on batch's neighbour read in two halves side by side (``Store.read_leader_split``)
against one statement, batch by batch in turns on one store.

Fills ``--claims`` engine drafts with their embeddings, then ingests ``--drafts`` more with both
offline models, ``--batch`` per call, alternating the two ways batch by batch (the split off:
``SPLIT_AT`` out of reach). Prints, per way, the neighbour read's time per draft and the drafts
per second of the whole ``ingest`` call (medians over batches, and overall).

    python bench/neighbours_split.py [--claims 10000] [--drafts 2000] [--batch 50] [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from _common import connect, report
from engine import BASE, drafts, offline_models

from belief_graph import store as store_module
from belief_graph.detect import Detector
from belief_graph.write import remember


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--drafts", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    embedder, scorer = offline_models()
    rng = random.Random(7)
    ns = f"bench:split:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)
    connect(detector=Detector(embedder)).ingest(
        drafts(ns, args.claims, subjects, rng), batch_size=250
    )
    print(f"filled {args.claims}", file=sys.stderr)
    bg = connect(detector=Detector(embedder, scorer))
    clock = BASE + timedelta(seconds=args.claims + 10)
    more = [
        d.model_copy(update={"valid_from": clock + timedelta(seconds=i), "recorded_at": None})
        for i, d in enumerate(drafts(ns, args.drafts, subjects, rng))
    ]
    ways = {"one statement": 10**9, "two halves side by side": store_module.SPLIT_AT}
    near_ms: dict[str, list[float]] = {way: [] for way in ways}
    rates: dict[str, list[float]] = {way: [] for way in ways}
    totals: dict[str, list[float]] = {way: [0.0, 0.0] for way in ways}  # drafts, seconds
    way = ""
    near = remember.Remember._near

    def timed(self: remember.Remember, lookups: Any) -> Any:
        began = time.perf_counter()
        try:
            return near(self, lookups)
        finally:
            spent = (time.perf_counter() - began) * 1000
            near_ms[way].append(spent / len(self.requests))

    remember.Remember._near = timed  # type: ignore[method-assign]
    split_at = store_module.SPLIT_AT
    try:
        for turn, start in enumerate(range(0, len(more), args.batch)):
            way = list(ways)[turn % 2]
            store_module.SPLIT_AT = ways[way]
            batch = more[start : start + args.batch]
            began = time.perf_counter()
            bg.ingest(batch, batch_size=args.batch)
            seconds = time.perf_counter() - began
            rates[way].append(len(batch) / seconds)
            totals[way][0] += len(batch)
            totals[way][1] += seconds
    finally:
        remember.Remember._near = near  # type: ignore[method-assign]
        store_module.SPLIT_AT = split_at
    for name in ways:
        report(
            f"ingest with models on, {args.batch} per call, neighbours read as {name}",
            {
                "batches": len(rates[name]),
                "neighbour read, ms per draft (median of batches)": round(
                    statistics.median(near_ms[name]), 2
                ),
                "drafts/s (median of batches)": round(statistics.median(rates[name]), 1),
                "drafts/s (overall)": round(totals[name][0] / totals[name][1], 1),
            },
            args.json,
        )
    bg.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
