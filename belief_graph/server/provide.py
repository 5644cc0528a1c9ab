"""Find a Neo4j to talk to: ``NEO4J_URI``, else Docker (testcontainers), else the local launcher.

The order is DESIGN.md §8. Whatever is found is returned as a ``ConnectionInfo``; nothing here
opens a driver (``store.py`` is the only module that imports ``neo4j``).
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
from belief_graph.settings import EngineSettings, Neo4jSettings

Source = Literal["env", "docker", "launcher"]

DOCKER_IMAGE = "neo4j:5.26-community"
_PING_TIMEOUT = 2.0

_lock = threading.Lock()
_container: Any = None
_container_info: ConnectionInfo | None = None


@dataclass(frozen=True)
class ConnectionInfo:
    """How to reach a Neo4j database, and where that answer came from."""

    uri: str
    user: str
    password: str = field(repr=False)
    database: str
    source: Source

    @property
    def auth(self) -> tuple[str, str] | None:
        """Driver ``auth``: None when there is no password (the launcher runs without auth)."""
        return (self.user, self.password) if self.password else None


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


def _stop_container() -> None:
    global _container, _container_info
    with _lock:
        container, _container, _container_info = _container, None, None
    if container is not None:
        # At interpreter exit a failure is not actionable; testcontainers' reaper cleans up.
        with contextlib.suppress(Exception):
            container.stop()


def _from_docker(database: str) -> ConnectionInfo:
    global _container, _container_info
    with _lock:
        if _container_info is not None:
            return _container_info
        # testcontainers >= 4.14 moved the module; the old path only warns and re-exports.
        from testcontainers.community.neo4j import Neo4jContainer as Container

        password = secrets.token_urlsafe(24)
        container = Container(DOCKER_IMAGE, password=password)
        try:
            container.start()
        except Exception as exc:
            raise StoreUnavailable(f"could not start {DOCKER_IMAGE} with Docker: {exc}") from exc
        _container = container
        _container_info = ConnectionInfo(
            uri=container.get_connection_url(),
            user="neo4j",
            password=password,
            database=database,
            source="docker",
        )
        atexit.register(_stop_container)
        return _container_info


def provide(start: bool = True) -> ConnectionInfo:
    """Where the database is, per DESIGN.md §8; starts one unless ``start`` is False.

    (a) ``NEO4J_URI`` set: use it. (b) A Docker engine answers: a ``neo4j:5.26-community``
    container, kept for the life of this process. (c) Java and Maven: the local launcher.
    ``start=False`` only reports a database that is already up.
    Raises ``ConfigError`` when none of the three is possible, ``StoreUnavailable`` when
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
    if _container_info is not None:
        return _container_info
    if start and docker_available():
        return _from_docker(neo4j.database)

    from belief_graph.launcher import LocalNeo4j

    local = LocalNeo4j(EngineSettings())
    info = ConnectionInfo(
        uri=local.bolt_uri, user=neo4j.user, password="", database=neo4j.database, source="launcher"
    )
    if local.is_running():
        return info
    if not start:
        raise StoreUnavailable(
            "no Neo4j is running: set NEO4J_URI, or run `belief-graph neo4j start`"
        )
    missing = local.missing_tools()
    if missing:
        raise ConfigError(
            f"no Neo4j available ({' and '.join(missing)} not found). Do one of: set NEO4J_URI "
            "(and NEO4J_USER/NEO4J_PASSWORD) to an existing server; run a Docker engine "
            "(testcontainers then starts one); or install Java 17 and Maven so the local "
            "launcher can fetch and start Neo4j Community"
        )
    local.start()
    return info
