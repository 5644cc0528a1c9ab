"""What does each kind of write cost the first time a server sees it?

And the second time. Neo4j keys a cached plan by the statement's text and its parameters' types,
a list's length among them in tenfold steps (docs/engine.md#plans): a statement that takes its
lists as parameters of their own is planned again for every new mix of lengths, which for the
write path's statements is seconds each time. On a private server started for the run (or on
``NEO4J_URI``'s, empty), ``init_schema`` is timed, then each kind of write runs twice, each time
on facts of its own: the first call pays whatever planning that kind needs, the second shows the
write itself. Figures in ms. (The first statements also pay the server's warm-up.)

    python -m bench first_writes [--json]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from belief_graph import ClaimDraft
from belief_graph.testing.factories import draft
from bench.common import connect, report

NS = "first"
START = datetime(2025, 1, 1, tzinfo=UTC)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect(schema=False)
    start = time.perf_counter()
    bg.init_schema()
    rows: dict[str, Any] = {"init_schema": round((time.perf_counter() - start) * 1000, 1)}
    made = iter(range(1_000_000))

    def fresh(subject: str, predicate: str, value: str) -> ClaimDraft:
        """A draft valid from a day of its own."""
        return draft(
            subject, predicate, value, namespace=NS, valid_from=START + timedelta(days=next(made))
        )

    def stored(subject: str) -> str:
        return bg.remember(fresh(subject, "lives_in", "Paris")).added[0]

    def batch(n: int, tag: str) -> Callable[[], Any]:
        return lambda: bg.ingest(
            [fresh(f"{tag}-{i}", "works_on", "Atlas") for i in range(n)], batch_size=n
        )

    # Each kind sets up what it needs (untimed) for the fact ``s`` and returns the timed call.
    def new(s: str) -> Callable[[], Any]:
        return lambda: bg.remember(fresh(s, "lives_in", "Paris"))

    def same(s: str) -> Callable[[], Any]:
        stored(s)
        return lambda: bg.remember(fresh(s, "lives_in", "Paris"))

    def update(s: str) -> Callable[[], Any]:
        stored(s)
        return lambda: bg.remember(fresh(s, "lives_in", "Rome"))

    def second_value(s: str) -> Callable[[], Any]:
        bg.remember(fresh(s, "likes", "tea"))
        return lambda: bg.remember(fresh(s, "likes", "jazz"))

    def retraction(s: str) -> Callable[[], Any]:
        claim = stored(s)
        return lambda: bg.contract(NS, claim)

    def ending(s: str) -> Callable[[], Any]:
        claim, until = stored(s), START + timedelta(days=next(made))
        return lambda: bg.contract(NS, claim, retract=False, valid_to=until)

    kinds: dict[str, Callable[[str], Callable[[], Any]]] = {
        "remember, a new fact": new,
        "remember, the same fact again": same,
        "remember, a changed fact (UPDATE)": update,
        "remember, a second value of a multi-valued fact": second_value,
        "contract, a retraction": retraction,
        "contract, an ending": ending,
        "ingest, 5 new facts": lambda s: batch(5, s),
        "ingest, 50 new facts": lambda s: batch(50, s),
        "ingest, 500 new facts": lambda s: batch(500, s),
    }
    firsts: list[float] = []
    seconds: list[float] = []
    for kind, setup in kinds.items():
        times = []
        for turn in ("a", "b"):
            call = setup(f"{kind.split(',')[0]}-{len(firsts)}-{turn}")
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1000)
        rows[kind] = {"first": round(times[0], 1), "second": round(times[1], 1)}
        firsts.append(times[0])
        seconds.append(times[1])
    rows["all kinds, summed"] = {"first": round(sum(firsts)), "second": round(sum(seconds))}
    report(f"the first writes of each kind, {bg.store.verify()['agent']}", rows, args.json)
    return 0
