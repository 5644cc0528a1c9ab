"""Snapshot restore is validated whole and written all or nothing (issue 15, item 7): an invalid
or naive datetime, a bogus status, two active claims in a single-valued fact, a reversed or
cyclic SUPERSEDES edge are refused naming the line and field, with nothing written; after the
file is fixed the same restore works. So is every other state the engine relies on (issue 64,
item 6: transaction times ahead of the clock, versions and head out of step with the chain,
inverted windows, ...) and every name and term the API would refuse (item 7)."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.cli.app import app
from belief_graph.policy import Policy
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing import factories
from belief_graph.testing.graph import check_graph, namespace_snapshot, q, wipe
from belief_graph.transfer.snapshot import SnapshotError, export_namespace, restore_snapshot

NS = "user:restored"
CLAIMS = 15


def plain_fact(subject: str, predicate: str, obj: str) -> ClaimDraft:
    return factories.draft(subject, predicate, obj, namespace=NS, text=f"{subject} {obj}")


@pytest.fixture(scope="module")
def exported_once(store: Store) -> tuple[str, Any]:
    """A namespace with a three-version chain and a dozen other facts, exported: the snapshot
    text and the namespace's graph as it was."""
    wipe(store)
    bg = BeliefGraph(store)
    for city in ("Lisbon", "Porto", "Faro"):
        bg.remember(plain_fact("ana", "lives_in", city))
    for i in range(CLAIMS - 3):
        bg.remember(plain_fact(f"person-{i}", "works_at", f"shop-{i}"))
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


# -- what the engine relies on (issue 64, item 6) ---------------------------------------------

FAR = {"$datetime": "9999-12-31T00:00:00+00:00"}


def slot_of(records: list[dict[str, Any]], claim: dict[str, Any]) -> dict[str, Any]:
    return next(
        r
        for r in records
        if r["kind"] == "node"
        and r["label"] == "Slot"
        and r["props"]["id"] == claim["props"]["slot_id"]
    )


def drop(records: list[dict[str, Any]], record: dict[str, Any]) -> None:
    """Take an edge out, the footer's count with it."""
    records.remove(record)
    records[-1]["edges"] -= 1


def plant(records: list[dict[str, Any]], how: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Edit the snapshot as ``how`` says; the record the error must name, and its words."""
    claims = chain(records)
    lisbon, porto, faro = claims["Lisbon"], claims["Porto"], claims["Faro"]
    slot = slot_of(records, faro)
    other = next(
        r
        for r in records
        if r["kind"] == "node" and r["label"] == "Claim" and r["props"]["subject"] == "person-1"
    )
    revision = next(r for r in records if r["kind"] == "node" and r["label"] == "Revision")
    if how == "slot last change in 9999":
        slot["props"]["last_recorded_at"] = FAR
        return slot, ("Slot.last_recorded_at", "in the future")
    if how == "belief recorded in 9999":
        faro["props"]["recorded_at"] = FAR
        return faro, ("Claim.recorded_at", "in the future")
    if how == "belief accepted in 9999":
        faro["props"]["accepted_at"] = FAR
        return faro, ("Claim.accepted_at", "in the future")
    if how == "superseded in 9999":
        porto["props"]["superseded_at"] = FAR
        return porto, ("Claim.superseded_at", "in the future")
    if how == "revision in 9999":
        revision["props"]["at"] = FAR
        return revision, ("Revision.at", "in the future")
    if how == "versions behind the chain":
        slot["props"]["versions"] = 1
        return slot, ("Slot.versions", "holds 3 versions")
    if how == "versions ahead of the chain":
        slot["props"]["versions"] = 7
        return slot, ("Slot.versions",)
    if how == "head not the last version":
        slot["props"]["head"] = lisbon["props"]["id"]
        return slot, ("Slot.head",)
    if how == "a chain numbered from 2":
        for claim in (lisbon, porto, faro):
            claim["props"]["version"] += 1
        return lisbon, ("Claim.version", "[2, 3, 4], not 1..3")
    if how == "a version without its edge":
        drop(records, supersedes(records, "Faro", "Porto"))
        return faro, ("Claim.version", "supersedes nothing")
    if how == "active window ends before it starts":
        faro["props"]["valid_to"] = {"$datetime": "2020-01-01T00:00:00+00:00"}
        return faro, ("Claim.valid_to", "not later than valid_from")
    if how == "active window ends where it starts":
        faro["props"]["valid_to"] = faro["props"]["valid_from"]
        return faro, ("Claim.valid_to",)
    if how == "superseded without an end":
        del porto["props"]["valid_to"]
        return porto, ("Claim.valid_to", "missing")
    if how == "belief never accepted":
        del faro["props"]["accepted_at"]
        return faro, ("Claim.accepted_at", "missing")
    if how == "retracted without when":
        porto["props"]["status"] = "retracted"
        return porto, ("Claim.retracted_at", "missing")
    if how == "slot_id not its slot":
        faro["props"]["slot_id"] = other["props"]["slot_id"]
        return faro, ("Claim.slot_id",)
    if how == "key not its slot's":
        faro["props"]["subject_key"] = "bob"
        return faro, ("Claim.subject_key",)
    if how == "one fact in two slots":
        twin = slot_of(records, other)
        twin["props"]["subject_key"], twin["props"]["predicate"] = "ana", "lives_in"
        return (twin if records.index(twin) > records.index(slot) else slot), ("Slot.subject_key",)
    raise AssertionError(how)


PLANTS = [
    "slot last change in 9999",
    "belief recorded in 9999",
    "belief accepted in 9999",
    "superseded in 9999",
    "revision in 9999",
    "versions behind the chain",
    "versions ahead of the chain",
    "head not the last version",
    "a chain numbered from 2",
    "a version without its edge",
    "active window ends before it starts",
    "active window ends where it starts",
    "superseded without an end",
    "belief never accepted",
    "retracted without when",
    "slot_id not its slot",
    "key not its slot's",
    "one fact in two slots",
]


@pytest.mark.parametrize("how", PLANTS)
def test_a_snapshot_that_breaks_what_the_engine_relies_on_is_refused(
    store: Store, exported: tuple[list[dict[str, Any]], Any], tmp_path: Path, how: str
) -> None:
    records, _ = exported
    named, needles = plant(records, how)
    refused(store, write(tmp_path, records), f"line {records.index(named) + 1}:", *needles)


@pytest.mark.slow
def test_a_namespace_with_every_kind_of_history_restores_as_it_was(
    store: Store, tmp_path: Path
) -> None:
    """The checks refuse nothing the engine writes: versions, a pending conflict confirmed and
    one rejected, rollbacks (of a rollback too), a closed window, a retraction, a dependent
    flagged, a policy promoted and demoted, a multi-valued fact, a text-only claim, an erased
    claim and a consolidation: exported, restored, the same graph."""
    wipe(store)
    bg = BeliefGraph(store, policy=Policy(preset="conservative"))
    ana = [bg.remember(plain_fact("ana", "lives_in", city)) for city in ("Lisbon", "Porto", "Faro")]
    bg.confirm(NS, ana[1].added[0])
    bg.reject(NS, ana[2].added[0])
    job = bg.remember(plain_fact("ana", "works_at", "Kelp")).added[0]
    dependent = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="ana",
            predicate="commutes_by",
            object="tram",
            text="Ana takes the tram to Kelp.",
            depends_on=(job,),
        )
    ).added[0]
    retraction = bg.contract(NS, job, reason="wrong")
    undone = bg.rollback(NS, retraction.revision_id)
    bg.rollback(NS, undone.revision_id)
    bg.contract(NS, dependent, retract=False, valid_to=datetime.now(UTC) + timedelta(days=3))
    for language in ("English", "Portuguese"):
        bg.remember(plain_fact("ana", "speaks", language))
    bg.remember(ClaimDraft(namespace=NS, text="The weather in Faro was lovely."))
    rule = bg.remember(plain_fact("team", "convention", "tabs")).added[0]
    policy = bg.promote(NS, rule, by="human", actor="lead").added[0]
    bg.demote(NS, policy, reason="disputed")
    gone = bg.remember(plain_fact("bob", "likes", "oboe")).added[0]
    bg.erase(NS, claim_ids=[gone])
    bg.consolidate(NS)
    assert check_graph(store) == []
    before = namespace_snapshot(store, NS)
    out = io.StringIO()
    export_namespace(store, NS, out)
    wipe(store)
    restore_snapshot(store, write(tmp_path, [json.loads(x) for x in out.getvalue().splitlines()]))
    assert namespace_snapshot(store, NS) == before
    assert check_graph(store) == []


# -- names as the API takes them (issue 64, item 7) -------------------------------------------

BAD_NAMES = ["user:restored\n", "user:\x1brestored", "user:\x07restored", "user: restored", ""]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_namespace_the_api_refuses_is_refused(
    store: Store, exported: tuple[list[dict[str, Any]], Any], tmp_path: Path, name: str
) -> None:
    records, _ = exported
    for record in records:
        if record["kind"] == "header":
            record["namespace"] = name
        elif record["kind"] == "node":
            record["props"]["namespace"] = name
    with pytest.raises(SnapshotError, match=r"^line 1: ") as caught:
        restore_snapshot(store, write(tmp_path, records))
    assert "namespace" in str(caught.value)
    assert q(store, "MATCH (n) RETURN count(n) AS n")[0]["n"] == 0


@pytest.mark.parametrize(
    ("label", "field", "value"),
    [
        ("Claim", "id", "c-1\n"),
        ("Claim", "subject", "ana\x1b[31m"),
        ("Claim", "text", "Ana\x07 lives here."),
        ("Claim", "author", "   "),
        ("Slot", "subject", "ana\x00"),
        ("Revision", "actor", "dpo\x1b"),
        ("Revision", "slot_ids", ["ok", "bad\n"]),
    ],
)
def test_ids_and_terms_the_api_refuses_are_refused_by_name(
    store: Store,
    exported: tuple[list[dict[str, Any]], Any],
    tmp_path: Path,
    label: str,
    field: str,
    value: Any,
) -> None:
    records, _ = exported
    node = next(r for r in records if r["kind"] == "node" and r["label"] == label)
    node["props"][field] = value
    refused(store, write(tmp_path, records), f"line {records.index(node) + 1}:", f"{label}.{field}")
