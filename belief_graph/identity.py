"""Identity without a model: the value normalizer, the polarity of a sentence, and the
(subject, relation, value) frame of a simple memory-style sentence.

These decide which fact a claim is about and whether two claims hold the same value; the models
only judge contradiction within a fact and propose paraphrases (docs/semantic.md).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "Statement",
    "has_negation",
    "normalize_value",
    "parse",
    "polarity",
    "same_value",
    "stated_value",
    "value_in_text",
    "values_match",
]

# -- values ------------------------------------------------------------------------------------

_CURRENCY_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "₹": "inr"}
_CURRENCY_WORDS = {
    "usd": "usd",
    "dollar": "usd",
    "dollars": "usd",
    "us$": "usd",
    "eur": "eur",
    "euro": "eur",
    "euros": "eur",
    "gbp": "gbp",
    "pound": "gbp",
    "pounds": "gbp",
    "jpy": "jpy",
    "yen": "jpy",
    "inr": "inr",
    "rupees": "inr",
}
_UNITS = {
    "kilometers": "km",
    "kilometres": "km",
    "kilometer": "km",
    "kilometre": "km",
    "kms": "km",
    "miles": "mi",
    "mile": "mi",
    "kilograms": "kg",
    "kilogram": "kg",
    "kgs": "kg",
    "pounds-weight": "lb",
    "lbs": "lb",
    "grams": "g",
    "gram": "g",
    "meters": "m",
    "metres": "m",
    "meter": "m",
    "metre": "m",
    "centimeters": "cm",
    "centimetres": "cm",
    "hours": "h",
    "hour": "h",
    "hrs": "h",
    "hr": "h",
    "minutes": "min",
    "minute": "min",
    "mins": "min",
    "seconds": "s",
    "second": "s",
    "secs": "s",
    "years": "y",
    "year": "y",
    "yrs": "y",
    "months": "mo",
    "month": "mo",
    "weeks": "wk",
    "week": "wk",
    "days": "d",
    "day": "d",
    "gigabytes": "gb",
    "megabytes": "mb",
    "percent": "%",
    "per cent": "%",
}
_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d])")
_SCALE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?([km])\b", re.IGNORECASE)
_NUMBER_UNIT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)([a-z%]+)\b")
_EDGE_PUNCT = "\"'“”‘’`()[]{}<>"
_TRAILING = ".,;:!?"


@lru_cache(maxsize=4096)
def normalize_value(text: str) -> str:
    """The comparison key of an object value (the stored text stays as given; remembered: a
    fact's value is compared with every draft of it).

    Unicode NFKC and casefold; whitespace collapsed; quotes and brackets around the value and
    trailing sentence punctuation dropped (``"Lisbon."`` = ``lisbon``); thousands separators
    removed and ``k``/``m`` suffixes expanded (``$90,000`` = ``90000 usd`` = ``90k dollars``);
    currency symbols and names become one code after the number; a unit written against its
    number is split off and unit names take one short form (``5km`` = ``5 kilometers`` =
    ``5 km``). Inner punctuation and every other word are kept, so ``Express.js`` and
    ``Express.js 5``, ``Python 3.1`` and ``Python 3.10`` stay different.
    """
    value = unicodedata.normalize("NFKC", text).casefold()
    value = " ".join(value.split())
    value = value.strip(_EDGE_PUNCT + " ").rstrip(_TRAILING + " ").strip(_EDGE_PUNCT + " ")
    if not value:
        return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    currency = ""
    for symbol, code in _CURRENCY_SYMBOLS.items():
        if symbol in value:
            currency = code
            value = value.replace(symbol, " ")
    value = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), value)

    def scaled(m: re.Match[str]) -> str:
        number = float(m.group(1)) * (1_000 if m.group(2).lower() == "k" else 1_000_000)
        return f"{number:g}" if number < 1e15 else m.group(0)

    value = _SCALE.sub(lambda m: _plain(scaled(m)), value)
    value = _NUMBER_UNIT.sub(lambda m: f"{m.group(1)} {m.group(2)}", value)
    words: list[str] = []
    for word in value.split():
        if word in _CURRENCY_WORDS:
            currency = _CURRENCY_WORDS[word]
            continue
        words.append(_UNITS.get(word, word))
    if currency:
        words.append(currency)
    return " ".join(words).strip()


def _plain(number: str) -> str:
    # "9e+04" from :g for large round numbers; write digits.
    try:
        as_float = float(number)
    except ValueError:
        return number
    return str(int(as_float)) if as_float.is_integer() else number


def same_value(a: str, b: str) -> bool:
    """True when two values are the same after ``normalize_value``."""
    return normalize_value(a) == normalize_value(b)


_FILLER_LEAD = re.compile(r"^(?:the|a|an|her|his|their|our|my|your)\b\s*")
_OF_LEAD = re.compile(r"(?:(?:the|a|an)\s+)?[^\d\s]+(?:\s+[^\d\s]+)?\s+of")


def value_in_text(value: str, stated: str) -> bool:
    """True when the structured ``value`` is what a sentence's value phrase ``stated`` says:
    equal after normalization, or ``stated`` ends with it after leading filler ("the city of
    London" states ``London``). Extra words after the value ("Express.js 5") make it another
    value."""
    v, s = normalize_value(value), normalize_value(stated)
    if v == s:
        return True
    s = _FILLER_LEAD.sub("", s)
    if s == v:
        return True
    # Only "<article> <word> of" may lead: "the city of London", "the position of goalkeeper";
    # "Alfama, Lisbon" and "senior engineer" are other values.
    lead = s[: -len(v)].strip() if s.endswith(" " + v) else None
    return lead is not None and bool(_OF_LEAD.fullmatch(lead))


# -- polarity ----------------------------------------------------------------------------------

# has_negation's words and phrases (regular expressions).
_NEGATING = (
    *("not", "no longer", "never", "no more", "any ?more", "stopped", "quit", "ceased to"),
    *("used to", "formerly", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't"),
    *("didn't", "hasn't", "haven't", "hadn't", "won't", "can't", "cannot", "no one", "nobody"),
    *("none", "no"),
)
_NEGATION = re.compile(rf"\b(?:{'|'.join(_NEGATING)})\b|n't\b", re.IGNORECASE)


def has_negation(text: str) -> bool:
    """True when a sentence states a negation or an end ("no longer", "not", "never",
    "doesn't", "stopped", "used to", …). For a sentence that ``parse`` reads, prefer its
    ``negated``, which looks only at the relation's words."""
    return bool(_NEGATION.search(text.replace("’", "'")))


# -- frames ------------------------------------------------------------------------------------

_COPULA = {"is", "are", "was", "were", "am", "be", "been", "being", "'s", "'re", "'m"}
_AUX = {
    "has",
    "have",
    "had",
    "does",
    "do",
    "did",
    "will",
    "would",
    "can",
    "could",
    "should",
    "may",
    "might",
    "must",
    "shall",
    "gets",
    "got",
}
_NEG_WORDS = {"not", "never", "no", "longer", "more", "anymore", "cannot"}
_NEG_CONTRACTIONS = {
    "isn't": "is",
    "aren't": "are",
    "wasn't": "was",
    "weren't": "were",
    "doesn't": "does",
    "don't": "do",
    "didn't": "did",
    "hasn't": "has",
    "haven't": "have",
    "hadn't": "had",
    "won't": "will",
    "can't": "can",
    "wouldn't": "would",
    "shouldn't": "should",
}
_ADVERBS = {
    "now",
    "still",
    "also",
    "currently",
    "usually",
    "often",
    "always",
    "recently",
    "just",
    "already",
    "finally",
    "sometimes",
    "really",
    "actually",
    "mostly",
    "officially",
    "again",
    "then",
}
_DETERMINERS = {
    "the",
    "a",
    "an",
    "my",
    "your",
    "his",
    "her",
    "our",
    "their",
    "its",
    "this",
    "that",
    "these",
    "those",
    "every",
    "each",
}
_PREPOSITIONS = {
    "in",
    "at",
    "to",
    "of",
    "for",
    "from",
    "with",
    "on",
    "by",
    "as",
    "about",
    "into",
    "near",
    "under",
    "over",
    "around",
    "after",
    "before",
    "since",
    "until",
    "during",
    "like",
    "than",
}
_PARTICLES = {"up", "down", "out", "off", "back", "away"}
_BASE_VERBS = {
    "live",
    "work",
    "like",
    "love",
    "hate",
    "prefer",
    "use",
    "want",
    "need",
    "own",
    "speak",
    "drive",
    "play",
    "go",
    "eat",
    "drink",
    "study",
    "teach",
    "run",
    "earn",
    "make",
    "attend",
    "enjoy",
    "plan",
    "travel",
    "fly",
    "visit",
    "know",
    "take",
    "keep",
    "read",
    "write",
    "watch",
    "cook",
    "swim",
    "report",
    "manage",
    "lead",
    "belong",
    "stay",
    "move",
    "support",
    "follow",
    "practice",
    "practise",
    "collect",
    "wear",
    "sleep",
    "wake",
    "commute",
    "rent",
    "listen",
    "reply",
    "respond",
    "answer",
    "deploy",
    "host",
    "store",
    "ship",
    "depend",
    "rely",
    "call",
    "meet",
    "start",
    "finish",
    "begin",
    "end",
    "open",
    "close",
    "avoid",
    "miss",
    "get",
    "see",
    "date",
    "marry",
    "adopt",
    "hold",
    "lose",
    "have",
}
_PAST = {
    "lived": "live",
    "worked": "work",
    "liked": "like",
    "loved": "love",
    "hated": "hate",
    "preferred": "prefer",
    "used": "use",
    "wanted": "want",
    "needed": "need",
    "owned": "own",
    "spoke": "speak",
    "drove": "drive",
    "played": "play",
    "went": "go",
    "ate": "eat",
    "drank": "drink",
    "studied": "study",
    "taught": "teach",
    "ran": "run",
    "earned": "earn",
    "made": "make",
    "attended": "attend",
    "enjoyed": "enjoy",
    "stayed": "stay",
    "moved": "move",
    "managed": "manage",
    "led": "lead",
    "belonged": "belong",
    "took": "take",
    "kept": "keep",
    "had": "have",
    "got": "get",
    "lost": "lose",
    "left": "leave",
    "joined": "join",
    "switched": "switch",
    "started": "start",
    "stopped": "stop",
    "quit": "quit",
    "became": "become",
    "bought": "buy",
    "sold": "sell",
    "met": "meet",
    "married": "marry",
    "adopted": "adopt",
    "relocated": "relocate",
    "rented": "rent",
    "reported": "report",
    "rose": "rise",
    "grew": "grow",
    "dropped": "drop",
    "changed": "change",
    "increased": "increase",
    "decreased": "decrease",
    "held": "hold",
    "founded": "found",
    "died": "die",
    "retired": "retire",
}
_ENDED = re.compile(r"\b(?:until|till|up to)\s+(?:\d{4}|last|recently|\w+ \d{4})", re.IGNORECASE)
_TRAILING_TIME = {
    "now",
    "currently",
    "today",
    "anymore",
    "again",
    "too",
    "nowadays",
    "lately",
    "recently",
}
_PRONOUN_SUBJECTS = {"he", "she", "they", "it", "we", "you"}
_RELATIVE_WORDS = {"where", "who", "whom", "whose", "which", "that", "when"}
_TOKEN = re.compile(r"[^\s]+")


# Phrases that end a relation without a negation word: "lost interest in gardening" ends
# "likes gardening". (phrase, the relation it ends)
_ENDING_IDIOMS = (
    ("lost interest in", "likes"),
    ("fell out of love with", "loves"),
    ("stopped liking", "likes"),
    ("stopped loving", "loves"),
    ("stopped using", "uses"),
    ("stopped working at", "works at"),
    ("stopped working for", "works for"),
    ("stopped living in", "lives in"),
    ("stopped eating", "eats"),
    ("stopped drinking", "drinks"),
    ("stopped playing", "plays"),
    ("moved out of", "lives in"),
    ("moved away from", "lives in"),
    ("no longer lives in", "lives in"),
    ("gave up", "does"),
    ("quit", "does"),
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
    raw = _TOKEN.findall(text.replace("’", "'"))
    tokens = []
    for i, token in enumerate(raw):
        token = token.strip(_EDGE_PUNCT)
        token = token.rstrip(",;:!?" + ("." if i == len(raw) - 1 else ""))
        if token:
            tokens.append(token)
    return tokens


def _third_person(base: str) -> str:
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


def _base_of(word: str) -> str | None:
    """The base form of a verb-looking lowercase word, or None if it does not look like one."""
    if word in _PAST:
        return _PAST[word]
    if word in _BASE_VERBS:
        return word
    if word.endswith("ies") and word[:-3] + "y" in _BASE_VERBS:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2] in _BASE_VERBS:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")) and len(word) > 3:
        return word[:-1]
    if word.endswith("ed") and len(word) > 4:
        return word[:-2]
    return None


def _is_verb_at(tokens: list[str], i: int) -> bool:
    word = tokens[i]
    lower = word.lower()
    if lower in _COPULA or lower in _AUX or lower in _NEG_CONTRACTIONS:
        return True
    if lower in ("no", "never", "not") or lower in _ADVERBS:
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
    if before in _DETERMINERS or before.endswith("'s") or before in _PREPOSITIONS:
        return False
    if lower in _PREPOSITIONS or lower in _DETERMINERS or lower == "and":
        return False
    return _base_of(lower) is not None


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
    relative = next((k for k in range(1, verb) if tokens[k].lower() in _RELATIVE_WORDS), None)
    if relative is not None:
        # "The university where Beckett was educated is Trinity College": the relative clause
        # is part of the subject, and the main verb is the last copula.
        main = [k for k in range(relative + 2, len(tokens) - 1) if tokens[k].lower() in _COPULA]
        if not main:
            return None
        verb = main[-1]
    ended = _ending_idiom(tokens, verb)
    subject_words = [t.lower() for t in tokens[:verb]]
    if subject_words[0] in _PRONOUN_SUBJECTS and len(subject_words) == 1:
        return None  # "she lives in Porto": who "she" is needs the conversation
    definite = subject_words[0] in _DETERMINERS or any(w.endswith("'s") for w in subject_words)
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
        if lower in _NEG_CONTRACTIONS:
            negated = True
            aux = _NEG_CONTRACTIONS[lower]
            if aux in _COPULA:
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
        elif lower in _ADVERBS:
            i += 1
        elif lower in _COPULA:
            copular = True
            relation.append("is" if lower in ("is", "'s", "am", "be", "being") else lower)
            aux_base = lower
            i += 1
        elif lower in _AUX and aux_base is None:
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
        while j < len(tokens) and j - i < 4 and tokens[j].lower() not in _PREPOSITIONS:
            j += 1
        quantity = _quantity(tokens, i)
        if quantity is not None:
            relation.extend(quantity[1])
            value_tokens = quantity[0]
        elif (
            j < len(tokens)
            and 0 <= j - i <= 3
            and tokens[j].lower() in _PREPOSITIONS
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
        base = _base_of(lower) if tokens[i] == lower else None
        if base is None:
            if aux_base in ("has", "have", "had"):
                base = "have"
                value_tokens_start = i
            else:
                return None
        else:
            value_tokens_start = i + 1
        if lower in _PAST and aux_base is None and not negated and _ENDED.search(text):
            negated = True  # "lived in Lisbon until 2020": the fact ended
        words = [_third_person(base)]
        j = value_tokens_start
        while j < len(tokens) and tokens[j].lower() in _PARTICLES:
            words.append(tokens[j].lower())
            j += 1
        if j < len(tokens) and tokens[j].lower() in _PREPOSITIONS:
            words.append(tokens[j].lower())
            j += 1
        rel = " ".join(words)
        if lower in _PAST and lower not in ("had",) and not negated and base in _PAST.values():
            # A plain past ("moved to", "joined") keeps its own relation unless it ended.
            if lower not in ("lived", "worked", "liked", "loved", "used", "owned", "studied"):
                rel = " ".join([lower, *words[1:]])
        value_tokens = tokens[j:]
    if not copular and rel in ("has", "have") and (quantity := _quantity(value_tokens, 0)):
        # "has 128 GB of storage": a quantity of one thing, not one of many possessions.
        rel = " ".join(["has", *quantity[1]])
        value_tokens = quantity[0]
    value_words = list(value_tokens)
    while value_words and value_words[-1].lower() in _TRAILING_TIME:
        value_words.pop()
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


_UNIT_WORDS = set(_UNITS) | set(_UNITS.values()) | set(_CURRENCY_WORDS)
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
    while words and words[0] in _ADVERBS:
        words = words[1:]
    joined = " ".join(words)
    for phrase, relation in _ENDING_IDIOMS:
        if joined.startswith(phrase + " ") and relation != "does":
            rest = tokens[len(tokens) - len(words) + len(phrase.split()) :]
            value = " ".join(rest).strip()
            return (relation, value) if value else None
    return None


# The words without one of which no sentence is negated or ended: ``has_negation``'s (among
# them ``parse``'s negation words), and the first word of every other way ``parse`` sets
# ``negated`` ("used to", an end "until 2020" as ``_ENDED`` reads it, an ending idiom). A
# sentence with none is affirmative: a regex search instead of a parse, which was a fifth of
# planning a structured draft. One group of words: a search of many groups is as slow as a parse.
_MAY_NEGATE_WORDS = (
    *_NEGATING,
    *("used", "until", "till", "up to"),
    *(phrase.split()[0] for phrase, _ in _ENDING_IDIOMS),
)
_MAY_NEGATE = re.compile(
    rf"\b(?:{'|'.join(dict.fromkeys(_MAY_NEGATE_WORDS))})\b|n't\b", re.IGNORECASE
)


def polarity(negated: bool | None, text: str) -> bool:
    """Whether a claim is negated: as stated (``negated`` not None), else read from its text
    (the frame's relation words when ``parse`` reads the sentence, else any negation word)."""
    if negated is not None:
        return negated
    if not _MAY_NEGATE.search(text.replace("’", "'")):
        return False
    statement = parse(text)
    return statement.negated if statement is not None else has_negation(text)


def stated_value(obj: str | None, text: str | None) -> str | None:
    """The value a claim holds: its object, else the value its sentence states (or None)."""
    if obj is not None:
        return obj
    statement = parse(text) if text else None
    return statement.value if statement is not None else None


def values_match(a_obj: str | None, a_value: str, b_obj: str | None, b_value: str) -> bool:
    """Whether two claims hold one value. Two objects: equal after ``normalize_value``. An
    object against a sentence's value phrase: ``value_in_text``. Two phrases: equal."""
    if a_obj is not None and b_obj is not None:
        return same_value(a_obj, b_obj)
    if a_obj is not None:
        return value_in_text(a_obj, b_value)
    if b_obj is not None:
        return value_in_text(b_obj, a_value)
    return value_in_text(a_value, b_value) or value_in_text(b_value, a_value)
