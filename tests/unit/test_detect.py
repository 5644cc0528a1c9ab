"""The word-frame check and the text-only matching rule (pure, no database, no model)."""

from __future__ import annotations

import pytest

from belief_graph.detect import cosine, frame
from belief_graph.policy import Candidate, PairScores, Policy, contradicted, match_text


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
