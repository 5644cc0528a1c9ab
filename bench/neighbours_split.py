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
import statistics
import time
from typing import Any

from _common import report
from engine import filled_with_models

from belief_graph import store as store_module
from belief_graph.write import remember


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--drafts", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg, more = filled_with_models("split", args.claims, args.drafts)
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
