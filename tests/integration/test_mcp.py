"""The MCP server driven by the SDK's own client, over stdio and streamable HTTP, on the real
Neo4j: what an agent host configured from docs/mcp.md sees."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from belief_graph import BeliefGraph, HistoricalDraft
from belief_graph.integrations.mcp import TOOL_NAMES, McpSettings, build_server, http_app
from belief_graph.server.provide import ConnectionInfo
from belief_graph.server.status import free_port

NS = "user:priya"
ATLAS = "project:atlas"
SERVER = [sys.executable, "-m", "belief_graph.cli", "mcp"]

Opener = Callable[..., Any]


def server_env(info: ConnectionInfo) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "BELIEF_GRAPH_NAMESPACE"}
    env.update(
        NEO4J_URI=info.uri,
        NEO4J_USER=info.user,
        NEO4J_PASSWORD=info.password,
        NEO4J_DATABASE=info.database,
        BELIEF_GRAPH_MODELS="false",
    )
    return env


@asynccontextmanager
async def stdio_session(env: dict[str, str], args: list[str]) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], *args], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def start_http(env: dict[str, str], args: list[str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [*SERVER, "--http", "--port", str(port), *args], env=env, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {proc.stderr.read().decode()}")  # type: ignore[union-attr]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the HTTP server did not listen within 60 s")


@asynccontextmanager
async def http_session(
    url: str, headers: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    client = create_mcp_http_client(headers=headers)
    async with (
        client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@pytest.fixture(params=["stdio", "http"])
def open_session(
    request: pytest.FixtureRequest, neo4j_info: ConnectionInfo, bg: BeliefGraph
) -> Iterator[Opener]:
    """``open_session(*server_args)``: an async context manager yielding an initialized client
    session on a fresh server process (structural detection), on the clean test database."""
    procs: list[subprocess.Popen[bytes]] = []

    def opener(*args: str) -> Any:
        env = server_env(neo4j_info)
        if request.param == "stdio":
            return stdio_session(env, ["-n", NS, *args])
        port = free_port()
        procs.append(start_http(env, ["-n", NS, *args], port))
        return http_session(f"http://127.0.0.1:{port}/mcp")

    yield opener
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=30)


async def call(session: ClientSession, name: str, **arguments: Any) -> Any:
    """Call a tool that must succeed; its structured result (a list comes back unwrapped)."""
    result = await session.call_tool(name, arguments)
    assert not result.is_error, result.content
    data = result.structured_content
    assert data is not None
    return data["result"] if set(data) == {"result"} else data


async def fails(session: ClientSession, name: str, **arguments: Any) -> str:
    """Call a tool that must fail; the error text the model reads."""
    result = await session.call_tool(name, arguments)
    assert result.is_error
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert "Traceback" not in text
    return text


def run(body: Callable[[], Awaitable[None]]) -> None:
    anyio.run(body)


@pytest.mark.slow
def test_lists_every_tool_with_a_description_and_typed_schema(open_session: Opener) -> None:
    async def body() -> None:
        async with open_session() as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert set(tools) == set(TOOL_NAMES)
            for tool in tools.values():
                assert tool.description and len(tool.description) > 40
            memory = tools["remember"].input_schema["$defs"]["Memory"]
            assert memory["required"] == ["text"] and "namespace" not in memory["properties"]
            assert "valid_at" in tools["as_of"].input_schema["properties"]
            resources = {str(r.uri) for r in (await session.list_resources()).resources}
            assert resources == {"belief-graph://conflicts", "belief-graph://pending"}

    run(body)


@pytest.mark.slow
def test_observe_turns_what_the_user_said_into_one_current_belief(open_session: Opener) -> None:
    async def body() -> None:
        async with open_session() as session:
            first = await call(
                session,
                "observe",
                text="I'm vegan - no meat, no fish, no dairy.",
                speaker="priya",
                at="2026-03-01T10:00:00Z",
            )
            assert first["extractor"] == "rules"
            assert [r["verdict"] for r in first["results"]] == ["NEW"]
            second = await call(
                session,
                "observe",
                text="Wait, I eat fish now. I'm pescatarian these days.",
                speaker="priya",
                at="2026-03-05T10:00:00Z",
                episode_id="chat-9:2",
            )
            assert second["episode_id"] == "chat-9:2" and second["refused"] == []
            answer = await call(session, "current", subject="priya", predicate="diet")
            assert [b["object"] for b in answer["beliefs"]] == ["pescatarian"]
            history = await call(session, "history", subject="priya", predicate="diet")
            assert [(c["object"], c["status"]) for c in history] == [
                ("vegan", "superseded"),
                ("pescatarian", "active"),
            ]
            bad = await fails(session, "observe", text="hi", speaker="priya", at="2026-03-01")
            assert "at: " in bad

    run(body)


@pytest.mark.slow
def test_priya_story_through_mcp_tools_alone(open_session: Opener) -> None:
    async def body() -> None:
        async with open_session() as session:
            first = await call(
                session,
                "remember",
                claims=[
                    {
                        "subject": "user",
                        "predicate": "risk tolerance",
                        "object": "cautious",
                        "text": "Priya is cautious with money.",
                        "episode_id": "S1",
                        "episode_content": "I'd rather keep my savings safe.",
                        "valid_from": "2026-05-01T12:00:00Z",
                    }
                ],
            )
            assert [r["verdict"] for r in first] == ["NEW"]
            flip = await call(
                session,
                "remember",
                claims=[
                    {
                        "subject": "user",
                        "predicate": "risk_tolerance",
                        "object": "aggressive",
                        "text": "Priya now has an aggressive risk tolerance.",
                        "episode_id": "S2",
                        "correction": True,
                        "valid_from": "2026-05-12T12:00:00Z",
                    }
                ],
            )
            assert flip[0]["verdict"] == "CONFLICT" and flip[0]["retired"] == first[0]["added"]

            now = await call(session, "current", subject="user", predicate="risk_tolerance")
            assert now["known"] and [c["object"] for c in now["beliefs"]] == ["aggressive"]
            assert now["beliefs"][0]["contradiction"]
            # Both learned now (the engine's clock): what held on May 10 is the first; what was
            # known then is nothing, and a client cannot say otherwise.
            held = await call(
                session,
                "as_of",
                subject="user",
                predicate="risk tolerance",
                valid_at="2026-05-10T00:00:00Z",
            )
            assert [c["object"] for c in held["beliefs"]] == ["cautious"]
            believed = await call(
                session,
                "as_of",
                subject="user",
                predicate="risk tolerance",
                known_at="2026-05-10T00:00:00Z",
            )
            assert believed["beliefs"] == [] and not believed["known"]
            stamped = await fails(
                session,
                "remember",
                claims=[
                    {
                        "subject": "user",
                        "predicate": "risk_tolerance",
                        "object": "balanced",
                        "text": "Priya has a balanced risk tolerance.",
                        "recorded_at": "2026-05-09T12:00:00Z",
                    }
                ],
            )
            assert "recorded_at" in stamped
            history = await call(session, "history", subject="user", predicate="risk_tolerance")
            assert [(c["object"], c["status"]) for c in history] == [
                ("cautious", "superseded"),
                ("aggressive", "active"),
            ]
            lineage = await call(session, "lineage", claim_id=now["beliefs"][0]["id"])
            assert [c["version"] for c in lineage["chain"]] == [1, 2]
            assert {e["id"] for e in lineage["episodes"]} == {"S1", "S2"}

            # A reinforced belief holds a contrary mention pending: the answer shows it beside.
            for session_id in ("S3", "S4", "S5"):
                await call(
                    session,
                    "remember",
                    claims=[
                        {
                            "subject": "user",
                            "predicate": "diet",
                            "object": "vegetarian",
                            "text": "Priya is vegetarian.",
                            "episode_id": session_id,
                        }
                    ],
                )
            held = await call(
                session,
                "remember",
                claims=[
                    {
                        "subject": "user",
                        "predicate": "diet",
                        "object": "vegan",
                        "text": "Priya is vegan now.",
                    }
                ],
            )
            assert held[0]["decision"] == "hold_pending"
            diet = await call(session, "current", subject="user", predicate="diet")
            assert [c["object"] for c in diet["beliefs"]] == ["vegetarian"]
            assert diet["contested"] and [c["object"] for c in diet["rivals"]] == ["vegan"]
            pending = await session.read_resource("belief-graph://pending")
            assert "Priya is vegan now." in pending.contents[0].text  # type: ignore[union-attr]
            conflicts = await call(session, "conflicts")
            assert [c["claim"]["object"] for c in conflicts] == ["vegan"]
            assert [c["object"] for c in await call(session, "pending")] == ["vegan"]

            await call(session, "confirm", claim_id=held[0]["added"][0])
            diet = await call(session, "current", subject="user", predicate="diet")
            assert [c["object"] for c in diet["beliefs"]] == ["vegan"] and not diet["contested"]
            assert await call(session, "pending") == []

    run(body)


@pytest.mark.slow
def test_an_agent_works_the_queues_down_with_the_user(open_session: Opener) -> None:
    def claim(obj: str, predicate: str = "diet", **extra: Any) -> dict[str, Any]:
        return {
            "subject": "user",
            "predicate": predicate,
            "object": obj,
            "text": f"Priya's {predicate} is {obj}.",
            **extra,
        }

    async def body() -> None:
        async with open_session() as session:
            for _ in range(3):
                await call(session, "remember", claims=[claim("vegetarian")])
            belief = (await call(session, "current", subject="user", predicate="diet"))["beliefs"][
                0
            ]["id"]
            held = (await call(session, "remember", claims=[claim("vegan")]))[0]["added"][0]
            # The user says the newer value is right: the conflict and the queue close.
            resolved = await call(
                session, "resolve", claim_id=held, rival_id=belief, keep=held, reason="asked"
            )
            assert resolved["retired"] == [belief]
            assert await call(session, "conflicts") == []
            assert await call(session, "pending") == []
            diet = await call(session, "current", subject="user", predicate="diet")
            assert [c["object"] for c in diet["beliefs"]] == ["vegan"]

            for _ in range(2):
                await call(session, "remember", claims=[claim("vegan")])
            other = (await call(session, "remember", claims=[claim("pescatarian")]))[0]
            assert other["decision"] == "hold_pending"
            await call(session, "dismiss", claim_id=other["added"][0], rival_id=held)
            assert await call(session, "conflicts") == []

            premise = (await call(session, "remember", claims=[claim("Lisbon", "lives in")]))[0]
            dependent = (
                await call(
                    session,
                    "remember",
                    claims=[claim("Lisbon FC", "supports team", depends_on=premise["added"])],
                )
            )[0]["added"][0]
            await call(session, "retract", claim_id=premise["added"][0], reason="wrong city")
            assert [c["id"] for c in await call(session, "review")] == [dependent]
            await call(session, "reviewed", claim_id=dependent, reason="still a fan")
            assert await call(session, "review") == []

    run(body)


@pytest.mark.slow
def test_an_agent_sees_a_dispute_and_promotes_on_the_users_word(open_session: Opener) -> None:
    def claim(obj: str, **extra: Any) -> dict[str, Any]:
        return {
            "subject": "atlas",
            "predicate": "package manager",
            "object": obj,
            "text": f"Atlas uses {obj}.",
            **extra,
        }

    async def body() -> None:
        async with open_session() as session:
            rule = (
                await call(
                    session, "remember", claims=[claim("pnpm", kind="policy", origin="ADR-7")]
                )
            )[0]["added"][0]
            seen = (
                await call(
                    session,
                    "remember",
                    claims=[claim("npm", source_type="observed", episode_id="ci-1")],
                )
            )[0]
            assert seen["decision"] == "hold_pending"
            [dispute] = await call(session, "disputes")
            assert dispute["policy"]["id"] == rule
            assert [c["id"] for c in dispute["evidence"]] == seen["added"]
            assert "only promote" in await fails(session, "confirm", claim_id=seen["added"][0])
            assert "origin" in await fails(
                session, "promote", claim_id=seen["added"][0], by="record"
            )
            promoted = await call(
                session, "promote", claim_id=seen["added"][0], by="human", reason="user said so"
            )
            assert promoted["op"] == "promote" and promoted["retired"] == [rule]
            now = await call(session, "current", subject="atlas", predicate="package manager")
            assert [(c["object"], c["kind"]) for c in now["beliefs"]] == [("npm", "policy")]
            demoted = await call(session, "demote", claim_id=now["beliefs"][0]["id"])
            assert demoted["op"] == "demote"
            assert (await call(session, "disputes"))[0]["policy"]["demoted"] is True

    run(body)


@pytest.mark.slow
def test_express_to_go_story_with_as_of_questions(open_session: Opener, bg: BeliefGraph) -> None:
    # What the project learned in spring, imported as history (a client of the MCP server cannot
    # stamp a transaction time; an operator imports history through the audited path).
    [_, go] = bg.import_history(
        [
            HistoricalDraft(
                namespace=ATLAS,
                subject="atlas",
                predicate="uses",
                object="Express.js",
                text="The project uses Express.js.",
                valid_from=datetime(2026, 3, 1, 12, tzinfo=UTC),
                recorded_at=datetime(2026, 3, 3, 12, tzinfo=UTC),
            ),
            HistoricalDraft(
                namespace=ATLAS,
                subject="atlas",
                predicate="is built with",
                object="Go",
                text="We switched the backend to Go.",
                valid_from=datetime(2026, 5, 15, 12, tzinfo=UTC),
                recorded_at=datetime(2026, 5, 16, 12, tzinfo=UTC),
            ),
        ],
        actor="operator",
    )
    assert go.verdict == "UPDATE" and go.op == "import"

    async def body() -> None:
        async with open_session("--allow-namespace", "project:*") as session:

            async def obj(**when: str) -> str | None:
                answer = await call(
                    session,
                    "as_of",
                    namespace=ATLAS,
                    subject="atlas",
                    predicate="uses_framework",
                    **when,
                )
                beliefs = answer["beliefs"]
                return beliefs[0]["object"] if beliefs else None

            now = await call(
                session, "current", namespace=ATLAS, subject="Atlas", predicate="runs on"
            )
            assert [c["object"] for c in now["beliefs"]] == ["Go"]
            assert await obj() == "Go"
            assert await obj(valid_at="2026-04-01T12:00:00Z") == "Express.js"
            assert await obj(known_at="2026-05-10T12:00:00Z") == "Express.js"
            assert await obj(valid_at="2026-05-20T12:00Z", known_at="2026-05-10T12:00Z") == (
                "Express.js"
            )
            assert await obj(valid_at="2026-05-20T12:00Z", known_at="2026-05-17T12:00Z") == "Go"
            assert await obj(valid_at="2026-02-01T12:00:00Z") is None

            undone = await call(session, "rollback", namespace=ATLAS, revision_id=go.revision_id)
            assert undone["op"] == "rollback"
            now = await call(session, "current", namespace=ATLAS, subject="atlas", predicate="uses")
            assert [c["object"] for c in now["beliefs"]] == ["Express.js"]
            express = now["beliefs"][0]["id"]
            await call(session, "retract", namespace=ATLAS, claim_id=express, reason="wrong")
            gone = await call(
                session, "current", namespace=ATLAS, subject="atlas", predicate="uses"
            )
            assert gone == {"known": False, "beliefs": [], "rivals": [], "contested": False}

    run(body)


@pytest.mark.slow
def test_bad_input_comes_back_as_a_tool_error_naming_the_field(open_session: Opener) -> None:
    async def body() -> None:
        async with open_session() as session:
            half = {"subject": "user", "predicate": "city", "text": "Priya lives somewhere."}
            assert "claims.0.object" in await fails(session, "remember", claims=[half])
            assert "claims.1.text" in await fails(
                session,
                "remember",
                claims=[{"text": "Priya likes tea."}, {"text": " "}],
            )
            naive = await fails(
                session, "as_of", subject="user", predicate="city", valid_at="2026-05-10T12:00"
            )
            assert naive == "Error executing tool as_of: valid_at: Input should have timezone info"
            too_sure = await fails(session, "remember", claims=[{"text": "x", "confidence": 2}])
            assert too_sure.startswith("Error executing tool remember: claims.0.confidence: ")
            assert "claim_id" in await fails(session, "lineage", claim_id="no such claim")
            assert "claim_id" in await fails(session, "lineage", claim_id="01NOSUCHCLAIM")
            assert (await fails(session, "recall", query="tea?")).startswith(
                "Error executing tool recall: query: recall needs the embedding model"
            )
            elsewhere = await fails(session, "current", subject="u", predicate="p", namespace="x")
            assert elsewhere.startswith("Error executing tool current: namespace:")
            # Nothing was written by the refused calls.
            assert await call(session, "history", subject="user", predicate="city") == []

    run(body)


@pytest.mark.slow
def test_erase_is_refused_unless_the_server_allows_it(
    open_session: Opener, bg: BeliefGraph
) -> None:
    async def body() -> None:
        async with open_session() as session:
            claim = {"subject": "user", "predicate": "city", "object": "Lisbon"}
            await call(session, "remember", claims=[{**claim, "text": "Priya lives in Lisbon."}])
            refused = await fails(session, "erase", subject="user")
            assert "erase: refused" in refused and "--allow-erase" in refused
            kept = await call(session, "current", subject="user", predicate="city")
            assert kept["beliefs"][0]["text"] == "Priya lives in Lisbon."
        async with open_session("--allow-erase") as session:
            erased = await call(session, "erase", subject="user")
            assert erased["op"] == "erase"
            gone = await call(session, "current", subject="user", predicate="city")
            assert not gone["known"]

    run(body)


@contextmanager
def served_in_process(
    bg: BeliefGraph, port: int, settings: McpSettings | None = None
) -> Iterator[None]:
    """``build_server(bg)`` on streamable HTTP in a thread of this process (the session's
    offline models, loaded once, instead of a model load in a server process)."""
    app = http_app(build_server(bg, settings or McpSettings(namespace=NS)), "127.0.0.1", None)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def test_recall_answers_by_meaning_with_rivals_beside(semantic_bg: BeliefGraph) -> None:
    port = free_port()

    async def body() -> None:
        async with http_session(f"http://127.0.0.1:{port}/mcp") as session:
            await call(
                session,
                "remember",
                claims=[
                    {
                        "subject": "user",
                        "predicate": "risk tolerance",
                        "object": "cautious",
                        "text": "Priya is cautious with money and dislikes individual stocks.",
                    },
                    {
                        "subject": "user",
                        "predicate": "lives in",
                        "object": "Lisbon",
                        "text": "Priya lives in Lisbon with her two cats.",
                    },
                ],
            )
            for _ in range(2):
                await call(
                    session,
                    "remember",
                    claims=[
                        {
                            "subject": "user",
                            "predicate": "lives in",
                            "object": "Lisbon",
                            "text": "Priya lives in Lisbon with her two cats.",
                        }
                    ],
                )
            await call(
                session,
                "remember",
                claims=[
                    {
                        "subject": "user",
                        "predicate": "lives in",
                        "object": "Porto",
                        "text": "Priya lives in Porto now.",
                    }
                ],
            )
            hits = await call(session, "recall", query="what is her appetite for investment risk?")
            assert hits[0]["claim"]["object"] == "cautious" and hits[0]["rivals"] == []
            home = await call(session, "recall", query="where does she live?", k=1)
            assert home[0]["claim"]["object"] == "Lisbon"
            assert [r["object"] for r in home[0]["rivals"]] == ["Porto"]
            past = await call(
                session, "recall", query="where does she live?", known_at="2020-01-01T00:00:00Z"
            )
            assert past == []

    with served_in_process(semantic_bg, port):
        run(body)


@pytest.mark.slow
def test_http_off_loopback_needs_a_token(neo4j_info: ConnectionInfo, bg: BeliefGraph) -> None:
    env = server_env(neo4j_info)
    refused = subprocess.run(
        [*SERVER, "-n", NS, "--http", "--host", "0.0.0.0", "--port", str(free_port())],
        env={k: v for k, v in env.items() if k != "BELIEF_GRAPH_MCP_TOKEN"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1
    assert refused.stderr.startswith("error: --host:") and "BELIEF_GRAPH_MCP_TOKEN" in (
        refused.stderr
    )

    port = free_port()
    proc = start_http(
        {**env, "BELIEF_GRAPH_MCP_TOKEN": "s3cret-token"},
        ["-n", NS, "--host", "0.0.0.0"],
        port,
    )
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        assert httpx2.post(url, json={}).status_code == 401
        bad = httpx2.post(url, json={}, headers={"Authorization": "Bearer wrong"})
        assert bad.status_code == 401

        async def body() -> None:
            auth = {"Authorization": "Bearer s3cret-token"}
            async with http_session(url, auth) as session:
                names = {t.name for t in (await session.list_tools()).tools}
                assert names == set(TOOL_NAMES)

        run(body)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# -- a server with a scope chain --------------------------------------------------------------


def convention(bg: BeliefGraph) -> str:
    """The project's convention (a policy from an ADR), and a fact only the project holds."""
    from belief_graph import ClaimDraft

    bg.remember(
        ClaimDraft(
            namespace=ATLAS,
            subject="atlas",
            predicate="deploys_to",
            object="Fly.io",
            text="Atlas deploys to Fly.io.",
        )
    )
    policy = bg.remember(
        ClaimDraft(
            namespace=ATLAS,
            subject="atlas",
            predicate="package_manager",
            object="pnpm",
            text="The Atlas project installs packages with pnpm.",
            kind="policy",
            origin="ADR-7",
        )
    ).claim_id
    assert policy is not None
    return policy


FAILED_RUNS = [
    {
        "subject": "atlas",
        "predicate": "package_manager",
        "object": "npm",
        "text": "Atlas packages were installed with npm.",
        "episode_id": run,
    }
    for run in ("ci-1", "ci-2")
]


@pytest.mark.slow
def test_a_scoped_server_reads_through_its_chain_and_writes_to_its_namespace(
    open_session: Opener, bg: BeliefGraph
) -> None:
    policy = convention(bg)

    async def body() -> None:
        async with open_session("--scope", f"{NS} > {ATLAS}") as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert set(tools) == set(TOOL_NAMES)
            assert "namespace" not in tools["current"].input_schema["properties"]
            assert "disputes" in tools["current"].output_schema["properties"]  # type: ignore[index]
            for run_claim in FAILED_RUNS:
                await call(session, "remember", claims=[run_claim])
            answer = await call(session, "current", subject="atlas", predicate="package manager")
            assert [
                (b["claim"]["id"], b["scope"], b["claim"]["kind"]) for b in answer["beliefs"]
            ] == [(policy, ATLAS, "policy")]
            assert answer["contested"]
            assert [
                (d["claim"]["object"], d["scope"], d["support"]) for d in answer["disputes"]
            ] == [("npm", NS, {"frequency": 2, "episodes": 2})]
            deploy = await call(session, "current", subject="atlas", predicate="deploys_to")
            assert [b["claim"]["object"] for b in deploy["beliefs"]] == ["Fly.io"]
            past = await call(
                session,
                "as_of",
                subject="atlas",
                predicate="package_manager",
                known_at="2000-01-01T00:00:00Z",
            )
            assert past["known"] is False
            # The evidence was written to the server's namespace, not to the project.
            assert [
                c["object"]
                for c in await call(
                    session, "history", subject="atlas", predicate="package_manager"
                )
            ] == ["npm"]
            refused = await fails(
                session, "history", subject="atlas", predicate="package_manager", namespace=ATLAS
            )
            assert "namespace" in refused

    run(body)


def test_scoped_recall_shows_the_layers(semantic_bg: BeliefGraph) -> None:
    port = free_port()
    policy = convention(semantic_bg)

    async def body() -> None:
        async with http_session(f"http://127.0.0.1:{port}/mcp") as session:
            await call(session, "remember", claims=FAILED_RUNS)
            hits = await call(session, "recall", query="which package manager does Atlas use?")
            top = hits[0]
            assert (top["claim"]["id"], top["kind"], top["scope"], top["layer"]) == (
                policy,
                "policy",
                ATLAS,
                1,
            )
            assert top["contested"] and [d["scope"] for d in top["disputes"]] == [NS]
            assert [d["support"]["episodes"] for d in top["disputes"]] == [2]
            assert all(h["scope"] in (NS, ATLAS) for h in hits)

    settings = McpSettings(namespace=NS, scope=(NS, ATLAS))
    with served_in_process(semantic_bg, port, settings):
        run(body)


def test_a_scope_chain_must_hold_the_servers_namespace() -> None:
    from typer.testing import CliRunner

    from belief_graph.cli.app import app

    with pytest.raises(ValueError, match="scope"):
        McpSettings(namespace=NS, scope=(ATLAS,))
    result = CliRunner().invoke(app, ["mcp", "-n", NS, "--scope", f"session:1 > {ATLAS}"])
    assert (
        result.exit_code == 1 and "--scope" in result.stderr and "not in the chain" in result.stderr
    )
    result = CliRunner().invoke(
        app, ["mcp", "--scope", f"{NS} > {ATLAS}", "--allow-namespace", "user:*"]
    )
    assert result.exit_code == 1 and "--allow-namespace" in result.stderr
