"""The offline extractor: patterns over plain statements, no network and no model.

It splits a turn into sentences (code left out) and sentences into clauses ("and I ...", ";",
"but now", "—"), finds who each clause is about (the speaker; a person named by relation, "my
sister Ana", and "she" after her; a known subject), and proposes a claim when the clause has one
of these shapes:

- a number whose unit says what it counts ("35 km a week", "165 commits"), money as said, an age;
- a fact named by its noun and given a new value ("the budget went up to $50");
- a value an earlier turn gave, now said to be gone ("Miso passed away"): that fact, negated;
- lists, as several values of a multi-valued fact; requests to the assistant ("reply in
  German", "text me instead");

- first person: "I live in Lisbon", "I'm allergic to peanuts", "I work at Acme", "I'm vegan";
- a possessive: "my manager is Dana", "Bob's email is bob@example.com";
- a known subject by name: "Atlas uses Postgres", "Bob lives in Rome";
- change words around them: "now", "these days", "instead", "moved to", "switched to";
- a change said as coming, with its date: "I'm moving to Berlin next month" (from that date; a
  plan without a date is left alone);
- a past tense in a closed window: "I lived in Paris from 2015 to 2019" (what held then);
- negation: "I no longer eat meat" style ("no longer", "not ... anymore", "don't", "used to",
  "left", "quit"), which proposes the claim negated;
- corrections: "actually ..., not ...", "I meant ...", "sorry, ...", which propose a correction;
- "it was X" / "I meant X" / "I switched to X": the fact of the last claim in the context.

The relation is looked up in the vocabulary (its synonyms and canonical names, longest first), so
a sentence only becomes a claim when its verb or noun is one the vocabulary knows. A turn with
no claim is kept as one text-only proposal of its statements, so search finds it. This
extractor is meant to be precise rather than complete (coverage and limits in
docs/extraction.md).

What chat leaves unsaid is read back: the speaker as subject ("Allergic to cats", "Bought a
house in Utrecht"), the fact's words ("it's moved to Friday", "Berlin now" after a home), a
statement said on the way to a question ("Since I'm vegan, what ...?"); a home or an employer
by the words around its name ("a new job at Stripe", "Brightwater Industries", "we call Montreal
home"); a fact's noun by the head the vocabulary knows ("my piano lessons"). A turn typed with
curly quotes or emoji is read as plain text, its spans kept as typed.

The package: ``extractor`` (``RuleExtractor``, the walk over a turn's sentences and clauses)
calls the readers ``verbs``, ``shapes``, ``homes_and_work``, ``everyday``, ``turns`` and
``unsaid``, and ``typed`` for how a turn is typed; ``common`` holds what they share. A reader
imports only ``common`` and the readers listed after it.
"""

from __future__ import annotations

from ..phrasing import sentences
from .common import DIETS
from .extractor import RuleExtractor

__all__ = ["DIETS", "RuleExtractor", "sentences"]
