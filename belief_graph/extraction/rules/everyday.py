"""Everyday phrasings and requests to the assistant ("reply in German", "call me Sam", "my
favourite ... is ..."), and the forms of a value and its sentence."""

from __future__ import annotations

import re
from dataclasses import replace

from belief_graph.vocabulary import Vocabulary

from ..episode import Proposal
from .common import (
    _ADVERBS,
    _ARTICLE,
    _LEAD,
    _NOT_ROLES,
    _PEOPLE,
    _ROLE_HEAD,
    _WORKS_AT,
    DIETS,
    _clean,
    _defines,
    _Fact,
    _proposal,
)

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


# Before "my job at ...": it ended, or the words say nothing of holding it.
_JOB_ENDED = re.compile(
    r"\b(?:lost|quit|left|leaving|quitting|leave|resigned\s+from|was\s+fired\s+from|"
    r"gave\s+up|ended)\b",
    re.IGNORECASE,
)
_JOB_UNHELD = re.compile(r"\b(?:applying|applied|interview|interviewing|offered|want|need)\b", re.I)


_HOME = re.compile(
    r"^(?:i(?:'ve|\s+have)?\s+(?:just\s+)?settled\s+in|"
    r"home\s+(?:(?:these\s+days|now|nowadays)\s+)?is|i\s+call)\s+"
    r"(?P<value>(?-i:[A-Z])[\w' -]*?)(?:\s+home)?(?:\s+now)?$"
    r"|^(?P<value2>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)*)(?:\s+is|'s|\s+has\s+been)\s+"
    r"(?:(?:my\s+|our\s+)?home|where\s+(?:i|we)\s+live)(?:\s+now)?(?:\s+(?:for|since)\b.*)?$",
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
        if _JOB_ENDED.search(body[: match.start()]):
            # "Lost my job at Boots", "I quit my job at Aldi": that job ended.
            value = _clean(match.group("org"))
            return [_proposal(speaker, _WORKS_AT, value, clause, negated=True)] if value else []
        if _JOB_UNHELD.search(body[: match.start()]):
            return []  # "I hate my job at Aldi" says it holds; "applying for" does not
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


def _role_and_employer(fact: _Fact) -> _Fact:
    """A role read with its employer in the value ("New job: product manager at Miro") is two
    facts, whichever shape read it: the role, and works_at the employer."""
    if fact.predicate != "job_title" or fact.also is not None or fact.negated:
        return fact
    at = re.match(
        r"^(?:an?\s+|the\s+)?(.+?)\s+(?:at|for|with)\s+((?-i:[A-Z])[\w&.'’ -]*)$", fact.value
    )
    if at is None or not _is_role(at.group(1)):
        return fact
    return replace(fact, value=at.group(1), also=("works_at", "works at", at.group(2).strip()))


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


def _values(value: str, cardinality: str, *, phrase: bool = False) -> list[str]:
    """A multi-valued fact may be given as a list ("French and Spanish")."""
    if cardinality != "multi":
        return [value]
    # "tomatoes and chillies on the balcony": where, said once for the whole list.
    value = re.sub(
        r"\s+(?:(?:on|in|at)\s+(?:the|my|our)\s+[a-z]+|at\s+(?:work|home|school|uni)|"
        r"on\s+weekends)$",
        "",
        value,
    )
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
