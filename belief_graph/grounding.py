"""How a claim's source bears on it by structure alone, before any model reads the pair.

Generate-then-verify checks a proposed claim ("alice's diet is pescatarian.") against the words
it came from ("I'm pescatarian these days."). Whether the source *states the claim's value*, and
with which polarity, is structure: the value is there or it is not, and "not", "no longer",
"gave up" before it in its clause negate or end it. A contradiction model reading a third-person
sentence against a first-person one can misread the pair; it may add what structure cannot see,
never overrule what structure reads (identity is structural, models only add information).

- ``grounding``: ``supported`` / ``contradicted`` when the source's words decide, else ``None``
  (the model decides);
- ``in_third_person``: the source with its first person given to the speaker ("I'm vegan" said
  by alice reads "Alice is vegan"), the premise the model reads when structure is silent.
"""

from __future__ import annotations

import re
from typing import Literal

from .identity import _BASE_VERBS, _third_person, has_negation, normalize_value

Grounding = Literal["supported", "contradicted"]

# Where a clause ends: sentence punctuation, a spaced dash, a contrasting conjunction, and "and" /
# "so" / "because" when a new subject (or "now") follows ("I used to live in Rome and now I live
# in Milan"); "Italian and German" stays one clause.
_CLAUSE = re.compile(
    r"[.!?;:,]+(?:\s|$)|\s[-–—]+\s|\b(?:but|though|although|yet|whereas|while|instead(?! of))\b|"
    r"\b(?:and|so|because)\s+(?=(?:i|i'm|i've|we|we're|he|she|they|now|then|it)\b)",
    re.IGNORECASE,
)
# Words that end or exclude a value placed before it in its clause (beyond ``has_negation``).
_ENDED = re.compile(
    r"\b(?:gave up|give up|given up|giving up|left|leaving|dropped|sold|quitting|moved out of|"
    r"moved away from|broke up with|retired from|instead of|rather than|ex|former|formerly|"
    r"previously)\b",
    re.IGNORECASE,
)
# A negator right before the value (an article between at most): "not peanuts", "no meat",
# "not a vegan". Further away ("I can't stand jazz", "I don't like jazz") the negation may be
# part of the relation itself ("dislikes"), so it does not contradict a positive claim.
_NEGATOR_BEFORE = re.compile(
    r"\b(?:not|no|never|no longer|no more|not anymore)\s+(?:(?:a|an|the|any)\s+)?$", re.IGNORECASE
)
# "from A to B": A is the value left behind.
_FROM_TO = re.compile(r"\bfrom\s*$", re.IGNORECASE)
_TO_AFTER = re.compile(r"^\s+(?:to|into)\b", re.IGNORECASE)
_LEAD = re.compile(r"^(?:the|a|an|my|his|her|their|our|your)\s+")

Reading = Literal["positive", "ended", "negated", "unclear"]


def clauses(text: str) -> list[str]:
    """The clauses of a source text, in order (see ``_CLAUSE``)."""
    return [c.strip() for c in _CLAUSE.split(text.replace("’", "'")) if c and c.strip()]


def readings(value: str, source: str) -> list[Reading]:
    """How each place the source names ``value`` reads: ``ended`` when an end ("no longer",
    "gave up", "instead of", "from A to B") comes before it in its clause or a negator right
    before it ("not peanuts"); ``negated`` when another negation comes before it in its clause
    ("I don't eat meat", "I can't stand jazz"); ``positive`` when its clause has none at all;
    else ``unclear`` (a negation after it may or may not be about it). A plural "s" after the
    value still names it ("on Mondays")."""
    wanted = _LEAD.sub("", normalize_value(value))
    if not wanted:
        return []
    pattern = re.compile(rf"(?<!\w){re.escape(wanted)}(?:e?s)?(?!\w)")
    found: list[Reading] = []
    for clause in clauses(source):
        said = normalize_value(clause)
        for match in pattern.finditer(said):
            before, after = said[: match.start()], said[match.end() :]
            if (
                _ENDED.search(before)
                or _NEGATOR_BEFORE.search(before)
                or (_FROM_TO.search(before) and _TO_AFTER.match(after))
            ):
                found.append("ended")
            elif has_negation(before):
                found.append("negated")
            elif has_negation(said) or _ENDED.search(said):
                found.append("unclear")
            else:
                found.append("positive")
    return found


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
        return f"{name} {_third_person(word) if word in _BASE_VERBS else word}"

    return _I_VERB.sub(verb, out)
