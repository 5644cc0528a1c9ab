"""Claim import: JSON Lines of drafts, one per line, through ``ingest`` (or one at a time)."""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BeliefGraphError

if TYPE_CHECKING:
    from pydantic import ValidationError

    from ..client import BeliefGraph
    from ..models import ClaimDraft, RevisionResult


class ImportLineError(BeliefGraphError):
    """One line of a claim import failed; the lines before it are stored, nothing of it is."""

    def __init__(self, line: int, message: str, done: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.done = done


def describe_validation(exc: ValidationError) -> str:
    """The first problem of a pydantic error as ``field: message`` (one line)."""
    errors = exc.errors()
    if not errors:
        return str(exc).splitlines()[0]
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or exc.title
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"


# -- claim import ------------------------------------------------------------------------------


@dataclass
class ImportStats:
    """What a claim import did."""

    lines: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    batched: bool = False
    replayed: int = 0
    # Drafts verification refused (docs/policy.md): line number, claim id, why.
    refused: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Claims per second."""
        return self.lines / self.seconds if self.seconds > 0 else 0.0

    def count(self, result: RevisionResult, line: int | None = None) -> None:
        """Tally one result (``line``: its line in the file, for a refusal)."""
        if result.replayed:
            self.replayed += 1
            return
        self.verdicts[result.verdict or "none"] += 1
        self.decisions[result.decision] += 1
        if result.decision == "refuse":
            self.refused.append(
                {"line": line, "claim_id": result.claim_id, "reason": result.reason}
            )

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly summary."""
        return {
            "claims": self.lines,
            "verdicts": dict(self.verdicts),
            "decisions": dict(self.decisions),
            "seconds": round(self.seconds, 3),
            "claims_per_second": round(self.rate, 1),
            "batched": self.batched,
            "replayed": self.replayed,
            "refused": self.refused,
        }


def parse_draft(
    line: str, number: int, namespace: str | None, done: int, *, history: bool = False
) -> ClaimDraft:
    """One JSONL line as a ``ClaimDraft`` (``namespace`` fills in a missing one); with
    ``history``, a ``HistoricalDraft`` (its ``recorded_at`` kept: ``import_history``)."""
    from pydantic import ValidationError

    from ..models import ClaimDraft, HistoricalDraft

    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ImportLineError(number, f"not valid JSON ({exc.msg})", done) from exc
    if not isinstance(data, dict):
        raise ImportLineError(number, "expected a JSON object (one claim)", done)
    if namespace is not None:
        data.setdefault("namespace", namespace)
    try:
        return (HistoricalDraft if history else ClaimDraft).model_validate(data)
    except ValidationError as exc:
        raise ImportLineError(number, describe_validation(exc), done) from exc


def _numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, line


def import_claims(
    bg: BeliefGraph,
    lines: Iterable[str],
    *,
    namespace: str | None = None,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    use_ingest: bool = True,
    source: str | None = None,
    history_by: str | None = None,
) -> ImportStats:
    """Remember every JSONL line in order; stop at the first bad line with its number.

    ``history_by``: the lines are history, each keeping its ``recorded_at``, imported through
    ``bg.import_history`` by that actor (each revision an audited ``import``).

    Lines before a bad one stay stored; nothing of the bad line is. With ``source`` (the file's
    path) each line's revision id is derived from the source, the line's number and its text, so
    running the same import again — after fixing a bad line — replays the lines already stored
    instead of applying them twice. ``bg.ingest`` (one transaction per batch of ``batch_size``,
    by default ``bg.default_batch_size``) is used when the engine has it and ``use_ingest``: the
    file is parsed one batch ahead, and a batch the engine refuses is replayed a claim at a
    time, so the error still names its line and keeps the lines before it. ``progress`` gets
    increments.
    """
    stats = ImportStats()
    started = time.perf_counter()
    ingest, remember = _writers(bg, history_by)
    if not use_ingest:
        ingest = None
    history = history_by is not None
    batch_size = batch_size or bg.default_batch_size
    try:
        if ingest is not None:
            stats.batched = True
            _import_batched(
                remember, ingest, lines, namespace, batch_size, progress, stats, source, history
            )
        else:
            for number, line in _numbered(lines):
                draft = parse_draft(line, number, namespace, stats.lines, history=history)
                rid = line_revision_id(source, number, line)
                _remember_each(remember, [(number, draft, rid)], progress, stats)
    finally:
        stats.seconds = time.perf_counter() - started
    return stats


def _writers(
    bg: BeliefGraph, history_by: str | None
) -> tuple[Callable[..., list[RevisionResult]] | None, Callable[[Any, str | None], RevisionResult]]:
    """How lines are written in batches (None: the engine has no batch write) and one by one:
    ``ingest`` and ``remember``, or, for history, ``import_history`` by ``history_by``."""
    if history_by is None:
        return getattr(bg, "ingest", None), lambda draft, rid: bg.remember(draft, revision_id=rid)
    actor = history_by

    def batch(drafts: list[Any], **options: Any) -> list[RevisionResult]:
        return bg.import_history(drafts, actor=actor, **options)

    def one(draft: Any, rid: str | None) -> RevisionResult:
        ids = [rid] if rid is not None else None
        return bg.import_history([draft], actor=actor, revision_ids=ids)[0]

    return batch, one


def line_revision_id(source: str | None, number: int, line: str) -> str | None:
    """The revision id of one imported line: the same for the same line at the same place of
    the same file, so an import run again applies each line once (``None`` without a source)."""
    if source is None:
        return None
    digest = hashlib.sha256(f"{source}\0{number}\0{line.strip()}".encode()).hexdigest()
    return f"import:{digest[:40]}"


def _import_batched(
    remember: Callable[[Any, str | None], RevisionResult],
    ingest: Callable[..., Any],
    lines: Iterable[str],
    namespace: str | None,
    batch_size: int,
    progress: Callable[[int], None] | None,
    stats: ImportStats,
    source: str | None,
    history: bool,
) -> None:
    numbered = _numbered(lines)
    while True:
        chunk: list[tuple[int, ClaimDraft, str | None]] = []
        bad: ImportLineError | None = None
        for number, line in numbered:
            try:
                draft = parse_draft(line, number, namespace, stats.lines, history=history)
                chunk.append((number, draft, line_revision_id(source, number, line)))
            except ImportLineError as exc:
                bad = exc
                break
            if len(chunk) >= batch_size:
                break
        if chunk:
            reported = 0

            def advance(done: int) -> None:
                nonlocal reported
                if progress is not None:
                    progress(done - reported)
                reported = done

            try:
                # One chunk is one batch, hence one transaction: a refusal leaves none of it.
                ids = [rid for _, _, rid in chunk]
                results = ingest(
                    [d for _, d, _ in chunk],
                    batch_size=batch_size,
                    progress=advance,
                    revision_ids=ids if source is not None else None,
                )
            except (BeliefGraphError, ValueError, NotImplementedError):
                # Replay the chunk a claim at a time to keep its good prefix and name the line.
                _remember_each(remember, chunk, progress, stats)
            else:
                for (number, _, _), result in zip(chunk, results, strict=True):
                    stats.count(result, number)
                stats.lines += len(chunk)
        if bad is not None:
            bad.done = stats.lines
            raise bad
        if not chunk:
            return


def _remember_each(
    remember: Callable[[Any, str | None], RevisionResult],
    chunk: Iterable[tuple[int, ClaimDraft, str | None]],
    progress: Callable[[int], None] | None,
    stats: ImportStats,
) -> None:
    for number, draft, rid in chunk:
        try:
            result = remember(draft, rid)
        except (BeliefGraphError, ValueError, NotImplementedError) as exc:
            raise ImportLineError(number, str(exc), stats.lines) from exc
        stats.count(result, number)
        stats.lines += 1
        if progress is not None:
            progress(1)
