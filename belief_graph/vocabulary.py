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
import re
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
    "KINDS",
    "PredicateSpec",
    "Vocabulary",
    "kind_of_object",
    "kind_of_subject",
    "normalize_key",
    "normalize_predicate",
]

CARDINALITIES: tuple[Cardinality, ...] = ("single", "multi")

_SHIPPED_LABEL = "belief_graph/data/vocabulary.toml"
_TOP_LEVEL_KEYS = frozenset({"default_cardinality", "predicates"})
_PREDICATE_KEYS = frozenset(
    {"synonyms", "cardinality", "description", "subject", "object", "shares", "stance"}
)

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


# -- kinds: what a subject or an object is, read from its words ---------------------------------
#
# Only positive evidence counts: a kind is read where the words say it ("the team meeting", "on
# Tuesday", "for caching"); anything else is of no known kind and fits every predicate.

_SUBJECT_HEADS: dict[str, frozenset[str]] = {
    "person": frozenset(
        "i me user he she you wife husband partner mom mum mother dad father sister brother "
        "son daughter friend boss manager colleague kid child parent grandma grandmother "
        "grandpa grandfather aunt uncle cousin roommate flatmate neighbor neighbour boyfriend "
        "girlfriend fiance fiancee".split()
    ),
    "group": frozenset("we us team company family household band club".split()),
    "project": frozenset(
        "project app application service backend frontend api website site repo repository "
        "codebase system stack server".split()
    ),
    "event": frozenset(
        "meeting meetup standup stand-up sync call appointment class lesson flight party "
        "wedding concert interview review demo retro retrospective workshop session training "
        "game match dinner lunch breakfast brunch trip holiday vacation conference launch "
        "exam checkup check-up surgery rehearsal ceremony festival webinar talk presentation "
        "one-on-one 1:1 kickoff kick-off offsite planning recital performance play show "
        "tournament race marathon visit".split()
    ),
}
_ROLES: dict[str, frozenset[str]] = {
    "cache": frozenset("cache caches caching cached".split()),
    "database": frozenset("database databases db storage persistence datastore".split()),
    "queue": frozenset(
        "queue queues queuing queueing messaging broker jobs pubsub pub/sub".split()
    ),
    "library": frozenset("library libraries lib package dependency sdk".split()),
    "test": frozenset("testing tests test".split()),
    "monitoring": frozenset(
        "monitoring logging logs metrics tracing alerting observability analytics".split()
    ),
    "search": frozenset("search indexing".split()),
    "ci": frozenset("ci builds".split()),
    "auth": frozenset("auth authentication login sso".split()),
    "hosting": frozenset("hosting deployment deploys".split()),
    "framework": frozenset("framework frameworks".split()),
    "language": frozenset("language languages".split()),
}
_ROLE_OF = {word: role for role, words in _ROLES.items() for word in words}
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_TIME_WORDS = frozenset(
    [
        *_WEEKDAYS,
        *(d + "s" for d in _WEEKDAYS),
        *_MONTHS,
        *"today tomorrow tonight yesterday noon midnight morning mornings afternoon afternoons "
        "evening evenings night nights weekend weekends weekday weekdays week month year "
        "am pm".split(),
    ]
)
# Words a time may carry that do not make it something else ("next Tuesday at 3pm").
_TIME_FILLER = frozenset(
    "on at the a next this every each of in from to until by around about early late mid "
    "end start beginning first last".split()
)
_CLOCK = re.compile(
    r"^(?:\d{1,2}:\d{2}(?:am|pm)?|\d{1,2}(?:am|pm|st|nd|rd|th)|[12]\d{3}|"
    r"\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?)$"
)
_ROLE_LEADS = frozenset({"for", "as"})
_ROLE_SKIP = frozenset({"a", "an", "the", "our", "my", "its", "their", "your", "main", "primary"})
_STOP_AT = frozenset({"to", "of", "in", "for", "with", "at", "on", "about", "from"})

# Words that name a job: a value whose head is one is a role ("a senior engineer").
_JOBS = frozenset(
    "engineer developer programmer designer manager director teacher professor lecturer "
    "nurse doctor physician surgeon dentist pharmacist analyst scientist researcher "
    "consultant accountant lawyer attorney architect chef cook waiter waitress barista writer "
    "journalist photographer artist musician translator interpreter intern founder ceo cto "
    "cfo coo mechanic electrician plumber carpenter pilot clerk cashier librarian assistant "
    "coordinator specialist technician administrator recruiter therapist psychologist "
    "veterinarian paramedic firefighter farmer baker economist statistician physicist "
    "chemist biologist salesperson tutor coach instructor principal midwife caregiver "
    "dancer actor actress singer composer producer director editor-in-chief animator "
    "optician optometrist radiologist anesthesiologist surgeon secretary receptionist "
    "bartender courier postman janitor guard lifeguard banker trader broker auditor "
    "strategist marketer copywriter illustrator sculptor potter jeweler welder machinist "
    "miner fisherman gardener landscaper housekeeper nanny babysitter social-worker "
    "counselor counsellor dietitian nutritionist physiotherapist chiropractor".split()
)

# Jobs that are common surnames too.
_SURNAMES = frozenset("cook baker carpenter farmer clerk coach mason butler tailor".split())

KINDS = frozenset({*_SUBJECT_HEADS, *_ROLES, "time", "place", "role"})
"""The kinds a predicate may declare for its subject and object. ``place`` is never read from
words (a place is any name), so it only excludes what reads as another kind."""


def _role_phrase(words: list[str]) -> str | None:
    """The role a "for …" / "as …" phrase names ("for caching", "as our main database")."""
    for i, word in enumerate(words):
        if word not in _ROLE_LEADS:
            continue
        for after in words[i + 1 : i + 5]:
            if after in _ROLE_OF:
                return _ROLE_OF[after]
            if after not in _ROLE_SKIP and after in _STOP_AT:
                break
    return None


def _head(words: list[str]) -> str | None:
    """The head of a noun phrase: its last word before a preposition ("teacher of history")."""
    head: list[str] = []
    for word in words:
        if word in _STOP_AT and head:
            break
        head.append(word)
    return head[-1] if head else None


def kind_of_subject(subject: str) -> str | None:
    """What a subject is by its head word ("the team meeting" → ``event``, "my sister" →
    ``person``, "we" → ``group``, "the backend" → ``project``), or None when its words do not
    say (a name)."""
    last = _head(_words(subject))  # "my flight to Berlin": the head comes before "to"
    if last is None:
        return None
    for kind, heads in _SUBJECT_HEADS.items():
        if last in heads or (last.endswith("s") and last[:-1] in heads and kind == "event"):
            return kind
    return None


def kind_of_object(obj: str, text: str | None = None) -> str | None:
    """What an object is: ``time`` when its words are a day, date or time of day ("Tuesday",
    "next Friday at 3pm", "1990"); a tool's role when its own words or its sentence name one
    ("the httpx library" → ``library``; "We use Redis for caching" → ``cache``); ``role`` when
    it names a job ("a senior engineer"); else None."""
    words = [w for w in re.split(r"[\s,]+", obj.casefold()) if w]
    if (
        words
        and all(
            w in _TIME_WORDS or w in _TIME_FILLER or _CLOCK.match(w) or w.isdigit() for w in words
        )
        and any(w in _TIME_WORDS or _CLOCK.match(w) for w in words)
    ):
        return "time"
    own = [_ROLE_OF[w] for w in _words(obj) if w in _ROLE_OF]
    if own:
        return own[-1]
    head = _head(_words(obj))
    if head is not None and (head in _JOBS or (head.endswith("s") and head[:-1] in _JOBS)):
        # A job that is also a surname, capitalized, is a name ("Tim Cook"), unless an
        # article leads ("a Cook"); other capitals are a title ("Data Analyst").
        named = head in _SURNAMES and any(
            w[:1].isupper() and w.casefold() == head for w in obj.split()
        )
        if not named or _words(obj)[0] in ("a", "an", "the"):
            return "role"
    if text:
        folded = text.casefold()
        at = folded.find(obj.casefold())
        after = _words(folded[at + len(obj) :]) if at >= 0 else []
        if after and after[0] in _ROLE_OF:
            return _ROLE_OF[after[0]]  # "the Redis cache"
        for words in (after, _words(folded)):
            role = _role_phrase(words)
            if role is not None:
                return role
    return None


@dataclass(frozen=True, slots=True)
class PredicateSpec:
    """One canonical predicate: its name, synonyms, cardinality and description."""

    name: str
    cardinality: Cardinality
    synonyms: tuple[str, ...] = ()
    description: str = ""
    # What its subject and object may be (``KINDS``; empty: anything). A phrase maps to the
    # predicate only where its subject and object do not read as another kind.
    subject: tuple[str, ...] = ()
    object: tuple[str, ...] = ()
    # Phrases it shares with other predicates: each means this one where its kinds fit.
    shares: tuple[str, ...] = ()
    # Its values are a stance the subject takes (how much risk, what they eat): a new value that
    # contradicts the old one reverses it (a change of mind), where for any other predicate a
    # new value is a change of the world (a move, a new count), never a contradiction.
    stance: bool = False

    def fits(self, subject_kind: str | None, object_kind: str | None) -> bool:
        """Whether a subject and object of these kinds (None: not known) fit the predicate:
        none read as a kind it does not declare."""
        return (not self.subject or subject_kind is None or subject_kind in self.subject) and (
            not self.object or object_kind is None or object_kind in self.object
        )

    def named(self, subject_kind: str | None, object_kind: str | None) -> bool:
        """Whether the words say the predicate: it ``fits``, and a kind it declares is read
        (what a phrase it shares needs, as that phrase means another predicate by default)."""
        return self.fits(subject_kind, object_kind) and (
            subject_kind in self.subject or object_kind in self.object
        )


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
    # Lookup phrase -> the predicates that share it (``PredicateSpec.shares``), in order.
    shared: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)

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
        shared: dict[str, list[str]] = {}
        for name, spec in predicates.items():
            for kind in (*spec.subject, *spec.object):
                if kind not in KINDS:
                    raise ValueError(f"predicate {name!r}: unknown kind {kind!r}")
            if spec.shares and not spec.subject and not spec.object:
                raise ValueError(f"predicate {name!r} shares phrases but declares no kinds")
            for phrase in spec.shares:
                key = _phrase_key(phrase)
                if not key:
                    raise ValueError(f"predicate {name!r} shares an empty phrase")
                if key == _phrase_key(name):
                    raise ValueError(f"predicate {name!r} shares its own name")
                if aliases.get(key) != name and name not in shared.get(key, []):
                    shared.setdefault(key, []).append(name)
        object.__setattr__(self, "predicates", MappingProxyType(predicates))
        object.__setattr__(self, "aliases", MappingProxyType(aliases))
        object.__setattr__(
            self, "shared", MappingProxyType({k: tuple(v) for k, v in shared.items()})
        )

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

    def resolve(
        self,
        predicate_text: str,
        subject: str | None = None,
        obj: str | None = None,
        text: str | None = None,
    ) -> tuple[str, Cardinality]:
        """The predicate a phrase means for this subject and object, and its cardinality.

        A phrase may mean several predicates: the one it is a synonym of, where its subject and
        object do not read as another kind (``kind_of_subject``, ``kind_of_object``: the object
        read with its sentence ``text``), else the first that shares it (``shares``) whose
        kinds the words say: "moved to" is ``lives_in`` for a person, ``takes_place_on`` for a
        meeting moved to a day, ``venue`` for a conference moved to Vienna; "uses" is
        ``uses_cache`` for "We use Redis for caching". A synonym none of whose predicates fits
        is a relation of its own (its snake_case), multi-valued: a mapping that does not fit
        must not supersede a compatible fact. A phrase only shared ("is at") and not named is
        as any phrase the vocabulary does not know; a canonical name is the caller's choice,
        kept unless a predicate that shares it is named. Unknown phrases are as in
        ``canonical``.
        """
        return _resolve(self, predicate_text, subject, obj, text)

    def readings(self, predicate_text: str, subject: str | None = None) -> list[str]:
        """The predicates a read by this phrase may mean, likeliest first: what ``resolve``
        gives without an object, then each predicate that shares the phrase, then the phrase's
        own relation when it has several senses (a write with an object may have chosen any
        of them). A phrase of one sense has one."""
        first = self.resolve(predicate_text, subject)[0]
        key = _phrase_key(predicate_text)
        owner = self.aliases.get(key)
        sharers = self.shared.get(key, ())
        senses = [first]
        if sharers or (
            owner is not None and (spec := self.predicates[owner]).subject + spec.object
        ):
            senses += [n for n in ((owner,) if owner else ()) + sharers]
            senses.append("_".join(_words(predicate_text)))
        return list(dict.fromkeys(senses))

    def cardinality(self, canonical: str) -> Cardinality:
        """Return ``"single"`` or ``"multi"`` for a predicate (synonyms are resolved first).

        Unknown predicates get the vocabulary's ``default_cardinality``.
        """
        spec = self.predicates.get(canonical) or self.predicates.get(self.canonical(canonical))
        return spec.cardinality if spec is not None else self.default_cardinality

    def stance(self, canonical: str) -> bool:
        """Whether a predicate's values are a stance its subject takes (``PredicateSpec``): a
        contradicting new value then reverses it. Unknown predicates are not."""
        spec = self.predicates.get(canonical) or self.predicates.get(self.canonical(canonical))
        return spec is not None and spec.stance

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
        key = _phrase_key(predicate_text)
        return key in self.aliases or key in self.shared

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
    subject: tuple[str, ...] = ()
    object: tuple[str, ...] = ()
    shares: list[str] = field(default_factory=list)
    stance: bool | None = None


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

        kinds = {
            key: _kinds(label, f"{where}.{key}", table.get(key)) for key in ("subject", "object")
        }
        shares = table.get("shares", [])
        if not isinstance(shares, list) or not all(isinstance(s, str) for s in shares):
            raise ConfigError(f"{label}: {where}.shares: expected a list of strings")
        stance = table.get("stance")
        if stance is not None and not isinstance(stance, bool):
            raise ConfigError(f"{label}: {where}.stance: expected true or false")

        draft = self._drafts.get(name)
        if draft is None:
            draft = self._drafts[name] = _Draft(cardinality, [], description or "")
        else:
            if cardinality is not None:
                draft.cardinality = cardinality
            if description is not None:
                draft.description = description
        if kinds["subject"] is not None:
            draft.subject = kinds["subject"]
        if kinds["object"] is not None:
            draft.object = kinds["object"]
        if stance is not None:
            draft.stance = stance
        for phrase in shares:
            key = _phrase_key(phrase)
            if not key:
                raise ConfigError(f"{label}: {where}.shares: {phrase!r} has no words")
            if key == _phrase_key(name):
                raise ConfigError(f"{label}: {where}.shares: {phrase!r} is its own name")
            if not any(_phrase_key(s) == key for s in draft.shares):
                draft.shares.append(phrase)
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
                subject=draft.subject,
                object=draft.object,
                shares=tuple(draft.shares),
                stance=bool(draft.stance),
            )
            for name, draft in self._drafts.items()
        }


def _kinds(label: str, where: str, value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise ConfigError(f"{label}: {where}: expected a list of kinds")
    unknown = [k for k in value if k not in KINDS]
    if unknown:
        raise ConfigError(
            f"{label}: {where}: unknown kind {unknown[0]!r} (expected one of "
            f"{', '.join(sorted(KINDS))})"
        )
    return tuple(value)


@functools.lru_cache(maxsize=4096)
def _resolve(
    vocabulary: Vocabulary,
    predicate_text: str,
    subject: str | None,
    obj: str | None,
    text: str | None,
) -> tuple[str, Cardinality]:
    words = _words(predicate_text)
    if not words:
        raise ValueError(f"predicate {predicate_text!r} is empty after normalization")
    key = " ".join(words)
    owner = vocabulary.aliases.get(key)
    sharers = vocabulary.shared.get(key, ())
    if owner is None and not sharers:
        return "_".join(words), vocabulary.default_cardinality
    if owner is not None and not sharers and key == _phrase_key(owner):
        return owner, vocabulary.predicates[owner].cardinality
    senses = [vocabulary.predicates[n] for n in ((owner,) if owner else ()) + sharers]
    if all(not s.subject and not s.object for s in senses):
        return senses[0].name, senses[0].cardinality
    subject_kind = kind_of_subject(subject) if subject else None
    object_kind = kind_of_object(obj, text) if obj else None
    if owner is not None and senses[0].fits(subject_kind, object_kind):
        return owner, senses[0].cardinality
    for spec in senses[1 if owner is not None else 0 :]:
        if spec.named(subject_kind, object_kind):
            return spec.name, spec.cardinality
    if owner is None:
        return "_".join(words), vocabulary.default_cardinality  # as any phrase it does not know
    if key == _phrase_key(owner):
        return owner, senses[0].cardinality  # its own name: the caller's choice
    return "_".join(words), "multi"


@functools.lru_cache(maxsize=4096)
def _canonical(vocabulary: Vocabulary, predicate_text: str) -> str:
    """``Vocabulary.canonical``, remembered: an ingest asks for its few predicates once a draft,
    and reading a phrase's words goes character by character."""
    words = _words(predicate_text)
    if not words:
        raise ValueError(f"predicate {predicate_text!r} is empty after normalization")
    return vocabulary.aliases.get(" ".join(words), "_".join(words))
