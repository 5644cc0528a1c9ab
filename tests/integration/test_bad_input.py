"""Bad and hostile input through the public API, on a real Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic import ValidationError

from belief_graph import BeliefGraph, ClaimDraft, ConflictError, NotFound
from belief_graph.testing.graph import counts as graph_counts

NS = "user:eve"
MISSING = "01NOSUCHCLAIM0000000000000"


def counts(bg: BeliefGraph) -> tuple[int, int]:
    found = graph_counts(bg.store)
    return found["nodes"], found["rels"]


def seed(bg: BeliefGraph) -> str:
    result = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="eve",
            predicate="city",
            object="Lisbon",
            text="Eve lives in Lisbon.",
        )
    )
    return result.added[0]


@pytest.mark.parametrize(
    "call",
    [
        lambda bg: bg.contract(NS, MISSING),
        lambda bg: bg.contract(NS, MISSING, retract=False),
        lambda bg: bg.confirm(NS, MISSING),
        lambda bg: bg.reject(NS, MISSING),
        lambda bg: bg.rectify(NS, MISSING, object="x", text="x.", actor="dpo"),
        lambda bg: bg.lineage(NS, MISSING),
        lambda bg: bg.get(NS, MISSING),
    ],
    ids=["contract", "close", "confirm", "reject", "rectify", "lineage", "get"],
)
def test_unknown_claim_id_is_not_found_naming_claim_id(bg: BeliefGraph, call: Any) -> None:
    seed(bg)
    before = counts(bg)
    with pytest.raises(NotFound, match="claim_id") as exc:
        call(bg)
    assert MISSING in str(exc.value)
    assert counts(bg) == before


def test_claim_of_another_namespace_is_not_found(bg: BeliefGraph) -> None:
    cid = seed(bg)
    with pytest.raises(NotFound, match="claim_id"):
        bg.get("user:mallory", cid)
    with pytest.raises(NotFound, match="claim_id"):
        bg.contract("user:mallory", cid)


def test_unknown_revision_for_rollback_is_not_found(bg: BeliefGraph) -> None:
    with pytest.raises(NotFound, match="revision_id"):
        bg.rollback(NS, "no-such-revision")


@pytest.mark.parametrize("field", ["depends_on", "supports"])
def test_unknown_reference_is_not_found_naming_the_field(bg: BeliefGraph, field: str) -> None:
    cid = seed(bg)
    before = counts(bg)
    with pytest.raises(NotFound, match=field) as exc:
        bg.remember(
            ClaimDraft(
                namespace=NS,
                subject="eve",
                predicate="employer",
                object="ACME",
                text="Eve works at ACME.",
                **{field: (cid, MISSING)},
            )
        )
    assert MISSING in str(exc.value)
    assert counts(bg) == before


def test_recorded_at_before_the_last_change_is_refused(bg: BeliefGraph) -> None:
    bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="eve",
            predicate="city",
            object="Lisbon",
            text="Eve lives in Lisbon.",
            recorded_at=datetime(2026, 5, 1, tzinfo=UTC),
        )
    )
    before = counts(bg)
    with pytest.raises(ConflictError, match="recorded_at"):
        bg.remember(
            ClaimDraft(
                namespace=NS,
                subject="eve",
                predicate="city",
                object="Porto",
                text="Eve lives in Porto.",
                recorded_at=datetime(2026, 4, 1, tzinfo=UTC),
            )
        )
    assert counts(bg) == before


HOSTILE = [
    "x'}) MATCH (n) DETACH DELETE n //",
    'x"}) MATCH (n) DETACH DELETE n //',
    "$namespace",
    "{namespace: 'user:other'}",
    '{"text": "injected", "status": "active"}',
    "\\u0000 not a nul, just backslash-u",
    "emoji 🧠💾👩‍👩‍👧 and flags 🇵🇹",
    "עברית مع العربية \u202eRTL override\u202c",
    "Ünïcödé NFD: e\u0301",
    "tabs\tand\nnewlines\r\nand ` backticks `",
]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_strings_are_stored_and_read_back_byte_identical(
    bg: BeliefGraph, value: str
) -> None:
    draft = ClaimDraft(
        namespace=NS,
        subject=value,
        predicate="city",
        object=value,
        text=value,
        author=value,
        origin=value,
        episode_id="ep-1",
        episode_content=value,
    )
    result = bg.remember(draft)
    cid = result.added[0]
    for claim in (bg.get(NS, cid), bg.current(NS, value, "city"), bg.lineage(NS, cid).claim):
        assert claim is not None and not isinstance(claim, list)
        assert (claim.subject, claim.object, claim.text, claim.author, claim.origin) == (
            value,
            value,
            value,
            value,
            value,
        )
    lineage = bg.lineage(NS, cid)
    assert [e.content for e in lineage.episodes] == [value]
    assert bg.history(NS, value, "city")[0].text == value
    rectified = bg.rectify(NS, cid, object=value + "!", text=value + "!", actor=value)
    fixed = bg.get(NS, rectified.added[0])
    assert (fixed.object, fixed.text, fixed.author) == (value + "!", value + "!", value)
    n_nodes, _ = counts(bg)
    assert n_nodes > 0  # nothing was deleted by the injection attempt


def test_ten_kilobyte_text_round_trips(bg: BeliefGraph) -> None:
    text = ("Eve's notes 🧠 " * 800)[:10_000]
    cid = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="eve",
            predicate="notes",
            object="long",
            text=text,
            episode_id="ep-long",
            episode_content=text,
        )
    ).added[0]
    assert bg.get(NS, cid).text == text
    assert bg.lineage(NS, cid).episodes[0].content == text
    current = bg.current(NS, "eve", "notes")
    assert current is not None and not isinstance(current, list) and current.text == text


def test_one_megabyte_text_is_rejected_and_nothing_written(bg: BeliefGraph) -> None:
    seed(bg)
    before = counts(bg)
    with pytest.raises(ValidationError) as exc:
        bg.remember(
            ClaimDraft(
                namespace=NS, subject="eve", predicate="city", object="Oslo", text="x" * 1_000_000
            )
        )
    assert exc.value.errors()[0]["loc"] == ("text",)
    with pytest.raises(ValidationError) as exc:
        bg.rectify(NS, seed_id(bg), object="Oslo", text="x" * 1_000_000, actor="dpo")
    assert any(e["loc"] == ("text",) for e in exc.value.errors())
    assert counts(bg) == before


def seed_id(bg: BeliefGraph) -> str:
    claim = bg.current(NS, "eve", "city")
    assert claim is not None and not isinstance(claim, list)
    return claim.id


def test_naive_datetimes_in_reads_and_contract_are_refused(bg: BeliefGraph) -> None:
    cid = seed(bg)
    naive = datetime(2026, 5, 1, 12, 0)
    with pytest.raises(ValueError, match="valid_at"):
        bg.as_of(NS, "eve", "city", valid_at=naive)
    with pytest.raises(ValueError, match="known_at"):
        bg.as_of(NS, "eve", "city", known_at=naive)
    before = counts(bg)
    with pytest.raises(ValueError, match="valid_to"):
        bg.contract(NS, cid, retract=False, valid_to=naive + timedelta(days=1))
    assert counts(bg) == before
