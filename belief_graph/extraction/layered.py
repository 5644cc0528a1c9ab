"""Two extractors in layers: the first one's facts stand, the second one's fill what the first
did not read. With the offline rules first and an LLM second, a turn the rules read keeps their
precise reading (their precision is about 0.9 where a small local model's is about 0.6), and
the model reads the shapes no rule does (docs/extraction.md, "Rules and a model together")."""

from __future__ import annotations

from collections.abc import Sequence

from ..vocabulary import Vocabulary, normalize_key
from .episode import Episode, Extractor, Proposal


class LayeredExtractor:
    """``first``'s facts, then those of ``then`` about facts ``first`` did not read in the turn
    (a single-valued fact by its subject and predicate, a value of a multi-valued one by its
    object as well). A turn neither reads keeps what ``first`` gives for it (the rules: the
    turn as text, so search finds it)."""

    def __init__(self, first: Extractor, then: Extractor) -> None:
        self.first, self.then = first, then
        self.name = f"{first.name}+{then.name}"

    def extract(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]:
        kept = self.first.extract(episode, vocabulary=vocabulary, known_subjects=known_subjects)
        facts = [p for p in kept if not p.text_only]
        read = {_fact(p, vocabulary) for p in facts}
        more = [
            p
            for p in self.then.extract(
                episode, vocabulary=vocabulary, known_subjects=known_subjects
            )
            if not p.text_only and _fact(p, vocabulary) not in read
        ]
        return facts + more if facts or more else kept


def _fact(proposal: Proposal, vocabulary: Vocabulary) -> tuple[str, ...]:
    """What the proposal is about, as the write path resolves it: its slot, and its value
    when the predicate is multi-valued."""
    assert proposal.subject is not None and proposal.predicate is not None
    predicate, cardinality = vocabulary.resolve(
        proposal.predicate, proposal.subject, proposal.object, proposal.sentence
    )
    slot = (normalize_key(proposal.subject), predicate)
    return (*slot, normalize_key(proposal.object or "")) if cardinality == "multi" else slot
