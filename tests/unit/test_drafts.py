"""ClaimDraft validation: bad input is a pydantic ValidationError whose ``loc`` names the field."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import pytest
from pydantic import ValidationError

from belief_graph import ClaimDraft
from belief_graph.testing import factories

GOOD: dict[str, Any] = {
    "namespace": "user:priya",
    "subject": "user",
    "predicate": "lives in",
    "object": "Lisbon",
    "text": "Priya lives in Lisbon.",
}


draft = partial(factories.draft, **GOOD)


def locs(exc: pytest.ExceptionInfo[ValidationError]) -> list[tuple[Any, ...]]:
    return [tuple(e["loc"]) for e in exc.value.errors()]


def assert_names(field: str, **changes: Any) -> pytest.ExceptionInfo[ValidationError]:
    with pytest.raises(ValidationError) as exc:
        draft(**changes)
    assert any(loc and loc[0] == field for loc in locs(exc)), locs(exc)
    return exc


def test_good_draft_and_text_only_draft_validate() -> None:
    assert draft().object == "Lisbon"
    text_only = ClaimDraft(namespace="user:priya", text="Priya lives in Lisbon.")
    assert text_only.text_only


STRING_FIELDS = ["subject", "predicate", "object", "text", "author", "origin", "episode_content"]
ID_FIELDS = ["namespace", "episode_id", "id"]


@pytest.mark.parametrize("field", STRING_FIELDS + ID_FIELDS)
def test_empty_string_is_refused(field: str) -> None:
    assert_names(field, **{field: ""})


@pytest.mark.parametrize("field", STRING_FIELDS)
@pytest.mark.parametrize("blank", [" ", "   ", "\t", "\n\n", "\u3000"])
def test_blank_string_is_refused(field: str, blank: str) -> None:
    assert_names(field, **{field: blank})


@pytest.mark.parametrize("field", ID_FIELDS)
@pytest.mark.parametrize("bad", [" ", "has space", "-leading", "a\nb", "ünïcode", "x'})"])
def test_malformed_identifier_is_refused(field: str, bad: str) -> None:
    assert_names(field, **{field: bad})


@pytest.mark.parametrize(
    ("field", "limit"),
    [
        ("text", 10_000),
        ("episode_content", 10_000),
        ("subject", 1_000),
        ("predicate", 1_000),
        ("object", 1_000),
        ("author", 1_000),
        ("origin", 1_000),
        ("namespace", 200),
        ("episode_id", 200),
        ("id", 200),
    ],
)
def test_oversized_field_is_refused_at_its_limit(field: str, limit: int) -> None:
    assert getattr(draft(**{field: "a" * limit}), field) == "a" * limit
    exc = assert_names(field, **{field: "a" * (limit + 1)})
    assert exc.value.errors()[0]["type"] == "string_too_long"


def test_one_megabyte_text_is_refused() -> None:
    assert_names("text", text="x" * 1_000_000)


@pytest.mark.parametrize("field", ["depends_on", "supports"])
def test_reference_lists_are_checked(field: str) -> None:
    assert_names(field, **{field: ("ok-id", "not ok")})
    assert_names(field, **{field: tuple(f"id{i}" for i in range(101))})


def test_valid_to_before_valid_from_is_refused() -> None:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    with pytest.raises(ValidationError, match="valid_to"):
        draft(valid_from=start, valid_to=datetime(2026, 2, 1, tzinfo=UTC))
    with pytest.raises(ValidationError, match="valid_to"):
        draft(valid_from=start, valid_to=start)
    assert draft(valid_from=start, valid_to=datetime(2026, 3, 2, tzinfo=UTC)).valid_to


def test_valid_to_before_valid_from_loc_names_valid_to() -> None:
    assert_names(
        "valid_to",
        valid_from=datetime(2026, 3, 1, tzinfo=UTC),
        valid_to=datetime(2026, 2, 1, tzinfo=UTC),
    )


@pytest.mark.parametrize("field", ["valid_from", "valid_to", "recorded_at"])
def test_naive_datetime_is_refused(field: str) -> None:
    exc = assert_names(field, **{field: datetime(2026, 3, 1, 12, 0)})
    assert exc.value.errors()[0]["type"] == "timezone_aware"


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), -0.01, 1.01, "high"])
def test_bad_confidence_is_refused(value: Any) -> None:
    assert_names("confidence", confidence=value)


@pytest.mark.parametrize("value", [0.0, 1.0, 0.5])
def test_confidence_bounds_are_inclusive(value: float) -> None:
    assert draft(confidence=value).confidence == value


@pytest.mark.parametrize(
    ("given", "missing"),
    [
        ({"predicate": None, "object": None}, ["predicate", "object"]),
        ({"subject": None}, ["subject"]),
        ({"object": None}, ["object"]),
        ({"subject": None, "predicate": None}, ["subject", "predicate"]),
    ],
)
def test_partial_triple_is_refused_naming_what_is_missing(
    given: dict[str, Any], missing: list[str]
) -> None:
    with pytest.raises(ValidationError) as exc:
        draft(**given)
    message = str(exc.value)
    assert all(name in message for name in missing)


def test_partial_triple_loc_names_the_missing_field() -> None:
    assert_names("object", object=None)


@pytest.mark.parametrize("field", STRING_FIELDS)
@pytest.mark.parametrize(
    "bad", ["half \ud800 surrogate", "\udfff", "nul \x00 byte", "bell\x07", "esc\x1b[0m", "del\x7f"]
)
def test_surrogates_and_control_characters_are_refused(field: str, bad: str) -> None:
    assert_names(field, **{field: bad})


@pytest.mark.parametrize("field", STRING_FIELDS)
@pytest.mark.parametrize(
    "good",
    ["tabs\tand\nnewlines\r\n", "emoji 🧠💾", "שלום עולם", "x'}) MATCH (n) DETACH DELETE n //"],
)
def test_printable_unicode_and_whitespace_are_kept(field: str, good: str) -> None:
    assert getattr(draft(**{field: good}), field) == good


@pytest.mark.parametrize(
    ("field", "value"),
    [("source_type", "rumour"), ("kind", "opinion"), ("correction", "maybe")],
)
def test_bad_enumerations_are_refused(field: str, value: Any) -> None:
    assert_names(field, **{field: value})


def test_unknown_field_is_refused() -> None:
    assert_names("embedding", embedding=[0.1, 0.2])


def test_missing_text_and_namespace_are_named() -> None:
    with pytest.raises(ValidationError) as exc:
        ClaimDraft.model_validate({"subject": "u", "predicate": "p", "object": "o"})
    assert {("text",), ("namespace",)} <= set(locs(exc))
