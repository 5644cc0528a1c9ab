"""What does a turn of conversation cost through observe?

What a turn of conversation costs through ``observe``: the offline rule extractor and both
offline models (the agent's path from what was said to claims), turns that state one fact and
turns that state three, taking turns, in a fresh namespace. The first ``--turns // 6`` of each
kind are not counted.

    NEO4J_URI=bolt://127.0.0.1:7687 python -m bench observe --turns 120
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime, timedelta

from belief_graph.detect import Detector
from belief_graph.extraction import RuleExtractor
from belief_graph.testing.factories import episode
from belief_graph.testing.offline import offline_embedder, offline_scorer
from bench.common import connect, report, summary

TURNS = {
    "one fact": (
        "I live in Lisbon.",
        "I work at Globex now.",
        "I am allergic to peanuts.",
        "I live in Munich now.",
    ),
    "three facts": (
        "I live in Lisbon. I work at Acme. I speak French.",
        "I moved to Berlin. I work at Globex now. I am allergic to peanuts.",
        "I speak German. I live in Munich now. I work at Initech.",
        "I am allergic to shellfish. I live in Rome now. I work at Acme again.",
    ),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=120, help="turns of each kind")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect(detector=Detector(offline_embedder(), offline_scorer()))
    ns = f"bench:observe:{datetime.now(UTC):%Y%m%d%H%M%S}"
    extractor = RuleExtractor()
    at = datetime(2026, 1, 1, tzinfo=UTC)
    timings: dict[str, list[float]] = {kind: [] for kind in TURNS}
    proposals: dict[str, int] = dict.fromkeys(TURNS, 0)
    for i in range(args.turns):
        for kind, texts in TURNS.items():
            at += timedelta(hours=1)
            said = episode(texts[i % len(texts)], at=at, speaker=f"user{i % 15}")
            start = time.perf_counter()
            seen = bg.observe(ns, said, extractor=extractor)
            timings[kind].append((time.perf_counter() - start) * 1000)
            proposals[kind] += len(seen.results)
    skip = args.turns // 6
    report(
        "observe, a turn (rule extractor, offline models)",
        {
            f"{kind} ({proposals[kind] / args.turns:.2f} written a turn)": summary(ms[skip:])
            for kind, ms in timings.items()
        },
        args.json,
    )
    bg.close()
    return 0
