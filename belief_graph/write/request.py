"""The request stage of ``remember``: a draft to remember with its revision id, the slot it
belongs to and its polarity."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from ..identity import polarity as read_polarity
from ..models import Cardinality, ClaimDraft, RevisionResult
from ..vocabulary import Vocabulary, normalize_key
from .changes import SlotKey


@dataclass
class Request:
    """One draft to remember, with its revision id (the idempotency key) and actor. ``fresh``:
    the engine drew the revision id for this call, so it cannot name a revision that ran.
    ``recorded_at``: the transaction time an import of history keeps (``import_history``: its
    revision is an ``import``); None, as for every other write, is the engine's clock."""

    draft: ClaimDraft
    revision_id: str
    actor: str | None = None
    fresh: bool = False
    recorded_at: datetime | None = None


@lru_cache(maxsize=4096)
def slot_key(
    vocabulary: Vocabulary,
    namespace: str,
    subject: str,
    predicate: str,
    obj: str | None = None,
    text: str | None = None,
) -> tuple[SlotKey, Cardinality]:
    """The slot a (subject, predicate) belongs to, and its cardinality: the predicate the
    phrase means for this subject and object (``Vocabulary.resolve``; ``text``: the sentence
    the object was said in). Remembered: a batch asks for each draft's several times, and a
    vocabulary never changes."""
    canonical, cardinality = vocabulary.resolve(predicate, subject, obj, text)
    return (namespace, normalize_key(subject), canonical), cardinality


def draft_slot(vocabulary: Vocabulary, draft: ClaimDraft) -> tuple[SlotKey, Cardinality]:
    """``slot_key`` of a structured draft."""
    assert draft.subject is not None and draft.predicate is not None
    return slot_key(
        vocabulary, draft.namespace, draft.subject, draft.predicate, draft.object, draft.text
    )


def polarity(draft: ClaimDraft) -> bool:
    """A draft's polarity: its ``negated``, else what its sentence says about its object
    (``identity.polarity``)."""
    return _polarity(draft.negated, draft.text, draft.object, draft.subject, draft.predicate)


@lru_cache(maxsize=4096)
def _polarity(
    negated: bool | None, text: str, obj: str | None, subject: str | None, predicate: str | None
) -> bool:
    # Remembered: planning a draft asks for it several times, and reading a sentence's frame is
    # the costliest step of planning a structured draft.
    triple = " ".join(filter(None, (subject, predicate)))
    return read_polarity(negated, text, obj, triple=triple)


def replayed(result: str) -> RevisionResult:
    """The stored result of a revision that already ran, marked as a replay."""
    return RevisionResult.model_validate_json(result).model_copy(update={"replayed": True})
