"""Build conversations.jsonl and recorded.jsonl from the hand-written source files.

    python data/extraction/build.py        # rewrites both .jsonl files next to this script

The source format is described in data/extraction/README.md. The conversations, their gold
annotations and the deviations of the recorded responses (missed claims, wrong predicates,
invented claims, malformed outputs) are all written by hand in source/*.txt; this script only
turns them into JSON, interleaves the two halves and writes each recorded claim's sentence from
a per-predicate phrase.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from belief_graph.vocabulary import Vocabulary

HERE = Path(__file__).resolve().parent
SOURCES = {
    "calibration": HERE / "source" / "calibration.txt",
    "held_out": HERE / "source" / "held_out.txt",
}

# Predicates the shipped vocabulary does not define (listed in README.md for the core branch).
NEW_PREDICATES = {
    "day_off": "single",
    "commute_mode": "single",
    "meeting_day": "single",
    "workout_time": "single",
    "lesson_day": "single",
    "book_club_day": "single",
    "dentist_appointment": "single",
    "school_play_day": "single",
    "flight_date": "single",
    "birth_year": "single",
    "car": "single",
    "work_location": "single",
    "roommate": "multi",
    "has_cousin": "multi",
}

_OFFSET = re.compile(r"^\[\+(\d+)([mhd])\]\s*")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}

# How a recorded response phrases each claim (positive, negated).
_PHRASES: dict[str, tuple[str, str]] = {
    "lives_in": ("{S} lives in {o}.", "{S} no longer lives in {o}."),
    "born_in": ("{S} was born in {o}.", "{S} was not born in {o}."),
    "works_at": ("{S} works at {o}.", "{S} no longer works at {o}."),
    "job_title": ("{S} works as {o}.", "{S} no longer works as {o}."),
    "dietary_preference": ("{S}'s diet is {o}.", "{S} is no longer {o}."),
    "favorite_drink": ("{S} usually drinks {o}.", "{S} no longer drinks {o}."),
    "favorite_food": ("{S}'s favourite food is {o}.", "{S}'s favourite food is no longer {o}."),
    "favorite_music": ("{S}'s favourite band is {o}.", "{S}'s favourite band is no longer {o}."),
    "likes": ("{S} likes {o}.", "{S} no longer likes {o}."),
    "dislikes": ("{S} dislikes {o}.", "{S} no longer dislikes {o}."),
    "language_spoken": ("{S} speaks {o}.", "{S} does not speak {o}."),
    "native_language": ("{S}'s native language is {o}.", "{S}'s native language is not {o}."),
    "has_pet": ("{S} has a pet called {o}.", "{S} no longer has the pet {o}."),
    "has_allergy": ("{S} is allergic to {o}.", "{S} is not allergic to {o}."),
    "has_hobby": ("{S}'s hobbies include {o}.", "{S} no longer does {o} as a hobby."),
    "has_skill": ("{S} is skilled in {o}.", "{S} is not skilled in {o}."),
    "is_learning": ("{S} is learning {o}.", "{S} is no longer learning {o}."),
    "has_child": ("{S} has a child called {o}.", "{S} has no child called {o}."),
    "has_parent": ("{S}'s parent is {o}.", "{o} is not {S}'s parent."),
    "has_sibling": ("{S} has a sibling called {o}.", "{S} has no sibling called {o}."),
    "spouse": ("{S} is married to {o}.", "{S} is not married to {o}."),
    "partner": ("{S}'s partner is {o}.", "{S}'s partner is not {o}."),
    "reports_to": ("{S} reports to {o}.", "{S} no longer reports to {o}."),
    "friend_of": ("{S} is friends with {o}.", "{S} is not friends with {o}."),
    "colleague_of": ("{S} works with {o}.", "{S} no longer works with {o}."),
    "member_of": ("{S} is a member of {o}.", "{S} is no longer a member of {o}."),
    "studied_at": ("{S} studies at {o}.", "{S} no longer studies at {o}."),
    "working_on": ("{S} is working on {o}.", "{S} is no longer working on {o}."),
    "has_goal": ("{S} wants to {o}.", "{S} no longer wants to {o}."),
    "health_condition": ("{S} has {o}.", "{S} does not have {o}."),
    "working_hours": ("{S} works {o}.", "{S} no longer works {o}."),
    "timezone": ("{S}'s time zone is {o}.", "{S}'s time zone is no longer {o}."),
    "age": ("{S} is {o} years old.", "{S} is not {o} years old."),
    "communication_style": (
        "{S} wants answers that are {o}.",
        "{S} no longer wants answers that are {o}.",
    ),
    "response_language": ("{S} wants replies in {o}.", "{S} no longer wants replies in {o}."),
    "contact_preference": (
        "{S} prefers to be contacted by {o}.",
        "{S} no longer wants to be contacted by {o}.",
    ),
    "nickname": ("{S} goes by {o}.", "{S} does not go by {o}."),
    "email": ("{S}'s email address is {o}.", "{S}'s email address is no longer {o}."),
    "has_habit": ("{S} has the habit: {o}.", "{S} no longer has the habit: {o}."),
    "commute_mode": ("{S} commutes by {o}.", "{S} no longer commutes by {o}."),
    "car": ("{S} drives a {o}.", "{S} no longer drives a {o}."),
}


def _speaker_form(subject: str) -> str:
    return subject[:1].upper() + subject[1:]


def sentence(subject: str, predicate: str, obj: str, negated: bool) -> str:
    positive, negative = _PHRASES.get(
        predicate,
        (
            "{S}'s " + predicate.replace("_", " ") + " is {o}.",
            "{S}'s " + predicate.replace("_", " ") + " is not {o}.",
        ),
    )
    return (negative if negated else positive).format(S=_speaker_form(subject), o=obj)


def source_span(text: str, values: list[str]) -> str:
    """The sentence of the turn that names the value (what a model quotes), else the turn."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
    for value in values:
        for s in sentences:
            if value.casefold() in s.casefold():
                return s
    return text


def parse(path: Path, split: str) -> list[dict[str, Any]]:
    conversations: list[dict[str, Any]] = []
    conv: dict[str, Any] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name}:{number}"
        tag, rest = line[:1], line[1:].strip()
        if tag == "@":
            cid, category, speaker, start = (p.strip() for p in rest.split("|"))
            conv = {
                "id": cid,
                "category": category,
                "split": split,
                "speaker": speaker,
                "turns": [],
                "gold": [],
                "questions": [],
                "_start": datetime.fromisoformat(start).replace(tzinfo=UTC),
                "_recorded": [],
            }
            conversations.append(conv)
            continue
        if conv is None:
            raise SystemExit(f"{where}: a line before the first '@'")
        turn = len(conv["turns"]) - 1
        if tag == ">":
            offset = _OFFSET.match(rest)
            last = datetime.fromisoformat(conv["turns"][-1]["at"]) if conv["turns"] else None
            if offset:
                step = timedelta(**{_UNITS[offset.group(2)]: int(offset.group(1))})
                rest = rest[offset.end() :]
            else:
                step = timedelta(minutes=1)
            at = conv["_start"] if last is None else last + step
            conv["turns"].append({"at": at.strftime("%Y-%m-%dT%H:%M:%SZ"), "text": rest})
            conv["_recorded"].append({"claims": [], "mode": "ok"})
        elif tag == "=":
            fields = [p.strip() for p in rest.split("|")]
            gold: dict[str, Any] = {
                "turn": turn,
                "subject": fields[0],
                "predicate": fields[1],
                "object": fields[2],
            }
            record = dict(gold, negated=False, correction=False, skip=False)
            for flag in fields[3:]:
                key, _, value = flag.partition("=")
                if key == "neg":
                    gold["negated"] = record["negated"] = True
                elif key == "corr":
                    gold["correction"] = record["correction"] = True
                elif key == "from":
                    gold["valid_from"] = record["valid_from"] = value
                elif key == "to":
                    gold["valid_to"] = record["valid_to"] = value
                elif key == "alias":
                    gold.setdefault("aliases", []).append(value)
                elif key == "recskip":
                    record["skip"] = True
                elif key == "recpred":
                    record["predicate"] = value
                elif key == "recobj":
                    record["object"] = value
                elif key == "recneg":
                    record["negated"] = not record["negated"]
                else:
                    raise SystemExit(f"{where}: unknown flag {flag!r}")
            conv["gold"].append(gold)
            conv["_recorded"][turn]["claims"].append(record)
        elif tag == "~":
            s, p, o = (x.strip() for x in rest.split("|"))
            conv["_recorded"][turn]["claims"].append(
                {
                    "subject": s,
                    "predicate": p,
                    "object": o,
                    "negated": False,
                    "correction": False,
                    "skip": False,
                    "invented": True,
                }
            )
        elif tag == "!":
            conv["_recorded"][turn]["mode"] = rest
        elif tag == "?":
            s, p, query, answer, stale = (x.strip() for x in rest.split("|"))
            conv["questions"].append(
                {
                    "subject": s,
                    "predicate": p,
                    "query": query,
                    "_answer": [a.strip() for a in answer.split(";") if a.strip()],
                    "_stale": [a.strip() for a in stale.split(";") if a.strip()],
                }
            )
        else:
            raise SystemExit(f"{where}: unknown line {line!r}")
    return conversations


def finish_questions(conv: dict[str, Any], vocabulary: Vocabulary) -> None:
    """Answers of a single-valued fact: the first is the value, the rest its other spellings.
    Gold aliases of the same (subject, predicate, value) are added to the question's aliases."""
    for q in conv["questions"]:
        single = _cardinality(q["predicate"], vocabulary) == "single"
        aliases: dict[str, list[str]] = {}
        answer, stale = q.pop("_answer"), q.pop("_stale")
        if single and answer:
            aliases[answer[0]] = answer[1:]
            answer = answer[:1]
        if single and stale:
            # Several stale values may be listed; a listed gold alias joins its value.
            pass
        for g in conv["gold"]:
            if (g["subject"], g["predicate"]) == (q["subject"], q["predicate"]):
                for value in (*answer, *stale):
                    if value == g["object"] or value in g.get("aliases", []):
                        merged = aliases.setdefault(value, [])
                        for alt in (g["object"], *g.get("aliases", [])):
                            if alt != value and alt not in merged:
                                merged.append(alt)
        q["answer"] = answer
        q["stale"] = stale
        q["aliases"] = {k: v for k, v in aliases.items() if v}


def _cardinality(predicate: str, vocabulary: Vocabulary) -> str:
    if predicate in vocabulary.predicates:
        return vocabulary.cardinality(predicate)
    return NEW_PREDICATES[predicate]


_MALFORMED = [
    "Sure! Here are the claims I found:\n\n- {first}",
    '{{"claims": [{{"subject": "{subject}", "predicate": "{predicate}", "object": ',
    '{{"facts": [{{"who": "{subject}", "what": "{predicate}"}}]}}',
]


def recorded_content(conv: dict[str, Any], turn: int) -> str | list[str]:
    text = conv["turns"][turn]["text"]
    spec = conv["_recorded"][turn]
    claims = []
    for c in spec["claims"]:
        if c["skip"]:
            continue
        gold_aliases: list[str] = next(
            (
                g.get("aliases", [])
                for g in conv["gold"]
                if g["turn"] == turn and (g["subject"], g["object"]) == (c["subject"], c["object"])
            ),
            [],
        )
        subject = c["subject"] if c["subject"] == conv["speaker"] else _speaker_form(c["subject"])
        claims.append(
            {
                "subject": subject,
                "predicate": c["predicate"],
                "object": c["object"],
                "sentence": sentence(c["subject"], c["predicate"], c["object"], c["negated"]),
                "source": source_span(text, [c["object"], *gold_aliases, c["subject"]]),
                "valid_from": c.get("valid_from"),
                "valid_to": c.get("valid_to"),
                "negated": c["negated"],
                "correction": c["correction"],
            }
        )
    good = json.dumps({"claims": claims}, ensure_ascii=False)
    mode = spec["mode"]
    if mode == "ok":
        return good
    first = claims[0] if claims else {"subject": conv["speaker"], "predicate": "", "sentence": ""}
    bad = [
        m.format(first=first["sentence"], subject=first["subject"], predicate=first["predicate"])
        for m in _MALFORMED
    ]
    if mode == "retry":
        return [bad[len(conv["id"]) % 2], good]
    if mode == "fail":
        return bad
    raise SystemExit(f"{conv['id']}: unknown recorded mode {mode!r}")


def main() -> int:
    vocabulary = Vocabulary.default()
    halves = {split: parse(path, split) for split, path in SOURCES.items()}
    # Alternate the halves category by category, so both have the same mix in file order.
    ordered: list[dict[str, Any]] = []
    by_category = {
        split: {
            c: [x for x in convs if x["category"] == c]
            for c in dict.fromkeys(x["category"] for x in convs)
        }
        for split, convs in halves.items()
    }
    for category in by_category["calibration"]:
        for cal, held in zip(
            by_category["calibration"][category], by_category["held_out"][category], strict=True
        ):
            ordered.extend([cal, held])
    unknown = Counter(
        g["predicate"]
        for conv in ordered
        for g in conv["gold"]
        if vocabulary.canonical(g["predicate"]) != g["predicate"]
        or g["predicate"] not in vocabulary
    )
    for predicate in unknown:
        if predicate not in NEW_PREDICATES:
            raise SystemExit(f"predicate {predicate!r} is neither in the vocabulary nor listed")
    with (
        (HERE / "conversations.jsonl").open("w", encoding="utf-8") as out,
        (HERE / "recorded.jsonl").open("w", encoding="utf-8") as rec,
    ):
        for conv in ordered:
            finish_questions(conv, vocabulary)
            for turn in range(len(conv["turns"])):
                content = recorded_content(conv, turn)
                rec.write(
                    json.dumps(
                        {"id": conv["id"], "turn": turn, "content": content}, ensure_ascii=False
                    )
                    + "\n"
                )
            public = {k: v for k, v in conv.items() if not k.startswith("_")}
            out.write(json.dumps(public, ensure_ascii=False) + "\n")
    print(
        f"{len(ordered)} conversations, "
        f"{sum(len(c['turns']) for c in ordered)} turns, "
        f"{sum(len(c['gold']) for c in ordered)} gold claims, "
        f"{sum(len(c['questions']) for c in ordered)} questions; "
        f"predicates outside the vocabulary: {dict(unknown)}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
