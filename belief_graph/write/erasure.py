"""An erase at any size, as plain data and pure decisions (``Writer.erase`` runs it, ``apply``
opens its transactions).

An erase is one Revision and many transactions. The Revision is written first, labelled
``Erasing`` and naming what the erase covers (a namespace, a subject, listed claims): from that
moment every read leaves it out (``read/hidden``) and every write to it is refused
(``write/apply``), however long the erase takes and whatever stops it halfway. Then batches of
claims lose their content (the write path's own erasure changes, a batch a transaction, small
enough for any server's transaction memory), the facts it covers become tombstones, the
caller's free text goes from every revision that held some about them, and a last transaction
finds nothing left, writes the result and takes the label off. A crash leaves the label and
what was done: the same ``erase`` called again finds the running erase and finishes it.
docs/engine.md, "Erase at any size", says why it is built so.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ..models import ErasureReport, RevisionResult
from ..vocabulary import fold, normalize_key
from .changes import ChangeSet, Erasure

ErasureScope = Literal["namespace", "subject", "claims"]

ERASE_BATCH = 1_000
"""Claims (or facts) an erase erases per transaction: far below what a transaction of the
launcher's default memory (1.4 GiB) holds, and few enough transactions for 100,000 claims."""

# Operations whose revision reasons the engine writes itself (fixed phrases and ids, never the
# caller's words): an erase leaves them. Every other operation's reason may hold anything.
ENGINE_REASONS = frozenset({"remember", "import", "confirm", "reject", "rectify", "rollback"})
# The free text an undo record (a consolidation's) copies from a claim.
_UNDO_TEXT = ("review_reason",)


def mention(subject: str) -> str:
    """A pattern (Neo4j's Java regex) matching a claim's ``text_key`` (its text as ``fold``
    makes it) that names ``subject`` as whole words, the subject folded the same way: how a
    text-only claim is tied to the subjects it is about."""
    return _words_pattern(fold(normalize_key(subject)).split())


def legacy_mention(subject: str) -> str:
    """``mention`` for a claim stored before ``text_key`` was (matched on its lower-cased text,
    Cypher's ``toLower``): the subject lower-cased the same way (not folded)."""
    return _words_pattern(unicodedata.normalize("NFC", subject).lower().split())


def _words_pattern(words: list[str]) -> str:
    edge = "[\\p{L}\\p{N}_]"
    return f"(?s).*(?<!{edge})" + "\\s+".join(re.escape(w) for w in words) + f"(?!{edge}).*"


@dataclass(frozen=True)
class Job:
    """What one erase covers: ``scope``, and the subject's key and patterns (``mention`` on the
    folded text of a text-only claim, ``legacy`` on the lower-cased text of one stored before
    text was folded) or the listed ``ids``."""

    namespace: str
    scope: ErasureScope
    key: str | None = None
    mention: str | None = None
    legacy: str | None = None
    ids: tuple[str, ...] | None = None

    def params(self) -> dict[str, Any]:
        """The parameters ``write/erase_targets`` and ``write/erase_slots`` select by."""
        return {
            "namespace": self.namespace,
            "scope": self.scope,
            "key": self.key,
            "mention": self.mention,
            "legacy": self.legacy,
            "ids": list(self.ids) if self.ids is not None else None,
        }

    def same(self, running: Mapping[str, Any]) -> bool:
        """Whether ``running`` (a row of ``write/erase_running``) is an erase of this scope."""
        ids = running.get("ids")
        return (
            running.get("scope") == self.scope
            and running.get("key") == self.key
            and (sorted(ids) if ids is not None else None)
            == (sorted(self.ids) if self.ids is not None else None)
        )

    @property
    def reason(self) -> str:
        return f"erased a {self.scope} (GDPR Art. 17)"


def batch(namespace: str, rid: str, at: datetime, claim_ids: list[str]) -> ChangeSet:
    """One batch of an erase as the write path's change: the claims lose their content, their
    open conflicts close, their dependents are flagged (apply writes the erase's Revision edges,
    not a Revision of its own)."""
    return ChangeSet(
        revision_id=rid,
        namespace=namespace,
        op="erase",
        decision="erase",
        reason="",
        at=at,
        erasure=Erasure(sorted(claim_ids), []),
    )


def started(job: Job, rid: str) -> RevisionResult:
    """The stored result of an erase while it runs (a replay of it resumes it instead)."""
    return RevisionResult(
        revision_id=rid, namespace=job.namespace, op="erase", decision="erase", reason=job.reason
    )


def finished(
    job: Job, rid: str, outcome: Mapping[str, Any], *, scrubbed: int, resumed: bool
) -> RevisionResult:
    """The result of a finished erase from what its Revision's edges say it erased
    (``write/erase_outcome``)."""
    return RevisionResult(
        revision_id=rid,
        namespace=job.namespace,
        op="erase",
        decision="erase",
        reason=job.reason,
        retired=sorted(outcome["retired"]),
        flagged=sorted(outcome["flagged"]),
        erasure=ErasureReport(
            scope=job.scope,
            claims=len(outcome["retired"]),
            facts=outcome["tombstones"],
            episodes=outcome["episodes"],
            revisions=scrubbed,
            resumed=resumed,
        ),
    )


def scrub(
    rows: Iterable[Mapping[str, Any]],
    rid: str,
    erased: set[str],
    slots: set[str],
    whole: bool,
) -> tuple[list[dict[str, Any]], int]:
    """Of a page of revisions (``write/erase_revisions``), those holding caller text about what
    erase ``rid`` erased, each as it must be rewritten (``write/erase_scrub``); and how many of
    the page hold none any more (rewritten now, or before this erase was resumed). About what it
    erased: every revision of a namespace erased whole; else one linked to an erased claim, made
    on one of the facts the erase touched, or whose undo record copies an erased claim."""
    replacement = f"erased by revision {rid}"
    out: list[dict[str, Any]] = []
    done = 0
    for row in rows:
        undo = json.loads(row["undo"]) if row.get("undo") else None
        copied = set((undo or {}).get("claims", {})) & erased if undo else set()
        linked = not erased.isdisjoint(row["claims"])
        about = whole or linked or bool(slots & set(row["slot_ids"])) or bool(copied)
        if not about:
            continue
        reason = row.get("reason") or ""
        rewrite_reason = row["op"] not in ENGINE_REASONS and reason not in ("", replacement)
        new_undo = _scrubbed_undo(undo, None if whole else erased) if undo else None
        if not rewrite_reason and new_undo == undo:
            done += reason == replacement
            continue
        result = row.get("result")
        if rewrite_reason and result:
            result = (
                RevisionResult.model_validate_json(result)
                .model_copy(update={"reason": replacement})
                .model_dump_json()
            )
        out.append(
            {
                "id": row["id"],
                "reason": replacement if rewrite_reason else reason,
                "result": result,
                "undo": json.dumps(new_undo, sort_keys=True) if new_undo is not None else None,
            }
        )
    return out, done + len(out)


def _scrubbed_undo(undo: dict[str, Any], erased: set[str] | None) -> dict[str, Any]:
    """``undo`` without the free text it copied from the claims ``erased`` (None: all)."""
    claims = {
        cid: {
            k: (None if k in _UNDO_TEXT and (erased is None or cid in erased) else v)
            for k, v in props.items()
        }
        for cid, props in undo.get("claims", {}).items()
    }
    return {**undo, "claims": claims}
