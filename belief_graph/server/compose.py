"""Neo4j from ``docker/compose.yaml``: the user's server on a machine with a Docker engine."""

from __future__ import annotations

import os
import subprocess

from belief_graph.errors import ConfigError, StoreUnavailable
from belief_graph.server.status import (
    HOST,
    ServerStatus,
    http_root,
    port_open,
    require_tool,
    resource_path,
)
from belief_graph.settings import ServerSettings


class ComposeNeo4j:
    """Neo4j from ``docker/compose.yaml`` (auth on; password from ``docker/.env``)."""

    def __init__(self, settings: ServerSettings | None = None) -> None:
        self.settings = settings or ServerSettings()

    @property
    def bolt_uri(self) -> str:
        """The Bolt URI clients connect to."""
        return f"bolt://{HOST}:{self.settings.bolt_port}"

    def _run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        docker = require_tool("docker", "Docker")
        env = {
            **os.environ,
            "NEO4J_BOLT_PORT": str(self.settings.bolt_port),
            "NEO4J_HTTP_PORT": str(self.settings.http_port),
            "BELIEF_GRAPH_NEO4J_VERSION": self.settings.neo4j_version,
        }
        cmd = [docker, "compose", "-f", str(resource_path("compose.yaml")), *args]
        try:
            result = subprocess.run(
                cmd, capture_output=True, text=True, env=env, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired as exc:
            raise StoreUnavailable(f"`docker compose {' '.join(args)}` timed out") from exc
        if result.returncode != 0:
            lines = result.stderr.strip().splitlines() or ["(no output)"]
            raise ConfigError(f"docker compose {args[0]} failed: {lines[-1]}")
        return result

    def start(self, wait_seconds: float = 120) -> ServerStatus:
        """``docker compose up`` and wait for the container's health check."""
        self._run("up", "-d", "--wait", "--wait-timeout", str(int(wait_seconds)))
        return self.status()

    def stop(self) -> bool:
        """``docker compose stop`` (the data volume is kept)."""
        self._run("stop")
        return True

    def status(self) -> ServerStatus:
        """Whether the compose service answers, with its URIs and version."""
        root = http_root(self.settings.http_port)
        running = root is not None and port_open(self.settings.bolt_port)
        return ServerStatus(
            running=running,
            pid=None,
            bolt_uri=self.bolt_uri,
            browser_url=f"http://{HOST}:{self.settings.http_port}/browser/",
            version=str(root["neo4j_version"]) if root and "neo4j_version" in root else None,
            source="docker",
        )
