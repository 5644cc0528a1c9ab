"""How a claim's source bears on it by structure alone, before any model reads the pair.

Generate-then-verify checks a proposed claim ("alice's diet is pescatarian.") against the words
it came from ("I'm pescatarian these days."). Whether the source *states the claim's value*, and
with which polarity, is structure: the value is there or it is not, and "not", "no longer",
"gave up" before it in its clause negate or end it. A contradiction model reading a third-person
sentence against a first-person one can misread the pair; it may add what structure cannot see,
never overrule what structure reads (identity is structural, models only add information).

- ``grounding``: ``supported`` / ``contradicted`` when the source's words decide, else ``None``
  (the model decides);
- ``quoted``: a text-only claim made of its source's own sentences (a turn kept as said) is
  supported by it: there is nothing to verify, and a model reading "I ..." against the
  third-person premise could only misread it;
- ``in_third_person``: the source with its first person given to the speaker ("I'm vegan" said
  by alice reads "Alice is vegan"), the premise the model reads when structure is silent.
"""

from __future__ import annotations

import re
from typing import Literal

from .identity import clauses, readings
from .identity.frames import third_person
from .identity.words import BASE_VERBS

Grounding = Literal["supported", "contradicted"]

__all__ = ["Grounding", "clauses", "grounding", "in_third_person", "quoted", "readings"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def grounding(value: str | None, negated: bool, source: str) -> Grounding | None:
    """How ``source`` bears on a claim of ``value`` (``negated``: the claim's polarity), by its
    words alone. ``supported``: the source names the value with the claim's polarity (negated
    or ended for a negated claim). ``contradicted``: a positive claim whose value the source
    names only ended. ``None`` (the model decides): the source does not name the value, names it
    unclearly, names it after a negation that may belong to the relation ("I can't stand jazz"
    for "dislikes jazz"), or names positively the value of a negated claim (an end is said in
    more ways than these rules read: "traded in the car")."""
    if not value:
        return None
    found = readings(value, source)
    if ("ended" in found or "negated" in found) if negated else ("positive" in found):
        return "supported"
    if not negated and found and all(r == "ended" for r in found):
        return "contradicted"
    return None


def quoted(text: str, source: str) -> bool:
    """Whether ``text`` is its source's own words: every sentence of it found whole in
    ``source`` (spacing aside, its closing stop too), none added, none cut."""
    said = " ".join(source.split())
    sentences = [p.rstrip(".!?") for p in _SENTENCE_END.split(" ".join(text.split()))]
    return bool(said) and all(sentences) and all(p in said for p in sentences)


_FIRST_PERSON: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r)
    for p, r in (
        (r"\bI'm\b|\bI am\b", "{0} is"),
        (r"\bI've\b|\bI have\b", "{0} has"),
        (r"\bI was\b", "{0} was"),
        (r"\bI'll\b", "{0} will"),
        (r"\bI'd\b", "{0} would"),
        (r"\bI don't\b|\bI do not\b", "{0} doesn't"),
        (r"\bI do\b", "{0} does"),
        (r"\bmy\b", "{0}'s"),
        (r"\bmine\b", "{0}'s"),
        (r"\bmyself\b", "{0}"),
        (r"\bme\b", "{0}"),
    )
)
_I_VERB = re.compile(r"\bI\s+([a-z]+)\b")


def in_third_person(text: str, speaker: str) -> str:
    """``text`` with its first person singular given to ``speaker`` ("I live in Lisbon" said by
    alice: "Alice lives in Lisbon"); a present-tense verb after "I" takes the third person, any
    other word stays. "We" stays: it names a group, not the speaker."""
    name = speaker[:1].upper() + speaker[1:]
    out = text.replace("’", "'")
    for pattern, replacement in _FIRST_PERSON:
        out = pattern.sub(replacement.format(name).replace("\\", "\\\\"), out)

    def verb(m: re.Match[str]) -> str:
        word = m.group(1)
        return f"{name} {third_person(word) if word in BASE_VERBS else word}"

    return _I_VERB.sub(verb, out)
