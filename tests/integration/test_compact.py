"""What Neo4j keeps on disk after an erase (issue 15, item 4): the launcher's erasure-aware
transaction-log defaults and the user's override file, and `belief-graph neo4j compact`, after
which no file under the server's data directory holds an erased string.

Runs on the sandboxed user's server (``user_sandbox``), never the real user's."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.cli.app import app
from belief_graph.errors import BeliefGraphError, ConfigError
from belief_graph.server.launcher import LocalNeo4j
from belief_graph.store import Store
from belief_graph.testing.factories import draft
from belief_graph.testing.graph import namespace_snapshot, q, string_values
from belief_graph.testing.servers import UserSandbox
from belief_graph.transfer import compact as compaction

# Each test restarts or replaces a server of its own: the slow tier, on the worker that holds
# the sandboxed user's server.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("user-sandbox")]

NS, KEEP, REFUSED = "user:compacted", "user:kept", "user:refused"
# Long and with punctuation, so Neo4j stores it as plain bytes (not a packed short string).
ERASED_TEXT = "Xylophrax lab result, do-not-keep #7781: positive for the rare marker (Priya)"


def on_disk(directory: Path, needle: str) -> list[str]:
    """Every file under ``directory`` whose bytes hold ``needle`` (UTF-8 or UTF-16)."""
    forms = (needle.encode(), needle.encode("utf-16-le"), needle.encode("utf-16-be"))
    return [
        str(p.relative_to(directory))
        for p in sorted(directory.rglob("*"))
        if p.is_file() and any(f in p.read_bytes() for f in forms)
    ]


@pytest.fixture
def server(user_sandbox: UserSandbox, monkeypatch: pytest.MonkeyPatch) -> LocalNeo4j:
    user_sandbox.apply(monkeypatch)
    local = LocalNeo4j()
    assert local.home == user_sandbox.server.home
    local.start()
    return local


@pytest.fixture
def graph(server: LocalNeo4j) -> Iterator[BeliefGraph]:
    store = Store(server.bolt_uri, None, "neo4j")
    bg = BeliefGraph(store)
    bg.init_schema()
    for ns in (NS, KEEP, REFUSED):
        q(store, "MATCH (n {namespace: $ns}) DETACH DELETE n", ns=ns)
    yield bg
    store.close()


def secret_story(bg: BeliefGraph) -> None:
    first = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="priya",
            predicate="test_result",
            object=ERASED_TEXT,
            text=f"Priya's test: {ERASED_TEXT}",
            episode_id="chat-1",
            episode_content=f"user said: {ERASED_TEXT}",
        )
    )
    bg.contract(NS, first.added[0], reason=f"wrong: {ERASED_TEXT}")
    for i in range(5):
        bg.remember(
            ClaimDraft(
                namespace=KEEP,
                subject=f"p{i}",
                predicate="lives_in",
                object=f"City {i}",
                text=f"p{i} lives in City {i}.",
            )
        )


def setting(store: Store, name: str) -> str:
    rows = store.run_literal(
        "SHOW SETTINGS YIELD name, value WHERE name = $name RETURN value", name=name
    )
    return str(rows[0]["value"])


def test_compact_leaves_no_erased_string_and_brings_a_namespace_larger_than_a_transaction_back(
    server: LocalNeo4j, graph: BeliefGraph, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an erase, a compaction that fails puts the old store back as it was; `neo4j
    compact` then leaves no file under the data directory holding the erased string, and keeps
    everything else. The server comes back with the launcher's defaults and the user's override
    file merged over them; the override lets a transaction hold 32 MiB, so the kept namespace
    of 3,000 drafts cannot be written in one transaction: the compaction restores it a
    statement a transaction, whole, and an ingest that tries one is refused at once, naming the
    setting, storing nothing. (One test for the three: each compaction restarts the server
    twice, and a restarted server plans the write path again.)"""
    predicates = ("lives_in", "works_at", "uses_framework", "likes")
    graph.ingest(
        [
            draft(
                f"p{i % 750}",
                predicates[i // 750],
                f"value {i}",
                namespace=KEEP,
                text=f"p{i % 750} {predicates[i // 750]} value {i}.",
            )
            for i in range(3000)
        ],
        batch_size=250,
    )
    override = tmp_path / "neo4j.conf"
    override.write_text(
        "# mine\n\ndb.tx_log.rotation.retention_policy = 2 files\ndb.logs.query.enabled=OFF\n"
        "db.memory.transaction.max=32m\n"
    )
    suite_conf = os.environ["BELIEF_GRAPH_NEO4J_CONF"]  # the suite's (tests/conftest.py)
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J_CONF", str(override))
    secret_story(graph)
    kept = namespace_snapshot(graph.store, KEEP)
    runner = CliRunner()
    erased = runner.invoke(app, ["erase", "-n", NS, "--subject", "priya", "--yes"])
    assert erased.exit_code == 0, erased.stderr
    assert not any(ERASED_TEXT in v for v in string_values(graph.store))
    data = server.home / "data"
    assert on_disk(data, ERASED_TEXT), "not on disk before the compaction: the test proves nothing"
    graph.close()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk full")

    with monkeypatch.context() as failing:
        failing.setattr(compaction, "restore_snapshot", broken)
        with pytest.raises(ConfigError, match="the store is as it was: disk full"):
            compaction.compact(server)
    assert server.is_running()
    assert not (server.home / "data.before-compact").exists()
    store = Store(server.bolt_uri, None, "neo4j", retry_seconds=1)
    try:
        assert namespace_snapshot(store, KEEP) == kept
    finally:
        store.close()
    assert on_disk(data, ERASED_TEXT), "the old store, erased bytes and all, is what came back"

    try:
        result = runner.invoke(app, ["neo4j", "compact", "--yes", "--json"])
        assert result.exit_code == 0, (result.stdout, result.stderr)
        report = json.loads(result.stdout)
        assert report["namespaces"] >= 2 and report["bytes_after"] > 0
        assert on_disk(data, ERASED_TEXT) == []
        assert not (server.home / "data.before-compact").exists()
        assert not (server.home / "compact").exists()

        store = Store(server.bolt_uri, None, "neo4j", retry_seconds=1)
        try:
            assert namespace_snapshot(store, KEEP) == kept
            assert BeliefGraph(store).current(KEEP, "p3", "lives_in") is not None
            # The launcher's defaults, with the user's file merged over them.
            assert setting(store, "db.tx_log.rotation.retention_policy") == "2 files"
            assert "16" in setting(store, "db.tx_log.rotation.size")
            assert setting(store, "db.logs.query.enabled").upper() == "OFF"
            drafts = [draft(f"q{i}", "lives_in", f"v{i}", namespace=REFUSED) for i in range(3000)]
            with pytest.raises(
                BeliefGraphError,
                match=r"more memory than the server allows.*db\.memory\.transaction\.max",
            ):
                BeliefGraph(store).ingest(drafts, batch_size=3000)
            assert namespace_snapshot(store, REFUSED) == []
        finally:
            store.close()
        conf = (server.conf_dir / "neo4j.conf").read_text()
        assert conf.count("db.tx_log.rotation.retention_policy=") == 1
    finally:
        monkeypatch.setenv("BELIEF_GRAPH_NEO4J_CONF", suite_conf)
        server.stop()
        LocalNeo4j().start()  # the sandbox's server as the other tests expect it


def test_a_bad_override_file_is_refused_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, user_sandbox: UserSandbox
) -> None:
    user_sandbox.apply(monkeypatch)
    override = tmp_path / "neo4j.conf"
    override.write_text("db.tx_log.rotation.size=16M\nretention keep nothing\n")
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J_CONF", str(override))
    result = CliRunner().invoke(app, ["neo4j", "compact", "--yes"])
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert "BELIEF_GRAPH_NEO4J_CONF" in message and "line 2" in message and "\n" not in message
    assert LocalNeo4j().is_running(), "a refused override stopped nothing"
