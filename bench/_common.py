"""Shared by the benchmark scripts: a database, timing helpers, and table/JSON output."""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from belief_graph import BeliefGraph, HistoricalDraft
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


def server_pid(bg: BeliefGraph) -> int | None:
    """The process of the Neo4j ``bg`` talks to when it runs on this machine (Linux: whoever
    listens on its Bolt port), else None."""
    port = urlsplit(bg.store.uri).port or 7687
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            return None
        for row in rows:
            fields = row.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":
                listening.add(f"socket:[{fields[9]}]")
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if any(os.readlink(fd) in listening for fd in (proc / "fd").iterdir()):
                return int(proc.name)
        except OSError:
            continue
    return None


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user + system, every thread) process ``pid`` has used, or None."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def cpu_used(bg: BeliefGraph) -> Iterator[dict[str, float | None]]:
    """The CPU seconds this process and ``bg``'s server (when on this machine) use inside the
    block, and the cores they share: the yielded dict, filled on exit."""
    pid = server_pid(bg)
    box: dict[str, float | None] = {}
    client, server = time.process_time(), cpu_seconds(pid)
    yield box
    box["client_cpu_s"] = round(time.process_time() - client, 2)
    after = cpu_seconds(pid)
    box["server_cpu_s"] = None if after is None or server is None else round(after - server, 2)
    box["cores"] = len(os.sched_getaffinity(0))


def cpu_budget(cpu: dict[str, float | None], drafts: int, seconds: float) -> dict[str, Any]:
    """What ``cpu_used`` measured over ``drafts`` written in ``seconds``: CPU ms per 1,000
    drafts on each side, the cores busy on average, and the drafts/s the cores would allow if
    they were busy all the time (client and server sharing them, as here)."""
    client, server = cpu["client_cpu_s"] or 0.0, cpu["server_cpu_s"]
    mine = {"client CPU ms per 1,000 drafts": round(client * 1e6 / drafts)}
    if server is None:  # a server elsewhere: only this side is known
        return mine
    return {
        **mine,
        "server CPU ms per 1,000 drafts": round(server * 1e6 / drafts),
        "cores busy (of the machine's)": f"{(client + server) / seconds:.2f} of {cpu['cores']}",
        "drafts/s with every core busy": round(drafts * (cpu["cores"] or 1) / (client + server)),
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
        # History, each draft learned at its moment (as_of asks what was known then).
        bg.import_history(
            (
                HistoricalDraft(
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
            actor="bench",
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
