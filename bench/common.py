"""What the benchmarks share: a database and the offline models, timing, CPU accounting,
timers patched around the write path's stages and statements, and table/JSON output."""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from belief_graph import BeliefGraph
from belief_graph import store as store_module
from belief_graph.detect import Detector
from belief_graph.server.provide import provide
from belief_graph.store import Store
from belief_graph.write.lookup import Neighbours
from belief_graph.write.remember import Remember


def connect(*, schema: bool = True, **kwargs: Any) -> BeliefGraph:
    """A BeliefGraph on ``NEO4J_URI``, else on a private Neo4j for this run (never the user's
    own server), schema applied unless ``schema`` is False (models off by default)."""
    info = provide(start=True, for_tests=True)
    bg = BeliefGraph(Store(info.uri, info.auth, info.database), **kwargs)
    if schema:
        bg.init_schema()
    return bg


def offline_models() -> tuple[Any, Any]:
    """The offline embedder and contradiction classifier the tests use, each run once (their
    first call loads what the next ones reuse)."""
    from belief_graph.testing.offline import offline_embedder, offline_scorer

    embedder, scorer = offline_embedder(), offline_scorer(dynamic_length=True)
    embedder.embed(["warm up"])
    scorer.score([("warm up", "warm down")])
    return embedder, scorer


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


# -- a models-on write's time per stage --------------------------------------------------------
#
# Wraps (in this process only) the embedder, the contradiction scorer and the steps of one
# ``remember`` (the neighbour read, the state read, planning and the write transaction) with
# timers, so a benchmark can say where a write's time goes: embed, neighbours, read, score,
# plan (deciding, less scoring) and write (the one transaction, commit included).

STAGES = ("embed", "neighbours", "read", "score", "plan", "write")


class Stages:
    """Milliseconds per stage, accumulated per call of ``measure`` and kept per sample."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)
        self.samples: list[dict[str, float]] = []
        self.pairs = 0
        self.scorer_calls = 0

    def add(self, stage: str, ms: float) -> None:
        self.current[stage] += ms

    @contextmanager
    def measure(self) -> Iterator[None]:
        """Everything timed inside one block becomes one sample (of these stages)."""
        global _active
        self.current = defaultdict(float)
        _active = self
        try:
            yield
        finally:
            _active = None
        self.samples.append(dict(self.current))

    def medians(self, per: int = 1) -> dict[str, float]:
        """Median milliseconds of each stage over the samples (divided by ``per`` drafts)."""
        out = {}
        for stage in STAGES:
            values = sorted(s.get(stage, 0.0) / per for s in self.samples)
            out[stage] = round(values[len(values) // 2], 2) if values else 0.0
        return out

    def totals(self) -> dict[str, float]:
        """Total seconds of each stage over every sample."""
        return {
            stage: round(sum(s.get(stage, 0.0) for s in self.samples) / 1000, 2) for stage in STAGES
        }


_active: Stages | None = None


class _Active:
    """The stages of the block being measured (the write path's steps are patched once)."""

    def add(self, stage: str, ms: float) -> None:
        if _active is not None:
            _active.add(stage, ms)

    @property
    def current(self) -> dict[str, float]:
        return _active.current if _active is not None else {}


def _timed(stages: Stages | _Active, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            stages.add(stage, (time.perf_counter() - start) * 1000)

    return wrapper


class _Embedder:
    def __init__(self, inner: Any, stages: Stages) -> None:
        self.inner, self.stages = inner, stages

    @property
    def dim(self) -> int:
        return int(self.inner.dim)

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> list[list[float]]:
        return _timed(self.stages, "embed", self.inner.embed)(texts, batch_size=batch_size)  # type: ignore[no-any-return]


class _Scorer:
    def __init__(self, inner: Any, stages: Stages) -> None:
        self.inner, self.stages = inner, stages

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def score(self, pairs: Sequence[tuple[str, str]]) -> Any:
        self.stages.pairs += len(pairs)
        self.stages.scorer_calls += 1
        return _timed(self.stages, "score", self.inner.score)(pairs)


class OnePairPerCall:
    """A scorer asked about one pair per call: how the models path ran before batching."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[Any]:
        return [self.inner.score([pair])[0] for pair in pairs]


def instrument(detector: Detector) -> tuple[Detector, Stages]:
    """A detector whose models are timed into its own ``Stages``; the write path's steps are
    timed (process-wide, once) into the stages being measured."""
    stages = Stages()
    timed = Detector(
        _Embedder(detector.embedder, stages) if detector.embedder is not None else None,
        _Scorer(detector.scorer, stages) if detector.scorer is not None else None,
        lazy=detector.lazy,
    )
    if getattr(Remember, "_staged", False):
        return timed, stages
    Remember._staged = True  # type: ignore[attr-defined]
    active = _Active()
    near = Neighbours.near
    read = Remember.read
    plan = Remember.plan
    transaction = Store.transaction

    def timed_near(self: Neighbours, lookups: Any) -> Any:
        # A batch's look-ups on their own; a single draft's ride with its read (the read stage).
        return _timed(active, "neighbours", near)(self, lookups)

    def timed_read(self: Remember) -> Any:
        start = time.perf_counter()
        before = active.current.get("neighbours", 0.0)
        try:
            return read(self)
        finally:
            spent = (time.perf_counter() - start) * 1000
            active.add("read", spent - (active.current.get("neighbours", 0.0) - before))

    def timed_plan(self: Remember, state: Any) -> Any:
        start = time.perf_counter()
        before = active.current.get("score", 0.0)
        try:
            return plan(self, state)
        finally:
            spent = (time.perf_counter() - start) * 1000
            active.add("plan", spent - (active.current.get("score", 0.0) - before))

    Neighbours.near = timed_near  # type: ignore[method-assign]
    Remember.read = timed_read  # type: ignore[method-assign]
    Remember.plan = timed_plan  # type: ignore[method-assign]
    Store.transaction = lambda self, work: _timed(active, "write", transaction)(self, work)  # type: ignore[method-assign,assignment]
    # The one-statement apply (write/apply) is an auto-commit statement, not a transaction.
    write_once = Store.write_once
    Store.write_once = lambda self, name, **params: _timed(active, "write", write_once)(  # type: ignore[method-assign]
        self, name, **params
    )
    return timed, stages


# -- a write's time per statement --------------------------------------------------------------


class Steps:
    """Wall-clock time per step of the calls made while ``on``."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.on = False

    def add(self, name: str, started: float) -> None:
        if self.on:
            self.times[name].append((time.perf_counter() - started) * 1000)

    @contextmanager
    def patched(self) -> Iterator[None]:
        """Time every statement, transaction and query execution of the store module."""
        steps = self
        tx_run = store_module.Tx.run
        execute = store_module.Store._execute
        transaction = store_module.Store.transaction
        autocommit = getattr(store_module.Store, "_autocommit", None)

        def run(self: store_module.Tx, name: str, **params: Any) -> list[dict[str, Any]]:
            started = time.perf_counter()
            try:
                return tx_run(self, name, **params)
            finally:
                steps.add(name, started)

        def _execute(self: store_module.Store, name: str, params: dict[str, Any], routing: Any):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            try:
                return execute(self, name, params, routing)
            finally:
                steps.add(name, started)

        def _transaction(self: store_module.Store, work: Callable[[Any], Any]) -> Any:
            started = time.perf_counter()
            inside = [0.0]

            def timed_work(tx: Any) -> Any:
                began = time.perf_counter()
                try:
                    return work(tx)
                finally:
                    inside[0] += time.perf_counter() - began

            try:
                return transaction(self, timed_work)
            finally:
                steps.add("(transaction, all of it)", started)
                steps.add("begin + commit of the transaction", started + inside[0])

        def _autocommit(self: store_module.Store, name: str, params: Any, failed: Any) -> Any:
            started = time.perf_counter()
            try:
                return autocommit(self, name, params, failed)  # type: ignore[misc]
            finally:
                steps.add(f"{name} (auto-commit)", started)

        store_module.Tx.run = run  # type: ignore[method-assign]
        store_module.Store._execute = _execute  # type: ignore[method-assign]
        store_module.Store.transaction = _transaction  # type: ignore[method-assign]
        if autocommit is not None:
            store_module.Store._autocommit = _autocommit  # type: ignore[method-assign]
        try:
            yield
        finally:
            store_module.Tx.run = tx_run  # type: ignore[method-assign]
            store_module.Store._execute = execute  # type: ignore[method-assign]
            store_module.Store.transaction = transaction  # type: ignore[method-assign]
            if autocommit is not None:
                store_module.Store._autocommit = autocommit  # type: ignore[method-assign]
