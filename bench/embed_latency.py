"""How fast is the offline embedder: alone, in batches, and in the engine's runs?

Embedding throughput of the offline embedder (the default model's weights).

Run: ``python -m bench embed_latency [--rounds 20] [--json]``; the runtime is the engine's
(``BELIEF_GRAPH_EMBEDDING_RUNTIME``: ``torch`` or ``onnx`` to compare the two). Embeds
memory-style claims at batch size 1 and 64 and reports sentences per second (median and p95
over rounds; p95 is the slow tail, i.e. the 5th percentile of throughput).

Then calls of 50 texts (as an ``ingest`` batch embeds its drafts) from three sets of the
project's sentences, two ways in turns call by call: in one model run padded to the longest
text of the call, and as the engine runs them (``EMBED_BATCH`` texts a run, of like length);
milliseconds per text, medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from belief_graph.semantic.embeddings import EMBED_BATCH
from belief_graph.testing.offline import offline_embedder

DATA = Path(__file__).resolve().parents[1] / "data"
PAIRS = DATA / "nli_pairs.jsonl"
CONVERSATIONS = DATA / "extraction" / "conversations.jsonl"
FACTS = DATA / "factconsolidation" / "facts_structured.jsonl"
CALL = 50


def claims() -> list[str]:
    """Distinct claim texts from the NLI pairs file."""
    seen: dict[str, None] = {}
    for line in PAIRS.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            seen.setdefault(row["premise"], None)
            seen.setdefault(row["hypothesis"], None)
    return list(seen)


def sentence_sets() -> dict[str, list[str]]:
    """The sentence sets the calls are drawn from (a set whose file is not here is left out)."""
    sets = {"nli claims": claims()}
    turns = [
        turn["text"]
        for line in CONVERSATIONS.read_text().splitlines()
        if line.strip()
        for turn in json.loads(line)["turns"]
    ]
    sets["conversation turns"] = turns
    if FACTS.is_file():
        sets["factconsolidation facts"] = [
            json.loads(line)["text"] for line in FACTS.read_text().splitlines() if line.strip()
        ]
    return sets


def by_length(texts: list[str], rounds: int) -> dict[str, Any]:
    """Calls of ``CALL`` texts, one model run each against the engine's runs, in turns."""
    embedder = offline_embedder()
    embedder.embed(texts[:CALL])
    ways: dict[str, list[float]] = {"one run a call": [], "engine": []}
    for r in range(rounds):
        call = [texts[(r * CALL + i) % len(texts)] for i in range(CALL)]
        for way, size in (("one run a call", CALL), ("engine", EMBED_BATCH)):
            start = time.perf_counter()
            embedder.embed(call, batch_size=size)
            ways[way].append((time.perf_counter() - start) * 1000 / CALL)
    return {way: statistics.median(ms) for way, ms in ways.items()}


def measure(batch_size: int, rounds: int, texts: list[str]) -> dict[str, Any]:
    """Sentences per second over ``rounds`` rounds of ``batch_size`` claims each."""
    embedder = offline_embedder()
    embedder.embed(texts[:batch_size], batch_size=batch_size)  # load and warm up
    rates: list[float] = []
    for r in range(rounds):
        batch = [texts[(r * batch_size + i) % len(texts)] for i in range(batch_size)]
        start = time.perf_counter()
        embedder.embed(batch, batch_size=batch_size)
        rates.append(batch_size / (time.perf_counter() - start))
    ordered = sorted(rates)
    slow_tail = ordered[max(0, int(len(ordered) * 0.05) - 1)] if len(ordered) >= 20 else ordered[0]
    return {
        "runtime": embedder.runtime,
        "batch_size": batch_size,
        "rounds": rounds,
        "sentences_per_s_median": statistics.median(rates),
        "sentences_per_s_p95_slow": slow_tail,
        "ms_per_claim_median": 1000 / statistics.median(rates),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    texts = claims()
    results = [measure(1, args.rounds * 4, texts), measure(64, args.rounds, texts)]
    calls = {name: by_length(sentences, args.rounds) for name, sentences in sentence_sets().items()}
    if args.json:
        print(json.dumps({"batches": results, "calls of 50, ms a text": calls}, indent=2))
        return 0
    print(f"offline embedder ({results[0]['runtime']}), {len(texts)} distinct claims")
    print(f"{'batch':>5} {'rounds':>6} {'median sent/s':>13} {'p95 sent/s':>10} {'ms/claim':>8}")
    for r in results:
        print(
            f"{r['batch_size']:>5} {r['rounds']:>6} {r['sentences_per_s_median']:>13.1f} "
            f"{r['sentences_per_s_p95_slow']:>10.1f} {r['ms_per_claim_median']:>8.2f}"
        )
    print(f"calls of {CALL} texts, ms a text (medians of {args.rounds} calls each way, in turns)")
    print(f"{'set':<24} {'one run a call':>14} {f'runs of {EMBED_BATCH}, like length':>24}")
    for name, ways in calls.items():
        print(f"{name:<24} {ways['one run a call']:>14.2f} {ways['engine']:>24.2f}")
    return 0
