"""Detect: how a draft relates to existing claims (reads and model scores only, no writes)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from operator import mul
from typing import TYPE_CHECKING, Any

from .identity import denies, has_negation, shared_terms, stated_value, values_match
from .policy import Frame, PairScores, Unanswered

if TYPE_CHECKING:  # the model modules pull in numpy; import them only where models are used
    from .semantic.contradiction import ContradictionScorer
    from .semantic.embeddings import Embedder


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when either is all zeros)."""
    return _cosine(a, b, _length(a) * _length(b))


def _length(v: Sequence[float]) -> float:
    # map(mul) gives the products a generator would, in the same order, in 2/3 of the time.
    return math.sqrt(sum(map(mul, v, v)))


def _cosine(a: Sequence[float], b: Sequence[float], norm: float) -> float:
    """``cosine`` of ``a`` and ``b`` given the product of their lengths (``_length``)."""
    if len(a) != len(b):
        raise ValueError(f"vectors of {len(a)} and {len(b)} dimensions")
    dot = sum(map(mul, a, b))
    return dot / norm if norm else 0.0


def nearest(
    embedding: Sequence[float],
    rows: Sequence[Mapping[str, Any]],
    threshold: float,
    k: int,
    vectors: Vectors,
) -> list[tuple[float, int]]:
    """(similarity, index) of the ``k`` rows most similar to ``embedding`` with similarity >=
    ``threshold``, most similar first (ties in row order): exactly what sorting every row's
    ``cosine`` gives. numpy ranks the rows (``vectors`` keeps each row's vector by id across
    calls); ``cosine`` is then computed only for the rows numpy cannot rule out, so rounding in
    numpy never changes which rows are chosen."""
    if not rows:
        return []
    import numpy as np

    at = vectors.rows(rows)
    if len(embedding) != vectors.dim:
        raise ValueError(f"vectors of {len(embedding)} and {vectors.dim} dimensions")
    approx = vectors.units[at] @ _unit(np.asarray(embedding, np.float64))
    slack = 1e-9  # far above float64 rounding of a 384-term dot product
    floor = threshold - slack
    if len(approx) > k:
        floor = max(floor, float(np.partition(approx, len(approx) - k)[len(approx) - k]) - slack)
    length = _length(embedding)
    exact = [
        (similarity, i)
        for i in np.flatnonzero(approx >= floor).tolist()
        if (similarity := _cosine(embedding, rows[i]["embedding"], length * vectors.length(at[i])))
        >= threshold
    ]
    exact.sort(key=lambda t: -t[0])
    return exact[:k]


class Vectors:
    """Stored claims' embeddings as ``nearest`` ranks them, by claim id: each one's unit vector,
    a row of one matrix (a draft's pool is gathered from it, not stacked row by row), and its
    length as ``cosine`` computes it. A claim's embedding never changes, so an ingest keeps one
    ``Vectors`` for all its batches: its drafts' pools overlap from batch to batch. Past
    ``limit`` claims it starts again, which bounds its memory."""

    def __init__(self, limit: int = 4_096) -> None:
        self.limit = limit
        self._clear()

    def _clear(self) -> None:
        self.dim = 0
        self.units: Any = None
        self._at: dict[str, int] = {}
        self._lengths: list[float] = []

    def rows(self, rows: Sequence[Mapping[str, Any]]) -> list[int]:
        """The row of each of ``rows`` (claims with an ``id`` and an ``embedding``), in order."""
        new = {r["id"]: r["embedding"] for r in rows if r["id"] not in self._at}
        if new:
            if len(self._at) + len(new) > self.limit:
                self._clear()
                new = {r["id"]: r["embedding"] for r in rows}
            self._add(new)
        at = self._at
        return [at[r["id"]] for r in rows]

    def length(self, row: int) -> float:
        """The length of the vector at ``row``, as ``cosine`` computes it."""
        return self._lengths[row]

    def _add(self, embeddings: dict[str, Sequence[float]]) -> None:
        import numpy as np

        sizes = sorted({len(v) for v in embeddings.values()} | ({self.dim} if self.dim else set()))
        if len(sizes) > 1:
            raise ValueError(f"vectors of {sizes[0]} and {sizes[-1]} dimensions")
        block = np.asarray(list(embeddings.values()), dtype=np.float64)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        block = np.divide(block, norms, out=block, where=norms > 0)
        used = len(self._at)
        if self.units is None:
            self.dim = block.shape[1]
            self.units = np.empty((max(64, len(block)), self.dim))
        if used + len(block) > len(self.units):
            grown = np.empty((max(2 * len(self.units), used + len(block)), self.dim))
            grown[:used] = self.units[:used]
            self.units = grown
        self.units[used : used + len(block)] = block
        for i, (claim_id, embedding) in enumerate(embeddings.items()):
            self._at[claim_id] = used + i
            self._lengths.append(_length(embedding))


def _unit(vector: Any) -> Any:
    norm = float((vector @ vector) ** 0.5)
    return vector / norm if norm else vector


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


class _Deferred:
    """The pairs whose contradiction scores are expected to be read, scored together.

    ``wanted`` holds the pairs a caller expects to need for the draft in hand
    (``Detector.expect``), ``ahead`` those a batch's later drafts will likely need
    (``Detector.ahead``): when a decision first lacks a score (``Unanswered``), the caller
    runs the model once over that pair and every such pair still unscored (``Detector.answer``).
    """

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.wanted: dict[tuple[str, str], None] = {}
        self.ahead: dict[tuple[str, str], None] = {}

    def run(self, *first: tuple[str, str]) -> None:
        """Score ``first`` and every pair announced still unscored, in one model call."""
        cache = self.detector._cache
        todo = [p for p in dict.fromkeys([*first, *self.wanted, *self.ahead]) if p not in cache]
        self.wanted.clear()
        self.ahead.clear()
        self.detector._run(todo)


class LazyScores(PairScores):
    """``PairScores`` whose ``contradiction`` and ``entailment`` are the model's once it has
    scored the pair (``Detector.answer``): read before, they raise ``Unanswered``, and the
    caller scores the pair and decides again. The decision reads a pair's score only where it
    can change the outcome (a value of the slot, a candidate about the same subject in a frame
    that counts), so the model runs for those pairs only, and the outcome is the one scoring
    every pair gives; the decision itself never runs it."""

    def __init__(self, pair: tuple[str, str], deferred: _Deferred, **fields: Any) -> None:
        super().__init__(**fields)
        object.__setattr__(self, "_pending", (pair, deferred))

    def __getattribute__(self, name: str) -> Any:
        if name in ("contradiction", "entailment"):
            state = object.__getattribute__(self, "__dict__")
            pending = state.get("_pending")
            if pending is not None:
                pair, deferred = pending
                result = deferred.detector._cache.get(pair)
                if result is None:
                    raise Unanswered(pair)
                state["contradiction"] = result.contradiction
                state["entailment"] = result.entailment
                state["_pending"] = None
        return object.__getattribute__(self, name)

    def __repr__(self) -> str:
        pending = object.__getattribute__(self, "__dict__").get("_pending")
        if pending is not None:
            return f"LazyScores({pending[0]!r}, not scored yet)"
        return super().__repr__()

    @property
    def scored(self) -> bool:
        """Whether the model has been asked (or was not needed: no scorer)."""
        return object.__getattribute__(self, "__dict__").get("_pending") is None

    def pair(self) -> tuple[str, str] | None:
        pending = object.__getattribute__(self, "__dict__").get("_pending")
        return None if pending is None else pending[0]


class Detector:
    """Scores a draft against existing claims: structure first, models when they are loaded.

    Contradiction scores are cached per (stored text, new text) pair, so a write that is planned
    again after a concurrent change does not pay for the model twice. With ``lazy`` (the
    default) a pair's contradiction score is computed only when a decision lacks it
    (``LazyScores`` raise ``Unanswered``; the caller calls ``answer``), in one model call with
    the pairs announced by ``expect``; ``lazy=False`` scores every pair up front (the reference
    the lazy path is tested against).
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        scorer: ContradictionScorer | None = None,
        *,
        lazy: bool = True,
    ) -> None:
        self.embedder = embedder
        self.scorer = scorer
        self.lazy = lazy
        self._cache: dict[tuple[str, str], PairScores] = {}
        self._deferred = _Deferred(self)

    def _run(self, pairs: Sequence[tuple[str, str]]) -> None:
        """Score ``pairs`` in one model call into the cache."""
        if not pairs or self.scorer is None:
            return
        if len(self._cache) > 50_000:
            self._cache.clear()
        for pair, result in zip(pairs, self.scorer.score(pairs), strict=True):
            self._cache[pair] = PairScores(
                contradiction=result.contradiction, entailment=result.entailment
            )

    def answer(self, pair: tuple[str, str]) -> None:
        """Score ``pair`` (a decision lacked it: ``Unanswered``) and every pair announced still
        unscored, in one model call."""
        self._deferred.run(pair)

    def answer_all(self, scores: Sequence[PairScores]) -> None:
        """Score every pair of ``scores`` not scored yet, in one model call."""
        self._run(
            list(
                dict.fromkeys(
                    pair
                    for score in scores
                    if isinstance(score, LazyScores)
                    and (pair := score.pair()) is not None
                    and pair not in self._cache
                )
            )
        )

    def expect(self, scores: Sequence[PairScores]) -> None:
        """Announce scores the decision will likely read: the first it lacks scores them all in
        one model call (``answer``)."""
        for score in scores:
            if isinstance(score, LazyScores) and (pair := score.pair()) is not None:
                self._deferred.wanted[pair] = None

    def ahead(self, scores: Sequence[PairScores]) -> None:
        """Announce the scores a batch's drafts will likely read, before the first is decided:
        they are scored with the batch's first model call, not a call per draft (a model runs
        pairs together for less each). Replaces what was announced before (a new batch
        begins); ``forget`` keeps them."""
        self._deferred.wanted.clear()
        self._deferred.ahead = {
            pair: None
            for score in scores
            if isinstance(score, LazyScores) and (pair := score.pair()) is not None
        }

    def score_ahead(self) -> None:
        """Score the pairs announced now, not on first read (on a thread of its own while a
        read is on the server)."""
        self._deferred.run()

    def forget(self) -> None:
        """Drop the expectations announced for the draft before (a new draft begins)."""
        self._deferred.wanted.clear()

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
        known: dict[str, tuple[bool, bool]] = {}
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
                known[row["id"]] = (True, flip)
        for row_id, related in self.relate(
            draft_text,
            draft_embedding,
            others,
            known,
            negated=negated or has_negation(draft_object) if draft_object is not None else None,
        ).items():
            scores[row_id] = related
        return scores

    def relate(
        self,
        draft_text: str,
        draft_embedding: Sequence[float] | None,
        rows: Sequence[Mapping[str, Any]],
        known: Mapping[str, tuple[bool, bool]] | None = None,
        similarities: Mapping[str, float] | None = None,
        negated: bool | None = None,
    ) -> dict[str, PairScores]:
        """Similarity and contradiction scores of a draft against claim rows (``known``:
        ``(values, negates)`` per row id, as ``score`` found them; ``similarities``: the
        cosines already computed, by row id, as ``nearest`` gives them; ``negated``: whether a
        draft with an object negates, by its polarity or a value that denies ("none"), not by
        the negation words its sentence holds about another value)."""
        given = similarities or {}
        similarity = {
            r["id"]: given[r["id"]]
            if r["id"] in given
            else cosine(draft_embedding, r["embedding"])
            if draft_embedding is not None and r.get("embedding")
            else None
            for r in rows
        }
        if not self.lazy:
            self._run(
                list(
                    dict.fromkeys(
                        (r["text"], draft_text)
                        for r in rows
                        if r.get("text") and (r["text"], draft_text) not in self._cache
                    )
                )
            )
        scores: dict[str, PairScores] = {}
        for r in rows:
            values, negates = (known or {}).get(r["id"], (False, False))
            said = r.get("text") or ""
            framed = frame(said, draft_text) if said else None
            mine = has_negation(draft_text) if negated is None else negated
            claims = negated is not None and r.get("object") is not None
            theirs = (
                bool(r.get("negated")) or has_negation(r["object"])
                if r.get("object") is not None
                else has_negation(said)
            )
            fields: dict[str, Any] = {
                "values": values,
                "negates": negates,
                # Between two claims with objects, their polarities say what is negated.
                "frame": "other" if claims and framed == "negated" and mine == theirs else framed,
                "similarity": similarity[r["id"]],
                "denial": bool(said) and denies(said) != denies(draft_text),
                "negation": bool(said) and theirs != mine,
                "shared": bool(said) and bool(shared_terms(said, draft_text)),
            }
            pair = (r.get("text") or "", draft_text)
            cached = self._cache.get(pair)
            if cached is None and self.scorer is not None and r.get("text"):
                scores[r["id"]] = LazyScores(pair, self._deferred, **fields)
                continue
            scores[r["id"]] = PairScores(
                **fields,
                contradiction=cached.contradiction if cached else None,
                entailment=cached.entailment if cached else None,
            )
        return scores
