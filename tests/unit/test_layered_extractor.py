"""The rules first, a model for what they did not read (``LayeredExtractor``): the rules' facts
stand, the model's fill the facts the rules left unread, and a turn neither reads is kept as
text. The model's answers here are hand-written (named so): each test needs one that disagrees
with the rules, or says more than they read."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import partial

from belief_graph.extraction import ChatExtractor, ChatSettings, RuleExtractor
from belief_graph.extraction.layered import LayeredExtractor
from belief_graph.testing import factories
from belief_graph.testing.chat_replay import ChatReplayServer
from belief_graph.vocabulary import Vocabulary

VOCABULARY = Vocabulary.default()
episode = partial(factories.episode, speaker="alice", at=datetime(2026, 3, 11, tzinfo=UTC))


def answer(*claims: tuple[str, str, str]) -> str:
    """A hand-written answer in the wire format: (subject, predicate, object) each."""
    return json.dumps(
        {
            "claims": [
                {
                    "subject": s,
                    "predicate": p,
                    "relation": None,
                    "object": o,
                    "negated": False,
                    "correction": False,
                    "when": None,
                }
                for s, p, o in claims
            ]
        }
    )


def read(text: str, model_says: str) -> list[tuple[str | None, str | None, str | None]]:
    with ChatReplayServer({text: model_says}) as server:
        chat = ChatExtractor(ChatSettings(url=server.base_url, model="hand-written"))
        layered = LayeredExtractor(RuleExtractor(), chat)
        assert layered.name == "rules+chat"
        proposals = layered.extract(episode(text), vocabulary=VOCABULARY, known_subjects=[])
        assert len(server.requests) == 1, "the model is asked once a turn, read or not"
    return [(p.subject, p.predicate, p.object) for p in proposals]


def test_a_fact_the_rules_read_keeps_their_value_and_the_model_adds_the_facts_they_missed() -> None:
    got = read(
        "I live in Lisbon, and I finally landed it: backend work over at Stripe.",
        answer(("I", "lives_in", "Lisboa, Portugal"), ("I", "works_at", "Stripe")),
    )
    assert ("alice", "lives_in", "Lisbon") in got
    assert ("alice", "lives_in", "Lisboa, Portugal") not in got
    assert ("alice", "works_at", "Stripe") in got


def test_a_value_of_a_multi_valued_fact_the_rules_missed_is_the_models() -> None:
    got = read(
        "I speak French. Spanish too, since the exchange year.",
        answer(("I", "language_spoken", "French"), ("I", "language_spoken", "Spanish")),
    )
    assert sorted(o for _, p, o in got if p == "language_spoken") == ["French", "Spanish"]


def test_a_turn_only_the_model_reads_is_the_models_and_not_kept_as_text_too() -> None:
    got = read(
        "Need my double espresso before anything else, every single morning.",
        answer(("I", "likes", "double espresso")),
    )
    assert got == [("alice", "likes", "double espresso")]


def test_a_turn_neither_reads_is_kept_as_text() -> None:
    text = "Honestly the weather has been wild lately."
    assert read(text, answer()) == [(None, None, None)]
