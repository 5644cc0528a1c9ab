"""The extraction evaluation's data files are well formed (data/extraction/, no database)."""

from __future__ import annotations

import hashlib
import json
import re
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


def test_at_least_150_conversations_with_unique_ids(conversations: list[dict[str, Any]]) -> None:
    ids = [c["id"] for c in conversations]
    assert len(ids) >= 150
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


def test_recordings_cover_whole_conversations_once(
    conversations: list[dict[str, Any]], recorded: list[dict[str, Any]]
) -> None:
    """Each recorded conversation has every turn recorded, once; both halves and the long
    turns are among them (the benchmark measures the conversations recorded)."""
    turns = {(c["id"], i) for c in conversations for i in range(len(c["turns"]))}
    keys = [(r["id"], r["turn"]) for r in recorded]
    assert len(keys) == len(set(keys))
    assert set(keys) <= turns
    ids = {r["id"] for r in recorded}
    assert {
        (c["id"], i) for c in conversations if c["id"] in ids for i in range(len(c["turns"]))
    } == set(keys)
    split = {c["id"]: (c["split"], c["category"]) for c in conversations}
    assert {split[i][0] for i in ids} == {"calibration", "held_out"}
    assert "long_turn" in {split[i][1] for i in ids}


def test_long_turns_are_in_the_half_their_hash_draws(
    conversations: list[dict[str, Any]],
) -> None:
    """Nobody chose the half of a long-turn conversation: sorted by the hash of their ids within
    their category, they alternate calibration, held-out."""
    long = [c for c in conversations if c["category"] == "long_turn"]
    assert len(long) >= 30
    drawn = sorted(long, key=lambda c: hashlib.sha256(c["id"].encode()).hexdigest())
    assert [c["split"] for c in drawn] == ["calibration", "held_out"] * (len(drawn) // 2)
    several = [
        t for c in long for t in c["turns"] if len(re.split(r"(?<=[.!?])\s+", t["text"])) >= 3
    ]
    assert len(several) >= 30, "long turns: several sentences each"


def test_recordings_name_the_model_the_date_and_the_request(
    recorded: list[dict[str, Any]],
) -> None:
    """Every answer came from the local model, for the request the extractor sends today (a
    changed prompt means recording again: python bench/extraction.py --record URL)."""
    from belief_graph.extraction import ChatExtractor, ChatSettings
    from belief_graph.extraction.chat import prefix_digest

    digest = prefix_digest(
        ChatExtractor(ChatSettings(url="http://x", model="m")), Vocabulary.default()
    )
    for r in recorded:
        assert r["model"] == "qwen2.5-coder-1.5b-instruct-q4_k_m", r["id"]
        assert datetime.strptime(r["recorded"], "%Y-%m-%d"), r["id"]
        assert r["prefix"] == digest, (r["id"], r["turn"])
        assert r["seconds"] and all(s > 0 for s in r["seconds"]), r["id"]
        answers = r["content"] if isinstance(r["content"], list) else [r["content"]]
        assert answers and all(isinstance(a, str) for a in answers), r
