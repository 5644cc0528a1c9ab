"""The change model: what one write operation does to the graph, as plain data.

Every write operation (remember, contract, confirm, reject, rectify, rollback, erase) is decided
as one ``ChangeSet``; ``apply.py`` turns a list of them (a batch) into the write statements of a
single transaction. A ``ChangeSet`` is one Revision: its ``result`` is what the caller gets back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from ..identity import normalize_value, polarity
from ..models import Cardinality, Claim, ClaimDraft, Operation, RevisionResult, Verdict
from ..vocabulary import fold

SlotKey = tuple[str, str, str]  # (namespace, subject_key, predicate)
TEXT_PREDICATE = "statement"  # the predicate of a slot opened by a text-only claim

# Why a retired claim's dependents are flagged (the wording of their review reason).
Why = Literal["superseded", "closed", "retracted", "rectified", "erased"]


@dataclass
class SlotState:
    """A slot as read before the transaction (``seq`` is checked again under its lock) and as
    the plan changes it in memory, so later operations of a batch see earlier ones."""

    key: SlotKey
    subject: str | None
    cardinality: Cardinality
    slot_id: str
    seq: int
    versions: int
    head: str | None
    last_recorded_at: datetime | None
    last_revision: str | None
    claims: list[dict[str, Any]]  # active and pending claims, stored properties
    new: bool
    touched_by: str | None = None
    # Earlier versions still believed for their windows (superseded, not retracted): the
    # windows a late draft about the past is placed among.
    past: list[dict[str, Any]] = field(default_factory=list)
    # None: ``past`` holds every such version. A moment: every one whose window ends after it
    # (and the newest) is held, the others were left out: a draft that starts at or after it
    # needs none of them (docs/engine.md#a-facts-history-read-from-the-draft-on).
    past_since: datetime | None = None

    def copy(self, **changes: Any) -> SlotState:
        """A copy that a plan may change without changing this one (each claim's row copied),
        with ``changes``."""
        return replace(
            self,
            claims=[dict(c) for c in self.claims],
            past=[dict(c) for c in self.past],
            **changes,
        )

    def recent(self) -> SlotState:
        """This state, its past cut (in place) to the versions from the start of its newest
        window on, as the write path reads a slot (write/slot_states): what a client keeps of a
        fact it wrote, which would otherwise grow by a version each write."""
        since = max((r["valid_from"] for r in (*self.active, *self.past)), default=None)
        if since is None:
            return self
        self.past, left_out = past_from(self.past, since)
        if left_out is not None and (self.past_since is None or left_out > self.past_since):
            self.past_since = left_out
        return self

    @property
    def active(self) -> list[dict[str, Any]]:
        return [c for c in self.claims if c["status"] == "active"]

    def active_claims(self) -> list[Claim]:
        return [Claim.model_validate(row) for row in self.active]

    @property
    def waiting(self) -> list[dict[str, Any]]:
        return [c for c in self.claims if c["status"] == "pending"]

    @property
    def known(self) -> list[dict[str, Any]]:
        """Every claim believed for its window, as known now (active and superseded)."""
        return [*self.active, *self.past]

    def find(self, claim_id: str) -> dict[str, Any] | None:
        return next((c for c in (*self.claims, *self.past) if c["id"] == claim_id), None)

    def retire(self, row: dict[str, Any], status: str, valid_to: datetime | None) -> None:
        """Move an active claim out of the beliefs in memory (``past`` when superseded)."""
        self.claims.remove(row)
        if status == "superseded":
            end = valid_to if valid_to is not None else row.get("valid_to")
            self.past.append({**row, "status": status, "valid_to": end})


def past_from(
    past: list[dict[str, Any]], since: datetime
) -> tuple[list[dict[str, Any]], datetime | None]:
    """Of a fact's past versions, those whose window ends or starts at or after ``since``, and
    the newest (the fact's head when its last window has ended), as write/slot_states reads
    them; and the latest end among the others (None: none left out). A draft that starts at or
    after that end falls where it would among them all (write/timeline.py)."""
    top = max((r.get("version") or 0 for r in past), default=0)
    kept, ends = [], []
    for r in past:
        end = r.get("valid_to")
        if (
            end is None
            or end >= since
            or r["valid_from"] >= since
            or (r.get("version") or 0) == top
        ):
            kept.append(r)
        else:
            ends.append(end)
    return kept, max(ends, default=None)


@dataclass
class NewClaim:
    """A claim created in a slot, with its provenance episode and references."""

    slot_id: str
    props: dict[str, Any]
    episode_id: str | None = None
    episode_content: str | None = None
    depends_on: tuple[str, ...] = ()
    supports: tuple[str, ...] = ()


@dataclass
class Restore:
    """A retired claim back as a new claim with the same content (history is never rewritten):
    ``active`` (the belief again), ``superseded`` (an earlier version, for its window) or
    ``pending`` (a confirmed claim whose confirmation is rolled back waits again)."""

    id: str
    new_id: str
    valid_to: datetime | None
    version: int | None
    status: Literal["active", "superseded", "pending"] = "active"
    undoes: str | None = None  # the rolled-back revision: conflicts it settled reopen on the copy


@dataclass
class Retire:
    """A claim leaves the beliefs: ``superseded`` (its window closes at ``valid_to``),
    ``retracted`` (it was never true) or ``rejected`` (a pending claim a human turned down).
    ``why`` set: its direct dependents are flagged for review. A ``superseded`` retirement with
    ``valid_to`` None keeps the window the claim already had: an end is never moved."""

    id: str
    status: Literal["superseded", "retracted", "rejected"]
    previous_status: str
    previous_valid_to: datetime | None
    valid_to: datetime | None = None
    why: Why | None = None
    at: datetime | None = None  # when it was retired, if not the operation's time


@dataclass
class Reopen:
    """A claim that was never the belief returns to ``pending`` or ``rejected`` (rollback);
    ``previous``: its status before (recorded, so that a rollback of this one sets it back)."""

    id: str
    status: Literal["pending", "rejected"]
    previous: str | None = None


@dataclass
class Activate:
    """A pending claim becomes the belief (confirmed); a confirmed correction may start where
    the value it corrects started (``valid_from``). ``previous``: what it was while it waited
    (status, valid_from, contradiction, kind, disputes_policy), recorded on the ADDED edge so
    that a rollback makes it wait again as it did (``Deactivate``)."""

    id: str
    contradiction: bool
    version: int | None
    valid_from: datetime | None = None
    kind: str | None = None  # promoted: becomes a policy
    previous: dict[str, Any] | None = None


@dataclass
class Deactivate:
    """The rollback of an activation: the claim waits again, as it was before (``previous``:
    an ``Activate``'s), and a copy of it, ``record_id``, keeps what it was meanwhile: retracted
    now, believed from its acceptance until now (``as_of`` asked about that time answers as it
    did), holding its place in the version chain (its SUPERSEDES edge moves to the copy)."""

    id: str
    record_id: str
    kind: str  # what it is as the belief (a promote's: policy), for the rollback of this one
    previous: dict[str, Any]
    valid_from: datetime | None = None  # where it holds from as the belief, likewise


@dataclass
class Reinforce:
    """One more (``delta`` 1) or one fewer (``delta`` -1, a rollback) mention of a claim. A
    rollback sets ``confidence`` back, ``reinforced_at`` back to ``previous_at`` and unlinks
    ``episode_id`` when the reinforcement had linked it."""

    id: str
    delta: int
    confidence: float | None = None
    episode_id: str | None = None
    episode_content: str | None = None
    origin: str | None = None
    at: datetime | None = None  # when it was mentioned, if not the operation's time
    previous_confidence: float | None = None  # recorded on the Revision, for a rollback
    previous_at: datetime | None = None
    undoes: str | None = None  # a rollback: the revision whose episode link goes
    # Independent evidence after this mention (docs/policy.md) and the source type, raised when
    # a more trusted source restates the value; the values before, for a rollback.
    evidence: dict[str, Any] | None = None
    source_type: str | None = None
    previous_evidence: dict[str, Any] | None = None
    previous_source_type: str | None = None
    # A rollback's: what its REINFORCED edge records (the claim as the rollback found it, for
    # the rollback of the rollback), where the fields above say what it sets the claim back to.
    record: dict[str, Any] | None = None


@dataclass
class Demotion:
    """A policy demoted to disputed (flagged for a human, never deleted), or (``undo``) a
    demotion taken back."""

    id: str
    reason: str
    undo: bool = False


@dataclass
class Supersedes:
    """A version-chain edge: ``new`` SUPERSEDES ``old``."""

    new: str
    old: str
    verdict: str


# How a contradiction a belief won is recorded on its CONTRADICTS edge (closed at once): the
# reads name the claims behind such edges as what the belief contradicts
# (cypher/read/claim_overruled lists these strings).
NEWEST_WINS = "superseded: newest wins"
CORRECTED = "retracted: corrected"


@dataclass
class Contradiction:
    """A CONTRADICTS edge recorded (``dispute``: both sides are marked disputed while open)."""

    claim: str
    rival: str
    score: float | None
    dispute: bool
    resolution: str | None = None


@dataclass
class Settle:
    """Close the open conflicts around a claim (only the one with ``rival``, if given) with
    ``resolution``; a claim left without open conflicts is no longer disputed."""

    id: str
    resolution: str
    rival: str | None = None


@dataclass
class Repoint:
    """A reviewed dependent now depends on ``premise`` instead of the retired ``old`` one
    (``None``: instead of every premise that is no longer believed)."""

    id: str
    old: str | None
    premise: str


@dataclass
class Erasure:
    """Erase the content of claims (and the subject of slots), leaving tombstones: one batch
    of an erase (write/erasure.py)."""

    claim_ids: list[str]
    slot_ids: list[str]


@dataclass
class Merge:
    """A duplicate (``id``, retired by the same ChangeSet) folds into the claim that holds its
    fact (``into``): ``id`` SUPPORTS ``into``, and ``into`` takes ``id``'s provenance episodes,
    its dependents (``DEPENDS_ON`` in) and the claims it SUPPORTS. Every edge made is marked
    with the revision, so a rollback removes exactly those."""

    id: str
    into: str


@dataclass
class Assign:
    """Set properties of a claim (``None``: remove it): a consolidation takes a merged
    duplicate's number out of a broken chain, and its rollback sets every property it changed
    back as it was. ``restored``: the claim, retired by the consolidation, is a belief again."""

    id: str
    props: dict[str, Any]
    restored: bool = False


ASSIGNED_MOMENTS = ("valid_to", "superseded_at", "reinforced_at")
"""The moments an ``Assign`` may change (and its rollback set back): sent as ISO text and
written as DateTimes."""


@dataclass
class Unsettle:
    """A CONTRADICTS edge (``claim`` → ``rival``) that ``revision`` settled is open again, its
    ``settled_by`` back to ``previous``."""

    claim: str
    rival: str
    revision: str
    previous: str | None = None


@dataclass
class ChangeSet:
    """Everything one operation changes, and the Revision that records it."""

    revision_id: str
    namespace: str
    op: Operation
    decision: str
    reason: str
    at: datetime
    actor: str | None = None
    verdict: Verdict | None = None
    slot_id: str | None = None  # the slot the result names
    slot_ids: list[str] = field(default_factory=list)  # every slot the operation locked
    creates: list[NewClaim] = field(default_factory=list)
    restores: list[Restore] = field(default_factory=list)
    retires: list[Retire] = field(default_factory=list)
    reopens: list[Reopen] = field(default_factory=list)
    activations: list[Activate] = field(default_factory=list)
    reinforcements: list[Reinforce] = field(default_factory=list)
    supersedes: list[Supersedes] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    settles: list[Settle] = field(default_factory=list)
    flags: list[tuple[str, str]] = field(default_factory=list)  # (claim id, flag) raised
    clear_review_of: list[str] = field(default_factory=list)  # review flags this op lifts
    cleared_revision: str | None = None  # ... that this revision raised (None: any)
    repoints: list[Repoint] = field(default_factory=list)
    erasure: Erasure | None = None
    merges: list[Merge] = field(default_factory=list)
    disputes: list[tuple[str, bool]] = field(default_factory=list)  # (claim id, disputed) set
    raises: list[tuple[str, str]] = field(default_factory=list)  # (claim id, review reason) set
    assigns: list[Assign] = field(default_factory=list)
    unsettles: list[Unsettle] = field(default_factory=list)
    unlink: list[str] = field(default_factory=list)  # claims whose edges of a revision go ...
    unlinked_revision: str | None = None  # ... made by this revision
    undo: dict[str, Any] | None = None  # stored on the Revision: how to reverse it exactly
    undoes: str | None = None  # a rollback: the revision it reverses (stored on the Revision)
    demotions: list[Demotion] = field(default_factory=list)
    deactivations: list[Deactivate] = field(default_factory=list)
    # What this operation undid that its own rollback must do again, each a FLAGGED edge of its
    # Revision: {id, flag ('review_cleared', 'demotion_undone', 'dismissed', 'undismissed'),
    # and previous_reason, previous_revision or rival}.
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def added(self) -> list[str]:
        return [
            *(c.props["id"] for c in self.creates),
            *(a.id for a in self.activations),
            *(r.new_id for r in self.restores),
            *(d.record_id for d in self.deactivations),
        ]

    def join_chain(self, slot: SlotState, claim_id: str, verdict: str) -> int | None:
        """``claim_id`` becomes the newest version of ``slot``'s fact, superseding the chain's
        head; its version number (``None`` in a multi-valued fact, which has no chain)."""
        if slot.cardinality != "single":
            return None
        if slot.head is not None:
            self.supersedes.append(Supersedes(claim_id, slot.head, verdict))
        slot.versions += 1
        slot.head = claim_id
        return slot.versions

    def result(self, flagged: list[str] = ()) -> RevisionResult:  # type: ignore[assignment]
        """What the caller gets back; ``flagged``: dependents the apply step flagged."""
        retired = [r.id for r in self.retires]
        if self.erasure is not None:
            retired += self.erasure.claim_ids
        return RevisionResult(
            revision_id=self.revision_id,
            namespace=self.namespace,
            op=self.op,
            verdict=self.verdict,
            decision=self.decision,
            reason=self.reason,
            slot_id=self.slot_id,
            added=self.added,
            retired=retired,
            reinforced=[r.id for r in self.reinforcements],
            flagged=[*(i for i, _ in self.flags), *(i for i, _ in self.raises), *flagged],
            restored=[r.new_id for r in self.restores]
            + [r.id for r in self.reopens]
            + [d.id for d in self.deactivations]
            + [a.id for a in self.assigns if a.restored],
            contradicted=[
                x.rival for x in self.contradictions if x.resolution in (NEWEST_WINS, CORRECTED)
            ],
        )


def claim_properties(
    draft: ClaimDraft,
    claim_id: str,
    key: SlotKey,
    subject: str | None,
    *,
    status: str,
    version: int | None,
    contradiction: bool,
    disputed: bool,
    valid_from: datetime,
    recorded_at: datetime,
    embedding: list[float] | None,
    negated: bool | None = None,
) -> dict[str, Any]:
    """The stored properties of a new claim in slot ``key`` (absent values left out);
    ``negated``: its polarity when the caller has read it already."""
    props: dict[str, Any] = {
        "id": claim_id,
        "namespace": key[0],
        "subject": subject,
        "subject_key": key[1],
        "predicate": key[2],
        "predicate_text": draft.predicate,
        "object": draft.object,
        "object_key": normalize_value(draft.object) if draft.object is not None else None,
        "text": draft.text,
        "source_type": draft.source_type,
        "confidence": draft.confidence,
        "frequency": 1,
        "author": draft.author,
        "origin": draft.origin,
        "kind": draft.kind,
        "status": status,
        "version": version,
        "valid_from": valid_from,
        "valid_to": draft.valid_to,
        "recorded_at": recorded_at,
        "accepted_at": recorded_at if status in ("active", "superseded") else None,
        "contradiction": contradiction,
        "disputed": disputed,
        "needs_review": False,
        "negated": True
        if (
            negated
            if negated is not None
            else polarity(
                draft.negated,
                draft.text,
                draft.object,
                triple=" ".join(filter(None, (draft.subject, draft.predicate))),
            )
        )
        else None,
        "embedding": embedding,
        # A text-only claim of its own is about every subject it names: its text as names are
        # looked for in it (``fold``), so an erase of a subject finds it (write/erase_targets).
        "text_key": fold(draft.text) if key[1].startswith("text:") else None,
    }
    return {k: v for k, v in props.items() if v is not None}
