"""Fixtures: one real Neo4j for the session, a clean database for every test.

The database comes from ``belief_graph.database.provide()`` (NEO4J_URI, else Docker, else the
local launcher, which this session starts and stops). No database is a failure, never a skip.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from belief_graph import BeliefGraph
from belief_graph.database import ConnectionInfo, provide
from belief_graph.detect import Detector
from belief_graph.policy import Policy
from belief_graph.store import Store

WIPE_ALLOWED = "BELIEF_GRAPH_TEST_WIPE"


@pytest.fixture(scope="session")
def neo4j_info() -> Iterator[ConnectionInfo]:
    """The session's database; a launcher server started here is stopped at the end."""
    from belief_graph.launcher import LocalNeo4j

    was_running = LocalNeo4j().is_running()
    info = provide(start=True)
    yield info
    if info.source == "launcher" and not was_running:
        LocalNeo4j().stop()


@pytest.fixture(scope="session")
def store(neo4j_info: ConnectionInfo) -> Iterator[Store]:
    """A store on the session's database, schema applied, refusing to wipe foreign data."""
    s = Store(neo4j_info.uri, neo4j_info.auth, neo4j_info.database)
    if neo4j_info.source == "env" and os.environ.get(WIPE_ALLOWED) != "1":
        records, _, _ = s._driver.execute_query("MATCH (n) RETURN count(n) AS n")
        if records[0]["n"]:
            s.close()
            raise RuntimeError(
                f"NEO4J_URI points at a database that holds {records[0]['n']} nodes; the tests "
                f"wipe it between tests. Set {WIPE_ALLOWED}=1 to allow that."
            )
    BeliefGraph(s).init_schema()
    yield s
    s.close()


def wipe(store: Store) -> None:
    """Empty the database (test fixture only: the engine itself never deletes)."""
    with store._driver.session(database=store.database) as session:
        session.run(
            "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS"
        ).consume()


class Clock:
    """A controllable clock: starts at a fixed moment, ticks 1 ms per read unless set."""

    def __init__(self, start: datetime = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now

    def set(self, moment: datetime) -> None:
        self.now = moment


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
