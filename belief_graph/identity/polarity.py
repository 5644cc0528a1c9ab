"""The polarity of a claim: what a sentence says about one value (the clauses naming it), or
about its relation; and the content words two sentences share."""

from __future__ import annotations

import re
from typing import Literal

from .frames import base_of, parse
from .negation import NEGATING, has_negation
from .values import ARTICLES, normalize_value, singular, value_in_text
from .words import (
    AUX,
    BASE_VERBS,
    COPULA,
    DETERMINERS,
    ENDING_IDIOMS,
    PAST,
    PREPOSITIONS,
    PRONOUN_SUBJECTS,
)


def shared_terms(a: str, b: str) -> set[str]:
    """The content words two sentences share beyond who they are about: not their subjects
    (as ``parse`` reads them, else their first word), pronouns, function words or verbs, each
    word in one form for singular and plural. "Priya is allergic to cats" / "Priya adopted a
    cat" share ``cat``; "Sam speaks Spanish" / "Sam works as a French translator" share
    nothing: two facts with no point of contact."""
    subjects: set[str] = set()
    for text in (a, b):
        statement = parse(text)
        words = _WORDS.findall(normalize_value(text))
        subjects |= _content(statement.subject) if statement is not None else set(words[:1])
    return {w for w in _content(a) & _content(b) if not _verb_like(w)} - subjects


def _verb_like(word: str) -> bool:
    if word in PAST or word in BASE_VERBS or word in COPULA or word in AUX:
        return True
    for stem in (word[:-1], word[:-2], word[:-3] + "y" if word.endswith("ies") else ""):
        if stem in BASE_VERBS and word.endswith(("s", "ed", "ies")):
            return True
    return False


# -- what a sentence says about one value -------------------------------------------------------

# Where a clause ends: sentence punctuation, a spaced dash, a contrasting conjunction, and "and" /
# "so" / "because" when a new subject (or "now") follows ("I used to live in Rome and now I live
# in Milan"); "Italian and German" stays one clause.
_CLAUSE = re.compile(
    r"[.!?;:,]+(?:\s|$)|\s[-–—]+\s|\b(?:but|though|although|yet|whereas|while|instead(?! of))\b|"
    r"\b(?:and|so|because)\s+(?=(?:i|i'm|i've|we|we're|he|she|they|now|then|it)\b)",
    re.IGNORECASE,
)
# Words that end or exclude a value placed before it in its clause (beyond ``has_negation``).
_ENDS_VALUE = re.compile(
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
                _ENDS_VALUE.search(before)
                or _NEGATOR_BEFORE.search(before)
                or (_FROM_TO.search(before) and _TO_AFTER.match(after))
            ):
                found.append("ended")
            elif has_negation(before):
                found.append("negated")
            elif has_negation(said) or _ENDS_VALUE.search(said):
                found.append("unclear")
            else:
                found.append("positive")
    return found


# The words without one of which no sentence is negated or ended: ``has_negation``'s (among
# them ``parse``'s negation words), and the first word of every other way ``parse`` sets
# ``negated`` ("used to", an end "until 2020" as ``ENDED`` reads it, an ending idiom). A
# sentence with none is affirmative: a regex search instead of a parse, which was a fifth of
# planning a structured draft. One group of words: a search of many groups is as slow as a parse.
_MAY_NEGATE_WORDS = (
    *NEGATING,
    *("used", "until", "till", "up to"),
    *(phrase.split()[0] for phrase, _ in ENDING_IDIOMS),
)
_MAY_NEGATE = re.compile(
    rf"\b(?:{'|'.join(dict.fromkeys(_MAY_NEGATE_WORDS))})\b|n't\b", re.IGNORECASE
)


def polarity(negated: bool | None, text: str, obj: str | None = None, *, triple: str = "") -> bool:
    """Whether a claim is negated: as stated (``negated`` not None), else read from its text.

    A claim with an object takes what its sentence says about *that* value
    (``polarity_of_value``): "We no longer use Express; we moved to Koa." is negated for
    Express and affirmed for Koa, never negated by a negation word about something else
    (``triple``: the words of its subject and predicate, which are not another value). A
    sentence alone (or one that says nothing of the object) is read by its frame: the relation
    words when ``parse`` reads it, else any negation word."""
    if negated is not None:
        return negated
    if not _MAY_NEGATE.search(text.replace("’", "'")):
        return False
    if obj is not None:
        about = polarity_of_value(obj, text, triple)
        if about is not None:
            return about
    statement = parse(text)
    return statement.negated if statement is not None else has_negation(text)


# What a negated clause may say in place of a value: it then denies the relation as a whole
# ("Priya doesn't work there any more", "She quit").
_PRO_FORMS = frozenset(
    "there here it that this them one so any more anymore longer now either too".split()
)
_DEMONSTRATIVES = frozenset({"that", "this", "those", "these", "same"})
_WORDS = re.compile(r"[\w.+#-]*\w[\w+#]*")
_FUNCTION_WORDS = frozenset(
    {*ARTICLES, *PREPOSITIONS, *DETERMINERS, *COPULA, *AUX, "and", "or", "i", "we", "you"}
)


def _content(text: str) -> set[str]:
    return {
        singular(w)
        for w in _WORDS.findall(normalize_value(text))
        if len(w) > 2 and w not in _FUNCTION_WORDS
    }


def _clause_negated(clause: str) -> bool:
    statement = parse(clause)
    if statement is not None:
        return statement.negated
    return has_negation(clause) or bool(_ENDS_VALUE.search(clause))


def polarity_of_value(obj: str, text: str, triple: str = "") -> bool | None:
    """Whether ``text`` negates or ends the value ``obj`` (``None``: it cannot tell).

    Where the sentence names the value, the last clause naming it decides: ``readings``
    ("not vegetarian any more" ends vegetarian; "we moved to Koa" affirms Koa), or the clause's
    frame when it ends its relation without a negation word ("lost interest in spicy food",
    "lived in Oslo until 2020"). Where no clause names it, a clause that affirms something
    ("I eat meat") shows the negation is about another value: "I'm not vegetarian any more, I
    eat meat." affirms omnivore, and so does "I'm not vegetarian any more.", whose copula denies
    another attribute. A sentence every clause of which is negated and which names nothing else
    (a word not of ``triple``, the claim's subject and predicate: "Priya doesn't work there any
    more") is about the value; otherwise ``None``: the sentence's frame decides.
    """
    parts = clauses(text) or [text]
    decided: tuple[str, Reading] | None = None
    for clause in parts:
        found = [r for r in readings(obj, clause) if r != "unclear"]
        if found:
            decided = (clause, found[-1])
    if decided is not None:
        clause, reading = decided
        if reading != "positive":
            return True
        statement = parse(clause)
        return statement is not None and statement.negated and value_in_text(obj, statement.value)
    wanted = _content(obj)
    naming = [c for c in parts if wanted & _content(c)]
    if naming:
        return _clause_negated(naming[-1])
    if not all(_clause_negated(c) for c in parts):
        return False
    known = _content(triple) | _PRO_FORMS
    for clause in parts:
        statement = parse(_CONTRACTED.sub(lambda m: f"{m.group(1)} {_FULL[m.group(2)]}", clause))
        if statement is not None and statement.value.split()[0].lower() in _DEMONSTRATIVES:
            continue  # "that company", "those shoes": the value named before
        said = _content(statement.value) if statement is not None else _unframed(clause)
        if said - known:
            # "I'm not vegetarian any more" denies another attribute, not omnivore; "Dad doesn't
            # drive to work any more" denies the relation, whose words the frame reads.
            return False if statement is not None and statement.relation == "is" else None
    return True


_CONTRACTED = re.compile(r"\b(i|we|you|they)'(m|re)\b", re.IGNORECASE)
_FULL = {"m": "am", "re": "are", "M": "am", "RE": "are", "Re": "are"}


def _unframed(clause: str) -> set[str]:
    """The words of a clause the frame reader cannot read that may name a value: not negation
    words, verbs or pronouns."""
    return {
        w
        for w in _content(clause)
        if not has_negation(w) and base_of(w) is None and w not in PRONOUN_SUBJECTS
    }
