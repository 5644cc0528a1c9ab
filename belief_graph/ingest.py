"""The ingest pipeline: many drafts remembered in order, a batch a transaction (``ingest`` and
``import_history``).

Each draft becomes a request, its repeated ids and a missing revision id refused by name before
its batch is written. On one database the batches are pipelined (``Writer.ingest``: the next is
planned while this one's statement runs); where namespaces are routed to several databases, each
batch is remembered on its own. A refused batch names the index of its first draft.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from datetime import datetime

from .errors import BeliefGraphError
from .models import ClaimDraft, HistoricalDraft, RevisionResult
from .write.bulk import fewer_full_collections
from .write.remember import Request

INGEST_BATCH = 500
"""Drafts per transaction of a structural ``ingest``: the server's cost per draft falls with
the batch."""
INGEST_BATCH_WITH_MODELS = 100
"""Drafts per transaction of an ``ingest`` with a contradiction model: 1.4x the drafts/s of
500 on the project's benchmark stream."""


def default_batch(with_models: bool) -> int:
    """Drafts per transaction of an ``ingest`` given none: with a contradiction model a batch's
    drafts look for contradictions among each other's neighbours, a cost that grows with the
    batch (docs/benchmarks.md, "The models-on ingest in one call")."""
    return INGEST_BATCH_WITH_MODELS if with_models else INGEST_BATCH


Drafts = Iterable[ClaimDraft] | Iterable[tuple[ClaimDraft, datetime | None]]
"""Drafts, or drafts each with the transaction time it keeps (``import_history``)."""


def in_batches(
    drafts: Drafts,
    batch_size: int,
    revision_ids: Iterable[str] | None,
    actor: str | None,
    progress: Callable[[int], None] | None,
    *,
    new_id: Callable[[], str],
    remember: Callable[[Sequence[Request]], list[RevisionResult]],
    pipeline: Callable[[Iterator[list[Request]]], Iterator[list[RevisionResult]]] | None,
) -> list[RevisionResult]:
    """``BeliefGraph.ingest``'s work, its arguments checked: ``remember`` writes one batch;
    ``pipeline``, where there is one (a single database), writes them all, planning the next
    batch while one's statement runs."""
    # A bulk write: the collector's full passes would take up to a fifth of it (write/bulk.py).
    with fewer_full_collections():
        requests = requests_of(drafts, revision_ids, actor, new_id)
        if isinstance(drafts, Sized):
            requests = iter(list(requests))
        results: list[RevisionResult] = []
        pending: list[Request] = []

        def flush() -> None:
            try:
                results.extend(remember(pending))
            except BeliefGraphError as exc:
                index = len(results)
                raise type(exc)(f"draft {index} (or a later one in its batch): {exc}") from exc
            pending.clear()
            if progress is not None:
                progress(len(results))

        if pipeline is not None:
            _pipelined(pipeline(_batches(requests, batch_size)), results, progress)
            return results
        for request in requests:
            pending.append(request)
            if len(pending) >= batch_size:
                flush()
        if pending:
            flush()
        return results


def _pipelined(
    done: Iterator[list[RevisionResult]],
    results: list[RevisionResult],
    progress: Callable[[int], None] | None,
) -> None:
    """The pipeline's batches as they land, their results added to ``results``."""
    while True:
        try:
            landed = next(done, None)
        except BeliefGraphError as exc:
            index = len(results)
            raise type(exc)(f"draft {index} (or a later one in its batch): {exc}") from exc
        if landed is None:
            return
        results.extend(landed)
        if progress is not None:
            progress(len(results))


def requests_of(
    drafts: Drafts,
    revision_ids: Iterable[str] | None,
    actor: str | None,
    new_id: Callable[[], str],
) -> Iterator[Request]:
    """One request per draft, refusing repeated ids and a missing revision id by name (the
    database would refuse them too, but mid-batch and in its own words); without
    ``revision_ids``, each draft's drawn by ``new_id``. A draft may come with the
    transaction time it keeps (an import of history)."""
    ids = iter(revision_ids) if revision_ids is not None else None
    claims: dict[str, int] = {}
    revisions: dict[str, int] = {}
    count = 0
    for index, item in enumerate(drafts):
        draft, recorded_at = item if isinstance(item, tuple) else (item, None)
        no_stamp_dropped(draft, recorded_at, f"drafts[{index}]")
        count += 1
        if draft.id is not None and claims.setdefault(draft.id, index) != index:
            raise ValueError(
                f"id: drafts {claims[draft.id]} and {index} both give the claim id "
                f"{draft.id!r}; a claim id names one claim"
            )
        if ids is None:
            yield Request(draft, new_id(), actor, fresh=True, recorded_at=recorded_at)
            continue
        rid = next(ids, None)
        if rid is None:
            raise ValueError(f"revision_ids: no id left for draft {index}; give one per draft")
        if revisions.setdefault(rid, index) != index:
            raise ValueError(
                f"revision_ids: {rid!r} is given to drafts {revisions[rid]} and {index}; give "
                "each draft its own (a repeated id would replay the first draft's result)"
            )
        yield Request(draft, rid, actor, recorded_at=recorded_at)
    if ids is not None and next(ids, None) is not None:
        raise ValueError(f"revision_ids: more ids than the {count} drafts; give one per draft")


def stamped(drafts: Iterable[HistoricalDraft]) -> Drafts:
    """Each draft with the transaction time it keeps; a list checked whole before anything is
    written, as ``ingest`` checks one."""
    found: Iterable[tuple[ClaimDraft, datetime | None]] = (
        (draft, draft.recorded_at) for draft in drafts
    )
    return list(found) if isinstance(drafts, Sized) else found


def no_stamp_dropped(draft: ClaimDraft, recorded_at: datetime | None, where: str) -> None:
    """Refuse a ``HistoricalDraft`` outside ``import_history``: its stamp would be dropped in
    silence (the engine's clock stamps every other write)."""
    if recorded_at is None and isinstance(draft, HistoricalDraft):
        raise ValueError(
            f"{where}: a HistoricalDraft keeps its recorded_at only through import_history; "
            "give remember and ingest a ClaimDraft (the engine's clock stamps it)"
        )


def _batches(requests: Iterable[Request], size: int) -> Iterator[list[Request]]:
    """``requests`` in lists of ``size`` (the last may be shorter)."""
    pending: list[Request] = []
    for request in requests:
        pending.append(request)
        if len(pending) >= size:
            yield pending
            pending = []
    if pending:
        yield pending
