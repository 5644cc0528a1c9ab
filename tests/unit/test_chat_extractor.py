"""The LLM extractor against the replay server: the request it sends, how it reads a model's
near-misses, retries, and the errors a user sees. No network, no model: the answers are a real
model's, recorded (data/extraction/recorded.jsonl), or hand-written where a test needs a
malformed or adversarial one (named so)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from belief_graph.errors import ConfigError, ModelError
from belief_graph.extraction import (
    ChatExtractor,
    ChatSettings,
    LayeredExtractor,
    MalformedOutput,
    RuleExtractor,
    default_extractor,
)
from belief_graph.extraction.chat import claims_schema, read_answer
from belief_graph.testing import factories
from belief_graph.testing.chat_replay import ChatReplayServer, recorded_answers
from belief_graph.vocabulary import Vocabulary

AT = datetime(2026, 3, 11, 15, 0, tzinfo=UTC)
VOCABULARY = Vocabulary.default()
RECORDED = Path(__file__).resolve().parents[2] / "data" / "extraction" / "recorded.jsonl"
# Hand-written: an answer in the wire format, for the tests of the request and its settings.
PESCATARIAN = json.dumps(
    {
        "claims": [
            {
                "subject": "I",
                "predicate": "dietary_preference",
                "relation": None,
                "object": "pescatarian",
                "negated": False,
                "correction": False,
                "when": "since June",
            }
        ]
    }
)


episode = partial(factories.episode, speaker="alice", at=AT)


def extractor(url: str, **settings: object) -> ChatExtractor:
    return ChatExtractor(ChatSettings(url=url, model="test-model", **settings))  # type: ignore[arg-type]


def recordings() -> list[dict[str, Any]]:
    return [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]


def test_the_fixed_prefix_is_the_same_for_every_episode_and_comes_first() -> None:
    """Instructions, predicate names and worked examples first, byte for byte the same for two
    speakers with different known subjects; what varies (the subjects, the turn) after it, so
    a server reuses its cached prefix."""
    chat = extractor("http://127.0.0.1:9/v1")
    one = chat.request(
        episode("I'm vegan."), vocabulary=VOCABULARY, known_subjects=["alice", "bob"]
    )
    two = chat.request(
        episode("My sister Ana lives in Porto.", "I live in Lisbon.", speaker="rui"),
        vocabulary=VOCABULARY,
        known_subjects=["rui", "Atlas", "Ana"],
    )
    fixed = json.dumps(one["messages"][:-1])
    assert fixed == json.dumps(two["messages"][:-1])
    assert json.dumps(one["response_format"]) == json.dumps(two["response_format"])
    system = one["messages"][0]["content"]
    assert "dietary_preference" in system and "language_spoken" in system
    assert "alice" not in fixed and "bob" not in fixed and "rui" not in fixed
    assert len(system) < 4_000, "a short prompt: small models lose the thread of long ones"
    examples = [m for m in one["messages"][1:-1] if m["role"] == "assistant"]
    assert len(examples) >= 2
    said = " ".join(m["content"] for m in one["messages"][1:-1] if m["role"] == "user")
    for shape in ("left", "not", "sorry", "brother", "in March"):
        assert shape in said, shape
    last = two["messages"][-1]["content"]
    assert "Known subjects: Atlas, Ana" in last and last.endswith("My sister Ana lives in Porto.")
    assert "> I live in Lisbon." in last


def test_the_response_schema_is_flat_with_the_predicates_as_an_enum() -> None:
    schema = claims_schema(VOCABULARY)
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text
    claim = schema["properties"]["claims"]["items"]
    assert set(claim["required"]) == set(claim["properties"])
    assert claim["additionalProperties"] is False
    names = claim["properties"]["predicate"]["enum"]
    assert names[:-1] == list(VOCABULARY.predicates) and names[-1] == "other"


def test_sends_the_episode_and_reads_the_answer() -> None:
    with ChatReplayServer({"pescatarian": PESCATARIAN}) as server:
        found = extractor(server.base_url, key="sk-test").extract(
            episode("Wait, I eat fish now. I'm pescatarian these days.", "I'm vegan."),
            vocabulary=VOCABULARY,
            known_subjects=["bob"],
        )
    (body,) = server.requests
    assert body["model"] == "test-model" and body["temperature"] == 0
    assert body["response_format"]["json_schema"]["name"] == "claims"
    assert body["max_tokens"] == 1024
    (p,) = found
    assert (p.subject, p.predicate, p.object) == ("alice", "dietary_preference", "pescatarian")
    assert p.valid_from == datetime(2025, 6, 1, tzinfo=UTC)
    assert p.source == "I'm pescatarian these days."
    assert p.sentence == "alice is pescatarian."


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # A bare claim without the wrapper, and no subject: the speaker's.
        ('{"predicate": "lives_in", "object": "Porto"}', [("alice", "lives_in", "Porto")]),
        # A bare list, the object a number, the flags as strings.
        (
            '[{"subject": "me", "predicate": "age", "object": 35, "negated": "false"}]',
            [("alice", "age", "35")],
        ),
        # Another wrapper name, words around the JSON.
        (
            'Here you go: {"facts": [{"subject": "Ana", "predicate": "lives in", '
            '"object": "Porto"}]} Hope that helps!',
            [("Ana", "lives in", "Porto")],
        ),
        # The escape for a predicate the vocabulary lacks.
        (
            '{"claims": [{"subject": "I", "predicate": "other", "relation": "favorite_color", '
            '"object": "teal"}]}',
            [("alice", "favorite_color", "teal")],
        ),
        # Cut off at max_tokens: the complete claims are kept.
        (
            '{"claims": [{"subject": "I", "predicate": "lives_in", "object": "Porto"}, '
            '{"subject": "I", "predicate": "works_at", "obj',
            [("alice", "lives_in", "Porto")],
        ),
        ('```json\n{"claims": []}\n```', []),
    ],
)
def test_near_misses_are_read(content: str, expected: list[tuple[str, str, str]]) -> None:
    """Hand-written near-misses of the shapes small models give."""
    with ChatReplayServer({"Porto": content, "35": content, "teal": content}) as server:
        found = extractor(server.base_url).extract(
            episode("I live in Porto, Ana too. I'm 35. My favourite colour is teal."),
            vocabulary=VOCABULARY,
            known_subjects=[],
        )
    assert [(p.subject, p.predicate, p.object) for p in found] == expected
    assert len(server.requests) == 1


def test_an_unreadable_answer_is_asked_for_again_with_some_sampling() -> None:
    """Hand-written: prose instead of JSON, then a good answer."""
    with ChatReplayServer({"pescatarian": ["I think she is pescatarian.", PESCATARIAN]}) as server:
        found = extractor(server.base_url).extract(
            episode("I'm pescatarian these days."), vocabulary=VOCABULARY, known_subjects=[]
        )
    first, second = server.requests
    assert (first["temperature"], second["temperature"]) == (0, 0.3)
    assert [p.object for p in found] == ["pescatarian"]


def test_always_unreadable_fails_naming_the_setting() -> None:
    """Hand-written: malformed every time."""
    wrong_shape = json.dumps({"claims": [{"subject": "alice"}]})
    with ChatReplayServer({"vegan": ["```json\nnope\n```", wrong_shape]}) as server:
        with pytest.raises(MalformedOutput, match=r"2 answers \(claims\.0: no predicate") as caught:
            extractor(server.base_url).extract(
                episode("I'm vegan."), vocabulary=VOCABULARY, known_subjects=[]
            )
    assert "BELIEF_GRAPH_EXTRACTOR_MAX_RETRIES" in str(caught.value)
    assert len(server.requests) == 2


def test_a_timeout_is_not_asked_again_and_names_the_setting() -> None:
    calls: list[httpx.Request] = []

    def slow(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        raise httpx.ReadTimeout("timed out", request=request)

    chat = ChatExtractor(
        ChatSettings(url="http://127.0.0.1:9/v1", model="m", timeout=7),
        transport=httpx.MockTransport(slow),
    )
    with pytest.raises(
        ModelError, match=r"did not answer within 7 s \(BELIEF_GRAPH_EXTRACTOR_TIMEOUT"
    ):
        chat.extract(episode("I'm vegan."), vocabulary=VOCABULARY, known_subjects=[])
    assert len(calls) == 1, "a one-request-at-a-time server is still busy with the first"


def test_a_busy_server_is_asked_again_and_schema_trouble_names_json_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("belief_graph.extraction.chat.clock.sleep", lambda _: None)
    answers = iter([httpx.Response(503, text="loading model")])

    def busy(request: httpx.Request) -> httpx.Response:
        ok = {"choices": [{"message": {"content": PESCATARIAN}}]}
        return next(answers, httpx.Response(200, json=ok))

    chat = ChatExtractor(
        ChatSettings(url="http://127.0.0.1:9/v1", model="m"), transport=httpx.MockTransport(busy)
    )
    found = chat.extract(episode("I'm pescatarian."), vocabulary=VOCABULARY, known_subjects=[])
    assert [p.object for p in found] == ["pescatarian"]

    def refuses(request: httpx.Request) -> httpx.Response:
        return httpx.Response(400, text="response_format json_schema is not supported")

    chat = ChatExtractor(
        ChatSettings(url="http://127.0.0.1:9/v1", model="m"),
        transport=httpx.MockTransport(refuses),
    )
    with pytest.raises(ModelError, match="BELIEF_GRAPH_EXTRACTOR_RESPONSE_FORMAT=json_object"):
        chat.extract(episode("I'm vegan."), vocabulary=VOCABULARY, known_subjects=[])
    plain = extractor("http://127.0.0.1:9/v1", response_format="json_object", max_tokens=0)
    body = plain.request(episode("I'm vegan."), vocabulary=VOCABULARY, known_subjects=[])
    assert body["response_format"] == {"type": "json_object"} and "max_tokens" not in body


def test_every_recorded_answer_of_the_real_model_is_read() -> None:
    """The local model's real answers (recorded with the request this extractor sends): each
    is read as claims, none needed asking again."""
    rows = recordings()
    assert rows, "data/extraction/recorded.jsonl holds the real model's answers"
    for row in rows:
        answers = row["content"] if isinstance(row["content"], list) else [row["content"]]
        read_answer(answers[-1])
    assert {row["model"] for row in rows} == {"qwen2.5-coder-1.5b-instruct-q4_k_m"}


def test_a_recorded_conversation_replays_through_the_extractor() -> None:
    """move-c01 as the local model answered it: every turn asked once, each claim's source a
    span of its turn."""
    conversation = next(
        json.loads(line)
        for line in (RECORDED.parent / "conversations.jsonl").read_text().splitlines()
        if json.loads(line)["id"] == "move-c01"
    )
    answers = recorded_answers(conversation, recordings())
    texts = [t["text"] for t in conversation["turns"]]
    found = []
    with ChatReplayServer(answers) as server:
        for i, text in enumerate(texts):
            found.append(
                extractor(server.base_url).extract(
                    episode(text, *texts[:i], speaker=conversation["speaker"]),
                    vocabulary=VOCABULARY,
                    known_subjects=[],
                )
            )
    assert len(server.requests) == len(texts)
    assert all(all(p.source in t for p in ps) for ps, t in zip(found, texts, strict=True))


def test_nothing_is_sent_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BELIEF_GRAPH_EXTRACTOR_URL", raising=False)
    assert isinstance(default_extractor(), RuleExtractor)
    with pytest.raises(ConfigError, match=r"^BELIEF_GRAPH_EXTRACTOR_URL: not set"):
        ChatExtractor(ChatSettings(url=None, model="m"))
    monkeypatch.setenv("BELIEF_GRAPH_EXTRACTOR_URL", "http://127.0.0.1:9/v1")
    with pytest.raises(ConfigError, match=r"^BELIEF_GRAPH_EXTRACTOR_MODEL: not set"):
        default_extractor()
    monkeypatch.setenv("BELIEF_GRAPH_EXTRACTOR_MODEL", "m")
    configured = default_extractor()
    assert isinstance(configured, LayeredExtractor)
    assert isinstance(configured.first, RuleExtractor)
    assert isinstance(configured.then, ChatExtractor)


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
