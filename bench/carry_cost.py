"""What carrying the state costs a write whose fact does not come again.

A client that carries its writes' state (``Writer.carry``, on by default) keeps a copy of each
slot it wrote after the commit; a structural ``remember`` of a random fact gains nothing from
it. Ingests ``--claims`` drafts (as bench/engine.py does), then times ``remember`` of random
facts with the carried state on and off, call by call in turn (the first 100 of each not
counted), and prints p50 / p95 of each and their ratio.

    python bench/carry_cost.py [--claims 20000] [--samples 700] [--json]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta

from _common import connect, report, summary
from engine import BASE, drafts, random_fact

WARM_UP = 100


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=700)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    bg = connect()
    ns = f"bench:carry:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)
    bg.ingest(drafts(ns, args.claims, subjects, rng), batch_size=1000)
    clock = BASE + timedelta(seconds=args.claims + 10)
    times: dict[bool, list[float]] = {True: [], False: []}
    for i in range(2 * (args.samples + WARM_UP)):
        carry = i % 2 == 0
        bg._writer.carry = carry
        clock += timedelta(seconds=1)
        draft = random_fact(ns, subjects, rng, clock, i)
        started = time.perf_counter()
        bg.remember(draft)
        if i >= 2 * WARM_UP:
            times[carry].append((time.perf_counter() - started) * 1000)
    on, off = summary(times[True]), summary(times[False])
    for carry, figures in ((True, on), (False, off)):
        title = f"remember of a random fact, carried state {'on' if carry else 'off'}"
        report(f"{title}, at {args.claims} stored drafts", figures, args.json)
    report(
        "on / off",
        {
            "p50": round(on["p50_ms"] / off["p50_ms"], 3),
            "p95": round(on["p95_ms"] / off["p95_ms"], 3),
        },
        args.json,
    )
    bg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
