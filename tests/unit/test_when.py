"""Relative times become valid_from / valid_to against the moment they were said."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from belief_graph.extraction.when import Window, find, resolve, strip

AT = datetime(2026, 3, 11, 15, 30, tzinfo=UTC)  # a Wednesday


def day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "valid_from", "valid_to"),
    [
        ("I moved to Berlin last week.", day(2026, 3, 2), None),
        ("I've been vegan since June.", day(2025, 6, 1), None),
        ("I was at Acme until 2020.", None, day(2020, 1, 1)),
        ("I worked there through 2020.", None, day(2021, 1, 1)),
        ("I started yesterday.", day(2026, 3, 10), None),
        ("I start at Globex from next Monday.", day(2026, 3, 16), None),
        ("I moved in March.", day(2026, 3, 1), None),
        ("I moved in May.", day(2025, 5, 1), None),
        ("I'll move in May.", day(2026, 5, 1), None),
        ("We met two years ago.", day(2024, 3, 11), None),
        ("I've lived here for three years.", day(2023, 3, 11), None),
        ("I'm in Lisbon until June.", None, day(2026, 6, 1)),
        ("I worked at Acme until February.", None, day(2026, 2, 1)),
        ("since 3 June 2024", day(2024, 6, 3), None),
        ("as of 2026-01-05", day(2026, 1, 5), None),
        ("last Friday", day(2026, 3, 6), None),
        ("a couple of weeks ago", day(2026, 2, 25), None),
        ("until next month", None, day(2026, 4, 1)),
        ("since last year", day(2025, 1, 1), None),
        ("I lived in Paris from 2015 to 2019.", day(2015, 1, 1), day(2020, 1, 1)),
        ("I worked at Acme from 2018 until 2021.", day(2018, 1, 1), day(2021, 1, 1)),
        ("We were in Rome from 3 March to 9 March 2024.", day(2024, 3, 3), day(2024, 3, 10)),
        ("I was there from May to February.", day(2025, 5, 1), day(2026, 3, 1)),
        ("I'm off from next Monday to Friday.", day(2026, 3, 16), day(2026, 3, 21)),
        ("I lived there from 2019 to 2015.", day(2019, 1, 1), None),
        ("I'm moving in May.", day(2026, 5, 1), None),
        ("I'm starting at Globex on Monday.", day(2026, 3, 16), None),
    ],
)
def test_a_time_phrase_becomes_the_window_of_the_fact(
    text: str, valid_from: datetime | None, valid_to: datetime | None
) -> None:
    window = find(text, AT)
    assert (window.valid_from, window.valid_to) == (valid_from, valid_to)
    assert window.phrase and window.phrase in text


@pytest.mark.parametrize(
    "text", ["I may move.", "Python 2020 is not a thing.", "I'm pescatarian these days.", ""]
)
def test_no_time_phrase_gives_no_window(text: str) -> None:
    assert find(text, AT) == Window()
    assert not find(text, AT)


def test_one_phrase_resolves_on_its_own_and_the_sentence_decides_its_tense() -> None:
    assert resolve("since June", AT).valid_from == day(2025, 6, 1)
    assert resolve("until 2020", AT).valid_to == day(2020, 1, 1)
    assert resolve("in May", AT, sentence="I moved to Rome in May").valid_from == day(2025, 5, 1)
    assert resolve("in May", AT, sentence="I will move in May").valid_from == day(2026, 5, 1)
    assert resolve("not a time", AT) == Window()


def test_days_start_at_midnight_of_the_time_zone_said_in() -> None:
    from zoneinfo import ZoneInfo

    lisbon = datetime(2026, 7, 1, 0, 30, tzinfo=ZoneInfo("Europe/Lisbon"))
    assert find("yesterday", lisbon).valid_from == datetime(
        2026, 6, 30, tzinfo=ZoneInfo("Europe/Lisbon")
    )


def test_a_naive_moment_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"^at: "):
        find("yesterday", datetime(2026, 3, 11))


def test_strip_removes_the_phrase_it_was_read_from() -> None:
    window = find("I moved to Berlin last week, finally.", AT)
    assert strip("I moved to Berlin last week, finally.", window) == "I moved to Berlin finally."


def test_a_subjectless_progressive_of_a_change_is_to_come() -> None:
    said = datetime(2026, 3, 11, 12, tzinfo=UTC)  # a Wednesday
    assert find("Starting at Globex on Monday.", said).valid_from == datetime(
        2026, 3, 16, tzinfo=UTC
    )
