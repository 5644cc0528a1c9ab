"""How well do observe's extractors turn conversations into claims and answers?

The extraction evaluation (data/extraction/): short conversations written for this project,
each labelled with the claims a careful reader takes from every turn (gold) and questions about
the facts they leave current, split once into a calibration half and a held-out half.

Each conversation is played turn by turn into an empty namespace by four systems:

- ``rules``: ``observe`` with the offline ``RuleExtractor``;
- ``recorded``: ``observe`` with the ``ChatExtractor`` against a local replay server that answers
  each turn with what a real model answered when it was recorded (``recorded.jsonl``: the model,
  the date and the seconds each answer took are on every line; ``--record URL`` records them);
- ``layered``: ``observe`` with the rules first and the recorded model's answers filling the
  facts the rules did not read (``LayeredExtractor``, what a user with a model configured gets);
- ``text``: ``remember`` of each turn as a text-only draft (no triple): the path a user has
  without extraction.

Reported per system and split:

- extraction precision / recall of (subject, predicate, object), per turn, after normalization
  (subject and object by ``normalize_key``, a leading article dropped, the gold's other spellings
  accepted; predicate by the vocabulary): of what the extractor *proposed*, and of what was
  *accepted* (reached the write path, not refused by verification); "+polarity" also requires
  ``negated`` to match;
- end to end, the share of questions answered right: ``current`` gives every expected value and
  no stale one (extractors only: a text-only draft has no slot to ask); ``search`` (top 3
  hits) gives every expected value and no stale value; ``search first``: the first hit gives
  an expected value and no stale value is in the top 3; and **end to end**: ``current`` right
  and no stale value in the top 3 (for ``text``, which has no ``current``: ``search first``).
  A hit gives a value when it is a positive claim about the question's subject whose object or
  sentence holds the value; a text-only hit (a turn, or the statements of one kept as text)
  gives the values the gold says that turn states for the slot.

The offline models of the test suite are loaded (the embedder for search, the contradiction
classifier for verification). Nothing is tuned on ``--split held_out``.

    python -m bench extraction [--split held_out|calibration|all]
                               [--systems rules,recorded,layered,text] [--errors] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from belief_graph import BeliefGraph, Claim, ClaimDraft
from belief_graph.vocabulary import Vocabulary, normalize_key
from bench.common import connect, report

DATA = Path(__file__).resolve().parents[1] / "data" / "extraction"
RECORDED = DATA / "recorded.jsonl"
RECORDED_MODEL = "recorded"
SYSTEMS = ("rules", "recorded", "layered", "text")
SPLITS = ("calibration", "held_out")
_ARTICLE = re.compile(r"^(?:a|an|the|my|his|her|their|our)\s+")


def load(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def norm(value: str) -> str:
    return _ARTICLE.sub("", normalize_key(value))


def spellings(value: str, aliases: Iterable[str]) -> set[str]:
    return {norm(value), *(norm(a) for a in aliases)}


def contains(text: str, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` as whole words (after normalization)."""
    return re.search(rf"(?<!\w){re.escape(norm(value))}(?!\w)", normalize_key(text)) is not None


# -- running the systems -----------------------------------------------------------------------


def episodes(conv: dict[str, Any]) -> Iterable[tuple[int, Any]]:
    from belief_graph.extraction import Episode

    texts = [t["text"] for t in conv["turns"]]
    for i, turn in enumerate(conv["turns"]):
        yield (
            i,
            Episode(
                speaker=conv["speaker"],
                at=datetime.fromisoformat(turn["at"]),
                text=turn["text"],
                context=tuple(texts[:i]),
                id=f"{conv['id']}-{i}",
            ),
        )


def chat_extractor(base_url: str, transport: Any = None) -> Any:
    """The ChatExtractor with the settings a user gives in BELIEF_GRAPH_EXTRACTOR_URL/_MODEL."""
    from belief_graph.extraction import ChatExtractor, ChatSettings

    settings = ChatSettings(url=base_url, model=RECORDED_MODEL, timeout=3_600)
    return ChatExtractor(settings, transport=transport)


def observe_all(bg: BeliefGraph, ns: str, conv: dict[str, Any], extractor: Any) -> list[Any]:
    """Per turn: (turn, proposals, accepted proposals, refusals)."""
    out = []
    for i, episode in episodes(conv):
        observation = bg.observe(ns, episode, extractor=extractor)
        refused = [r.proposal for r in observation.refused]
        accepted = [p for p in observation.proposals if p not in refused]
        out.append((i, list(observation.proposals), accepted, list(observation.refused)))
    return out


def run_rules(bg: BeliefGraph, ns: str, conv: dict[str, Any], _: Any) -> list[Any]:
    from belief_graph.extraction import RuleExtractor

    return observe_all(bg, ns, conv, RuleExtractor())


@contextmanager
def replayed(conv: dict[str, Any], recorded: dict[tuple[str, int], Any]) -> Iterator[Any]:
    """The chat extractor, answered for ``conv`` with what the model answered when recorded."""
    from belief_graph.testing.chat_replay import ChatReplayServer, recorded_answers

    rows = [{"id": cid, "turn": turn, "content": c} for (cid, turn), c in recorded.items()]
    with ChatReplayServer(recorded_answers(conv, rows)) as server:
        yield chat_extractor(server.base_url)


def run_recorded(
    bg: BeliefGraph, ns: str, conv: dict[str, Any], recorded: dict[tuple[str, int], Any]
) -> list[Any]:
    with replayed(conv, recorded) as model:
        return observe_all(bg, ns, conv, model)


def run_layered(
    bg: BeliefGraph, ns: str, conv: dict[str, Any], recorded: dict[tuple[str, int], Any]
) -> list[Any]:
    from belief_graph.extraction import LayeredExtractor, RuleExtractor

    with replayed(conv, recorded) as model:
        return observe_all(bg, ns, conv, LayeredExtractor(RuleExtractor(), model))


def run_text(bg: BeliefGraph, ns: str, conv: dict[str, Any], _: Any) -> list[Any]:
    for i, turn in enumerate(conv["turns"]):
        at = datetime.fromisoformat(turn["at"])
        bg.remember(
            ClaimDraft(
                namespace=ns,
                text=turn["text"],
                valid_from=at,  # said then; learned now, as observe's turns are
                episode_id=f"{conv['id']}-{i}",
            )
        )
    return []


RUNNERS = {
    "rules": run_rules,
    "recorded": run_recorded,
    "layered": run_layered,
    "text": run_text,
}


# -- scoring -----------------------------------------------------------------------------------


class Scorer:
    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary

    def predicate(self, text: str) -> str:
        try:
            return self.vocabulary.canonical(text)
        except ValueError:
            return ""

    def match(
        self, conv: dict[str, Any], turns: list[Any], which: int
    ) -> tuple[int, int, int, int, list[str]]:
        """(matched, matched with polarity, proposed, gold) over the conversation, and errors.
        ``which``: 1 = everything proposed, 2 = only what was accepted."""
        matched = polarity = proposed = 0
        errors: list[str] = []
        # A turn kept as text keys no fact: it counts in search, not here.
        by_turn: dict[int, list[Any]] = {
            t[0]: [p for p in t[which] if not p.text_only] for t in turns
        }
        for turn in range(len(conv["turns"])):
            left = list(by_turn.get(turn, []))
            proposed += len(left)
            for g in (g for g in conv["gold"] if g["turn"] == turn):
                objects = spellings(g["object"], g.get("aliases", []))
                hit = next(
                    (
                        p
                        for p in left
                        if norm(p.subject) == norm(g["subject"])
                        and self.predicate(p.predicate) == g["predicate"]
                        and norm(p.object) in objects
                    ),
                    None,
                )
                if hit is None:
                    sign = "not " if g.get("negated") else ""
                    errors.append(
                        f"{conv['id']}#{turn} missed ({g['subject']}, {g['predicate']}, "
                        f"{sign}{g['object']})"
                    )
                    continue
                left.remove(hit)
                matched += 1
                polarity += bool(hit.negated) == bool(g.get("negated", False))
            for p in left:
                sign = "not " if p.negated else ""
                errors.append(
                    f"{conv['id']}#{turn} spurious ({p.subject}, {p.predicate}, {sign}{p.object})"
                )
        return matched, polarity, proposed, len(conv["gold"]), errors

    def values(self, q: dict[str, Any], names: list[str]) -> list[tuple[str, set[str]]]:
        return [(v, spellings(v, q.get("aliases", {}).get(v, []))) for v in names]

    def judge(self, q: dict[str, Any], given: list[set[str]]) -> bool:
        """Right: every expected value is given and no stale value is. ``given``: per source
        (a current claim, a hit), the normalized values it gives."""
        every = set().union(*given) if given else set()
        answers = self.values(q, q["answer"])
        stale = self.values(q, q["stale"])
        return all(forms & every for _, forms in answers) and not any(
            forms & every for _, forms in stale
        )

    def first(self, q: dict[str, Any], given: list[set[str]]) -> bool:
        """The first hit gives an expected value (or, for a question whose answer is that
        nothing holds, no hit gives one) and no hit gives a stale one."""
        answers = self.values(q, q["answer"])
        if answers and (not given or not any(forms & given[0] for _, forms in answers)):
            return False
        return not self.has_stale(q, given)

    def has_stale(self, q: dict[str, Any], given: list[set[str]]) -> bool:
        every = set().union(*given) if given else set()
        return any(forms & every for _, forms in self.values(q, q["stale"]))

    def claim_gives(self, q: dict[str, Any], claim: Claim) -> set[str]:
        """The question's values (answer or stale, every spelling) a structured claim gives."""
        if claim.negated or claim.subject is None or norm(claim.subject) != norm(q["subject"]):
            return set()
        found: set[str] = set()
        for _, forms in self.values(q, q["answer"] + q["stale"]):
            if (claim.object and norm(claim.object) in forms) or any(
                contains(claim.text or "", f) for f in forms
            ):
                found |= forms
        return found

    def turn_gives(self, q: dict[str, Any], conv: dict[str, Any], text: str) -> set[str]:
        """The values a turn (or a text kept from it) states for the question's slot, as the
        gold records them."""
        turns = [i for i, t in enumerate(conv["turns"]) if text and text in t["text"]]
        found: set[str] = set()
        for g in conv["gold"]:
            if (
                g["turn"] in turns
                and not g.get("negated")
                and (g["subject"], g["predicate"]) == (q["subject"], q["predicate"])
            ):
                found |= spellings(g["object"], g.get("aliases", []))
        return found


def ask(
    bg: BeliefGraph,
    ns: str,
    conv: dict[str, Any],
    system: str,
    scorer: Scorer,
    kept: frozenset[str] | set[str] = frozenset(),
) -> list[dict[str, Any]]:
    rows = []
    for q in conv["questions"]:
        row: dict[str, Any] = {"id": conv["id"], "query": q["query"]}
        if system != "text":
            current = bg.current(ns, q["subject"], q["predicate"])
            claims = current if isinstance(current, list) else [current] if current else []
            given = [{norm(c.object)} for c in claims if c.object and not c.negated]
            row["current"] = scorer.judge(q, given)
            row["current_values"] = [c.object for c in claims if not c.negated]
        hits = bg.search(q["query"], ns, k=3)
        given = [
            scorer.turn_gives(q, conv, h.claim.text or "")
            if system == "text" or h.claim.text in kept
            else scorer.claim_gives(q, h.claim)
            for h in hits
        ]
        row["top3"] = scorer.judge(q, given)
        row["top3_stale"] = scorer.has_stale(q, given)
        row["first"] = scorer.first(q, given)
        row["e2e"] = row["first"] if system == "text" else row["current"] and not row["top3_stale"]
        row["top3_texts"] = [h.claim.text for h in hits]
        rows.append(row)
    return rows


def ratio(num: int, den: int) -> float | None:
    return round(num / den, 3) if den else None


def table(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures over a set of played conversations of one system."""
    out: dict[str, Any] = {"conversations": len(items)}
    for stage in ("proposed", "accepted"):
        m = sum(i[stage][0] for i in items)
        mp = sum(i[stage][1] for i in items)
        n = sum(i[stage][2] for i in items)
        g = sum(i[stage][3] for i in items)
        out[stage] = {
            "precision": ratio(m, n),
            "recall": ratio(m, g),
            "precision+polarity": ratio(mp, n),
            "recall+polarity": ratio(mp, g),
            "claims": n,
            "gold": g,
        }
    questions = [q for i in items for q in i["questions"]]
    out["questions"] = len(questions)
    with_current = [q for q in questions if "current" in q]
    out["current right"] = ratio(sum(q["current"] for q in with_current), len(with_current))
    out["top3 right"] = ratio(sum(q["top3"] for q in questions), len(questions))
    out["top3 stale"] = ratio(sum(q["top3_stale"] for q in questions), len(questions))
    out["search first"] = ratio(sum(q["first"] for q in questions), len(questions))
    out["end to end"] = ratio(sum(q["e2e"] for q in questions), len(questions))
    return out


def play(
    bg: BeliefGraph,
    run: str,
    system: str,
    conversations: list[dict[str, Any]],
    recorded: dict[tuple[str, int], Any],
    scorer: Scorer,
) -> list[dict[str, Any]]:
    played = []
    started = time.perf_counter()
    if system in ("recorded", "layered"):
        # Only what was recorded (a recording still under way covers part of the set).
        conversations = [c for c in conversations if (c["id"], len(c["turns"]) - 1) in recorded]
    for n, conv in enumerate(conversations, 1):
        ns = f"{run}:{system}:{conv['id']}"
        turns = RUNNERS[system](bg, ns, conv, recorded)
        proposed = scorer.match(conv, turns, 1) if system != "text" else (0, 0, 0, 0, [])
        accepted = scorer.match(conv, turns, 2) if system != "text" else (0, 0, 0, 0, [])
        refusals = [r.reason for t in turns for r in t[3]]
        refused_claims = [
            f"{conv['id']}#{t[0]} refused ({r.proposal.subject}, {r.proposal.predicate}, "
            f"{'not ' if r.proposal.negated else ''}{r.proposal.object}) "
            f"{r.proposal.sentence!r} from {r.proposal.source!r}: {_reason(r.reason)}"
            for t in turns
            for r in t[3]
        ]
        played.append(
            {
                "conv": conv,
                "proposed": proposed[:4],
                "accepted": accepted[:4],
                "errors": proposed[4],
                "refused": refusals,
                "refused_claims": refused_claims,
                "questions": ask(
                    bg,
                    ns,
                    conv,
                    system,
                    scorer,
                    {p.sentence for t in turns for p in t[1] if p.text_only},
                ),
            }
        )
        if n % 16 == 0 or n == len(conversations):
            print(
                f"  {system}: {n}/{len(conversations)} conversations, "
                f"{time.perf_counter() - started:.0f} s",
                file=sys.stderr,
            )
    return played


def _reason(text: str) -> str:
    """A refusal reason without the quoted claim, so that like reasons count together."""
    return re.sub(r"'[^']*'|\"[^\"]*\"|[0-9.]+", "…", text)[:90]


def summarize(played: list[dict[str, Any]], scopes: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for scope in scopes:
        out[scope] = table([p for p in played if scope in ("all", p["conv"]["split"])])
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in played:
        by_category[p["conv"]["category"]].append(p)
    out["categories"] = {c: table(items) for c, items in sorted(by_category.items())}
    out["refusals"] = dict(Counter(_reason(r) for p in played for r in p["refused"]).most_common(8))
    return out


# -- output ------------------------------------------------------------------------------------


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def print_side_by_side(title: str, results: dict[str, dict[str, Any]], scopes: list[str]) -> None:
    names = list(results)
    print(f"\n== {title}")
    head = f"{'':<34}" + "".join(f"{n:>12}" for n in names)
    for scope in scopes:
        print(f"\n-- {scope}\n{head}")
        rows: list[tuple[str, Callable[[dict[str, Any]], Any]]] = [
            ("extraction P (proposed)", lambda t: t["proposed"]["precision"]),
            ("extraction R (proposed)", lambda t: t["proposed"]["recall"]),
            ("extraction P (accepted)", lambda t: t["accepted"]["precision"]),
            ("extraction R (accepted)", lambda t: t["accepted"]["recall"]),
            ("  R (accepted, +polarity)", lambda t: t["accepted"]["recall+polarity"]),
            ("current right", lambda t: t["current right"]),
            ("search top 3 right", lambda t: t["top3 right"]),
            ("search top 3 with a stale value", lambda t: t["top3 stale"]),
            ("search: current first, none stale", lambda t: t["search first"]),
            ("END TO END (current, none stale)", lambda t: t["end to end"]),
        ]
        for label, get in rows:
            cells = []
            for name in names:
                t = results[name][scope]
                value = None if name == "text" and "extraction" in label else get(t)
                cells.append(f"{fmt(value):>12}")
            print(f"{label:<34}" + "".join(cells))
        first = results[names[0]][scope]
        counts = f"{first['conversations']} conversations, {first['questions']} questions"
        print(f"({counts})")
    print("\n-- per category: extraction R (accepted) / current right / search top 3 right")
    print(f"{'':<20}" + "".join(f"{n:>20}" for n in names))
    categories = dict.fromkeys(c for r in results.values() for c in r["categories"])
    for category in sorted(categories):
        cells = []
        for name in names:
            t = results[name]["categories"].get(category)
            if t is None:
                # A recording still under way may cover no conversation of a category.
                cells.append(f"{'not played':>20}")
                continue
            r = "-" if name == "text" else fmt(t["accepted"]["recall"])
            cells.append(
                f"{r + ' / ' + fmt(t['current right']) + ' / ' + fmt(t['top3 right']):>20}"
            )
        print(f"{category:<20}" + "".join(cells))
    for name in names:
        if results[name]["refusals"]:
            print(f"\n-- {name}: refusals by reason")
            for reason, count in results[name]["refusals"].items():
                print(f"  {count:>4}  {reason}")


def print_errors(played: dict[str, list[dict[str, Any]]]) -> None:
    for name, items in played.items():
        print(f"\n-- {name}: extraction errors (proposed) and wrong answers")
        for p in items:
            for line in p["errors"] + p["refused_claims"]:
                print("  " + line)
            for q in p["questions"]:
                if not q["top3"] or not q.get("current", True):
                    print(
                        f"  {q['id']} Q {q['query']!r}: current {q.get('current_values', '-')}, "
                        f"top 3 {q['top3_texts']}"
                    )


# -- recording a real model --------------------------------------------------------------------


class Recorder:
    """An httpx transport that passes each request on and keeps the answer's content, the
    model's name and the seconds it took."""

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.seconds: list[float] = []
        self.model = ""

    def handle_request(self, request: Any) -> Any:
        import httpx

        started = time.perf_counter()
        with httpx.HTTPTransport() as transport:
            response = transport.handle_request(request)
            response.read()
        self.seconds.append(round(time.perf_counter() - started, 2))
        try:
            body = json.loads(response.content)
            self.answers.append(body["choices"][0]["message"]["content"])
            self.model = str(body.get("model") or self.model)
        except (ValueError, KeyError, IndexError, TypeError):
            pass
        return response

    def close(self) -> None:
        return None

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def recording_summary(rows: list[dict[str, Any]], conversations: list[dict[str, Any]]) -> str:
    """Which model answered, when, and how long a turn took it."""
    ids = {c["id"] for c in conversations}
    mine = [r for r in rows if r["id"] in ids]
    seconds = sorted(sum(r["seconds"]) for r in mine)
    models = sorted({r["model"] for r in mine})
    dates = sorted({r["recorded"] for r in mine})
    retried = sum(isinstance(r["content"], list) for r in mine)
    if not seconds:
        return "\n(no recorded turn in this split)"
    median = seconds[len(seconds) // 2]
    p90 = seconds[min(len(seconds) - 1, round(0.9 * (len(seconds) - 1)))]
    return (
        f"\nrecorded: {len(mine)} turns of {len({r['id'] for r in mine})} conversations from "
        f"{', '.join(models)} on {', '.join(dates)}; seconds a turn: median {median:.1f}, "
        f"p90 {p90:.1f}, max {seconds[-1]:.1f}; turns asked again: {retried}"
    )


def recorded_ids() -> set[str]:
    return {r["id"] for r in load(RECORDED.name)} if RECORDED.exists() else set()


def interleaved(conversations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversations taken a category at a time in turn (file order within a category,
    which alternates the halves), so that a recording stopped part way covers every category
    and both halves rather than the first categories of the file."""
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for conv in conversations:
        by_category[conv["category"]].append(conv)
    queues = list(by_category.values())
    out: list[dict[str, Any]] = []
    for rank in range(max((len(q) for q in queues), default=0)):
        out.extend(q[rank] for q in queues if rank < len(q))
    return out


def record(
    url: str, model: str, conversations: list[dict[str, Any]], *, reverse: bool = False
) -> int:
    """Play each conversation not yet in recorded.jsonl through ``observe`` with the chat
    extractor at ``url`` and append every turn's answers, a conversation at a time (a stopped
    run loses at most the conversation it was on and goes on where it stopped). The
    conversations go a category at a time in turn (:func:`interleaved`), so a partial
    recording covers every category. Two runs against two servers may share the work: one in
    that order, one ``reverse``d; each skips what the other has recorded by the time it gets
    there."""
    import httpx

    from belief_graph.extraction import ChatExtractor, ChatSettings
    from belief_graph.extraction.chat import prefix_digest

    done = recorded_ids()
    todo = [c for c in interleaved(conversations) if c["id"] not in done]
    if reverse:
        todo.reverse()
    print(f"recording {len(todo)} conversations ({len(done)} already recorded)", file=sys.stderr)
    bg = connect()
    settings = ChatSettings(url=url, model=model, timeout=3_600)
    digest = prefix_digest(ChatExtractor(settings), bg.vocabulary)
    run = f"bench:record-{datetime.now(UTC):%Y%m%d%H%M%S}"
    for n, conv in enumerate(todo, 1):
        if conv["id"] in recorded_ids():
            continue
        rows = []
        for i, episode in episodes(conv):
            recorder = Recorder()
            extractor = ChatExtractor(
                settings, transport=httpx.MockTransport(recorder.handle_request)
            )
            bg.observe(f"{run}:{conv['id']}", episode, extractor=extractor)
            rows.append(
                {
                    "id": conv["id"],
                    "turn": i,
                    "content": recorder.answers[0]
                    if len(recorder.answers) == 1
                    else recorder.answers,
                    "model": recorder.model or model,
                    "recorded": f"{datetime.now(UTC):%Y-%m-%d}",
                    "prefix": digest,
                    "seconds": recorder.seconds,
                }
            )
        with RECORDED.open("a", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
        took = sum(s for row in rows for s in row["seconds"])
        print(f"  {n}/{len(todo)} {conv['id']}: {len(rows)} turns, {took:.0f} s", file=sys.stderr)
    bg.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--split", choices=["held_out", "calibration", "all"], default="held_out")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset")
    parser.add_argument(
        "--errors", action="store_true", help="list extraction errors, wrong answers"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--record",
        metavar="URL",
        help="record a real model's answers at this OpenAI-compatible base URL into "
        "recorded.jsonl (the conversations not recorded yet) instead of measuring",
    )
    parser.add_argument("--model", default="local", help="the model name sent with --record")
    parser.add_argument("--limit", type=int, help="only the first N conversations (a smoke run)")
    parser.add_argument(
        "--reverse", action="store_true", help="with --record: from the last conversation back"
    )
    parser.add_argument(
        "--only-recorded",
        action="store_true",
        help="only the conversations recorded.jsonl covers (every system on the same set)",
    )
    args = parser.parse_args()
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    for s in systems:
        if s not in SYSTEMS:
            parser.error(f"--systems: unknown system {s!r} (choose from {', '.join(SYSTEMS)})")
    conversations = [c for c in load("conversations.jsonl") if args.split in ("all", c["split"])]
    if args.limit:
        conversations = conversations[: args.limit]
    if args.only_recorded:
        covered = recorded_ids()
        conversations = [c for c in conversations if c["id"] in covered]
    if args.record:
        return record(args.record, args.model, conversations, reverse=args.reverse)
    rows = load(RECORDED.name) if RECORDED.exists() else []
    recorded = {(r["id"], r["turn"]): r["content"] for r in rows}
    scopes = [*SPLITS, "all"] if args.split == "all" else [args.split]

    from belief_graph.detect import Detector
    from belief_graph.testing.offline import offline_embedder, offline_scorer

    bg = connect(detector=Detector(offline_embedder(), offline_scorer(dynamic_length=True)))
    scorer = Scorer(bg.vocabulary)
    run = f"bench:extraction-{datetime.now(UTC):%Y%m%d%H%M%S}"
    played = {s: play(bg, run, s, conversations, recorded, scorer) for s in systems}
    bg.close()
    results = {s: summarize(items, scopes) for s, items in played.items()}
    title = (
        f"Extraction, {args.split} split ({len(conversations)} conversations, "
        f"{sum(len(c['questions']) for c in conversations)} questions)"
    )
    if args.json:
        report(title, {"results": results, "namespace": run}, True)
        return 0
    print_side_by_side(title, results, scopes)
    if "recorded" in systems and rows:
        print(recording_summary(rows, conversations))
    if args.errors:
        print_errors(played)
    return 0
