"""Data only: what callers send (drafts) and what the engine returns (claims, results)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    computed_field,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

SourceType = Literal["human_verified", "user_stated", "observed", "tool_output", "inferred"]
Status = Literal["active", "superseded", "retracted", "pending", "rejected", "erased"]
Verdict = Literal["NEW", "SAME", "UPDATE", "CONFLICT"]
Kind = Literal["evidence", "policy"]
Cardinality = Literal["single", "multi"]
Operation = Literal[
    "remember",
    "contract",
    "confirm",
    "reject",
    "rollback",
    "rectify",
    "erase",
    "import",
    "dispute",
    "resolve",
    "dismiss",
    "review",
    "consolidate",
    "promote",
    "demote",
]

_SURROGATES = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ID_CHARS = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:\-/@]*")


def _printable(value: str) -> str:
    # Lone surrogates cannot travel as UTF-8 over Bolt: refuse them here, not at the server.
    if _SURROGATES.search(value):
        raise ValueError("contains unpaired surrogate code points")
    if _CONTROL.search(value):
        raise ValueError("contains control characters")
    return value


def _storable(value: str) -> str:
    if not _printable(value).strip():
        raise ValueError("must not be blank")
    return value


def _identifier(value: str) -> str:
    # fullmatch: with match and "$", "user:ana\n" would pass as a second tenant that prints
    # like "user:ana".
    if not _ID_CHARS.fullmatch(value):
        raise ValueError(
            "may hold only letters, digits and _ . : - / @, starting with a letter or digit"
        )
    return value


def _error(field: str, message: str, value: object = None) -> InitErrorDetails:
    return InitErrorDetails(
        type=PydanticCustomError("inconsistent", message), loc=(field,), input=value
    )


Text = Annotated[str, Field(min_length=1, max_length=10_000), AfterValidator(_storable)]
"""A sentence: the only field that is embedded."""
Term = Annotated[str, Field(min_length=1, max_length=1_000), AfterValidator(_storable)]
"""A subject, predicate, object, author or origin."""
Identifier = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_identifier)]
"""Ids and namespaces: printable, no spaces, safe in URLs and Browser queries."""
Reason = Annotated[str, Field(max_length=1_000), AfterValidator(_printable)]
"""Why an operation was made, for the audit log (may be empty)."""
Confidence = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]


def _to_utc(value: datetime) -> datetime:
    # Neo4j's DateTime carries whole-minute offsets within years 1..9999; storing every moment in
    # UTC keeps any aware input representable (or refused here, by name, when it is not).
    try:
        return value.astimezone(UTC)
    except OverflowError as exc:
        raise ValueError("is out of the representable range (years 1 to 9999 in UTC)") from exc


Moment = Annotated[AwareDatetime, AfterValidator(_to_utc)]
"""A timezone-aware moment, normalized to UTC."""

# "->" before "-" could be read as part of a namespace: namespaces never hold ">", "→" or ",".
_SCOPE_SEPARATOR = re.compile(r" *(?:->|→|>|,) *")
MAX_SCOPE_DEPTH = 16


def _scope_parts(value: object) -> object:
    if isinstance(value, str):
        return tuple(_SCOPE_SEPARATOR.split(value))
    return value


def _distinct(value: tuple[str, ...]) -> tuple[str, ...]:
    seen: set[str] = set()
    for name in value:
        if name in seen:
            raise ValueError(f"names {name!r} twice; each namespace once, nearest first")
        seen.add(name)
    return value


if TYPE_CHECKING:
    # What callers may pass; validation turns it into a tuple of namespaces.
    ScopeChain = str | Sequence[str]
else:
    ScopeChain = Annotated[
        tuple[Identifier, ...],
        BeforeValidator(_scope_parts),
        Field(min_length=1, max_length=MAX_SCOPE_DEPTH),
        AfterValidator(_distinct),
    ]
"""A read's scope chain, nearest first: namespaces as a list, or one string such as
``"session:42 > agent:reviewer > project:atlas"`` (``>``, ``->``, ``→`` or ``,`` between them)."""


class ClaimDraft(BaseModel):
    """A claim as an agent or user offers it; ``remember`` decides what becomes of it.

    ``subject``/``predicate``/``object`` identify the fact; a text-only draft leaves all three out
    and the semantic layer finds its slot. ``correction=True`` says the caller knows the old value
    was wrong (never true), not that the world changed: the wrong value is retracted and this one
    takes its place (a CONFLICT).

    ``negated`` is the claim's polarity: ``True`` states that the relation does not (or no
    longer) hold for the value ("Priya no longer works at Acme": subject priya, predicate
    works_at, object Acme, negated); ``None`` (the default) reads it from the text ("no
    longer", "not", "never", "doesn't", "used to", ...). A negated claim ends or contradicts the
    positive claim of the same value, never reinforces it (docs/semantic.md).

    When the engine learned the claim (its ``recorded_at``, transaction time) is the engine's
    clock, never the caller's: a draft says when the fact became true (``valid_from``). Only an
    explicit, audited import of history keeps stamps of its own (``HistoricalDraft``,
    ``BeliefGraph.import_history``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    namespace: Identifier
    subject: Term | None = None
    predicate: Term | None = None
    object: Term | None = None
    text: Text
    source_type: SourceType = "user_stated"
    confidence: Confidence = 0.8
    author: Term | None = None
    origin: Term | None = None
    kind: Kind = "evidence"
    valid_from: Moment | None = None
    valid_to: Moment | None = None
    episode_id: Identifier | None = None
    episode_content: Text | None = None
    depends_on: tuple[Identifier, ...] = Field(default=(), max_length=100)
    supports: tuple[Identifier, ...] = Field(default=(), max_length=100)
    correction: bool = False
    negated: bool | None = None
    id: Identifier | None = None

    @model_validator(mode="before")
    @classmethod
    def _no_transaction_time(cls, data: Any) -> Any:
        if cls is ClaimDraft and isinstance(data, dict) and "recorded_at" in data:
            raise ValidationError.from_exception_data(
                cls.__name__,
                [
                    _error(
                        "recorded_at",
                        "the time the engine learned a claim is its own clock, never the "
                        "caller's: say when it became true with valid_from (a conversation "
                        "replayed: observe() with the episode's time), or import history with "
                        "its own stamps through BeliefGraph.import_history",
                        data["recorded_at"],
                    )
                ],
            )
        return data

    @model_validator(mode="after")
    def _consistent(self) -> ClaimDraft:
        # Raised as a ValidationError of our own so that each error's loc names its field.
        errors: list[InitErrorDetails] = []
        triple = {"subject": self.subject, "predicate": self.predicate, "object": self.object}
        if any(v is not None for v in triple.values()):
            for name, value in triple.items():
                if value is None:
                    errors.append(
                        _error(
                            name,
                            "missing: give subject, predicate and object together, or none "
                            "of them (a text-only claim)",
                        )
                    )
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            errors.append(_error("valid_to", "must be later than valid_from", self.valid_to))
        if errors:
            raise ValidationError.from_exception_data(type(self).__name__, errors)
        return self

    @property
    def text_only(self) -> bool:
        """True when the draft carries only a sentence, no triple."""
        return self.subject is None


class HistoricalDraft(ClaimDraft):
    """A draft of history with the transaction time it was learned at elsewhere
    (``recorded_at``), for ``BeliefGraph.import_history`` only: the explicit, audited way to keep
    a caller's stamp (each such write is a revision of op ``import``, naming its actor). A
    ``recorded_at`` ahead of the engine's clock (beyond ``clock_skew_seconds``) is refused, and so
    is one earlier than its fact's last recorded change."""

    recorded_at: Moment


class Contradicted(BaseModel):
    """An earlier claim a belief contradicted and took the place of: superseded by it (a
    CONFLICT, newest wins), retracted by it (a correction), or overruled when a human confirmed
    it. What a reader needs to say "earlier you said X": what was said, when, and by whom."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str | None = None
    object: str | None = None
    negated: bool = False
    valid_from: datetime | None = None
    recorded_at: datetime | None = None
    source_type: SourceType | None = None
    author: str | None = None
    origin: str | None = None
    status: Status
    resolution: str | None = Field(
        default=None, description="How the contradiction was resolved (newest wins, corrected)."
    )


class Claim(BaseModel):
    """A stored claim, as reads return it (the embedding is never returned)."""

    model_config = ConfigDict(frozen=True)

    id: str
    namespace: str
    slot_id: str | None = None
    subject: str | None = None
    predicate: str | None
    object: str | None = None
    text: str | None = None
    source_type: SourceType
    confidence: float
    frequency: int = 1
    author: str | None = None
    origin: str | None = None
    kind: Kind = "evidence"
    status: Status
    version: int | None = None
    valid_from: datetime
    valid_to: datetime | None = None
    recorded_at: datetime
    accepted_at: datetime | None = None
    superseded_at: datetime | None = None
    retracted_at: datetime | None = None
    erased_at: datetime | None = None
    contradiction: bool = False
    disputed: bool = False
    needs_review: bool = False
    negated: bool = False
    review_reason: str | None = None
    review_revision: str | None = None
    # Independent evidence (docs/policy.md): episode keys with the source type that stated the
    # value in each, and the distinct sources (author/origin); capped by Policy.support_cap.
    evidence_episodes: list[str] = Field(default_factory=list)
    evidence_types: list[str] = Field(default_factory=list)
    evidence_sources: list[str] = Field(default_factory=list)
    disputes_policy: bool = False  # evidence held against a policy (a dispute)
    demoted: bool = False  # a policy demoted to disputed, waiting for a human
    promoted_from: str | None = None  # the evidence claim this policy was promoted from
    refused_reason: str | None = None  # why verification refused it (status rejected)
    # The earlier claims this one contradicted and replaced (current, as_of, beliefs, get,
    # search and lineage fill it; empty elsewhere).
    contradicts: list[Contradicted] = Field(default_factory=list)

    @property
    def support(self) -> int:
        """Independent episodes behind the claim (replays of an episode count once)."""
        return len(self.evidence_episodes) or self.frequency

    @property
    def sources(self) -> int:
        """Distinct sources (author/origin) behind the claim (0: not recorded)."""
        return len(self.evidence_sources)

    @property
    def current(self) -> bool:
        """Active: the newest version of its fact. Whether it holds now is ``current``'s question
        (``as_of(now, now)``): its window may have ended, or a change may be scheduled."""
        return self.status == "active"


CLAIM_VALID_TIMES = ("valid_from", "valid_to", "correction_from")
"""The moments of a claim on the world's axis: when what it says held (``correction_from``: the
moment a correction holds from)."""
CLAIM_TRANSACTION_TIMES = (
    "recorded_at",
    "accepted_at",
    "reinforced_at",
    "superseded_at",
    "retracted_at",
    "erased_at",
    "demoted_at",
)
"""The moments of a claim on the engine's own clock: when it learned or did something."""
CLAIM_MOMENTS = CLAIM_VALID_TIMES + CLAIM_TRANSACTION_TIMES
"""Every moment a claim node stores: the one list that reads (parsing), writes and restores
(checking) take theirs from. ``Claim`` returns those a reader asks for (a unit test holds its
datetime fields to this list)."""


class ErasureReport(BaseModel):
    """What an erase erased, over every transaction it took (``RevisionResult.erasure``)."""

    model_config = ConfigDict(frozen=True)

    scope: Literal["namespace", "subject", "claims"]
    claims: int
    """Claims whose content is gone (their ids: the result's ``retired``)."""
    facts: int
    """Facts left as tombstones: no subject, a key of their own (``erased:<slot id>``)."""
    episodes: int
    """Episodes whose content and source went with those claims."""
    revisions: int
    """Revisions of the namespace that held the caller's words about what was erased (a reason,
    a stored result, an undo record) and hold them no more."""
    resumed: bool = False
    """The erase had begun before this call (which found it unfinished and finished it)."""


class RevisionResult(BaseModel):
    """What one write operation did. Replaying its revision id returns the same result."""

    model_config = ConfigDict(frozen=True)

    revision_id: str
    namespace: str
    op: Operation
    verdict: Verdict | None = None
    decision: str
    reason: str = ""
    slot_id: str | None = None
    added: list[str] = Field(default_factory=list)
    retired: list[str] = Field(default_factory=list)
    reinforced: list[str] = Field(default_factory=list)
    flagged: list[str] = Field(default_factory=list)
    restored: list[str] = Field(default_factory=list)
    # Claims the new belief contradicted and replaced (newest wins, or retracted by a
    # correction): ``get`` names what they said.
    contradicted: list[str] = Field(default_factory=list)
    replayed: bool = False
    erasure: ErasureReport | None = None
    """An erase's report of what it erased (None for every other operation)."""

    @property
    def claim_id(self) -> str | None:
        """The claim this operation added or reinforced, if any."""
        ids = self.added or self.reinforced
        return ids[0] if ids else None


ConsolidationAction = Literal[
    "merge",
    "supersede",
    "carry_conflict",
    "close_conflict",
    "clear_flag",
    "flag",
    "set_disputed",
    "repair_chain",
]
IntegrityCheck = Literal["reference", "chain", "slot"]


class ConsolidationStep(BaseModel):
    """One change a consolidation makes (or, in a dry run, would make)."""

    model_config = ConfigDict(frozen=True)

    action: ConsolidationAction
    claim_id: str | None = None
    other_id: str | None = Field(
        default=None, description="The survivor, the rival, the premise or the predecessor."
    )
    slot_id: str | None = None
    detail: str


class IntegrityProblem(BaseModel):
    """Something a consolidation found wrong and could not repair without deleting or
    guessing; it is reported, never silently changed."""

    model_config = ConfigDict(frozen=True)

    check: IntegrityCheck
    claim_id: str | None = None
    slot_id: str | None = None
    detail: str


class ConsolidationReport(BaseModel):
    """What ``consolidate`` did (or would do, in a dry run): its steps, as one revision, and
    the problems it could not repair. No steps: nothing was written."""

    model_config = ConfigDict(frozen=True)

    namespace: str
    dry_run: bool
    examined: dict[str, int] = Field(
        description="What was read: slots, claims, open conflicts, review flags."
    )
    steps: list[ConsolidationStep]
    problems: list[IntegrityProblem]
    revision: RevisionResult | None = Field(
        default=None, description="The one revision written; None in a dry run or when clean."
    )

    @property
    def changed(self) -> bool:
        """True when the pass changed (or, dry, would change) something."""
        return bool(self.steps)


class Conflict(BaseModel):
    """A CONTRADICTS edge: a contradiction the engine recorded rather than resolved silently."""

    model_config = ConfigDict(frozen=True)

    claim: Claim
    rival: Claim
    score: float | None = None
    revision_id: str | None = None
    resolution: str | None = None


class Dispute(BaseModel):
    """A policy and the evidence held against it (docs/policy.md): what a human decides on."""

    model_config = ConfigDict(frozen=True)

    policy: Claim
    evidence: list[Claim]
    episodes: int  # independent episodes behind the evidence, together
    sources: int  # distinct sources behind the evidence, together

    @property
    def demoted(self) -> bool:
        """True when the policy has been demoted to disputed."""
        return self.policy.demoted


class EmbedResult(BaseModel):
    """What ``embed`` did in one namespace: a vector for each claim that had none."""

    model_config = ConfigDict(frozen=True)

    namespace: str
    found: int = Field(description="Claims (not erased) without a vector when it started.")
    embedded: int = Field(description="Claims given a vector, a committed batch at a time.")
    remaining: int = Field(
        description="Claims still without a vector when it ended (0 once it is done)."
    )


class EpisodeRecord(BaseModel):
    """An Episode node as ``lineage`` shows it: where a claim came from (its provenance). Not
    the ``Episode`` that ``observe`` takes, which is what was said."""

    model_config = ConfigDict(frozen=True)

    id: str
    claim_id: str | None = None
    occurred_at: datetime | None = None
    source: str | None = None
    content: str | None = None


class RevisionRecord(BaseModel):
    """A Revision node, as the audit log shows it."""

    model_config = ConfigDict(frozen=True)

    id: str
    op: str
    at: datetime
    actor: str | None = None
    verdict: str | None = None
    decision: str | None = None
    reason: str | None = None


class Lineage(BaseModel):
    """Everything known about one claim: its slot's chain, provenance, revisions, dependents."""

    model_config = ConfigDict(frozen=True)

    claim: Claim
    chain: list[Claim]
    supersedes: list[dict[str, Any]]
    episodes: list[EpisodeRecord]
    revisions: list[RevisionRecord]
    dependents: list[Claim]
    premises: list[Claim]


class SearchHit(BaseModel):
    """A retrieved claim with its similarity, and the rivals a reasoning step must see."""

    model_config = ConfigDict(frozen=True)

    claim: Claim
    score: float
    rivals: list[Claim] = Field(default_factory=list)

    @property
    def contested(self) -> bool:
        """True when the claim is disputed or has a pending rival: do not trust it alone."""
        return bool(self.rivals) or self.claim.disputed


class CurrentBelief(BaseModel):
    """A current belief, with when its fact was first recorded (the oldest of the fact's claims
    not withdrawn)."""

    model_config = ConfigDict(frozen=True)

    claim: Claim
    since: datetime


class NamespaceInfo(BaseModel):
    """A namespace, the database that holds its claims, and the database it is mapped to now
    (they differ when the mapping changed after it was written: its claims are not seen)."""

    namespace: str
    database: str
    claims: int
    active: int
    mapped_to: str


class Support(BaseModel):
    """How much evidence stands behind a claim."""

    model_config = ConfigDict(frozen=True)

    frequency: int = Field(description="Mentions: the claim and every restatement (SAME).")
    episodes: int = Field(description="Distinct episodes it was derived from (0: none given).")


class ScopedClaim(BaseModel):
    """A claim read through a scope chain, with the namespace of the chain that holds it."""

    model_config = ConfigDict(frozen=True)

    claim: Claim
    scope: str = Field(description="The namespace of the chain that holds the claim.")
    layer: int = Field(description="Its place in the chain: 0 is the nearest namespace.")
    support: Support


class ScopedAnswer(BaseModel):
    """The belief about one fact through a scope chain, and what stands against it."""

    model_config = ConfigDict(frozen=True)

    scope: list[str] = Field(description="The chain asked, nearest first.")
    cardinality: Cardinality = Field(description="single: one answer; multi: values coexist.")
    beliefs: list[ScopedClaim] = Field(
        description="The answer: one claim, or several values for a multi-valued fact."
    )
    rivals: list[Claim] = Field(
        default_factory=list,
        description="Open contradictions and pending claims of the answer, in its namespace.",
    )
    disputes: list[ScopedClaim] = Field(
        default_factory=list,
        description="Evidence in the chain that holds another value than the policy answering.",
    )
    shadowed: list[ScopedClaim] = Field(
        default_factory=list,
        description="Other namespaces' answers the answer outranks (farther, or evidence "
        "under a policy) that do not dispute it.",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def known(self) -> bool:
        """False: no namespace of the chain holds a belief (the engine never guesses)."""
        return bool(self.beliefs)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def contested(self) -> bool:
        """True when a rival, a dispute or a disputed flag stands against the answer."""
        return bool(self.rivals or self.disputes) or any(b.claim.disputed for b in self.beliefs)


class ScopedHit(BaseModel):
    """A search hit through a scope chain: what it is (kind), where it comes from (scope) and
    how much stands behind it (support), with what stands against it."""

    model_config = ConfigDict(frozen=True)

    claim: Claim
    score: float
    kind: Kind
    scope: str = Field(description="The namespace of the chain that answered.")
    layer: int = Field(description="Its place in the chain: 0 is the nearest namespace.")
    support: Support
    rivals: list[Claim] = Field(default_factory=list)
    disputes: list[ScopedClaim] = Field(
        default_factory=list,
        description="Evidence in the chain that holds another value than this policy.",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def contested(self) -> bool:
        """True when rivals or disputes stand against the hit, or it is disputed."""
        return bool(self.rivals or self.disputes) or self.claim.disputed


class Check(BaseModel):
    """One doctor check. ``info`` marks a row that reports a setting (such as "no models
    loaded") rather than testing something; it is always ``ok``."""

    model_config = ConfigDict(frozen=True)

    name: str
    ok: bool
    detail: str
    info: bool = False
    remedy: str | None = Field(
        default=None, description="What to do about a failed check (a command or a setting)."
    )


class DoctorReport(BaseModel):
    """What ``doctor()`` found."""

    model_config = ConfigDict(frozen=True)

    checks: list[Check]

    @property
    def ok(self) -> bool:
        """True when every check passed (information rows always do)."""
        return all(c.ok for c in self.checks)
