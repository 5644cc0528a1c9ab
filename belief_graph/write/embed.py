"""``embed``: a vector for every claim of a namespace that has none.

Claims written with the models off carry no vector, so search and the nearest-claim look-up of
a models-on write never see them. This fills them in, a page at a time: read the next claims
without a vector (in id order), embed their sentences (outside any transaction), write the
vectors in one transaction, commit. A run that stops keeps every batch it committed, and the
next run starts from what is still missing; a claim that has a vector is never embedded again.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ConfigError
from ..models import EmbedResult
from ..semantic.embeddings import Embedder
from ..store import Store
from .apply import set_embeddings

EMBED_PAGE = 128
"""Claims per batch: one read, one model call, one transaction."""


def embed_missing(
    store: Store,
    embedder: Embedder,
    namespace: str,
    *,
    batch_size: int = EMBED_PAGE,
    progress: Callable[[int, int], None] | None = None,
) -> EmbedResult:
    """Embed ``namespace``'s claims without a vector (not erased), ``batch_size`` a batch, each
    batch committed on its own. ``progress`` is called with (claims done, claims found) after
    each batch. A model whose vectors the vector index cannot hold is refused before anything
    is written (``ConfigError`` naming the setting)."""
    found = int(store.read("read/unembedded_count", namespace=namespace)[0]["claims"])
    done = embedded = 0
    after = ""
    checked = False
    while True:
        rows = store.read_leader(
            "read/unembedded_list", namespace=namespace, after=after, limit=batch_size
        )
        if not rows:
            break
        vectors = embedder.embed([r["text"] for r in rows])
        if not checked:
            _fits_the_index(store, len(vectors[0]))
            checked = True
        embedded += set_embeddings(
            store,
            namespace,
            [
                {"id": r["id"], "text": r["text"], "embedding": v}
                for r, v in zip(rows, vectors, strict=True)
            ],
        )
        done += len(rows)
        after = rows[-1]["id"]
        if progress is not None:
            progress(min(done, found), found)
        if done >= found:  # claims written meanwhile are the next run's
            break
    remaining = int(store.read("read/unembedded_count", namespace=namespace)[0]["claims"])
    return EmbedResult(namespace=namespace, found=found, embedded=embedded, remaining=remaining)


def _fits_the_index(store: Store, dimensions: int) -> None:
    """Refuse vectors of another length than the vector index holds (Neo4j would store them and
    leave them out of the index: search would never find those claims)."""
    for row in store.read("admin/doctor_indexes"):
        if row["name"] == "claim_embedding" and row["dimensions"] not in (None, dimensions):
            raise ConfigError(
                f"BELIEF_GRAPH_EMBEDDING_MODEL: the model's vectors have {dimensions} "
                f"dimensions and the vector index claim_embedding holds {row['dimensions']}; "
                "embed with the model the index was made for"
            )
