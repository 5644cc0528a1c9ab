"""The extraction evaluation's data files are well formed (data/extraction/, no database)."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from belief_graph.vocabulary import Vocabulary

DATA = Path(__file__).resolve().parents[2] / "data" / "extraction"


def _load(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


@pytest.fixture(scope="module")
def conversations() -> list[dict[str, Any]]:
    return _load("conversations.jsonl")


@pytest.fixture(scope="module")
def recorded() -> list[dict[str, Any]]:
    return _load("recorded.jsonl")


def test_at_least_100_conversations_with_unique_ids(conversations: list[dict[str, Any]]) -> None:
    ids = [c["id"] for c in conversations]
    assert len(ids) >= 100
    assert len(set(ids)) == len(ids)


def test_both_halves_have_the_same_category_mix(conversations: list[dict[str, Any]]) -> None:
    mix = {
        split: Counter(c["category"] for c in conversations if c["split"] == split)
        for split in ("calibration", "held_out")
    }
    assert {c["split"] for c in conversations} == {"calibration", "held_out"}
    assert mix["calibration"] == mix["held_out"]
    assert len(mix["calibration"]) >= 7


def test_held_out_turns_are_not_calibration_turns(conversations: list[dict[str, Any]]) -> None:
    texts = {
        split: {
            t["text"].casefold() for c in conversations if c["split"] == split for t in c["turns"]
        }
        for split in ("calibration", "held_out")
    }
    assert not texts["calibration"] & texts["held_out"]


def test_turns_are_dated_in_order(conversations: list[dict[str, Any]]) -> None:
    for c in conversations:
        moments = [datetime.fromisoformat(t["at"]) for t in c["turns"]]
        assert moments, c["id"]
        assert all(m.tzinfo is not None for m in moments), c["id"]
        assert moments == sorted(moments), c["id"]
        assert all(t["text"].strip() for t in c["turns"]), c["id"]


def test_every_gold_claim_names_an_existing_turn(conversations: list[dict[str, Any]]) -> None:
    for c in conversations:
        for g in c["gold"]:
            assert 0 <= g["turn"] < len(c["turns"]), (c["id"], g)
            assert g["subject"] and g["object"], (c["id"], g)


def test_predicates_are_canonical_in_the_vocabulary(
    conversations: list[dict[str, Any]],
) -> None:
    vocabulary = Vocabulary.default()
    used = {g["predicate"] for c in conversations for g in c["gold"]}
    used |= {q["predicate"] for c in conversations for q in c["questions"]}
    for predicate in used:
        assert vocabulary.canonical(predicate) == predicate, predicate
        assert predicate in vocabulary.predicates, predicate


def test_questions_have_answers_that_are_not_stale(conversations: list[dict[str, Any]]) -> None:
    assert all(c["questions"] for c in conversations)
    for c in conversations:
        for q in c["questions"]:
            assert q["query"].endswith("?"), (c["id"], q)
            assert q["answer"] or q["stale"], (c["id"], q)
            assert not {a.casefold() for a in q["answer"]} & {s.casefold() for s in q["stale"]}
            assert set(q["aliases"]) <= set(q["answer"]) | set(q["stale"]), (c["id"], q)


def test_recorded_responses_cover_every_turn_once(
    conversations: list[dict[str, Any]], recorded: list[dict[str, Any]]
) -> None:
    turns = {(c["id"], i) for c in conversations for i in range(len(c["turns"]))}
    keys = [(r["id"], r["turn"]) for r in recorded]
    assert len(keys) == len(set(keys))
    assert set(keys) == turns


def test_recorded_claims_quote_their_turn(
    conversations: list[dict[str, Any]], recorded: list[dict[str, Any]]
) -> None:
    text = {(c["id"], i): t["text"] for c in conversations for i, t in enumerate(c["turns"])}
    malformed = 0
    for r in recorded:
        answers = r["content"] if isinstance(r["content"], list) else [r["content"]]
        assert answers and all(isinstance(a, str) for a in answers), r
        for answer in answers:
            try:
                claims = json.loads(answer)["claims"]
            except (ValueError, KeyError):
                malformed += 1
                continue
            for claim in claims:
                assert claim["source"] in text[(r["id"], r["turn"])], (r["id"], r["turn"], claim)
                assert set(claim) >= {"subject", "predicate", "object", "sentence", "source"}
    # A few malformed answers exercise the retries (and one refusal when retries run out).
    assert 3 <= malformed <= 20
