"""A public read as one auto-commit statement (what ``Store.read`` runs) against the same
statement in a managed read transaction (what it ran before: BEGIN and the statement, then a
COMMIT of its own), taking turns round by round on one server.

    python bench/read_roundtrips.py [--claims 20000] [--rounds 6] [--calls 300] [--json]

Prints p50/p95/p99 of ``current`` and ``as_of`` for each way, and of ``RETURN 1`` as one
auto-commit statement: the cost of a round trip with no work, below which no read can go.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import neo4j
from _common import connect, percentile, report, summary

from belief_graph import ClaimDraft

PREDICATES = ["lives_in", "works_at", "likes"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect()
    store = bg.store
    ns = f"bench:reads:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 6)
    base = datetime(2025, 1, 1, tzinfo=UTC)
    bg.ingest(
        (
            ClaimDraft(
                namespace=ns,
                subject=f"p{i % subjects}",
                predicate=PREDICATES[i % 3],
                object=f"v{i % 7}",
                text=f"p{i % subjects} {PREDICATES[i % 3]} v{i % 7}.",
                valid_from=base + timedelta(seconds=i),
                recorded_at=base + timedelta(seconds=i),
            )
            for i in range(args.claims)
        ),
        batch_size=1000,
    )
    rng = random.Random(3)
    one_trip = store.read

    def managed(name: str, **params: object) -> list[dict[str, object]]:
        return store._execute(name, dict(params), neo4j.RoutingControl.READ)

    def read_current() -> None:
        bg.current(ns, f"p{rng.randrange(subjects)}", rng.choice(PREDICATES))

    def read_as_of() -> None:
        at = base + timedelta(seconds=rng.randrange(args.claims))
        bg.as_of(ns, f"p{rng.randrange(subjects)}", rng.choice(PREDICATES), at, at)

    def floor() -> None:
        store.run_literal("RETURN 1")

    samples: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for way, read in (("managed transaction", managed), ("one auto-commit", one_trip)):
            store.read = read  # type: ignore[method-assign]
            for what, call in (
                ("current", read_current),
                ("as_of", read_as_of),
                ("RETURN 1 (the floor: a round trip, no work)", floor),
            ):
                for _ in range(args.calls):
                    began = time.perf_counter()
                    call()
                    samples.setdefault(f"{what}, {way}", []).append(
                        (time.perf_counter() - began) * 1000
                    )
    store.read = one_trip  # type: ignore[method-assign]
    for key, values in samples.items():
        row = summary(values)
        row["p99_ms"] = round(percentile(values, 0.99), 3)
        report(f"{key} at {args.claims} claims", row, args.json)
    bg.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
