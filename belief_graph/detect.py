"""Detect: how a draft relates to the claims already in its slot (reads and model scores only)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .policy import PairScores
from .vocabulary import normalize_key

if TYPE_CHECKING:  # the model modules pull in numpy; import them only where models are used
    from .contradiction import ContradictionScorer
    from .embeddings import Embedder


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


class Detector:
    """Scores a draft against existing claims: structure first, models when they are loaded."""

    def __init__(self, embedder: Embedder | None = None, scorer: ContradictionScorer | None = None):
        self.embedder = embedder
        self.scorer = scorer

    def embed(self, text: str) -> list[float] | None:
        """The draft's embedding, or ``None`` when no embedding model is configured."""
        return self.embedder.embed([text])[0] if self.embedder else None

    def score(
        self,
        draft_object: str | None,
        draft_text: str,
        draft_embedding: Sequence[float] | None,
        existing: Sequence[Mapping[str, Any]],
    ) -> dict[str, PairScores]:
        """Scores against each existing claim row (id, object_key, text, embedding)."""
        key = normalize_key(draft_object) if draft_object is not None else None
        scores: dict[str, PairScores] = {}
        to_score: list[tuple[str, str]] = []
        for row in existing:
            same = key is not None and row.get("object_key") == key
            similarity = None
            if draft_embedding is not None and row.get("embedding"):
                similarity = cosine(draft_embedding, row["embedding"])
            scores[row["id"]] = PairScores(same_object=same, similarity=similarity)
            if not same and self.scorer is not None and row.get("text"):
                to_score.append((row["id"], row["text"]))
        if to_score and self.scorer is not None:
            results = self.scorer.score([(text, draft_text) for _, text in to_score])
            for (claim_id, _), result in zip(to_score, results, strict=True):
                base = scores[claim_id]
                scores[claim_id] = PairScores(
                    same_object=base.same_object,
                    similarity=base.similarity,
                    contradiction=result.contradiction,
                    entailment=result.entailment,
                )
        return scores
