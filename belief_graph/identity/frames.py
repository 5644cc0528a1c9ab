"""The (subject, relation, value) frame of a simple memory-style sentence, and the value a claim
holds."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .negation import has_negation
from .values import CURRENCY_WORDS, EDGE_PUNCT, UNITS
from .words import (
    ADVERBS,
    AUX,
    BASE_VERBS,
    COPULA,
    DETERMINERS,
    ENDED,
    ENDING_IDIOMS,
    NEG_CONTRACTIONS,
    PARTICLES,
    PAST,
    PAST_OF,
    PREPOSITIONS,
    PRONOUN_SUBJECTS,
    RELATIVE_WORDS,
    STATES_PAST,
    TOKEN,
    TRAILING_PHRASES,
    TRAILING_TIME,
)


@dataclass(frozen=True)
class Statement:
    """What a simple sentence says: ``subject`` ``relation`` ``value``, with its polarity.

    ``subject`` and ``relation`` are comparison keys (casefolded; the relation's verb in the
    present tense, negation words left out); ``value`` is the rest as written (compare it with
    ``normalize_value``). ``negated``: the relation is denied or ended ("no longer works at",
    "doesn't like", "lived in … until 2020", "used to live in"). ``definite``: the subject is a
    definite description ("my flight to Berlin", "the capital of France", "Priya's salary"),
    whose copula states one value at a time.
    """

    subject: str
    relation: str
    value: str
    negated: bool = False
    copular: bool = False
    definite: bool = False

    @property
    def cardinality_hint(self) -> str | None:
        """``multi`` for a copula with a bare attribute of a named subject ("Priya is
        vegetarian", "Priya is a nurse": attributes coexist), else ``None`` (the vocabulary
        decides)."""
        if self.copular and self.relation in ("is", "are", "am") and not self.definite:
            return "multi"
        return None


def _clean_tokens(text: str) -> list[str]:
    raw = TOKEN.findall(text.replace("’", "'"))
    tokens = []
    for i, token in enumerate(raw):
        token = token.strip(EDGE_PUNCT)
        token = token.rstrip(",;:!?" + ("." if i == len(raw) - 1 else ""))
        if token:
            tokens.append(token)
    return tokens


def third_person(base: str) -> str:
    if base in ("be",):
        return "is"
    if base == "have":
        return "has"
    if base == "go":
        return "goes"
    if base.endswith("y") and len(base) > 2 and base[-2] not in "aeiou":
        return base[:-1] + "ies"
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    return base + "s"


def base_of(word: str) -> str | None:
    """The base form of a verb-looking lowercase word, or None if it does not look like one."""
    if word in PAST:
        return PAST[word]
    if word in BASE_VERBS:
        return word
    if word.endswith("ies") and word[:-3] + "y" in BASE_VERBS:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2] in BASE_VERBS:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")) and len(word) > 3:
        return word[:-1]
    if word.endswith("ed") and len(word) > 4:
        return word[:-2]
    return None


def _is_verb_at(tokens: list[str], i: int) -> bool:
    word = tokens[i]
    lower = word.lower()
    if lower in COPULA or lower in AUX or lower in NEG_CONTRACTIONS:
        return True
    if lower in ("no", "never", "not") or lower in ADVERBS:
        # "Priya no longer works", "Priya now lives": an adverb opens the verb group only when
        # a verb follows it.
        return i + 1 < len(tokens) and _is_verb_at(tokens, i + 1)
    if lower == "longer" and tokens[i - 1].lower() == "no":
        return i + 1 < len(tokens) and _is_verb_at(tokens, i + 1)
    if lower == "used" and i + 1 < len(tokens) and tokens[i + 1].lower() == "to":
        return True
    if word != lower:  # a capitalized word inside a subject is a name, not a verb
        return False
    before = tokens[i - 1].lower()
    if before in DETERMINERS or before.endswith("'s") or before in PREPOSITIONS:
        return False
    if lower in PREPOSITIONS or lower in DETERMINERS or lower == "and":
        return False
    return base_of(lower) is not None


def parse(text: str) -> Statement | None:
    """The frame of a simple declarative sentence, or ``None`` when it has none that this
    model-free reader can trust (no verb after a subject, a question, a pronoun subject, or
    several clauses)."""
    if "?" in text or ";" in text:
        return None
    tokens = _clean_tokens(text)
    if len(tokens) < 3:
        return None
    verb = next((i for i in range(1, len(tokens)) if _is_verb_at(tokens, i)), None)
    if verb is None:
        return None
    relative = next((k for k in range(1, verb) if tokens[k].lower() in RELATIVE_WORDS), None)
    if relative is not None:
        # "The university where Beckett was educated is Trinity College": the relative clause
        # is part of the subject, and the main verb is the last copula.
        main = [k for k in range(relative + 2, len(tokens) - 1) if tokens[k].lower() in COPULA]
        if not main:
            return None
        verb = main[-1]
    ended = _ending_idiom(tokens, verb)
    subject_words = [t.lower() for t in tokens[:verb]]
    if subject_words[0] in PRONOUN_SUBJECTS and len(subject_words) == 1:
        return None  # "she lives in Porto": who "she" is needs the conversation
    definite = subject_words[0] in DETERMINERS or any(w.endswith("'s") for w in subject_words)
    if subject_words[0] in ("the", "a", "an") and len(subject_words) > 1:
        subject_words = subject_words[1:]
    subject = " ".join(subject_words)

    negated = False
    copular = False
    relation: list[str] = []
    i = verb
    aux_base: str | None = None
    while i < len(tokens):
        lower = tokens[i].lower()
        if lower in NEG_CONTRACTIONS:
            negated = True
            aux = NEG_CONTRACTIONS[lower]
            if aux in COPULA:
                copular = True
                relation.append(aux)
            aux_base = aux
            i += 1
        elif lower in ("not", "never", "cannot") or (
            lower == "no" and i + 1 < len(tokens) and tokens[i + 1].lower() in ("longer", "more")
        ):
            negated = True
            i += 2 if lower == "no" else 1
        elif lower in ("anymore",):
            negated = True
            i += 1
        elif lower == "used" and i + 1 < len(tokens) and tokens[i + 1].lower() == "to":
            negated = True
            i += 2
        elif lower in ADVERBS:
            i += 1
        elif lower in COPULA:
            copular = True
            relation.append("is" if lower in ("is", "'s", "am", "be", "being") else lower)
            aux_base = lower
            i += 1
        elif lower in AUX and aux_base is None:
            aux_base = lower
            i += 1
        else:
            break
    if i >= len(tokens):
        return None
    lower = tokens[i].lower()
    if copular:
        if relation and relation[-1] == "been":
            relation.pop()
        # "was born in", "is allergic to", "is a citizen of": up to three words before a
        # preposition belong to the relation; "is 34 years old": the unit does.
        j = i
        while j < len(tokens) and j - i < 4 and tokens[j].lower() not in PREPOSITIONS:
            j += 1
        quantity = _quantity(tokens, i)
        if quantity is not None:
            relation.extend(quantity[1])
            value_tokens = quantity[0]
        elif (
            j < len(tokens)
            and 0 <= j - i <= 3
            and tokens[j].lower() in PREPOSITIONS
            # A name right after the copula is the value ("is Charles Frederick, Duke of
            # Holstein-Gottorp", "is University of Bonn"), not a relation ("is a citizen of").
            and not (j > i and tokens[i][:1].isupper())
        ):
            relation.extend(t.lower() for t in tokens[i : j + 1])
            value_tokens = tokens[j + 1 :]
        else:
            value_tokens = tokens[i:]
        rel = " ".join(relation) or "is"
    else:
        base = base_of(lower) if tokens[i] == lower else None
        if base is None:
            if aux_base in ("has", "have", "had"):
                base = "have"
                value_tokens_start = i
            else:
                return None
        else:
            value_tokens_start = i + 1
        if lower in PAST and aux_base is None and not negated and ENDED.search(text):
            negated = True  # "lived in Lisbon until 2020": the fact ended
        words = [third_person(base)]
        j = value_tokens_start
        while j < len(tokens) and tokens[j].lower() in PARTICLES:
            words.append(tokens[j].lower())
            j += 1
        if j < len(tokens) and tokens[j].lower() in PREPOSITIONS:
            words.append(tokens[j].lower())
            j += 1
        rel = " ".join(words)
        past = PAST_OF.get(base)
        if lower in PAST and lower not in ("had",) and not negated and base in PAST.values():
            # A plain past ("moved to", "joined") keeps its own relation unless it ended.
            if lower not in STATES_PAST:
                rel = " ".join([lower, *words[1:]])
        elif aux_base == "did" and past is not None and past not in STATES_PAST:
            # "didn't go to the concert" denies "went to the concert": the same past event.
            rel = " ".join([past, *words[1:]])
        value_tokens = tokens[j:]
    if not copular and rel in ("has", "have") and (quantity := _quantity(value_tokens, 0)):
        # "has 128 GB of storage": a quantity of one thing, not one of many possessions.
        rel = " ".join(["has", *quantity[1]])
        value_tokens = quantity[0]
    value_words = list(value_tokens)
    while value_words:
        if [w.lower() for w in value_words[-2:]] in TRAILING_PHRASES:
            del value_words[-2:]  # "doesn't like jazz any more": the end, not the value
        elif value_words[-1].lower() in TRAILING_TIME:
            value_words.pop()
        else:
            break
    cut = next(
        (k for k, w in enumerate(value_words) if w.lower() in ("until", "till", "since")), None
    )
    if cut is not None and cut > 0:
        value_words = value_words[:cut]
    value = " ".join(value_words).strip()
    if " and " in f" {value.lower()} " and has_negation(value):
        return None  # "cancelled and no longer has a gym membership": two clauses
    if ended is not None:
        rel, value, negated, copular = ended[0], ended[1], True, False
    if not value or not subject:
        return None
    return Statement(subject, rel, value, negated, copular, definite)


def relation_frame(text: str) -> Statement | None:
    """The frame of a sentence for its relation and value only: ``parse``'s, or for a sentence
    whose subject is a pronoun ("We use Redis for caching"), the frame it would have with a
    name there. Who a pronoun names needs the conversation, so its ``subject`` is no identity;
    what relation it states and with which value is in the sentence."""
    statement = parse(text)
    if statement is not None:
        return statement
    words = text.split(maxsplit=1)
    pronoun = words[0].lower().strip(",") if words else ""
    if len(words) < 2 or pronoun not in PRONOUN_SUBJECTS:
        return None
    statement = parse(f"Someone {words[1]}")
    return None if statement is None else replace(statement, subject=pronoun, definite=False)


_UNIT_WORDS = set(UNITS) | set(UNITS.values()) | set(CURRENCY_WORDS)
_NUMBER = re.compile(r"[$€£¥₹]?\d[\d,.]*[a-z%]*")


def _quantity(tokens: list[str], i: int) -> tuple[list[str], list[str]] | None:
    """(value tokens, relation words) when ``tokens[i:]`` is a number with its units and a
    rest that names what is counted ("35 years old", "1,500 euros", "128 GB of storage");
    the rest joins the relation, so "is 34 years old" and "is 35 years old" are one fact."""
    if i >= len(tokens) or not _NUMBER.fullmatch(tokens[i].lower()):
        return None
    j = i + 1
    while j < len(tokens) and tokens[j].lower() in _UNIT_WORDS:
        j += 1
    rest = [t.lower() for t in tokens[j:]]
    if rest and rest[0] in ("a", "an", "per") and len(rest) == 2:
        rest = []  # "a month", "per year": a rate, part of the value's unit
        j = len(tokens)
    return tokens[i:j], rest


def _ending_idiom(tokens: list[str], verb: int) -> tuple[str, str] | None:
    """(the relation ended, its value) when the verb group is an ending idiom, else None."""
    words = [t.lower() for t in tokens[verb:]]
    while words and words[0] in ADVERBS:
        words = words[1:]
    joined = " ".join(words)
    for phrase, relation in ENDING_IDIOMS:
        if joined.startswith(phrase + " ") and relation != "does":
            rest = tokens[len(tokens) - len(words) + len(phrase.split()) :]
            value = " ".join(rest).strip()
            return (relation, value) if value else None
    return None


def stated_value(obj: str | None, text: str | None) -> str | None:
    """The value a claim holds: its object, else the value its sentence states (or None)."""
    if obj is not None:
        return obj
    statement = parse(text) if text else None
    return statement.value if statement is not None else None
