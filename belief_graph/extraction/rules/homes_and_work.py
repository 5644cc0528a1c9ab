"""Where one lives and works, said without a verb the vocabulary knows: read by what the words
around the name are (a job noun, an organisation's name, a home noun), not by the verb, so that
any verb before them reads ("landed a job at Stripe", "accepted an offer from Zalando", "I'm at
Brightwater Industries", "we call Montreal home")."""

from __future__ import annotations

import re

from .common import _WORKS_AT, _clean, _Fact

# A capitalized name of up to five words, "&" and "'s" inside ("Ortega & Sons").
_NAME = r"(?-i:[A-Z])[\w&.'’-]*(?:\s+(?:&\s+|of\s+|and\s+|de\s+|von\s+)?(?-i:[A-Z])[\w&.'’-]*){0,4}"


# "a new job at Stripe", "started a position with Deloitte", "accepted an offer from Zalando":
# a job noun before the employer says the place is one, whatever the verb.
_JOB_AT = re.compile(
    r"^(?:(?:[a-z']+\s+){0,3}?)(?:a|an|the|my|our)\s+(?:new\s+|full[- ]time\s+|part[- ]time\s+|"
    r"permanent\s+|temporary\s+)*(?:job|position|role|post|gig|contract|internship|placement|"
    r"(?:job\s+)?offer)\s+(?:at|with|from|in)\s+(?P<org>" + _NAME + r")$",
    re.IGNORECASE,
)


# "got the Spotify job", "a Spotify employee", "my first day at Spotify": the employer named
# with the job, whatever the verb.
_ORG_JOB = re.compile(
    r"^(?:(?:[a-z']+\s+){0,3}?)(?:a|an|the|my)\s+(?:new\s+)?(?P<org>" + _NAME + r")\s+"
    r"(?:job|role|position|gig|offer|internship|employee|contract)$"
    r"|^(?:(?:[a-z']+\s+){0,3}?)(?:my\s+)?first\s+(?:day|week|shift)\s+(?:at|with)\s+"
    r"(?P<first>" + _NAME + r")$",
    re.IGNORECASE,
)


# Verbs before a job noun that do not say one has the job: a search, an interview, a refusal.
_NOT_HELD = re.compile(
    r"^(?:(?:am|'m|is|'s|are|'re)\s+)?(?:applied|apply|applying|interview|interviewed|interviewing|turned|turn|declined|decline|"
    r"rejected|reject|want|wants|wanted|need|needs|looking|look|hoping|hope|considering|consider|"
    r"thinking|think|might|may|could|would|'d|lost|left|quit|had|was|were|'ve\s+applied)\b",
    re.IGNORECASE,
)


# "looking for a job at", "applied for a position with": a job sought, not held.
_LOOKING_FOR = re.compile(r"\bfor\s+(?:a|an|the)\s+(?:new\s+)?(?:job|position|role|post)\b", re.I)


# The last word of an organisation's name that says it is one ("Brightwater Industries").
_ORGANISATION = (
    r"(?:Industries|Inc|Ltd|LLC|GmbH|AG|SA|plc|Labs|Group|Bank|Corp|Corporation|Company|Co|"
    r"Technologies|Systems|Solutions|Consulting|Partners|Agency|Studios?|Hospital|University|"
    r"College|School|Academy|Institute|Clinic|Bakery|Foundation|Ventures|Capital|Media|Press|"
    r"Health|Insurance|Logistics|Software|Analytics|Associates)"
)


# "I'm at Brightwater Industries", "I've been at Northwind Labs for six years", "I'll be at
# Initech": being at an organisation is working there.
_AT_ORGANISATION = re.compile(
    r"^(?:(?:am|'m|is|'s|are|'re|be|been|'ll\s+be|will\s+be|was|were)\s+)?(?:still\s+)?at\s+"
    r"(?:the\s+)?"
    r"(?P<org>(?:(?-i:[A-Z])[\w&.'’-]*\s+(?:&\s+)?){0,4}" + _ORGANISATION + r")\.?"
    r"(?:\s+(?:for|since)\b.*)?$",
    re.IGNORECASE,
)


# "we call Montreal home", "I'm based out of Nairobi", "settled in Hamburg", "made Lisbon our
# home": a home said with a verb the vocabulary lacks, the place capitalized.
_HOME = re.compile(
    r"^(?:call|calls)\s+(?P<called>" + _NAME + r")\s+home$"
    r"|^(?:made|make|makes)\s+(?P<made>" + _NAME + r")\s+(?:my|our|his|her|their)\s+home$"
    r"|^(?:am|'m|is|'s|are|'re)\s+based\s+out\s+of\s+(?P<based>" + _NAME + r")$"
    r"|^(?:am|'m|is|'s|are|'re)\s+(?P<hyphen>" + _NAME + r")-based$"
    r"|^(?:got|have|'ve\s+got|picked\s+up)\s+the\s+keys\s+to\s+(?:a|an|our|my|the)\s+"
    r"(?:new\s+)?(?:house|flat|apartment|place|home)\s+in\s+(?P<keys>" + _NAME + r")$"
    r"|^(?:signed|'ve\s+signed|have\s+signed)\s+a\s+(?:new\s+)?lease\s+in\s+(?P<lease>"
    + _NAME
    + r")$"
    r"|^(?:am|'m|are|'re)\s+renting\s+(?:a\s+(?:house|flat|place|room)\s+)?in\s+(?P<renting>"
    + _NAME
    + r")$"
    r"|^(?:am|'m|are|'re)\s+in\s+(?P<for_good>" + _NAME + r")\s+(?:for\s+good|permanently)$"
    r"|^(?:settled|'ve\s+settled|have\s+settled|am\s+settled|'m\s+settled|are\s+settled)\s+"
    r"(?:down\s+)?in\s+(?P<settled>" + _NAME + r")"
    r"(?:\s+(?:after|since|with|when|because)\b.*|,.*)?$",
    re.IGNORECASE,
)


# "I work in HR at Siemens", "she works on payments for Klarna": the employer after the field.
_FIELD_AT = re.compile(
    r"^(?:work|works|working|am\s+working|'m\s+working)\s+(?:in|on)\s+[\w&/ -]{1,30}?\s+"
    r"(?:at|for)\s+(?P<org>" + _NAME + r")$",
    re.IGNORECASE,
)


# "I've been promoted to head of design", "got promoted to senior analyst": the new role.
_PROMOTED = re.compile(
    r"^(?:(?:was|were|got|been|am|'m|is|'s|just)\s+)*promoted\s+to\s+(?:be\s+)?(?:an?\s+|the\s+)?"
    r"(?P<role>[\w -]{2,40}?)(?:\s+at\s+(?P<org>" + _NAME + r"))?$",
    re.IGNORECASE,
)


def _home_or_work(rest: str, negated: bool) -> _Fact | None:
    """The home or the employer a clause names by the words around the name (see the module)."""
    home = _HOME.match(rest)
    if home is not None:
        place = _clean(next(v for v in home.groupdict().values() if v))
        return _Fact("lives_in", "lives in", place, negated) if place else None
    job = _JOB_AT.match(rest)
    if job is not None and not _NOT_HELD.match(rest) and not _LOOKING_FOR.search(rest):
        org = _clean(job.group("org"))
        return _Fact(_WORKS_AT, "works at", org, negated) if org else None
    named = _ORG_JOB.match(rest)
    if named is not None and not _NOT_HELD.match(rest) and not _LOOKING_FOR.search(rest):
        org = _clean(named.group("org") or named.group("first"))
        return _Fact(_WORKS_AT, "works at", org, negated) if org else None
    field = _FIELD_AT.match(rest)
    if field is not None:
        org = _clean(field.group("org"))
        return _Fact(_WORKS_AT, "works at", org, negated) if org else None
    promoted = _PROMOTED.match(rest)
    if promoted is not None and not negated:
        role = _clean(promoted.group("role"))
        org = _clean(promoted.group("org") or "")
        also = ("works_at", "works at", org) if org else None
        return _Fact("job_title", "works as", role, also=also) if role else None
    at = _AT_ORGANISATION.match(rest)
    if at is not None:
        org = _clean(at.group("org"))
        return _Fact(_WORKS_AT, "works at", org, negated) if org else None
    return None
