"""The LLM extractor against the replay server: the request it sends, retries on invalid
output, and the errors a user sees. No network, no model."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from belief_graph.errors import ConfigError, ModelError
from belief_graph.extraction import (
    ChatExtractor,
    ChatSettings,
    Episode,
    MalformedOutput,
    RuleExtractor,
    default_extractor,
)
from belief_graph.testing.chat_replay import ChatReplayServer
from belief_graph.vocabulary import Vocabulary

AT = datetime(2026, 3, 11, 15, 0, tzinfo=UTC)
PESCATARIAN = json.dumps(
    {
        "claims": [
            {
                "subject": "I",
                "predicate": "diet",
                "object": "pescatarian",
                "sentence": "alice is pescatarian.",
                "source": "I'm pescatarian these days.",
                "when": "since June",
            }
        ]
    }
)


def episode(text: str, *context: str) -> Episode:
    return Episode(speaker="alice", at=AT, text=text, context=context)


def extractor(url: str, **settings: object) -> ChatExtractor:
    return ChatExtractor(ChatSettings(url=url, model="test-model", **settings))  # type: ignore[arg-type]


def test_sends_the_episode_the_vocabulary_and_the_known_subjects() -> None:
    with ChatReplayServer({"pescatarian": PESCATARIAN}) as server:
        found = extractor(server.base_url, key="sk-test").extract(
            episode("Wait, I eat fish now. I'm pescatarian these days.", "I'm vegan."),
            vocabulary=Vocabulary.default(),
            known_subjects=["bob"],
        )
    (body,) = server.requests
    assert body["model"] == "test-model" and body["temperature"] == 0
    assert body["response_format"]["json_schema"]["name"] == "claims"
    assert "claims" in body["response_format"]["json_schema"]["schema"]["properties"]
    system, user = body["messages"]
    assert "dietary_preference, single" in system["content"]
    assert "language_spoken, multi" in system["content"]
    assert "Known subjects: bob" in system["content"]
    assert "Wait, I eat fish now. I'm pescatarian these days." in user["content"]
    assert "Speaker: alice" in user["content"] and "2026-03-11T15:00:00+00:00" in user["content"]
    assert "> I'm vegan." in user["content"]
    (p,) = found
    assert (p.subject, p.predicate, p.object) == ("alice", "diet", "pescatarian")
    assert p.valid_from == datetime(2025, 6, 1, tzinfo=UTC)


def test_a_malformed_answer_is_asked_for_again() -> None:
    with ChatReplayServer({"pescatarian": ["not json at all", PESCATARIAN]}) as server:
        found = extractor(server.base_url).extract(
            episode("I'm pescatarian these days."),
            vocabulary=Vocabulary.default(),
            known_subjects=[],
        )
    assert len(server.requests) == 2
    assert [p.object for p in found] == ["pescatarian"]


def test_always_malformed_fails_with_the_reason_after_the_retries() -> None:
    wrong_shape = json.dumps({"claims": [{"subject": "alice"}]})
    with ChatReplayServer({"vegan": ["```json\nnope\n```", wrong_shape]}) as server:
        with pytest.raises(MalformedOutput, match=r"3 answers \(claims\.0\.predicate: Field"):
            extractor(server.base_url).extract(
                episode("I'm vegan."), vocabulary=Vocabulary.default(), known_subjects=[]
            )
    assert len(server.requests) == 3


def test_a_fenced_answer_and_iso_dates_are_read() -> None:
    claim = {
        "subject": "Bob",
        "predicate": "lives in",
        "object": "Rome",
        "sentence": "Bob lives in Rome.",
        "source": "Bob moved to Rome on 2026-02-01.",
        "valid_from": "2026-02-01",
    }
    fenced = "```json\n" + json.dumps({"claims": [claim]}) + "\n```"
    with ChatReplayServer({"Rome": fenced}) as server:
        (p,) = extractor(server.base_url).extract(
            episode("Bob moved to Rome on 2026-02-01."),
            vocabulary=Vocabulary.default(),
            known_subjects=["bob"],
        )
    assert (p.subject, p.valid_from) == ("bob", datetime(2026, 2, 1, tzinfo=UTC))


def test_no_key_matching_answers_no_claims() -> None:
    with ChatReplayServer({}) as server:
        assert (
            extractor(server.base_url).extract(
                episode("Hello!"), vocabulary=Vocabulary.default(), known_subjects=[]
            )
            == []
        )


def test_nothing_is_sent_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BELIEF_GRAPH_EXTRACTOR_URL", raising=False)
    assert isinstance(default_extractor(), RuleExtractor)
    with pytest.raises(ConfigError, match=r"^BELIEF_GRAPH_EXTRACTOR_URL: not set"):
        ChatExtractor(ChatSettings(url=None, model="m"))
    monkeypatch.setenv("BELIEF_GRAPH_EXTRACTOR_URL", "http://127.0.0.1:9/v1")
    with pytest.raises(ConfigError, match=r"^BELIEF_GRAPH_EXTRACTOR_MODEL: not set"):
        default_extractor()
    monkeypatch.setenv("BELIEF_GRAPH_EXTRACTOR_MODEL", "m")
    assert isinstance(default_extractor(), ChatExtractor)


def test_an_unreachable_endpoint_is_a_clear_error() -> None:
    with pytest.raises(ModelError, match=r"^extractor: cannot reach http://127\.0\.0\.1:9/v1/chat"):
        extractor("http://127.0.0.1:9/v1", timeout=5).extract(
            episode("I'm vegan."), vocabulary=Vocabulary.default(), known_subjects=[]
        )


def test_the_engine_loads_no_extractor_until_one_is_asked_for() -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_EXTRACTOR")}

    code = (
        "import sys\n"
        "import belief_graph.client, belief_graph.integrations.mcp\n"
        "print(sorted(m for m in ('httpx', 'belief_graph.extraction.chat',"
        " 'belief_graph.extraction.rules') if m in sys.modules))\n"
        "from belief_graph.extraction import ChatExtractor, RuleExtractor, default_extractor\n"
        "print(type(default_extractor()).__name__, ChatExtractor.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    loaded, asked = done.stdout.strip().splitlines()
    assert loaded == "[]", "a process that extracts nothing does not pay for the extractors"
    assert asked == "RuleExtractor ChatExtractor"
