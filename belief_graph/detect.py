"""Detect: how a draft relates to existing claims (reads and model scores only, no writes)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .identity import stated_value, values_match
from .policy import Frame, PairScores

if TYPE_CHECKING:  # the model modules pull in numpy; import them only where models are used
    from .semantic.contradiction import ContradictionScorer
    from .semantic.embeddings import Embedder


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


_WORD = re.compile(r"[\w.+#-]*\w[\w+#]*|\w")
_NEGATION = re.compile(
    r"\b(not|no longer|never|n't|stopped|quit|gave up|lost interest|dislikes?|hates?|"
    r"abandoned|dropped|moved away|left|ex-|formerly|used to|anymore)\b",
    re.IGNORECASE,
)


def frame(old: str, new: str) -> Frame:
    """How two sentences differ, by their words (a model-free check on top of the NLI score).

    ``value``: they share a beginning and differ in how they end (the same subject and relation,
    another value: "X was born in London" / "X was born in Paris"). ``predicate``: they share the
    end, so the value is the same and the relation differs ("X was born in London" / "X died in
    London"): two facts, not one fact changed. ``subject``: only the beginning differs ("X is a
    citizen of France" / "Y is a citizen of France"): two facts about two subjects. ``negated``:
    like ``predicate`` or ``subject`` but the new words negate ("Mom likes gardening" / "Mom lost
    interest in gardening"). ``same``: the same words. ``other``: no shared frame; only the
    models can tell.
    """
    a = [w.casefold() for w in _WORD.findall(old)]
    b = [w.casefold() for w in _WORD.findall(new)]
    if a == b:
        return "same"
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(a), len(b)) - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    before, after = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    if _NEGATION.search(" ".join(after)) and (prefix or suffix):
        return "negated"
    if prefix and (not suffix or suffix < prefix):
        # A word inside both changed spans, with changes on each side of it, means the change
        # runs across a word the two keep ("the capital of [Germany is Berlin]" / "[Soviet Union
        # is Moscow]"): a second subject, not a new value. At an edge it is part of the value
        # ("Catholic Church" / "Church of Scotland").
        return "subject" if _interior(before) & _interior(after) else "value"
    if prefix and suffix:
        return "predicate"
    if suffix:
        return "subject"
    return "other"


def _interior(words: list[str]) -> set[str]:
    return set(words[1:-1])


class Detector:
    """Scores a draft against existing claims: structure first, models when they are loaded.

    Contradiction scores are cached per (stored text, new text) pair, so a write that is planned
    again after a concurrent change does not pay for the model twice.
    """

    def __init__(
        self, embedder: Embedder | None = None, scorer: ContradictionScorer | None = None
    ) -> None:
        self.embedder = embedder
        self.scorer = scorer
        self._cache: dict[tuple[str, str], PairScores] = {}

    def embed(self, texts: Sequence[str]) -> list[list[float] | None]:
        """Embeddings of ``texts`` (one batch), or ``None`` each when no model is configured."""
        if self.embedder is None or not texts:
            return [None] * len(texts)
        return list(self.embedder.embed(list(texts)))

    def score(
        self,
        draft_object: str | None,
        draft_text: str,
        draft_embedding: Sequence[float] | None,
        existing: Sequence[Mapping[str, Any]],
        negated: bool = False,
    ) -> dict[str, PairScores]:
        """Scores against each claim row (``id``, ``object``, ``text``, ``negated``,
        ``embedding``).

        When both the draft and a row state a value (an object, or the value of a sentence
        ``identity.parse`` reads), the values decide identity (``values``, ``same_object``);
        the same value with the other polarity ``negates`` the row. Every row not the same
        value also gets embedding similarity and, with a scorer, P(contradiction) of (stored
        text, draft text): the models judge contradiction, never identity.
        """
        mine = stated_value(draft_object, draft_text)
        scores: dict[str, PairScores] = {}
        others = []
        for row in existing:
            theirs = stated_value(row.get("object"), row.get("text"))
            if mine is None or theirs is None:
                others.append(row)
                continue
            same = values_match(draft_object, mine, row.get("object"), theirs)
            flip = same and bool(row.get("negated", False)) != negated
            if same and not flip:
                scores[row["id"]] = PairScores(same_object=True, values=True)
            else:
                others.append(row)
                scores[row["id"]] = PairScores(values=True, negates=flip)
        for row_id, related in self.relate(draft_text, draft_embedding, others).items():
            known = scores.get(row_id)
            scores[row_id] = (
                related
                if known is None
                else replace(related, values=known.values, negates=known.negates)
            )
        return scores

    def relate(
        self,
        draft_text: str,
        draft_embedding: Sequence[float] | None,
        rows: Sequence[Mapping[str, Any]],
    ) -> dict[str, PairScores]:
        """Similarity and contradiction scores of a draft against claim rows."""
        similarity = {
            r["id"]: cosine(draft_embedding, r["embedding"])
            if draft_embedding is not None and r.get("embedding")
            else None
            for r in rows
        }
        todo = [
            (r["text"], draft_text)
            for r in rows
            if self.scorer is not None
            and r.get("text")
            and (r["text"], draft_text) not in self._cache
        ]
        if todo and self.scorer is not None:
            if len(self._cache) > 50_000:
                self._cache.clear()
            for pair, result in zip(todo, self.scorer.score(todo), strict=True):
                self._cache[pair] = PairScores(
                    contradiction=result.contradiction, entailment=result.entailment
                )
        scores: dict[str, PairScores] = {}
        for r in rows:
            cached = self._cache.get((r.get("text") or "", draft_text))
            scores[r["id"]] = PairScores(
                frame=frame(r["text"], draft_text) if r.get("text") else None,
                similarity=similarity[r["id"]],
                contradiction=cached.contradiction if cached else None,
                entailment=cached.entailment if cached else None,
            )
        return scores
