"""The local launcher against a real Neo4j server (Java 17 + Maven; no Docker needed).

The server may already be up from another test session; it is then reused, and only a server
this module started is stopped at the end.
"""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator

import pytest
from neo4j import GraphDatabase

from belief_graph.database import provide
from belief_graph.launcher import LocalNeo4j, ServerStatus


@pytest.fixture(scope="module")
def launcher() -> Iterator[LocalNeo4j]:
    local = LocalNeo4j()
    already_running = local.status().pid is not None
    local.start()
    yield local
    if not already_running:
        local.stop()


def test_status_reports_uris_and_version(launcher: LocalNeo4j) -> None:
    status = launcher.status()
    assert isinstance(status, ServerStatus)
    assert status.running
    assert status.pid is not None
    assert status.bolt_uri == f"bolt://127.0.0.1:{launcher.settings.bolt_port}"
    assert status.browser_url == f"http://127.0.0.1:{launcher.settings.http_port}/browser/"
    assert status.version is not None and status.version.startswith("5.26")
    assert launcher.is_running()


def test_start_again_reuses_the_running_server(launcher: LocalNeo4j) -> None:
    before = launcher.status().pid
    started = time.monotonic()
    status = launcher.start()
    assert status.pid == before
    assert time.monotonic() - started < 5


def test_browser_is_served(launcher: LocalNeo4j) -> None:
    with urllib.request.urlopen(launcher.browser_url, timeout=10) as response:
        assert response.status == 200
        html = response.read().decode("utf-8", "replace")
    assert "neo4j" in html.lower()
    assert "<html" in html.lower()


def test_bolt_answers_a_query(launcher: LocalNeo4j) -> None:
    info = provide(start=False)
    with GraphDatabase.driver(info.uri, auth=info.auth) as driver:
        records, _, _ = driver.execute_query("RETURN 41 + 1 AS answer", database_=info.database)
    assert records[0]["answer"] == 42


def test_provide_finds_the_running_launcher(
    launcher: LocalNeo4j, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    info = provide(start=False)
    assert info.source == "launcher"
    assert info.uri == launcher.bolt_uri
    assert info.auth is None


def test_provide_prefers_neo4j_uri_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://db.example.invalid:7687")
    monkeypatch.setenv("NEO4J_USER", "alice")
    monkeypatch.setenv("NEO4J_PASSWORD", "s3cret-pass")
    monkeypatch.setenv("NEO4J_DATABASE", "beliefs")
    info = provide()
    assert info.source == "env"
    assert info.uri == "bolt://db.example.invalid:7687"
    assert info.auth == ("alice", "s3cret-pass")
    assert info.database == "beliefs"
    assert "s3cret-pass" not in repr(info)
