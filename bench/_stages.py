"""Per-stage time of ``remember`` with models on, for the benchmark scripts.

Wraps (in this process only) the embedder, the contradiction scorer and the steps of one
``remember`` (the neighbour read, the state read, planning and the write transaction) with
timers, so a benchmark can say where a write's time goes: embed, neighbours, read, score, plan
(deciding, less scoring) and write (the one transaction, commit included).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from belief_graph.detect import Detector
from belief_graph.store import Store
from belief_graph.write.remember import Remember

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
    near = Remember._near
    read = Remember.read
    plan = Remember.plan
    transaction = Store.transaction

    def timed_near(self: Remember, lookups: Any) -> Any:
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

    Remember._near = timed_near  # type: ignore[method-assign]
    Remember.read = timed_read  # type: ignore[method-assign]
    Remember.plan = timed_plan  # type: ignore[method-assign]
    Store.transaction = lambda self, work: _timed(active, "write", transaction)(self, work)  # type: ignore[method-assign,assignment]
    # The one-statement apply (write/apply) is an auto-commit statement, not a transaction.
    write_once = Store.write_once
    Store.write_once = lambda self, name, **params: _timed(active, "write", write_once)(  # type: ignore[method-assign]
        self, name, **params
    )
    return timed, stages
