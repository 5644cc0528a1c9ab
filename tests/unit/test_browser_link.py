"""``belief-graph browser``: the Browser link for a saved audit query (no database needed)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from typer.testing import CliRunner

from belief_graph.cli import browser as audit
from belief_graph.cli.app import app


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(autouse=True)
def remote(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j://db.internal:7687")
    monkeypatch.delenv(audit.BROWSER_URL_ENV, raising=False)


def browser_view(url: str) -> str:
    """What Neo4j Browser puts in its editor: it decodes the whole URL once, replaces + by a
    space first, then takes every arg= up to the next & or # and joins them with newlines."""
    decoded = unquote(url.replace("+", " "))
    query = decoded.split("?", 1)[1]
    args = [part[4:] for part in query.split("#")[0].split("&") if part.startswith("arg=")]
    return "\n".join(args)


def test_json_link_for_slot_lineage() -> None:
    result = run("browser", "slot-lineage", "namespace=user:priya", "claim_id=c-2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"url", "query", "params"}
    assert data["params"] == {"namespace": "user:priya", "claim_id": "c-2"}
    url = data["url"]
    assert url.startswith("http://db.internal:7474/browser/?")
    fields = parse_qs(urlsplit(url).query)
    assert fields["cmd"] == ["edit"]
    assert fields["dbms"] == ["neo4j://db.internal:7687"]
    editor = browser_view(url)
    assert editor.endswith(data["query"])
    assert ':params {namespace: "user:priya", claim_id: "c-2"}' in editor
    assert data["param_lines"] == [':param namespace => "user:priya"', ':param claim_id => "c-2"']


def test_text_output_prints_url_and_param_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(audit.BROWSER_URL_ENV, "https://browser.example/browser/")
    result = run("browser", "known_at", "namespace=n", "known_at=2026-05-01")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("https://browser.example/browser/?dbms=")
    assert '  :param known_at => datetime("2026-05-01T00:00:00+00:00")' in lines


def test_values_that_would_break_the_url_are_escaped() -> None:
    link = audit.browser_link("open-conflicts", ['namespace=a&b#c"d'])
    assert link.params == {"namespace": 'a&b#c"d'}
    assert ':params {namespace: "a\\u0026b\\u0023c\\"d"}' in browser_view(link.url)


def test_unknown_query_lists_the_available_ones() -> None:
    result = run("browser", "nope")
    assert result.exit_code == 1
    assert "unknown audit query 'nope'" in result.stderr
    for name in ("slot-lineage", "open-conflicts", "known-at", "revision-changes"):
        assert name in result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["slot_lineage", "namespace=n"], "missing parameter claim_id"),
        (["known-at", "namespace=n", "known_at=yesterday"], "known_at: 'yesterday'"),
        (["open-conflicts", "namespace=n", "bogus=1"], "bogus: open_conflicts has no such"),
        (["open-conflicts", "namespace"], "not name=value"),
    ],
)
def test_bad_arguments_exit_1_naming_the_problem(args: list[str], needle: str) -> None:
    result = run("browser", *args)
    assert result.exit_code == 1
    assert needle in result.stderr
    assert "Traceback" not in result.output
