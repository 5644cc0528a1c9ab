"""The LangGraph store's mapping of keys and namespaces onto slots, without a database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langgraph.store.base import InvalidNamespaceError

from belief_graph.integrations.langgraph import (
    encode,
    key_of,
    labels_of,
    namespace_of,
    subject_of,
)
from belief_graph.models import ClaimDraft
from belief_graph.vocabulary import normalize_key

keys = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(
    lambda k: k.strip() != ""
)


@given(keys)
def test_a_key_comes_back_from_its_subject(key: str) -> None:
    subject = subject_of(key)
    assert key_of(subject) == key
    # The subject is a valid claim subject.
    ClaimDraft(namespace="n", subject=subject, predicate="p", object="o", text="t")


@given(keys, keys)
def test_distinct_keys_never_share_a_slot(a: str, b: str) -> None:
    if a != b:
        assert normalize_key(subject_of(a)) != normalize_key(subject_of(b))


def test_plain_keys_stay_readable() -> None:
    assert subject_of("prefs") == "prefs"
    assert subject_of("Prefs").startswith("Prefs #")
    assert subject_of("prefs.").startswith("prefs. #")


def test_namespaces_join_and_split_on_the_dot() -> None:
    assert namespace_of(("user:priya",)) == "user:priya"
    assert namespace_of(("memories", "u1")) == "memories.u1"
    assert labels_of("memories.u1") == ("memories", "u1")
    for bad in [(), ("a.b",), ("",), ("has space",), ("-x",)]:
        with pytest.raises(InvalidNamespaceError, match=r"^namespace:"):
            namespace_of(bad)


def test_values_are_canonical_json() -> None:
    assert encode({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    with pytest.raises(ValueError, match=r"^value: must be a dict"):
        encode(["x"])  # type: ignore[arg-type]


def test_bad_keys_name_the_key() -> None:
    longest = subject_of("X" * 980)  # gets the digest, and still fits a claim subject
    ClaimDraft(namespace="n", subject=longest, predicate="p", object="o", text="t")
    for bad in ["", "  ", "a\x00b", "x" * 981]:
        with pytest.raises(ValueError, match=r"^key: "):
            subject_of(bad)
