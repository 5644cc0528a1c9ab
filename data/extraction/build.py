"""Build conversations.jsonl from the hand-written source files.

    python data/extraction/build.py        # rewrites conversations.jsonl next to this script

The source format is described in data/extraction/README.md. The conversations and their gold
annotations are written by hand in source/*.txt; this script only turns them into JSON and
interleaves the two halves. ``calibration.txt`` and ``held_out.txt`` are one half each (written
apart); the conversations of ``long.txt`` go to a half by a hash of their id, alternately within
a category, so that nobody chose which half a conversation landed in. The model answers the
benchmark replays (recorded.jsonl) are recorded from a real model by ``python -m bench
extraction --record``, not written here. The ``rec...``, ``~`` and ``!`` markers of the first
two files described the hand-written stand-ins that recorded.jsonl held before (issue #59); they
are read and ignored.
"""

from __future__ import annotations

import hashlib
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
    "by_hash": HERE / "source" / "long.txt",
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


def parse(path: Path, split: str) -> list[dict[str, Any]]:
    conversations: list[dict[str, Any]] = []
    conv: dict[str, Any] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name}:{number}"
        if line.startswith("|"):
            # A turn's next line, as typed (code keeps its indentation).
            if conv is None or not conv["turns"]:
                raise SystemExit(f"{where}: a '|' line before any turn")
            conv["turns"][-1]["text"] += "\n" + line[2:]
            continue
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


def by_hash(conversations: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each category's conversations ordered by a hash of their id, then dealt alternately to
    the calibration and the held-out half."""
    halves: dict[str, list[dict[str, Any]]] = {"calibration": [], "held_out": []}
    categories = dict.fromkeys(c["category"] for c in conversations)
    for category in categories:
        members = sorted(
            (c for c in conversations if c["category"] == category),
            key=lambda c: hashlib.sha256(c["id"].encode()).hexdigest(),
        )
        for n, conv in enumerate(members):
            conv["split"] = ("calibration", "held_out")[n % 2]
            halves[conv["split"]].append(conv)
    return halves


def main() -> int:
    vocabulary = Vocabulary.default()
    halves = {split: parse(path, split) for split, path in SOURCES.items()}
    for split, convs in by_hash(halves.pop("by_hash")).items():
        halves[split].extend(convs)
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
    with (HERE / "conversations.jsonl").open("w", encoding="utf-8") as out:
        for conv in ordered:
            finish_questions(conv, vocabulary)
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
