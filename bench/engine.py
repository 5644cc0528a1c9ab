"""How fast are ingest, remember, current and as_of at N claims, structural or models on?

On a real Neo4j, structural detection only, or with the offline models (``--models``):

1. Bulk ingest through batched transactions: claims/s.
2. ``remember`` one at a time at N stored claims: p50/p95 (a mix of NEW, UPDATE and SAME), of
   random facts and of facts this client wrote a few calls before.
3. ``current`` and ``as_of`` p50/p95 at N stored claims.

With ``--models`` (the offline embedder and contradiction classifier the tests use): the N
claims are stored with their embeddings only (fast to fill), then ``--ingest`` more drafts go
through ``ingest`` with both models (drafts/s; a call per batch, the engine's path and the one
before it in turns), then ``--ingest`` more in one call at the default batch size (pipelined:
what a user's ingest of many drafts gets), then ``remember`` is sampled with both models; each
figure comes with the time per stage (embed, neighbours, read, score, plan, write: see
``bench.common.instrument``) and the pairs the contradiction model scored.

    python -m bench engine [--claims 100000] [--batch 1000] [--samples 1000] [--json]
    python -m bench engine --models [--claims 100000] [--ingest 2000] [--samples 300] [--json]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta

from belief_graph.detect import Detector
from bench.common import (
    OnePairPerCall,
    connect,
    cpu_budget,
    cpu_used,
    instrument,
    offline_models,
    report,
    stopwatch,
    summary,
    timed,
)
from bench.data import BASE, PREDICATES, drafts, fact, history, person_fact, random_fact


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--models", action="store_true", help="the offline models on")
    parser.add_argument("--ingest", type=int, default=2000, help="drafts ingested, models on")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.models:
        return with_models(args)
    rng = random.Random(7)
    bg = connect()
    ns = f"bench:engine:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)

    done = [0]

    def progress(count: int) -> None:
        done[0] = count
        if count % (args.batch * 20) == 0:
            print(f"  ingested {count}/{args.claims}", file=sys.stderr)

    with stopwatch() as elapsed, cpu_used(bg) as cpu:
        # ingest's pipeline, each draft keeping its moment (the as_of reads below ask about it)
        results = bg.import_history(
            history(ns, args.claims, subjects, rng),
            actor="bench",
            batch_size=args.batch,
            progress=progress,
        )
    verdicts: dict[str, int] = {}
    for r in results:
        verdicts[r.verdict or "-"] = verdicts.get(r.verdict or "-", 0) + 1
    stored = sum(r["claims"] for r in bg.store.read("admin/namespace_stats", namespace=ns))
    report(
        "bulk ingest (batched transactions, no embeddings)",
        {
            "drafts": args.claims,
            "batch size": args.batch,
            "claims stored": stored,
            "verdicts": verdicts,
            "seconds": round(elapsed[0], 2),
            "drafts/s": round(args.claims / elapsed[0]),
            **cpu_budget(cpu, args.claims, elapsed[0]),
        },
        args.json,
    )

    clock = [BASE + timedelta(seconds=args.claims + 10)]
    samples: list[float] = []
    for i in range(args.samples):
        clock[0] += timedelta(seconds=1)
        draft = random_fact(ns, subjects, rng, clock[0], i)
        start = time.perf_counter()
        bg.remember(draft)
        samples.append((time.perf_counter() - start) * 1000)
    report(
        f"remember, one transaction each, at {stored} stored claims",
        # A full pass of the collector the ingest deferred would land in one of these.
        {**summary(samples), "slowest of the first 20": round(max(samples[:20]), 3)},
        args.json,
    )

    # An agent keeps writing the same few facts: each remember here is of a fact this client
    # wrote a few calls before (20 facts in turn; the first round is not counted).
    hot: list[float] = []
    for i in range(args.samples + 20):
        clock[0] += timedelta(seconds=1)
        value = f"value-{rng.randrange(3)}"
        draft = fact(ns, f"agent-fact-{i % 20}", PREDICATES[0], value, clock[0], i)
        start = time.perf_counter()
        bg.remember(draft)
        if i >= 20:
            hot.append((time.perf_counter() - start) * 1000)
    report(
        f"remember of a fact this client wrote before, at {stored} stored claims",
        summary(hot),
        args.json,
    )

    def read_current() -> None:
        bg.current(ns, f"person-{rng.randrange(subjects)}", rng.choice(PREDICATES))

    def read_as_of() -> None:
        at = BASE + timedelta(seconds=rng.randrange(args.claims))
        bg.as_of(
            ns,
            f"person-{rng.randrange(subjects)}",
            rng.choice(PREDICATES),
            valid_at=at,
            known_at=at,
        )

    report(f"current at {stored} claims", timed(read_current, args.samples), args.json)
    report(f"as_of at {stored} claims", timed(read_as_of, args.samples), args.json)
    bg.close()
    return 0


def with_models(args: argparse.Namespace) -> int:
    """Both paths on one store, interleaved (so a noisy machine weighs on both alike): the
    models path as it is (``lazy``: scores read only where they decide, in one batched call)
    and as it was (every pair scored up front, one model run per pair)."""
    rng = random.Random(7)
    embedder, scorer = offline_models()
    fill = connect(detector=Detector(embedder))
    ns = f"bench:engine-models:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)

    def progress(count: int) -> None:
        if count % (args.batch * 20) == 0:
            print(f"  filled {count}/{args.claims}", file=sys.stderr)

    with stopwatch() as elapsed:
        fill.ingest(
            drafts(ns, args.claims, subjects, rng), batch_size=args.batch, progress=progress
        )
    report(
        "fill: ingest with embeddings only (no contradiction model)",
        {"drafts": args.claims, "seconds": round(elapsed[0], 1)},
        args.json,
    )

    paths = {
        "now": instrument(Detector(embedder, scorer)),
        "before": instrument(Detector(embedder, OnePairPerCall(scorer), lazy=False)),
    }
    clients = {name: connect(detector=detector) for name, (detector, _) in paths.items()}
    clock = BASE + timedelta(seconds=args.claims + 10)
    batch = min(args.batch, 250)
    more = [
        d.model_copy(update={"valid_from": clock + timedelta(seconds=i)})
        for i, d in enumerate(drafts(ns, args.ingest, subjects, rng))
    ]
    seconds = dict.fromkeys(paths, 0.0)
    counts = dict.fromkeys(paths, 0)
    for start in range(0, len(more), batch):
        # The two paths take turns, each with a batch of its own.
        name = list(paths)[(start // batch) % 2]
        stages = paths[name][1]
        began = time.perf_counter()
        with stages.measure():
            clients[name].ingest(more[start : start + batch], batch_size=batch)
        seconds[name] += time.perf_counter() - began
        counts[name] += len(more[start : start + batch])
    for name, (_, stages) in paths.items():
        ingested = counts[name]
        report(
            f"ingest with models on ({name}), {batch} per transaction, into {args.claims} claims",
            {
                "drafts": ingested,
                "drafts/s": round(ingested / seconds[name]) if seconds[name] else 0,
                "seconds per stage": stages.totals(),
                "pairs scored per draft": round(stages.pairs / max(1, ingested), 2),
                "scorer calls per draft": round(stages.scorer_calls / max(1, ingested), 2),
            },
            args.json,
        )
        stages.samples.clear()
        stages.pairs = stages.scorer_calls = 0

    # What a user's ingest of many drafts gets: one call, the default batch, pipelined (the next
    # batch read and planned while this one is on the server), the engine's detector as it is.
    user = connect(detector=Detector(embedder, scorer))
    later = clock + timedelta(seconds=len(more))
    stream = [
        d.model_copy(update={"valid_from": later + timedelta(seconds=i)})
        for i, d in enumerate(drafts(ns, args.ingest, subjects, rng))
    ]
    with stopwatch() as elapsed, cpu_used(user) as cpu:
        user.ingest(stream)
    report(
        f"ingest with models on, one call of {len(stream)} drafts, "
        f"{user.default_batch_size} per transaction (the default), pipelined",
        {
            "drafts/s": round(len(stream) / elapsed[0]),
            **cpu_budget(cpu, len(stream), elapsed[0]),
        },
        args.json,
    )
    user.close()

    clock = datetime.now(UTC) - timedelta(days=1)
    samples: dict[str, list[float]] = {name: [] for name in paths}
    for i in range(args.samples * 2):
        name = list(paths)[i % 2]
        clock += timedelta(seconds=1)
        draft = person_fact(ns, subjects, rng, valid_from=clock)
        start_time = time.perf_counter()
        with paths[name][1].measure():
            clients[name].remember(draft)
        samples[name].append((time.perf_counter() - start_time) * 1000)
    total = args.claims + 2 * args.ingest
    for name, (_, stages) in paths.items():
        report(
            f"remember with models on ({name}), one transaction each, at {total} claims",
            {
                **summary(samples[name]),
                "median ms per stage": stages.medians(),
                "pairs scored per remember": round(stages.pairs / args.samples, 2),
                "scorer calls per remember": round(stages.scorer_calls / args.samples, 2),
            },
            args.json,
        )
    for client in clients.values():
        client.close()
    fill.close()
    return 0
