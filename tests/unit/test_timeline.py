"""Where a draft's window falls among a fact's known versions, and what a correction retracts:
the pure rules of write/timeline.py, without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from belief_graph.testing.examples import examples
from belief_graph.write.changes import past_from
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


def day(n: int) -> datetime:
    return datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=n)


versions = st.lists(
    st.tuples(
        st.integers(0, 40),  # valid_from, days
        st.one_of(st.none(), st.integers(1, 15)),  # window length (None: open)
        st.integers(0, 60),  # accepted, days
        st.sampled_from("abc"),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=examples(3000), deadline=None)
@given(
    history=versions,
    start=st.integers(0, 45),
    length=st.one_of(st.none(), st.integers(1, 20)),
    value=st.sampled_from("abc"),
    cut=st.integers(0, 45),
    ended=st.booleans(),
)
def test_a_draft_is_placed_alike_among_every_past_version_and_among_those_from_its_start_on(
    history: list[tuple[int, int | None, int, str]],
    start: int,
    length: int | None,
    value: str,
    cut: int,
    ended: bool,
) -> None:
    """The write path reads a fact's past versions from a moment on (``past_from``): a draft
    that starts at or after the latest end among those left out falls where it would among all
    of them, whatever the windows, the newest version active or (``ended``) past too."""
    rows = [
        {
            "id": f"v{i}",
            "object_key": v,
            "valid_from": day(s),
            "valid_to": day(s + n) if n else None,
            "accepted_at": day(a),
            "version": i + 1,
            "status": "superseded",
        }
        for i, (s, n, a, v) in enumerate(history)
    ]
    *past, newest = rows
    active = [] if ended else [newest]
    if ended:
        past.append(newest)
    else:
        newest["status"] = "active"

    def placed(past_rows: list[dict[str, Any]]) -> tuple[Any, ...]:
        known = [*active, *past_rows]
        head = max(known, key=lambda r: r["version"])
        end = day(start + length) if length else None
        found = place(known, head, day(start), end, is_(value))
        target = found.target["id"] if found.target else None
        return found.where, target, [r["id"] for r in found.later]

    kept, left_out = past_from(past, day(cut))
    assume(left_out is None or day(start) >= left_out)
    assert placed(kept) == placed(past)
