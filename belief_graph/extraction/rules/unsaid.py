"""What chat leaves unsaid, read back: the speaker as subject ("Allergic to cats"), the fact's
words ("it's moved to Friday", "Berlin now", "I'm at Globex now"), a statement said on the way to a
question ("Since I'm vegan, what ...?"), a region after a place."""

from __future__ import annotations

import re
from collections.abc import Sequence

from belief_graph.vocabulary import Vocabulary

from .common import _Fact, _without_leads

# A part of a question that asks (an interrogative or a request first), not one that states.
_ASKS = re.compile(
    r"^(?:what|what's|how|why|when|where|which|who|whom|whose|can|could|would|should|shall|do|"
    r"does|did|is|are|was|were|will|any|anything|ideas|tips|thoughts|suggestions|help|please|"
    r"recommend|suggest|tell|or)\b",
    re.IGNORECASE,
)


# What leads a statement inside a question: "since I'm vegan", "as a nurse", "being vegetarian".
_STATED_ON_THE_WAY = re.compile(
    r"^(?:(?:since|because|as|given\s+that|now\s+that|seeing\s+as|considering)\s+"
    r"(?=(?:i|i'm|i've|we|we're|we've|my)\b)|(?P<as_a>as\s+(?:a|an)\s+)|(?P<being>being\s+))",
    re.IGNORECASE,
)


def _statements_in_question(question: str) -> list[str]:
    """The parts of a question that state something of the speaker: a part (between commas or
    dashes) with its own first-person subject, or led by "since I ...", "as a ...", "being ...",
    before or after what it asks."""
    stated: list[str] = []
    asks = False
    for part in re.split(r"\s+[-–—]\s+|,\s*|;\s*", question.rstrip(" ?")):
        part = _without_leads(part).strip()
        if not part or _ASKS.match(part):
            asks = True
            continue
        lead = _STATED_ON_THE_WAY.match(part)
        if lead is not None:
            rest = part[lead.end() :]
            if lead.group("as_a"):
                stated.append(f"I'm a {rest}")  # "as a nurse": "I'm a nurse"
            elif lead.group("being"):
                stated.append(f"I'm {rest}")
            else:
                stated.append(rest)
        elif re.match(r"^(?:i|i'm|i've|we're|we've|my)\b", part, re.IGNORECASE):
            stated.append(part)
    # "I'm flying to Italy on Friday?" asks whether it is so: a statement only beside a part
    # that asks.
    return stated if asks else []


# Words that say a value changed; with one alone ("Berlin now") it is the last fact's new value.
_CHANGE_WORD = re.compile(r"\b(?:now|these\s+days|nowadays|instead|currently)\b", re.I)


# A bare value that can be one: a name or a number, not a reply ("Thanks now", "Same").
_NAMES_A_VALUE = re.compile(
    r"^(?!(?:thanks|thank|same|cool|great|nice|ok|okay|sure|done|fine|good|yes|yep|no|nope|"
    r"both|all|everything|none|nothing|home|work|here|there|back|so|well|lol|haha|wow|hi|"
    r"hey|hello|bye|sorry|please|maybe|also|too|not|at|in|on|with|to|from|for|by|of)\b)(?-i:[A-Z0-9£$€])",
    re.IGNORECASE,
)


# Words that start a clause with its own subject, or no statement: no speaker left out.
_NOT_SUBJECTLESS = re.compile(
    r"^(?:i|i'm|i've|i'd|i'll|im|ive|we|we're|we've|my|our|the|a|an|this|that|these|those|it|"
    r"it's|its|he|she|they|he's|she's|they're|his|her|their|there|here|you|your|what|who|how|"
    r"why|when|where|which|if|is|are|was|were|do|does|did|can|could|would|should|will|please|"
    r"thanks|thank|no|not|yes|let|let's|hope|maybe|just|also|so|and|but|or|then|because)\b",
    re.IGNORECASE,
)


def _without_subject(clause: str, known: Sequence[str]) -> str | None:
    """The clause without its leads when it has no subject of its own (a lowercase word
    first, not a name the turn knows), else ``None``."""
    said = _without_leads(clause).strip(" ,.!-")
    first = said.split(" ", 1)[0] if said else ""
    if (
        not first
        or len(said.split()) > 8
        or _NOT_SUBJECTLESS.match(said)
        or not first[:1].isalpha()
        or (first[:1].isupper() and first[1:2].isupper())
        or first.casefold() in {k.casefold() for k in known}
    ):
        return None
    return said[:1].lower() + said[1:] if not _NAME_FIRST.match(said) else None


# Values a clause without its subject does not give: an activity ("job hunting"), a thing
# just seen ("the new design").
_NO_SUBJECTLESS_VALUE = re.compile(r"^(?:[a-z]+ing\b|(?:the\s+)?new\s|this\s|that\s)")


# A capitalized word first that is a name, not a sentence's first word: a second capital.
_NAME_FIRST = re.compile(r"^(?-i:[A-Z])[\w'-]+\s+(?-i:[A-Z])")


# "it's", "it's moved to", "that changed to": what follows is the last fact's value; a verb
# of change says it changed.
_IT_NOW = re.compile(
    r"^(?:it|that)(?:(?:'s|\s+is|\s+has)\s+(?P<moved>(?:moved|changed|switched|gone|shifted|"
    r"become)\s+(?:over\s+|back\s+)?(?:to\s+)?)?|\s+(?P<verb>(?:moved|changed|switched|went|"
    r"shifted)\s+(?:over\s+|back\s+)?to\s+))",
    re.IGNORECASE,
)


# "I'm at Globex", "we're in Cardiff": where one works or lives, when the last fact was that.
_WHERE_NOW = re.compile(
    r"^(?:(?:i'm|i\s+am|we're|we\s+are)\s+)?(?P<how>at|with|in)\s+(?=(?-i:[A-Z]))", re.IGNORECASE
)
_WHERE_FACTS = {"at": "works_at", "with": "works_at", "in": "lives_in"}


def _of_the_last(body: str, previous: tuple[str, _Fact]) -> tuple[str, bool] | None:
    """The value a clause gives the last fact without naming it, and whether it said that it
    changed (see _IT_NOW, _WHERE_NOW); else ``None``."""
    where = _WHERE_NOW.match(body)
    if where is not None:
        fact = _WHERE_FACTS[where.group("how").lower()]
        return (body[where.end() :], False) if previous[1].predicate == fact else None
    it = _IT_NOW.match(body)
    if it is None or it.end() == 0 or it.end() >= len(body):
        return None
    if re.search(r",|\band\b|&", body[it.end() :]):
        return None  # "it's Bruno and Momo now": several values, of a fact said before
    return body[it.end() :], it.group("moved") is not None or it.group("verb") is not None


def _names_a_value(body: str, *, referred: bool = False) -> bool:
    """Whether a bare value is a name ("Cardiff", "Kia EV6": every word capitalized) or an
    amount ("£1,200", "3 days"), not a clause ("Call me", "Mia starts"); after "it's" that
    refers to the last fact, any value but a reply ("it's ramen now")."""
    if referred:
        return _NAMES_A_VALUE.match(body[:1].upper() + body[1:]) is not None
    if _NAMES_A_VALUE.match(body) is None:
        return False
    return body[0] in "£$€0123456789" or all(
        w[:1].isupper() or w[:1].isdigit() for w in body.split()
    )


def _same_kind(body: str, previous: tuple[str, _Fact] | None, vocabulary: Vocabulary) -> bool:
    """Whether a bare value in lower case is another of the kind the last fact's value is, and
    so its new value: the fact holds one value, and this one ends in that value's last word
    ("senior designer now" after "junior designer", "black tea these days" after "green tea"),
    with a word of its own before it."""
    if previous is None or vocabulary.cardinality(previous[1].predicate) != "single":
        return False
    words, before = body.casefold().split(), previous[1].value.casefold().split()
    return (
        1 < len(words) <= 4
        and bool(before)
        and words[-1] == before[-1]
        and words[-1].isalpha()
        and len(words[-1]) > 2
        and words != before
    )


# Facts whose value is one place: a region or country after a comma only says where it is.
_PLACES = frozenset({"lives_in", "born_in", "work_location"})
_REGION = re.compile(r"(?<=\w),\s+(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*)?$")


# "(I'm vegan btw)", "(we live in Leeds)": a statement in brackets, said on the side.
_STATED_IN_BRACKETS = re.compile(
    r"\((?P<said>(?:i|i'm|i've|we|we're|we've|my|our)\b[^()]{3,120})\)", re.IGNORECASE
)


# Words by which a turn says it corrects what was said before.
_SAYS_IT_CORRECTS = re.compile(
    r"\b(?:typo|autocorrect|i\s+meant|misspoke|my\s+mistake|my\s+bad|correction|i\s+mixed\s+up|"
    r"got\s+that\s+wrong|was\s+wrong)\b",
    re.IGNORECASE,
)
