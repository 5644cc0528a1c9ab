"""A clause read by its verb group ("I live in Lisbon", "Bob works at Acme", "I'm moving to
Berlin next month") or as a possessive ("my manager is Dana"), with its time and polarity."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from belief_graph.vocabulary import Vocabulary

from .. import when
from ..episode import Proposal
from .common import (
    _ACTIONS,
    _ARTICLE,
    _COPULA,
    _DIET_PREDICATE,
    _DONE,
    _HAVE_NAMED,
    _IN_PLACE,
    _JOIN,
    _LEAVE,
    _MAX_OBJECT_WORDS,
    _NEGATING,
    _PEOPLE,
    _PLANNED,
    _POSSESSIVE_VERB,
    _ROLE,
    _ROLE_AT,
    _UNREAD,
    _UNREAD_FIRST_PERSON,
    _WORKS_AT,
    DIETS,
    Timing,
    _clean,
    _defines,
    _Fact,
    _head_noun,
)
from .everyday import _is_role, _variants
from .shapes import _base_verb, _shaped, _stem
from .turns import _PET_KIND, _RELATIONS_OUTSIDE_VOCABULARY


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
    noun = _head_noun(noun, vocabulary)
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
    ended = negating is not None and bool(
        re.match(r"^(?:used|no\s+longer|stopped|(?:am|'m)\s+no\s+longer)", negating.group(0), re.I)
    )
    if negating is not None:
        negated = True
        rest = rest[negating.end() :]
        if negating.group(0).lower().startswith("stopped"):
            # "stopped drinking coffee": no longer drinks it.
            rest = re.sub(r"^([a-z]+)ing\b", lambda m: _stem(m.group(1)), rest, flags=re.I)
        elif re.match(r"^(?:am|'m)\b", negating.group(0), re.I) and not re.match(
            r"^at\s", rest, re.I
        ):
            # "I'm not a fan of" is "is a fan of", negated; "not into techno": "is into".
            rest = f"am {rest}"
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
    # "I'm really enjoying yoga", "I've started liking olives", "fallen in love with": a
    # stance said as it grows is the stance.
    rest = re.sub(
        r"^(?:(?:am|'m|'ve\s+been|have\s+been)\s+|(?:'ve\s+|have\s+)?(?:started|begun|began)\s+)"
        r"(?:really\s+)?(enjoy|lik|lov)(?:e)?ing\b",
        lambda m: {"enjoy": "enjoy", "lik": "like", "lov": "love"}[m.group(1).lower()],
        rest,
        flags=re.IGNORECASE,
    )
    rest = re.sub(
        r"^(?:'ve\s+|have\s+)?(?:fallen|fell)\s+in\s+love\s+with\b", "love", rest, flags=re.I
    )
    rest = re.sub(
        r"^(?:'ve\s+|have\s+)?(?:come|came)\s+(?:a)?round\s+to\b", "like", rest, flags=re.I
    )
    # "I've gone off sushi", "I'm so over reality TV": a like that ended (not a dislike).
    gone_off = re.match(
        r"^(?:(?:'ve|have)\s+)?(?:(?:really|completely|totally|kind\s+of|a\s+bit)\s+)?"
        r"(?:gone|went)\s+(?:right\s+|completely\s+|totally\s+)?off\s+"
        r"(?!(?:on|to|at|with|about|for|into|the\s+idea)\b)(?=\w)|"
        r"^(?:am|'m)\s+(?:so|totally|completely|really|well)\s+over\s+(?!the\s+moon\b|\d)",
        rest,
        re.IGNORECASE,
    )
    if gone_off is not None and not negated:
        negated, ended = True, True
        rest = f"like {rest[gone_off.end() :]}"
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
    # "a nurse on nights", "a teacher in Leeds": the role, without where or when.
    role = re.sub(r"\s+(?:on|in)\s+.*$", "", a_role.group(1)) if a_role is not None else ""
    if a_role is not None and _is_role(role):
        value = _clean(role)
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
