"""Verdicts on a real Neo4j with the offline models: values decide identity, polarity ends a
value, contradictions inside a multi-valued fact are recorded, a text-only claim is placed by who
it is about and which relation it states, and models on never decide worse than models off."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from belief_graph import BeliefGraph, Claim, ClaimDraft, HistoricalDraft, RevisionResult
from belief_graph.detect import Detector
from belief_graph.store import Store
from belief_graph.testing.graph import q, wipe
from belief_graph.transfer.claims import import_claims
from belief_graph.transfer.snapshot import export_namespace, restore_snapshot
from belief_graph.vocabulary import normalize_key

NS = "user:priya"


def tell(bg: BeliefGraph, text: str, *triple: str, ns: str = NS, **kw: Any) -> RevisionResult:
    fields: dict[str, Any] = {"namespace": ns, "text": text, **kw}
    if triple:
        fields.update(zip(("subject", "predicate", "object"), triple, strict=True))
    return bg.remember(ClaimDraft(**fields))


def current(bg: BeliefGraph, subject: str, predicate: str) -> Claim:
    belief = bg.current(NS, subject, predicate)
    assert isinstance(belief, Claim), belief
    return belief


def active_texts(bg: BeliefGraph, ns: str = NS) -> list[str]:
    rows = q(
        bg.store,
        "MATCH (c:Claim {namespace: $ns, status: 'active'}) RETURN c.text AS text",
        ns=ns,
    )
    return sorted(r["text"] for r in rows)


# -- 1. a structured update is never swallowed as SAME ------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "old_text", "new_text"),
    [
        ("$90,000", "$95,000", "Priya earns $90,000 a year.", "Priya earns $95,000 a year."),
        ("Express.js", "Express.js 5", "Atlas uses Express.js.", "Atlas uses Express.js 5."),
        ("Python 3.10", "Python 3.1", "Atlas runs Python 3.10.", "Atlas runs Python 3.1."),
    ],
)
def test_a_different_value_is_an_update_with_models_on(
    semantic_bg: BeliefGraph, old: str, new: str, old_text: str, new_text: str
) -> None:
    tell(semantic_bg, old_text, "priya", "salary", old)
    result = tell(semantic_bg, new_text, "priya", "salary", new)
    assert result.verdict in ("UPDATE", "CONFLICT") and len(result.retired) == 1
    assert current(semantic_bg, "priya", "salary").object == new


@pytest.mark.slow
def test_the_same_value_written_differently_is_same(semantic_bg: BeliefGraph) -> None:
    first = tell(semantic_bg, "Priya earns $90,000 a year.", "priya", "salary", "$90,000")
    again = tell(semantic_bg, "Priya makes 90k dollars.", "priya", "salary", "90k dollars")
    assert again.verdict == "SAME" and again.reinforced == [first.claim_id]
    city = tell(semantic_bg, "Priya lives in Lisbon.", "priya", "lives_in", "Lisbon")
    assert tell(
        semantic_bg, "Priya lives in lisbon.", "priya", "lives_in", "lisbon."
    ).reinforced == [city.claim_id]


# -- 2. negation ends the positive claim; it never reinforces it ---------------------------------


def test_no_longer_ends_the_active_value(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    works = tell(bg, "Priya works at Acme.", "priya", "works_at", "Acme")
    ended = tell(bg, "Priya no longer works at Acme.", "priya", "works_at", "Acme")
    assert ended.verdict == "CONFLICT" and ended.retired == [works.claim_id]
    now = current(bg, "priya", "works_at")
    assert now.negated and now.id == ended.claim_id
    assert bg.get(NS, works.claim_id).frequency == 1
    assert bg.get(NS, works.claim_id).valid_to is not None
    # Affirmed again, it replaces the negation.
    back = tell(bg, "Priya works at Acme again.", "priya", "works_at", "Acme")
    assert back.verdict == "CONFLICT" and back.retired == [ended.claim_id]
    assert not current(bg, "priya", "works_at").negated


def test_a_stated_polarity_is_stored_and_decides(bg: BeliefGraph) -> None:
    works = tell(bg, "Priya works at Acme.", "priya", "works_at", "Acme")
    denied = tell(bg, "Acme: not an employer of Priya.", "priya", "works_at", "Acme", negated=True)
    assert denied.retired == [works.claim_id]
    assert bg.get(NS, denied.claim_id).negated
    again = tell(bg, "Priya: not at Acme.", "priya", "works_at", "Acme", negated=True)
    assert again.verdict == "SAME"


def test_denying_another_value_waits_beside_the_belief(bg: BeliefGraph) -> None:
    works = tell(bg, "Priya works at Acme.", "priya", "works_at", "Acme")
    denied = tell(bg, "Priya doesn't work at Globex.", "priya", "works_at", "Globex")
    assert denied.decision == "hold_pending"
    assert current(bg, "priya", "works_at").id == works.claim_id
    assert [p.id for p in bg.pending(NS)] == [denied.claim_id]


def test_a_negation_ends_one_value_of_a_multi_valued_fact(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    jazz = tell(bg, "Ana likes jazz.", "ana", "likes", "jazz")
    hiking = tell(bg, "Ana likes hiking.", "ana", "likes", "hiking")
    ended = tell(bg, "Ana no longer likes jazz.", "ana", "likes", "jazz")
    assert ended.retired == [jazz.claim_id]
    values = {(c.object, c.negated) for c in bg.beliefs(NS, "ana")}
    assert values == {("hiking", False), ("jazz", True)}
    assert bg.get(NS, hiking.claim_id).status == "active"


def test_a_text_only_negation_ends_the_text_only_claim(semantic_bg: BeliefGraph) -> None:
    old = tell(semantic_bg, "Mom likes gardening.")
    update = tell(semantic_bg, "Mom lost interest in gardening.")
    assert update.verdict == "CONFLICT" and update.retired == [old.claim_id]


# -- 3. contradictions inside a multi-valued slot are recorded -----------------------------------


@pytest.mark.slow
def test_a_contradiction_inside_a_multi_valued_fact_is_recorded(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    peanuts = tell(bg, "Priya is allergic to peanuts.", "priya", "has_allergy", "peanuts")
    none = tell(bg, "Priya has no allergies at all.", "priya", "has_allergy", "none")
    assert none.verdict == "NEW" and peanuts.claim_id in none.flagged
    pairs = [{c.claim.id, c.rival.id} for c in bg.conflicts(NS, open_only=True)]
    assert {peanuts.claim_id, none.claim_id} in pairs
    # Two values of one relation coexist without a conflict.
    shellfish = tell(bg, "Priya is allergic to shellfish.", "priya", "has_allergy", "shellfish")
    assert peanuts.claim_id not in shellfish.flagged


# -- 4. another subject, another fact ------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Priya lives in Lisbon.", "Priya's sister lives in Lisbon."),
        ("My flight to Berlin is on Monday.", "My flight to Paris is on Monday."),
        ("Tom works at Initech.", "Tom's wife works at Initech."),
    ],
)
def test_another_subject_is_another_fact(semantic_bg: BeliefGraph, first: str, second: str) -> None:
    a = tell(semantic_bg, first)
    b = tell(semantic_bg, second)
    assert b.verdict == "NEW" and b.retired == [] and b.reinforced == []
    assert semantic_bg.get(NS, a.claim_id).status == "active"
    assert active_texts(semantic_bg) == sorted([first, second])


def test_the_same_subject_and_relation_is_one_fact(semantic_bg: BeliefGraph) -> None:
    tell(semantic_bg, "My flight to Berlin is on Monday.")
    moved = tell(semantic_bg, "My flight to Berlin is on Tuesday.")
    assert moved.retired and active_texts(semantic_bg) == ["My flight to Berlin is on Tuesday."]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Charles Dickens is married to Catherine Dickens.",
            "Charles Dickens died in the city of Gads Hill Place.",
        ),
        ("Priya works at Acme.", "Priya lives in Porto."),
        ("Tom is married to Ana.", "Tom was born in Ana Maria, Aruba."),
    ],
)
def test_another_relation_is_another_fact(
    semantic_bg: BeliefGraph, first: str, second: str
) -> None:
    a = tell(semantic_bg, first)
    b = tell(semantic_bg, second)
    assert b.retired == [] and b.reinforced == []
    assert semantic_bg.get(NS, a.claim_id).status == "active"
    assert active_texts(semantic_bg) == sorted([first, second])


def test_a_synonym_of_the_relation_is_the_same_fact(semantic_bg: BeliefGraph) -> None:
    a = tell(semantic_bg, "Priya lives in Lisbon.")
    b = tell(semantic_bg, "Priya resides in Porto.")
    assert b.retired == [a.claim_id]
    assert active_texts(semantic_bg) == ["Priya resides in Porto."]


def test_text_only_identity_holds_without_models(bg: BeliefGraph) -> None:
    tell(bg, "Priya lives in Lisbon.")
    tell(bg, "Priya's sister lives in Lisbon.")
    moved = tell(bg, "Priya lives in Porto.")
    assert len(moved.retired) == 1
    assert active_texts(bg) == ["Priya lives in Porto.", "Priya's sister lives in Lisbon."]


# -- 5. undecided cases say so -------------------------------------------------------------------


def test_a_near_paraphrase_restates_the_fact(semantic_bg: BeliefGraph) -> None:
    first = tell(semantic_bg, "Priya is cautious with money.")
    again = tell(semantic_bg, "Priya is careful with her money.")
    assert again.verdict == "SAME" and again.reinforced == [first.claim_id]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Priya is 34 years old.", "Priya is now 35 years old."),
        ("Priya lives in Lisbon.", "Priya lived in Lisbon until 2020."),
        ("Priya earns $90,000 a year.", "Priya earns $95,000 a year."),
    ],
)
def test_an_update_never_leaves_two_current_answers(
    semantic_bg: BeliefGraph, first: str, second: str
) -> None:
    a = tell(semantic_bg, first)
    b = tell(semantic_bg, second)
    assert b.retired == [a.claim_id]
    assert active_texts(semantic_bg) == [second]


# -- 6. a text-only claim and a structured claim of one fact meet --------------------------------


def test_a_text_claim_and_its_structured_twin_are_one_belief(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    text = tell(bg, "Priya lives in Lisbon.")
    twin = tell(bg, "Priya lives in Lisbon.", "priya", "lives_in", "Lisbon")
    assert twin.verdict == "SAME" and twin.reinforced == [text.claim_id]
    assert current(bg, "priya", "lives_in").id == text.claim_id
    bg.contract(NS, text.claim_id, reason="moved away")
    assert bg.current(NS, "priya", "lives_in") is None
    assert active_texts(bg) == []


def test_a_structured_claim_then_its_text_update(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    old = tell(bg, "Priya lives in Porto.", "priya", "lives_in", "Porto")
    moved = tell(bg, "Priya moved to Lisbon.")
    assert moved.retired == [old.claim_id]
    assert current(bg, "priya", "lives_in").text == "Priya moved to Lisbon."


# -- models on never decide a structured case worse than models off -----------------------------

FACTS = Path(
    os.environ.get(
        "BELIEF_GRAPH_FACTCONSOLIDATION",
        Path(__file__).resolve().parents[2] / "data" / "factconsolidation",
    )
)
BASE = datetime(2026, 1, 1, tzinfo=UTC)


def _load(name: str) -> list[dict[str, Any]]:
    path = FACTS / name
    assert path.is_file(), (
        f"FactConsolidation data not found at {FACTS} (set BELIEF_GRAPH_FACTCONSOLIDATION)"
    )
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _factconsolidation(bg: BeliefGraph, ns: str, questions: int) -> tuple[int, int]:
    """(correct, stale) over the first ``questions`` single-hop questions, writing the facts of
    their subjects and every tenth other fact, structured, in serial order."""
    facts = _load("facts_structured.jsonl")
    asked = _load("sh_questions_structured.jsonl")[:questions]
    subjects = {q["subject"] for q in asked}
    chosen = sorted(
        (f for f in facts if f["subject"] in subjects or f["serial"] % 10 == 0),
        key=lambda f: f["serial"],
    )
    # The dataset's facts as history, each learned at its serial's minute.
    bg.import_history(
        (
            HistoricalDraft(
                namespace=ns,
                subject=f["subject"],
                predicate=f["relation"],
                object=f["object"],
                text=f["text"],
                source_type="observed",
                valid_from=BASE + timedelta(minutes=f["serial"]),
                recorded_at=BASE + timedelta(minutes=f["serial"]),
            )
            for f in chosen
        ),
        actor="factconsolidation",
        batch_size=50,
    )
    correct = stale = 0
    for question in asked:
        belief = bg.current(ns, question["subject"], question["relation"])
        answer = normalize_key(belief.object or "") if isinstance(belief, Claim) else None
        correct += answer in {normalize_key(g) for g in question["gold"]}
        stale += answer in {normalize_key(s) for s in question.get("stale_values", [])}
    return correct, stale


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_factconsolidation_structured_models_on_is_not_worse(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> None:
    embedder, scorer = offline_models
    off = _factconsolidation(make_bg(), "bench:fc-off", 40)
    on_bg = make_bg(detector=Detector(embedder, scorer))  # type: ignore[arg-type]
    on = _factconsolidation(on_bg, "bench:fc-on", 40)
    assert on[0] >= off[0] and on[1] <= off[1], (on, off)
    assert on == (40, 0), on


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("models", ["off", "on"])
def test_hot_slots_keep_every_distinct_value(
    store: Store,
    make_bg: Callable[..., BeliefGraph],
    offline_models: tuple[object, object],
    models: str,
) -> None:
    """8 threads × 60 remember of distinct cities on 5 hot slots: all 480 are kept."""
    make_bg()  # wipes the database
    embedder, scorer = offline_models
    detector = Detector(embedder, scorer) if models == "on" else Detector()  # type: ignore[arg-type]
    results: list[RevisionResult] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def writer(n: int) -> None:
        bg = BeliefGraph(store, detector=detector)
        start.wait()
        try:
            for i in range(60):
                slot = (i + n) % 5
                result = bg.remember(
                    ClaimDraft(
                        namespace="user:hot",
                        subject=f"s{slot}",
                        predicate="lives_in",
                        object=f"value-{n}-{i}",
                        text=f"s{slot} lives in value-{n}-{i}.",
                    )
                )
                with lock:
                    results.append(result)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    kept = [r for r in results if r.verdict != "SAME" and r.added]
    assert len(results) == 480 and len(kept) == 480
    assert len(active_texts(BeliefGraph(store), "user:hot")) == 5


def test_polarity_travels_through_import_snapshot_and_restore(
    bg: BeliefGraph, tmp_path: Path
) -> None:
    lines = [
        json.dumps(
            {
                "text": "Priya works at Acme.",
                "subject": "priya",
                "predicate": "works_at",
                "object": "Acme",
            }
        ),
        json.dumps(
            {
                "text": "Acme is past.",
                "subject": "priya",
                "predicate": "works_at",
                "object": "Acme",
                "negated": True,
            }
        ),
    ]
    stats = import_claims(bg, lines, namespace="user:moved")
    assert stats.lines == 2
    ended = bg.current("user:moved", "priya", "works_at")
    assert isinstance(ended, Claim) and ended.negated
    snapshot = tmp_path / "moved.jsonl"
    with snapshot.open("w", encoding="utf-8") as out:
        export_namespace(bg.store, "user:moved", out)
    assert '"negated": true' in snapshot.read_text(encoding="utf-8")
    # Claim ids are unique across the database: the snapshot restores into an emptied one.
    wipe(bg.store)
    restore_snapshot(bg.store, snapshot)
    again = bg.current("user:moved", "priya", "works_at")
    assert isinstance(again, Claim) and again.negated and again.id == ended.id


def test_a_bad_polarity_is_refused_by_name(bg: BeliefGraph) -> None:
    with pytest.raises(ValidationError) as info:
        ClaimDraft(namespace=NS, text="Priya works at Acme.", negated="perhaps")  # type: ignore[arg-type]
    assert info.value.errors()[0]["loc"] == ("negated",)
