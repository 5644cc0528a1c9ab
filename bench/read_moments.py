"""A read's moments as ISO-8601 text (what ``current`` and ``as_of`` send and take back) against
native datetimes (what they did before: the driver packing the two moments of the question and
hydrating every moment of each claim returned), taking turns round by round on one server.

    python bench/read_moments.py [--claims 20000] [--rounds 6] [--calls 300] [--json]

The native way runs the shipped ``read/as_of_claims`` rewritten back (no ``datetime()`` of the
parameters, no ``toString`` of the claim's moments), as one auto-commit statement like the
shipped one, under the same public calls; both ways are checked to return the same claims.
Prints p50/p95/p99 of ``current`` and ``as_of`` each way, and of ``RETURN 1`` (a round trip
with no work, below which no read can go).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import neo4j
from _common import ReadLoad, connect

from belief_graph import cypher
from belief_graph.store import _native


def native_text() -> str:
    """``read/as_of_claims`` as it was before its moments travelled as text: the moments go in
    and come back as native datetimes."""
    text = cypher.load("read/as_of_claims")
    moments = "WITH datetime($valid_at) AS valid_at, datetime($known_at) AS known_at\n"
    assert moments in text
    text = text.replace(moments, "WITH $valid_at AS valid_at, $known_at AS known_at\n")
    native, n = re.subn(
        r"RETURN c \{.*?\} AS claim", "RETURN c {.*, embedding: null} AS claim", text, flags=re.S
    )
    assert n == 1
    return native


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bg = connect()
    store = bg.store
    ns = f"bench:moments:{datetime.now(UTC):%Y%m%d%H%M%S}"
    load = ReadLoad(bg, ns, args.claims)
    shipped = store.read
    old = native_text()

    def native(name: str, **params: Any) -> list[dict[str, Any]]:
        assert name == "read/as_of_claims", name
        for moment in ("valid_at", "known_at"):
            params[moment] = datetime.fromisoformat(params[moment])
        with store._session(neo4j.READ_ACCESS) as session:
            return [_native(r.data()) for r in session.run(old, params)]  # type: ignore[arg-type]

    rng = random.Random(3)

    for _ in range(50):  # the same answers both ways
        state = rng.getstate()
        store.read = native  # type: ignore[method-assign]
        before = load.as_of(rng), load.current(rng)
        rng.setstate(state)
        store.read = shipped  # type: ignore[method-assign]
        assert (load.as_of(rng), load.current(rng)) == before

    load.compare(
        {"native datetimes (before)": native, "ISO-8601 text": shipped},
        rng,
        rounds=args.rounds,
        calls=args.calls,
        as_json=args.json,
    )
    bg.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
