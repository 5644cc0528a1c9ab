"""Do other tenants' data slow one namespace's calls?

What other tenants' data costs one namespace's calls: a namespace's reads should grow with the
namespace, not with the database.

Fills ``--others`` structural drafts into another namespace (the other tenants), then in a
fresh namespace times ``--turns`` turns of ``observe`` (the offline rule extractor, both
offline models: the agent's path from conversation to claims) and as many ``subjects`` calls
(what ``observe`` hands the extractor to match names against). The first ``--turns // 6`` of
each are not counted.

    NEO4J_URI=bolt://127.0.0.1:7687 python -m bench other_tenants --others 200000
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import UTC, datetime, timedelta

from belief_graph.detect import Detector
from belief_graph.extraction import RuleExtractor
from belief_graph.testing.factories import episode
from belief_graph.testing.offline import offline_embedder, offline_scorer
from bench.common import connect, report, summary
from bench.data import drafts

TURNS = (
    "I live in Lisbon and I work at Acme. My sister lives in Porto.",
    "I moved to Berlin last month. I work at Globex now.",
    "I am allergic to peanuts and I speak French.",
    "I live in Munich now and my sister lives in Rome.",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--others", type=int, default=200_000, help="drafts of other tenants")
    parser.add_argument("--turns", type=int, default=120)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    stamp = f"{datetime.now(UTC):%Y%m%d%H%M%S}"
    fill = connect()
    fill.ingest(
        drafts(f"bench:others:{stamp}", args.others, max(1, args.others // 2), random.Random(9)),
        batch_size=1000,
    )
    slots = fill.store.run_literal("MATCH (s:Slot) RETURN count(s) AS n")[0]["n"]
    fill.close()
    bg = connect(detector=Detector(offline_embedder(), offline_scorer()))
    ns = f"bench:tenant:{stamp}"
    extractor = RuleExtractor()
    at = datetime(2026, 1, 1, tzinfo=UTC)
    observed: list[float] = []
    listed: list[float] = []
    for i in range(args.turns):
        at += timedelta(hours=1)
        said = episode(TURNS[i % len(TURNS)], at=at, speaker=f"user{i % 15}")
        start = time.perf_counter()
        bg.observe(ns, said, extractor=extractor)
        observed.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        bg.subjects(ns)
        listed.append((time.perf_counter() - start) * 1000)
    skip = args.turns // 6
    report(
        f"one namespace's calls, {slots} slots in the database ({args.others} drafts elsewhere)",
        {
            "observe, a turn (rules, offline models)": summary(observed[skip:]),
            "subjects": summary(listed[skip:]),
        },
        args.json,
    )
    bg.close()
    return 0
