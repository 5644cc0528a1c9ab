"""Identity without a model: the value normalizer, the polarity of a sentence, and the
(subject, relation, value) frame of a simple memory-style sentence.

These decide which fact a claim is about and whether two claims hold the same value; the models
only judge contradiction within a fact and propose paraphrases (docs/semantic.md).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

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


# Words whose order carries meaning ("from Lisbon to Porto" is not "from Porto to Lisbon"): a
# value holding one keeps its word order in its key.
_ORDERED = frozenset(
    "to from into onto than before after then vs versus over under above below per".split()
)
_ARTICLES = frozenset({"a", "an", "the"})
_PLAIN_WORD = re.compile(r"[a-z]{4,}")


def _singular(word: str) -> str:
    """One form for a word and its plural ("seats" and "seat", "cities" and "city", "boxes"
    and "box"); a stem, not a word: only two forms that meet matter. Words it cannot be sure of
    ("glass", "bus", "analysis") are kept."""
    if not _PLAIN_WORD.fullmatch(word):
        return word
    if word.endswith("ies"):
        return word[:-1]
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("s"):
        return word[:-1]
    if word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ie"
    return word


@lru_cache(maxsize=4096)
def value_key(text: str) -> str:
    """The identity of a value: ``normalize_value``, then articles dropped, each plain word in
    one form for singular and plural, and the words in one order unless the value holds a word
    whose order carries meaning ("to", "from", "than", ...). "a window seat", "Window seats" and
    "seats, window" are one value; "Express.js" and "Express.js 5", "from Lisbon to Porto" and
    "from Porto to Lisbon" stay two."""
    words = [
        _singular(w)
        for w in re.split(r"[\s,;]+", normalize_value(text))
        if w and w not in _ARTICLES
    ]
    if not words:
        return normalize_value(text)
    if not _ORDERED.intersection(words):
        words.sort()
    return " ".join(words)


def same_value(a: str, b: str) -> bool:
    """True when two values are one value (``value_key``): the same after ``normalize_value``,
    or differing only by articles, plural, case or word order."""
    return value_key(a) == value_key(b)


_FILLER_LEAD = re.compile(r"^(?:the|a|an|her|his|their|our|my|your)\b\s*")
_OF_LEAD = re.compile(r"(?:(?:the|a|an)\s+)?[^\d\s]+(?:\s+[^\d\s]+)?\s+of")


def value_in_text(value: str, stated: str) -> bool:
    """True when the structured ``value`` is what a sentence's value phrase ``stated`` says:
    equal after normalization, or ``stated`` ends with it after leading filler ("the city of
    London" states ``London``). Extra words after the value ("Express.js 5") make it another
    value."""
    if value_key(value) == value_key(stated):
        return True
    v, s = normalize_value(value), normalize_value(stated)
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
    if word in _PAST or word in _BASE_VERBS or word in _COPULA or word in _AUX:
        return True
    for stem in (word[:-1], word[:-2], word[:-3] + "y" if word.endswith("ies") else ""):
        if stem in _BASE_VERBS and word.endswith(("s", "ed", "ies")):
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
# Base verb -> its past form; a past of a state ("lived", "worked") reads as the state itself.
_PAST_OF = {base: past for past, base in reversed(list(_PAST.items()))}
_STATES_PAST = frozenset({"lived", "worked", "liked", "loved", "used", "owned", "studied", "had"})
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
# Two-word phrases of time or of an end that close a sentence ("uses Neovim these days").
_TRAILING_PHRASES = (
    ["any", "more"],
    ["any", "longer"],
    ["these", "days"],
    ["right", "now"],
    ["for", "now"],
    ["at", "present"],
    ["this", "year"],
)
_PRONOUN_SUBJECTS = {"he", "she", "they", "it", "you"}
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
        past = _PAST_OF.get(base)
        if lower in _PAST and lower not in ("had",) and not negated and base in _PAST.values():
            # A plain past ("moved to", "joined") keeps its own relation unless it ended.
            if lower not in _STATES_PAST:
                rel = " ".join([lower, *words[1:]])
        elif aux_base == "did" and past is not None and past not in _STATES_PAST:
            # "didn't go to the concert" denies "went to the concert": the same past event.
            rel = " ".join([past, *words[1:]])
        value_tokens = tokens[j:]
    if not copular and rel in ("has", "have") and (quantity := _quantity(value_tokens, 0)):
        # "has 128 GB of storage": a quantity of one thing, not one of many possessions.
        rel = " ".join(["has", *quantity[1]])
        value_tokens = quantity[0]
    value_words = list(value_tokens)
    while value_words:
        if [w.lower() for w in value_words[-2:]] in _TRAILING_PHRASES:
            del value_words[-2:]  # "doesn't like jazz any more": the end, not the value
        elif value_words[-1].lower() in _TRAILING_TIME:
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
    if len(words) < 2 or pronoun not in _PRONOUN_SUBJECTS:
        return None
    statement = parse(f"Someone {words[1]}")
    return None if statement is None else replace(statement, subject=pronoun, definite=False)


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
    {*_ARTICLES, *_PREPOSITIONS, *_DETERMINERS, *_COPULA, *_AUX, "and", "or", "i", "we", "you"}
)


def _content(text: str) -> set[str]:
    return {
        _singular(w)
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
        if not has_negation(w) and _base_of(w) is None and w not in _PRONOUN_SUBJECTS
    }


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
