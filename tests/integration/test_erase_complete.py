"""Erase leaves nothing (issue 15, items 1-3): whatever the kind of erase, no node or
relationship property holds the erased subject (the slot's subject and key included), `history`
does not confirm it existed, `export` does not write it, the free text of contract, resolve and
dismiss reasons goes with it, and a write that comes while the erase runs is refused or erased
with it: it does not survive it."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph, Claim, ClaimDraft, ConflictError
from belief_graph.cli.app import app
from belief_graph.policy import Policy
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.factories import draft
from belief_graph.testing.graph import check_graph, namespace_snapshot, q, string_values
from belief_graph.transfer.snapshot import export_namespace

NS, OTHER = "user:erasable", "user:keeper"
SUBJECT = "Zephyrine Quolb"  # distinctive: any trace of it is the subject's
MARKS = ("zephyrine", "quolb")


def about(subject: str, predicate: str, obj: str, **extra: Any) -> ClaimDraft:
    return draft(
        subject,
        predicate,
        obj,
        **{"namespace": NS, "text": f"{subject} {predicate} {obj}.", **extra},
    )


def traces(store: Store, *marks: str) -> list[str]:
    """Every property string (any node, any relationship) holding one of ``marks``."""
    return [v for v in string_values(store) if any(m.lower() in v.lower() for m in marks)]


def exported(store: Store, ns: str) -> str:
    out = io.StringIO()
    export_namespace(store, ns, out)
    return out.getvalue()


def story(bg: BeliefGraph) -> list[str]:
    """The subject in two facts, one of them with two versions, plus a neighbour subject; the
    claim ids about the subject."""
    ids = [
        bg.remember(about(SUBJECT, "lives_in", "Lisbon")).added[0],
        bg.remember(about(SUBJECT, "lives_in", "Porto")).added[0],
        bg.remember(about(SUBJECT, "likes", "oboe")).added[0],
    ]
    bg.remember(about("Omar", "lives_in", "Oslo"))
    bg.remember(about(SUBJECT, "lives_in", "Lisbon", namespace=OTHER))
    return ids


def erase_by(bg: BeliefGraph, kind: str, ids: list[str]) -> None:
    if kind == "claims":
        bg.erase(NS, claim_ids=ids)
    elif kind == "subject":
        bg.erase(NS, subject=SUBJECT)
    else:
        bg.erase(NS)


def assert_subject_gone(bg: BeliefGraph) -> None:
    store = bg.store
    rows = q(
        store,
        "CALL () { MATCH (n {namespace: $ns}) RETURN properties(n) AS p "
        "UNION ALL MATCH ({namespace: $ns})-[r]-() RETURN properties(r) AS p } RETURN p",
        ns=NS,
    )
    held = [
        v
        for r in rows
        for v in r["p"].values()
        if isinstance(v, str) and any(m in v.lower() for m in MARKS)
    ]
    assert held == [], f"the erased subject survives in {held}"
    assert bg.history(NS, SUBJECT, "lives_in") == []
    assert bg.history(NS, SUBJECT, "likes") == []
    assert not any(m in exported(store, NS).lower() for m in MARKS)
    assert check_graph(store) == []


@pytest.mark.parametrize("kind", ["claims", "subject", "namespace"])
def test_every_kind_of_erase_takes_the_subject_off_its_facts(
    make_bg: Callable[..., BeliefGraph], kind: str
) -> None:
    bg = make_bg()
    ids = story(bg)
    kept = namespace_snapshot(bg.store, OTHER)
    erase_by(bg, kind, ids)
    assert_subject_gone(bg)
    # The facts stay as tombstones: ids, predicate and erased versions, no subject.
    slots = q(
        bg.store,
        "MATCH (s:Slot {namespace: $ns}) WHERE s.subject IS NULL "
        "RETURN s.subject_key AS key, s.predicate AS predicate",
        ns=NS,
    )
    assert {s["predicate"] for s in slots} >= {"lives_in", "likes"}
    assert all(s["key"].startswith("erased:") for s in slots)
    # The other namespace keeps its subject; another subject of this one too (but a namespace
    # erase takes all).
    assert namespace_snapshot(bg.store, OTHER) == kept
    omar = bg.current(NS, "Omar", "lives_in")
    assert (omar is None) == (kind == "namespace")


@pytest.mark.slow
def test_the_subject_goes_even_when_its_claims_were_erased_before(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """The issue's sequence: erase one claim by id, then the subject, then the namespace."""
    bg = make_bg()
    ids = story(bg)
    bg.erase(NS, claim_ids=[ids[2]])  # the only claim of `likes`: that fact loses its subject
    assert bg.history(NS, SUBJECT, "likes") == []
    assert bg.history(NS, SUBJECT, "lives_in") != []  # the other fact still holds live claims
    bg.erase(NS, claim_ids=ids[:2])
    assert_subject_gone(bg)
    bg.erase(NS, subject=SUBJECT)  # nothing left to erase, and nothing reappears
    bg.erase(NS)
    assert_subject_gone(bg)
    assert bg.current(OTHER, SUBJECT, "lives_in") is not None


def test_erasing_some_claims_of_a_fact_keeps_its_subject(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    bg = make_bg()
    ids = story(bg)
    bg.erase(NS, claim_ids=[ids[0]])  # Lisbon; Porto is still believed
    [*_, porto] = bg.history(NS, SUBJECT, "lives_in")
    assert porto.object == "Porto" and porto.status == "active"


@pytest.mark.parametrize("kind", ["claims", "subject", "namespace"])
def test_free_text_reasons_go_with_the_erase(
    make_bg: Callable[..., BeliefGraph], kind: str
) -> None:
    """contract, resolve and dismiss reasons are the caller's text: an erase of the claims they
    are about replaces them, on the Revision and in its stored (replayed) result."""
    bg = make_bg(policy=Policy(preset="conservative"))  # a change waits: an open conflict
    lisbon = bg.remember(about(SUBJECT, "lives_in", "Lisbon")).added[0]
    kelp = bg.remember(about(SUBJECT, "works_at", "Kelp")).added[0]
    contracted = bg.contract(
        NS, lisbon, reason="wrong: Priya's test came back XQ-SECRET-1", revision_id="contract-1"
    )
    rival = bg.remember(about(SUBJECT, "works_at", "Brine"))
    assert rival.decision == "hold_pending"
    [conflict] = bg.conflicts(NS)
    bg.dismiss(NS, conflict.claim.id, conflict.rival.id, reason="XQ-SECRET-2 both true")
    neighbour = bg.remember(about("Omar", "lives_in", "Oslo")).added[0]
    bg.contract(NS, neighbour, reason="kept text for Omar", revision_id="contract-omar")
    assert len(traces(bg.store, "XQ-SECRET")) >= 3

    ids = [lisbon, kelp, *rival.added]
    erase_by(bg, kind, ids)
    assert traces(bg.store, "XQ-SECRET") == []
    replay = bg.contract(NS, lisbon, reason="anything", revision_id="contract-1")
    assert replay.replayed and "XQ-SECRET" not in replay.reason
    assert replay.reason.startswith("erased by revision")
    assert contracted.reason != replay.reason
    # A reason about something not erased stays, unless the whole namespace went.
    assert (traces(bg.store, "kept text for Omar") == []) == (kind == "namespace")
    assert check_graph(bg.store) == []


def test_what_a_running_erase_covers_takes_no_writes_and_nothing_outlives_it(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """Writes while the erase runs (after its first batch): to a fact it covers and to a new
    fact of the subject, refused by name with nothing written; a text-only claim naming the
    subject (a fact of its own, which no lock ties to the subject) lands, and the erase finds it
    before it finishes; another subject's fact is written as ever. Afterwards the subject is a
    new fact, never a tombstone."""
    bg = make_bg()
    story(bg)
    during: dict[str, Any] = {}

    def write_while_erasing(step: str, done: int) -> None:
        if during:
            return
        for name, written in (
            ("covered", about(SUBJECT, "lives_in", "Faro-RACE")),
            ("new fact", about(SUBJECT, "works_at", "Kelp-RACE")),
        ):
            try:
                bg.remember(written)
            except ConflictError as exc:
                during[name] = str(exc)
        during["text"] = bg.remember(
            ClaimDraft(namespace=NS, text=f"A note: {SUBJECT}, Kelp-TEXT-RACE.")
        ).added[0]
        during["other"] = bg.remember(about("Omar", "works_at", "Oslo-Port")).added[0]

    result = bg.erase(NS, subject=SUBJECT, progress=write_while_erasing)
    for name in ("covered", "new fact"):
        assert "is running over what this write touches" in during[name], during
    assert during["text"] in result.retired and during["other"] not in result.retired
    assert traces(bg.store, "RACE") == []
    assert bg.get(NS, during["other"]).object == "Oslo-Port"
    after = bg.remember(about(SUBJECT, "lives_in", "Faro-AFTER"))
    now = bg.current(NS, SUBJECT, "lives_in")
    assert isinstance(now, Claim) and now.id == after.added[0]
    slot = q(
        bg.store,
        "MATCH (c:Claim {namespace: $ns, id: $id})-[:IN_SLOT]->(s:Slot) "
        "RETURN s.subject_key AS key",
        ns=NS,
        id=after.added[0],
    )
    assert not slot[0]["key"].startswith("erased:")
    assert check_graph(bg.store) == []


def test_a_write_racing_an_erase_in_threads_never_outlives_it(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """Writers keep adding facts about the subject while it is erased: every write acknowledged
    before the erase was called is erased, one that comes while it runs is refused (and tried
    again), and one that commits after it is a new fact (a tombstoned slot is never reused)."""
    import threading

    bg = make_bg()
    story(bg)
    stop = threading.Event()
    written: list[str] = []
    refused: list[str] = []

    def write(me: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            draft = about(SUBJECT, f"p{n % 7}", f"RACE-{me}-{n}")
            try:
                written.append(bg.remember(draft).added[0])
            except ConflictError as exc:
                refused.append(str(exc))

    threads = [threading.Thread(target=write, args=(me,)) for me in range(2)]
    for t in threads:
        t.start()
    try:
        while len(written) < 10:
            stop.wait(0.01)
        before = set(written)
        result = bg.erase(NS, subject=SUBJECT)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert before <= set(result.retired), "a write acknowledged before the erase survived it"
    assert all("is running over what this write touches" in r for r in refused)
    # A write that commits after the erase lives in a fact of its own, never in a tombstone.
    in_tombstones = q(
        bg.store,
        "MATCH (c:Claim {namespace: $ns})-[:IN_SLOT]->(s:Slot) "
        "WHERE c.status <> 'erased' AND s.subject_key STARTS WITH 'erased:' RETURN c.id AS id",
        ns=NS,
    )
    assert in_tombstones == []
    assert check_graph(bg.store) == []


@pytest.fixture
def cli(neo4j_info: ConnectionInfo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    monkeypatch.delenv("BELIEF_GRAPH_NAMESPACE", raising=False)
    monkeypatch.setenv("BELIEF_GRAPH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("NEO4J_URI", neo4j_info.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_info.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_info.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_info.database)
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "false")
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def test_cli_erase_then_export_and_history_know_nothing(
    make_bg: Callable[..., BeliefGraph], cli: Any, tmp_path: Path
) -> None:
    bg = make_bg()
    ids = story(bg)
    lines = [
        cli("erase", "-n", NS, "--claim", ids[2], "--yes"),
        cli("erase", "-n", NS, "--subject", SUBJECT, "--yes"),
    ]
    assert all(r.exit_code == 0 for r in lines), [r.stderr for r in lines]
    history = cli("history", "-n", NS, SUBJECT, "lives_in", "--json")
    assert history.exit_code == 0 and json.loads(history.stdout) == []
    out = tmp_path / "after.jsonl"
    assert cli("export", "-n", NS, str(out)).exit_code == 0
    assert not any(m in out.read_text(encoding="utf-8").lower() for m in MARKS)
    assert_subject_gone(bg)
