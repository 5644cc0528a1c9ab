"""The predicate vocabulary: synonyms to canonical predicates, and each predicate's cardinality.

A slot is ``(namespace, subject, predicate)``, so two claims only meet in one slot when their
predicates normalize to the same canonical name. The vocabulary is a TOML file (a shipped default
plus optional user files, see ``docs/vocabulary.md``)::

    default_cardinality = "single"

    [predicates.uses_framework]
    synonyms = ["uses", "runs on", "is built with"]
    cardinality = "single"
    description = "The main application framework of a project."

Unknown predicates are accepted and normalized to snake_case; their cardinality is the configured
default (``single`` unless configured).

Everything here is pure: no database, no model.
"""

from __future__ import annotations

import functools
import os
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeGuard

from belief_graph.errors import ConfigError
from belief_graph.models import Cardinality

__all__ = [
    "CARDINALITIES",
    "PredicateSpec",
    "Vocabulary",
    "normalize_key",
    "normalize_predicate",
]

CARDINALITIES: tuple[Cardinality, ...] = ("single", "multi")

_SHIPPED_LABEL = "belief_graph/data/vocabulary.toml"
_TOP_LEVEL_KEYS = frozenset({"default_cardinality", "predicates"})
_PREDICATE_KEYS = frozenset({"synonyms", "cardinality", "description"})

# Apostrophes vanish rather than split words, so "doesn't like" and "doesnt like" meet.
_APOSTROPHES = frozenset("'\u2019\u02bc\u2018`\u00b4")
# Only sentence-ending marks: "C++", "C#" and "Node.js" must keep their inner symbols.
_TRAILING_SENTENCE_PUNCT = ".!?,;:\u2026\u3002\uff01\uff1f\uff0c\uff1b\uff1a"


def _is_separator(ch: str) -> bool:
    # Punctuation (incl. "_" and "-"), symbols and control/format characters all separate words.
    return ch.isspace() or unicodedata.category(ch)[0] in "PSCZ"


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())
    cleaned = "".join(
        "" if ch in _APOSTROPHES else (" " if _is_separator(ch) else ch) for ch in folded
    )
    # Dropping an apostrophe can bring a base letter and a combining mark together again.
    return unicodedata.normalize("NFC", cleaned).split()


def _phrase_key(text: str) -> str:
    """The lookup key of a predicate phrase: its words joined by single spaces."""
    return " ".join(_words(text))


def _slug(text: str) -> str:
    """The snake_case form of a predicate phrase (empty if it has no word characters)."""
    return "_".join(_words(text))


def normalize_key(text: str) -> str:
    """Return the comparison key of a subject or object (the stored text stays as given).

    Unicode NFC, casefold, internal whitespace collapsed to one space, ends stripped, and trailing
    sentence punctuation removed, so ``"Go."``, ``" go "`` and ``"GO"`` share one key. Inner
    punctuation is kept (``"Node.js"``, ``"C++"``). A text made only of punctuation keeps it.
    """
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())
    collapsed = " ".join(folded.split())
    # Spaces are in the set so that "go ." loses both the period and the space it exposes.
    stripped = collapsed.rstrip(_TRAILING_SENTENCE_PUNCT + " ")
    return stripped if stripped else collapsed


def fold(text: str) -> str:
    """The one form in which names are looked for in text (``erase(subject=...)`` finding the
    text-only claims that name a subject), the same for the name and for the text: compatibility
    forms unified (NFKC: a full-width "Ｗ" is "W", "ﬁ" is "fi"), full case folding ("ß" and
    "ss", final "ς" and "σ" are one), the dotted and dotless i taken as one letter (Turkish
    "İ", "ı", "I", "i": folding cannot tell a Turkish capital from an English one), and composed
    again (NFC: "e" + combining acute is "é"). Not a slot key (``normalize_key`` is): only a
    match that may find more than an exact spelling."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = unicodedata.normalize("NFD", folded)
    folded = folded.replace("i\u0307", "i").replace("\u0131", "i")
    return unicodedata.normalize("NFC", folded)


@dataclass(frozen=True, slots=True)
class PredicateSpec:
    """One canonical predicate: its name, synonyms, cardinality and description."""

    name: str
    cardinality: Cardinality
    synonyms: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True, eq=False, slots=True)
class Vocabulary:
    """An immutable predicate vocabulary.

    Build one with :meth:`default` (the shipped file) or :meth:`load` (shipped file plus user
    files). ``predicates`` maps each canonical name to its :class:`PredicateSpec`; ``aliases``
    maps every lookup key (a synonym or canonical name, normalized to space-separated words) to its
    canonical name.
    """

    predicates: Mapping[str, PredicateSpec]
    default_cardinality: Cardinality = "single"
    sources: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not _is_cardinality(self.default_cardinality):
            raise ValueError(
                f"default_cardinality must be 'single' or 'multi', got {self.default_cardinality!r}"
            )
        predicates = dict(self.predicates)
        aliases: dict[str, str] = {}
        for name, spec in predicates.items():
            if name != spec.name or _slug(name) != name:
                raise ValueError(f"predicate {name!r} is not a snake_case canonical name")
            aliases[_phrase_key(name)] = name
        for name, spec in predicates.items():
            for synonym in spec.synonyms:
                key = _phrase_key(synonym)
                if not key:
                    raise ValueError(f"predicate {name!r} has an empty synonym")
                owner = aliases.setdefault(key, name)
                if owner != name:
                    raise ValueError(
                        f"synonym {synonym!r} of {name!r} already resolves to {owner!r}"
                    )
        object.__setattr__(self, "predicates", MappingProxyType(predicates))
        object.__setattr__(self, "aliases", MappingProxyType(aliases))

    @classmethod
    def default(cls) -> Vocabulary:
        """Return the shipped default vocabulary (parsed once, then shared)."""
        return _default_vocabulary()

    @classmethod
    def load(
        cls,
        *paths: str | os.PathLike[str],
        default_cardinality: Cardinality | None = None,
        include_default: bool = True,
    ) -> Vocabulary:
        """Load the shipped vocabulary, then each user file in order.

        A later file extends and overrides an earlier one: it may add predicates, add synonyms
        to an existing predicate, or redefine its cardinality or description. A synonym claimed
        by two predicates belongs to the later one; a synonym may not name another canonical
        predicate. ``default_cardinality`` (for predicates the files do not define) wins over any
        ``default_cardinality`` in the files; otherwise the last file that sets it wins, else
        ``"single"``. ``include_default=False`` starts from an empty vocabulary instead.

        Raises :class:`~belief_graph.errors.ConfigError` naming the file and key on a missing or
        malformed file or an invalid entry.
        """
        documents: list[tuple[str, Mapping[str, Any]]] = []
        if include_default:
            documents.append((_SHIPPED_LABEL, _parse(_SHIPPED_LABEL, _shipped_text())))
        for path in paths:
            label = os.fspath(path)
            documents.append((label, _parse(label, _read(Path(path)))))

        file_default: Cardinality | None = None
        for label, document in documents:
            for key in document:
                if key not in _TOP_LEVEL_KEYS:
                    raise ConfigError(
                        f"{label}: unknown top-level key {key!r} "
                        f"(expected 'default_cardinality' or '[predicates.<name>]' tables)"
                    )
            if "default_cardinality" in document:
                file_default = _check_cardinality(
                    label, "default_cardinality", document["default_cardinality"]
                )

        if default_cardinality is not None:
            effective = _check_cardinality(
                "Vocabulary.load()", "default_cardinality", default_cardinality
            )
        else:
            effective = file_default or "single"

        builder = _Builder()
        for label, document in documents:
            builder.apply(label, document.get("predicates", {}))
        return cls(
            predicates=builder.build(effective),
            default_cardinality=effective,
            sources=tuple(label for label, _ in documents),
        )

    def canonical(self, predicate_text: str) -> str:
        """Return the canonical predicate for a phrase; unknown phrases become snake_case.

        Lowercases, applies NFC, strips punctuation and collapses whitespace before the lookup.
        Raises ``ValueError`` if nothing word-like remains.
        """
        return _canonical(self, predicate_text)

    def cardinality(self, canonical: str) -> Cardinality:
        """Return ``"single"`` or ``"multi"`` for a predicate (synonyms are resolved first).

        Unknown predicates get the vocabulary's ``default_cardinality``.
        """
        spec = self.predicates.get(canonical) or self.predicates.get(self.canonical(canonical))
        return spec.cardinality if spec is not None else self.default_cardinality

    def describe(self, canonical: str) -> str:
        """Return the description of a known predicate (synonyms are resolved first).

        Raises ``KeyError`` for a predicate the vocabulary does not define.
        """
        spec = self.predicates.get(canonical) or self.predicates.get(self.canonical(canonical))
        if spec is None:
            raise KeyError(f"predicate {canonical!r} is not in the vocabulary")
        return spec.description

    def __contains__(self, predicate_text: object) -> bool:
        """Whether a phrase resolves to a predicate the vocabulary defines."""
        if not isinstance(predicate_text, str):
            return False
        return _phrase_key(predicate_text) in self.aliases

    def __len__(self) -> int:
        return len(self.predicates)


def normalize_predicate(text: str) -> str:
    """Normalize a predicate phrase with the shipped default vocabulary.

    ``"runs on"`` → ``"uses_framework"``; ``"Favourite Colour!"`` → ``"favourite_colour"``.
    An engine configured with user vocabulary files should call :meth:`Vocabulary.canonical`
    on its own vocabulary instead. Raises ``ValueError`` if nothing word-like remains.
    """
    return Vocabulary.default().canonical(text)


@functools.cache
def _default_vocabulary() -> Vocabulary:
    return Vocabulary.load()


def _shipped_text() -> str:
    resource = resources.files("belief_graph") / "data" / "vocabulary.toml"
    try:
        return resource.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{_SHIPPED_LABEL}: cannot read the shipped vocabulary: {exc}") from exc


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: vocabulary file not found") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read vocabulary file: {exc}") from exc


def _parse(label: str, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{label}: malformed TOML: {exc}") from exc


def _is_cardinality(value: object) -> TypeGuard[Cardinality]:
    return value in CARDINALITIES


def _check_cardinality(label: str, key: str, value: object) -> Cardinality:
    if not _is_cardinality(value):
        raise ConfigError(f"{label}: {key}: expected 'single' or 'multi', got {value!r}")
    return value


@dataclass
class _Draft:
    cardinality: Cardinality | None
    synonyms: list[str]
    description: str


class _Builder:
    """Merges predicate tables file by file; later claims on a lookup key win."""

    def __init__(self) -> None:
        self._drafts: dict[str, _Draft] = {}
        self._owner: dict[str, str] = {}

    def apply(self, label: str, tables: object) -> None:
        if not isinstance(tables, Mapping):
            raise ConfigError(f"{label}: predicates: expected tables like [predicates.<name>]")
        for name, table in tables.items():
            self._apply_one(label, str(name), table)

    def _apply_one(self, label: str, name: str, table: object) -> None:
        where = f"predicates.{name}"
        if _slug(name) != name:
            hint = f" (did you mean {_slug(name)!r}?)" if _slug(name) else ""
            raise ConfigError(f"{label}: {where}: predicate names must be snake_case{hint}")
        if not isinstance(table, Mapping):
            raise ConfigError(f"{label}: {where}: expected a table")
        unknown = sorted(set(table) - _PREDICATE_KEYS)
        if unknown:
            raise ConfigError(
                f"{label}: {where}.{unknown[0]}: unknown key "
                f"(expected one of {', '.join(sorted(_PREDICATE_KEYS))})"
            )
        cardinality = (
            _check_cardinality(label, f"{where}.cardinality", table["cardinality"])
            if "cardinality" in table
            else None
        )
        description = table.get("description")
        if description is not None and not isinstance(description, str):
            raise ConfigError(f"{label}: {where}.description: expected a string")
        synonyms = table.get("synonyms", [])
        if not isinstance(synonyms, list) or not all(isinstance(s, str) for s in synonyms):
            raise ConfigError(f"{label}: {where}.synonyms: expected a list of strings")

        draft = self._drafts.get(name)
        if draft is None:
            draft = self._drafts[name] = _Draft(cardinality, [], description or "")
        else:
            if cardinality is not None:
                draft.cardinality = cardinality
            if description is not None:
                draft.description = description
        self._claim(_phrase_key(name), name)

        for synonym in synonyms:
            key = _phrase_key(synonym)
            if not key:
                raise ConfigError(f"{label}: {where}.synonyms: {synonym!r} has no words")
            if key == _phrase_key(name):
                continue
            owner = self._owner.get(key)
            if owner is not None and owner != name and _phrase_key(owner) == key:
                raise ConfigError(
                    f"{label}: {where}.synonyms: {synonym!r} is the canonical predicate "
                    f"{owner!r}; a synonym cannot shadow it"
                )
            self._claim(key, name)
            if not any(_phrase_key(s) == key for s in draft.synonyms):
                draft.synonyms.append(synonym)

    def _claim(self, key: str, name: str) -> None:
        previous = self._owner.get(key)
        if previous is not None and previous != name:
            loser = self._drafts[previous]
            loser.synonyms = [s for s in loser.synonyms if _phrase_key(s) != key]
        self._owner[key] = name

    def build(self, default: Cardinality) -> dict[str, PredicateSpec]:
        return {
            name: PredicateSpec(
                name=name,
                cardinality=draft.cardinality or default,
                synonyms=tuple(draft.synonyms),
                description=draft.description,
            )
            for name, draft in self._drafts.items()
        }


@functools.lru_cache(maxsize=4096)
def _canonical(vocabulary: Vocabulary, predicate_text: str) -> str:
    """``Vocabulary.canonical``, remembered: an ingest asks for its few predicates once a draft,
    and reading a phrase's words goes character by character."""
    words = _words(predicate_text)
    if not words:
        raise ValueError(f"predicate {predicate_text!r} is empty after normalization")
    return vocabulary.aliases.get(" ".join(words), "_".join(words))
