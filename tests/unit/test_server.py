"""Finding Neo4j without a database: which server each caller gets, what the runtime imports,
and the settings that describe the server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from belief_graph.errors import ConfigError
from belief_graph.server import provide
from belief_graph.server.compose import ComposeNeo4j
from belief_graph.server.launcher import LocalNeo4j
from belief_graph.settings import EngineSettings, ServerSettings


def test_the_runtime_never_imports_testcontainers() -> None:
    code = (
        "import sys\n"
        "sys.modules['testcontainers'] = None  # as on a plain install\n"
        "import belief_graph, belief_graph.cli.app, belief_graph.client\n"
        "import belief_graph.server.provide\n"
        "from belief_graph.cli.app import app\n"
        "print(sorted(m for m in sys.modules if m.startswith('testcontainers')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['testcontainers']"  # only the blocker set above


def test_tests_on_a_docker_host_without_testcontainers_name_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "testcontainers", None)
    monkeypatch.setitem(sys.modules, "testcontainers.community", None)
    monkeypatch.setitem(sys.modules, "testcontainers.community.neo4j", None)
    with pytest.raises(ConfigError, match=r"pip install 'belief-graph\[test\]'"):
        provide._from_docker("neo4j")


def test_the_users_server_is_the_launchers_unless_docker_answers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_CACHE_DIR", str(tmp_path))  # no launcher server runs here
    monkeypatch.setattr(provide, "docker_available", lambda: False)
    assert isinstance(provide.user_server(), LocalNeo4j)
    monkeypatch.setattr(provide, "docker_available", lambda: True)
    assert isinstance(provide.user_server(), ComposeNeo4j)


def test_server_settings_keep_their_environment_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_BOLT_PORT", "17001")
    monkeypatch.setenv("BELIEF_GRAPH_HTTP_PORT", "17002")
    monkeypatch.setenv("BELIEF_GRAPH_CACHE_DIR", "/somewhere/else")
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J_VERSION", "2026.08.1")
    server = ServerSettings()
    assert (server.bolt_port, server.http_port) == (17001, 17002)
    assert server.cache_dir == Path("/somewhere/else")
    assert provide.docker_image() == "neo4j:2026.08.1-community"
    assert LocalNeo4j().bolt_uri == "bolt://127.0.0.1:17001"
    assert not {"bolt_port", "http_port", "cache_dir", "neo4j_version"} & set(
        EngineSettings.model_fields
    )
