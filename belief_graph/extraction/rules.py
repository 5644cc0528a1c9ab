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
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from belief_graph.vocabulary import Vocabulary

from . import when
from .episode import Episode, Proposal
from .phrasing import sentence_of, sentences

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

_LEAD = re.compile(
    r"^(?:wait|oh|ok|okay|so|well|hey|hmm|btw|by the way|also|and|but|yes|yeah|yep|no|nope|"
    r"actually|sorry|correction|update|fyi|just so you know|heads up|oops|right|anyway|typo|"
    r"my bad|ugh|whoops|honestly|quick update|good news|bad news|sadly|news|small change|"
    r"i'd say|i would say|i guess|i suppose|i think|let me think|to be honest|for the record|"
    r"scratch that|autocorrect)"
    r"\b[\s,:;!.-]*",
    re.IGNORECASE,
)
_CORRECTING_LEAD = {
    "actually",
    "sorry",
    "correction",
    "no",
    "nope",
    "oops",
    "typo",
    "my bad",
    "scratch that",
    "autocorrect",
}
# "a house in Brno": the place is the value.
_DWELLING = re.compile(
    r"^(?:a|an|the|our|my)\s+(?:\w+\s+)?(?:house|flat|apartment|place|village|town)\s+"
    r"(?:in|near|outside)\s+",
    re.IGNORECASE,
)


def _without_leads(text: str) -> str:
    """The text without the words that lead into a statement ("no wait, ", "ok so ")."""
    text = text.strip()
    while (lead := _LEAD.match(text)) is not None and lead.end() > 0:
        text = text[lead.end() :]
    return text


def _bare_value(body: str) -> bool:
    """A correction that says only the right value ("no wait, 35", "Typo, Graz.")."""
    words = body.split()
    if not words or len(words) > 3 or "," in body:
        return False
    if len(words) == 3 and not (words[0][:1].isupper() or words[0][:1].isdigit()):
        return False
    return not re.match(r"^(?:i|we|my|it|he|she|they|more|less|no)\b", body, re.IGNORECASE)


_NOT_TAIL = re.compile(
    r"(?:,\s*|\s+and\s+|\s+[-–—]\s+)not\s+(?:in\s+|at\s+|a\s+|an\s+)?([^,.;!?]+?)\s*[.!?]*$"
)
_MEANT = re.compile(
    r"^(?:i\s+meant|i\s+mean|i\s+misspoke,?|i\s+was\s+wrong,?|make\s+that)\s+", re.IGNORECASE
)
# After "no wait", "scratch that", "sorry": "it's Lille" is the right value of the last fact.
_IT_IS = re.compile(r"^(?:it's|it\s+is|it\s+was|that's|that\s+is)\s+", re.IGNORECASE)
_ADVERBS = re.compile(
    r"\s*,?\s*\b(?:now|these days|nowadays|currently|at the moment|right now|at present|"
    r"instead|today|still|already|actually|really|just|also|too|as well|full[- ]time|"
    r"anymore|any more|any longer|remotely|from home|part[- ]time|freelance|only|usually|"
    r"normally|generally|typically|mostly|mainly|often|basically|originally|for now|recently|"
    r"lately|officially|both)\b,?",
    re.IGNORECASE,
)
_NEGATION_WORDS = re.compile(r"\b(?:anymore|any more|any longer)\b", re.IGNORECASE)
_CHANGE_FROM = re.compile(
    r"\b(moved|switched|changed|went|migrated|relocated|transferred)\s+from\s+.+?\s+to\s+",
    re.IGNORECASE,
)
_CONTEXT_VALUE = re.compile(
    r"^(?:it\s+was|that\s+was|(?:i|we)\s+(?:switched|changed|moved)\s+to|"
    r"(?:i|we)'ve\s+(?:switched|changed|moved)\s+to|i\s+use|i\s+went\s+with|i\s+picked(?!\s+up\b)|"
    r"(?:i|we)(?:'ve)?\s+(?:upped|raised|increased|cut|lowered|reduced|bumped|dropped|pushed|"
    r"moved|changed)\s+(?:it|that|them)\s+(?:up\s+|down\s+|back\s+)?to)"
    r"\s+(.+)$",
    re.IGNORECASE,
)
_JOIN = re.compile(
    r"^(?:start\s+at|started\s+(?:working\s+)?(?:at|for)|started\s+a\s+(?:new\s+)?job\s+at|joined|"
    r"got\s+a\s+(?:new\s+)?job\s+(?:at|with)|"
    r"(?:took|taken)\s+a\s+(?:new\s+)?job\s+(?:at|with)|am\s+joining|'m\s+joining|will\s+join|now\s+work\s+at|"
    r"transferred\s+to|started\s+at)\s+(.+)$",
    re.IGNORECASE,
)
# Not an employer: "left for Paris", "quit smoking", "left early".
_LEAVE = re.compile(
    r"^(?:left|quit|resigned\s+from|was\s+laid\s+off\s+from|got\s+laid\s+off\s+from|"
    r"handed\s+in\s+my\s+notice\s+at|left\s+my\s+job\s+at|was\s+let\s+go\s+from|"
    r"(?:got|was|been)\s+(?:fired|sacked|let\s+go|made\s+redundant)\s+(?:from|by|at)|retired\s+from)\s+"
    r"(?!(?:for|to|home|early|soon|on|in|at|with)\b|\w+ing\b)(?!.*\s+for\s+(?-i:[A-Z]))(.+)$",
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
    r"^(.+?)(?::|\s+(?:is|are|was|'s|has\s+become|changed\s+to|became))\s+(.+)$",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
# A comma followed by a new clause or an aside ends the statement: "I work at Globex, mostly on
# billing", "My manager is Tom, he's hands-off", "I live in Berlin, in Neukölln".
_ASIDE = re.compile(
    r",\s*(?=(?:so|but|which|who|where|mostly|mainly|still|though|he|she|it|it's|they|we|i|"
    r"i'm|i've|then|because|since|once|in|on|at|with|just|rain|same|plus|much|lol|haha|about|"
    r"around|roughly|maybe|mostly)\b)",
    re.IGNORECASE,
)
# Words that start a clause inside a value: "Spanish while living in Sevilla".
_SUBORDINATE = re.compile(
    r"\s+(?:while|when|whereas|because|since|after|before|so|but|though|although|which|who|"
    r"mostly|mainly|until|once|instead\s+of|rather\s+than|as\s+(?:a|an)|over|every|each|daily|"
    r"most\s+days|within|(?:on|via|through)\s+(?-i:[A-Z])\w*$|"
    r"(?:for|with)\s+(?:my|his|her|their|our|a|an|the|two|three|four|\d[\d,.]*)|"
    r"for\s+(?:work|school|uni|university|now|good|a\s+while))\b.*$",
    re.IGNORECASE,
)
# Words that start a clause inside a value said as an action ("save for a baby").
_CLAUSE_WORDS = re.compile(
    r"\s+(?:while|when|whereas|because|since|so|but|though|although|which|who|until|once|"
    r"within)\b.*$",
    re.IGNORECASE,
)
# Facts whose value is an action, said with its verb.
_ACTIONS = frozenset({"has_goal", "working_on", "has_habit", "has_constraint"})
_APPROXIMATELY = re.compile(
    r"^(?:about|around|roughly|approximately|almost|nearly|up\s+to|~)\s*", re.I
)
# "I'm a junior designer at Acme": a role and an employer.
_ROLE_AT = re.compile(
    r"^(?:am|'m|is|'s)\s+(?:a|an|the)\s+(.+?)\s+(?:at|for|with)\s+(.+)$", re.IGNORECASE
)
# "I'm a nurse": a role when its head noun names a person's work (a suffix or a common title).
_ROLE = re.compile(
    r"^(?:am|'m|is|'s|became|become|got\s+promoted\s+to)\s+(?:a|an|the)\s+(.+)$", re.IGNORECASE
)
_ROLE_HEAD = re.compile(
    r"(?:er|or|ist|yst|ian|ant|ent|ect|nurse|tech|chef|pilot|medic|vet|intern|cook|paralegal|"
    r"clerk|cashier|barista|surgeon|midwife|mechanic|lead|head|director|officer|coach)$",
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
        # Not a job: what one is like, does for fun, or where one is from.
        "smoker",
        "drinker",
        "sleeper",
        "eater",
        "learner",
        "gamer",
        "reader",
        "dreamer",
        "thinker",
        "worrier",
        "runner",
        "swimmer",
        "climber",
        "cyclist",
        "golfer",
        "surfer",
        "skier",
        "hiker",
        "londoner",
        "yorker",
        "berliner",
        "northerner",
        "southerner",
        "islander",
        "foreigner",
        "outsider",
        "insider",
        "introvert",
        "extrovert",
        "optimist",
        "pessimist",
        "perfectionist",
        "minimalist",
    }
)
# "I'm in Stockholm" (and nothing after it): where the speaker is based.
_IN_PLACE = re.compile(r"^(?:am|'m|are|'re|is|'s)\s+in\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})$")
# "I've got two cats, Ziggy and Stardust", "we have a dog named Biscuit".
_HAVE_NAMED = re.compile(
    r"^(?:(?:got|have|has|adopted|own)\s+)?(?:a|an|one|two|three|four|five|\d+)\s+(?:new\s+)?"
    r"([a-z]+?)(?:s)?(?:\s+(?:on|in|at)\s+[^:,]+)?(?::\s*|,\s*|\s+\(|\s+(?:named|called)\s+)(.+)$",
    re.IGNORECASE,
)
# Sentences without a subject in chat are the speaker's: "Moved to Porto", "Left Acme".
_SUBJECTLESS = re.compile(
    r"^(?:moved|relocated|transferred|started|joined|left|quit|switched|retired|got|took|"
    r"began|been|starting|joining|moving|relocating|born)\b",
    re.IGNORECASE,
)
# Facts a "we" of the speaker's household states for the speaker too.
_HOUSEHOLD = frozenset({"lives_in", "has_pet", "has_child"})
# Vocabulary phrases too general to read a person's sentence by (they name a project's stack,
# or a diet only with a diet word).
_UNREAD = frozenset({"eats", "does not eat", "is", "team", "state", "stage"})
# Facts whose value is a day, a date or a time: a time phrase in the sentence is the value.
_WHEN_VALUED = ("_day", "_date", "_time", "deadline", "birthday", "appointment", "working_hours")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
# A clause after "and" that starts with a verb has the subject of the one before it.
_VERB_START = re.compile(
    r"^(?:work|works|live|lives|speak|speaks|play|plays|run|runs|drive|drives|have|has|teach|"
    r"teaches|love|loves|like|likes|hate|hates|eat|eats|drink|drinks|go|goes|use|uses|study|"
    r"studies|own|owns|need|needs|want|wants|[a-z]+ed)\b|"
    r"^[a-z]+s\s+(?:in|on|at|to|from|with|for|a|an|the|my|his|her|our|their|\d)\b"
)
# Facts whose value is a name, said with a capital letter.
_NAMED_VALUES = frozenset(
    {
        "lives_in",
        "works_at",
        "born_in",
        "reports_to",
        "spouse",
        "partner",
        "has_sibling",
        "has_child",
        "has_parent",
        "friend_of",
        "colleague_of",
        "has_cousin",
        "uses_framework",
        "work_location",
        "name",
    }
)
_PEOPLE = frozenset(
    {
        "has_child",
        "has_sibling",
        "spouse",
        "partner",
        "has_parent",
        "friend_of",
        "colleague_of",
        "has_cousin",
        "reports_to",
        "roommate",
    }
)
# Facts whose value is a kind, never a number.
_NOT_A_NUMBER = frozenset({"commute_mode", "dietary_preference", "response_language"})
_STACK = frozenset({"uses_framework", "uses_language", "uses_database", "deployed_on"})
_UNREAD_FIRST_PERSON = frozenset({"uses", "switched to"})
_MAX_OBJECT_WORDS = 7
_PRONOUNS = frozenset({"it", "that", "this", "there", "here", "them", "one", ""})


@dataclass(frozen=True)
class _Fact:
    predicate: str
    relation: str  # the third-person phrase the sentence uses ("lives in", "is")
    value: str
    negated: bool = False
    possessive: bool = False
    # A second fact the same words state ("a designer at Acme": job_title and works_at).
    also: tuple[str, str, str] | None = None
    # Read from where one is ("I'm in Stockholm"): a home, unless it ends soon (a stay).
    where_one_is: bool = False


class RuleExtractor:
    """Patterns over first-person statements, possessives and known subjects (see the module
    docstring). Offline and deterministic; weaker than an LLM by design."""

    name = "rules"

    def __init__(self, *, keep_unread: bool = True) -> None:
        self.keep_unread = keep_unread

    def extract(
        self, episode: Episode, *, vocabulary: Vocabulary, known_subjects: Sequence[str]
    ) -> list[Proposal]:
        """The claims the episode's text states, in the order said; a turn with none is kept
        as a text-only proposal of its statements (``keep_unread``), so that search finds it."""
        turn = _Turn(episode.speaker, known_subjects)
        previous: tuple[str, _Fact] | None = None
        for said in episode.context:
            for sentence in sentences(said):
                for proposal, fact in self._clauses(
                    sentence, episode, vocabulary, turn, previous, in_context=True
                ):
                    turn.remember(proposal)
                    previous = fact or previous
        turn.context_values = dict(turn.values)
        proposals: list[Proposal] = []
        for sentence in sentences(episode.text):
            for proposal, fact in self._clauses(sentence, episode, vocabulary, turn, previous):
                if proposal is not None and proposal not in proposals:
                    proposals.append(proposal)
                    turn.remember(proposal)
                previous = fact or previous
        if not proposals and self.keep_unread:
            kept = _statements(episode.text)
            if kept:
                proposals.append(Proposal(sentence=kept, source=kept))
        return proposals

    def _clauses(
        self,
        sentence: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
        *,
        in_context: bool = False,
    ) -> list[tuple[Proposal | None, tuple[str, _Fact] | None]]:
        """The proposals of one sentence, clause by clause, each with the fact it stated."""
        out: list[tuple[Proposal | None, tuple[str, _Fact] | None]] = []
        request = _REQUEST.match(sentence)
        if request is not None:
            sentence = sentence[request.end() :].rstrip(" ?")
        elif sentence.rstrip().endswith("?"):
            return out
        sentence = _BULLET.sub("", sentence)
        said, introduced = _introductions(sentence, episode.speaker, vocabulary, turn)
        # "Me and my husband live in Cork", "Tom and I live in Cork": "we".
        said = _ME_AND.sub("we", said)
        out.extend((p, None) for p in _with_source(introduced, sentence))
        for clause, source in self._split(said, episode, vocabulary, turn, previous):
            if source not in sentence:
                source = sentence
            clause = turn.resolve_pronoun(clause)
            found, fact = self._read_clause(clause, episode, vocabulary, turn, previous)
            found = [p for p in _with_source(found, source) if _plausible(p, turn)]
            found += [
                p
                for p in _members(clause, source, episode.speaker, vocabulary)
                if (p.predicate, p.object) not in {(f.predicate, f.object) for f in found}
            ]
            removed = _removals(clause, source, found, turn, vocabulary)
            out.extend((p, fact) for p in found)
            out.extend((p, None) for p in removed)
            previous = fact or previous
            if fact is not None:
                turn.last_person = fact[0] if fact[0] != episode.speaker else turn.last_person
        return out

    def _read_clause(
        self,
        clause: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
    ) -> tuple[list[Proposal], tuple[str, _Fact] | None]:
        known = turn.known()
        numbers = _numbers(clause, episode, vocabulary, turn)
        if numbers:
            # The clause may state another fact beside its number ("my car is a 2015 Civic
            # with 140,000 km on it"): kept when it is not the number again.
            said, _ = self._sentence(clause, episode, vocabulary, known, previous)
            counted = {p.predicate for p in numbers}
            values = [(n.object or "").casefold() for n in numbers]
            besides = [
                p
                for p in said
                if p.predicate not in counted
                and not any(_overlaps((p.object or "").casefold(), v) for v in values)
            ]
            return numbers + besides, _fact_of(numbers[-1])
        found, fact = self._sentence(clause, episode, vocabulary, known, previous)
        if (fact is None or fact[1].predicate.endswith(_WHEN_VALUED)) and when.find(
            clause, episode.at
        ).phrase:
            # The time may be the value itself ("my day off is on Monday"); a value read with
            # the time left out stays ("from next week I'm on 10pm to 6am").
            untimed = self._sentence(clause, episode, vocabulary, known, previous, timed=False)
            phrase = when.find(clause, episode.at).phrase
            if not found or (untimed[0] and not _keeps_time(found, untimed[0], phrase)):
                found, fact = untimed
        if not found:
            found = _same_unit(clause, episode, turn)
            fact = _fact_of(found[-1]) if found else fact
        if not found:
            found = _changed_noun(clause, episode, vocabulary, turn)
            fact = _fact_of(found[-1]) if found else fact
        if not found:
            found = _everyday(clause, episode.speaker, vocabulary)
            fact = _fact_of(found[-1]) if found else fact
        found = [_instead(p, clause, turn, vocabulary) for p in found]
        return found, fact

    def _split(
        self,
        sentence: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
    ) -> list[tuple[str, str]]:
        """The clauses of a sentence, each with the span of the sentence it is: split at "and",
        "but", "so", a comma before a new subject; a clause without a subject takes the one
        before it ("I live in Mechelen and work in Brussels")."""
        parts = _CLAUSE_BREAK.split(sentence)
        clauses: list[list[str]] = [[parts[0], parts[0]]]
        for joint, part in zip(parts[1::2], parts[2::2], strict=True):
            current = clauses[-1]
            if not part.strip():
                current[0] += joint + part
                current[1] += joint + part
                continue
            # "No wait, it's Lille": the correction and what it corrects stay one clause.
            lead_only = not _without_leads(current[0]).strip(" ,.!:;-") and any(
                word in _CORRECTING_LEAD
                for word in re.findall(r"[a-z]+(?:\s+(?:that|bad))?", current[0].lower())
            )
            if not lead_only and (
                _STARTS_WITH_SUBJECT.match(
                    re.sub(r"^(?:now|then|nowadays)\s*,?\s+", "", part, flags=re.I)
                )
                or turn.names_at_start(part)
                or _everyday(part, episode.speaker, vocabulary)
            ):
                # A part with its own subject, or a request said on its own ("..., answer
                # in Portuguese from now on please").
                clauses.append([part, part])
                continue
            subject = _subject_of(current[0], turn)
            if subject and (
                (
                    _VERB_START.match(part)
                    and self._reads(current[0], episode, vocabulary, turn, previous)
                )
                or self._reads(f"{subject} {part}", episode, vocabulary, turn, previous)
            ):
                clauses.append([f"{subject} {part}", part])
                continue
            current[0] += joint + part
            current[1] += joint + part
        return [
            (text.strip(" ,"), source.strip(" ,")) for text, source in clauses if text.strip(" ,")
        ]

    def _reads(
        self,
        clause: str,
        episode: Episode,
        vocabulary: Vocabulary,
        turn: _Turn,
        previous: tuple[str, _Fact] | None,
    ) -> bool:
        found, _ = self._read_clause(clause, episode, vocabulary, turn, previous)
        return bool(found)

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
        # "im vegan now", "ive moved": typed without the apostrophe.
        body = re.sub(r"\b(i)(m|ve|ll|d)\b", r"\1'\2", body, flags=re.IGNORECASE)
        correction = False
        while (lead := _LEAD.match(body)) is not None and lead.end() > 0:
            word = lead.group(0).strip(" ,:;!.-").lower()
            correction = correction or word in _CORRECTING_LEAD
            body = body[lead.end() :]
        led = correction
        meant = _MEANT.match(body) or (_IT_IS.match(body) if led else None)
        if meant is not None:
            correction = True
            body = body[meant.end() :]
        not_tail = _NOT_TAIL.search(body)
        if not_tail is not None and not_tail.start() > 0:
            # "..., not Neovim anymore" says it changed; "..., not Lisbon" that it was wrong.
            correction = not _NEGATION_WORDS.search(not_tail.group(0))
            body = body[: not_tail.start()]
        elif correction and not re.search(r"\bnot\b|n't\b", body, re.IGNORECASE):
            # "Actually, ..." without a contrast reads as a correction only without change
            # words: "actually I moved to Porto last week" is news, not a retraction.
            correction = not (window or re.search(r"\b(now|moved|switched|since)\b", body, re.I))
        else:
            correction = correction and not_tail is not None
        negated = bool(_NEGATION_WORDS.search(body))
        body = _CHANGE_FROM.sub(lambda m: f"{m.group(1)} to ", body)
        body = re.sub(
            r"\b(moved|relocated)\s+(?:(?:out|over|back)\s+)?(?:home\s+)?to\b",
            r"\1 to",
            body,
            flags=re.I,
        )
        aside = _ASIDE.search(body)
        if aside is not None and aside.start() > 0:
            body = body[: aside.start()]
        body = re.sub(
            r"\s+(?:instead\s+of|rather\s+than)\s+.*$|\s+(?:there|here)$", "", body, flags=re.I
        )
        body = " ".join(_ADVERBS.sub(" ", f" {body} ").split()).strip(" ,")
        if not body:
            return [], None
        found = self._read(
            body,
            episode,
            vocabulary,
            known_subjects,
            previous,
            meant is not None or (led and correction and _bare_value(body)),
            _timing(window, episode.at),
        )
        if found is None and not_tail is not None and _bare_value(body):
            # "Rox, not Rex" after "my dog is Rex": the fact the wrong value was, corrected.
            old = getattr(known_subjects, "values", {}).get(not_tail.group(1).strip().casefold())
            if old is not None:
                found = (old[0], _Fact(old[1], old[1].replace("_", " "), body, possessive=True))
        if found is None:
            return [], None
        subject, fact = found
        if fact.where_one_is and window.valid_to is not None and window.valid_to > episode.at:
            return [], None  # "I'm in Berlin until Friday": a stay, not a home
        negated = negated or fact.negated
        values = _values(
            fact.value, vocabulary.cardinality(fact.predicate), phrase=fact.predicate in _ACTIONS
        )
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
        if (
            context is not None
            and previous is not None
            and previous[0] in getattr(known_subjects, "people", ())
            and re.match(r"^(?:i|we)\b", body, re.IGNORECASE)
        ):
            # "I moved to Berlin" after "my sister lives in Porto" is the speaker's move.
            context = None
        if (
            context is not None
            and previous is not None
            and previous[1].predicate != "lives_in"
            and re.match(r"^(?:i|we)\s+(?:'ve\s+)?moved\s+to\b", body, re.IGNORECASE)
            and ("lives_in", episode.speaker) in getattr(known_subjects, "facts", ())
        ):
            # "I moved to Toronto" after "I'm in Stockholm, so Central European time": the
            # home the context gave, not its last fact.
            context = None
        if previous is not None and (context is not None or (meant and len(body.split()) <= 3)):
            subject, last = previous
            value = _clean(context.group(1) if context is not None else body.split(",")[0])
            if not value:
                return None
            return subject, _Fact(last.predicate, last.relation, value, False, last.possessive)
        fact: _Fact | None
        onto = _MOVED_ONTO.match(body)
        switched = _moved_onto(onto, known_subjects, vocabulary, timing) if onto else None
        if switched is not None:
            return switched
        if lowered.startswith(("my ", "our ", "the ")):
            fact = _possessive(body.split(" ", 1)[1], vocabulary)
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
            # "Starting at Figma on Monday": "I'm starting ..."
            said = f"am {body}" if re.match(r"^[a-z]+ing\b", body, re.IGNORECASE) else body
            fact = _verb_group(said, vocabulary, first_person=True, timing=timing)
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
                    or _verb_group(f"is {rest}", vocabulary, first_person=False, timing=timing)
                )
            else:
                fact = _verb_group(rest, vocabulary, first_person=False, timing=timing)
            return (name, fact) if fact else None
        if body[:1].isupper():
            # "Gym days are Tuesdays", "Rent is £950": a fact of the speaker's named by its noun.
            fact = _possessive(body, vocabulary)
            return (episode.speaker, fact) if fact else None
        return None


def _overlaps(value: str, number: str) -> bool:
    """Whether a value read beside a number is that number again ("4 cups of coffee a day"
    read as a drink), not another fact of the clause."""
    return value in number or number in value


def _keeps_time(timed: list[Proposal], untimed: list[Proposal], phrase: str) -> bool:
    """Whether the reading with the time phrase left out stands: read with it, the values
    are those values and the phrase ("lessons are on Wednesdays from next month": Wednesdays,
    from next month); else the time is the value ("my day off is on Monday")."""
    said = {(p.object or "").casefold() for p in timed}
    return bool(phrase) and all(
        " ".join((p.object or "").replace(phrase, " ").split()).casefold() in said for p in untimed
    )


def _without_time(sentence: str, window: when.Window) -> str:
    """The sentence without its time phrase; a comma after the phrase stays, since it may
    end the statement ("I started at Deloitte last week, still learning names")."""
    if not window.phrase:
        return sentence
    head, _, tail = sentence.partition(window.phrase)
    keep = "," if head.strip(" ,") and tail.lstrip(" ").startswith(",") else ""
    return " ".join(f"{head.rstrip(' ,')}{keep} {tail.lstrip(' ,')}".split())


def _defines(vocabulary: Vocabulary, phrase: str) -> bool:
    """Whether the phrase names a predicate of the vocabulary: a phrase it only shares ("is
    in", "is on", "is at": an event's place or day where the words say it is an event) names
    none by itself."""
    return phrase in vocabulary and vocabulary.canonical(phrase) in vocabulary.predicates


def _possessive(rest: str, vocabulary: Vocabulary) -> _Fact | None:
    """ "favorite food is sushi" (after "my" or "Bob's")."""
    match = _POSSESSIVE_VERB.match(rest)
    if match is None:
        return None
    noun = match.group(1).strip()
    at = re.match(r"^(?:at|with|for)\s+(?-i:[A-Z])", match.group(2), re.IGNORECASE) is not None
    value = _clean(re.sub(r"^(?:on|at|with|for)\s+", "", match.group(2), flags=re.IGNORECASE))
    noun = re.sub(
        r"^(?:new|current|main|primary|biggest|only|usual|all-time)\s+", "", noun, flags=re.I
    )
    noun = re.sub(r"^(?:go-to|go\s+to|favou?rite)\s+(?=[a-z])", "favorite ", noun, flags=re.I)
    noun = re.sub(r"\s+(?:to|from|with|for|in|at)\s+.*$", "", noun)
    if re.match(r"^[a-z]+ing\s+(?:to|from|up|down|back)\b", value):
        return None  # "the meeting is moving to Thursday": a change (_changed_noun)
    relation = _RELATIONS_OUTSIDE_VOCABULARY.get(noun.lower())
    if value and relation is not None and relation in vocabulary.predicates:
        return _Fact(relation, noun.lower(), value, possessive=True)
    if not _defines(vocabulary, noun) and noun.endswith("s") and _defines(vocabulary, noun[:-1]):
        noun = noun[:-1]  # "my meetings are on Tuesdays"
    place = re.match(r"^in\s+(?P<place>.+)$", match.group(2), re.IGNORECASE)
    if (
        place is not None
        and not _defines(vocabulary, noun)
        and _defines(vocabulary, f"{noun} is in")
    ):
        where = _clean(place.group("place"))  # "my office is in Leeds"
        return (
            _Fact(vocabulary.canonical(f"{noun} is in"), f"{noun} is in", where) if where else None
        )
    if not value or not _defines(vocabulary, noun) or len(noun.split()) > 4:
        return None
    predicate = vocabulary.canonical(noun)
    if predicate == "job_title" and at:
        return _Fact(_WORKS_AT, "works at", value)  # "my new job is at Canva": the employer
    if predicate in _PEOPLE and re.match(r"^(?:on|at|in|with|for)\s", match.group(2), re.I):
        return None  # "my sister is on Pacific time" names no sister
    return _Fact(predicate, noun.lower(), value, possessive=True)


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
    # "used to", "no longer", "stopped": it held and holds no more (not a dislike).
    ended = negating is not None and re.match(
        r"^(?:used|no\s+longer|stopped|(?:am|'m)\s+no\s+longer)", negating.group(0), re.I
    )
    if negating is not None:
        negated = True
        rest = rest[negating.end() :]
        if negating.group(0).lower().startswith("stopped"):
            # "stopped drinking coffee": no longer drinks it.
            rest = re.sub(r"^([a-z]+)ing\b", lambda m: _stem(m.group(1)), rest, flags=re.I)
        elif re.match(r"^(?:am|'m)\b", negating.group(0), re.I) and re.match(
            r"^(?:a|an|the)\s", rest, re.I
        ):
            rest = f"am {rest}"  # "I'm not a fan of" is "is a fan of", negated
    will_work = re.match(
        r"^(?:will|'ll|shall|am\s+going\s+to|'m\s+going\s+to)\s+be\s+working\s+(?=at|for)\b",
        rest,
        re.IGNORECASE,
    )
    if will_work is not None:
        if timing != "scheduled":
            return None  # a plan without its date
        rest = f"work {rest[will_work.end() :]}"
    if negated and (gone := re.match(r"^at\s+(?P<org>(?-i:[A-Z])[\w&.' -]*)$", rest, re.I)):
        # "I'm no longer at Stripe": that job ended (a place one is at is not said this way).
        value = _clean(gone.group("org"))
        return _Fact(_WORKS_AT, "works at", value, True) if value else None
    planned = _PLANNED.match(rest)
    if planned is not None:
        if timing != "scheduled":
            return None
        verb = planned.group("verb").lower()
        stem = next(s for s in _DONE if verb.startswith(s))
        rest = f"{_DONE[stem]}{rest[planned.end() :]}"
    rest = re.sub(r"^(?:'d|would)\s+(?:like|love)\s+to\s+", "want to ", rest, flags=re.IGNORECASE)
    rest = re.sub(
        r"^(?:started|began|begun|'ve\s+started|have\s+started)\s+(?=learning|studying)",
        "am ",
        rest,
        flags=re.IGNORECASE,
    )
    rest = re.sub(
        r"^(?:am|'m|'ve\s+been|have\s+been)\s+(living|working)\s+(in|at|for)\b",
        _base_verb,
        rest,
        flags=re.I,
    )
    rest = re.sub(r"\b(?:big|huge|massive|great)\s+(?=fan\s+of)", "", rest, flags=re.IGNORECASE)
    # Words the vocabulary knows by another name.
    rest = re.sub(r"^(am|'m|is|'s|are|'re)\s+located\s+in\b", r"\1 based in", rest, flags=re.I)
    rest = re.sub(r"^(?:adore|adores)\b", "love", rest, flags=re.IGNORECASE)
    rest = re.sub(r"^(?:am|'m|is|'s)\s+(drink|eat)ing\b", r"\1", rest, flags=re.IGNORECASE)
    rest = re.sub(
        r"^(?:(?:was|were)\s+)?born\s+and\s+(?:raised|bred)\s+in\b", "born in", rest, flags=re.I
    )
    rest = re.sub(
        r"^(?:am|'m|is|'s)\s+(?:a\s+)?(?P<place>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)\s+resident$",
        r"lives in \g<place>",
        rest,
        flags=re.I,
    )
    rest = re.sub(
        r"^(?:(?:am|'m|'ve\s+been|have\s+been)\s+loving|can't\s+get\s+enough\s+of|"
        r"(?:'ve|have)\s+(?:grown|come)\s+to\s+(?:like|love))\b",
        "love",
        rest,
        flags=re.IGNORECASE,
    )
    rest = re.sub(
        r"^(?:got|am\s+getting|'m\s+getting)\s+married\s+to\b", "married to", rest, flags=re.I
    )
    stopped = re.match(
        r"^(?:stopped|quit|gave\s+up|given\s+up)\s+(?P<verb>[a-z]+)ing\s+", rest, re.IGNORECASE
    )
    if stopped is not None and not negated:
        negated = True
        rest = f"{_stem(stopped.group('verb'))} {rest[stopped.end() :]}"
    perfect = re.match(r"^(?:'ve|have|has)\s+(?!got\b)", rest, re.IGNORECASE) is not None
    rest = re.sub(r"^(?:'ve|have|has|'d|will|'ll|do|does)\s+", "", rest, flags=re.IGNORECASE)
    # "I've been into K-pop", "we've been in Denver since March"
    rest = re.sub(r"^been\s+(?=into\b|in\s+[A-Z])", "is ", rest, flags=re.IGNORECASE)
    rest = re.sub(r"^(?:been\s+)", "", rest, flags=re.IGNORECASE)
    shaped = _shaped(rest, vocabulary, negated)
    if shaped is not None:
        return shaped
    used_as = re.match(
        r"^(?:use|uses|have|has|drive|drives|run|runs)\s+(.+?)\s+as\s+(?:my|his|her|our)\s+"
        r"(?:main\s+|daily\s+|primary\s+)?([a-z]+(?:\s[a-z]+)?)$",
        rest,
        re.IGNORECASE,
    )
    if used_as is not None and _defines(vocabulary, used_as.group(2)):
        value = _clean(used_as.group(1))
        noun = used_as.group(2).lower()
        if value:
            return _Fact(vocabulary.canonical(noun), f"uses as {noun}", value, negated)
    joined = _JOIN.match(rest)
    if joined is not None:
        value = _clean(joined.group(1))
        as_role = re.search(r"\bas\s+(?:an?|the)\s+([\w -]+)$", joined.group(1))
        if value and as_role and not negated and _is_role(as_role.group(1)):
            return _Fact(
                _WORKS_AT, "works at", value, also=("job_title", "works as", as_role.group(1))
            )
        return _Fact(_WORKS_AT, "works at", value, negated) if value else None
    left = _LEAVE.match(rest)
    if left is not None:
        value = _clean(left.group(1))
        return _Fact(_WORKS_AT, "works at", value, True) if value else None
    named = _HAVE_NAMED.match(rest)
    if named is not None and ")" in named.group(2):
        # "two cats (Salt and Pepper) and a hamster": the names in the brackets.
        named = _HAVE_NAMED.match(rest[: rest.index(")")])
    if named is not None and not negated:
        noun = named.group(1).lower()
        if re.fullmatch(_PET_KIND, noun) and "has_pet" in vocabulary.predicates:
            value = re.sub(
                r"^(?:his|her|its|their)\s+name(?:'s|\s+is)\s+",
                "",
                named.group(2).strip(),
                flags=re.I,
            ).rstrip(".!")
            return _Fact("has_pet", f"has a {noun} called", value) if value else None
        for phrase in (f"has a {noun}", noun, f"{noun}s"):
            if _defines(vocabulary, phrase):
                predicate = vocabulary.canonical(phrase)
                # A list may be longer than one value may be: _values cuts it.
                value = re.sub(
                    r"^(?:his|her|its|their)\s+name(?:'s|\s+is)\s+",
                    "",
                    named.group(2).strip(),
                    flags=re.I,
                ).rstrip(".!")
                return _Fact(predicate, f"has a {noun} called", value) if value else None
    place = _IN_PLACE.match(rest)
    if place is not None and not negated:
        return _Fact("lives_in", "lives in", place.group(1), where_one_is=True)
    role_at = _ROLE_AT.match(re.sub(r"\s+(?:on|in)\s+the\s+[^,]+?(?=\s+(?:at|for)\s)", "", rest))
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
            if not _defines(vocabulary, phrase):
                continue
            predicate = vocabulary.canonical(phrase)
            # A list is cut into values (each as long as a value may be) after this.
            longest = (
                3 * _MAX_OBJECT_WORDS if vocabulary.cardinality(predicate) == "multi" else None
            )
            value = _clean(" ".join(words[size:]), phrase=predicate in _ACTIONS, longest=longest)
            if value:
                as_role = re.search(r"\bas\s+(?:an?|the)\s+([\w -]+)$", " ".join(words[size:]))
                said = as_role.group(1) if as_role else ""
                if predicate == "works_at" and said and not negated and _is_role(said):
                    return _Fact(
                        predicate, phrase.lower(), value, also=("job_title", "works as", said)
                    )
                employer = re.match(r"^(.+?)\s+(?:at|for)\s+([A-Z][\w&.' -]*)$", value)
                if (
                    predicate == "job_title"
                    and employer
                    and _is_role(_ARTICLE.sub("", employer.group(1)))
                ):
                    return _Fact(
                        predicate,
                        phrase.lower(),
                        _ARTICLE.sub("", employer.group(1)),
                        negated,
                        also=("works_at", "works at", employer.group(2)),
                    )
                if predicate == "prefers":
                    value = re.sub(
                        r"\s+(?:to|over|rather\s+than)\s+.*$", "", value
                    )  # "tea to coffee"
                if (
                    negated
                    and not ended
                    and predicate == "likes"
                    and "dislikes" in vocabulary.predicates
                ):
                    # "I don't like mushrooms" says a dislike, not a like that ended.
                    return _Fact("dislikes", "dislikes", value)
                return _Fact(predicate, phrase.lower(), value, negated)
    return None


# Common shapes whose verb the vocabulary does not name.
_SCHOOL = re.compile(
    r"^(?:goes|go|went|is\s+off|'s\s+off|started|starts|moved)\s+(?:to|at)\s+"
    r"(?P<value>(?:[A-Z][\w.'-]*\s+){0,4}(?:School|Primary|Secondary|Academy|High|College|"
    r"University|Kindergarten|Nursery|Elementary|Gymnasium|Institute))\b"
)
_COMMUTE = re.compile(
    r"^(?P<how>cycle|bike|walk|drive|run|take\s+the\s+\w+|get\s+the\s+\w+|commute\s+by\s+\w+)"
    r"\s+(?:to|into|in\s+to)\s+(?:work|the\s+office)\b",
    re.IGNORECASE,
)
_COMMUTE_VALUE = {
    "cycle": "cycling",
    "bike": "cycling",
    "walk": "walking",
    "drive": "car",
    "run": "running",
}
_HOURS = re.compile(
    r"^(?:work|working|am\s+working|'m\s+working|am\s+on|'m\s+on|'m|am)\s+"
    r"(?:(?:night|day|early|late|evening|morning|the\s+\w+)\s+shifts?,?\s+(?:from\s+)?)?"
    r"(?P<value>\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:to|-|until|till)\s*\d{1,2}(?::\d\d)?\s*(?:am|pm)?)\b",
    re.IGNORECASE,
)
_AS_ROLE = re.compile(
    r"^(?:(?:am|'m)\s+)?(?:work|works|working|freelance|freelancing|freelances|am\s+employed|'m\s+employed|"
    r"started|start|began)\s+(?:\w+\s+)?as\s+(?:a|an)\s+(?P<value>[\w&.' -]+)$",
    re.IGNORECASE,
)
_BOUGHT_HOME = re.compile(
    r"^(?:bought|rented|rent|own|found)\s+(?:a|an|our|my)\s+(?:new\s+)?(?:house|flat|apartment|place|home)"
    r"\s+in\s+(?P<value>[A-Z][\w' -]*)$"
)
_DIET_SWITCH = re.compile(
    r"^(?:switched|changed|moved|went|gone|turned)\s+(?:to\s+)?(?:a\s+|an\s+)?"
    r"(?P<value>[\w-]+(?:\s(?!diet$)[\w-]+)?)(?:\s+diet)?$",
    re.IGNORECASE,
)


# "I'm a student at UCL", "she's a second-year student at Leeds": where one studies.
_STUDENT_AT = re.compile(
    r"^(?:am|'m|is|'s|are|'re)\s+(?:a|an)\s+(?:[\w-]+\s+)?(?:student|pupil)\s+(?:at|in)\s+"
    r"(?P<org>(?-i:[A-Z])[\w&.'-]*(?:\s+(?-i:[A-Z])[\w&.'-]*)*)(?:\s+[a-z]+ing\b.*)?$",
    re.IGNORECASE,
)
# "I have a dentist appointment on Friday at 3pm": a dated fact's date ("have" already gone).
_HAVE_ON = re.compile(
    r"^(?:got\s+)?(?:a|an|my)\s+(?P<noun>[a-z][a-z -]{2,30}?)\s+(?:on|at|for)\s+(?P<value>.+)$",
    re.IGNORECASE,
)
# "I work in Brussels": where the speaker works (a place: said with a capital).
_WORK_IN = re.compile(
    r"^(?:work|works|working|am\s+working|'m\s+working)\s+in\s+"
    r"(?P<value>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,2})(?:\s+(?:at|for|as)\b.*|,.*)?$",
    re.IGNORECASE,
)
# Fields of work, not places ("I work in Marketing").
_FIELDS = frozenset(
    "marketing sales finance hr it tech engineering design education healthcare retail legal "
    "operations support product research accounting consulting software media publishing "
    "banking insurance hospitality construction logistics admin management data security "
    "government science academia".split()
)
# "I'm flying to Tokyo on May 3": the flight's date.
_FLYING = re.compile(
    r"^(?:am\s+|'m\s+|is\s+|'s\s+|are\s+|'re\s+)?(?:flying|fly|flies)\s+(?:out\s+|back\s+|home\s+)?"
    r"(?:to\s+(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*\s+)?on\s+"
    r"(?P<date>(?-i:[A-Z])[a-z]+\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?-i:[A-Z])[a-z]+|"
    r"(?-i:[A-Z])[a-z]+day)\b(?:\s+(?:with|for|to|from)\b.*)?$",
    re.IGNORECASE,
)
# "We moved into a flat in Leeds": where the speaker lives.
_MOVED_INTO = re.compile(
    r"^(?:moved|move|moving)\s+into\s+(?:a|an|our|my|the)\s+(?:new\s+|little\s+|bigger\s+|"
    r"smaller\s+)?(?:flat|house|apartment|place|home|studio)\s+in\s+"
    r"(?P<value>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)$",
    re.IGNORECASE,
)
# "I teach maths at Greenfield High", "she teaches piano": a teacher of that subject.
_TEACH = re.compile(
    r"^(?:teach|teaches)\s+"
    r"(?!(?:my|our|his|her|their|the|them|him|me|us|you|people|kids|at|myself|himself|herself)\b)"
    r"(?P<what>[A-Za-z][\w-]*(?:\s+[a-z]+)?)(?:\s+(?:at|in)\s+(?P<org>(?-i:[A-Z])[\w&.' -]*))?$"
    r"|^(?:teach|teaches)\s+at\s+(?P<org2>(?-i:[A-Z])[\w&.' -]*)$",
    re.IGNORECASE,
)
# "got headhunted by ABB", "was hired by Acme": the new employer.
_HIRED_BY = re.compile(
    r"^(?:(?:got|was|were|been|is|'s|has\s+been)\s+)+(?:hired|headhunted|poached|recruited)\s+"
    r"by\s+(?P<org>(?-i:[A-Z])[\w&.' -]*)$",
    re.IGNORECASE,
)
# "I take the train", "I commute by bus": how one gets to work.
_TRANSPORT = re.compile(
    r"^(?:take|takes|get|gets|ride|rides|catch|catches)\s+the\s+"
    r"(?P<how>train|bus|tram|metro|subway|tube|ferry)(?:\s+(?:to|into)\s+(?:work|the\s+office))?$"
    r"|^(?:commute|commutes)\s+(?:by|on)\s+(?P<by>[\w-]+)$",
    re.IGNORECASE,
)
# "picked up Spanish", "learnt German": a language now spoken.
_PICKED_UP = re.compile(
    r"^(?:is\s+|'s\s+)?(?:picked\s+up|learned|learnt)\s+(?:some\s+|basic\s+)?"
    r"(?P<value>[A-Z][a-z]+)(?:\s+(?:while|when|since|after|before|during|from|at|in)\b.*)?$"
)
# "started a pottery class", "I'm taking Spanish lessons": what one is learning.
_CLASS = re.compile(
    r"^(?:started|began|am\s+taking|'m\s+taking|is\s+taking|'s\s+taking|took\s+up|"
    r"signed\s+up\s+for|enrolled\s+in|joined)\s+(?:a\s+|an\s+|some\s+)?(?:new\s+|weekly\s+)?"
    r"(?P<value>[\w-]+(?:\s+[\w-]+)?)\s+(?:class|classes|course|lessons)\b",
    re.IGNORECASE,
)
# "she's diabetic", "I have asthma": a health condition.
_CONDITION_ADJECTIVES = {
    "diabetic": "diabetes",
    "asthmatic": "asthma",
    "epileptic": "epilepsy",
    "coeliac": "coeliac disease",
    "celiac": "celiac disease",
    "anaemic": "anaemia",
    "anemic": "anemia",
}
_CONDITION = re.compile(
    r"^(?:(?:am|'m|is|'s|are|'re)\s+(?P<adjective>[a-z]+)"
    r"|(?:(?:have|has|got)\s+)?(?P<noun>(?:type\s+[12]\s+)?diabetes|asthma|epilepsy|migraines|"
    r"arthritis|eczema|celiac\s+disease|coeliac\s+disease|hay\s+fever|anaemia|anemia))$",
    re.IGNORECASE,
)


def _shaped(rest: str, vocabulary: Vocabulary, negated: bool) -> _Fact | None:
    """Shapes of everyday facts whose verb the vocabulary does not name: a school one goes to,
    how one gets to work, working hours, a job said with "as a", a home bought, a diet
    switched to, a subject taught, an employer that hired, a language picked up, a class
    started, a health condition."""
    known = vocabulary.predicates
    student = _STUDENT_AT.match(rest)
    if student is not None and "studied_at" in known:
        return _Fact("studied_at", "studies at", student.group("org"), negated)
    booked = _HAVE_ON.match(rest)
    if booked is not None and _defines(vocabulary, booked.group("noun")):
        predicate = vocabulary.canonical(booked.group("noun"))
        if predicate.endswith(_WHEN_VALUED) and not negated:
            return _Fact(predicate, booked.group("noun"), booked.group("value"))
    works_in = _WORK_IN.match(rest)
    if (
        works_in is not None
        and "work_location" in known
        and works_in.group("value").lower() not in _FIELDS
    ):
        return _Fact("work_location", "works in", works_in.group("value"), negated)
    flying = _FLYING.match(rest)
    if flying is not None and "flight_date" in known and not negated:
        return _Fact("flight_date", "flies on", flying.group("date"))
    moved_in = _MOVED_INTO.match(rest)
    if moved_in is not None and "lives_in" in known:
        return _Fact("lives_in", "lives in", moved_in.group("value"), negated)
    been = re.match(r"^(?P<diet>[a-z-]+(?:\s+vegan)?)(?:\s+(?:for|since)\b.*)?$", rest, re.I)
    if been is not None and been.group("diet").lower() in DIETS:
        return _Fact(_DIET_PREDICATE, "is", been.group("diet").lower(), negated)
    teach = _TEACH.match(rest)
    if teach is not None and "job_title" in known and not negated:
        org = teach.group("org") or teach.group("org2")
        title = f"{teach.group('what')} teacher" if teach.group("what") else "teacher"
        also = ("works_at", "works at", _clean(org)) if org and _clean(org) else None
        return _Fact("job_title", "works as", title, also=also)
    hired = _HIRED_BY.match(rest)
    if hired is not None and _WORKS_AT in known and not negated:
        value = _clean(hired.group("org"))
        return _Fact(_WORKS_AT, "works at", value) if value else None
    transport = _TRANSPORT.match(rest)
    if transport is not None and "commute_mode" in known:
        how = (transport.group("how") or transport.group("by")).lower()
        return _Fact("commute_mode", "commutes by", how, negated)
    picked = _PICKED_UP.match(rest)
    if (
        picked is not None
        and picked.group("value").lower() in _LANGUAGES
        and "language_spoken" in known
    ):
        return _Fact("language_spoken", "speaks", picked.group("value"), negated)
    course = _CLASS.match(rest)
    if course is not None and "is_learning" in known:
        return _Fact("is_learning", "is learning", course.group("value").lower(), negated)
    condition = _CONDITION.match(rest)
    if condition is not None and "health_condition" in known:
        adjective = (condition.group("adjective") or "").lower()
        value = _CONDITION_ADJECTIVES.get(adjective) or (condition.group("noun") or "").lower()
        if value:
            return _Fact("health_condition", "has", value, negated)
    school = _SCHOOL.match(rest)
    if school is not None and "studied_at" in known:
        return _Fact("studied_at", "goes to", school.group("value"), negated)
    commute = _COMMUTE.match(rest)
    if commute is not None and "commute_mode" in known:
        how = commute.group("how").lower()
        value = _COMMUTE_VALUE.get(how, how.split()[-1])
        return _Fact("commute_mode", "commutes by", value, negated)
    hours = _HOURS.match(rest)
    if hours is not None and "working_hours" in known:
        return _Fact("working_hours", "works", hours.group("value"), negated)
    role = _AS_ROLE.match(rest)
    if role is not None and "job_title" in known:
        value = _clean(role.group("value"))
        employer = re.match(r"^(.+?)\s+(?:at|for)\s+([A-Z][\w&.' -]*)$", value)
        if employer is not None and not negated:
            also = ("works_at", "works at", employer.group(2))
            return _Fact("job_title", "works as", employer.group(1), also=also)
        return _Fact("job_title", "works as", value, negated) if value else None
    home = _BOUGHT_HOME.match(rest)
    if home is not None and "lives_in" in known:
        value = _clean(home.group("value"))
        return _Fact("lives_in", "lives in", value) if value else None
    on_diet = re.match(
        r"^(?:am|'m|is|'s|follow|follows|do|does|eat|eats)\s+(?:on\s+)?(?:a|an|the)\s+([\w-]+)\s+diet\b",
        rest,
        re.I,
    )
    if on_diet is not None and on_diet.group(1).lower() in DIETS:
        return _Fact(_DIET_PREDICATE, "is", on_diet.group(1).lower(), negated)
    intolerant = re.match(r"^(?:am|'m|is|'s)\s+([\w-]+)\s+intolerant\b", rest, re.I)
    if intolerant is not None and "health_condition" in known:
        return _Fact(
            "health_condition", "has", f"{intolerant.group(1).lower()} intolerance", negated
        )
    diet = _DIET_SWITCH.match(rest)
    if diet is not None and diet.group("value").lower() in DIETS:
        return _Fact(_DIET_PREDICATE, "is", diet.group("value").lower(), negated)
    return None


def _base_verb(match: re.Match[str]) -> str:
    return f"{'live' if match.group(1).lower() == 'living' else 'work'} {match.group(2)}"


def _stem(gerund_stem: str) -> str:
    """ "drink" of "drinking", "smoke" of "smoking", "run" of "running"."""
    word = gerund_stem.lower()
    if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "lsz":
        return word[:-1]
    if word.endswith(("k", "v", "c", "z")) and not word.endswith(("ink", "ck", "lk", "rk", "nk")):
        return word + "e"
    return word


# "Can you reply in English?", "Could you please keep it short?": a request, read as said.
_REQUEST = re.compile(r"^\s*(?:can|could|would|will)\s+you\s+(?:please\s+)?", re.IGNORECASE)
_LANGUAGE_REQUEST = re.compile(
    r"^(?:please\s+)?(?:always\s+|only\s+)?(?:reply|answer|respond|write|talk|speak)(?:\s+to\s+me)?"
    r"\s+in\s+(?P<value>[A-Z][a-z]+)\b"
)
_STYLE_REQUEST = re.compile(
    r"^(?:please\s+)?(?:keep|make)\s+(?:your\s+|the\s+)?(?:answers|replies|responses|it|them|things)"
    r"\s+(?P<value>short|brief|concise|detailed|long|simple|formal|casual|friendly)\b",
    re.IGNORECASE,
)
_CONTACT_REQUEST = re.compile(
    r"^(?:please\s+|just\s+)?(?P<value>text|email|e-mail|call|phone|message|whatsapp|ring)\s+me"
    r"(?:\s+(?:instead|please|from\s+now\s+on|rather|only|first))*\s*[.!]?$",
    re.IGNORECASE,
)
_REACH = re.compile(
    r"^(?:the\s+)?best\s+way\s+to\s+(?:reach|contact|get\s+hold\s+of)\s+me\s+is\s+"
    r"(?:by\s+|via\s+|through\s+|over\s+)?(?P<value>[\w-]+)",
    re.IGNORECASE,
)
_FAVOURITE = re.compile(
    r"^(?P<value>[\w' -]+?)\s+is\s+(?:still\s+|now\s+|definitely\s+)?my\s+"
    r"(?:all-time\s+|absolute\s+)?(?:new\s+)?favou?rite\s+(?P<noun>[a-z]+)",
    re.IGNORECASE,
)
_PLAY = re.compile(
    r"^(?:i|we)\s+(?:also\s+|still\s+)?"
    r"(?P<negated>no\s+longer\s+|don't\s+|do\s+not\s+|never\s+|stopped\s+)?"
    r"(?P<verb>play|go|playing|going)\s+(?:the\s+)?(?P<value>[a-z]+(?:ing)?(?:\s[a-z]+)?"
    r"(?:(?:,\s*(?:and\s+)?|\s+and\s+)(?:the\s+)?[a-z]+(?:\s[a-z]+)?)*)"
    r"(?:\s+(?:on|at|in|every|with|twice|once|most)\b.*)?$",
    re.IGNORECASE,
)
# "I've taken up yoga", "I got into climbing": a new pastime.
_TAKEN_UP = re.compile(
    r"^i(?:'ve|\s+have|\s+just|\s+recently)*\s+(?:taken\s+up|took\s+up|got\s+into|"
    r"gotten\s+into)\s+(?P<value>[a-z]+(?:\s+[a-z]+)?)$",
    re.IGNORECASE,
)
# "I've stopped doing yoga": a pastime given up.
_STOPPED_DOING = re.compile(
    r"^i(?:'ve|\s+have)?\s+(?:stopped|quit)\s+doing\s+(?P<value>[a-z]+(?:\s+[a-z]+)?)$",
    re.IGNORECASE,
)
# "Allergies: peanuts and shellfish": a list headed by its fact's noun.
_HEADED_LIST = re.compile(r"^(?P<noun>[A-Za-z][a-z]+(?:\s+[a-z]+)?)\s*:\s+(?P<values>.+)$")
_ALLERGY = re.compile(r"^i\s+have\s+(?:an?\s+)?(?P<value>[\w -]+?)\s+allergy\b", re.IGNORECASE)
_PROMOTED = re.compile(
    r"^(?:i\s+)?(?:just\s+)?(?:got|was|'ve\s+been|have\s+been)\s+promoted\s+to\s+"
    r"(?P<value>[\w -]+)$",
    re.IGNORECASE,
)
_RETIRED = re.compile(
    r"^(?:i\s*)?(?:am\s+|'m\s+|'ve\s+|have\s+|just\s+|finally\s+)*retired\b", re.I
)
_CALL_ME = re.compile(r"^(?:please\s+)?call\s+me\s+(?P<value>[A-Z][\w'-]*)\s*[.!]?$")


_LIKES = re.compile(
    r"^i(?:'m|\s+am)\s+(?:really\s+|totally\s+|completely\s+|kind\s+of\s+)?(?:obsessed\s+with|"
    r"hooked\s+on|crazy\s+about|mad\s+about|addicted\s+to|in\s+love\s+with)\s+(?P<value>.+)$",
    re.IGNORECASE,
)
_STYLE_BE = re.compile(
    r"^(?:please\s+)?(?:be|keep\s+it|keep\s+things)\s+(?:more\s+|a\s+bit\s+more\s+|a\s+bit\s+)?"
    r"(?P<value>concise|brief|short|detailed|formal|casual|friendly|direct|technical|simple)\b",
    re.IGNORECASE,
)
_STYLE_WANT = re.compile(
    r"^(?:please\s+)?(?:give\s+me|i\s+want|i'd\s+like|i\s+prefer|use)\s+(?:more\s+)?"
    r"(?P<value>detail|details|detailed\s+answers|examples|bullet\s+points|short\s+answers|"
    r"shorter\s+answers|longer\s+answers)\b|^(?P<bullets>bullet\s+points)\s+please",
    re.IGNORECASE,
)
_LANGUAGES = frozenset(
    "english spanish french german italian portuguese dutch swedish norwegian danish finnish "
    "polish czech russian ukrainian greek turkish arabic hebrew hindi bengali urdu chinese "
    "mandarin cantonese japanese korean vietnamese thai indonesian malay tagalog swahili "
    "romanian hungarian catalan irish welsh".split()
)
_SWITCH_LANGUAGE = re.compile(
    r"^(?i:please\s+)?(?i:switch|change)\s+(?i:back\s+)?to\s+(?P<value>[A-Z][a-z]+)\b|"
    r"^(?i:i'd\s+rather\s+you\s+(?:wrote|replied|answered|spoke)\s+in)\s+(?P<value2>[A-Z][a-z]+)",
)
_REACH_ON = re.compile(
    r"^(?i:you\s+can\s+|please\s+|just\s+)?(?i:reach|contact|find|ping|message|text|call)\s+me\s+"
    r"(?i:on|via|through|over)\s+(?P<value>[A-Z][\w.]*|(?i:email|e-mail|text|phone))\b"
)
_UNITS_REQUEST = re.compile(
    r"^(?:please\s+)?(?:use|give\s+me|stick\s+to)\s+(?P<value>metric|imperial)\b", re.IGNORECASE
)
_GOT_JOB = re.compile(
    r"^i\s+(?:'ve\s+|have\s+|just\s+)*(?:got|landed|took|found|accepted|started)\s+a\s+(?:new\s+)?"
    r"(?:job|position|role)\s+as\s+(?:a|an)\s+(?P<role>[\w -]+?)"
    r"(?:\s+(?:at|with|for)\s+(?P<org>(?-i:[A-Z])[\w&.' -]*))?$",
    re.IGNORECASE,
)
_HIRED = re.compile(
    r"^(?:(?i:i\s+(?:'ve\s+|have\s+|just\s+)*accepted\s+(?:an|the|a)\s+(?:job\s+)?offer\s+(?:from|at))\s+"
    r"(?P<org>[A-Z][\w&.' -]*?)|(?P<org2>[A-Z][\w&.'-]*)\s+(?:just\s+)?hired\s+me)"
    r"(?:\s+as\s+(?:a|an)\s+(?P<role>[\w -]+))?$"
)
# "I'm on Pacific time", "Central European time for me": the speaker's time zone.
_TIMEZONE = re.compile(
    r"\b(?P<zone>(?:Central|Eastern|Western|Pacific|Mountain|Atlantic|Greenwich\s+Mean|"
    r"Central\s+European|Eastern\s+European|Western\s+European|Central\s+African|"
    r"Australian\s+Eastern|Indian|Japan|China|Korea)(?:\s+Standard)?\s+(?i:time))"
    r"|\b(?i:on|in|use)\s+(?P<abbr>(?:CET|CEST|EET|WET|EST|EDT|PST|PDT|CST|MST|GMT|UTC|BST|IST|JST|"
    r"AEST|AEDT)(?:[+-]\d{1,2}(?::?\d\d)?)?)(?![\w+-])"
)
# "My place in Osaka is tiny": where the speaker lives.
_MY_HOME_IN = re.compile(
    r"^(?:(?:my|our)\s+(?:new\s+|little\s+|tiny\s+|small\s+)?|new\s+)(?:place|flat|apartment|house|home)\s+"
    r"(?:is\s+)?in\s+(?P<value>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)",
    re.IGNORECASE,
)
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_DAYS = rf"{_DAY}(?:(?:,\s*|\s+and\s+){_DAY})*"
# "Wednesdays are my day off", "I have Fridays off", "I'm off Mondays": the day off.
_DAY_OFF = re.compile(
    rf"^(?P<value>{_DAYS})\s+(?:is|are)\s+(?:now\s+)?my\s+days?\s+off(?:\s+now)?$"
    rf"|^i\s+(?:have|get)\s+(?P<value2>{_DAYS})\s+off(?:\s+now)?$"
    rf"|^i(?:'m|\s+am)\s+off\s+(?:on\s+)?(?P<value3>{_DAYS})(?:\s+now)?$",
    re.IGNORECASE,
)
# "Hello from sunny Lisbon, where I live now": a greeting from home.
_GREETINGS_FROM_HOME = re.compile(
    r"^(?:greetings|hello|hi|hey|writing)\s+from\s+(?:(?:rainy|sunny|snowy|cold|hot|grey|gray|lovely)\s+)?"
    r"(?P<value>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)\s*,?\s+where\s+(?:i|we)(?:'ve|\s+have)?\s+"
    r"(?:live|lived|been\s+living)\b",
    re.IGNORECASE,
)
# "Last day at Globex was Friday", "today was my last day at Acme": that job ended.
_LAST_DAY = re.compile(
    r"^(?:(?:today|yesterday|friday|monday|it)\s+was\s+)?(?:my\s+)?(?:final|last)\s+day\s+"
    r"(?:at|with)\s+(?P<org>(?-i:[A-Z])[\w&.'-]*(?:\s+(?-i:[A-Z&])[\w&.'-]*)*)"
    r"(?:\s+(?:was|is\s+over|is\s+done)\b.*)?$",
    re.IGNORECASE,
)
# "this is for my job at Klarna": the speaker's employer.
_MY_JOB_AT = re.compile(
    r"(?:\bmy\s+|^(?=new\s))(?:new\s+|current\s+|day\s+|full-time\s+)?job\s+(?:at|with)\s+"
    r"(?P<org>(?-i:[A-Z])[\w&.'-]*(?:\s+(?-i:[A-Z&])[\w&.'-]*)*)",
    re.IGNORECASE,
)
_HOME = re.compile(
    r"^(?:i(?:'ve|\s+have)?\s+(?:just\s+)?settled\s+in|home\s+is|i\s+call)\s+"
    r"(?P<value>(?-i:[A-Z])[\w' -]*?)(?:\s+home)?$"
    r"|^(?P<value2>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)(?:\s+is|'s)\s+(?:(?:my\s+)?home|"
    r"where\s+(?:i|we)\s+live)(?:\s+now)?$",
    re.IGNORECASE,
)
# "Backend engineer at Stripe, starting in two weeks": a role and its employer, said alone.
_ROLE_ALONE = re.compile(
    r"^(?:(?:a|an)\s+)?(?P<role>(?-i:[A-Z])[\w-]*(?:\s+[\w-]+){0,2}?)\s+(?:at|with)\s+"
    r"(?P<org>(?-i:[A-Z])[\w&.'-]*(?:\s+(?-i:[A-Z&])[\w&.'-]*)*)(?:\s+now)?(?:,.*)?$",
    re.IGNORECASE,
)


def _everyday(clause: str, speaker: str, vocabulary: Vocabulary) -> list[Proposal]:
    """What people tell an assistant about themselves without a vocabulary verb: how to
    reply, how to reach them, a favourite, what they play, an allergy, a promotion."""
    body = re.sub(r"\s*[.!;:]+$", "", _LEAD.sub("", clause.strip()))
    body = re.sub(r"^(?:from\s+now\s+on|now|please)[, ]+", "", body, flags=re.IGNORECASE)
    known = vocabulary.predicates

    def one(predicate: str, value: str) -> list[Proposal]:
        value = _clean(" ".join(_ADVERBS.sub(" ", f" {value} ").split()))
        return (
            [_proposal(speaker, predicate, value, clause)] if value and predicate in known else []
        )

    if match := _LIKES.match(body):
        return one("likes", match.group("value"))
    if match := _STYLE_BE.match(body):
        return one("communication_style", match.group("value").lower())
    if match := _STYLE_WANT.match(body):
        value = (match.group("value") or match.group("bullets")).lower()
        return one("communication_style", "detailed" if value.startswith("detail") else value)
    if (match := _SWITCH_LANGUAGE.match(body)) and (
        language := match.group("value") or match.group("value2")
    ).lower() in _LANGUAGES:
        return one("response_language", language)
    if match := _REACH_ON.match(body):
        return one("contact_preference", match.group("value"))
    if match := _UNITS_REQUEST.match(body):
        return one("preferred_units", match.group("value").lower())
    if match := _GOT_JOB.match(body):
        found = one("job_title", match.group("role"))
        return found + (one(_WORKS_AT, match.group("org")) if match.group("org") else [])
    if match := _HIRED.match(body):
        return one(_WORKS_AT, match.group("org") or match.group("org2")) + (
            one("job_title", match.group("role")) if match.group("role") else []
        )
    if match := _TIMEZONE.search(body):
        if re.match(
            r"^(?:i\b|i'm\b|we\b|[A-Z][a-z]+\s+[A-Z]?[a-z]*\s*time\b|on\b|so\b)", body, re.I
        ):
            value = match.group("zone") or match.group("abbr")
            return one("timezone", " ".join(value.split()))
    if match := _DAY_OFF.match(body):
        return one(
            "day_off", match.group("value") or match.group("value2") or match.group("value3")
        )
    if match := _HOME.match(body):
        return one("lives_in", match.group("value") or match.group("value2"))
    if (match := _ROLE_ALONE.match(body)) and _is_role(match.group("role")):
        role = " ".join(w if w.isupper() else w.lower() for w in match.group("role").split())
        return one("job_title", role) + one(_WORKS_AT, match.group("org"))
    if match := _MY_HOME_IN.match(body) or _GREETINGS_FROM_HOME.match(body):
        return one("lives_in", match.group("value"))
    if match := _LAST_DAY.match(body):
        value = _clean(match.group("org"))
        return [_proposal(speaker, _WORKS_AT, value, clause, negated=True)] if value else []
    if match := _MY_JOB_AT.search(body):
        return one(_WORKS_AT, match.group("org"))
    if match := _LANGUAGE_REQUEST.match(body):
        return one("response_language", match.group("value"))
    if match := _STYLE_REQUEST.match(body):
        return one("communication_style", match.group("value").lower())
    if match := _CONTACT_REQUEST.match(body):
        return one("contact_preference", match.group("value").lower())
    if match := _REACH.match(body):
        return one("contact_preference", match.group("value"))
    if match := _CALL_ME.match(body):
        return one("nickname", match.group("value"))
    if match := _FAVOURITE.match(body):
        noun = f"favorite {match.group('noun').lower()}"
        if _defines(vocabulary, noun):
            return one(vocabulary.canonical(noun), match.group("value"))
    if (match := _PLAY.match(body)) and (
        match.group("verb").lower().startswith("play")
        or match.group("value").lower().endswith("ing")
    ):
        stopped = match.group("verb").lower().endswith("ing")
        if stopped != (match.group("negated") or "").lower().startswith("stopped"):
            return []  # "I'm playing" is not said this way; "I stopped play" neither
        found = [
            p
            for value in re.split(r",\s*(?:and\s+)?|\s+and\s+", match.group("value"))
            for p in one("has_hobby", re.sub(r"^the\s+", "", value, flags=re.I))
        ]
        if match.group("negated"):
            found = [
                _proposal(speaker, "has_hobby", p.object or "", clause, negated=True) for p in found
            ]
        return found
    if match := _TAKEN_UP.match(body):
        return one("has_hobby", match.group("value"))
    if match := _STOPPED_DOING.match(body):
        value = _clean(match.group("value"))
        return [_proposal(speaker, "has_hobby", value, clause, negated=True)] if value else []
    if (match := _HEADED_LIST.match(body)) and _defines(vocabulary, match.group("noun")):
        predicate = vocabulary.canonical(match.group("noun"))
        if vocabulary.cardinality(predicate) == "multi" and predicate not in _PEOPLE:
            return [
                p
                for value in _values(match.group("values"), "multi")
                for p in one(predicate, value)
                if not re.match(r"^(?:a|an|one|two|three|four|five|\d+)\s", value, re.I)
            ]
    if match := _ALLERGY.match(body):
        return one("has_allergy", match.group("value"))
    if match := _PROMOTED.match(body):
        return one("job_title", match.group("value"))
    if _RETIRED.match(body) and re.match(r"^(?:i\b|retired)", body, re.IGNORECASE):
        employer = re.search(r"\bretired\s+from\s+(?P<org>(?-i:[A-Z])[\w&.' -]*)$", body, re.I)
        ended = _clean(employer.group("org")) if employer else ""
        return one("job_title", "retired") + (
            [_proposal(speaker, _WORKS_AT, ended, clause, negated=True)] if ended else []
        )
    return []


def _is_role(phrase: str) -> bool:
    """Whether "a <phrase>" names a job: a few words whose last one names a person's work."""
    words = phrase.split()
    if not words or len(words) > 3 or not words[-1].isalpha():
        return False
    if any(w.lower() in ("at", "for", "with", "in", "of") for w in words):
        return False
    if words[-1].isupper() and 2 <= len(words[-1]) <= 4:
        return True  # "an SRE", "a senior PM"
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


def _clean(value: str, *, phrase: bool = False, longest: int | None = None) -> str:
    """A value as said, without an article, quotes or trailing punctuation; empty when it is
    too long to be one value (a clause, not a name). A ``phrase`` (a goal: "save for a baby")
    keeps what follows "for" and "with"."""
    value = value.strip().strip("\"'“”‘’").rstrip(".!?,;:").strip()
    # An aside at the end ("Ghent btw") or in brackets ("Ava (7)") is not the value.
    value = re.sub(r"\s*\([^)]*\)", "", value)
    value = re.sub(
        r"(?:,?\s+(?:btw|by\s+the\s+way|lol|haha|fyi|tbh|lmao|sorry|my\s+bad|oops|[:;]-?[)(DP]))+$"
        r"|\s+(?:is|was)\s+(?:right|correct)$",
        "",
        value,
        flags=re.I,
    ).rstrip(".!?,;:")
    value = re.sub(r"^(?:named|called)\s+", "", value, flags=re.IGNORECASE)
    # "a startup called Nimbus", "a dog named Biscuit": the name.
    value = re.sub(
        r"^(?:a|an|the|this|my|our)\s+(?:[a-z-]+\s+){1,3}(?:called|named)\s+(?=[A-Z])", "", value
    )
    value = re.sub(
        r"^(?:a\s+)?(?:bit|little)\s+of\s+|^(?:some|basic|fluent|conversational)\s+(?:in\s+)?(?=[A-Z])",
        "",
        value,
        flags=re.IGNORECASE,
    )
    value = _DWELLING.sub("", value)
    value = _APPROXIMATELY.sub("", (_CLAUSE_WORDS if phrase else _SUBORDINATE).sub("", value))
    value = value.strip()
    if not value or len(_ARTICLE.sub("", value).split()) > (longest or _MAX_OBJECT_WORDS):
        return ""
    if _ARTICLE.sub("", value).lower() in (
        "nothing",
        "none",
        "anything",
        "everything",
        "something",
        "us",
        "me",
        "him",
        "you",
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


def _values(value: str, cardinality: str, *, phrase: bool = False) -> list[str]:
    """A multi-valued fact may be given as a list ("French and Spanish")."""
    if cardinality != "multi":
        return [value]
    parts = [
        _clean(
            re.sub(
                r"^(?:to|in|at|on|of)\s+|^(?:an?\s+)?[a-z]+\s+(?:called|named)\s+",
                "",
                p,
                flags=re.IGNORECASE,
            ),
            phrase=phrase,
        )
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


# -- clauses, people, numbers, changes and removals (issue #59) --------------------------------

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
    r"\b(?i:my)\s+(?i:(?:best|older|younger|little|big|baby|eldest|oldest|youngest|twin|new)\s+)?"
    r"(?P<rel>(?i:team\s+lead|best\s+friend|co-author|co-worker|coworker|girlfriend|boyfriend|"
    r"husband|wife|partner|sister|brother|sibling|mum|mom|mother|dad|father|son|daughter|"
    r"friend|boss|manager|lead|colleague|cousin|flatmate|roommate|neighbour|neighbor))"
    r"\s*,?\s+(?P<name>[A-Z][\w'-]+)(?P<comma>\s*,)?"
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
    r"any\s+more|don't\s+have|doesn't\s+have|left|not)\b",
    re.IGNORECASE,
)
_DIED = re.compile(r"\b(?:passed\s+away|died|passed)\b", re.IGNORECASE)
_SAYS_ENDED = re.compile(
    r"\b(?:no\s+more|no\s+longer|anymore|any\s+more|quit|gave\s+up|dropped|stopped)\b",
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

    def known(self) -> Sequence[str]:
        names = _Names(self.local, self._known, self.people)
        names.facts = {(p, s) for s, p, negated, _ in self.context_values.values() if not negated}
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
    for match in list(_INTRODUCED.finditer(clause)):
        name = match.group("name")
        if name.lower() in _NOT_NAMES:
            continue
        relation = " ".join(match.group("rel").lower().split())
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


def _proposal(
    subject: str, predicate: str, value: str, source: str, *, negated: bool = False
) -> Proposal:
    return Proposal(
        subject=subject,
        predicate=predicate,
        object=value,
        sentence=sentence_of(subject, predicate, value, negated=negated),
        source=source,
        negated=negated,
    )


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
        noun = match.group("noun").strip()
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
