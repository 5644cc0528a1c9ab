"""Everyday facts whose verb the vocabulary does not name (a school one goes to, how one gets to
work, a job said with "as a", a diet switched to, a subject taught ...): a pattern each, with the
fact it states."""

from __future__ import annotations

import re

from belief_graph.vocabulary import Vocabulary

from .common import _DIET_PREDICATE, _WHEN_VALUED, _WORKS_AT, DIETS, _clean, _defines, _Fact
from .everyday import _LANGUAGES
from .homes_and_work import _home_or_work

# Common shapes whose verb the vocabulary does not name.
_SCHOOL = re.compile(
    r"^(?:goes|go|went|is\s+off|'s\s+off|started|starts|moved)\s+(?:to|at)\s+"
    r"(?P<value>(?:[A-Z][\w.'-]*\s+){0,4}(?:School|Primary|Secondary|Academy|High|College|"
    r"University|Kindergarten|Nursery|Elementary|Gymnasium|Institute))\b"
)


_COMMUTE = re.compile(
    r"^(?:am\s+|'m\s+)?(?P<how>cycle|bike|walk|drive|run|cycling|biking|walking|driving|running|"
    r"take\s+the\s+\w+|get\s+the\s+\w+|commute\s+by\s+\w+)"
    r"\s+(?:to|into|in\s+to)\s+(?:work|the\s+office)\b",
    re.IGNORECASE,
)


_COMMUTE_VALUE = {
    "cycle": "cycling",
    "bike": "cycling",
    "biking": "cycling",
    "walk": "walking",
    "drive": "car",
    "driving": "car",
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
    if "lives_in" in known and _WORKS_AT in known:
        placed = _home_or_work(rest, negated)
        if placed is not None:
            return placed
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
