"""Engine benchmarks with structural detection only (no models), on a real Neo4j.

1. Bulk ingest through batched transactions: claims/s.
2. ``remember`` one at a time at N stored claims: p50/p95 (a mix of NEW, UPDATE and SAME), of
   random facts and of facts this client wrote a few calls before.
3. ``current`` and ``as_of`` p50/p95 at N stored claims.

    python bench/engine.py [--claims 100000] [--batch 1000] [--samples 1000] [--json]
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import UTC, datetime, timedelta

from _common import connect, report, stopwatch, summary, timed

from belief_graph import ClaimDraft

PREDICATES = ["lives_in", "works_at", "risk_tolerance", "uses_framework", "likes"]
BASE = datetime(2025, 1, 1, tzinfo=UTC)


def drafts(ns: str, n: int, subjects: int, rng: random.Random):  # type: ignore[no-untyped-def]
    for i in range(n):
        subject = f"person-{rng.randrange(subjects)}"
        predicate = rng.choice(PREDICATES)
        value = f"value-{rng.randrange(4)}"
        yield ClaimDraft(
            namespace=ns,
            subject=subject,
            predicate=predicate,
            object=value,
            text=f"{subject} {predicate.replace('_', ' ')} {value}.",
            valid_from=BASE + timedelta(seconds=i),
            recorded_at=BASE + timedelta(seconds=i),
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    bg = connect()
    ns = f"bench:engine:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)

    done = [0]

    def progress(count: int) -> None:
        done[0] = count
        if count % (args.batch * 20) == 0:
            print(f"  ingested {count}/{args.claims}", file=sys.stderr)

    with stopwatch() as elapsed:
        results = bg.ingest(
            drafts(ns, args.claims, subjects, rng), batch_size=args.batch, progress=progress
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
        },
        args.json,
    )

    clock = [BASE + timedelta(seconds=args.claims + 10)]
    samples: list[float] = []
    import time

    for i in range(args.samples):
        subject = f"person-{rng.randrange(subjects)}"
        predicate = rng.choice(PREDICATES)
        value = f"value-{rng.randrange(4)}"
        clock[0] += timedelta(seconds=1)
        draft = ClaimDraft(
            namespace=ns,
            subject=subject,
            predicate=predicate,
            object=value,
            text=f"{subject} {predicate} {value} ({i}).",
            valid_from=clock[0],
            recorded_at=clock[0],
        )
        start = time.perf_counter()
        bg.remember(draft)
        samples.append((time.perf_counter() - start) * 1000)
    report(
        f"remember, one transaction each, at {stored} stored claims", summary(samples), args.json
    )

    # An agent keeps writing the same few facts: each remember here is of a fact this client
    # wrote a few calls before (20 facts in turn; the first round is not counted).
    hot: list[float] = []
    for i in range(args.samples + 20):
        clock[0] += timedelta(seconds=1)
        subject, value = f"agent-fact-{i % 20}", f"value-{rng.randrange(3)}"
        draft = ClaimDraft(
            namespace=ns,
            subject=subject,
            predicate=PREDICATES[0],
            object=value,
            text=f"{subject} lives in {value} ({i}).",
            valid_from=clock[0],
            recorded_at=clock[0],
        )
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


if __name__ == "__main__":
    sys.exit(main())
