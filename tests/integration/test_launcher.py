"""The local launcher against a real Neo4j server of the configured version (Java + Maven; no
Docker needed).

"The user's server" here is the sandboxed one of ``user_sandbox`` (its own cache directory and
ports), so these tests never start, stop or read the real user's server. Throwaway servers, the
private kind tests and benchmarks run on, are checked beside it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from typer.testing import CliRunner

from belief_graph.cli.app import app
from belief_graph.errors import ConfigError
from belief_graph.server.java import find_java
from belief_graph.server.launcher import LocalNeo4j
from belief_graph.server.provide import provide
from belief_graph.server.status import ServerStatus, port_open
from belief_graph.settings import ServerSettings
from belief_graph.testing.servers import UserSandbox

# Starts servers of its own: the slow tier, on the worker that holds the sandboxed user's server.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("user-sandbox")]


@pytest.fixture
def launcher(user_sandbox: UserSandbox, monkeypatch: pytest.MonkeyPatch) -> LocalNeo4j:
    """The user's server as the (sandboxed) environment defines it, already running."""
    user_sandbox.apply(monkeypatch)
    local = LocalNeo4j()
    assert local.home == user_sandbox.server.home
    return local


def test_status_reports_uris_and_version(launcher: LocalNeo4j) -> None:
    status = launcher.status()
    assert isinstance(status, ServerStatus)
    assert status.running
    assert status.pid is not None
    assert status.bolt_uri == f"bolt://127.0.0.1:{launcher.settings.bolt_port}"
    assert status.browser_url == f"http://127.0.0.1:{launcher.settings.http_port}/browser/"
    assert status.version == ServerSettings().neo4j_version
    assert launcher.is_running()


def test_start_again_reuses_the_running_server(launcher: LocalNeo4j) -> None:
    before = launcher.status().pid
    started = time.monotonic()
    status = launcher.start()
    assert status.pid == before
    assert time.monotonic() - started < 5


def test_lucene_gets_the_jdk_vector_api_where_the_java_has_it(launcher: LocalNeo4j) -> None:
    """Vector search runs on the JDK's SIMD Vector API on Java 21+ (about twice as fast on
    2026.08.1 here); Lucene warns in the server's log when it cannot, or when the Java is too old
    for the flag."""
    launched = launcher.log_file.read_text(errors="replace").rsplit(
        "belief-graph launcher start", 1
    )
    this_start = launched[-1]
    assert "vector incubator module is not readable" not in this_start
    assert "your Java version is too old" not in this_start
    java = find_java(launcher.settings.neo4j_version, launcher.settings).major
    uses_it = "Using incubator modules: jdk.incubator.vector" in this_start
    assert uses_it == (java >= 21)


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


def test_provide_finds_the_running_launcher(launcher: LocalNeo4j) -> None:
    info = provide(start=False)
    assert info.source == "launcher"
    assert info.uri == launcher.bolt_uri
    assert info.browser_url == launcher.browser_url
    assert info.auth is None
    assert not info.private


def test_provide_prefers_neo4j_uri_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://db.example.invalid:7687")
    monkeypatch.setenv("NEO4J_USER", "alice")
    monkeypatch.setenv("NEO4J_PASSWORD", "s3cret-pass")
    monkeypatch.setenv("NEO4J_DATABASE", "beliefs")
    for for_tests in (False, True):
        info = provide(for_tests=for_tests)
        assert info.source == "env"
        assert info.uri == "bolt://db.example.invalid:7687"
        assert info.auth == ("alice", "s3cret-pass")
        assert info.database == "beliefs"
        assert "s3cret-pass" not in repr(info)


# -- the CLI's neo4j commands on the user's server ---------------------------------------------


def test_cli_status_reports_the_users_server(launcher: LocalNeo4j) -> None:
    result = CliRunner().invoke(app, ["neo4j", "status", "--json"])
    assert result.exit_code == 0, result.output
    status = json.loads(result.stdout)
    assert status["running"] and status["source"] == "launcher"
    assert status["pid"] == launcher.status().pid
    assert status["bolt_uri"] == launcher.bolt_uri


def test_cli_start_reuses_the_running_server(launcher: LocalNeo4j) -> None:
    pid = launcher.status().pid
    result = CliRunner().invoke(app, ["neo4j", "start", "--launcher", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["pid"] == pid
    text = CliRunner().invoke(app, ["neo4j", "status"])
    assert f"Bolt:    {launcher.bolt_uri}" in text.stdout
    assert f"(pid {pid})" in text.stdout


# -- throwaway servers ---------------------------------------------------------------------------


def test_a_throwaway_server_shares_only_the_jars(launcher: LocalNeo4j) -> None:
    private = LocalNeo4j.throwaway()
    try:
        assert private.lib_dir == launcher.lib_dir
        assert private.home != launcher.home
        assert private.home.parent == launcher.settings.cache_dir / "throwaway"
        ports = {private.settings.bolt_port, private.settings.http_port}
        assert len(ports) == 2
        assert not ports & {launcher.settings.bolt_port, launcher.settings.http_port}
        assert not any(port_open(port) for port in ports)
        with pytest.raises(ConfigError, match="user's server is kept"):
            launcher.discard()
    finally:
        private.discard()
    assert not private.home.exists()
    assert launcher.is_running()


def test_throwaway_servers_of_dead_processes_are_discarded(tmp_path: Path) -> None:
    settings = ServerSettings(cache_dir=tmp_path)
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    orphan = tmp_path / "throwaway" / "server-orphan"
    (orphan / "data").mkdir(parents=True)
    (orphan / "owner.pid").write_text(gone.stdout)
    alive = tmp_path / "throwaway" / "server-alive"
    alive.mkdir()
    (alive / "owner.pid").write_text(f"{os.getppid()}\n")

    fresh = LocalNeo4j.throwaway(settings)

    assert not orphan.exists()
    assert alive.exists()
    assert (fresh.home / "owner.pid").read_text().strip() == str(os.getpid())
    fresh.discard()


# -- one launcher at a time -----------------------------------------------------------------------


def _jvms_of(home: Path) -> list[int]:
    """The live processes running a Neo4j server from ``home``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"--home-dir={home}".encode() in args:
            found.append(int(entry.name))
    return found


def test_two_starts_at_once_run_one_server() -> None:
    from concurrent.futures import ThreadPoolExecutor

    first = LocalNeo4j.throwaway()
    twin = LocalNeo4j(first.settings, home=first.home)  # a second process's view of it
    try:
        with ThreadPoolExecutor(2) as pool:
            statuses = list(pool.map(lambda s: s.start(), (first, twin)))
        assert statuses[0].pid == statuses[1].pid is not None
        assert _jvms_of(first.home) == [statuses[0].pid]
        assert twin.stop() is True
        assert first.stop() is False
        assert _jvms_of(first.home) == []
    finally:
        first.discard()


def test_two_resolves_at_once_share_one_download(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    settings = ServerSettings(cache_dir=tmp_path)
    with ThreadPoolExecutor(2) as pool:
        dirs = list(pool.map(lambda _: LocalNeo4j(settings).resolve(), range(2)))
    assert dirs[0] == dirs[1] and LocalNeo4j(settings)._resolved()
    assert not list(dirs[0].parent.glob("lib.partial-*"))
