"""The CLI's terminal output without a database: escaping, fitting, relative times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rich.cells import cell_len
from rich.console import Console

from belief_graph.cli.render import Column, FittedTable, clean, relative, txt

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Lisbon [/bold]", "Lisbon [/bold]"),
        ("red\x1b[31m", "red\\x1b[31m"),
        ("bell\x07", "bell\\x07"),
        ("a\u202eb", "a\\u202eb"),
        ("zero\u200bwidth", "zero\\u200bwidth"),
        ("two\nlines\tand tab", "two lines and tab"),
        ("c1\x9bcontrol", "c1\\x9bcontrol"),
    ],
)
def test_clean_shows_control_characters_and_keeps_markup_literal(raw: str, shown: str) -> None:
    assert clean(raw) == shown
    out = Console(width=80, record=True, force_terminal=False)
    out.print(txt(raw))
    assert out.export_text().rstrip("\n") == shown


@pytest.mark.parametrize(
    ("delta", "words"),
    [
        (timedelta(seconds=5), "just now"),
        (timedelta(minutes=3), "3 minutes ago"),
        (timedelta(hours=1), "1 hour ago"),
        (timedelta(days=199), "6 months ago"),
        (timedelta(days=800), "2 years ago"),
        (-timedelta(days=3), "in 3 days"),
    ],
)
def test_relative(delta: timedelta, words: str) -> None:
    assert relative(NOW - delta, NOW) == words


@pytest.mark.parametrize("width", [40, 60, 80, 120, 200])
def test_fitted_table_never_cuts_a_word(width: int) -> None:
    table = FittedTable(
        "t",
        [
            Column("id", 2, fold_into="value", style="dim"),
            Column("value", 0, wrap=True),
            Column("when", 3),
            Column("note", 4, wrap=True),
        ],
    )
    words = "an extraordinarily-long-hyphenated-word and short ones".split()
    table.add_row("01M8P71T4378NGZVCZAGW7PQN5", " ".join(words), "2026-05-15 00:00", "a note")
    out = Console(width=width, record=True, force_terminal=False)
    out.print(table.render(width))
    text = out.export_text()
    assert all(cell_len(line) <= width for line in text.splitlines()), text
    for word in [*words, "01M8P71T4378NGZVCZAGW7PQN5"]:
        assert any(word in line for line in text.splitlines()), (word, text)


def test_an_observation_shows_a_turn_kept_as_text() -> None:
    from belief_graph.cli.render import Times
    from belief_graph.cli.views.revisions import observation_table
    from belief_graph.extraction import Observation, Proposal

    kept = Proposal(sentence="The quarterly report is eating my week.", source="The quarterly...")
    table = observation_table(
        Observation(episode_id="c1:0", extractor="rules", proposals=[kept], results=[], refused=[]),
        Times(),
    )
    out = Console(width=120, record=True)
    out.print(table.render(120))
    shown = out.export_text()
    assert "(kept as text)" in shown and "quarterly report is eating my week" in shown
