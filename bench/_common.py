"""Shared by the benchmark scripts: a database, timing helpers, and table/JSON output."""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from belief_graph import BeliefGraph
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
