"""``search``: the claims whose sentence is nearest to a query, in one namespace.

The vector index is asked for a fetch of nearest claims, which the statement filters by
namespace, status and time; where too few survive, the fetch widens and the index is asked
again. Where the last reads under the same key had to widen, the next starts there
(``widening.py``).
"""

from __future__ import annotations

from datetime import datetime

from .. import cypher
from ..detect import Detector
from ..errors import ModelError
from ..models import Claim, SearchHit
from ..store import Row
from ..write.state import moments
from .context import ReadContext, asked

MAX_FETCH = 10_000  # the widest vector-index fetch one search makes
# The statuses each search mode may return; the in-index filter keeps the rest out of the fetch.
AS_OF_STATUSES = ["active", "superseded", "retracted"]
HISTORY_STATUSES = ["active", "superseded", "retracted", "pending", "rejected"]


def query_embedding(detector: Detector, query: str) -> list[float]:
    """``query``'s vector (``ModelError`` when no embedding model is loaded)."""
    if detector.embedder is None:
        raise ModelError("search needs an embedding model (connect with models=True)")
    embedding = detector.embed([query])[0]
    assert embedding is not None  # an embedder is loaded
    return embedding


def asked_when(
    now: datetime, history: bool, valid_at: datetime | None, known_at: datetime | None
) -> tuple[str, datetime, datetime]:
    """A search's mode and the (valid, known) moments it reads at, as ``as_of`` defines them."""
    mode = "history" if history else ("as_of" if valid_at or known_at else "current")
    valid, known = asked(now, valid_at, known_at)
    return mode, valid, known


def reach(found: Row, asked: int) -> int:
    """A search read's reach (``Widening``): as many claims as held its hits when it kept the
    ``asked`` it wanted (the statement's ``reach``), or, short of them, every one it fetched."""
    return int(found["reach"] if len(found["hits"]) >= asked else found["fetched"])


def nearest(
    reads: ReadContext,
    query: str,
    namespace: str,
    k: int,
    history: bool,
    valid_at: datetime | None,
    known_at: datetime | None,
) -> list[SearchHit]:
    """``BeliefGraph.search``."""
    embedding = query_embedding(reads.detector, query)
    now = reads.clock()
    mode, valid, known = asked_when(now, history, valid_at, known_at)
    store = reads.store.on(namespace)
    in_index = store.filters_in_vector_index()
    statement = cypher.variant("read/search_claims", in_index)
    # Never only k, even where every claim fetched is of this namespace: the fetch is the
    # HNSW search's beam, and LIMIT 10 for k=10 misses true neighbours that 30 finds
    # (recall 0.95 against 1.0 at 100k, docs/benchmarks.md), though it is 2 ms faster.
    fetch = reads.widening.start((namespace, mode), max(20, k * 3), 4, MAX_FETCH)
    vector = store.query_vector(embedding)
    while True:
        found = store.read(
            statement,
            namespace=namespace,
            statuses=HISTORY_STATUSES if mode == "history" else AS_OF_STATUSES,
            embedding=vector,
            fetch=fetch,
            k=k,
            mode=mode,
            now=now,
            valid_at=valid,
            known_at=known,
            walk_up_to=reads.tuning.walk_up_to,
        )
        # Widen until k hits survive the filter, the index has no more to give, or the fetch
        # reaches its cap. Without in-index filtering the index spans every namespace, and
        # another namespace's nearer sentences crowd this one's out; with it, only this
        # namespace's claims that the time test drops (superseded versions) are fetched.
        rows = found[0]["hits"]
        if len(rows) >= k or found[0]["fetched"] < fetch or fetch >= MAX_FETCH:
            break
        fetch = min(fetch * 4, MAX_FETCH)
    reads.widening.learned((namespace, mode), reach(found[0], k))
    hits = []
    for row in rows:
        rivals = {r["id"]: Claim.model_validate(r) for r in row["rivals"]}
        hits.append(
            SearchHit(
                claim=Claim.model_validate(moments(row["claim"])),
                score=row["score"],
                rivals=list(rivals.values()),
            )
        )
    return hits
