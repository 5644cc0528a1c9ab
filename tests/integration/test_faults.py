"""Faults: SIGKILL a private Neo4j in the middle of a bulk ingest and of a stream of revisions,
restart it, re-run with the same revision ids; every acknowledged operation is there exactly
once, nothing is half-applied, the invariants hold. While the server is down, callers get
``StoreUnavailable`` within bounded time, never a raw driver error or a hang.

The server here is this test's own throwaway one (own ports, own home); the session's database is
never touched. It shares the Neo4j jars of the cache like every launcher server.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.errors import BeliefGraphError, ConflictError, StoreUnavailable
from belief_graph.models import RevisionResult
from belief_graph.server.launcher import LocalNeo4j
from belief_graph.server.status import free_port
from belief_graph.store import Store
from belief_graph.testing.factories import draft
from belief_graph.testing.graph import check_graph, q

# Kills and restarts a server of its own, shared by the module's tests: the slow tier, on one
# worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("faults")]

NS = "faults:ingest"
STREAM_NS = "faults:stream"
DOWN_LIMIT_S = 20.0


@pytest.fixture(scope="module")
def server() -> Iterator[LocalNeo4j]:
    local = LocalNeo4j.throwaway(in_memory=True)
    local.start()
    try:
        yield local
    finally:
        local.discard()


def _store(server: LocalNeo4j) -> Store:
    # Small retry budgets so an outage surfaces quickly (the default is 15 s).
    return Store(server.bolt_uri, None, retry_seconds=2, connect_timeout=1)


def _restart(server: LocalNeo4j) -> float:
    started = time.monotonic()
    server.start()
    return time.monotonic() - started


def _wait_for(event: threading.Event, worker: threading.Thread, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not event.is_set() and worker.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert event.is_set(), "the work finished (or failed) before the kill point"


def _per_id(store: Store, ids: list[str]) -> dict[str, int]:
    rows = q(
        store,
        "UNWIND $ids AS id OPTIONAL MATCH (r:Revision {id: id}) RETURN id, count(r) AS n",
        ids=ids,
    )
    return {r["id"]: r["n"] for r in rows}


def _acked(results: list[RevisionResult]) -> list[dict[str, Any]]:
    # Replays count too: each stands for an operation acknowledged on the first run.
    return [{**r.model_dump(mode="json"), "replayed": False} for r in results]


def _drafts(n: int) -> list[ClaimDraft]:
    return [
        draft(
            f"person-{i % 97}",
            ["city", "likes", "risk_tolerance"][i % 3],
            f"value-{i % 5}",
            namespace=NS,
            text=f"Person {i % 97} fact number {i}.",
            episode_id=f"ep-{i}",
            episode_content=f"chat line {i}",
        )
        for i in range(n)
    ]


def _stream(bg: BeliefGraph, log: list[RevisionResult], at_point: Callable[[], None]) -> None:
    """60 revisions of one namespace (remember / contract / rollback), the same on every run;
    ``at_point`` is called once 20 are acknowledged."""
    added: list[str] = []
    for i in range(60):
        rid = f"stream-{i:04d}"
        try:
            if i % 6 == 5 and added:
                result = bg.contract(STREAM_NS, added[-1], revision_id=rid)
            elif i % 6 == 3 and log:
                result = bg.rollback(STREAM_NS, log[-1].revision_id, new_revision_id=rid)
            else:
                result = bg.remember(
                    draft(
                        f"s-{i % 4}",
                        "city",
                        f"town-{i}",
                        namespace=STREAM_NS,
                        text=f"S{i % 4} lives in town {i}.",
                    ),
                    revision_id=rid,
                )
        except ConflictError:
            continue  # refused the same way on every run (same state, same order)
        log.append(result)
        added.extend(result.added)
        if len(log) == 20:
            at_point()


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_sigkill_during_ingest_and_stream_then_rerun(server: LocalNeo4j) -> None:
    """One SIGKILL lands while a bulk ingest and a stream of revisions both run: each has had
    some of its work acknowledged and is sending more."""
    timings: dict[str, float] = {}
    store = _store(server)
    bg = BeliefGraph(store)
    bg.init_schema()

    drafts = _drafts(600)
    ids = [f"ingest-{i:05d}" for i in range(len(drafts))]
    acknowledged = [0]
    ingest_point, stream_point = threading.Event(), threading.Event()
    failures: dict[str, BaseException] = {}

    def meet(mine: threading.Event, other: threading.Event) -> None:
        # Whichever reaches its point first waits for the other: both are running when the
        # kill comes, whatever their speeds.
        mine.set()
        other.wait(120)

    def progress(done: int) -> None:
        acknowledged[0] = done
        if done >= 200 and not ingest_point.is_set():
            meet(ingest_point, stream_point)

    def ingest() -> None:
        try:
            bg.ingest(drafts, batch_size=100, revision_ids=ids, progress=progress)
        except BaseException as exc:
            failures["ingest"] = exc

    first: list[RevisionResult] = []

    def run_stream() -> None:
        try:
            _stream(bg, first, lambda: meet(stream_point, ingest_point))
        except BaseException as exc:
            failures["stream"] = exc

    workers = [threading.Thread(target=ingest), threading.Thread(target=run_stream)]
    for worker in workers:
        worker.start()
    _wait_for(ingest_point, workers[0], 120)
    _wait_for(stream_point, workers[1], 120)
    assert server.kill()
    killed_at = time.monotonic()
    for worker in workers:
        worker.join(60)
        assert not worker.is_alive(), "work hung after the server died"
    timings["error_after_kill_s"] = time.monotonic() - killed_at
    assert set(failures) == {"ingest", "stream"}, (
        f"finished although the server was killed: {failures}"
    )
    for failure in failures.values():
        assert isinstance(failure, StoreUnavailable), repr(failure)
    assert acknowledged[0] < len(drafts)

    # -- while the server stays down: StoreUnavailable, bounded in time --------------------------
    for name, call in (
        ("read", lambda: bg.current(NS, "person-1", "city")),
        ("remember", lambda: bg.remember(drafts[0], revision_id="down-1")),
        ("contract", lambda: bg.contract(NS, "any-claim")),
    ):
        started = time.monotonic()
        with pytest.raises(StoreUnavailable):
            call()
        timings[f"down_{name}_s"] = time.monotonic() - started
        assert timings[f"down_{name}_s"] < DOWN_LIMIT_S, timings

    timings["restart_s"] = _restart(server)

    # -- re-run with the same revision ids: acknowledged batches replay -----------------------
    results = bg.ingest(drafts, batch_size=100, revision_ids=ids)
    assert all(r.replayed for r in results[: acknowledged[0]])
    counts = _per_id(store, ids)
    assert all(n == 1 for n in counts.values()), {k: n for k, n in counts.items() if n != 1}
    assert q(store, "MATCH (r:Revision {namespace: $ns}) RETURN count(r) AS n", ns=NS)[0]["n"] == (
        len(ids)
    )

    # -- the stream again: every acknowledged operation replayed, same result -----------------
    second: list[RevisionResult] = []
    _stream(bg, second, lambda: None)
    by_id = {r.revision_id: r for r in second}
    for done in first:
        again = by_id[done.revision_id]
        assert again.replayed and again.model_copy(update={"replayed": False}) == done
    stream_ids = [r.revision_id for r in second]
    assert all(n == 1 for n in _per_id(store, stream_ids).values())
    assert q(store, "MATCH (r:Revision {namespace: $ns}) RETURN count(r) AS n", ns=STREAM_NS)[0][
        "n"
    ] == len(stream_ids)
    assert check_graph(store, _acked(results + second)) == []
    store.close()
    print(f"\nfault timings: { {k: round(v, 2) for k, v in timings.items()} }")


def test_errors_are_ours_when_nothing_listens() -> None:
    """No server at all on the port: a bounded StoreUnavailable, not a driver exception."""
    store = Store(f"bolt://127.0.0.1:{free_port()}", None, retry_seconds=2, connect_timeout=1)
    bg = BeliefGraph(store)
    calls: dict[str, Any] = {
        "current": lambda: bg.current("ns", "a", "city"),
        "remember": lambda: bg.remember(ClaimDraft(namespace="ns", text="A lives in Oslo.")),
        "init_schema": lambda: bg.init_schema(),
    }
    for name, call in calls.items():
        started = time.monotonic()
        with pytest.raises(BeliefGraphError) as caught:
            call()
        assert isinstance(caught.value, StoreUnavailable), (name, caught.value)
        assert time.monotonic() - started < DOWN_LIMIT_S, name
    store.close()
