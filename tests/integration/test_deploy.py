"""Routing URIs and read-your-writes across clients (docs/deploy.md), on the session's server:
a single instance on ports that are not Neo4j's defaults."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import pytest

from belief_graph import BeliefGraph
from belief_graph.errors import BeliefGraphError
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.factories import draft

NS = "deploy:atlas"


def routing_uri(info: ConnectionInfo) -> str:
    parts = urlsplit(info.uri)
    return f"neo4j://{parts.hostname}:{parts.port}"


def test_a_routing_uri_reaches_the_server_on_its_own_port(
    neo4j_info: ConnectionInfo, make_bg: Callable[..., BeliefGraph]
) -> None:
    make_bg()  # an empty database
    port = urlsplit(neo4j_info.uri).port
    if neo4j_info.source == "launcher":
        assert port != 7687, "the test server must not sit on the default port"
    # The routing table the server sends back names its advertised Bolt address: were it the
    # default localhost:7687, the write below would go to another server (or nowhere).
    with BeliefGraph(
        Store(routing_uri(neo4j_info), neo4j_info.auth, neo4j_info.database)
    ) as routed:
        assert routed.remember(draft("atlas", "uses", "Express.js", namespace=NS)).verdict == "NEW"
        assert routed.remember(draft("atlas", "uses", "Go", namespace=NS)).verdict == "UPDATE"
        belief = routed.current(NS, "atlas", "uses")
        assert belief is not None and not isinstance(belief, list) and belief.object == "Go"
        address = routed.store.verify()["address"]
        assert address.endswith(f":{port}")


def test_bookmarks_carry_a_write_to_another_client(
    neo4j_info: ConnectionInfo, make_bg: Callable[..., BeliefGraph]
) -> None:
    writer = make_bg()
    before = writer.bookmarks()
    writer.remember(draft("atlas", "uses", "Express.js", namespace=NS))
    after_first = writer.bookmarks()
    assert after_first and after_first != before
    writer.remember(draft("atlas", "uses", "Go", namespace=NS))
    handed = writer.bookmarks()
    assert handed != after_first, "every write moves the bookmarks on"
    # Another process connects with the writer's bookmarks: its reads wait for those writes.
    with BeliefGraph.connect(
        neo4j_info.uri,
        database=neo4j_info.database,
        models=False,
        bookmarks=handed,
    ) as reader:
        assert set(handed) <= set(reader.bookmarks())
        belief = reader.current(NS, "atlas", "uses")
        assert belief is not None and not isinstance(belief, list) and belief.object == "Go"


def test_a_bookmark_the_server_never_issued_is_refused(
    neo4j_info: ConnectionInfo, make_bg: Callable[..., BeliefGraph]
) -> None:
    make_bg()
    with (
        BeliefGraph.connect(
            neo4j_info.uri,
            database=neo4j_info.database,
            models=False,
            bookmarks=["not-a-bookmark"],
        ) as reader,
        pytest.raises(BeliefGraphError),
    ):
        reader.current(NS, "atlas", "uses")
