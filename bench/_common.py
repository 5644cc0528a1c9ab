"""Shared by the benchmark scripts: a database, timing helpers, and table/JSON output."""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.server.provide import provide
from belief_graph.store import Store


def connect(*, schema: bool = True, **kwargs: Any) -> BeliefGraph:
    """A BeliefGraph on ``NEO4J_URI``, else on a private Neo4j for this run (never the user's
    own server), schema applied unless ``schema`` is False (models off by default)."""
    info = provide(start=True, for_tests=True)
    bg = BeliefGraph(Store(info.uri, info.auth, info.database), **kwargs)
    if schema:
        bg.init_schema()
    return bg


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def timed(fn: Callable[[], Any], repeat: int) -> dict[str, float]:
    """Median, p95 and max of ``repeat`` calls, in milliseconds."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return summary(samples)


def summary(samples_ms: list[float]) -> dict[str, float]:
    return {
        "n": len(samples_ms),
        "p50_ms": round(statistics.median(samples_ms), 3),
        "p95_ms": round(percentile(samples_ms, 0.95), 3),
        "max_ms": round(max(samples_ms), 3),
    }


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    """Elapsed seconds, appended to the yielded list on exit."""
    box: list[float] = []
    start = time.perf_counter()
    yield box
    box.append(time.perf_counter() - start)


def report(title: str, rows: dict[str, Any], as_json: bool) -> None:
    """Print figures as an aligned table, or as one JSON object."""
    if as_json:
        print(json.dumps({"benchmark": title, **rows}, default=str))
        return
    print(f"\n== {title}")
    width = max(len(k) for k in rows)
    for key, value in rows.items():
        print(f"  {key:<{width}}  {value}")
    sys.stdout.flush()


class ReadLoad:
    """The read benchmarks' facts: ``claims`` drafts in ``ns`` over ``claims // 6`` subjects and
    three single-valued predicates, one second apart; ``current`` and ``as_of`` ask about a
    random one (``as_of`` at a random moment of the fill)."""

    PREDICATES = ("lives_in", "works_at", "likes")
    BASE = datetime(2025, 1, 1, tzinfo=UTC)

    def __init__(self, bg: BeliefGraph, ns: str, claims: int) -> None:
        self.bg, self.ns, self.claims = bg, ns, claims
        self.subjects = max(1, claims // 6)
        p = self.PREDICATES
        bg.ingest(
            (
                ClaimDraft(
                    namespace=ns,
                    subject=f"p{i % self.subjects}",
                    predicate=p[i % 3],
                    object=f"v{i % 7}",
                    text=f"p{i % self.subjects} {p[i % 3]} v{i % 7}.",
                    valid_from=self.BASE + timedelta(seconds=i),
                    recorded_at=self.BASE + timedelta(seconds=i),
                )
                for i in range(claims)
            ),
            batch_size=1000,
        )

    def current(self, rng: random.Random) -> Any:
        return self.bg.current(
            self.ns, f"p{rng.randrange(self.subjects)}", rng.choice(self.PREDICATES)
        )

    def as_of(self, rng: random.Random) -> Any:
        at = self.BASE + timedelta(seconds=rng.randrange(self.claims))
        subject = f"p{rng.randrange(self.subjects)}"
        return self.bg.as_of(self.ns, subject, rng.choice(self.PREDICATES), at, at)

    def compare(
        self,
        ways: dict[str, Callable[..., list[dict[str, Any]]]],
        rng: random.Random,
        *,
        rounds: int,
        calls: int,
        as_json: bool,
    ) -> None:
        """Each way of running the store's reads in turn, round by round, ``calls`` of
        ``current``, ``as_of`` and ``RETURN 1`` (a round trip with no work, below which no read
        can go) each; p50/p95/p99 printed per read and way."""
        store = self.bg.store
        shipped = store.read
        calls_of: dict[str, Callable[[], Any]] = {
            "current": lambda: self.current(rng),
            "as_of": lambda: self.as_of(rng),
            "RETURN 1 (the floor: a round trip, no work)": lambda: store.run_literal("RETURN 1"),
        }
        samples: dict[str, list[float]] = {}
        try:
            for _ in range(rounds):
                for way, read in ways.items():
                    store.read = read  # type: ignore[method-assign]
                    for what, call in calls_of.items():
                        for _ in range(calls):
                            began = time.perf_counter()
                            call()
                            samples.setdefault(f"{what}, {way}", []).append(
                                (time.perf_counter() - began) * 1000
                            )
        finally:
            store.read = shipped  # type: ignore[method-assign]
        for key, values in samples.items():
            row = summary(values)
            row["p99_ms"] = round(percentile(values, 0.99), 3)
            report(f"{key} at {self.claims} claims", row, as_json)
