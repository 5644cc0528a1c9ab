"""The comparison key of a value, and whether two values, or a value and a phrase, are one."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CURRENCY_SYMBOLS = {"$": "usd", "€": "eur", "£": "gbp", "¥": "jpy", "₹": "inr"}
CURRENCY_WORDS = {
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
UNITS = {
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
EDGE_PUNCT = "\"'“”‘’`()[]{}<>"
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
    value = value.strip(EDGE_PUNCT + " ").rstrip(_TRAILING + " ").strip(EDGE_PUNCT + " ")
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
        if word in CURRENCY_WORDS:
            currency = CURRENCY_WORDS[word]
            continue
        words.append(UNITS.get(word, word))
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
ARTICLES = frozenset({"a", "an", "the"})
_PLAIN_WORD = re.compile(r"[a-z]{4,}")


def singular(word: str) -> str:
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
        singular(w) for w in re.split(r"[\s,;]+", normalize_value(text)) if w and w not in ARTICLES
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
