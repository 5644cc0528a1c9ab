"""What every extractor needs around a claim: the sentences of a turn (code left out), the span a
value came from, and the claim said as one self-contained sentence."""

from __future__ import annotations

import re

__all__ = ["sentence_of", "sentences", "source_of"]

# After . ! ? ; (not inside "3.5", "Node.js" or "e.g."), at line breaks and at a dash between
# spaces.
_SENTENCE_END = re.compile(
    r"(?<=[.!?;])(?<!\b[a-z]\.[a-z]\.)(?<!\bSt\.)(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!Mrs\.)"
    r"(?<!\bvs\.)\s+|\n+|\s+[-–—]+\s+"
)
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)
# A line of code in a chat message: indented, or made of code's punctuation.
_CODE_LINE = re.compile(
    r"^(?:\s{4,}|\t)\S|^\s*(?:[$>]\s|def |class |import |from \S+ import |return |if .*:$|"
    r"for .*:$|[{}\[\]();]+$|#include|//|/\*|\w+(?:\.\w+)*\s*=\s*[\w\"'(\[{]|\);$|[{}]\s*$)"
)


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, each a verbatim substring of it: split after ``.``, ``!``,
    ``?``, ``;``, at line breaks and at a dash between spaces. Code (a fenced block, an
    indented or code-shaped line) is no sentence."""
    prose = _FENCED.sub("\n", text)
    lines = [line for line in prose.split("\n") if not _CODE_LINE.search(line)]
    found: list[str] = []
    for line in lines:
        found.extend(s.strip() for s in _SENTENCE_END.split(line) if s.strip())
    return found


def _names(text: str, value: str) -> bool:
    if not value.strip():
        return False
    pattern = rf"(?<![\w]){re.escape(value.strip())}(?![\w])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def source_of(text: str, value: str, subject: str = "") -> str:
    """The sentence of ``text`` a claim about ``value`` came from: the first that names the
    value, else the first that names the subject, else the whole text."""
    said = sentences(text)
    for wanted in (value, subject):
        for sentence in said:
            if _names(sentence, wanted):
                return sentence
    return text.strip()


# How a claim of a common predicate is said (positive, negated); others take their words.
_PHRASES: dict[str, tuple[str, str]] = {
    "lives_in": ("{S} lives in {o}.", "{S} no longer lives in {o}."),
    "born_in": ("{S} is from {o}.", "{S} is not from {o}."),
    "works_at": ("{S} works at {o}.", "{S} no longer works at {o}."),
    "job_title": ("{S} works as {o}.", "{S} no longer works as {o}."),
    "dietary_preference": ("{S} is {o}.", "{S} is no longer {o}."),
    "favorite_drink": ("{S}'s favourite drink is {o}.", "{S} no longer drinks {o}."),
    "favorite_food": ("{S}'s favourite food is {o}.", "{S}'s favourite food is no longer {o}."),
    "likes": ("{S} likes {o}.", "{S} no longer likes {o}."),
    "dislikes": ("{S} dislikes {o}.", "{S} no longer dislikes {o}."),
    "prefers": ("{S} prefers {o}.", "{S} no longer prefers {o}."),
    "language_spoken": ("{S} speaks {o}.", "{S} does not speak {o}."),
    "has_pet": ("{S} has a pet, {o}.", "{S} no longer has the pet {o}."),
    "has_allergy": ("{S} is allergic to {o}.", "{S} is not allergic to {o}."),
    "has_hobby": ("{S}'s hobbies include {o}.", "{S} no longer does {o} as a hobby."),
    "has_skill": ("{S} is skilled in {o}.", "{S} is not skilled in {o}."),
    "is_learning": ("{S} is learning {o}.", "{S} is no longer learning {o}."),
    "has_child": ("{S} has a child, {o}.", "{S} has no child called {o}."),
    "has_parent": ("{S}'s parent is {o}.", "{o} is not {S}'s parent."),
    "has_sibling": ("{S}'s sibling is {o}.", "{S} has no sibling called {o}."),
    "spouse": ("{S} is married to {o}.", "{S} is not married to {o}."),
    "partner": ("{S}'s partner is {o}.", "{S}'s partner is not {o}."),
    "reports_to": ("{S} reports to {o}.", "{S} no longer reports to {o}."),
    "friend_of": ("{S} is friends with {o}.", "{S} is not friends with {o}."),
    "colleague_of": ("{S} works with {o}.", "{S} no longer works with {o}."),
    "member_of": ("{S} is a member of {o}.", "{S} is no longer a member of {o}."),
    "studied_at": ("{S} studies at {o}.", "{S} no longer studies at {o}."),
    "working_on": ("{S} is working on {o}.", "{S} is no longer working on {o}."),
    "has_goal": ("{S} wants to {o}.", "{S} no longer wants to {o}."),
    "has_habit": ("{S} {o}.", "{S} no longer {o}."),
    "health_condition": ("{S} has {o}.", "{S} does not have {o}."),
    "age": ("{S} is {o} years old.", "{S} is not {o} years old."),
    "uses_framework": ("{S} uses {o}.", "{S} no longer uses {o}."),
}


def sentence_of(subject: str, predicate: str, value: str, *, negated: bool = False) -> str:
    """The claim as one sentence in the third person: ``lives_in`` → "ana lives in Porto."."""
    positive, negative = _PHRASES.get(
        predicate,
        (
            "{S}'s " + predicate.replace("_", " ") + " is {o}.",
            "{S}'s " + predicate.replace("_", " ") + " is no longer {o}.",
        ),
    )
    return (negative if negated else positive).format(S=subject, o=value.rstrip("."))
