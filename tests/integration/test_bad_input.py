"""Bad and hostile input through the public API, on a real Neo4j."""

from __future__ import annotations

import gc
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic import ValidationError

from belief_graph import BeliefGraph, ClaimDraft, ConflictError, NotFound
from belief_graph.testing.factories import draft
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


def test_a_namespace_with_a_trailing_newline_is_refused_not_a_second_tenant(
    bg: BeliefGraph,
) -> None:
    cid = seed(bg)
    before = counts(bg)
    with pytest.raises(ValidationError) as exc:
        ClaimDraft(namespace=NS + "\n", text="Eve lives in Porto.")
    assert exc.value.errors()[0]["loc"] == ("namespace",)
    for call in (
        lambda: bg.get(NS + "\n", cid),
        lambda: bg.current(NS + "\n", "eve", "city"),
        lambda: bg.erase(NS + "\n"),
    ):
        with pytest.raises(ValidationError) as exc:
            call()
        assert exc.value.errors()[0]["loc"] == ("namespace",)
    assert counts(bg) == before


@pytest.mark.parametrize(
    "reason", ["x" * 1_000_000, "wrong\x00", "lone \ud800"], ids=["1MB", "NUL", "surrogate"]
)
def test_a_bad_contract_reason_is_refused_naming_reason(bg: BeliefGraph, reason: str) -> None:
    cid = seed(bg)
    before = counts(bg)
    with pytest.raises(ValidationError) as exc:
        bg.contract(NS, cid, reason=reason)
    assert [e["loc"] for e in exc.value.errors()] == [("reason",)]
    assert counts(bg) == before
    assert bg.get(NS, cid).status == "active"


def test_a_contract_reason_up_to_a_thousand_characters_is_kept(bg: BeliefGraph) -> None:
    cid = seed(bg)
    reason = ("Checked with Eve.\n" * 60)[:1000]
    bg.contract(NS, cid, reason=reason)
    revisions = bg.lineage(NS, cid).revisions
    assert [r.reason for r in revisions if r.op == "contract"] == [reason]


def drafts(n: int, ns: str = NS) -> list[ClaimDraft]:
    return [
        draft(f"person-{i}", "city", "Lisbon", namespace=ns, text=f"Person {i} lives in Lisbon.")
        for i in range(n)
    ]


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (["r-0", "r-1"], "revision_ids: no id left for draft 2"),
        (["r-0", "r-1", "r-2", "r-3"], "revision_ids: more ids than the 3 drafts"),
        (["r-0", "r-1", "r-0"], "revision_ids: 'r-0' is given to drafts 0 and 2"),
    ],
    ids=["too-few", "too-many", "repeated"],
)
def test_ingest_refuses_revision_ids_that_do_not_fit_before_writing(
    bg: BeliefGraph, ids: list[str], message: str
) -> None:
    before = counts(bg)
    with pytest.raises(ValueError, match=message):
        bg.ingest(drafts(3), revision_ids=ids)
    assert counts(bg) == before


def test_ingest_leaves_the_processs_garbage_collector_as_it_found_it(bg: BeliefGraph) -> None:
    """An ingest collects the oldest generation less often while it runs (its full passes
    would take up to a fifth of it), and puts the thresholds back after, a refused draft
    included."""
    before = gc.get_threshold()
    during: list[tuple[int, int, int]] = []

    def told(i: int, **extra: Any) -> ClaimDraft:
        return draft(f"p{i}", "city", "Lisbon", namespace=NS, text="Lisbon", **extra)

    bg.ingest(
        [told(i) for i in range(4)],
        batch_size=2,
        progress=lambda _: during.append(gc.get_threshold()),
    )
    assert during and all(t[:2] == before[:2] and t[2] > before[2] for t in during)
    assert gc.get_threshold() == before
    future = datetime.now(UTC) + timedelta(days=3)
    with pytest.raises(ValueError, match="recorded_at"):
        bg.ingest([told(5), told(6, recorded_at=future)], batch_size=1)
    assert gc.get_threshold() == before


def test_ingest_refuses_a_repeated_claim_id_before_writing(bg: BeliefGraph) -> None:
    # The ids are global: the same id in two namespaces is still one claim id.
    batch = [d.model_copy(update={"id": "claim-1"}) for d in drafts(1) + drafts(1, "user:other")]
    before = counts(bg)
    with pytest.raises(ValueError, match="id: drafts 0 and 1 both give the claim id 'claim-1'"):
        bg.ingest(batch)
    assert counts(bg) == before


@pytest.mark.parametrize("models", [False, True], ids=["structural", "models"])
def test_a_stream_running_out_of_revision_ids_keeps_the_batches_before(
    bg: BeliefGraph, semantic_bg: BeliefGraph, models: bool
) -> None:
    # With the models on, an ingest takes the batch after the next from the stream early (to
    # read it ahead): the error it gives still waits until the batches before are written.
    bg = semantic_bg if models else bg
    done: list[int] = []
    with pytest.raises(ValueError, match="revision_ids: no id left for draft 2"):
        bg.ingest(
            iter(drafts(3)),
            batch_size=1 if models else 2,
            revision_ids=iter(["r-0", "r-1"]),
            progress=done.append,
        )
    assert done == ([1, 2] if models else [2])
    stored = sorted(
        c.subject or "" for c in bg.beliefs(NS, "person-0") + bg.beliefs(NS, "person-1")
    )
    assert stored == ["person-0", "person-1"]
    assert bg.beliefs(NS, "person-2") == []
    assert [r.replayed for r in bg.ingest(drafts(2), revision_ids=["r-0", "r-1"])] == [True, True]
