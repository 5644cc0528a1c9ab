"""What a read of a short fact pays for the indexes of a fact's claims: ``current`` and
``as_of`` of random facts of ``bench/_common.ReadLoad`` (about two claims a fact) three ways
call by call in turns on one server: every fact walked (the way before 2026-12-04), every fact
read by index, and the engine's way (a fact of up to ``WALK_UP_TO`` claims walked, a longer
one by index). The three answer alike (checked on every call). A long-lived fact's reads:
``bench/long_history.py``.

    python bench/fact_reads.py [--claims 20000] [--calls 2000] [--json]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime

from _common import ReadLoad, connect, report, summary

from belief_graph import BeliefGraph
from belief_graph.write.state import WALK_UP_TO

WAYS = {"walked": 10**9, "by index": 0, f"walked up to {WALK_UP_TO} claims": WALK_UP_TO}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=20_000)
    parser.add_argument("--calls", type=int, default=2_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect()
    load = ReadLoad(bg, f"bench:fact-reads:{datetime.now(UTC):%Y%m%d%H%M%S}", args.claims)
    clients = {}
    for way, walk_up_to in WAYS.items():
        client = BeliefGraph(bg.store)
        client._writer.walk_up_to = walk_up_to
        clients[way] = client
    times: dict[tuple[str, str], list[float]] = {}
    rng = random.Random(11)
    for i in range(args.calls):
        for read in ("current", "as_of"):
            state, answers = rng.getstate(), []
            order = list(WAYS)[i % 3 :] + list(WAYS)[: i % 3]
            for way in order:
                rng.setstate(state)
                load.bg = clients[way]
                started = time.perf_counter()
                answers.append(getattr(load, read)(rng))
                elapsed = (time.perf_counter() - started) * 1000
                if i >= 50:  # the first calls warm the plans
                    times.setdefault((read, way), []).append(elapsed)
            assert all(a == answers[0] for a in answers), (read, answers)
    for read in ("current", "as_of"):
        rows = {}
        for way in WAYS:
            s = summary(times[(read, way)])
            rows[f"{way} (p50 / p95 ms)"] = f"{s['p50_ms']:.3f} / {s['p95_ms']:.3f}"
        report(f"{read} of a random fact at {args.claims} claims", rows, args.json)
    bg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
