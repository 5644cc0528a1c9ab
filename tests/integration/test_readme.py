"""The README's "Plug it into an agent" snippets, run as they are written, so that they cannot
rot: the fenced blocks tagged ``agent:<path>`` (or ``agent:<path>/<part>``) are read from
README.md. Each path is under ten lines. The MCP configs are started as a host starts them
(the stdio server from its ``command`` and ``args``, the HTTP server from its shell lines, then
the client config's URL and header); the Python blocks run in this process. What stands in for
this machine: the test database (``NEO4J_*``), the offline models (``BeliefGraph.connect`` gives
them, as a machine with the models would), the chat endpoint (a ``ChatReplayServer``), the
HTTP port (a free one) and the token (a fixed one, for ``$(openssl rand -hex 32)``)."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from belief_graph import BeliefGraph
from belief_graph.detect import Detector
from belief_graph.server.provide import ConnectionInfo
from belief_graph.server.status import free_port
from belief_graph.testing.chat_replay import ChatReplayServer

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCK = re.compile(r"^```(\w+) agent:([\w-]+)(?:/([\w-]+))?\n(.*?)^```$", re.M | re.S)
PATHS = {"mcp-stdio", "mcp-http", "langgraph", "observe", "python"}
NS = "user:priya"
TOKEN = secrets.token_hex(32)  # what `openssl rand -hex 32` gives, drawn per run


def blocks() -> dict[str, dict[str, tuple[str, str]]]:
    """path → part → (language, code), from README.md."""
    found: dict[str, dict[str, tuple[str, str]]] = {}
    for language, path, part, code in BLOCK.findall(README.read_text(encoding="utf-8")):
        found.setdefault(path, {})[part or ""] = (language, code)
    return found


def code(path: str, part: str = "") -> str:
    return blocks()[path][part][1]


def test_every_way_in_is_in_the_readme_in_under_ten_lines() -> None:
    found = blocks()
    assert set(found) == PATHS
    for path, parts in found.items():
        lines = [line for _, text in parts.values() for line in text.splitlines() if line.strip()]
        assert len(lines) < 10, f"{path}: {len(lines)} lines"


def database_env(info: ConnectionInfo) -> dict[str, str]:
    return {
        "NEO4J_URI": info.uri,
        "NEO4J_USER": info.user,
        "NEO4J_PASSWORD": info.password,
        "NEO4J_DATABASE": info.database,
    }


def host_env(info: ConnectionInfo) -> dict[str, str]:
    """A host's environment on this machine: the test database, no models (none the server
    could load here: docs/mcp.md), the project's scripts on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env["BELIEF_GRAPH_MODELS"] = "false"
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.fixture
def machine(
    neo4j_info: ConnectionInfo,
    bg: BeliefGraph,
    offline_models: tuple[object, object],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[None]:
    """This process as a user's machine with the models: ``BeliefGraph.connect()`` finds the
    test database and gives the offline models."""
    for name, value in database_env(neo4j_info).items():
        monkeypatch.setenv(name, value)
    for name in [k for k in os.environ if k.startswith("BELIEF_GRAPH_EXTRACTOR_")]:
        monkeypatch.delenv(name)
    original = BeliefGraph.connect
    opened: list[BeliefGraph] = []

    def connect(*args: Any, **kwargs: Any) -> BeliefGraph:
        made = original(*args, **{**kwargs, "models": False})
        opened.append(made)
        return BeliefGraph(
            made.store,
            vocabulary=made.vocabulary,
            policy=made.policy,
            detector=Detector(*offline_models),  # type: ignore[arg-type]
        )

    monkeypatch.setattr(BeliefGraph, "connect", staticmethod(connect))
    yield
    for made in opened:
        made.close()


def run_python(source: str, capsys: pytest.CaptureFixture[str]) -> str:
    exec(compile(source, str(README), "exec"), {"__name__": "readme"})
    return capsys.readouterr().out


@pytest.mark.slow
def test_the_python_api(machine: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_python(code("python"), capsys) == "CONFLICT aggressive\n"


def test_the_langgraph_store(machine: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_python(code("langgraph"), capsys) == "{'diet': 'vegetarian'}\n"


def test_observe_through_an_openai_compatible_endpoint(
    machine: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = {
        "claims": [
            {
                "subject": "priya",
                "predicate": "lives_in",
                "object": "Lisbon",
                "sentence": "Priya lives in Lisbon.",
                "source": "I moved to Lisbon in May.",
            }
        ]
    }
    with ChatReplayServer({"I moved to Lisbon in May.": json.dumps(answer)}) as endpoint:
        for line in code("observe", "env").splitlines():
            name, _, value = line.removeprefix("export ").partition("=")
            if name == "BELIEF_GRAPH_EXTRACTOR_URL":
                value = endpoint.base_url  # the replay server stands in for the endpoint
            monkeypatch.setenv(name, value.split("#")[0].strip())
        out = run_python(code("observe", "python"), capsys)
        [request] = endpoint.requests
    assert request["model"] == "qwen2.5:7b-instruct"
    # The rules read the turn first and their reading stands; the model's claim of the same
    # fact is not stored twice (LayeredExtractor, the default with a model configured).
    assert out == "NEW priya moved to Lisbon.\n"


async def use_memory(session: ClientSession) -> None:
    """What an agent does first: list the tools, remember, ask."""
    await session.initialize()
    assert "remember" in {t.name for t in (await session.list_tools()).tools}
    stored = await session.call_tool(
        "remember",
        {
            "claims": [
                {
                    "subject": "user",
                    "predicate": "city",
                    "object": "Lisbon",
                    "text": "Priya lives in Lisbon.",
                }
            ]
        },
    )
    assert not stored.is_error, stored.content
    answer = await session.call_tool("current", {"subject": "user", "predicate": "city"})
    assert not answer.is_error and answer.structured_content is not None
    assert answer.structured_content["beliefs"][0]["object"] == "Lisbon"


@pytest.mark.slow
def test_the_mcp_stdio_config_as_a_host_starts_it(
    neo4j_info: ConnectionInfo, bg: BeliefGraph
) -> None:
    entry = json.loads(code("mcp-stdio"))["mcpServers"]["belief-graph"]
    env = {**host_env(neo4j_info), **entry.get("env", {}), **database_env(neo4j_info)}
    assert shutil.which(entry["command"], path=env["PATH"])
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)

    async def body() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await use_memory(session)

    anyio.run(body)
    assert bg.current(NS, "user", "city") is not None


@pytest.mark.slow
def test_the_mcp_http_server_and_client_config_with_its_token(
    neo4j_info: ConnectionInfo, bg: BeliefGraph
) -> None:
    port = str(free_port())
    server = code("mcp-http", "server")
    assert "$(openssl rand -hex 32)" in server and "8765" in server
    server = server.replace("$(openssl rand -hex 32)", TOKEN).replace("8765", port)
    client = json.loads(code("mcp-http", "client").replace("8765", port))
    entry = client["mcpServers"]["belief-graph"]
    headers = {k: v.replace("<the token>", TOKEN) for k, v in entry["headers"].items()}
    env = {**host_env(neo4j_info), **database_env(neo4j_info)}
    shell = subprocess.Popen(
        ["bash", "-c", server], env=env, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 90
        while True:
            assert shell.poll() is None, shell.stderr.read().decode()  # type: ignore[union-attr]
            try:
                socket.create_connection(("127.0.0.1", int(port)), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen within 90 s"
                time.sleep(0.2)
        refused = httpx.post(entry["url"], json={}, timeout=10)
        assert refused.status_code == 401  # the token is required

        async def body() -> None:
            http = create_mcp_http_client(headers=headers)
            async with (
                http,
                streamable_http_client(entry["url"], http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await use_memory(session)

        anyio.run(body)
    finally:
        os.killpg(shell.pid, signal.SIGTERM)
        shell.wait(timeout=30)
    assert bg.current(NS, "user", "city") is not None
