"""The semantic layer on a real Neo4j with the offline models: text-only claims find the fact
they update, contradictions across slots are recorded, search answers by meaning."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.detect import Detector
from belief_graph.semantic.contradiction import PairScore

NS = "user:mom"


def said(bg: BeliefGraph, text: str, ns: str = NS) -> str:
    result = bg.remember(ClaimDraft(namespace=ns, text=text))
    assert result.claim_id is not None
    return result.claim_id


def test_a_text_only_claim_supersedes_the_fact_it_updates(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    old = said(bg, "Mom likes gardening.")
    said(bg, "Mom lives in Porto.")
    update = bg.remember(ClaimDraft(namespace=NS, text="Mom lost interest in gardening."))
    assert update.verdict == "CONFLICT" and update.retired == [old]
    lineage = bg.lineage(NS, update.added[0])
    assert [c.text for c in lineage.chain] == [
        "Mom likes gardening.",
        "Mom lost interest in gardening.",
    ]
    assert lineage.supersedes[0]["to"] == old
    texts = [h.claim.text for h in bg.search("What does mom think of gardening?", NS, k=5)]
    assert "Mom lost interest in gardening." in texts
    assert "Mom likes gardening." not in texts
    history = [h.claim.text for h in bg.search("gardening", NS, k=5, history=True)]
    assert "Mom likes gardening." in history


def test_a_paraphrase_reinforces_instead_of_adding(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    first = said(bg, "Mom lives in Porto.")
    again = bg.remember(ClaimDraft(namespace=NS, text="Mom lives in Porto"))
    assert again.verdict == "SAME" and again.reinforced == [first]
    assert bg.get(NS, first).frequency == 2


def test_unrelated_text_only_claims_open_their_own_facts(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    said(bg, "Thomas Kyd was born in London.")
    died = bg.remember(ClaimDraft(namespace=NS, text="Thomas Kyd died in London."))
    assert died.verdict == "NEW" and died.retired == []


class FixedScorer:
    """A contradiction scorer with fixed answers (the engine takes any scorer)."""

    name = "fixed"

    def __init__(self, contradicting: set[frozenset[str]]) -> None:
        self.contradicting = contradicting

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        return [PairScore(1.0 if frozenset(p) in self.contradicting else 0.0) for p in pairs]


def test_implicit_conflicts_across_slots_are_recorded_not_resolved(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[object, object]
) -> None:
    cats = "Priya is allergic to cats."
    pet = "Priya adopted a cat last week."
    embedder, _ = offline_models
    bg = make_bg(detector=Detector(embedder, FixedScorer({frozenset((cats, pet))})))  # type: ignore[arg-type]
    allergy = bg.remember(
        ClaimDraft(namespace=NS, subject="priya", predicate="allergy", object="cats", text=cats)
    )
    adopted = bg.remember(
        ClaimDraft(namespace=NS, subject="priya", predicate="has pet", object="a cat", text=pet)
    )
    assert adopted.verdict == "NEW" and adopted.retired == []
    assert adopted.flagged == allergy.added
    assert bg.get(NS, allergy.added[0]).disputed and bg.get(NS, adopted.added[0]).disputed
    [conflict] = bg.conflicts(NS, open_only=True)
    assert {conflict.claim.text, conflict.rival.text} == {cats, pet}
    hits = {h.claim.text: h for h in bg.search("Does Priya have pets?", NS, k=5)}
    assert [r.text for r in hits[pet].rivals] == [cats]


def test_search_stays_in_its_namespace(semantic_bg: BeliefGraph) -> None:
    said(semantic_bg, "Mom lives in Porto.", ns="user:a")
    said(semantic_bg, "Mom lives in Faro.", ns="user:b")
    assert [h.claim.text for h in semantic_bg.search("Where does mom live?", "user:a")] == [
        "Mom lives in Porto."
    ]
