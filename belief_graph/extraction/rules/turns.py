"""What a turn carries from clause to clause (``_Turn``: who is named, the values said) and the
readers that need it: introductions and people by relation, pets, numbers with their units, a
fact named by its noun and given a new value, lists of members, removals, "instead"."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from belief_graph.vocabulary import Vocabulary

from .. import when
from ..episode import Episode, Proposal
from ..phrasing import sentence_of, sentences
from .common import (
    _ADVERBS,
    _LEAD,
    _NAMED_VALUES,
    _NOT_A_NUMBER,
    _PEOPLE,
    _STACK,
    _UNREAD,
    _WHEN_VALUED,
    _clean,
    _defines,
    _Fact,
    _head_noun,
    _proposal,
    _without_leads,
    _without_time,
)

# Where a sentence may hold a second clause: a colon, "and", "but", "so", "plus", "while", a comma.
_CLAUSE_BREAK = re.compile(
    r"(:\s+|,?\s+(?:and|but|so|plus|while|though|then|whereas)\s+(?:now\s+)?|,\s+)", re.IGNORECASE
)


_STARTS_WITH_SUBJECT = re.compile(
    r"^\s*(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|our|he|she|he's|she's|they|they're|there|"
    r"it's|the)\b",
    re.IGNORECASE,
)


_SUBJECT = re.compile(r"^\s*(i|we)(?:\b|(?='))", re.IGNORECASE)


# "my sister Ana", "my boss, Diane,": a person the speaker names, and how they are related.
_INTRODUCED = re.compile(
    r"\b(?i:my|our)\s+(?i:(?:best|older|younger|little|big|baby|eldest|oldest|youngest|twin|new|"
    r"first|second|third|fourth|middle)\s+)?"
    r"(?P<rel>(?i:team\s+lead|best\s+friend|co-author|co-worker|coworker|girlfriend|boyfriend|"
    r"husband|wife|partner|sister|brother|sibling|mum|mom|mother|dad|father|son|daughter|"
    r"friend|boss|manager|lead|colleague|cousin|flatmate|roommate|neighbour|neighbor))"
    r"\s*,?\s+(?P<name>[A-Z][\w'-]+)(?P<comma>\s*,)?"
)


# "my sister" with no name after it: the sister named before, if one was.
_RELATIVE_UNNAMED = re.compile(
    r"\b(?i:my)\s+(?P<rel>(?i:sister|brother|mum|mom|mother|dad|father|son|daughter|husband|wife|"
    r"partner|girlfriend|boyfriend|boss|manager|cousin|flatmate|roommate))\b(?!\s*,?\s+(?-i:[A-Z]))"
    r"(?!['’]s)(?!\s+(?:is|was|are|'s|became|has\s+become)\s+(?:now\s+)?(?-i:[A-Z]))"
)


# The same, typed without capitals: "my sister ana lives in porto".
_LOWERCASE_INTRODUCED = re.compile(
    r"\b(?P<head>my\s+(?:(?:best|older|younger|little|big|baby|eldest|oldest|youngest|twin|new)\s+)?"
    r"(?:best\s+friend|girlfriend|boyfriend|husband|wife|partner|sister|brother|mum|mom|mother|"
    r"dad|father|son|daughter|friend|boss|manager|colleague|cousin|flatmate|roommate|neighbour|"
    r"neighbor)\s*,?\s+)(?P<name>[a-z][a-z'-]+)\b"
)


# Words after "my sister" that are no name.
_NOT_LOWERCASE_NAMES = frozenset(
    "is was has had and but who that the a an in at to from of for with just also lives lived "
    "works worked moved moves said says got gets started starts left quit and or so is's isn't "
    "doesn't didn't does did will would can could should might must now still always never "
    "really finally recently here there too as on by".split()
)


def _capitalized(match: re.Match[str]) -> str:
    name = match.group("name")
    if name in _NOT_LOWERCASE_NAMES or name.endswith(("ing", "ed", "ly")):
        return match.group(0)
    return f"{match.group('head')}{name.capitalize()}"


_NAMED_RELATION = re.compile(
    r"^(?P<name>[A-Z][\w'-]+)(?P<apposed>,|\s+is)\s+my\s+"
    r"(?i:(?:best|older|younger|little|big|eldest|youngest|new)\s+)?"
    r"(?P<rel>(?i:sister|brother|wife|husband|partner|girlfriend|boyfriend|mum|mom|mother|dad|"
    r"father|son|daughter|friend|boss|manager|colleague|cousin|flatmate|roommate))\b"
)


_RELATION_NAMED = re.compile(
    r"^(?i:my)\s+(?P<rel>(?i:sister|brother|wife|husband|partner|girlfriend|boyfriend|mum|mom|"
    r"mother|dad|father|son|daughter|friend|boss|manager|colleague|cousin|flatmate|roommate))"
    r"(?:'s|’s)\s+(?i:name)\s+is\s+(?P<name>[A-Z][\w'-]+)"
)


_RELATIONS_OUTSIDE_VOCABULARY = {
    "team lead": "reports_to",
    "lead": "reports_to",
    "co-author": "colleague_of",
    "flatmate": "roommate",
}


_NOT_NAMES = frozenset({"i", "the", "a", "an", "is", "was", "and", "but", "who", "he", "she"})


_PRONOUN = re.compile(
    r"^(?:(?:and|but|so|also|plus|oh)\s+)?(?P<word>he|she|he's|she's|his|her)\b", re.IGNORECASE
)


# What a number's unit says it counts: (unit, predicate, a word the clause must also hold).
_UNITS: tuple[tuple[re.Pattern[str], str, re.Pattern[str] | None], ...] = (
    (
        re.compile(r"^(?:km|kilomet(?:er|re)s?|miles?)\s+(?:a|per|each)\s+week$"),
        "weekly_distance",
        None,
    ),
    (
        re.compile(r"^(?:km|kilomet(?:er|re)s?|miles?)$"),
        "car_mileage",
        re.compile(r"\b(?:on\s+it|on\s+the\s+clock|on\s+the\s+car|odometer|mileage)\b", re.I),
    ),
    (re.compile(r"^(?:cups?|coffees?|espressos?)\b"), "caffeine_intake", None),
    (re.compile(r"^(?:calories|kcal)\b"), "calorie_target", None),
    (re.compile(r"^(?:kg|kilos?|lbs)$"), "weight", None),
    (re.compile(r"^commits?$"), "commit_count", None),
    (re.compile(r"^(?:students|pupils)$"), "student_count", None),
    (re.compile(r"^songs$"), "set_length", None),
    (
        re.compile(r"^(?:people|staff|developers|engineers|employees|devs)$"),
        "team_size",
        re.compile(r"\b(?:team|staff|we|we're|hired|developers|employees)\b", re.I),
    ),
    (re.compile(r"^hours?\b"), "sleep_hours", re.compile(r"\bsleep", re.I)),
)


_QUANTITY = re.compile(
    r"(?P<value>(?:[$£€]\s?)?\d[\d,.]*(?:\s?k\b)?"
    r"(?:\s+(?P<unit>[a-z]+(?:\s+of\s+[a-z]+)?(?:\s+(?:a|per|each)\s+(?:day|week|month|year|night))?))?)",
    re.IGNORECASE,
)


_AGE = re.compile(
    r"^(?:(?:i'm|i\s+am|(?P<name>[A-Z][\w'-]+)\s+is|(?P<name2>[A-Z][\w'-]+)'s)\s+"
    r"(?P<age>\d{1,3})(?:\s+years?\s+old)?(?:\s+(?:now|today|already))?\s*$|"
    r".*?\b(?:turned|turns|is\s+turning|'s\s+turning)\s+(?P<age2>\d{1,3})\b(?!\s*[%a-z]{1,3}\b))",
    re.IGNORECASE,
)


# "the budget went up to $50", "my day off moves to Wednesday", "savings are at £15,500".
_NOUN_CHANGED = re.compile(
    r"^(?:(?P<whose>my|our|the|his|her)\s+)?(?:new\s+|current\s+)?(?P<noun>[a-z][a-z -]{1,30}?)\s+"
    r"(?:went|has\s+gone|have\s+gone|goes|is|are|was|got|'s|moved|moves|is\s+moving|has\s+moved|"
    r"changed|switched|jumped|dropped|rose|fell|increased|decreased|shifted|meets|happens|runs|"
    r"is\s+held|takes\s+place|"
    r"(?:got|was|were|has\s+been|have\s+been)\s+(?:moved|pushed|changed|rescheduled|bumped|"
    r"raised|cut|lowered|increased|reduced))\s+"
    r"(?:(?:now|back|up|down|forward|all\s+the\s+way)\s+)*(?:from\s+.+?\s+)?(?:to|at|on)\s+(?P<value>.+)$",
    re.IGNORECASE,
)


# "we cut the budget to 3500 euros", "the landlord raised my rent to £1,020".
_NOUN_SET = re.compile(
    r"\b(?:raised|cut|lowered|increased|reduced|moved|pushed|bumped|upped|dropped|changed|"
    r"brought|set|put)\s+(?P<whose>my|our|the|his|her)\s+(?P<noun>[a-z][a-z -]{1,30}?)\s+"
    r"(?:(?:up|down|back|forward)\s+)?(?:from\s+.+?\s+)?to\s+(?P<value>.+)$",
    re.IGNORECASE,
)


# Words that end a value of one fact and something the clause says about it ("... now").
_REMOVAL = re.compile(
    r"\b(?:passed\s+away|died|(?:is|are|'s)\s+gone|gave\s+up|given\s+up|give\s+up|dropped|quit|"
    r"stopped|sold|rehomed|re-homed|lost|ended|got\s+rid\s+of|no\s+more|no\s+longer|anymore|"
    r"any\s+more|don't\s+have|doesn't\s+have|left|not|let\s+(?:me|him|her|them)\s+go|"
    r"laid\s+(?:me|him|her|them)\s+off|fired\s+(?:me|him|her|them)|parted\s+ways|"
    r"moved\s+(?:away\s+from|out\s+of)|behind\s+(?:me|us))\b",
    re.IGNORECASE,
)


_DIED = re.compile(r"\b(?:passed\s+away|died|passed)\b", re.IGNORECASE)


_SAYS_ENDED = re.compile(
    r"\b(?:no\s+more|no\s+longer|anymore|any\s+more|quit|gave\s+up|dropped|stopped|"
    r"let\s+(?:me|him|her|them)\s+go|laid\s+(?:me|him|her|them)\s+off|fired\s+(?:me|him|her|them)|"
    r"parted\s+ways|moved\s+(?:away\s+from|out\s+of)|behind\s+(?:me|us))\b",
    re.IGNORECASE,
)


_INSTEAD_OF = re.compile(
    r"\b(?:instead\s+of|rather\s+than|not|from)\s+(?P<old>[\w .&'-]+?)"
    r"(?:\s+(?:anymore|any\s+more|to)\b|[,.;!]|$)",
    re.IGNORECASE,
)


class _Turn:
    """What the reading of one turn keeps: the people named so far (without reading the
    namespace's subjects unless a clause needs them), the values said in the earlier turns,
    and who "he" and "she" are."""

    def __init__(self, speaker: str, known_subjects: Sequence[str]) -> None:
        self.speaker = speaker
        self._known = known_subjects
        self.local: list[str] = []
        self.people: set[str] = set()
        self.values: dict[str, tuple[str, str, bool, str]] = {}
        self.context_values: dict[str, tuple[str, str, bool, str]] = {}
        self.last_person: str | None = None
        self.last_pet: bool | None = None
        self.last_unnamed: str | None = None
        # "my sister" -> "Ana" once "my sister Ana" was said: who the relation names later.
        self.relatives: dict[str, str] = {}
        self.correcting = False

    def known(self) -> Sequence[str]:
        names = _Names(self.local, self._known, self.people)
        names.facts = {(p, s) for s, p, negated, _ in self.context_values.values() if not negated}
        names.correcting = self.correcting
        names.values = {
            value.casefold(): (s, p)
            for s, p, negated, value in self.context_values.values()
            if not negated and p
        }
        return names

    def remember(self, proposal: Proposal | None) -> None:
        if proposal is None or proposal.text_only or not proposal.object:
            return
        subject = proposal.subject or self.speaker
        self.values[proposal.object.casefold()] = (
            subject,
            proposal.predicate or "",
            proposal.negated,
            proposal.object,
        )
        if subject != self.speaker:
            if subject not in self.local:
                self.local.append(subject)
            self.last_person = subject

    def names_at_start(self, text: str) -> bool:
        head = text.strip().split(" ", 1)[0].rstrip(",.'s’")
        return any(head.casefold() == name.casefold() for name in self.local)

    def resolve_pronoun(self, clause: str) -> str:
        """ "she's 78" after "my mum Hilde": "Hilde is 78"."""
        match = _PRONOUN.match(clause)
        if match is None or self.last_person is None:
            return clause
        word = match.group("word").lower()
        name = self.last_person
        said = {"he's": f"{name} is", "she's": f"{name} is", "his": f"{name}'s", "her": f"{name}'s"}
        return said.get(word, name) + clause[match.end() :]


class _Names(Sequence[str]):
    """The people named in the conversation, then the namespace's subjects (read only when a
    clause is about someone else)."""

    def __init__(self, local: list[str], known: Sequence[str], people: set[str]) -> None:
        self.people = people
        # (predicate, subject) of what the earlier turns said.
        self.facts: set[tuple[str, str]] = set()
        # What the earlier turns said, by value: (subject, predicate).
        self.values: dict[str, tuple[str, str]] = {}
        # The turn says it corrects something ("typo", "I meant"): "it's X" in it is the fix.
        self.correcting = False
        self._local = local
        self._known = known
        self._all: list[str] | None = None

    def _names(self) -> list[str]:
        if self._all is None:
            self._all = [*self._local, *(n for n in self._known if n not in self._local)]
        return self._all

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


def _statements(text: str) -> str:
    """What a turn states, without its questions and its code: the text a turn nothing was
    read from is kept as (empty when that is a word or two of chatter)."""
    kept = " ".join(s for s in sentences(text) if not s.rstrip().endswith("?"))
    return kept if len(kept.split()) >= 3 else ""


def _with_source(proposals: list[Proposal], source: str) -> list[Proposal]:
    """Each proposal with the clause it came from as its source span."""
    return [p.model_copy(update={"source": source}) for p in proposals]


def _subject_of(clause: str, turn: _Turn) -> str:
    match = _SUBJECT.match(clause)
    if match:
        return match.group(1)
    head = clause.strip().split(" ", 1)[0]
    return head if turn.names_at_start(head) else ""


def _fact_of(proposal: Proposal) -> tuple[str, _Fact]:
    """What "I meant X" after this proposal refers to."""
    predicate = proposal.predicate or ""
    words = predicate.replace("_", " ")
    return proposal.subject or "", _Fact(predicate, words, proposal.object or "", possessive=True)


# Facts whose value is an amount: said with a number.
_AMOUNTS = frozenset(
    {
        "age",
        "budget",
        "savings",
        "rent",
        "salary",
        "day_rate",
        "weight",
        "commit_count",
        "weekly_distance",
        "caffeine_intake",
        "calorie_target",
        "sleep_hours",
        "student_count",
        "car_mileage",
        "set_length",
        "team_size",
    }
)


# Words that say when: a day, a month, a part of the day, a relative day.
_WHEN_WORD = re.compile(
    r"\b(?i:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?i:january|february|march|april|may|"
    r"june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|"
    r"oct|nov|dec|morning|mornings|evening|evenings|afternoon|afternoons|night|nights|noon|"
    r"midnight|weekend|weekends|weekday|weekdays|today|tomorrow|tonight|week|month|year)\b"
)


_DAY_OR_MONTH = re.compile(
    r"(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|"
    r"april|may|june|july|august|september|october|november|december)s?"
)


def _typed_lowercase(text: str) -> bool:
    """Whether a clause was typed without capitals (then a name is not told by one)."""
    return bool(text.strip()) and not any(c.isupper() for c in text)


# Common nouns that follow "in", "at", "to" and name no place, employer or person.
_NOT_NAMED = frozenset(
    "home work school bed town city office gym uni college church hospital night nights day days "
    "shifts guitar drums bass piano vocals lunch dinner breakfast the a an my our his her their "
    "this that it them him me us you there here".split()
)


def _name_like(value: str) -> bool:
    """A value typed in lowercase that may still be a name: one to three words, none a common
    word that follows "in"/"at"/"to" ("home", "work", "the gym")."""
    words = value.split()
    return (
        1 <= len(words) <= 3
        and not any(w in _NOT_NAMED or w.endswith("ing") for w in words)
        and value[:1].isalpha()
    )


def _plausible(proposal: Proposal, turn: _Turn) -> bool:
    """Whether a proposal's value fits its fact: a place, an employer or a person is a name
    ("moved to guitar" is no home, "works at that's" no employer); a person named in the
    conversation has no stack ("Jonas switched to day shifts")."""
    if proposal.text_only or not proposal.object:
        return True
    if proposal.predicate in _PEOPLE and proposal.object[:1].isdigit():
        return False  # "my mum is 70" names no mother
    if proposal.predicate in _AMOUNTS and not re.search(r"\d", proposal.object):
        return False  # "the budget is tight", "rent is due": no amount
    if (proposal.predicate or "").endswith(_WHEN_VALUED) and not (
        re.search(r"\d", proposal.object) or _WHEN_WORD.search(proposal.object)
    ):
        return False  # "my flight was delayed": no date
    if proposal.predicate in _NAMED_VALUES and _DAY_OR_MONTH.fullmatch(proposal.object):
        return False  # "it's Friday" names no employer, home or person
    if proposal.predicate in _NAMED_VALUES and not proposal.object[:1].isupper():
        if _typed_lowercase(proposal.source or "") and _name_like(proposal.object):
            return True  # "i live in porto": typed without capitals, the name is as typed
        return proposal.object[:1].isdigit()
    if proposal.predicate in _NOT_A_NUMBER and proposal.object[:1].isdigit():
        return False  # "my commute is 40 minutes" says how long, not how
    return not (proposal.predicate in _STACK and proposal.subject in turn.people)


def _introductions(
    clause: str, speaker: str, vocabulary: Vocabulary, turn: _Turn
) -> tuple[str, list[Proposal]]:
    """ "My sister Marta moved to Lyon": (speaker, has_sibling, Marta), and the clause as
    "Marta moved to Lyon", Marta now a subject of the conversation."""
    found: list[Proposal] = []
    if _typed_lowercase(clause):
        clause = _LOWERCASE_INTRODUCED.sub(_capitalized, clause)
    pet = _pet_named(clause, speaker, vocabulary, turn)
    if pet is not None:
        return "", [pet]
    if turn.relatives:
        # "My sister moved to Lisbon" after "my sister Ana ...": Ana moved.
        clause = _RELATIVE_UNNAMED.sub(
            lambda m: turn.relatives.get(" ".join(m.group("rel").lower().split()), m.group(0)),
            clause,
        )
    for match in list(_INTRODUCED.finditer(clause)):
        name = match.group("name")
        if name.lower() in _NOT_NAMES:
            continue
        relation = " ".join(match.group("rel").lower().split())
        turn.relatives.setdefault(relation, name)
        if relation in _RELATIONS_OUTSIDE_VOCABULARY:
            predicate: str | None = _RELATIONS_OUTSIDE_VOCABULARY[relation]
        elif _defines(vocabulary, relation):
            predicate = vocabulary.canonical(relation)
        else:
            predicate = None
        if predicate is not None and predicate in vocabulary.predicates:
            found.append(
                Proposal(
                    subject=speaker,
                    predicate=predicate,
                    object=name,
                    sentence=sentence_of(speaker, predicate, name),
                    source=clause,
                )
            )
        if name not in turn.local:
            turn.local.append(name)
        turn.people.add(name)
        turn.last_person = name
    unled = _without_leads(clause)
    named = _NAMED_RELATION.match(unled) or _RELATION_NAMED.match(unled)
    if named is not None:
        relation = named.group("rel").lower()
        predicate = _RELATIONS_OUTSIDE_VOCABULARY.get(relation) or (
            vocabulary.canonical(relation) if _defines(vocabulary, relation) else None
        )
        name = named.group("name")
        if predicate is not None and predicate in vocabulary.predicates:
            found.append(_proposal(speaker, predicate, name, clause))
            turn.people.add(name)
            turn.last_person = name
            if name not in turn.local:
                turn.local.append(name)
            if named.groupdict().get("apposed") == ",":
                # "Priya, my manager, is on leave": the clause is about Priya.
                clause = f"{name} {unled[named.end() :].lstrip(' ,')}"
    if found or turn.local:
        clause = _INTRODUCED.sub(lambda m: m.group("name"), clause)
    return clause, found


_PET_KIND = (
    r"(?P<kind>cat|dog|puppy|kitten|rabbit|bunny|hamster|parrot|budgie|horse|tortoise|turtle|"
    r"guinea\s+pig|ferret|gecko|snake)"
)


# "my cat", "our new puppy": a pet the next "her name is ..." names.
_PET_MENTION = re.compile(rf"\b(?i:my|our|a|an)\s+(?i:new\s+|old\s+|little\s+)?(?i:{_PET_KIND})\b")


# "my dog Rufus", "our cat, Mochi,": a pet named as the speaker's sister Ana is.
_PET_APPOSED = re.compile(
    rf"\b(?i:my|our)\s+(?i:new\s+|old\s+|little\s+|rescue\s+)?(?i:{_PET_KIND})\s*,?\s+"
    r"(?P<name>(?-i:[A-Z])[a-z'-]+)\b(?!\s+(?-i:[A-Z]))"
)


_PET_NAME = re.compile(
    r"^(?:(?i:her|his|its|their)\s+name(?:'s|\s+is)|"
    rf"(?i:my|our)\s+(?i:new\s+|old\s+|little\s+)?(?i:{_PET_KIND})(?:'s\s+name\s+is|"
    r"\s+is\s+(?:called|named))|(?:(?i:i|we)\s+)?(?i:named|called)\s+(?i:him|her|it|them))"
    r"\s+(?P<name>[A-Z][\w'-]*)\s*(?i:btw|by\s+the\s+way)?[.!]*$"
)


# "I have a new boss", "my new manager": someone the next "her name is ..." names.
_UNNAMED_RELATION = re.compile(
    r"\b(?i:a|my|our)\s+(?i:new\s+)(?P<rel>(?i:boss|manager|team\s+lead|colleague|"
    r"flatmate|roommate|neighbour|neighbor|partner|girlfriend|boyfriend))\b(?!\s*,?\s+[A-Z])"
)


# "..., her name is Priya": the name of the one just mentioned, later in the sentence.
_NAME_LATER = re.compile(
    r"[,;:-]\s*(?:and\s+)?(?i:her|his|their|its)\s+name(?:'s|\s+is)\s+(?P<name>[A-Z][\w'-]*)"
)


def _pet_named(clause: str, speaker: str, vocabulary: Vocabulary, turn: _Turn) -> Proposal | None:
    """ "My cat just walked across the keyboard. Her name is Pixel": (speaker, has_pet, Pixel);
    also "my dog's name is Rex", "my cat is called Pixel". A pet mentioned without a name is
    what the next "her name is" names, until someone else is named."""
    said = _LEAD.sub("", clause.strip())
    named = _PET_NAME.match(said)
    if named is not None and "has_pet" in vocabulary.predicates:
        if named.group("kind") or turn.last_pet:
            turn.last_pet = None
            return _proposal(speaker, "has_pet", named.group("name"), clause)
    if named is not None and named.group("kind") is None and turn.last_unnamed:
        predicate = turn.last_unnamed
        turn.last_unnamed = None
        turn.people.add(named.group("name"))
        return _proposal(speaker, predicate, named.group("name"), clause)
    apposed = _PET_APPOSED.search(clause)
    if (
        apposed is not None
        and "has_pet" in vocabulary.predicates
        and apposed.group("name").lower() not in _NOT_NAMES
    ):
        turn.last_pet = None
        return _proposal(speaker, "has_pet", apposed.group("name"), clause)
    pet = _PET_MENTION.search(clause)
    if pet is not None:
        turn.last_pet = True
        later = _NAME_LATER.search(clause, pet.end())
        if later is not None and "has_pet" in vocabulary.predicates:
            turn.last_pet = None
            return _proposal(speaker, "has_pet", later.group("name"), clause)
    elif _INTRODUCED.search(clause):
        turn.last_pet = None
    unnamed = _UNNAMED_RELATION.search(clause)
    if unnamed is not None and not _INTRODUCED.search(clause):
        relation = unnamed.group("rel").lower()
        relates = _RELATIONS_OUTSIDE_VOCABULARY.get(relation) or (
            vocabulary.canonical(relation) if _defines(vocabulary, relation) else None
        )
        if relates is not None and relates in vocabulary.predicates:
            turn.last_unnamed = relates
            later = _NAME_LATER.search(clause, unnamed.end())
            if later is not None:
                turn.last_unnamed = None
                turn.people.add(later.group("name"))
                return _proposal(speaker, relates, later.group("name"), clause)
    return None


def _clause_subject(clause: str, speaker: str, turn: _Turn) -> tuple[str, str] | None:
    """Who a clause is about, and the clause after the subject: the speaker for "I", "we",
    "my", "our" and a clause without one; a person named in the conversation."""
    stripped = clause.strip()
    first = re.match(r"^(?:i|we|my|our)(?:\b|(?='))", stripped, re.IGNORECASE)
    if first is not None:
        return speaker, stripped[first.end() :].strip()
    for name in turn.local:
        if re.match(rf"^{re.escape(name)}(?:\b|')", stripped, re.IGNORECASE):
            return name, stripped[len(name) :].strip()
    if re.match(r"^(?:the|our)\b", stripped, re.IGNORECASE):
        return speaker, stripped
    if _STARTS_WITH_SUBJECT.match(stripped) or re.match(r"^[A-Z][a-z]+\s+[a-z]+s\b", stripped):
        return None
    return speaker, stripped


def _numbers(clause: str, episode: Episode, vocabulary: Vocabulary, turn: _Turn) -> list[Proposal]:
    """A number with a unit that says what it counts ("35 km a week", "165 commits", "8
    people"), and ages ("I'm 34", "Kwame turned 5")."""
    body = re.sub(r"\s*[.!]+$", "", _LEAD.sub("", clause.strip()))
    age = _AGE.match(body)
    if age is not None and "age" in vocabulary.predicates:
        name = age.group("name") or age.group("name2")
        about = _clause_subject(body, episode.speaker, turn)
        subject = name if name and name.lower() not in ("i",) else (about[0] if about else None)
        value = age.group("age") or age.group("age2")
        if subject is not None:
            return [_proposal(subject, "age", value, clause)]
    about = _clause_subject(body, episode.speaker, turn)
    if about is None:
        return []
    subject, rest = about
    found: list[Proposal] = []
    for match in _QUANTITY.finditer(rest):
        unit = (match.group("unit") or "").lower()
        if not unit:
            continue
        for pattern, predicate, needs in _UNITS:
            if predicate not in vocabulary.predicates or not pattern.search(unit):
                continue
            if needs is not None and not needs.search(body):
                continue
            found.append(_proposal(subject, predicate, match.group("value").strip(), clause))
            break
    return found


_BARE_NUMBER = re.compile(
    r"^(?P<value>(?P<currency>[$£€])?\s?\d[\d,.]*(?:\s?k\b)?(?:\s+(?P<unit>[a-z]+))?"
    r"(?:\s+(?:a|per|an|each)\s+[a-z]+)?)(?:\s+(?:now|today|so\s+far))?$",
    re.IGNORECASE,
)


def _same_unit(clause: str, episode: Episode, turn: _Turn) -> list[Proposal]:
    """A number said alone ("15 books now", "$60 a month now") of the speaker's fact an earlier
    turn gave in the same unit or currency: that fact's new value."""
    body = re.sub(r"\s*[.!]+$", "", _without_leads(clause))
    match = _BARE_NUMBER.match(body)
    if match is None or not (match.group("unit") or match.group("currency")):
        return []
    unit = (match.group("unit") or "").lower()
    currency = match.group("currency") or ""
    for subject, predicate, negated, value in reversed(list(turn.context_values.values())):
        if negated or not predicate or subject != episode.speaker:
            continue
        words = value.lower().split()
        same = (unit and unit in words[1:2]) if unit else value.startswith(currency)
        if same and re.match(r"^[$£€]?\s?\d", value):
            return [_proposal(subject, predicate, match.group("value").strip(), clause)]
    return []


def _changed_noun(
    clause: str, episode: Episode, vocabulary: Vocabulary, turn: _Turn
) -> list[Proposal]:
    """A fact named by its noun and given a new value: "the budget went up to $50", "my day
    off moves to Wednesday", "we cut the budget to 3500 euros"."""
    said = re.sub(r"\s*[.!]+$", "", _LEAD.sub("", clause.strip()))
    timeless = _without_time(said, when.find(said, episode.at))
    for pattern, body in (
        (_NOUN_CHANGED, timeless),
        (_NOUN_SET, timeless),
        (_NOUN_CHANGED, said),
        (_NOUN_SET, said),
    ):
        match = pattern.search(body)
        if match is None:
            continue
        noun = _head_noun(match.group("noun").strip(), vocabulary)
        if not _defines(vocabulary, noun) or noun.lower() in _UNREAD:
            continue
        if vocabulary.canonical(noun) in _PEOPLE:
            continue  # "my daughter goes to St Anne's" is not a new daughter
        whose = (match.group("whose") or "").lower()
        subject = (
            turn.last_person if whose in ("his", "her") and turn.last_person else episode.speaker
        )
        value = _clean(_ADVERBS.sub(" ", f" {match.group('value')} "))
        if value:
            return [_proposal(subject, vocabulary.canonical(noun), value, clause)]
    return []


_ME_AND = re.compile(
    r"^(?:me\s+and\s+(?:my\s+)?[A-Za-z][\w'-]*|(?:my\s+)?[A-Za-z][\w'-]*\s+and\s+(?:i|me))"
    r"(?=\s+(?:both\s+|now\s+|still\s+)?(?:live|lived|have|moved)\b)",
    re.IGNORECASE,
)


_MEMBERS = re.compile(
    r"\b(?:with|have|has|got|own|adopted)\s+(?:my\s+|our\s+)?(?:a|an|one|two|three|four|five|\d+)"
    r"\s+(?P<noun>[a-z]+?)s?(?:\s+(?:now|too|already|as\s+well))?\s*(?:,\s*|\s+(?:named|called)\s+)"
    r"(?P<names>[A-Z][\w'-]*(?:\s*(?:,\s*and|,|and)\s*[A-Z][\w'-]*)*)"
)


def _members(clause: str, source: str, speaker: str, vocabulary: Vocabulary) -> list[Proposal]:
    """Pets and children named after their kind anywhere in a first-person clause ("I live in
    Coimbra with my two cats, Tofu and Miso"): one claim each."""
    if not re.match(r"^\s*(?:i|we|my|our)\b", clause, re.IGNORECASE):
        return []
    found: list[Proposal] = []
    for match in _MEMBERS.finditer(clause):
        noun = match.group("noun").lower()
        phrase = next(
            (p for p in (f"has a {noun}", noun, f"{noun}s") if _defines(vocabulary, p)), None
        )
        predicate = vocabulary.canonical(phrase) if phrase else ""
        if not predicate and noun in ("boy", "girl", "kid", "child", "son", "daughter", "twin"):
            predicate = "has_child"
        elif not predicate and re.fullmatch(_PET_KIND, noun):
            predicate = "has_pet"
        if predicate not in ("has_pet", "has_child") or predicate not in vocabulary.predicates:
            continue
        for name in re.split(r"\s*(?:,\s*and|,|and)\s*", match.group("names")):
            if name:
                found.append(_proposal(speaker, predicate, name, source))
    return found


def _removals(
    clause: str, source: str, found: list[Proposal], turn: _Turn, vocabulary: Vocabulary
) -> list[Proposal]:
    """A value said in an earlier turn, now said to be gone ("Miso passed away", "I gave up
    pottery", "no more train for me"): that fact, negated. Of a multi-valued fact any such
    word ends the value; of a single-valued one only words that say it ended ("no more",
    "anymore", "quit"), since a new value replaces it anyway."""
    if not turn.context_values or not _REMOVAL.search(clause):
        return []
    removed: list[Proposal] = []
    for subject, predicate, negated, value in turn.context_values.values():
        if negated or not predicate:
            continue
        said = [value]
        last = value.split()[-1] if value.split() else ""
        if last != value and len(last) >= 4 and last[:1].isupper():
            said.append(last)  # "the Civic" of "2015 Honda Civic"
        if not any(re.search(rf"(?<![\w]){re.escape(v)}(?![\w])", clause, re.I) for v in said):
            continue
        words = {m.group(0).lower() for m in _REMOVAL.finditer(clause)}
        if words == {"not"} and not any(
            re.search(rf"\bnot\s+(?:\w+\s+){{0,3}}{re.escape(v)}(?![\w])", clause, re.I)
            for v in said
        ):
            continue  # "His name is Biscuit, not Brisket": "not" says of another value
        if any(p.object and p.object.casefold() == value.casefold() for p in found):
            continue
        if vocabulary.cardinality(predicate) != "multi" and not _SAYS_ENDED.search(clause):
            continue
        if predicate in _PEOPLE and not _DIED.search(clause):
            continue  # "Tom quit his job": still the speaker's husband

        removed.append(_proposal(subject, predicate, value, source, negated=True))
    return removed


def _instead(proposal: Proposal, clause: str, turn: _Turn, vocabulary: Vocabulary) -> Proposal:
    """ "I moved to VS Code, not Neovim anymore" after "I use Neovim as my editor": the new
    value is of the fact the old value was (editor), whatever the verb said (moved to)."""
    if proposal.negated or not turn.context_values or proposal.text_only:
        return proposal
    for match in _INSTEAD_OF.finditer(clause):
        old = turn.context_values.get(match.group("old").strip().casefold())
        if old is None:
            continue
        subject, predicate, _, _ = old
        if predicate and predicate != vocabulary.canonical(proposal.predicate or ""):
            value = proposal.object or ""
            return proposal.model_copy(
                update={
                    "subject": subject,
                    "predicate": predicate,
                    "sentence": sentence_of(subject, predicate, value),
                    "correction": False,
                }
            )
    return proposal
