"""The word-frame check, the text-only matching rule and lazy contradiction scores (pure, no
database, no model: a counting stand-in scorer)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from belief_graph.detect import Detector, Vectors, cosine, frame, nearest
from belief_graph.policy import (
    Candidate,
    PairScores,
    Policy,
    Unanswered,
    contradicted,
    match_text,
)
from belief_graph.semantic.contradiction import PairScore


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Thomas Kyd was born in London.", "Thomas Kyd was born in Paris.", "value"),
        ("Priya lives in Lisbon.", "Priya moved to Berlin.", "value"),
        (
            "Karen is affiliated with the Catholic Church.",
            "Karen is affiliated with the Church of Scotland.",
            "value",
        ),
        ("Thomas Kyd was born in London.", "Thomas Kyd died in London.", "predicate"),
        ("Ana is a citizen of France.", "Ben is a citizen of France.", "subject"),
        ("The capital of Germany is Berlin.", "The capital of Soviet Union is Moscow.", "subject"),
        ("Mom likes gardening.", "Mom lost interest in gardening.", "negated"),
        ("We use Express.", "We no longer use Express.", "negated"),
        ("The project uses Express.js.", "We moved the backend to Go.", "other"),
        ("Priya lives in Lisbon.", "priya lives in lisbon", "same"),
    ],
)
def test_frame(old: str, new: str, expected: str) -> None:
    assert frame(old, new) == expected


def candidate(
    claim_id: str, similarity: float, contradiction: float, frame_: str, cardinality: str = "single"
) -> Candidate:
    return Candidate(
        claim_id,
        f"slot-{claim_id}",
        cardinality,  # type: ignore[arg-type]
        PairScores(frame=frame_, similarity=similarity, contradiction=contradiction),  # type: ignore[arg-type]
    )


def test_a_contradicted_value_is_the_match() -> None:
    policy = Policy()
    near = [candidate("a", 0.9, 0.99, "value"), candidate("b", 0.95, 0.99, "predicate")]
    match = match_text(near, policy)
    assert match is not None and match.claim_id == "a"
    assert [c.claim_id for c in contradicted(near, policy)] == ["a"]


def test_unframed_pairs_must_be_close_before_a_score_counts() -> None:
    policy = Policy()
    assert contradicted([candidate("a", 0.6, 0.99, "other")], policy) == []
    assert len(contradicted([candidate("a", 0.8, 0.99, "other")], policy)) == 1


def test_multi_valued_contradictions_are_never_a_match() -> None:
    near = [candidate("a", 0.9, 0.99, "value", cardinality="multi")]
    assert match_text(near, Policy()) is None
    assert len(contradicted(near, Policy())) == 1


def test_a_paraphrase_is_the_match_when_nothing_contradicts() -> None:
    near = [candidate("a", 0.97, 0.2, "other"), candidate("b", 0.6, 0.1, "value")]
    match = match_text(near, Policy())
    assert match is not None and match.claim_id == "a"
    assert match_text([candidate("b", 0.6, 0.1, "value")], Policy()) is None


def test_cosine() -> None:
    assert cosine([1.0, 0.0], [1.0, 0.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 1.0]) == pytest.approx(0.0)
    assert cosine([0.0, 0.0], [1.0, 0.0]) == 0.0


def test_cosine_is_the_definition_to_the_last_bit_and_refuses_unequal_lengths() -> None:
    """A threshold compares it, so it must be the same float every time it is computed."""
    rng = random.Random(3)
    for _ in range(50):
        a, b = ([rng.uniform(-1, 1) for _ in range(384)] for _ in range(2))
        dot = sum(x * y for x, y in zip(a, b, strict=True))
        norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
        assert cosine(a, b) == dot / norm
    with pytest.raises(ValueError, match="384 and 383"):
        cosine(a, b[:-1])


def test_a_candidate_about_another_subject_never_matches() -> None:
    sister = Candidate(
        "c1", "s1", "single", PairScores(similarity=0.97, contradiction=0.0), subject_key="priya"
    )
    assert match_text([sister], Policy(), subject="priya's sister") is None
    assert match_text([sister], Policy(), subject="priya") is sister


def test_a_contradiction_about_another_subject_is_not_recorded() -> None:
    other = Candidate(
        "c1",
        "s1",
        "single",
        PairScores(frame="value", similarity=0.9, contradiction=0.99),
        subject_key="my flight to berlin",
    )
    assert contradicted([other], Policy(), subject="my flight to paris") == []
    assert contradicted([other], Policy(), subject="my flight to berlin") == [other]


def test_a_restatement_under_another_relation_needs_paraphrase_similarity() -> None:
    policy = Policy(paraphrase_similarity=0.85)
    near = Candidate("c1", "s1", "single", PairScores(similarity=0.9), subject_key="priya")
    far = Candidate("c2", "s2", "single", PairScores(similarity=0.8), subject_key="priya")
    assert match_text([near], policy, subject="priya") is near
    assert match_text([far], policy, subject="priya") is None


class _Counting:
    name = "counting"

    def __init__(self) -> None:
        self.calls: list[list[tuple[str, str]]] = []

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        self.calls.append(list(pairs))
        return [PairScore(contradiction=0.95 if "Porto" in new else 0.1) for _, new in pairs]


ROWS = [
    {"id": "a", "object": "Lisbon", "text": "Priya lives in Lisbon.", "negated": False},
    {"id": "b", "object": None, "text": "Priya likes jazz.", "negated": False},
    {"id": "c", "object": None, "text": "Ben plays chess.", "negated": False},
]


def test_lazy_scores_ask_the_model_only_when_read_and_equal_the_eager_ones() -> None:
    scorer = _Counting()
    lazy = Detector(scorer=scorer)
    scores = lazy.score("Porto", "Priya lives in Porto.", None, ROWS)
    assert scorer.calls == []  # nothing read yet: nothing scored
    with pytest.raises(Unanswered) as lacking:
        _ = scores["a"].contradiction  # a read never runs the model: it says what it lacks
    assert scorer.calls == []
    lazy.answer(lacking.value.pair)
    assert scores["a"].contradiction == 0.95 and scores["a"].values
    assert scorer.calls == [[("Priya lives in Lisbon.", "Priya lives in Porto.")]]
    eager_scorer = _Counting()
    eager = Detector(scorer=eager_scorer, lazy=False).score(
        "Porto", "Priya lives in Porto.", None, ROWS
    )
    assert len(eager_scorer.calls) == 1 and len(eager_scorer.calls[0]) == 3
    lazy.answer_all(list(scores.values()))
    for row_id in "abc":
        for field in ("values", "negates", "frame", "similarity", "contradiction"):
            assert getattr(scores[row_id], field) == getattr(eager[row_id], field)


def test_expected_scores_are_computed_in_one_model_call() -> None:
    scorer = _Counting()
    detector = Detector(scorer=scorer)
    scores = detector.score("Porto", "Priya lives in Porto.", None, ROWS)
    detector.expect([scores["a"], scores["b"]])
    with pytest.raises(Unanswered) as lacking:
        _ = scores["b"].contradiction
    detector.answer(lacking.value.pair)
    assert scores["b"].contradiction == 0.95
    assert len(scorer.calls) == 1 and len(scorer.calls[0]) == 2
    assert scores["a"].contradiction == 0.95  # already scored: no second call
    assert len(scorer.calls) == 1


def test_nearest_chooses_exactly_what_sorting_every_cosine_chooses() -> None:
    """Alone, and with one ``Vectors`` kept across calls as an ingest keeps it for its batches
    (each call's rows partly new, partly known; small enough to start again now and then)."""
    import random

    rng = random.Random(3)
    kept = Vectors(limit=60)
    for trial in range(200):
        dim = rng.choice([3, 8, 384])
        base = [rng.gauss(0, 1) for _ in range(dim)]
        rows = []
        for i in range(rng.randrange(0, 40)):
            if rows and rng.random() < 0.2:  # ties: a repeated vector
                vector = list(rng.choice(rows)["embedding"])
            else:
                vector = [b + rng.gauss(0, rng.choice([0.1, 1.0])) for b in base]
            rows.append({"id": f"{trial}-{i}", "embedding": vector})
        query = [b + rng.gauss(0, 0.5) for b in base]
        threshold, k = rng.choice([0.0, 0.5, 0.9]), rng.choice([1, 5, 100])
        brute = sorted(
            ((cosine(query, r["embedding"]), i) for i, r in enumerate(rows)),
            key=lambda t: -t[0],
        )
        expected = [t for t in brute if t[0] >= threshold][:k]
        assert nearest(query, rows, threshold, k, Vectors()) == expected, trial
        if dim == 384:
            # Half the rows first, then all: those seen before come from the kept matrix.
            half = [(s, i // 2) for s, i in brute if i % 2 == 0 and s >= threshold][:k]
            assert nearest(query, rows[::2], threshold, k, kept) == half, trial
            assert nearest(query, rows, threshold, k, kept) == expected, trial


def test_nearest_names_vectors_of_another_dimension() -> None:
    kept = Vectors()
    nearest([1.0, 0.0], [{"id": "a", "embedding": [1.0, 0.0]}], 0.0, 5, kept)
    with pytest.raises(ValueError, match="vectors of 2 and 3 dimensions"):
        nearest([1.0, 0.0], [{"id": "b", "embedding": [1.0, 0.0, 0.0]}], 0.0, 5, kept)
    with pytest.raises(ValueError, match="vectors of 3 and 2 dimensions"):
        nearest([1.0, 0.0, 0.0], [{"id": "a", "embedding": [1.0, 0.0]}], 0.0, 5, kept)


def test_relate_takes_the_similarities_it_is_given_and_computes_the_others() -> None:
    """A candidate's cosine is computed once (``nearest``) and handed on, not again."""
    rows = [
        {"id": "a", "text": "Priya lives in Lisbon.", "embedding": [1.0, 0.0]},
        {"id": "b", "text": "Priya lives in Porto.", "embedding": [0.6, 0.8]},
    ]
    scores = Detector().relate("Priya lives in Faro.", [1.0, 0.0], rows, similarities={"a": 0.25})
    assert scores["a"].similarity == 0.25
    assert scores["b"].similarity == pytest.approx(0.6)
