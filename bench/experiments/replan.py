"""What does a write pay when Neo4j plans the write path again as the data grows?

What a growing database costs a write when Neo4j plans the write path again: the statements
as shipped (planned once, ``CYPHER replan=skip``) against the same statements without that line,
which Neo4j plans again once their plan is older than ``dbms.cypher.min_replan_interval`` (10 s)
and the statistics moved enough (a fourfold growth at first, 10 % after 7 hours).

One process, one server: the database grows fivefold between rounds, then the two variants
write in turns call by call, ``--samples`` + 1 writes each; the first of each is the write that
finds its plan stale. Figures in ms.

    python -m bench replan --rounds 3 --samples 30 [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from belief_graph import cypher
from belief_graph import store as store_module
from bench.common import connect, report
from bench.data import drafts

SHIPPED, REPLANNED = "planned once (shipped)", "planned again (without the line)"
_sent = store_module._unlogged


def replanning(name: str) -> str:
    """The shipped statement without ``PLANNED_ONCE``; a text of its own, so its own cache entry."""
    text = str(_sent(name))
    if cypher.PLANNED_ONCE not in text.split("\n"):
        return text
    lines = text.split("\n")
    return "\n".join(["// planned again", *(line for line in lines if line != cypher.PLANNED_ONCE)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect()
    rng = random.Random(7)
    loads: dict[str, Callable[[str], str]] = {SHIPPED: _sent, REPLANNED: replanning}
    rows = {}
    size = 0
    for round_ in range(args.rounds + 1):
        if size:  # round 0: the server's first writes, each variant planned for the first time
            fill = drafts(f"replan:fill{round_}", size, max(1, size // 4), rng)
            bg.ingest(list(fill), batch_size=1000)
            time.sleep(11)  # the plans made in the round before are now older than the interval
        stored = bg.store.run_literal("MATCH (c:Claim) RETURN count(c) AS n")[0]["n"]
        # Which variant goes first alternates by round; then they take turns call by call.
        order = list(loads)[:: 1 if round_ % 2 else -1]
        facts = {v: drafts(f"replan:{round_}:{v[:6]}", args.samples + 1, 10, rng) for v in order}
        samples: dict[str, list[float]] = {v: [] for v in order}
        for _ in range(args.samples + 1):
            for variant in order:
                store_module._unlogged = loads[variant]  # type: ignore[assignment]  # what is sent
                start = time.perf_counter()
                bg.remember(next(facts[variant]))
                samples[variant].append((time.perf_counter() - start) * 1000)
        store_module._unlogged = _sent
        for variant in loads:
            first, *after = samples[variant]
            rows[f"{variant}, at {stored} claims"] = {
                "first write": round(first),
                "p50 after": round(statistics.median(after), 2),
            }
        size = size * 5 or 250
    report(f"writes on a growing database, {bg.store.verify()['agent']}", rows, args.json)
    return 0
