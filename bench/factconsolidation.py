"""How does belief-graph do on MemoryAgentBench's FactConsolidation (6K)?

The data: data/factconsolidation/ (its README). Both modes write the 455 facts in serial order,
serial as time (a base date plus the serial in minutes), and report supersession
precision/recall against the 161 gold pairs.

- ``--mode structured`` writes (subject, relation, object), every relation single-valued: the
  engine's bookkeeping. Questions are answered with ``current`` and probes with ``as_of``.
- ``--mode text`` writes only the sentence: the semantic layer must find each fact's slot by
  itself (offline embedder + offline contradiction classifier). Questions are answered with
  ``search(question)``: correct when the top current hit contains the gold answer; a stale answer
  is a current hit about the question's subject that contains a superseded value. Probes use
  ``search`` with ``valid_at``/``known_at`` at the probe's serial.

    python -m bench factconsolidation [--mode structured|text] [--models on|off] [--data DIR]
                                      [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from belief_graph import Claim, HistoricalDraft
from belief_graph.vocabulary import Vocabulary, normalize_key
from bench.common import connect, report

BASE = datetime(2026, 1, 1, tzinfo=UTC)
DEFAULT_DATA = Path(__file__).resolve().parents[1] / "data" / "factconsolidation"


def at(serial: int) -> datetime:
    return BASE + timedelta(minutes=serial)


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def contains(text: str | None, value: str) -> bool:
    return normalize_key(value) in normalize_key(text or "")


def answer_structured(
    bg: Any, ns: str, questions: list[dict[str, Any]], probes: list[dict[str, Any]]
) -> tuple[int, int, int]:
    correct = stale = pit_correct = 0
    for q in questions:
        belief = bg.current(ns, q["subject"], q["relation"])
        answer = normalize_key(belief.object or "") if isinstance(belief, Claim) else None
        if answer in {normalize_key(g) for g in q["gold"]}:
            correct += 1
        if answer in {normalize_key(s) for s in q.get("stale_values", [])}:
            stale += 1
    for p in probes:
        moment = at(p["as_of_serial"])
        then = bg.as_of(ns, p["subject"], p["relation"], valid_at=moment, known_at=moment)
        if isinstance(then, Claim) and normalize_key(then.object or "") == normalize_key(
            p["expected"]
        ):
            pit_correct += 1
    return correct, stale, pit_correct


def answer_by_search(
    bg: Any,
    ns: str,
    questions: list[dict[str, Any]],
    probes: list[dict[str, Any]],
    facts: list[dict[str, Any]],
    errors: list[dict[str, Any]],
) -> tuple[int, int, int, int]:
    """Answers through ``search``. A stale answer is a current hit that names the question's
    subject (as words) together with one of its superseded values (outside the subject's own
    name: "University of Bucharest" does not name Bucharest), any hit, not only the fact's own
    claims; a hit that is a gold fact of another relation never superseded ("the head of the
    US government is Donald Trump" beside the head of state) is true now, not stale. Counts:
    correct, questions with a stale value in the top 10, point-in-time correct, questions with
    a stale value in the top 5."""
    correct = stale = pit_correct = 0
    stale_in_top5 = 0
    by_id = {q["qa_pair_id"]: q for q in questions}
    fact_of = {f["text"]: f for f in facts}
    for q in questions:
        hits = bg.search(q["question"], ns, k=10)
        right = bool(hits) and any(contains(hits[0].claim.text, g) for g in q["gold"])
        correct += right
        stale_rank = None
        gold = {normalize_key(g) for g in q["gold"]}
        old = [v for v in q.get("stale_values", []) if normalize_key(v) not in gold]
        for rank, hit in enumerate(hits):
            fact = fact_of.get(hit.claim.text or "")
            if (
                fact is not None
                and "superseded_by_serial" not in fact
                and (
                    fact["subject"],
                    fact["relation"],
                )
                != (q["subject"], q["relation"])
            ):
                continue
            said = normalize_key(hit.claim.text or "")
            name = re.escape(normalize_key(q["subject"]))
            rest = re.sub(rf"(?<!\w){name}(?!\w)", " ", said)
            if rest != said and any(contains(rest, v) for v in old):
                stale += 1
                stale_in_top5 += rank < 5
                stale_rank = rank
                break
        if not right or (stale_rank is not None and stale_rank < 5):
            errors.append(
                {
                    "question": q["question"],
                    "gold": q["gold"],
                    "stale rank": stale_rank,
                    "hits": [f"{h.score:.3f} {h.claim.text}" for h in hits[:6]],
                }
            )
    for p in probes:
        moment = at(p["as_of_serial"])
        hits = bg.search(
            by_id[p["qa_pair_id"]]["question"], ns, k=10, valid_at=moment, known_at=moment
        )
        if hits and contains(hits[0].claim.text, p["expected"]):
            pit_correct += 1
    return correct, stale, pit_correct, stale_in_top5


def all_single_valued() -> Vocabulary:
    """The shipped vocabulary with every predicate single-valued: the benchmark's rule (a later
    fact about a (subject, relation) overrides the earlier one, even for naturally multi-valued
    relations such as the languages a person speaks), declared the way a user would, in a
    vocabulary file."""
    shipped = Vocabulary.default()
    lines = ['default_cardinality = "single"']
    for name in shipped.predicates:
        if shipped.cardinality(name) == "multi":
            lines += [f"[predicates.{name}]", 'cardinality = "single"']
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as file:
        file.write("\n".join(lines) + "\n")
    try:
        return Vocabulary.load(file.name)
    finally:
        os.unlink(file.name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--mode", choices=["structured", "text"], default="structured")
    parser.add_argument("--candidate-similarity", type=float, default=None)
    parser.add_argument(
        "--models",
        choices=["on", "off"],
        default=None,
        help="load the offline models (default: on in text mode, off in structured mode)",
    )
    parser.add_argument(
        "--cardinality",
        choices=["benchmark", "shipped"],
        default="benchmark",
        help="benchmark: every relation single-valued, the benchmark's rule (default); shipped: "
        "the shipped vocabulary's cardinalities (a person speaks several languages)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--errors", action="store_true", help="print each wrong answer and missed supersession"
    )
    args = parser.parse_args()
    facts = load(args.data / "facts_structured.jsonl")
    questions = load(args.data / "sh_questions_structured.jsonl")
    probes = load(args.data / "pit_probes.jsonl")

    text_only = args.mode == "text"
    models = args.models == "on" or (args.models is None and text_only)
    kwargs: dict[str, Any] = {}
    if models:
        from belief_graph import Policy
        from belief_graph.detect import Detector
        from belief_graph.testing.offline import offline_embedder, offline_scorer

        kwargs["detector"] = Detector(offline_embedder(), offline_scorer(dynamic_length=True))
        if args.candidate_similarity is not None:
            kwargs["policy"] = Policy(candidate_similarity=args.candidate_similarity)
    if args.cardinality == "benchmark":
        kwargs["vocabulary"] = all_single_valued()
    bg = connect(**kwargs)
    ns = f"bench:factconsolidation-{args.mode}:{datetime.now(UTC):%Y%m%d%H%M%S}"
    serial_of: dict[str, int] = {}
    started = time.perf_counter()
    # The dataset's facts as history, each learned at its serial (as_of probes ask then).
    results = bg.import_history(
        (
            HistoricalDraft(
                namespace=ns,
                text=f["text"],
                source_type="observed",
                valid_from=at(f["serial"]),
                recorded_at=at(f["serial"]),
                **(
                    {}
                    if text_only
                    else {
                        "subject": f["subject"],
                        "predicate": f["relation"],
                        "object": f["object"],
                    }
                ),
            )
            for f in sorted(facts, key=lambda f: f["serial"])
        ),
        actor="factconsolidation",
        batch_size=50,
    )
    ingest_seconds = time.perf_counter() - started
    for fact, result in zip(sorted(facts, key=lambda f: f["serial"]), results, strict=True):
        for claim_id in result.added:
            serial_of[claim_id] = fact["serial"]

    gold_pairs = {
        (f["serial"], f["superseded_by_serial"]) for f in facts if "superseded_by_serial" in f
    }
    found_pairs: set[tuple[int, int]] = set()
    for result in results:
        for old in result.retired:
            found_pairs.add((serial_of[old], serial_of[result.added[0]]))
    true_pos = len(found_pairs & gold_pairs)

    errors: list[dict[str, Any]] = []
    if text_only:
        correct, stale, pit_correct, stale_in_top5 = answer_by_search(
            bg, ns, questions, probes, facts, errors
        )
    else:
        correct, stale, pit_correct = answer_structured(bg, ns, questions, probes)

    report(
        f"FactConsolidation 6K, {args.mode} mode",
        {
            "models": "on" if models else "off",
            "cardinality": args.cardinality,
            "facts written": len(facts),
            "single-hop accuracy": f"{correct}/{len(questions)}",
            "stale answers returned": stale,
            **(
                {"questions with a stale value in the top 5 hits": stale_in_top5}
                if text_only
                else {}
            ),
            "supersession precision": (
                round(true_pos / len(found_pairs), 4) if found_pairs else None
            ),
            "supersession recall": round(true_pos / len(gold_pairs), 4),
            "supersessions found / gold": f"{len(found_pairs)}/{len(gold_pairs)}",
            "point-in-time accuracy": f"{pit_correct}/{len(probes)}",
            "ingest seconds": round(ingest_seconds, 1),
            "namespace": ns,
        },
        args.json,
    )
    if args.errors:
        text_of = {f["serial"]: f["text"] for f in facts}
        for serial, by in sorted(gold_pairs - found_pairs):
            errors.append({"missed supersession": [text_of[serial], text_of[by]]})
        for serial, by in sorted(found_pairs - gold_pairs):
            errors.append({"wrong supersession": [text_of[serial], text_of[by]]})
        for error in errors:
            print(json.dumps(error, ensure_ascii=False))
    bg.close()
    return 0
