"""What a Neo4j server looks like from outside: its status, port and HTTP probes, and the shipped
files under ``docker/`` that start one."""

from __future__ import annotations

import json
import shutil
import socket
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from belief_graph.errors import ConfigError

HOST = "127.0.0.1"


@dataclass(frozen=True)
class ServerStatus:
    """What ``status()`` reports about a Neo4j server on this machine."""

    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    version: str | None
    source: str = "launcher"

    def as_dict(self) -> dict[str, Any]:
        """The status as a JSON-ready dict."""
        return asdict(self)


def resource_path(*parts: str) -> Path:
    """A file under ``docker/``: from the source checkout, else from the installed wheel."""
    package_dir = Path(__file__).resolve().parent.parent
    for base in (package_dir.parent / "docker", package_dir / "_resources" / "docker"):
        candidate = base.joinpath(*parts)
        if candidate.exists():
            return candidate
    raise ConfigError(f"docker/{'/'.join(parts)} is missing from the belief-graph installation")


def port_open(port: int, host: str = HOST, timeout: float = 0.5) -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def free_port(host: str = HOST) -> int:
    """A TCP port nothing listens on right now (the OS picks it)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def http_root(port: int, host: str = HOST, timeout: float = 2.0) -> dict[str, Any] | None:
    """The JSON discovery document Neo4j serves at ``/``, or None if nothing sensible answers."""
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/", timeout=timeout) as response:
            body = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError, urllib.error.URLError):
        return None
    return body if isinstance(body, dict) else None


def database_answers(port: int, database: str = "neo4j", host: str = HOST) -> bool:
    """Whether ``database`` runs a query over Neo4j's HTTP API (a server without auth, as the
    launcher's). Neo4j 2026 opens its ports before the default database is online; Bolt and the
    discovery document alone would call it ready while queries still fail."""
    request = urllib.request.Request(
        f"http://{host}:{port}/db/{database}/tx/commit",
        data=json.dumps({"statements": [{"statement": "RETURN 1"}]}).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            body = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        # An HTTP API a later version no longer serves says nothing about the database, and a
        # server whose override file turned auth on answers but will not run the query.
        return exc.code in (401, 404)
    except (OSError, ValueError):
        return False
    return isinstance(body, dict) and not body.get("errors")


def require_tool(name: str, hint: str) -> str:
    """The path of ``name`` on PATH; a ``ConfigError`` saying what to install when missing."""
    path = shutil.which(name)
    if path is None:
        raise ConfigError(f"`{name}` not found on PATH: install {hint}")
    return path
