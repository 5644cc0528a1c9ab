"""What extraction speaks: an episode in, proposals out, and what became of each proposal."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Protocol, overload, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from belief_graph.errors import ModelError
from belief_graph.models import Identifier, Moment, RevisionResult, Term, Text
from belief_graph.vocabulary import Vocabulary

__all__ = [
    "Episode",
    "Extractor",
    "KnownSubjects",
    "MalformedOutput",
    "Observation",
    "Proposal",
    "Refusal",
]


class MalformedOutput(ModelError):
    """The model's answer was not valid claims JSON, after every retry."""


class Episode(BaseModel):
    """One turn (or several) of a conversation, as said: who spoke, when, and what.

    First-person statements ("I", "my") are about ``speaker``; relative times ("last week",
    "since June") resolve against ``at``. ``context`` holds earlier turns, oldest first, for
    "that", "it" and "instead"; nothing is extracted from it on its own. ``id`` becomes the
    ``episode_id`` of every claim drawn from the episode (one is made up when it is left out).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    speaker: Term
    at: Moment
    text: Text
    context: tuple[Text, ...] = Field(default=(), max_length=100)
    id: Identifier | None = None


class Proposal(BaseModel):
    """A claim an extractor proposes, before it is verified against ``source``.

    ``sentence`` is self-contained and in the third person ("alice is pescatarian."); ``source``
    is the span of the episode text it came from. ``negated``: the relation does not (or no
    longer) hold for the object. ``correction``: the speaker says an earlier value was wrong
    ("actually it was X, not Y"), which retracts it, rather than that the world changed.

    A proposal without ``predicate`` (and so without ``subject`` and ``object``) keeps what was
    said as a text-only claim: ``sentence`` is the text, found by search though no fact is
    keyed on it (what an extractor proposes for a turn it could not read).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    sentence: str
    source: str
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    negated: bool = False
    correction: bool = False

    @property
    def text_only(self) -> bool:
        """True when the proposal keys no fact: the text is kept as said."""
        return self.predicate is None


class Refusal(BaseModel):
    """A proposal that did not become a belief, and why."""

    model_config = ConfigDict(frozen=True)

    proposal: Proposal
    reason: str


class Observation(BaseModel):
    """What ``BeliefGraph.observe`` did with one episode.

    ``proposals``: everything the extractor proposed; ``results``: one per proposal that
    reached the write path (its verdict and decision, a verification refusal included);
    ``refused``: the proposals that did not become a belief (invalid, contradicted by their
    source, or unsupported by it), each with the reason.
    """

    model_config = ConfigDict(frozen=True)

    episode_id: str
    extractor: str = ""
    proposals: list[Proposal]
    results: list[RevisionResult]
    refused: list[Refusal]


class KnownSubjects(Sequence[str]):
    """The namespace's subjects, read when an extractor first looks at them: a turn said in the
    first person needs none (the rule extractor matches names only in a clause about someone
    else), and the read would be a round trip of every turn for nothing."""

    def __init__(self, read: Callable[[], list[str]]) -> None:
        self._read = read
        self._names: list[str] | None = None

    def _loaded(self) -> list[str]:
        if self._names is None:
            self._names = self._read()
        return self._names

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._loaded()[index]

    def __len__(self) -> int:
        return len(self._loaded())

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())


@runtime_checkable
class Extractor(Protocol):
    """Proposes claims from an episode. The vocabulary steers predicates to canonical names;
    ``known_subjects`` are the namespace's subjects, so that "Bob" means the ``bob`` already
    known rather than a new one."""

    name: str

    def extract(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]: ...
