"""The test suite never touches the user's own database (issue 16).

A user who ran ``make demo`` and then the CLI has data in the default database: the launcher's
server, which ``BeliefGraph.connect()`` and every CLI command use when ``NEO4J_URI`` is unset.
The suite, run on that machine, starts a private server of its own, leaves the user's claim and
server alone, and refuses to wipe any database that holds data unless told to.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.server.launcher import ram_dir
from belief_graph.server.provide import ConnectionInfo
from belief_graph.settings import ServerSettings
from belief_graph.store import Store
from belief_graph.testing.graph import WIPE_ALLOWED, WipeRefused, claim_database, node_count
from belief_graph.testing.servers import UserSandbox

# Runs the suite again in a subprocess: the slow tier, on the worker that holds the sandboxed
# user's server.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("user-sandbox")]

ROOT = Path(__file__).resolve().parents[2]
NS = "user:me"
# A test that wipes the database through the suite's fixtures before it writes.
WIPING_TEST = "tests/integration/test_bad_input.py::test_claim_of_another_namespace_is_not_found"


def seed(user_sandbox: UserSandbox, monkeypatch: pytest.MonkeyPatch) -> str:
    """The user's claim, written the way a user writes it: connect() with no NEO4J_URI."""
    user_sandbox.apply(monkeypatch)
    with BeliefGraph.connect(models=False) as bg:
        assert bg.store.uri == user_sandbox.server.bolt_uri
        bg.init_schema()
        bg.remember(
            ClaimDraft(
                namespace=NS,
                subject="me",
                predicate="city",
                object="Lisbon",
                text="I live in Lisbon.",
            )
        )
        belief = bg.current(NS, "me", "city")
    assert belief is not None and not isinstance(belief, list)
    return belief.id


def still_there(claim_id: str) -> bool:
    with BeliefGraph.connect(models=False, start=False) as bg:
        return bg.get(NS, claim_id).object == "Lisbon"


def run_suite(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The suite run as a user runs it; the result's ``args`` ends with the run's pid."""
    with subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    ) as run:
        stdout, stderr = run.communicate(timeout=600)
    return subprocess.CompletedProcess([*run.args, run.pid], run.returncode, stdout, stderr)


def private_servers_of(pid: int, cache: Path) -> list[Path]:
    """The homes of throwaway servers process ``pid`` started and left behind, wherever they
    were made (under the cache, or in RAM)."""
    ram = ram_dir()
    parents = [cache / "throwaway", *([ram / "belief-graph-throwaway"] if ram else [])]
    return [
        owner.parent
        for parent in parents
        if parent.is_dir()
        for owner in parent.glob("*/owner.pid")
        if owner.read_text().strip() == str(pid)
    ]


@pytest.mark.slow
@pytest.mark.timeout(700)
def test_the_suite_leaves_the_users_database_and_server_alone(
    user_sandbox: UserSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    claim_id = seed(user_sandbox, monkeypatch)
    pid = user_sandbox.server.status().pid
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    env.update(user_sandbox.env)

    run = run_suite(env, WIPING_TEST)

    assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
    assert "1 passed" in run.stdout
    assert still_there(claim_id)
    status = user_sandbox.server.status()
    assert status.running and status.pid == pid, "the suite stopped or restarted the server"
    # The suite's private server is gone, data and all.
    assert private_servers_of(run.args[-1], Path(env["BELIEF_GRAPH_CACHE_DIR"])) == []


@pytest.mark.slow
@pytest.mark.timeout(700)
def test_pointed_at_the_users_database_the_suite_refuses_to_wipe_it(
    user_sandbox: UserSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    claim_id = seed(user_sandbox, monkeypatch)
    env = {k: v for k, v in os.environ.items() if k != WIPE_ALLOWED}
    env.update(user_sandbox.env, NEO4J_URI=user_sandbox.server.bolt_uri)

    run = run_suite(env, WIPING_TEST)

    assert run.returncode != 0
    assert WIPE_ALLOWED in run.stdout + run.stderr
    assert still_there(claim_id)


def test_the_guard_covers_every_source(
    user_sandbox: UserSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(user_sandbox, monkeypatch)
    monkeypatch.delenv(WIPE_ALLOWED, raising=False)
    store = Store(user_sandbox.server.bolt_uri, None)
    try:
        held = node_count(store)
        with pytest.raises(WipeRefused, match=f"holds {held} nodes.*{WIPE_ALLOWED}=1"):
            claim_database(store)
        assert node_count(store) == held
    finally:
        store.close()


def test_the_session_database_is_private(neo4j_info: ConnectionInfo) -> None:
    if neo4j_info.source == "env":
        # NEO4J_URI names the database: it is the user's own choice, never taken for private
        # (so the wipe guard, not a throwaway server, is what protects it).
        assert not neo4j_info.private
        return
    assert neo4j_info.private
    users = ServerSettings()
    assert f":{users.bolt_port}" not in neo4j_info.uri
