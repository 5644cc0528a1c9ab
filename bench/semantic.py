"""What do the offline models, a models-on remember and search at N claims cost?

Semantic-layer latencies with the offline models, on a real Neo4j.

1. Embedding throughput at batch 1 and 64 (sentences/s, median of runs).
2. Contradiction check per pair: the offline classifier padded to 160 tokens and dynamic length.
3. ``remember`` p50/p95 with models on (structured and text-only drafts).
4. ``search`` p50/p95 at N stored claims, excluding the query embedding (the timed part is the
   call minus the embedding). ``--vectors random`` ingests random unit vectors (fast to make, and
   the worst case for the index: nothing clusters); ``--vectors real`` embeds N generated
   sentences with the offline model (slow to make, realistic).

    python -m bench semantic [--claims 100000] [--samples 200] [--vectors random|real] [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from datetime import UTC, datetime

from belief_graph.detect import Detector
from belief_graph.testing.factories import draft
from belief_graph.testing.offline import offline_embedder, offline_scorer
from bench.common import connect, report, stopwatch, summary

SENTENCES = [
    "Priya is cautious with money and dislikes individual stocks.",
    "The Atlas backend is written in Go.",
    "Mom lost interest in gardening last spring.",
    "The team deploys to Kubernetes every Friday.",
    "Ana prefers tea over coffee in the morning.",
]


class RandomEmbedder:
    """Random 384-d unit vectors: for measuring the index, not meaning."""

    dim = 384

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> list[list[float]]:
        out = []
        for _ in texts:
            v = [self.rng.gauss(0, 1) for _ in range(self.dim)]
            norm = sum(x * x for x in v) ** 0.5
            out.append([x / norm for x in v])
        return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--vectors", choices=["random", "real"], default="random")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    embedder = offline_embedder()
    embedder.embed(SENTENCES)
    rates = {}
    for batch in (1, 64):
        texts = [SENTENCES[i % len(SENTENCES)] + f" ({i})" for i in range(batch)]
        runs = []
        for _ in range(max(5, 320 // batch)):
            start = time.perf_counter()
            embedder.embed(texts, batch_size=batch)
            runs.append(batch / (time.perf_counter() - start))
        rates[f"batch {batch} sentences/s (median)"] = round(statistics.median(runs), 1)
    report("embeddings, offline all-MiniLM-L6-v2", rates, args.json)

    pairs = [(SENTENCES[i], SENTENCES[(i + 1) % len(SENTENCES)]) for i in range(len(SENTENCES))]
    for dynamic in (False, True):
        scorer = offline_scorer(dynamic_length=dynamic)
        scorer.score(pairs[:1])
        samples = []
        for i in range(args.samples // 4):
            start = time.perf_counter()
            scorer.score([pairs[i % len(pairs)]])
            samples.append((time.perf_counter() - start) * 1000)
        name = "dynamic length" if dynamic else "padded to 160"
        report(
            f"contradiction check per pair, offline classifier {name}", summary(samples), args.json
        )

    bg = connect(detector=Detector(embedder, offline_scorer(dynamic_length=True)))
    ns = f"bench:semantic:{datetime.now(UTC):%Y%m%d%H%M%S}"
    structured, text_only = [], []
    for i in range(args.samples):
        person, text = f"person-{i % 50}", f"Person {i % 50} lives in city {i}."
        structured_draft = draft(person, "lives in", f"city-{i}", namespace=ns, text=text)
        start = time.perf_counter()
        bg.remember(structured_draft)
        structured.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        bg.remember(draft(namespace=ns, text=f"Person {i % 50} now works at company {i}."))
        text_only.append((time.perf_counter() - start) * 1000)
    report(
        "remember with models on (embedding + contradiction checks included), structured",
        summary(structured),
        args.json,
    )
    report("remember with models on, text-only", summary(text_only), args.json)

    rng = RandomEmbedder(11)
    vectors = rng if args.vectors == "random" else embedder
    index_bg = connect(detector=Detector(vectors))
    big = f"bench:search:{datetime.now(UTC):%Y%m%d%H%M%S}"
    with stopwatch() as elapsed:
        index_bg.ingest(
            (
                draft(f"s{i}", "note", str(i), namespace=big, text=f"note {i}")
                for i in range(args.claims)
            ),
            batch_size=1000,
        )
    samples = []
    for i in range(args.samples):
        query = f"what does person {i} like to do?"
        start = time.perf_counter()
        index_bg.search(query, big, k=10)
        embed_start = time.perf_counter()
        vectors.embed([query])
        embed_ms = (time.perf_counter() - embed_start) * 1000
        samples.append((embed_start - start) * 1000 - embed_ms)
    report(
        f"search k=10 at {args.claims} claims (query embedding excluded)",
        {**summary(samples), "ingest seconds": round(elapsed[0], 1)},
        args.json,
    )
    return 0
