"""The LLM extractor: an OpenAI-compatible chat-completions endpoint the user configures.

Nothing is sent anywhere unless ``BELIEF_GRAPH_EXTRACTOR_URL`` is set (or a ``ChatSettings``
with a ``url`` is given). One request per episode: a system prompt with the vocabulary's
canonical predicates (name, cardinality, description) and the namespace's known subjects, and a
user message with the speaker, the time, the earlier turns and the episode text verbatim. The
answer must be JSON of the schema generated from :class:`Claims`; invalid content is asked for
again, at most ``max_retries`` more times, and then the episode fails with
:class:`MalformedOutput`, whose reason ``observe`` records as a refusal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, time
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from belief_graph.errors import ConfigError, ModelError
from belief_graph.vocabulary import Vocabulary, normalize_key

from . import when
from .episode import Episode, MalformedOutput, Proposal

__all__ = ["ChatExtractor", "ChatSettings", "Claims", "MalformedOutput", "ProposedClaim"]

_FIRST_PERSON = {"i", "me", "my", "myself", "user", "the user", "speaker", "the speaker"}
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


class ChatSettings(BaseSettings):
    """Where the LLM extractor sends an episode: ``BELIEF_GRAPH_EXTRACTOR_URL`` (an
    OpenAI-compatible base URL such as ``http://localhost:11434/v1``), ``..._MODEL``,
    ``..._KEY`` (sent as a bearer token when set), ``..._TIMEOUT`` and ``..._MAX_RETRIES``."""

    model_config = SettingsConfigDict(
        env_prefix="BELIEF_GRAPH_EXTRACTOR_", env_file=".env", extra="ignore"
    )

    url: str | None = None
    model: str | None = None
    key: SecretStr | None = None
    timeout: float = Field(default=120.0, gt=0, le=3_600)
    max_retries: int = Field(default=2, ge=0, le=10)

    @property
    def configured(self) -> bool:
        """True when a URL is set: only then is anything sent."""
        return bool(self.url)


class ProposedClaim(BaseModel):
    """One claim as the model proposes it (the wire format of docs/extraction.md)."""

    model_config = ConfigDict(extra="ignore")

    subject: str = Field(
        min_length=1,
        description="Who or what the claim is about: the speaker's name for I/me/my, else a "
        "known subject's name as listed, else the name used.",
    )
    predicate: str = Field(
        min_length=1, description="A canonical predicate from the list, else a short snake_case"
    )
    object: str = Field(min_length=1, description="The value, as short as possible.")
    sentence: str = Field(
        min_length=1,
        description="The claim as one self-contained third-person sentence naming the subject.",
    )
    source: str = Field(
        min_length=1, description="The exact span of the text the claim comes from, verbatim."
    )
    valid_from: str | None = Field(
        default=None, description="ISO-8601 date or date-time it became true, or null."
    )
    valid_to: str | None = Field(
        default=None, description="ISO-8601 date or date-time it stopped being true, or null."
    )
    when: str | None = Field(
        default=None,
        description='The time phrase as said ("since June", "last week"), or null.',
    )
    negated: bool = Field(
        default=False, description="True when it no longer holds or does not hold."
    )
    correction: bool = Field(
        default=False,
        description="True when the speaker says an earlier value was wrong (not a change).",
    )


class Claims(BaseModel):
    """The whole answer: every claim the text states."""

    model_config = ConfigDict(extra="ignore")

    claims: list[ProposedClaim]


SYSTEM_PROMPT = """\
You extract facts from what a person said, for a memory that keeps one current belief per fact.
Return every fact the TEXT states about a person, a project or a thing, as JSON matching the
schema. Rules:
- subject: "I", "me" and "my" are the speaker, named {speaker!r}. For anyone else use the name as
  listed under known subjects when it is one of them.
- predicate: use a canonical predicate from the list below when one fits (its cardinality says
  whether a new value replaces the old: single, or adds to it: multi); otherwise a short
  snake_case relation.
- object: the value alone ("pescatarian", "Berlin"), never a whole clause.
- sentence: one self-contained sentence in the third person naming the subject
  ("{speaker} is pescatarian.").
- source: the exact words of the TEXT the fact comes from, copied verbatim.
- negated: true when the fact does not or no longer hold ("I no longer eat meat").
- correction: true only when the speaker says an earlier value was wrong ("actually it was X,
  not Y"); a change in the world ("I moved", "now", "these days") is not a correction.
- valid_from / valid_to: ISO-8601 dates when the text gives a time, resolved against the time
  it was said; or put the phrase as said in "when" and leave them null. Leave all three null
  when the text gives no time.
- Extract nothing from the earlier turns; they are there to resolve "it", "that" and "instead".
- Questions, greetings and opinions about the world are not facts: return {{"claims": []}}.

Known subjects: {subjects}

Canonical predicates (name, cardinality: description):
{predicates}
"""


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

    def request(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> dict[str, Any]:
        """The JSON body sent for ``episode``: exactly what leaves the machine."""
        predicates = "\n".join(
            f"- {spec.name}, {spec.cardinality}: {spec.description}"
            for spec in vocabulary.predicates.values()
        )
        system = SYSTEM_PROMPT.format(
            speaker=episode.speaker,
            subjects=", ".join(known_subjects) or "(none yet)",
            predicates=predicates,
        )
        lines = [f"Speaker: {episode.speaker}", f"Said at: {episode.at.isoformat()}"]
        if episode.context:
            lines.append("Earlier turns (for reference only):")
            lines.extend(f"> {turn}" for turn in episode.context)
        lines.extend(["TEXT:", episode.text])
        return {
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": "\n".join(lines)},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "claims", "schema": Claims.model_json_schema()},
            },
            "temperature": 0,
        }

    def extract(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]:
        """The claims the model proposes for ``episode``. Raises :class:`MalformedOutput` when
        every answer was invalid, ``ModelError`` when the endpoint cannot be used."""
        body = self.request(episode, vocabulary=vocabulary, known_subjects=known_subjects)
        problem = ""
        for _ in range(self.settings.max_retries + 1):
            content = self._complete(body)
            try:
                claims = _parse(content)
                return [_proposal(c, episode, known_subjects) for c in claims.claims]
            except (ValueError, ValidationError) as exc:
                problem = _describe(exc)
        tries = self.settings.max_retries + 1
        raise MalformedOutput(f"extractor: no valid claims JSON in {tries} answers ({problem})")

    def _complete(self, body: dict[str, Any]) -> str:
        url = f"{(self.settings.url or '').rstrip('/')}/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.settings.key is not None and self.settings.key.get_secret_value():
            headers["Authorization"] = f"Bearer {self.settings.key.get_secret_value()}"
        try:
            with httpx.Client(timeout=self.settings.timeout, transport=self._transport) as client:
                response = client.post(url, json=body, headers=headers)
        except httpx.HTTPError as exc:
            raise ModelError(f"extractor: cannot reach {url}: {exc}") from exc
        if response.status_code != 200:
            raise ModelError(
                f"extractor: {url} answered HTTP {response.status_code}: {response.text[:300]}"
            )
        try:
            content = response.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"extractor: {url} did not answer as chat completions do") from exc
        return content if isinstance(content, str) else json.dumps(content)


def _parse(content: str) -> Claims:
    fenced = _FENCE.match(content)
    data = json.loads(fenced.group(1) if fenced else content)
    return Claims.model_validate(data)


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        return f"{where}: {error['msg']}"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON: {exc.msg}"
    return str(exc)


def _proposal(claim: ProposedClaim, episode: Episode, known: Sequence[str]) -> Proposal:
    valid_from = _moment(claim.valid_from, "valid_from")
    valid_to = _moment(claim.valid_to, "valid_to")
    if claim.when and valid_from is None and valid_to is None:
        window = when.resolve(claim.when, episode.at, sentence=claim.source)
        valid_from, valid_to = window.valid_from, window.valid_to
    return Proposal(
        subject=_subject(claim.subject, episode.speaker, known),
        predicate=claim.predicate,
        object=claim.object,
        sentence=claim.sentence,
        source=claim.source,
        valid_from=valid_from,
        valid_to=valid_to,
        negated=claim.negated,
        correction=claim.correction,
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


def _moment(value: str | None, field: str) -> datetime | None:
    """An ISO-8601 date (midnight UTC) or date-time (UTC when it has no offset)."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), time(), tzinfo=UTC)
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"claims.{field}: {value!r} is not an ISO-8601 date or date-time"
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
