"""Whether a sentence negates, and whether it denies rather than ends."""

from __future__ import annotations

import re

# has_negation's words and phrases (regular expressions).
NEGATING = (
    *("not", "no longer", "never", "no more", "any ?more", "stopped", "quit", "ceased to"),
    *("used to", "formerly", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't"),
    *("didn't", "hasn't", "haven't", "hadn't", "won't", "can't", "cannot", "no one", "nobody"),
    *("none", "no"),
)
_NEGATION = re.compile(rf"\b(?:{'|'.join(NEGATING)})\b|n't\b", re.IGNORECASE)


def has_negation(text: str) -> bool:
    """True when a sentence states a negation or an end ("no longer", "not", "never",
    "doesn't", "stopped", "used to", …). For a sentence that ``parse`` reads, prefer its
    ``negated``, which looks only at the relation's words."""
    return bool(_NEGATION.search(text.replace("’", "'")))


# Words of an end, not a denial: "no longer", "any more", "stopped", "used to".
_ENDING = re.compile(
    r"\b(?:no longer|no more|any ?more|stopped|quit|ceased to|used to|formerly|gave up|"
    r"lost interest)\b",
    re.IGNORECASE,
)


def denies(text: str) -> bool:
    """True when a sentence denies ("I never sent it", "Ana has no allergies", "that's not
    true") rather than ends ("no longer", "any more", "stopped", "used to": a change in the
    world, which ``has_negation`` also reads)."""
    said = text.replace("’", "'")
    return bool(_NEGATION.search(_ENDING.sub(" ", said))) and not _ENDING.search(said)
