"""The offline extractor: patterns over plain statements, no network and no model.

It reads one sentence at a time and proposes a claim when the sentence has one of a few shapes:

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
a sentence only becomes a claim when its verb or noun is one the vocabulary knows. Everything
else is left alone: this extractor is meant to be precise rather than complete (coverage and
limits in docs/extraction.md); the LLM extractor is the one that reads free conversation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from belief_graph.vocabulary import Vocabulary

from . import when
from .episode import Episode, Proposal

Timing = Literal["scheduled", "ended"] | None

__all__ = ["DIETS", "RuleExtractor", "sentences"]

DIETS = frozenset(
    {
        "vegan",
        "vegetarian",
        "pescatarian",
        "pescetarian",
        "flexitarian",
        "omnivore",
        "omnivorous",
        "keto",
        "paleo",
        "halal",
        "kosher",
        "gluten-free",
        "lactose-free",
        "dairy-free",
        "carnivore",
        "raw vegan",
        "lacto-vegetarian",
        "ovo-vegetarian",
        "plant-based",
    }
)
_DIET_PREDICATE = "dietary_preference"
_WORKS_AT = "works_at"

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+|\s+[-–—]+\s+")
_LEAD = re.compile(
    r"^(?:wait|oh|ok|okay|so|well|hey|hmm|btw|by the way|also|and|but|yes|yeah|yep|no|nope|"
    r"actually|sorry|correction|update|fyi|just so you know|heads up|oops|right|anyway)"
    r"\b[\s,:;!.-]*",
    re.IGNORECASE,
)
_CORRECTING_LEAD = {"actually", "sorry", "correction", "no", "nope", "oops"}
_NOT_TAIL = re.compile(r",?\s*(?:and\s+)?not\s+(?:in\s+|at\s+|a\s+|an\s+)?([^,.;!?]+?)\s*[.!?]*$")
_MEANT = re.compile(r"^(?:i\s+meant|i\s+mean|i\s+misspoke,?|i\s+was\s+wrong,?)\s+", re.IGNORECASE)
_ADVERBS = re.compile(
    r"\s*,?\s*\b(?:now|these days|nowadays|currently|at the moment|right now|at present|"
    r"instead|today|still|already|actually|really|just|also|too|as well|full[- ]time|"
    r"anymore|any more|any longer)\b,?",
    re.IGNORECASE,
)
_NEGATION_WORDS = re.compile(r"\b(?:anymore|any more|any longer)\b", re.IGNORECASE)
_CHANGE_FROM = re.compile(
    r"\b(moved|switched|changed|went|migrated|relocated|transferred)\s+from\s+.+?\s+to\s+",
    re.IGNORECASE,
)
_CONTEXT_VALUE = re.compile(
    r"^(?:it\s+(?:was|is|'s)|it's|that\s+(?:was|is)|(?:i|we)\s+(?:switched|changed|moved)\s+to|"
    r"(?:i|we)'ve\s+(?:switched|changed|moved)\s+to|i\s+use|i\s+went\s+with|i\s+picked)"
    r"\s+(.+)$",
    re.IGNORECASE,
)
_JOIN = re.compile(
    r"^(?:started\s+(?:working\s+)?at|started\s+a\s+(?:new\s+)?job\s+at|joined|got\s+a\s+job\s+at|"
    r"took\s+a\s+job\s+at|am\s+joining|'m\s+joining|will\s+join|now\s+work\s+at|"
    r"transferred\s+to|started\s+at)\s+(.+)$",
    re.IGNORECASE,
)
# Not an employer: "left for Paris", "quit smoking", "left early".
_LEAVE = re.compile(
    r"^(?:left|quit|resigned\s+from|was\s+laid\s+off\s+from)\s+"
    r"(?!(?:for|to|home|early|soon|on|in|at|with)\b|\w+ing\b)(.+)$",
    re.IGNORECASE,
)
# A change said as coming: "I'm moving to Berlin in May", "I'll be leaving Acme in June", "I'm
# going to start at Globex next week". Read as the change done (its verb in the past tense) at
# the date it names; without a date in the future it is a plan, left alone.
_PLANNED = re.compile(
    r"^(?:(?:am|'m|is|'s|are|'re)\s+(?:(?:going|about|planning|set)\s+to\s+)?"
    r"|(?:will|'ll|shall|gonna)\s+)(?:be\s+)?"
    r"(?P<verb>mov(?:e|ing)|relocat(?:e|ing)|transfer(?:ring)?|start(?:ing)?|join(?:ing)?|"
    r"leav(?:e|ing)|quit(?:ting)?)\b",
    re.IGNORECASE,
)
# "We switched Atlas to Go", "I migrated the Atlas backend from Express.js to Go", "we're
# porting Atlas to Go next month": a known subject moved onto a new stack by the speaker. Not
# "moved" ("we moved Bob to the night shift": a known subject may be a person).
_MOVED_ONTO = re.compile(
    r"^(?:we|i)\s*(?:(?:'ve|have|'re|are|'m|am|will|'ll)\s+)?(?:going\s+to\s+)?"
    r"(?P<verb>switch(?:ed|ing)?|migrat(?:ed|e|ing)|port(?:ed|ing)?)\s+"
    r"(?:the\s+)?(?P<subject>.+?)\s+(?:from\s+.+?\s+)?(?:over\s+)?to\s+(?P<value>.+)$",
    re.IGNORECASE,
)
_DONE = {
    "mov": "moved",
    "relocat": "relocated",
    "transfer": "transferred",
    "start": "started",
    "join": "joined",
    "leav": "left",
    "quit": "quit",
}
# First-person verb groups that negate what follows; "used to" says it held and holds no more.
_NEGATING = re.compile(
    r"^(?:(?:am|'m)\s+(?:no\s+longer|not)|(?:do\s+not|don't|dont|no\s+longer|never|"
    r"stopped|used\s+to|didn't|did\s+not))\s+",
    re.IGNORECASE,
)
_COPULA = re.compile(r"^(?:am|'m|is|are|'re|was|have\s+become|became|become)\s+", re.IGNORECASE)
_POSSESSIVE_VERB = re.compile(
    r"^(.+?)\s+(?:is|are|was|'s|has\s+become|changed\s+to|became)\s+(.+)$", re.IGNORECASE
)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
# A comma followed by a new clause or an aside ends the statement: "I work at Globex, mostly on
# billing", "My manager is Tom, he's hands-off", "I live in Berlin, in Neukölln".
_ASIDE = re.compile(
    r",\s*(?=(?:so|but|which|who|where|mostly|mainly|still|though|he|she|it|it's|they|we|i|"
    r"i'm|i've|then|because|since|once|in|on|at|with|just|rain|same|plus|much|lol|haha)\b)",
    re.IGNORECASE,
)
# Words that start a clause inside a value: "Spanish while living in Sevilla".
_SUBORDINATE = re.compile(
    r"\s+(?:while|when|whereas|because|since|after|before|so|but|though|although|which|who|"
    r"mostly|mainly|until|once|for\s+(?:my|his|her|their|our|a|an|the))\b.*$",
    re.IGNORECASE,
)
_APPROXIMATELY = re.compile(r"^(?:about|around|roughly|approximately|almost|nearly|~)\s*", re.I)
# "I'm a junior designer at Acme": a role and an employer.
_ROLE_AT = re.compile(r"^(?:am|'m)\s+(?:a|an)\s+(.+?)\s+(?:at|for|with)\s+(.+)$", re.IGNORECASE)
# "I'm a nurse": a role when its head noun names a person's work (a suffix or a common title).
_ROLE = re.compile(r"^(?:am|'m)\s+(?:a|an)\s+(.+)$", re.IGNORECASE)
_ROLE_HEAD = re.compile(
    r"(?:er|or|ist|yst|ian|ant|ent|ect|nurse|tech|chef|pilot|medic|vet|intern|cook)$",
    re.IGNORECASE,
)
_NOT_ROLES = frozenset(
    {
        "member",
        "fan",
        "user",
        "customer",
        "beginner",
        "player",
        "lover",
        "owner",
        "parent",
        "mother",
        "father",
        "brother",
        "sister",
        "daughter",
        "other",
        "student",
        "resident",
        "supporter",
        "believer",
        "client",
        "patient",
        "regular",
        "winner",
        "newcomer",
    }
)
# "I'm in Stockholm" (and nothing after it): where the speaker is based.
_IN_PLACE = re.compile(r"^(?:am|'m)\s+in\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})$")
# "I've got two cats, Ziggy and Stardust", "we have a dog named Biscuit".
_HAVE_NAMED = re.compile(
    r"^(?:(?:got|have|has|adopted|own)\s+)?(?:a|an|one|two|three|four|five|\d+)\s+(?:new\s+)?"
    r"([a-z]+?)(?:s)?(?:,\s*|\s+(?:named|called)\s+)(.+)$",
    re.IGNORECASE,
)
# Sentences without a subject in chat are the speaker's: "Moved to Porto", "Left Acme".
_SUBJECTLESS = re.compile(
    r"^(?:moved|relocated|transferred|started|joined|left|quit|switched|retired|got|took|"
    r"began)\b",
    re.IGNORECASE,
)
# Facts a "we" of the speaker's household states for the speaker too.
_HOUSEHOLD = frozenset({"lives_in", "has_pet", "has_child"})
# Vocabulary phrases too general to read a person's sentence by (they name a project's stack,
# or a diet only with a diet word).
_UNREAD = frozenset({"eats", "does not eat", "is", "team", "state", "stage"})
_UNREAD_FIRST_PERSON = frozenset({"uses", "switched to"})
_MAX_OBJECT_WORDS = 6
_PRONOUNS = frozenset({"it", "that", "this", "there", "here", "them", "one", ""})


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split after ``.``, ``!``, ``?``, ``;``, at line breaks and at
    a dash between spaces)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


@dataclass(frozen=True)
class _Fact:
    predicate: str
    relation: str  # the third-person phrase the sentence uses ("lives in", "is")
    value: str
    negated: bool = False
    possessive: bool = False
    # A second fact the same words state ("a designer at Acme": job_title and works_at).
    also: tuple[str, str, str] | None = None


class RuleExtractor:
    """Patterns over first-person statements, possessives and known subjects (see the module
    docstring). Offline and deterministic; weaker than an LLM by design."""

    name = "rules"

    def extract(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]:
        """The claims the episode's text states, in the order said."""
        previous = self._last_fact(episode, vocabulary, known_subjects)
        proposals: list[Proposal] = []
        for sentence in sentences(episode.text):
            found, fact = self._sentence(sentence, episode, vocabulary, known_subjects, previous)
            if fact is None and when.find(sentence, episode.at).phrase:
                # The time may be the value itself ("my day off is on Monday").
                found, fact = self._sentence(
                    sentence, episode, vocabulary, known_subjects, previous, timed=False
                )
            proposals.extend(found)
            previous = fact or previous
        return proposals

    def _last_fact(
        self, episode: Episode, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> tuple[str, _Fact] | None:
        """The subject and fact the context last spoke of: what "it was X" refers to."""
        last: tuple[str, _Fact] | None = None
        for turn in episode.context:
            for sentence in sentences(turn):
                last = (
                    self._sentence(sentence, episode, vocabulary, known_subjects, last)[1] or last
                )
        return last

    def _sentence(
        self,
        sentence: str,
        episode: Episode,
        vocabulary: Vocabulary,
        known_subjects: Sequence[str],
        previous: tuple[str, _Fact] | None,
        *,
        timed: bool = True,
    ) -> tuple[list[Proposal], tuple[str, _Fact] | None]:
        window = when.find(sentence, episode.at) if timed else when.Window()
        body = _without_time(sentence, window).strip().rstrip(".!?;").strip()
        correction = False
        while (lead := _LEAD.match(body)) is not None and lead.end() > 0:
            word = lead.group(0).strip(" ,:;!.-").lower()
            correction = correction or word in _CORRECTING_LEAD
            body = body[lead.end() :]
        meant = _MEANT.match(body)
        if meant is not None:
            correction = True
            body = body[meant.end() :]
        not_tail = _NOT_TAIL.search(body)
        if not_tail is not None and not_tail.start() > 0:
            correction = True
            body = body[: not_tail.start()]
        elif correction and not re.search(r"\bnot\b|n't\b", body, re.IGNORECASE):
            # "Actually, ..." without a contrast reads as a correction only without change
            # words: "actually I moved to Porto last week" is news, not a retraction.
            correction = not (window or re.search(r"\b(now|moved|switched|since)\b", body, re.I))
        else:
            correction = correction and not_tail is not None
        negated = bool(_NEGATION_WORDS.search(body))
        body = _CHANGE_FROM.sub(lambda m: f"{m.group(1)} to ", body)
        body = re.sub(r"\b(moved|relocated)\s+(?:out|over|back)\s+to\b", r"\1 to", body, flags=re.I)
        aside = _ASIDE.search(body)
        if aside is not None and aside.start() > 0:
            body = body[: aside.start()]
        body = " ".join(_ADVERBS.sub(" ", f" {body} ").split()).strip(" ,")
        if not body:
            return [], None
        found = self._read(
            body,
            episode,
            vocabulary,
            known_subjects,
            previous,
            meant is not None,
            _timing(window, episode.at),
        )
        if found is None:
            return [], None
        subject, fact = found
        negated = negated or fact.negated
        values = _values(fact.value, vocabulary.cardinality(fact.predicate))
        proposals = [
            Proposal(
                subject=subject,
                predicate=fact.predicate,
                object=_ARTICLE.sub("", value),
                sentence=_sentence_of(subject, fact, value, negated),
                source=sentence,
                valid_from=window.valid_from,
                valid_to=window.valid_to,
                negated=negated,
                correction=correction and not negated,
            )
            for value in values
        ]
        if fact.also is not None:
            predicate, relation, value = fact.also
            extra = _Fact(predicate, relation, value)
            proposals.append(
                Proposal(
                    subject=subject,
                    predicate=predicate,
                    object=_ARTICLE.sub("", value),
                    sentence=_sentence_of(subject, extra, value, False),
                    source=sentence,
                    valid_from=window.valid_from,
                    valid_to=window.valid_to,
                )
            )
        return proposals, found

    def _read(
        self,
        body: str,
        episode: Episode,
        vocabulary: Vocabulary,
        known_subjects: Sequence[str],
        previous: tuple[str, _Fact] | None,
        meant: bool,
        timing: Timing,
    ) -> tuple[str, _Fact] | None:
        """Who the clause is about and the fact it states, or ``None``."""
        lowered = body.lower()
        context = _CONTEXT_VALUE.match(body)
        if previous is not None and (context is not None or (meant and len(body.split()) <= 3)):
            subject, last = previous
            value = _clean(context.group(1) if context is not None else body)
            if not value:
                return None
            return subject, _Fact(last.predicate, last.relation, value, False, last.possessive)
        fact: _Fact | None
        onto = _MOVED_ONTO.match(body)
        switched = _moved_onto(onto, known_subjects, vocabulary, timing) if onto else None
        if switched is not None:
            return switched
        if lowered.startswith("my "):
            fact = _possessive(body[3:], vocabulary)
            return (episode.speaker, fact) if fact else None
        first = re.match(r"^i(?:\s+|(?='))", body, re.IGNORECASE)
        if first is not None:
            fact = _verb_group(body[first.end() :], vocabulary, first_person=True, timing=timing)
            return (episode.speaker, fact) if fact else None
        we = re.match(r"^we(?:\s+|(?='))", body, re.IGNORECASE)
        if we is not None:
            fact = _verb_group(body[we.end() :], vocabulary, first_person=True, timing=timing)
            return (episode.speaker, fact) if fact and fact.predicate in _HOUSEHOLD else None
        if _SUBJECTLESS.match(body):
            fact = _verb_group(body, vocabulary, first_person=True, timing=timing)
            return (episode.speaker, fact) if fact else None
        for name in sorted({*known_subjects, episode.speaker}, key=len, reverse=True):
            pattern = re.compile(rf"^{re.escape(name)}(?:'s|’s)?\b", re.IGNORECASE)
            match = pattern.match(body)
            if match is None:
                continue
            rest = body[match.end() :].strip()
            if match.group(0).lower().endswith(("'s", "’s")):
                # "Bob's moving to Rome next month" is "Bob is", not Bob's.
                planned = _PLANNED.match(f"is {rest}") is not None
                fact = (
                    _verb_group(f"is {rest}", vocabulary, first_person=False, timing=timing)
                    if planned
                    else _possessive(rest, vocabulary)
                )
            else:
                fact = _verb_group(rest, vocabulary, first_person=False, timing=timing)
            return (name, fact) if fact else None
        return None


def _without_time(sentence: str, window: when.Window) -> str:
    """The sentence without its time phrase; a comma after the phrase stays, since it may
    end the statement ("I started at Deloitte last week, still learning names")."""
    if not window.phrase:
        return sentence
    head, _, tail = sentence.partition(window.phrase)
    keep = "," if head.strip(" ,") and tail.lstrip(" ").startswith(",") else ""
    return " ".join(f"{head.rstrip(' ,')}{keep} {tail.lstrip(' ,')}".split())


def _possessive(rest: str, vocabulary: Vocabulary) -> _Fact | None:
    """ "favorite food is sushi" (after "my" or "Bob's")."""
    match = _POSSESSIVE_VERB.match(rest)
    if match is None:
        return None
    noun = match.group(1).strip()
    value = _clean(re.sub(r"^(?:on|at)\s+", "", match.group(2), flags=re.IGNORECASE))
    if noun.lower().startswith(("new ", "current ")):
        noun = noun.split(" ", 1)[1]
    if not value or noun not in vocabulary or len(noun.split()) > 4:
        return None
    return _Fact(vocabulary.canonical(noun), noun.lower(), value, possessive=True)


def _moved_onto(
    onto: re.Match[str], known_subjects: Sequence[str], vocabulary: Vocabulary, timing: Timing
) -> tuple[str, _Fact] | None:
    """A known subject the speaker moved onto a new stack ("we switched Atlas to Go"): the
    subject's "switched to" fact; as coming ("we're switching Atlas to Go"), only with its date."""
    said = onto.group("subject").lower()
    name = next((n for n in known_subjects if n.lower() in (said, said.split(" ")[0])), None)
    verb = onto.group("verb").lower()
    if name is None or (not verb.endswith("ed") and timing != "scheduled"):
        return None
    fact = _verb_group(f"switched to {onto.group('value')}", vocabulary, first_person=False)
    return (name, fact) if fact else None


def _timing(window: when.Window, said_at: datetime) -> Timing:
    """What the sentence's time says of its verb when it was said: a window that starts that
    day or later is a change to come ("scheduled": "I'm starting at Globex today"); one that
    had closed, a fact that held then ("ended")."""
    if window.valid_from is None:
        return None
    if window.valid_to is not None and window.valid_to <= said_at:
        return "ended"
    midnight = said_at.replace(hour=0, minute=0, second=0, microsecond=0)
    return "scheduled" if window.valid_from >= midnight else None


def _verb_group(
    rest: str, vocabulary: Vocabulary, *, first_person: bool, timing: Timing = None
) -> _Fact | None:
    """The fact a clause states after its subject: "live in Lisbon", "'m vegan", "left Acme".
    ``timing`` (``_timing``): a planned change is read only when it is "scheduled", a past
    tense ("lived in") as the fact only when "ended"."""
    rest = rest.strip()
    negated = False
    negating = _NEGATING.match(rest)
    if negating is not None:
        negated = True
        rest = rest[negating.end() :]
    planned = _PLANNED.match(rest)
    if planned is not None:
        if timing != "scheduled":
            return None
        verb = planned.group("verb").lower()
        stem = next(s for s in _DONE if verb.startswith(s))
        rest = f"{_DONE[stem]}{rest[planned.end() :]}"
    perfect = re.match(r"^(?:'ve|have|has)\s+(?!got\b)", rest, re.IGNORECASE) is not None
    rest = re.sub(r"^(?:'ve|have|has|'d|will|'ll|do|does)\s+", "", rest, flags=re.IGNORECASE)
    rest = re.sub(r"^(?:been\s+)", "", rest, flags=re.IGNORECASE)
    joined = _JOIN.match(rest)
    if joined is not None:
        value = _clean(joined.group(1))
        return _Fact(_WORKS_AT, "works at", value, negated) if value else None
    left = _LEAVE.match(rest)
    if left is not None:
        value = _clean(left.group(1))
        return _Fact(_WORKS_AT, "works at", value, True) if value else None
    named = _HAVE_NAMED.match(rest)
    if named is not None and not negated:
        noun = named.group(1).lower()
        for phrase in (f"has a {noun}", noun, f"{noun}s"):
            if phrase in vocabulary:
                predicate = vocabulary.canonical(phrase)
                value = _clean(named.group(2))
                return _Fact(predicate, f"has a {noun} called", value) if value else None
    place = _IN_PLACE.match(rest)
    if place is not None and not negated:
        return _Fact("lives_in", "lives in", place.group(1))
    role_at = _ROLE_AT.match(rest)
    if role_at is not None and not negated and _is_role(role_at.group(1)):
        value = _clean(role_at.group(2))
        role = _clean(role_at.group(1))
        if value and role:
            return _Fact("job_title", "works as", role, also=("works_at", "works at", value))
    copula = _COPULA.match(rest)
    if copula is not None or negated:
        value = _clean(rest[copula.end() :] if copula is not None else rest)
        if _ARTICLE.sub("", value).lower() in DIETS:
            return _Fact(_DIET_PREDICATE, "is", _ARTICLE.sub("", value).lower(), negated)
    eats = re.match(r"^(?:eat|eats|ate)\s+(?:a\s+|an\s+)?(.+?)(?:\s+diet)?$", rest, re.IGNORECASE)
    if eats is not None:
        value = _clean(eats.group(1))
        if _ARTICLE.sub("", value).lower() in DIETS:
            return _Fact(_DIET_PREDICATE, "is", _ARTICLE.sub("", value).lower(), negated)
        return None
    a_role = _ROLE.match(rest)
    if a_role is not None and _is_role(a_role.group(1)):
        value = _clean(a_role.group(1))
        return _Fact("job_title", "works as", value, negated) if value else None
    words = rest.split()
    for size in range(min(len(words) - 1, 6), 0, -1):
        head = [w.strip(",;:") for w in words[:size]]
        phrases = _variants(head, first_person=first_person)
        if (perfect or timing == "ended") and head[0].lower().endswith("ed"):
            # "I've worked at Siemens", "I've lived here": it still holds; "I lived in Paris
            # from 2015 to 2019": it held then. The verb's stem, in the third person.
            for stem in (head[0][:-1], head[0][:-2]):
                phrases += _variants([stem, *head[1:]], first_person=True)
        for phrase in phrases:
            lowered = phrase.lower()
            if lowered in _UNREAD or (first_person and lowered in _UNREAD_FIRST_PERSON):
                continue
            if phrase not in vocabulary:
                continue
            value = _clean(" ".join(words[size:]))
            if value:
                return _Fact(vocabulary.canonical(phrase), phrase.lower(), value, negated)
    return None


def _is_role(phrase: str) -> bool:
    """Whether "a <phrase>" names a job: a few words whose last one names a person's work."""
    words = phrase.split()
    if not words or len(words) > 3 or not words[-1].isalpha():
        return False
    head = words[-1].lower()
    if head in _NOT_ROLES or _ARTICLE.sub("", phrase).lower() in DIETS:
        return False
    return bool(_ROLE_HEAD.search(head))


def _variants(head: list[str], *, first_person: bool) -> list[str]:
    """The relation phrases a verb group may stand for, in the third person."""
    found: list[str] = []
    if first_person:
        found.append(" ".join([_third_person(head[0]), *head[1:]]))
    found.append(" ".join(head))
    if len(head) > 1 and head[0].lower() in ("am", "'m", "is", "are", "'re"):
        found.append(" ".join(head[1:]))
        found.append(" ".join(["is", *head[1:]]))
    return found


_IRREGULAR = {"am": "is", "'m": "is", "are": "is", "'re": "is", "have": "has", "do": "does"}


def _third_person(verb: str) -> str:
    lowered = verb.lower()
    if lowered in _IRREGULAR:
        return _IRREGULAR[lowered]
    if lowered.endswith("ed") or (lowered.endswith("s") and not lowered.endswith("ss")):
        return lowered
    if lowered.endswith(("ss", "sh", "ch", "x", "z", "o")):
        return lowered + "es"
    if len(lowered) > 1 and lowered.endswith("y") and lowered[-2] not in "aeiou":
        return lowered[:-1] + "ies"
    return lowered + "s"


def _clean(value: str) -> str:
    """A value as said, without an article, quotes or trailing punctuation; empty when it is
    too long to be one value (a clause, not a name)."""
    value = value.strip().strip("\"'“”‘’").rstrip(".!?,;:").strip()
    value = re.sub(r"^(?:named|called)\s+", "", value, flags=re.IGNORECASE)
    value = _APPROXIMATELY.sub("", _SUBORDINATE.sub("", value)).strip()
    if not value or len(value.split()) > _MAX_OBJECT_WORDS:
        return ""
    if _ARTICLE.sub("", value).lower() in (
        "it",
        "that",
        "this",
        "there",
        "here",
        "them",
        "one",
        "",
    ):
        return ""
    return value


def _values(value: str, cardinality: str) -> list[str]:
    """A multi-valued fact may be given as a list ("French and Spanish")."""
    if cardinality != "multi":
        return [value]
    parts = [
        _clean(re.sub(r"^(?:to|in|at|on|of)\s+", "", p, flags=re.IGNORECASE))
        for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", value)
    ]
    return [p for p in parts if p] or [value]


def _sentence_of(subject: str, fact: _Fact, value: str, negated: bool) -> str:
    """The claim as a self-contained sentence in the third person."""
    if fact.possessive:
        verb = "is no longer" if negated else "is"
        return f"{subject}'s {fact.relation} {verb} {value}."
    relation = fact.relation
    if negated:
        if relation.startswith("is "):
            relation = "is no longer " + relation[3:]
        elif relation == "is":
            relation = "is no longer"
        else:
            relation = "no longer " + relation
    return f"{subject} {relation} {value}."
