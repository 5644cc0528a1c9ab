"""The LLM extractor: an OpenAI-compatible chat-completions endpoint the user configures.

Nothing is sent anywhere unless ``BELIEF_GRAPH_EXTRACTOR_URL`` is set (or a ``ChatSettings``
with a ``url`` is given). One request per episode, built so that small local models can follow
it and servers can reuse its cached prefix:

1. a fixed part, byte-identical between requests: the instructions, the vocabulary's predicate
   names and a few worked examples (a change, a removal, a correction, another person, a time
   phrase) as earlier user/assistant turns;
2. then what varies: the namespace's known subjects, the earlier turns and the episode text.

The answer is asked for with a flat JSON schema (no ``$ref``): the predicate an enum of the
vocabulary's names plus ``other`` (with ``relation``), since the vocabulary accepts unknown
predicates. Near-misses are read rather than refused (a bare claim without the ``claims``
wrapper, a missing subject that is the speaker, a truncated answer's complete claims); an answer
with nothing readable is asked for again, at most ``max_retries`` more times, and then the
episode fails with :class:`MalformedOutput`, whose reason ``observe`` records as a refusal.
"""

from __future__ import annotations

import hashlib
import json
import re
import time as clock
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time
from typing import Any, Literal

import httpx
from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from belief_graph.errors import ConfigError, ModelError
from belief_graph.vocabulary import Vocabulary, normalize_key

from . import when
from .episode import Episode, MalformedOutput, Proposal
from .phrasing import sentence_of, source_of

__all__ = ["ChatExtractor", "ChatSettings", "MalformedOutput", "claims_schema", "read_answer"]

_FIRST_PERSON = {
    "i",
    "me",
    "my",
    "myself",
    "mine",
    "user",
    "the user",
    "speaker",
    "the speaker",
    "we",
    "us",
}
_FENCE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL)
_OTHER = "other"
# Status codes a server gives when it is busy or restarting: asked again within max_retries.
_TRANSIENT = frozenset({408, 425, 429, 500, 502, 503, 504})
# What a near-miss answer calls the fields of a claim.
_KEYS = {
    "subject": ("subject", "entity", "who", "person", "name"),
    "predicate": ("predicate", "relation", "property", "attribute", "fact", "key"),
    "object": ("object", "value", "obj", "target"),
}


class ChatSettings(BaseSettings):
    """Where the LLM extractor sends an episode: ``BELIEF_GRAPH_EXTRACTOR_URL`` (an
    OpenAI-compatible base URL such as ``http://localhost:11434/v1``), ``..._MODEL``,
    ``..._KEY`` (sent as a bearer token when set), ``..._TIMEOUT`` (seconds a request may take:
    a small model on a busy CPU needs minutes for its first request), ``..._MAX_RETRIES``
    (further requests after an unreadable answer or a busy server), ``..._RESPONSE_FORMAT``
    (``json_schema``, ``json_object`` for servers without schema support, or ``none``) and
    ``..._MAX_TOKENS`` (the answer's length limit; 0 sends none)."""

    model_config = SettingsConfigDict(
        env_prefix="BELIEF_GRAPH_EXTRACTOR_", env_file=".env", extra="ignore"
    )

    url: str | None = None
    model: str | None = None
    key: SecretStr | None = None
    timeout: float = Field(default=300.0, gt=0, le=3_600)
    max_retries: int = Field(default=1, ge=0, le=10)
    response_format: Literal["json_schema", "json_object", "none"] = "json_schema"
    max_tokens: int = Field(default=1024, ge=0, le=32_768)

    @property
    def configured(self) -> bool:
        """True when a URL is set: only then is anything sent."""
        return bool(self.url)


INSTRUCTIONS = (
    "You turn what a person says into facts for a memory that keeps one current value per fact.\n"
    'Answer with JSON only: {"claims": [...]}, one claim per fact the TEXT states, '
    "[] when it states none.\n"
    """A claim has:
- subject: "I" for the speaker; anyone or anything else by name ("Ana", "Atlas").
- predicate: one name from the lists below; "other" with relation set to a short snake_case name
  when none fits (relation is null otherwise).
- object: the value alone, short and as said ("Porto", "vegan", "165 commits", "$50").
- negated: true when the fact stopped or does not hold ("not ... anymore", "no longer", "quit").
- correction: true only when the speaker says an earlier value was wrong ("I meant", "not X,
  sorry"); a change in the world ("moved", "now", "these days") is not a correction.
- when: the time phrase as said ("last week", "since May", "from next month"), else null.
Rules: one claim per value ("French and Dutch" is two claims). For a change, give the new value;
give the old one negated only when it is said to have stopped. A number that changes is the same
fact with its new value. Facts about other people get their own subject, and "my sister Ana" is
also a fact about the speaker (has_sibling Ana). Only what the TEXT says in words: never guess a
job, a place or a value. Use the earlier turns only to resolve "it", "he", "that", "instead":
their facts are stored already. Questions, greetings and opinions about the world are not facts.
"""
)

# The worked examples: what each teaches is in its text. Invented people and places, none from
# any evaluation set.
EXAMPLES: tuple[tuple[str, tuple[str, ...], str, list[dict[str, Any]]], ...] = (
    (
        "Rex",
        ("I work at Northwind as a cashier.",),
        "Quick update - I left Northwind last month and I'm a barista at Kofi Corner now. "
        "Also I don't eat meat anymore.",
        [
            {"subject": "I", "predicate": "works_at", "object": "Northwind", "negated": True},
            {"subject": "I", "predicate": "works_at", "object": "Kofi Corner"},
            {"subject": "I", "predicate": "job_title", "object": "barista"},
            {"subject": "I", "predicate": "dietary_preference", "object": "meat", "negated": True},
        ],
    ),
    (
        "Rex",
        (),
        "My brother Tomas lives in Graz and speaks German and Czech. Our call moved to "
        "Thursday, not Tuesday - sorry, I mixed them up.",
        [
            {"subject": "I", "predicate": "has_sibling", "object": "Tomas"},
            {"subject": "Tomas", "predicate": "lives_in", "object": "Graz"},
            {"subject": "Tomas", "predicate": "language_spoken", "object": "German"},
            {"subject": "Tomas", "predicate": "language_spoken", "object": "Czech"},
            {"subject": "I", "predicate": "meeting_day", "object": "Thursday", "correction": True},
        ],
    ),
    (
        "Rex, Tomas",
        ("My budget for the trip is $400.",),
        "Can you suggest a hotel? Budget went up to $550. We moved to Linz in March, and I "
        "started learning the cello since then. My favourite colour is teal.",
        [
            {"subject": "I", "predicate": "budget", "object": "$550"},
            {"subject": "I", "predicate": "lives_in", "object": "Linz", "when": "in March"},
            {"subject": "I", "predicate": "is_learning", "object": "cello", "when": "since then"},
            {"subject": "I", "predicate": "other", "relation": "favorite_color", "object": "teal"},
        ],
    ),
)


def claims_schema(vocabulary: Vocabulary) -> dict[str, Any]:
    """The response schema: flat (no ``$ref``/``$defs``, which not every server's JSON-schema
    grammar resolves), every property required (OpenAI's strict mode asks for that), the
    predicate an enum of the vocabulary's names plus ``other``."""
    claim = {
        "type": "object",
        "properties": {
            "subject": {"type": "string"},
            "predicate": {"type": "string", "enum": [*vocabulary.predicates, _OTHER]},
            "relation": {"type": ["string", "null"]},
            "object": {"type": "string"},
            "negated": {"type": "boolean"},
            "correction": {"type": "boolean"},
            "when": {"type": ["string", "null"]},
        },
        "required": ["subject", "predicate", "relation", "object", "negated", "correction", "when"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"claims": {"type": "array", "items": claim}},
        "required": ["claims"],
        "additionalProperties": False,
    }


def _predicate_lists(vocabulary: Vocabulary) -> str:
    single = [n for n, s in vocabulary.predicates.items() if s.cardinality == "single"]
    multi = [n for n, s in vocabulary.predicates.items() if s.cardinality == "multi"]
    return (
        f"One value at a time (a new value replaces the old): {', '.join(single)}.\n"
        f"Several values at once (a new value adds to the others): {', '.join(multi)}.\n"
    )


def _wire(claim: Mapping[str, Any]) -> dict[str, Any]:
    """A worked example's claim with every field, in the schema's order."""
    return {
        "subject": claim["subject"],
        "predicate": claim["predicate"],
        "relation": claim.get("relation"),
        "object": claim["object"],
        "negated": claim.get("negated", False),
        "correction": claim.get("correction", False),
        "when": claim.get("when"),
    }


def _user_message(known: str, context: Sequence[str], text: str) -> str:
    lines = [f"Known subjects: {known or '(none)'}"]
    if context:
        lines.append("Earlier turns (already stored: do not repeat their facts):")
        lines.extend(f"> {turn}" for turn in context)
    lines.extend(["TEXT:", text])
    return "\n".join(lines)


class ChatExtractor:
    """Proposes claims with an LLM behind an OpenAI-compatible chat-completions endpoint."""

    name = "chat"

    def __init__(
        self,
        settings: ChatSettings | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.settings = settings or ChatSettings()
        if not self.settings.url:
            raise ConfigError(
                "BELIEF_GRAPH_EXTRACTOR_URL: not set; the LLM extractor sends nothing until you "
                "configure an OpenAI-compatible endpoint (e.g. http://localhost:11434/v1)"
            )
        if not self.settings.model:
            raise ConfigError(
                "BELIEF_GRAPH_EXTRACTOR_MODEL: not set; name the model the endpoint serves"
            )
        self._transport = transport
        self._prefix: dict[int, list[dict[str, str]]] = {}

    def prefix(self, vocabulary: Vocabulary) -> list[dict[str, str]]:
        """The fixed messages every request starts with: instructions, predicate names and the
        worked examples. They depend on the vocabulary alone, so a server's prompt cache holds
        them across episodes, speakers and namespaces."""
        key = id(vocabulary)
        if key not in self._prefix:
            messages = [{"role": "system", "content": INSTRUCTIONS + _predicate_lists(vocabulary)}]
            for known, context, text, claims in EXAMPLES:
                answer = {"claims": [_wire(c) for c in claims]}
                messages.append({"role": "user", "content": _user_message(known, context, text)})
                messages.append({"role": "assistant", "content": json.dumps(answer)})
            self._prefix[key] = messages
        return self._prefix[key]

    def request(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> dict[str, Any]:
        """The JSON body sent for ``episode``: exactly what leaves the machine."""
        known = ", ".join(
            s for s in known_subjects if normalize_key(s) != normalize_key(episode.speaker)
        )
        body: dict[str, Any] = {
            "model": self.settings.model,
            "messages": [
                *self.prefix(vocabulary),
                {"role": "user", "content": _user_message(known, episode.context, episode.text)},
            ],
            "temperature": 0,
        }
        if self.settings.response_format == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": "claims",
                    "strict": True,
                    "schema": claims_schema(vocabulary),
                },
            }
        elif self.settings.response_format == "json_object":
            body["response_format"] = {"type": "json_object"}
        if self.settings.max_tokens:
            body["max_tokens"] = self.settings.max_tokens
        return body

    def extract(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]:
        """The claims the model proposes for ``episode``. Raises :class:`MalformedOutput` when
        no answer was readable, ``ModelError`` when the endpoint cannot be used."""
        body = self.request(episode, vocabulary=vocabulary, known_subjects=known_subjects)
        problem = ""
        tries = self.settings.max_retries + 1
        for attempt in range(tries):
            if attempt:
                # At temperature 0 a server answers the same again; a little sampling may not.
                body = {**body, "temperature": 0.3, "seed": attempt}
            content = self._complete(body, tries - attempt - 1)
            try:
                claims = read_answer(content)
            except ValueError as exc:
                problem = str(exc)
                continue
            return [
                p
                for c in claims
                if not _repeated(c, episode)
                and (p := _proposal(c, episode, known_subjects, vocabulary)) is not None
            ]
        raise MalformedOutput(
            f"extractor: no readable claims JSON in {tries} answers ({problem}); "
            "BELIEF_GRAPH_EXTRACTOR_MAX_RETRIES sets how often it is asked again"
        )

    def _complete(self, body: dict[str, Any], retries_left: int) -> str:
        url = f"{(self.settings.url or '').rstrip('/')}/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.settings.key is not None and self.settings.key.get_secret_value():
            headers["Authorization"] = f"Bearer {self.settings.key.get_secret_value()}"
        timeout = self.settings.timeout
        for wait in [*(2.0**n for n in range(retries_left)), None]:
            try:
                with httpx.Client(timeout=timeout, transport=self._transport) as client:
                    response = client.post(url, json=body, headers=headers)
            except httpx.TimeoutException as exc:
                # Not asked again: a server that serves one request at a time is still working
                # on this one, and a second would only queue behind it.
                raise ModelError(
                    f"extractor: {url} did not answer within {timeout:g} s "
                    "(BELIEF_GRAPH_EXTRACTOR_TIMEOUT; a small model on a busy CPU may need "
                    "minutes for its first request)"
                ) from exc
            except httpx.HTTPError as exc:
                if wait is None:
                    raise ModelError(f"extractor: cannot reach {url}: {exc}") from exc
                clock.sleep(wait)
                continue
            if response.status_code in _TRANSIENT and wait is not None:
                clock.sleep(wait)
                continue
            break
        if response.status_code != 200:
            hint = ""
            if response.status_code == 400 and "response_format" in response.text:
                hint = (
                    " (a server without JSON-schema support: set "
                    "BELIEF_GRAPH_EXTRACTOR_RESPONSE_FORMAT=json_object)"
                )
            raise ModelError(
                f"extractor: {url} answered HTTP {response.status_code}: "
                f"{response.text[:300]}{hint}"
            )
        try:
            content = response.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"extractor: {url} did not answer as chat completions do") from exc
        return content if isinstance(content, str) else json.dumps(content)


def prefix_digest(extractor: ChatExtractor, vocabulary: Vocabulary) -> str:
    """A short digest of the fixed prefix and the schema: recordings name the request they
    answered, so a changed prompt shows."""
    data = json.dumps([extractor.prefix(vocabulary), claims_schema(vocabulary)], sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()[:12]


# -- reading an answer ------------------------------------------------------------------------


def read_answer(content: str) -> list[dict[str, Any]]:
    """The claims of an answer, read leniently: the JSON may sit in a code fence or after some
    words, the ``claims`` wrapper may be missing (a bare claim, a bare list) or named otherwise,
    and a truncated answer keeps its complete claims. Raises ``ValueError`` naming the problem
    when nothing in it is a claim."""
    data = _json_in(content)
    if data is None:
        salvaged = _complete_objects(content)
        if not salvaged:
            raise ValueError(f"not JSON: {content[:60]!r}")
        data = salvaged
    items = _claim_list(data)
    if items is None:
        raise ValueError(f"no claims in {json.dumps(data)[:80]}")
    claims = [c for c in (_claim(item) for item in items) if c is not None]
    if items and not claims:
        raise ValueError(f"claims.0: no predicate and object in {json.dumps(items[0])[:80]}")
    return claims


def _json_in(content: str) -> Any:
    fenced = _FENCE.search(content)
    text = fenced.group(1) if fenced else content
    try:
        return json.loads(text)
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for start in (m.start() for m in re.finditer(r"[{\[]", text)):
        try:
            return decoder.raw_decode(text, start)[0]
        except ValueError:
            continue
    return None


def _complete_objects(content: str) -> list[dict[str, Any]]:
    """The complete ``{...}`` objects with a predicate in a cut-off answer."""
    found: list[dict[str, Any]] = []
    decoder = json.JSONDecoder()
    position = 0
    while (start := content.find("{", position)) != -1:
        try:
            value, end = decoder.raw_decode(content, start)
        except ValueError:
            position = start + 1
            continue
        if isinstance(value, dict) and _claim_list(value) == [value]:
            found.append(value)
        position = end
    return found


def _claim_list(data: Any) -> list[Any] | None:
    if isinstance(data, list):
        return data
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("claims"), list):
        return list(data["claims"])
    if _field(data, "predicate") is not None or _field(data, "object") is not None:
        return [data]
    lists = [v for v in data.values() if isinstance(v, list)]
    if len(lists) == 1 and all(isinstance(v, dict) for v in lists[0]):
        return list(lists[0])
    if isinstance(data.get("claims"), dict):
        return [data["claims"]]
    return None


def _field(item: Mapping[str, Any], name: str) -> Any:
    for key in _KEYS[name]:
        if item.get(key) not in (None, ""):
            return item[key]
    return None


def _truth(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes", "1")
    return bool(value)


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value).strip()
    return text or None


def _claim(item: Any) -> dict[str, Any] | None:
    """One claim's fields, or ``None`` when it has no predicate or no object."""
    if not isinstance(item, dict):
        return None
    predicate = _text(_field(item, "predicate"))
    relation = _text(item.get("relation")) if "predicate" in item else None
    if predicate == _OTHER or predicate is None:
        predicate = relation
    obj = _text(_field(item, "object"))
    if predicate is None or obj is None:
        return None
    return {
        "subject": _text(_field(item, "subject")) or "I",
        "predicate": predicate,
        "object": obj,
        "negated": _truth(item.get("negated", False)),
        "correction": _truth(item.get("correction", False)),
        "when": _text(item.get("when")),
        "valid_from": _text(item.get("valid_from")),
        "valid_to": _text(item.get("valid_to")),
        "sentence": _text(item.get("sentence")),
        "source": _text(item.get("source")),
    }


def _repeated(claim: Mapping[str, Any], episode: Episode) -> bool:
    """A value the earlier turns said and this one does not, given as still holding: the
    model repeated the context it was told to take nothing from (a value it ends or corrects
    may be named only there: "I quit the bakery")."""
    if claim["negated"] or claim["correction"] or not episode.context:
        return False
    value = normalize_key(claim["object"])
    return value not in normalize_key(episode.text) and any(
        value in normalize_key(turn) for turn in episode.context
    )


def _proposal(
    claim: Mapping[str, Any], episode: Episode, known: Sequence[str], vocabulary: Vocabulary
) -> Proposal | None:
    if normalize_key(claim["object"]) in _FIRST_PERSON | {"you", "it", "he", "she", "they"}:
        return None  # "Tom reports to not I": no value
    subject = _subject(claim["subject"], episode.speaker, known)
    source = claim["source"] if claim["source"] and claim["source"] in episode.text else None
    source = source or source_of(episode.text, claim["object"], subject)
    valid_from = _moment(claim["valid_from"])
    valid_to = _moment(claim["valid_to"])
    if claim["when"] and valid_from is None and valid_to is None:
        window = when.resolve(claim["when"], episode.at, sentence=source)
        if not window:
            window = when.find(claim["when"], episode.at)
        valid_from, valid_to = window.valid_from, window.valid_to
    try:
        predicate = vocabulary.canonical(claim["predicate"])
    except ValueError:
        return None
    sentence = claim["sentence"] or sentence_of(
        subject, predicate, claim["object"], negated=claim["negated"]
    )
    return Proposal(
        subject=subject,
        predicate=claim["predicate"],
        object=claim["object"],
        sentence=sentence,
        source=source,
        valid_from=valid_from,
        valid_to=valid_to,
        negated=claim["negated"],
        correction=claim["correction"] and not claim["negated"],
    )


def _subject(name: str, speaker: str, known: Sequence[str]) -> str:
    """The speaker for "I"; a known subject's own spelling when the name matches one."""
    key = normalize_key(name)
    if key in _FIRST_PERSON or key == normalize_key(speaker):
        return speaker
    for subject in known:
        if normalize_key(subject) == key:
            return subject
    return name


def _moment(value: str | None) -> datetime | None:
    """An ISO-8601 date (midnight UTC) or date-time (UTC when it has no offset); anything
    else (a model's "2026-13-40", "next week") is no moment."""
    if value is None:
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), time(), tzinfo=UTC)
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
