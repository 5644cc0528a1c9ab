"""Find a Neo4j to talk to: one order for the library, the CLI, the tests and the benchmarks.

1. ``NEO4J_URI`` set: that server, for everyone (tests then refuse to wipe it while it holds
   data, unless ``BELIEF_GRAPH_TEST_WIPE=1``).
2. Otherwise the library and the CLI use the user's own server: the launcher's when it runs or
   there is no Docker engine, else ``docker/compose.yaml``; started when needed.
3. Otherwise tests and benchmarks (``for_tests=True``) never touch the user's server: they get a
   private one, a testcontainer where a Docker engine answers, else a throwaway launcher server
   with its own home and free ports; it lives as long as this process.

Whatever is found is returned as a ``ConnectionInfo``; nothing here opens a driver (``store.py``
is the only module that imports ``neo4j``).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import secrets
import shutil
import subprocess
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

from belief_graph.errors import ConfigError, StoreUnavailable
from belief_graph.server.compose import ComposeNeo4j
from belief_graph.server.launcher import LocalNeo4j
from belief_graph.settings import Neo4jSettings, ServerSettings

Source = Literal["env", "launcher", "compose", "docker"]

_PING_TIMEOUT = 2.0
TEST_EXTRA = "pip install 'belief-graph[test]'"

_lock = threading.Lock()
_private: Any = None  # the testcontainer or throwaway LocalNeo4j of this process
_private_info: ConnectionInfo | None = None


@dataclass(frozen=True)
class ConnectionInfo:
    """How to reach a Neo4j database, and where that answer came from.

    ``private`` is True for a server started for this process's tests or benchmarks alone.
    """

    uri: str
    user: str
    password: str = field(repr=False)
    database: str
    source: Source
    private: bool = False
    browser_url: str | None = None

    @property
    def auth(self) -> tuple[str, str] | None:
        """Driver ``auth``: None when there is no password (the launcher runs without auth)."""
        return (self.user, self.password) if self.password else None


def docker_image(version: str | None = None) -> str:
    """The Docker image of the Neo4j version belief-graph runs (``ServerSettings``)."""
    return f"neo4j:{version or ServerSettings().neo4j_version}-community"


def docker_available() -> bool:
    """Whether a Docker engine answers a ping (fails fast when there is none)."""
    try:
        docker_sdk = importlib.import_module("docker")
    except ImportError:
        docker_sdk = None
    if docker_sdk is not None:
        try:
            client = docker_sdk.from_env(timeout=_PING_TIMEOUT)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:
            return False
    docker_cli = shutil.which("docker")
    if docker_cli is None:
        return False
    try:
        result = subprocess.run(
            [docker_cli, "info", "--format", "{{.ServerVersion}}"],
            capture_output=True,
            timeout=_PING_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def user_server() -> LocalNeo4j | ComposeNeo4j:
    """The user's own server: the launcher's when it runs or no Docker engine answers, else the
    ``docker/compose.yaml`` one. What ``belief-graph neo4j start`` starts."""
    local = LocalNeo4j()
    if local.is_running() or not docker_available():
        return local
    return ComposeNeo4j()


def provide(
    start: bool = True, *, for_tests: bool = False, in_memory: bool = False
) -> ConnectionInfo:
    """Where the database is, in the order of this module's docstring.

    ``start=False`` only reports a database that is already up. ``for_tests`` is for the test
    suite and the benchmarks: without ``NEO4J_URI`` they get a private server, never the user's.
    ``in_memory`` asks for a private launcher server whose store lives in RAM where the
    machine allows (the test suite: isolation, not durability; benchmarks measure a disk).
    Raises ``ConfigError`` when no server can be found or started, ``StoreUnavailable`` when
    ``start`` is False and nothing is running.
    """
    neo4j = Neo4jSettings()
    if neo4j.uri:
        return ConnectionInfo(
            uri=neo4j.uri,
            user=neo4j.user,
            password=neo4j.password.get_secret_value(),
            database=neo4j.database,
            source="env",
        )
    if for_tests:
        return _private_server(neo4j, start, in_memory)
    server = user_server()
    status = server.status()
    info = ConnectionInfo(
        uri=status.bolt_uri,
        user=neo4j.user,
        # The launcher runs without auth; compose's password is the user's NEO4J_PASSWORD.
        password=neo4j.password.get_secret_value() if isinstance(server, ComposeNeo4j) else "",
        database=neo4j.database,
        source="compose" if isinstance(server, ComposeNeo4j) else "launcher",
        browser_url=status.browser_url,
    )
    if status.running:
        return info
    if not start:
        raise StoreUnavailable(
            "no Neo4j is running: set NEO4J_URI, or run `belief-graph neo4j start`"
        )
    if isinstance(server, LocalNeo4j):
        _require_launcher_tools(server)
    server.start()
    return info


def _require_launcher_tools(local: LocalNeo4j) -> None:
    missing = local.missing_tools()
    if missing:
        raise ConfigError(
            f"no Neo4j available ({' and '.join(missing)} not found). Do one of: set NEO4J_URI "
            "(and NEO4J_USER/NEO4J_PASSWORD) to an existing server; run a Docker engine; or "
            "install Java (17 for Neo4j 5, 21+ for 2026) and Maven so the local launcher can "
            "fetch and start Neo4j Community"
        )


def _private_server(neo4j: Neo4jSettings, start: bool, in_memory: bool) -> ConnectionInfo:
    global _private, _private_info
    with _lock:
        if _private_info is not None:
            return _private_info
        if not start:
            raise StoreUnavailable("this process has not started a private Neo4j")
        if docker_available():
            _private, _private_info = _from_docker(neo4j.database)
        else:
            _require_launcher_tools(LocalNeo4j())
            local = LocalNeo4j.throwaway(in_memory=in_memory)
            atexit.register(release)
            _private = local
            local.start(wait_seconds=600)  # a loaded machine may take minutes
            _private_info = ConnectionInfo(
                uri=local.bolt_uri,
                user=neo4j.user,
                password="",
                database=neo4j.database,
                source="launcher",
                private=True,
                browser_url=local.browser_url,
            )
        return _private_info


def _from_docker(database: str) -> tuple[Any, ConnectionInfo]:
    try:
        # testcontainers >= 4.14 moved the module; the old path only warns and re-exports.
        from testcontainers.community.neo4j import Neo4jContainer
    except ImportError as exc:
        raise ConfigError(
            "a Docker engine answers, and tests and benchmarks run Neo4j there with "
            f"testcontainers, which is not installed: {TEST_EXTRA} (or set NEO4J_URI)"
        ) from exc
    image = docker_image()
    password = secrets.token_urlsafe(24)
    container = Neo4jContainer(image, password=password)
    atexit.register(release)
    try:
        container.start()
    except Exception as exc:
        raise StoreUnavailable(f"could not start {image} with Docker: {exc}") from exc
    info = ConnectionInfo(
        uri=container.get_connection_url(),
        user="neo4j",
        password=password,
        database=database,
        source="docker",
        private=True,
    )
    return container, info


def release() -> None:
    """Stop the private server ``provide(for_tests=True)`` started, and delete its data."""
    global _private, _private_info
    with _lock:
        server, _private, _private_info = _private, None, None
    if isinstance(server, LocalNeo4j):
        server.discard()
    elif server is not None:
        # At interpreter exit a failure is not actionable; testcontainers' reaper cleans up.
        with contextlib.suppress(Exception):
            server.stop()
