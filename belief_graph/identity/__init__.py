"""Identity without a model: the value normalizer, the polarity of a sentence, and the
(subject, relation, value) frame of a simple memory-style sentence.

These decide which fact a claim is about and whether two claims hold the same value; the models
only judge contradiction within a fact and propose paraphrases (docs/semantic.md).

``values`` (a value's comparison key), ``negation`` (negation and denial words), ``words`` (the
closed word lists), ``frames`` (a sentence's frame), ``polarity`` (what a sentence says about a
value): each imports only those before it.
"""

from __future__ import annotations

from .frames import Statement, parse, relation_frame, stated_value
from .negation import denies, has_negation
from .polarity import Reading, clauses, polarity, polarity_of_value, readings, shared_terms
from .values import normalize_value, same_value, value_in_text, value_key, values_match

__all__ = [
    "Reading",
    "Statement",
    "clauses",
    "denies",
    "has_negation",
    "normalize_value",
    "parse",
    "polarity",
    "polarity_of_value",
    "readings",
    "relation_frame",
    "same_value",
    "shared_terms",
    "stated_value",
    "value_in_text",
    "value_key",
    "values_match",
]
