"""What the readers of the offline extractor share: the fact a clause states (``_Fact``), the
word lists and patterns several of them match, and the small steps they all take (a value
cleaned, a time phrase left out, a proposal made)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from belief_graph.vocabulary import Vocabulary

from .. import when
from ..episode import Proposal
from ..phrasing import sentence_of

Timing = Literal["scheduled", "ended"] | None


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
    r"scratch that|autocorrect|turns out|it turns out|guess what|fun fact|big news|in other news|"
    r"long story short|plot twist|for context|quick note|side note|funnily enough|"
    r"believe it or not|as it happens|anyhow|alright|all right|so yeah|lol|haha)"
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


# "Jazz has grown on me", "olives kind of grew on me": the speaker likes it now (a thing named,
# not a pronoun: what "it" is, is in a sentence before).
_GROWN_ON_ME = re.compile(
    r"^(?P<liked>(?!(?:it|that|this|he|she|they|you|which|what|my|our|his|her|their|your)\b)[^,;]{2,40}?)\s+"
    r"(?:has\s+|'s\s+)?(?:really\s+|kind\s+of\s+|sort\s+of\s+|slowly\s+)?"
    r"(?:grown|grew)\s+on\s+me\b",
    re.IGNORECASE,
)

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
    r"around|roughly|maybe|mostly|no\s+more|no\s+longer|\d+|(?-i:[a-z]+ing)\s+(?:it|this|that|the|every|my|our|so))\b)",
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
    r"^(?:(?:got|have|has|adopted|own)\s+)?(?:a|an|one|two|three|four|five|\d+|another)\s+"
    r"(?:new\s+|second\s+|third\s+|fourth\s+|little\s+)?"
    r"([a-z]+?)(?:s)?(?:\s+(?:on|in|at)\s+[^:,]+)?(?::\s*|,\s*|\s+\(|\s+(?:named|called)\s+)(.+)$",
    re.IGNORECASE,
)


# Sentences without a subject in chat are the speaker's: "Moved to Porto", "Left Acme".
_SUBJECTLESS = re.compile(
    r"^(?:moved|relocated|transferred|started|joined|left|quit|switched|retired|got|took|"
    r"began|been|starting|joining|moving|relocating|born|bought|sold|found|made|became|went|"
    r"landed|signed|settled|adopted|accepted|picked|gave|living|working|studying|learning|teaching|training|cycling|walking|driving|biking|(?-i:[A-Za-z][a-z]{2,}ed))\b",
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


_UNREAD_FIRST_PERSON = frozenset({"uses", "switched to", "hosting", "is hosting", "hosts"})


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


def _without_time(sentence: str, window: when.Window) -> str:
    """The sentence without its time phrase; a comma after the phrase stays, since it may
    end the statement ("I started at Deloitte last week, still learning names")."""
    if not window.phrase:
        return sentence
    head, _, tail = sentence.partition(window.phrase)
    # "Starting in May my day off moves": the word that led into the time goes with it.
    head = re.sub(
        r"(?:^|\s)(?:starting|beginning|effective|from|as\s+of)\s*$", "", head, flags=re.I
    )
    keep = "," if head.strip(" ,") and tail.lstrip(" ").startswith(",") else ""
    return " ".join(f"{head.rstrip(' ,')}{keep} {tail.lstrip(' ,')}".split())


def _defines(vocabulary: Vocabulary, phrase: str) -> bool:
    """Whether the phrase names a predicate of the vocabulary: a phrase it only shares ("is
    in", "is on", "is at": an event's place or day where the words say it is an event) names
    none by itself."""
    return phrase in vocabulary and vocabulary.canonical(phrase) in vocabulary.predicates


# Words before a noun that say the fact no longer holds, or does not hold yet.
_NOT_NOW = frozenset("old former ex previous last future next".split())


def _head_noun(noun: str, vocabulary: Vocabulary) -> str:
    """The noun as the vocabulary knows it: the whole phrase, or the head it ends with when only
    that names a fact ("my piano lessons": lessons, "the weekly team meeting": team meeting);
    a fact that no longer holds ("my old manager") keeps the whole, which names none."""
    words = noun.split()
    if (
        _defines(vocabulary, noun)
        or any(w.lower() in _NOT_NOW for w in words)
        or re.search(r"['’]s?\b", noun)  # "my sister's boyfriend" is not the speaker's
        or words[0].lower() in ("his", "her", "their", "its", "your")
    ):
        return noun
    for start in range(1, len(words)):
        head = " ".join(words[start:])
        if _defines(vocabulary, head):
            return head
    return noun


# Words after a value that say how or how often, not what ("fluently", "every day" is cut by
# _SUBORDINATE); "-ly" words that are nouns or names stay.
_MANNER_AT_END = re.compile(
    r",?\s+(?!(?:family|belly|jelly|ally|rally|lily|holy|ugly|july|italy|sicily|reply|supply|"
    r"assembly|monopoly|anomaly|bully|fly|butterfly|melancholy|only|early|daily|weekly|monthly|"
    r"yearly|friendly|lovely|likely|elderly|silly|curly|woolly|hilly|chilly)\b)"
    r"(?-i:[a-z]+ly)$|,?\s+(?:again|so\s+far|for\s+good|for\s+now|these\s+days|at\s+the\s+moment)$",
    re.IGNORECASE,
)


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
    # "no allergies except penicillin": what is excepted is the value.
    value = re.sub(r"^(?:except(?:\s+for)?|apart\s+from|other\s+than|besides)\s+", "", value)
    # "Portuguese fluently", "Rust again": how or how often, not the value.
    while (manner := _MANNER_AT_END.search(value)) is not None and manner.start() > 0:
        value = value[: manner.start()]
    value = _APPROXIMATELY.sub("", (_CLAUSE_WORDS if phrase else _SUBORDINATE).sub("", value))
    value = value.strip()
    if not value or len(_ARTICLE.sub("", value).split()) > (longest or _MAX_OBJECT_WORDS):
        return ""
    if re.match(r"^(?:this|that|these|those|a\s+lot|lots)\b", value):
        return ""  # "this song", "a lot at this job": what is at hand, not a value
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
