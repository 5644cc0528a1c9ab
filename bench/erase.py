"""How long does erasing a whole namespace take, and does its last batch cost what its first did?

``--claims`` facts of people (``belief_graph.testing.factories.people``: three facts each, so
most drafts make a version; every tenth with a provenance episode, every fiftieth text-only),
the namespace of the 50,000-claim erase test, are ingested, then the namespace is erased in
one call. Prints the erase's seconds and each step's batches (claims, facts, revisions): how
many, the median and p95 seconds of a batch, and the median of its first and last tenth (equal
when a batch's cost does not grow with what the erase has done before it).

    python -m bench erase [--claims 50000] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime

from belief_graph.policy import Policy
from belief_graph.testing.factories import people
from bench.common import connect, percentile, report, stopwatch


def batches(seconds: list[float]) -> dict[str, float | int]:
    tenth = max(1, len(seconds) // 10)
    return {
        "batches": len(seconds),
        "p50_s": round(statistics.median(seconds), 3),
        "p95_s": round(percentile(seconds, 0.95), 3),
        "first tenth p50_s": round(statistics.median(seconds[:tenth]), 3),
        "last tenth p50_s": round(statistics.median(seconds[-tenth:]), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=50_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    ns = f"bench:erase:{datetime.now(UTC):%Y%m%d%H%M%S}"
    bg = connect(policy=Policy(preset="recency"))
    with stopwatch() as ingested:
        bg.ingest(people(ns, args.claims), batch_size=5_000)
    steps: dict[str, list[float]] = {}
    last = [time.perf_counter()]

    def progress(step: str, done: int) -> None:
        now = time.perf_counter()
        steps.setdefault(step, []).append(now - last[0])
        last[0] = now

    with stopwatch() as erased:
        result = bg.erase(ns, progress=progress)
    assert result.erasure is not None
    report(
        f"erase of a namespace of {args.claims} claims, one call",
        {
            "ingest s": round(ingested[0], 1),
            "erase s": round(erased[0], 1),
            "claims erased": result.erasure.claims,
            "facts tombstoned": result.erasure.facts,
            **{step: batches(seconds) for step, seconds in steps.items()},
        },
        args.json,
    )
    bg.close()
    return 0
