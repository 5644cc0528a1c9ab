"""What does a user's contradiction model cost through torch and through onnxruntime?

The user default (``cross-encoder/nli-deberta-v3-xsmall``) comes from the model hub, which this
machine cannot reach, so the model is one of its shape (DeBERTa-v2, 12 layers, hidden 384, 6
heads, a 128,100-token embedding) with random weights (``random_deberta_classifier``): the time
of a pair depends on the shape and the pair's length, not on the weights. Its tokenizer knows a
few dozen words, so a word is a token (a DeBERTa-v3 tokenizer gives a little more per word).

Scores first: both runtimes on every pair of ``data/nli_pairs.jsonl``, the largest difference
printed. Then ``CrossEncoderScorer.score`` through each, in turns call by call, on one pair, on
the likely pairs of a draft (4) and on a batch (16), on the engine's model threads
(``BELIEF_GRAPH_MODEL_THREADS``, one by default).

With ``--engine-claims N``: ``remember`` with models on, the offline embedder and this
classifier through each runtime, two clients taking turns call by call on one store of N drafts
of ``bench.data``'s people (a private Neo4j unless ``NEO4J_URI``), with the time per stage
(``bench.common.instrument``) and the pairs the classifier scored.

    python -m bench contradiction_runtime [--rounds 40] [--engine-claims 2000] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from belief_graph.semantic.contradiction import CrossEncoderScorer
from belief_graph.settings import EngineSettings
from belief_graph.testing.offline import random_deberta_classifier
from bench.common import connect, report, summary

NLI_PAIRS = Path(__file__).resolve().parents[1] / "data" / "nli_pairs.jsonl"


def pairs() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in NLI_PAIRS.read_text().splitlines() if line.strip()]
    return [(r["premise"], r["hypothesis"]) for r in rows]


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=40, help="timed calls per size and runtime")
    parser.add_argument("--engine-claims", type=int, default=0, help="0: no engine part")
    parser.add_argument("--engine-samples", type=int, default=200, help="remember calls each")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    threads = EngineSettings().inference_threads
    every = pairs()
    with tempfile.TemporaryDirectory() as work:
        model = random_deberta_classifier(
            Path(work) / "xsmall-shape",
            layers=12,
            hidden=384,
            heads=6,
            vocab_size=128_100,
            max_length=512,
            initializer_range=0.02,
        )
        scorers = {
            runtime: CrossEncoderScorer(
                str(model), runtime=runtime, threads=threads, cache_dir=Path(work)
            )
            for runtime in ("torch", "onnx")
        }
        start = time.perf_counter()
        scores = {
            r: [s.contradiction for s in scorer.score(every)] for r, scorer in scorers.items()
        }
        loaded = time.perf_counter() - start
        gap = max(abs(a - b) for a, b in zip(scores["torch"], scores["onnx"], strict=True))
        rows: dict[str, object] = {
            "model": "DeBERTa-v2, nli-deberta-v3-xsmall's shape, random weights",
            "threads": threads,
            "pairs compared": len(every),
            "largest score difference": f"{gap:.2g}",
            "load, export and first scores, s": round(loaded, 1),
        }
        for size in (1, 4, 16):
            samples: dict[str, list[float]] = {r: [] for r in scorers}
            for i in range(args.rounds + 3):
                chosen = [every[(i * size + k) % len(every)] for k in range(size)]
                for runtime, scorer in scorers.items():
                    begin = time.perf_counter()
                    scorer.score(chosen)
                    if i >= 3:  # the first calls warm up
                        samples[runtime].append((time.perf_counter() - begin) * 1000)
            figures = {r: summary(s) for r, s in samples.items()}
            for runtime, figure in figures.items():
                rows[f"{size} pair(s), {runtime}: p50 / p95 ms"] = (
                    f"{figure['p50_ms']} / {figure['p95_ms']}"
                )
            rows[f"{size} pair(s), torch / onnx p50"] = round(
                figures["torch"]["p50_ms"] / figures["onnx"]["p50_ms"], 2
            )
        report("contradiction model runtime", rows, args.json)
        if args.engine_claims:
            engine(scorers, args)
    return 0


def engine(scorers: dict[str, CrossEncoderScorer], args: argparse.Namespace) -> None:
    """``remember`` with models on through each runtime, in turns on one store."""
    import random
    from datetime import UTC, datetime, timedelta

    from belief_graph.detect import Detector
    from belief_graph.testing.offline import offline_embedder
    from bench.common import instrument
    from bench.data import BASE, drafts, person_fact

    rng = random.Random(7)
    embedder = offline_embedder()
    ns = f"bench:contradiction-runtime:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.engine_claims // 4)
    fill = connect(detector=Detector(embedder))
    fill.ingest(drafts(ns, args.engine_claims, subjects, rng), batch_size=250)
    paths = {name: instrument(Detector(embedder, scorer)) for name, scorer in scorers.items()}
    clients = {name: connect(detector=detector) for name, (detector, _) in paths.items()}
    samples: dict[str, list[float]] = {name: [] for name in paths}
    clock = BASE + timedelta(seconds=args.engine_claims + 10)
    for i in range(args.engine_samples * len(paths)):
        name = list(paths)[i % len(paths)]
        clock += timedelta(seconds=1)
        draft = person_fact(ns, subjects, rng, valid_from=clock)
        begin = time.perf_counter()
        with paths[name][1].measure():
            clients[name].remember(draft)
        samples[name].append((time.perf_counter() - begin) * 1000)
    for name, (_, stages) in paths.items():
        report(
            f"remember with models on, the classifier through {name}, "
            f"at {args.engine_claims} claims",
            {
                **summary(samples[name]),
                "median ms per stage": stages.medians(),
                "mean ms scoring per remember": round(
                    sum(s.get("score", 0.0) for s in stages.samples) / args.engine_samples, 2
                ),
                "pairs scored per remember": round(stages.pairs / args.engine_samples, 2),
            },
            args.json,
        )
    for client in clients.values():
        client.close()
    fill.close()
