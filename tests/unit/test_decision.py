"""The decision stage of ``remember`` is pure: it never runs a model. A score it reads that the
model has not given yet raises ``Unanswered``; the caller scores the pairs ``pairs_needed``
names, in one model call, and decides again."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from belief_graph.detect import Detector
from belief_graph.models import ClaimDraft
from belief_graph.policy import Policy, Unanswered
from belief_graph.semantic.contradiction import PairScore
from belief_graph.vocabulary import Vocabulary
from belief_graph.write.changes import SlotState
from belief_graph.write.decision import Detection, decide, pairs_needed
from belief_graph.write.request import Request

NS = "t"
THEN = datetime(2026, 1, 1, tzinfo=UTC)
NOW = datetime(2026, 3, 1, tzinfo=UTC)


class Guarded:
    """A contradiction scorer that refuses to run until the pairs ``pairs_needed`` named have
    been handed to the detector (``allowed``)."""

    name = "guarded"

    def __init__(self) -> None:
        self.allowed = False
        self.calls: list[list[tuple[str, str]]] = []

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        if not self.allowed:
            raise AssertionError("the model ran before pairs_needed was answered")
        self.calls.append(list(pairs))
        return [PairScore(contradiction=0.97) for _ in pairs]


def held(text: str) -> dict[str, Any]:
    return {
        "id": "held",
        "namespace": NS,
        "slot_id": "S1",
        "subject": "priya",
        "predicate": "mood",
        "object": None,
        "text": text,
        "source_type": "user_stated",
        "confidence": 0.8,
        "frequency": 1,
        "status": "active",
        "version": 1,
        "valid_from": THEN,
        "recorded_at": THEN,
        "contradiction": False,
    }


def detected(detector: Detector, old: str, new: str) -> Detection:
    """A draft ``new`` of a single-valued fact whose value is ``old``, as detection finds it."""
    row = held(old)
    slot = SlotState(
        key=(NS, "priya", "mood"),
        subject="priya",
        cardinality="single",
        slot_id="S1",
        seq=1,
        versions=1,
        head="held",
        last_recorded_at=THEN,
        last_revision="R0",
        claims=[row],
        new=False,
    )
    draft = ClaimDraft(namespace=NS, text=new)
    scores = detector.score(None, new, None, slot.claims)
    return Detection(
        Request(draft, "R1"), "C1", slot, scores, [], "priya", None, None, NOW, NOW, NOW, None
    )


def test_the_decision_asks_for_the_scores_it_lacks_and_never_runs_the_model() -> None:
    scorer = Guarded()
    detector = Detector(scorer=scorer)
    policy, vocabulary = Policy(), Vocabulary.default()
    found = detected(detector, "Yes.", "No.")  # no frame reads them: only the model can tell
    with pytest.raises(Unanswered) as lacking:
        decide(found, policy, vocabulary)  # the scorer would raise AssertionError
    assert scorer.calls == []
    needed = pairs_needed(found, policy, vocabulary)
    assert needed and all(not getattr(s, "scored", True) for s in needed)
    scorer.allowed = True
    detector.expect(needed)
    detector.answer(lacking.value.pair)
    change = decide(found, policy, vocabulary)
    assert len(scorer.calls) == 1, "the pairs named were scored in one model call"
    assert lacking.value.pair in scorer.calls[0]
    assert (change.verdict, change.decision) == ("CONFLICT", "supersede")
    assert change.retires[0].id == "held"


def test_a_decision_that_lacked_a_score_decides_again_as_one_given_every_score() -> None:
    """Nothing is changed before the last score is read: deciding again after ``Unanswered``
    gives the change a decision given every score up front gives."""
    old, new = "Yes.", "No."
    asked = Detector(scorer=Guarded())
    found = detected(asked, old, new)
    policy, vocabulary = Policy(), Vocabulary.default()
    assert isinstance(asked.scorer, Guarded)
    asked.scorer.allowed = True
    while True:
        try:
            change = decide(found, policy, vocabulary)
            break
        except Unanswered as lacking:
            asked.answer(lacking.pair)
    eager_scorer = Guarded()
    eager_scorer.allowed = True
    eager = decide(
        detected(Detector(scorer=eager_scorer, lazy=False), old, new), policy, vocabulary
    )
    assert change.result() == eager.result()
    assert change.retires == eager.retires and change.contradictions == eager.contradictions
