"""Where a draft's window falls among a fact's known versions, and what a correction retracts:
the pure rules of write/timeline.py, without a database."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from belief_graph.write.timeline import correction, held_at, place


def at(month: int) -> datetime:
    return datetime(2026, month, 1, tzinfo=UTC)


def row(
    value: str, start: int, end: int | None = None, accepted: int | None = None
) -> dict[str, Any]:
    return {
        "id": value,
        "object_key": value,
        "valid_from": at(start),
        "valid_to": at(end) if end else None,
        "accepted_at": at(accepted or start),
        "status": "active",
    }


def is_(value: str) -> Any:
    return lambda r: r["object_key"] == value


def test_the_claim_accepted_last_holds_where_windows_overlap() -> None:
    old, new = row("a", 1, 9), row("b", 3, None, accepted=4)
    assert held_at([old, new], at(5)) is new
    assert held_at([old, new], at(2)) is old
    assert held_at([old, new], at(10)) is new


def test_an_ended_head_gives_way_without_being_closed() -> None:
    berlin = row("berlin", 1, 2)
    placed = place([berlin], berlin, at(3), None, is_("lisbon"))
    assert placed.where == "after_end" and placed.target is berlin
    assert place([berlin], berlin, at(3), None, is_("berlin")).where == "after_end"


def test_restating_the_value_before_a_scheduled_change_reinforces_it() -> None:
    express, go = row("express", 3, 6), row("go", 6, None, accepted=4)
    assert place([express, go], go, at(4), None, is_("express")).where == "reinforce"
    assert place([express, go], go, at(4), None, is_("rust")).where == "overlap"


def test_late_knowledge_fills_a_gap_and_overlap_is_refused() -> None:
    express = row("express", 3)
    assert place([express], express, at(1), at(3), is_("django")).where == "earlier"
    assert place([express], express, at(1), at(4), is_("django")).where == "overlap"
    assert place([express], express, at(4), None, is_("go")).where == "head"
    assert place([], None, at(4), None, is_("go")).where == "empty"


def test_a_correction_retracts_every_later_wrong_version_and_continues_the_right_one() -> None:
    express, go, rust = row("express", 3, 5), row("go", 5, 6), row("rust", 6)
    fix = correction([express, go, rust], rust, at(5), at(7), is_("express"))
    assert fix is not None
    assert [r["id"] for r in fix.wrong] == ["go", "rust"] and fix.valid_from == at(3)
    # without a valid_from: only the value believed now was wrong
    fix = correction([express, go, rust], rust, None, at(7), is_("express"))
    assert fix is not None
    assert [r["id"] for r in fix.wrong] == ["rust"] and fix.valid_from == at(6)
    # nothing to correct when the newest version already holds the value
    assert correction([express, go, rust], rust, None, at(7), is_("rust")) is None
