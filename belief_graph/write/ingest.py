"""An ingest's pipeline: batch after batch as ``Writer.remember`` would, the next batch read
and planned while the statement of the one before runs on the server."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from ..detect import Vectors
from ..models import RevisionResult
from ..store import StaleSlot, Store
from .apply import AtOnce, Planned, at_once, in_order, send
from .changes import ChangeSet, SlotKey, SlotState
from .remember import PastNeeded, Remember, Request, after_apply
from .state import State


@dataclass
class _Flight:
    """A planned batch of a pipelined ingest, and its statement once sent."""

    requests: Sequence[Request]
    state: State
    planned: Planned
    after: dict[SlotKey, SlotState]
    statement: AtOnce | None  # None when nothing is to be written
    future: Future[list[RevisionResult]] | None = None


@dataclass
class _Upcoming:
    """The batch after the one being planned, its read begun (``read``: None when it cannot be
    read ahead) while ``unwritten`` was still in flight; or the error taking it from the
    stream gave (raised when its turn comes, once the batches before it are written)."""

    requests: Sequence[Request] | None
    read: Future[tuple[Remember, State]] | None = None
    unwritten: _Flight | None = None
    error: Exception | None = None


def _embedded(coming: _Upcoming | None) -> Remember | None:
    """The batch as read ahead, when it was (its embeddings made), else None."""
    if coming is None or coming.read is None:
        return None
    try:
        return coming.read.result()[0]
    except Exception:  # the general path meets the error again, in its turn
        return None


def _land(flight: _Flight) -> list[RevisionResult] | None:
    """The results of a batch in flight once its statement committed; None when it was refused
    (a slot changed, or a revision of it ran, since it was planned)."""
    assert flight.future is not None
    try:
        return in_order(flight.planned, flight.future.result())
    except StaleSlot:
        return None


class Ingest:
    """One ``ingest``, on a writer's seams: ``remember`` (a batch written the general way),
    ``batch`` (a ``Remember`` of some requests) and ``store``; ``models``: a contradiction
    model is on (the batch after the next is read ahead too); ``one_trip`` and
    ``walk_up_to``: the writer's ``Tuning``."""

    def __init__(
        self,
        store: Store,
        *,
        remember: Callable[..., list[RevisionResult]],
        batch: Callable[..., Remember],
        models: bool,
        one_trip: bool,
        walk_up_to: int,
    ) -> None:
        self.store = store
        self.remember = remember
        self.batch = batch
        self.models = models
        self.one_trip = one_trip
        self.walk_up_to = walk_up_to

    def run(self, batches: Iterable[Sequence[Request]]) -> Iterator[list[RevisionResult]]:
        """Remember batch after batch, each as ``Writer.remember`` would, the results of each batch
        in order; pipelined: while a batch's statement runs on the server, the next one is read
        and planned here, its slots shared with the batch in flight taken from that batch's plan
        (``after_apply``) instead of read. With the models on, the batch after that is read
        meanwhile too (its embeddings, its neighbours' look-ups and its slots, on a thread of
        its own), and brought up to the two batches written since by ``Remember.adopt``. The
        next statement is sent only when the one in flight has committed, so the seq check sees
        the state it was planned on. When the one in flight is refused (another writer came in
        between), it runs again the general way and so does the next, planned on a state that
        never was; so does a batch read ahead that ``adopt`` cannot bring up to date. A refusal
        while planning the next batch (or an error taking it from ``batches``) is raised once
        the batch in flight has committed and its results are out."""
        source = iter(batches)
        vectors = Vectors()
        flight: _Flight | None = None  # the batch whose statement is on the server
        last: _Flight | None = None  # the batch planned before this one (None: not ahead)
        upcoming: _Upcoming | None = None
        with (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest") as pool,
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-read") as reader,
        ):
            while True:
                ahead: _Flight | None = None
                error: BaseException | None = None
                requests: Sequence[Request] | None = None
                try:
                    coming, upcoming = upcoming, None
                    if coming is not None and coming.error is not None:
                        raise coming.error
                    requests = coming.requests if coming else next(source, None)
                    if requests is not None and self._pipelined(requests):
                        if self.models:
                            upcoming = self._read_next(source, reader, flight, vectors)
                        ahead = self._plan_ahead(requests, flight, last, coming, vectors)
                except Exception as exc:  # raised once the batch in flight is out
                    error = exc
                last = ahead
                if flight is not None:
                    landed = _land(flight)
                    if landed is None:
                        landed = self.remember(flight.requests, ingested=True, vectors=vectors)
                        ahead, last, error = None, None, None
                    yield landed
                    flight = None
                if error is not None:
                    raise error
                if requests is None:
                    return
                if ahead is None:
                    yield self.remember(requests, _embedded(coming), ingested=True, vectors=vectors)
                elif ahead.statement is None:
                    yield in_order(ahead.planned, [])
                else:
                    ahead.future = pool.submit(send, self.store, ahead.statement)
                    flight = ahead

    def _pipelined(self, requests: Sequence[Request]) -> bool:
        return self.one_trip and all(
            r.draft.subject is not None
            and r.draft.predicate is not None
            and not r.draft.depends_on
            and not r.draft.supports
            and r.draft.id is None
            for r in requests
        )

    def _read_next(
        self,
        source: Iterator[Sequence[Request]],
        reader: ThreadPoolExecutor,
        flight: _Flight | None,
        vectors: Vectors,
    ) -> _Upcoming | None:
        """The next batch from ``source``, its read begun on ``reader`` when it can be read
        ahead (``flight``: the batch on the server meanwhile)."""
        try:
            requests = next(source, None)
        except Exception as exc:
            return _Upcoming(None, error=exc)
        if requests is None:
            return None
        pipelined = self._pipelined(requests)
        read = reader.submit(self._read_ahead, requests, vectors) if pipelined else None
        return _Upcoming(requests, read, flight)

    def _read_ahead(self, requests: Sequence[Request], vectors: Vectors) -> tuple[Remember, State]:
        batch = self.batch(requests, vectors, ahead=True)
        return batch, batch.read()

    def _plan_ahead(
        self,
        requests: Sequence[Request],
        flight: _Flight | None,
        last: _Flight | None,
        coming: _Upcoming | None,
        vectors: Vectors,
    ) -> _Flight | None:
        """Read and plan a batch on the state the batch in flight leaves (``last``: the batch
        planned before this one; ``coming``: this batch as read ahead). None when it must wait
        for the batch in flight to be written."""
        if not self.models:
            # Structural: only the drafts' own slots, those in flight taken from its plan.
            batch = self.batch(requests, after=flight.after if flight is not None else None)
            state = batch.read()
        elif coming is not None and coming.read is not None and last is not None:
            batch, state = coming.read.result()
            written = {**(coming.unwritten.after if coming.unwritten else {}), **last.after}
            if not batch.adopt(state, written):
                return None
        elif flight is None:
            # Nothing on the server: read now, with the embeddings a read ahead made.
            batch = _embedded(coming) or self.batch(requests, vectors)
            state = batch.read()
        else:
            return None
        try:
            planned = batch.plan(state)
        except PastNeeded:  # a draft placed before its slot's past as read: read it whole
            return None
        changes = [p for p in planned if isinstance(p, ChangeSet)]
        # Its statement is built here too, while the batch before it is on the server.
        statement = at_once(state, changes, self.walk_up_to) if changes else None
        return _Flight(requests, state, planned, after_apply(state), statement)
