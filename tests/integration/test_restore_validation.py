"""Snapshot restore is validated whole and written all or nothing (issue 15, item 7): an invalid
or naive datetime, a bogus status, two active claims in a single-valued fact, a reversed or
cyclic SUPERSEDES edge are refused naming the line and field, with nothing written; after the
file is fixed the same restore works."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.cli.app import app
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing import factories
from belief_graph.testing.graph import check_graph, namespace_snapshot, q, wipe
from belief_graph.transfer.snapshot import SnapshotError, export_namespace, restore_snapshot

NS = "user:restored"
CLAIMS = 15


def draft(subject: str, predicate: str, obj: str) -> ClaimDraft:
    return factories.draft(subject, predicate, obj, namespace=NS, text=f"{subject} {obj}")


@pytest.fixture(scope="module")
def exported_once(store: Store) -> tuple[str, Any]:
    """A namespace with a three-version chain and a dozen other facts, exported: the snapshot
    text and the namespace's graph as it was."""
    wipe(store)
    bg = BeliefGraph(store)
    for city in ("Lisbon", "Porto", "Faro"):
        bg.remember(draft("ana", "lives_in", city))
    for i in range(CLAIMS - 3):
        bg.remember(draft(f"person-{i}", "works_at", f"shop-{i}"))
    out = io.StringIO()
    export_namespace(store, NS, out)
    return out.getvalue(), namespace_snapshot(store, NS)


@pytest.fixture
def exported(store: Store, exported_once: tuple[str, Any]) -> tuple[list[dict[str, Any]], Any]:
    """The snapshot's records (a fresh copy to edit) and the graph it holds; the database empty."""
    wipe(store)
    text, before = exported_once
    return [json.loads(line) for line in text.splitlines()], before


def write(tmp_path: Path, records: list[dict[str, Any]], name: str = "s.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def nodes_in(store: Store) -> int:
    return int(q(store, "MATCH (n {namespace: $ns}) RETURN count(n) AS n", ns=NS)[0]["n"])


def chain(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The lives_in claims by object."""
    return {
        r["props"]["object"]: r
        for r in records
        if r["kind"] == "node"
        and r["label"] == "Claim"
        and r["props"].get("predicate") == "lives_in"
    }


def refused(store: Store, path: Path, *needles: str) -> str:
    with pytest.raises(SnapshotError) as caught:
        restore_snapshot(store, path, batch_size=7)
    message = str(caught.value)
    for needle in needles:
        assert needle in message, message
    assert nodes_in(store) == 0, "a refused restore wrote something"
    return message


def test_an_invalid_datetime_on_the_last_line_writes_nothing_and_the_fixed_file_restores(
    store: Store, exported: tuple[list[dict[str, Any]], Any], tmp_path: Path
) -> None:
    records, before = exported
    last = max(i for i, r in enumerate(records) if "$datetime" in json.dumps(r.get("props", {})))
    good = json.dumps(records[last])
    name = next(k for k, v in records[last]["props"].items() if isinstance(v, dict))
    records[last]["props"][name] = {"$datetime": "2026-02-30T25:61:00+00:00"}
    message = refused(store, write(tmp_path, records), f"line {last + 1}:", name)
    assert "valid" in message
    records[last] = json.loads(good)
    summary = restore_snapshot(store, write(tmp_path, records), batch_size=7)
    assert summary["nodes"]["Claim"] == CLAIMS
    assert namespace_snapshot(store, NS) == before
    assert check_graph(store) == []


def test_a_failure_while_writing_leaves_the_namespace_empty(
    store: Store, exported: tuple[list[dict[str, Any]], Any], tmp_path: Path
) -> None:
    records, _ = exported
    written: list[int] = []

    def crash_after_some(n: int) -> None:
        written.append(n)
        if sum(written) > 30:
            raise RuntimeError("the machine went away")

    path = write(tmp_path, records)
    with pytest.raises(RuntimeError):
        restore_snapshot(store, path, batch_size=7, progress=crash_after_some)
    assert sum(written) > 30 and nodes_in(store) == 0
    restore_snapshot(store, path, batch_size=7)
    assert nodes_in(store) > 0


def test_two_active_claims_in_a_single_valued_fact_are_refused(
    store: Store, exported: tuple[list[dict[str, Any]], Any], tmp_path: Path
) -> None:
    records, _ = exported
    lisbon = chain(records)["Lisbon"]
    lisbon["props"]["status"] = "active"
    line = records.index(lisbon) + 1
    refused(store, write(tmp_path, records), "Claim.status", "second active claim", f"line {line}")


def supersedes(records: list[dict[str, Any]], new: str, old: str) -> dict[str, Any]:
    claims = chain(records)
    return next(
        r
        for r in records
        if r["kind"] == "edge"
        and r["type"] == "SUPERSEDES"
        and r["start"][1] == claims[new]["props"]["id"]
        and r["end"][1] == claims[old]["props"]["id"]
    )


def test_a_reversed_supersedes_edge_is_refused(
    store: Store, exported: tuple[list[dict[str, Any]], Any], tmp_path: Path
) -> None:
    records, _ = exported
    edge = supersedes(records, "Faro", "Porto")
    edge["start"], edge["end"] = edge["end"], edge["start"]
    refused(store, write(tmp_path, records), f"line {records.index(edge) + 1}", "SUPERSEDES")


def test_a_supersedes_cycle_is_refused(
    store: Store, exported: tuple[list[dict[str, Any]], Any], tmp_path: Path
) -> None:
    records, _ = exported
    edge = supersedes(records, "Porto", "Lisbon")
    back = {**edge, "start": edge["end"], "end": supersedes(records, "Faro", "Porto")["start"]}
    records.insert(len(records) - 1, back)  # Lisbon -> Faro closes Faro -> Porto -> Lisbon
    records[-1]["edges"] += 1
    refused(store, write(tmp_path, records), f"line {len(records) - 1}", "cycle")


@pytest.mark.parametrize(
    ("field", "value", "needles"),
    [
        ("status", "believed", ("Claim.status",)),
        ("recorded_at", {"$datetime": "2026-03-01T09:00:00"}, ("Claim.recorded_at", "timezone")),
        ("valid_from", "2026-03-01T09:00:00+00:00", ("Claim.valid_from", "tagged datetime")),
        ("confidence", "very", ("Claim.confidence",)),
        ("source_type", "oracle", ("Claim.source_type",)),
    ],
)
def test_a_bad_claim_field_is_refused_by_line_and_name(
    store: Store,
    exported: tuple[list[dict[str, Any]], Any],
    tmp_path: Path,
    field: str,
    value: Any,
    needles: tuple[str, ...],
) -> None:
    records, _ = exported
    claim = chain(records)["Porto"]
    claim["props"][field] = value
    refused(store, write(tmp_path, records), f"line {records.index(claim) + 1}:", *needles)


def test_cli_restore_names_the_line_and_retries_cleanly(
    neo4j_info: ConnectionInfo,
    store: Store,
    exported: tuple[list[dict[str, Any]], Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records, before = exported
    for name, value in (
        ("NEO4J_URI", neo4j_info.uri),
        ("NEO4J_USER", neo4j_info.user),
        ("NEO4J_PASSWORD", neo4j_info.password),
        ("NEO4J_DATABASE", neo4j_info.database),
        ("BELIEF_GRAPH_MODELS", "false"),
        ("BELIEF_GRAPH_CONFIG", str(tmp_path / "config.toml")),
    ):
        monkeypatch.setenv(name, value)
    runner = CliRunner()
    claim = chain(records)["Faro"]
    good = claim["props"]["recorded_at"]
    claim["props"]["recorded_at"] = {"$datetime": "2026-03-01T09:00:00"}
    path = write(tmp_path, records)
    result = runner.invoke(app, ["import", "--snapshot", str(path), "--batch-size", "5"])
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert line.startswith("error: line ") and "Claim.recorded_at" in line and "\n" not in line
    assert nodes_in(store) == 0
    claim["props"]["recorded_at"] = good
    path = write(tmp_path, records)
    result = runner.invoke(app, ["import", "--snapshot", str(path), "--batch-size", "5", "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["nodes"]["Claim"] == CLAIMS
    assert namespace_snapshot(store, NS) == before
