"""Relative times in what someone said, resolved against when they said it.

"I moved to Berlin last week", said on 2026-03-11, starts the fact at the Monday of the week
before (2026-03-02); "since June" starts it on the most recent 1 June; "until 2020" ends it on
1 January 2020. Pure: text and a moment in, moments out, no clock.

Decisions (docs/extraction.md):

- A phrase names a period (a day, a week from Monday, a month, a year); a start takes the
  period's first moment, ``until``/``till``/``before`` end at its first moment, ``through``
  ends at the next period's first moment. Days start at midnight of ``at``'s time zone.
- A phrase with no direction word ("last week", "two years ago", "in March") starts the fact.
- A month or weekday without a year or "next"/"last" is the most recent one, unless the sentence
  speaks of the future ("will", "going to", "'ll", "from next ...") or the phrase is an end
  (``until June``): then the coming one.
- "for two years" (a duration) starts the fact that long before ``at``.
- A range ("from 2015 to 2019", "between March and June") starts at its first period and ends
  after its last: "to" and "and" include the last period, as "through" does; "until" does not.
  An end without a year is the first one after the start ("from May to February"); an end's
  year is the start's too ("from 3 March to 9 March 2024"); a range whose end still comes
  before its start keeps only its start.
- A present progressive of a change ("I'm moving to Berlin in May", "I'm starting at Globex on
  Monday") speaks of the future, as "will" does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

__all__ = ["Window", "find", "resolve", "strip"]

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_WEEKDAYS = {
    name: number
    for number, names in enumerate(
        (
            ("monday", "mon"),
            ("tuesday", "tue", "tues"),
            ("wednesday", "wed"),
            ("thursday", "thu", "thurs"),
            ("friday", "fri"),
            ("saturday", "sat"),
            ("sunday", "sun"),
        )
    )
    for name in names
}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "a couple of": 2,
    "couple of": 2,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a few": 3,
    "few": 3,
}

_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_NUMBER = r"\d+|" + "|".join(sorted((re.escape(n) for n in _NUMBERS), key=len, reverse=True))
_UNIT = r"(?:day|week|month|year)s?"

# The period a phrase names. A month, a year or a weekday counts only after a direction word
# ("in March", "since 2019", "on Monday"): alone, "may" is a verb and 2020 may be a version.
_FREE = rf"""
    (?P<iso>\d{{4}}-\d{{2}}-\d{{2}})
  | (?P<day>today|yesterday|tomorrow)
  | (?P<rel>last|this|next|the\ past|the\ coming)\s+(?P<rel_unit>week|month|year|weekend|{_WEEKDAY})
  | (?P<ago_n>{_NUMBER})\s+(?P<ago_unit>{_UNIT})\s+ago
"""
_NEEDS_DIRECTION = rf"""
    (?P<month_a>{_MONTH})\.?(?:\s+(?P<mday_a>\d{{1,2}})(?:st|nd|rd|th)?)?(?:,?\s+(?P<year_a>\d{{4}}))?
  | (?:the\s+)?(?P<mday_b>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<month_b>{_MONTH})\.?
    (?:,?\s+(?P<year_b>\d{{4}}))?
  | (?P<year>(?:19|20)\d{{2}})
  | (?P<weekday>{_WEEKDAY})
"""
_DIRECTION = (
    r"(?P<dir>since|from|between|starting(?:\s+from)?|beginning|as\s+of|effective|until|till|til"
    r"|up\s+to|through|thru|before|after|in|on|during)"
)
_PHRASE = re.compile(
    rf"\b(?:{_DIRECTION}\s+)?(?:{_FREE})(?![\w-])"
    rf"|\b{_DIRECTION.replace('dir>', 'dir2>')}\s+(?:{_NEEDS_DIRECTION})(?![\w-])"
    rf"|\bfor\s+(?:the\s+(?:past|last)\s+)?(?P<for_n>{_NUMBER})\s+(?P<for_unit>{_UNIT})\b",
    re.IGNORECASE | re.VERBOSE,
)
_FUTURE = re.compile(
    r"\b(will|shall|going to|gonna|plan to|planning to|about to|from next|starting next)\b"
    r"|'ll\b|\bnext\b"
    r"|(?:\b(?:am|is|are)|'m|'re|'s|^)\s*(?:moving|relocating|transferring|starting|joining|leaving"
    r"|quitting|switching|retiring)\b",
    re.IGNORECASE,
)
# What joins a range's two ends: "from 2015 to 2019", "between May and June" (a dash does not:
# "2015-2019" reads as no phrase at all, as "2015-01" does).
_RANGE_END = re.compile(
    r"\s*(?:(?P<upto>to|and|through|thru)|(?P<until>until|till|til))\s+", re.IGNORECASE
)
_PAST = re.compile(
    r"\b(was|were|had|did|used to|left|quit|moved|lived|worked|\w+ed)\b", re.IGNORECASE
)
_STARTS = {
    "since",
    "from",
    "between",
    "starting",
    "starting from",
    "beginning",
    "as of",
    "effective",
    "after",
}
_RANGE_STARTS = {"from", "between"}
_ENDS_AT_START = {"until", "till", "til", "up to", "before"}
_ENDS_AFTER = {"through", "thru"}


@dataclass(frozen=True)
class Window:
    """The validity a time phrase gives a fact; ``phrase`` is the text it was read from."""

    valid_from: datetime | None = None
    valid_to: datetime | None = None
    phrase: str = ""

    def __bool__(self) -> bool:
        return self.valid_from is not None or self.valid_to is not None


def find(text: str, at: datetime) -> Window:
    """The first time phrase in ``text`` that names a moment, resolved against ``at``; an empty
    ``Window`` when there is none. ``at`` must be timezone-aware."""
    tense = _tense(text)
    for match in _PHRASE.finditer(text):
        window = _window(match, at, tense)
        if window:
            return _ranged(window, match, text, at, tense)
    return Window()


def _ranged(
    window: Window, start: re.Match[str], text: str, at: datetime, tense: str | None
) -> Window:
    """``window`` with the end of the range its phrase opens ("from 2015 to 2019"), if any."""
    direction = (start.group("dir") or start.group("dir2") or "").lower()
    joint = _RANGE_END.match(text, start.end())
    if direction not in _RANGE_STARTS or joint is None:
        return window
    word = "through" if joint.group("upto") else "until"
    end = _PHRASE.match(f"{word} {text[joint.end() :]}")
    if end is None:
        return window
    if _without_year(end):
        # A month or a weekday without a year is the first one after the start.
        closing = _window(end, window.valid_from or at, "future")
    else:
        closing = _window(end, at, tense)
    opening = window
    if closing.valid_to is not None and _without_year(start) and not _without_year(end):
        # "from 3 March to 9 March 2024": the end's year is the start's too.
        opening = _window(start, closing.valid_to, "past")
    if opening.valid_from is None or closing.valid_to is None:
        return window
    if closing.valid_to <= opening.valid_from:
        return window
    span = text[start.start() : joint.end() + end.end() - len(word) - 1]
    return Window(opening.valid_from, closing.valid_to, span)


def _without_year(match: re.Match[str]) -> bool:
    """Whether the phrase names a month or a weekday and no year."""
    groups = {k for k, v in match.groupdict().items() if v is not None}
    named = groups & {"month_a", "month_b", "weekday"}
    return bool(named) and not groups & {"year_a", "year_b"}


def resolve(phrase: str, at: datetime, *, sentence: str | None = None) -> Window:
    """One phrase such as "since June", "until 2020" or "two years ago", resolved against
    ``at``; an empty ``Window`` when it names no moment. ``sentence``: the sentence it came
    from, whose tense decides a month or weekday without a year (default: the phrase's own)."""
    match = _PHRASE.fullmatch(phrase.strip().rstrip(".,;!?"))
    if match is None:
        return Window()
    return _window(match, at, _tense(sentence if sentence is not None else phrase))


def _tense(text: str) -> str | None:
    if _FUTURE.search(text):
        return "future"
    return "past" if _PAST.search(text) else None


def strip(text: str, window: Window) -> str:
    """``text`` without the phrase ``window`` was read from (and the space it leaves)."""
    if not window.phrase:
        return text
    head, _, tail = text.partition(window.phrase)
    return " ".join(f"{head.rstrip(' ,')} {tail.lstrip(' ,')}".split())


def _window(match: re.Match[str], at: datetime, tense: str | None) -> Window:
    if at.tzinfo is None:
        raise ValueError("at: must be timezone-aware")
    groups = {k: v for k, v in match.groupdict().items() if v is not None}
    phrase = match.group(0)
    if "for_n" in groups:
        start = _back(at.date(), _count(groups["for_n"]), groups["for_unit"])
        return Window(valid_from=_midnight(start, at), phrase=phrase)
    direction = " ".join((groups.get("dir") or groups.get("dir2") or "").lower().split())
    # An end without a tense ("I'm in Lisbon until June") is still to come.
    ahead = tense == "future" or (
        tense is None and (direction in _ENDS_AT_START or direction in _ENDS_AFTER)
    )
    period = _period(groups, at.date(), future=ahead)
    if period is None:
        return Window()
    first, after = period
    if direction in _ENDS_AT_START:
        return Window(valid_to=_midnight(first, at), phrase=phrase)
    if direction in _ENDS_AFTER:
        return Window(valid_to=_midnight(after, at), phrase=phrase)
    if direction == "after":
        return Window(valid_from=_midnight(after, at), phrase=phrase)
    return Window(valid_from=_midnight(first, at), phrase=phrase)


def _period(groups: dict[str, str], today: date, *, future: bool) -> tuple[date, date] | None:
    """The period a phrase names: its first day and the first day after it."""
    if "iso" in groups:
        try:
            day = date.fromisoformat(groups["iso"])
        except ValueError:
            return None
        return day, day + timedelta(days=1)
    if "day" in groups:
        offset = {"today": 0, "yesterday": -1, "tomorrow": 1}[groups["day"].lower()]
        day = today + timedelta(days=offset)
        return day, day + timedelta(days=1)
    if "rel" in groups:
        return _relative(groups["rel"].lower(), groups["rel_unit"].lower(), today)
    if "ago_n" in groups:
        day = _back(today, _count(groups["ago_n"]), groups["ago_unit"])
        return day, day + timedelta(days=1)
    if "month_a" in groups or "month_b" in groups:
        month = _MONTHS[(groups.get("month_a") or groups["month_b"]).lower().rstrip(".")]
        year_text = groups.get("year_a") or groups.get("year_b")
        mday_text = groups.get("mday_a") or groups.get("mday_b")
        mday = int(mday_text) if mday_text else None
        if year_text is not None:
            year = int(year_text)
        else:
            year = today.year
            if future and (month, mday or 1) < (today.month, 1 if mday is None else today.day):
                year += 1
            elif not future and (month, mday or 1) > (today.month, today.day):
                year -= 1
        try:
            if mday is not None:
                day = date(year, month, mday)
                return day, day + timedelta(days=1)
            first = date(year, month, 1)
        except ValueError:
            return None
        return first, _add_months(first, 1)
    if "year" in groups:
        year = int(groups["year"])
        return date(year, 1, 1), date(year + 1, 1, 1)
    if "weekday" in groups:
        target = _WEEKDAYS[groups["weekday"].lower()]
        delta = target - today.weekday()
        if future:
            day = today + timedelta(days=delta if delta > 0 else delta + 7)
        else:
            day = today + timedelta(days=delta if delta < 0 else delta - 7)
        return day, day + timedelta(days=1)
    return None


def _relative(rel: str, unit: str, today: date) -> tuple[date, date] | None:
    step = {"last": -1, "the past": -1, "this": 0, "next": 1, "the coming": 1}[
        " ".join(rel.split())
    ]
    if unit in _WEEKDAYS:
        delta = _WEEKDAYS[unit] - today.weekday()
        if step < 0:
            delta = delta if delta < 0 else delta - 7
        elif step > 0:
            delta = delta if delta > 0 else delta + 7
        day = today + timedelta(days=delta)
        return day, day + timedelta(days=1)
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=step)
        if unit == "weekend":
            saturday = monday + timedelta(days=5)
            return saturday, saturday + timedelta(days=2)
        return monday, monday + timedelta(weeks=1)
    if unit == "month":
        first = _add_months(date(today.year, today.month, 1), step)
        return first, _add_months(first, 1)
    year = today.year + step
    return date(year, 1, 1), date(year + 1, 1, 1)


def _count(text: str) -> int:
    key = " ".join(text.lower().split())
    return int(key) if key.isdigit() else _NUMBERS[key]


def _back(today: date, count: int, unit: str) -> date:
    unit = unit.lower().rstrip("s")
    if unit == "day":
        return today - timedelta(days=count)
    if unit == "week":
        return today - timedelta(weeks=count)
    if unit == "month":
        return _add_months(today, -count)
    return _add_months(today, -12 * count)


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    following = date(year + month // 12, month % 12 + 1, 1)
    return date(year, month, min(day.day, (following - timedelta(days=1)).day))


def _midnight(day: date, at: datetime) -> datetime:
    return datetime.combine(day, time(), tzinfo=at.tzinfo)
