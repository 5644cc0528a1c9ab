"""A models-on ``ingest`` with each batch read ahead (its embeddings, its neighbours' look-ups and
its slots, while the batch before it is planned) against each batch read once the one before
is written, in turns on one store.

Fills ``--claims`` engine drafts with their embeddings, then ingests ``--drafts`` more with both
offline models, ``--batch`` per transaction, ``--turn`` drafts per ``ingest`` call, the two ways
call by call (read ahead off: ``Writer._pipelined`` says no to every batch, which is what a
models-on ingest did before). Prints, per way, drafts per second (median of the calls, and
overall), and for the read-ahead way how many batches read ahead were taken (``adopt``) and how
many were read again; per way, how many drafts had their nearest slots ranked again, and how
many had some of them read, while their batch was planned (``Remember._reach``: the drafts
before them in the batch had moved their nearest slots).

    python bench/read_ahead.py [--claims 10000] [--drafts 2000] [--batch 50] [--turn 250] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from typing import Any

from _common import report
from engine import filled_with_models

from belief_graph.write import remember as remember_module
from belief_graph.write.remember import Remember
from belief_graph.write.writer import Writer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--drafts", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--turn", type=int, default=250, help="drafts per ingest call")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg, more = filled_with_models("ahead", args.claims, args.drafts)
    ways = ("read ahead", "read after the batch before")
    rates: dict[str, list[float]] = {way: [] for way in ways}
    totals: dict[str, list[float]] = {way: [0.0, 0.0] for way in ways}  # drafts, seconds
    verdicts: dict[str, dict[str, int]] = {way: {} for way in ways}
    adopted: list[bool] = []
    adopt, pipelined = Remember.adopt, Writer._pipelined
    reach, rank, read_state = (
        Remember._reach,
        Remember._rank,
        remember_module.read_state,  # type: ignore[attr-defined]
    )
    reached: dict[str, dict[str, int]] = {way: {"slots": 0, "look-ups": 0} for way in ways}
    planning = threading.local()  # set while a draft's nearest slots are looked for again
    way = ways[0]

    def counted(self: Remember, *a: Any) -> bool:
        adopted.append(adopt(self, *a))
        return adopted[-1]

    def reaching(self: Remember, *a: Any, **k: Any) -> None:
        planning.on = True
        try:
            reach(self, *a, **k)
        finally:
            planning.on = False

    def reading(*a: Any, **k: Any) -> Any:
        if getattr(planning, "on", False):
            reached[way]["slots"] += 1
        return read_state(*a, **k)

    def ranking(self: Remember, *a: Any) -> Any:
        reached[way]["look-ups"] += 1
        return rank(self, *a)

    Remember.adopt = counted  # type: ignore[method-assign]
    Remember._reach = reaching  # type: ignore[method-assign]
    Remember._rank = ranking  # type: ignore[method-assign]
    remember_module.read_state = reading  # type: ignore[attr-defined]
    try:
        for turn, start in enumerate(range(0, len(more), args.turn)):
            way = ways[turn % 2]
            Writer._pipelined = (  # type: ignore[method-assign]
                pipelined if way == ways[0] else (lambda self, requests: False)
            )
            part = more[start : start + args.turn]
            began = time.perf_counter()
            results = bg.ingest(part, batch_size=args.batch)
            seconds = time.perf_counter() - began
            rates[way].append(len(part) / seconds)
            totals[way][0] += len(part)
            totals[way][1] += seconds
            for r in results:
                verdicts[way][r.verdict or "-"] = verdicts[way].get(r.verdict or "-", 0) + 1
            print(f"  {way}: {len(part) / seconds:.1f} drafts/s", file=sys.stderr)
    finally:
        Remember.adopt = adopt  # type: ignore[method-assign]
        Remember._reach = reach  # type: ignore[method-assign]
        Remember._rank = rank  # type: ignore[method-assign]
        remember_module.read_state = read_state  # type: ignore[attr-defined]
        Writer._pipelined = pipelined  # type: ignore[method-assign]
    for way in ways:
        figures: dict[str, Any] = {
            "calls": len(rates[way]),
            "drafts/s (median of calls)": round(statistics.median(rates[way]), 1),
            "drafts/s (overall)": round(totals[way][0] / totals[way][1], 1),
            "verdicts": verdicts[way],
            "drafts whose nearest slots were read while planned": reached[way]["slots"],
            "drafts whose nearest slots were ranked again": reached[way]["look-ups"],
        }
        if way == ways[0]:
            figures["batches read ahead: taken"] = sum(adopted)
            figures["read again"] = len(adopted) - sum(adopted)
        report(
            f"ingest with models on, {args.batch} per transaction, {args.turn} per call, {way}",
            figures,
            args.json,
        )
    bg.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
