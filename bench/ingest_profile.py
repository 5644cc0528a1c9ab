"""Where does a structural bulk ingest spend its time, batch by batch?

Per-batch steps, sequential against pipelined, and the Cypher PROFILE of the one apply
statement for one batch. Fills ``--claims`` structural drafts (``bench.data``'s people, as
``engine`` does), then takes turns, ``--rounds`` times: ``--batches`` batches of ``--batch``
drafts remembered one after the other (read, plan, parameters, statement: each timed), and as
many through ``ingest`` (the next batch planned while the statement of the one before runs).
Then PROFILEs ``write/apply`` with the parameters of one more batch, in a transaction that is
rolled back: database hits and rows per operator, the costliest first.

    python -m bench ingest_profile [--claims 10000] [--batch 1000] [--rounds 4] [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from belief_graph.client import BeliefGraph
from belief_graph.ingest import requests_of
from belief_graph.store import Store
from belief_graph.ulid import new_id
from belief_graph.write import apply, remember
from bench.common import connect, report
from bench.data import drafts


@contextmanager
def steps(times: dict[str, list[float]]) -> Iterator[None]:
    """Seconds per call of each step of the write path while inside."""
    patched: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, attr: str, name: str) -> None:
        original = getattr(owner, attr)

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                times[name].append(time.perf_counter() - started)

        patched.append((owner, attr, original))
        setattr(owner, attr, timed)

    wrap(remember.Remember, "read", "read (one statement)")
    wrap(remember.Remember, "plan", "planning in Python")
    wrap(apply, "_statement_params", "parameters")
    wrap(Store, "write_once", "the apply statement (server, driver)")
    try:
        yield
    finally:
        for owner, attr, original in patched:
            setattr(owner, attr, original)


class _Captured(Exception):
    """The apply statement's parameters, caught before it ran."""

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__()
        self.params = params


def profile(bg: BeliefGraph, batch: list[Any]) -> dict[str, Any]:
    """PROFILE of ``write/apply`` for ``batch``, rolled back: hits and rows per operator."""
    original = Store.write_once

    def capture(self: Store, name: str, **params: Any) -> Any:
        raise _Captured(params)

    Store.write_once = capture  # type: ignore[method-assign]
    try:
        bg.ingest(batch, batch_size=len(batch))
    except _Captured as found:
        params = found.params
    finally:
        Store.write_once = original  # type: ignore[method-assign]
    operators: dict[str, list[int]] = defaultdict(lambda: [0, 0])

    def walk(node: Any) -> int:
        details = node.get("args", {}).get("Details", "")
        key = f"{node['operatorType']}: {details[:90]}"
        operators[key][0] += int(node.get("dbHits", 0))
        operators[key][1] += int(node.get("rows", 0))
        return int(node.get("dbHits", 0)) + sum(walk(c) for c in node.get("children", []))

    for _ in range(2):  # the first run plans the statement
        started = time.perf_counter()
        profile = bg.store.profile("write/apply", **params)
        seconds = time.perf_counter() - started
    operators.clear()
    total = walk(profile)
    top = sorted(operators.items(), key=lambda kv: -kv[1][0])[:25]
    return {
        "drafts": len(batch),
        "db hits": total,
        "seconds (PROFILE, rolled back)": round(seconds, 3),
        **{f"hits / rows  {name}": f"{hits} / {rows}" for name, (hits, rows) in top},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--batches", type=int, default=2, help="batches per turn")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    bg = connect()
    ns = f"bench:ingest:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)
    total = args.claims + 2 * args.rounds * args.batches * args.batch + args.batch
    source = drafts(ns, total, subjects, rng)

    def take(n: int) -> list[Any]:
        return [next(source) for _ in range(n)]

    started = time.perf_counter()
    bg.ingest(take(args.claims), batch_size=args.batch)
    print(f"filled {args.claims} in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    times: dict[str, list[float]] = defaultdict(list)
    seconds = {"one after the other": 0.0, "pipelined": 0.0}
    counts = dict.fromkeys(seconds, 0)
    paths: dict[str, Callable[[list[Any]], object]] = {
        "one after the other": lambda batch: (
            [
                bg._remember(list(requests_of(batch[i : i + args.batch], None, None, new_id)))
                for i in range(0, len(batch), args.batch)
            ]
            and None
        ),
        "pipelined": lambda batch: bg.ingest(batch, batch_size=args.batch) and None,
    }
    for turn in range(2 * args.rounds):
        name = list(paths)[turn % 2]
        batch = take(args.batches * args.batch)
        with steps(times) if name == "one after the other" else _nothing():
            began = time.perf_counter()
            paths[name](batch)
            seconds[name] += time.perf_counter() - began
        counts[name] += len(batch)
        print(f"  {name}: {len(batch)} drafts", file=sys.stderr)
    report(
        f"bulk ingest, {args.batch} per batch, turns of {args.batches} batches, "
        f"from {args.claims} stored",
        {
            **{f"{n} (drafts/s)": round(counts[n] / seconds[n]) for n in seconds},
            **{
                f"one after the other, {step} (median s per batch)": round(
                    statistics.median(values), 3
                )
                for step, values in times.items()
            },
        },
        args.json,
    )
    report("PROFILE write/apply, one batch", profile(bg, take(args.batch)), args.json)
    bg.close()
    return 0


@contextmanager
def _nothing() -> Iterator[None]:
    yield
