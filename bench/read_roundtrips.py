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
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import neo4j
from _common import ReadLoad, connect


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
    load = ReadLoad(bg, ns, args.claims)
    rng = random.Random(3)
    one_trip = store.read

    def managed(name: str, **params: object) -> list[dict[str, object]]:
        return store._execute(name, dict(params), neo4j.RoutingControl.READ)

    load.compare(
        {"managed transaction": managed, "one auto-commit": one_trip},
        rng,
        rounds=args.rounds,
        calls=args.calls,
        as_json=args.json,
    )
    bg.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
