"""What do reads through a scope chain cost against reads of one namespace?

Structural detection only, on a real Neo4j. Three layers: a project holding --claims claims, a
role holding a tenth of that, a session a hundredth (same subjects and predicates, so a chain
read finds the fact in several layers), a tenth of the project's claims policies. Then
``current`` in the project alone against ``scoped_current`` and ``scoped_as_of`` through session
> role > project: p50/p95.

    python -m bench scopes [--claims 20000] [--samples 500] [--json]
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from itertools import cycle
from typing import Any

from belief_graph import HistoricalDraft
from belief_graph.testing.factories import historical
from bench.common import connect, report, timed

PREDICATES = ["uses_framework", "package_manager", "deploys_to", "review_style", "likes"]
BASE = datetime(2025, 1, 1, tzinfo=UTC)


def drafts(
    ns: str, n: int, subjects: int, rng: random.Random, policy_share: float
) -> Iterator[HistoricalDraft]:
    """``n`` drafts of the services' facts, one second apart, ``policy_share`` of them policies,
    as history each learned at its second."""
    for i in range(n):
        subject = f"service-{rng.randrange(subjects)}"
        predicate, value = rng.choice(PREDICATES), f"value-{rng.randrange(4)}"
        kind = "policy" if rng.random() < policy_share else "evidence"
        at = BASE + timedelta(seconds=i)
        yield historical(
            subject, predicate, value, namespace=ns, kind=kind, valid_from=at, recorded_at=at
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    bg = connect()
    stamp = f"{datetime.now(UTC):%Y%m%d%H%M%S}"
    chain = [f"bench:session:{stamp}", f"bench:role:{stamp}", f"bench:project:{stamp}"]
    subjects = max(1, args.claims // 20)
    sizes = [max(1, args.claims // 100), max(1, args.claims // 10), args.claims]
    for ns, n, share in zip(chain, sizes, (0.0, 0.0, 0.1), strict=True):
        # History (scoped_as_of asks what was known a day ago).
        bg.import_history(drafts(ns, n, subjects, rng, share), actor="bench", batch_size=1000)
    facts = [(f"service-{rng.randrange(subjects)}", rng.choice(PREDICATES)) for _ in range(64)]
    picks = cycle(facts)  # the three timings (and their warm-ups) draw from one stream
    known = datetime.now(UTC) - timedelta(days=1)
    rows: dict[str, Any] = {
        "claims (session, role, project)": ", ".join(map(str, sizes)),
        "current, one namespace": timed(lambda: bg.current(chain[2], *next(picks)), args.samples),
        "scoped_current, chain of 3": timed(
            lambda: bg.scoped_current(chain, *next(picks)), args.samples
        ),
        "scoped_as_of, chain of 3": timed(
            lambda: bg.scoped_as_of(chain, *next(picks), known_at=known), args.samples
        ),
    }
    answered = [bg.scoped_current(chain, s, p) for s, p in facts]
    rows["facts answered by (session, role, project)"] = ", ".join(
        str(sum(1 for a in answered if a.beliefs and a.beliefs[0].layer == layer))
        for layer in range(3)
    )
    rows["answers with disputes"] = sum(1 for a in answered if a.disputes)
    report("reads through a scope chain", rows, args.json)
    bg.close()
    return 0
