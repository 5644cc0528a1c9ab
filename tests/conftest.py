"""Fixtures: one real Neo4j for the session, a clean database for every test.

The database comes from ``provide(for_tests=True, in_memory=True)``: ``NEO4J_URI`` when it is
set, else a private server for this session alone (a testcontainer where Docker answers, else a
throwaway launcher server with its own home and free ports, its store in RAM where the machine
has room: the tests need isolation, not durability), never the user's own. No database is a
failure, never a skip. Every source is wiped only after ``claim_database`` found it empty (or
``BELIEF_GRAPH_TEST_WIPE=1``).

Under pytest-xdist (``make test`` runs two workers) each worker is a session of its own, with
its own private server. Modules that start servers of their own share a worker through an
``xdist_group`` mark, and the modules holding slow tests are handed out first, so that no worker
is left with a long test at the end.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from belief_graph import BeliefGraph
from belief_graph import store as store_module
from belief_graph.detect import Detector
from belief_graph.policy import Policy
from belief_graph.server.launcher import LocalNeo4j, ram_dir
from belief_graph.server.provide import ConnectionInfo, provide, release
from belief_graph.server.status import free_port
from belief_graph.settings import ServerSettings
from belief_graph.store import Store
from belief_graph.testing.examples import profile
from belief_graph.testing.factories import Clock
from belief_graph.testing.graph import claim_database, wipe
from belief_graph.testing.servers import UserSandbox

# Merged into the configuration of every server the suite starts (its own, the tests' throwaway
# and sandboxed ones, the suite run again in a subprocess); a BELIEF_GRAPH_NEO4J_CONF of the
# user's own is left in charge.
SUITE_CONF = Path(__file__).with_name("neo4j.conf")
os.environ.setdefault("BELIEF_GRAPH_NEO4J_CONF", str(SUITE_CONF))

# Property tests without a count of their own: the full profile for CI and `make test`, fewer in
# the edit loop (belief_graph.testing.examples scales the tests that name their own count).
settings.register_profile("full", max_examples=100)
settings.register_profile(
    "dev", max_examples=20, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(profile())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with slow tests first (whole modules, so module fixtures are set up once)."""
    slow_modules = {item.module for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.module not in slow_modules)


@pytest.fixture(autouse=True)
def no_terminal_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's output is laid out alike whoever runs the suite: no ``COLUMNS``/``LINES`` from
    the terminal (an xdist worker gets ``COLUMNS=80``); a test that wants a width sets it."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture(scope="session")
def neo4j_info() -> Iterator[ConnectionInfo]:
    """The session's database; a private server started for it is discarded at the end."""
    info = provide(start=True, for_tests=True, in_memory=True)
    yield info
    release()


@pytest.fixture(scope="session")
def store(neo4j_info: ConnectionInfo) -> Iterator[Store]:
    """A store on the session's database, schema applied, refusing to wipe foreign data."""
    s = Store(neo4j_info.uri, neo4j_info.auth, neo4j_info.database)
    try:
        claim_database(s)
    except Exception:
        s.close()
        raise
    BeliefGraph(s).init_schema()
    yield s
    s.close()


@pytest.fixture(scope="session")
def user_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UserSandbox]:
    """The sandboxed user's server, started once for the tests that need one."""
    real = ServerSettings()
    LocalNeo4j(real).resolve()  # the jars, once, in the real cache
    ram = ram_dir()
    cache = (
        Path(tempfile.mkdtemp(prefix="belief-graph-user-cache-", dir=ram))
        if ram
        else tmp_path_factory.mktemp("user-cache")
    )
    jars = f"neo4j-{real.neo4j_version}"
    (cache / jars).symlink_to(real.cache_dir.expanduser() / jars, target_is_directory=True)
    sandbox = real.model_copy(
        update={"cache_dir": cache, "bolt_port": free_port(), "http_port": free_port()}
    )
    env = {
        "BELIEF_GRAPH_CACHE_DIR": str(cache),
        "BELIEF_GRAPH_BOLT_PORT": str(sandbox.bolt_port),
        "BELIEF_GRAPH_HTTP_PORT": str(sandbox.http_port),
        "BELIEF_GRAPH_MODELS": "false",
    }
    server = LocalNeo4j(sandbox)
    server.start()
    try:
        yield UserSandbox(env, server)
    finally:
        server.stop()
        if ram:
            shutil.rmtree(cache, ignore_errors=True)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_bg(store: Store) -> Callable[..., BeliefGraph]:
    """A BeliefGraph factory on the clean database (structural unless given a detector)."""
    wipe(store)

    def make(
        policy: Policy | None = None,
        detector: Detector | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> BeliefGraph:
        kwargs = {"clock": clock} if clock else {}
        return BeliefGraph(store, policy=policy, detector=detector, **kwargs)

    return make


@pytest.fixture
def bg(make_bg: Callable[..., BeliefGraph]) -> BeliefGraph:
    """A BeliefGraph on an empty database, real clock, structural detection."""
    return make_bg()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the shipped statements sent to the server from now on, in order."""
    names: list[str] = []
    original = store_module._query

    def query(name: str, params: Any = None) -> Any:
        names.append(name)
        return original(name, params)

    monkeypatch.setattr(store_module, "_query", query)
    return names


@pytest.fixture(scope="session")
def offline_models() -> tuple[object, object]:
    """The offline embedder and contradiction classifier (loaded once; missing = failure)."""
    from belief_graph.testing.offline import offline_embedder, offline_scorer

    return offline_embedder(), offline_scorer(dynamic_length=True)


@pytest.fixture
def semantic_bg(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> BeliefGraph:
    """A BeliefGraph with the offline models on an empty database."""
    embedder, scorer = offline_models
    return make_bg(detector=Detector(embedder, scorer))  # type: ignore[arg-type]
