"""What does a models-on ingest of few facts with many versions each cost?

Drafts/s, CPU, the look-ups. Ten people, eight relations: every draft is one of 80 facts
("Priya lives in Berlin on weekends."; subject, relation, the rest: ``bench.data``'s
sentences), so each fact collects a version every 80 drafts or so, most claims of the namespace
are retired versions, and a batch's drafts keep writing the facts the drafts before them wrote.
``--claims`` drafts are stored first with their embeddings only (no contradiction model), then
``--ingest`` more go through one ``ingest`` call with both offline models (the default batch
size). Prints drafts/s, the CPU each side used, the verdicts, and the vector look-up statements
the ingest ran (how many, and the time they took as the client waited on them: a batch's
look-ups, and a draft's own when the drafts before it in its batch moved the slots its look-up
ranked). ``--seed`` draws another stream of sentences.

    python -m bench many_versions [--claims 3000] [--ingest 1000] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

from belief_graph import ClaimDraft, cypher
from belief_graph.detect import Detector
from belief_graph.testing.factories import draft
from bench.common import Steps, connect, cpu_budget, cpu_used, offline_models, report, stopwatch
from bench.data import BASE, NAMES, PLACES, THINGS, VERBS


def stream(ns: str, start: int, count: int, rng: random.Random) -> list[ClaimDraft]:
    """``count`` drafts of the 80 facts, an hour apart from hour ``start`` on."""
    drafts = []
    for i in range(start, start + count):
        name, relation = rng.choice(NAMES), rng.choice(VERBS).replace(" ", "_")
        rest = f"{rng.choice(THINGS)} {rng.choice(PLACES)}"
        drafts.append(
            draft(name, relation, rest, namespace=ns, valid_from=BASE + timedelta(hours=i))
        )
    return drafts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=3000)
    parser.add_argument("--ingest", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    embedder, scorer = offline_models()
    ns = f"bench:many-versions:{datetime.now(UTC):%Y%m%d%H%M%S}"
    fill = connect(detector=Detector(embedder))
    fill.ingest(stream(ns, 0, args.claims, rng), batch_size=250)
    fill.close()
    later = stream(ns, args.claims, args.ingest, rng)

    bg = connect(detector=Detector(embedder, scorer))
    steps = Steps()
    steps.on = True
    with steps.patched(), stopwatch() as elapsed, cpu_used(bg) as cpu:
        results = bg.ingest(later)
    lookups = cypher.variant("write/neighbours", bg.store.filters_in_vector_index())
    waited = steps.times.get(f"{lookups} (auto-commit)", [])
    report(
        f"ingest with models on, one call of {len(later)} drafts of 80 facts, "
        f"after {args.claims} of them",
        {
            "drafts/s": round(len(later) / elapsed[0], 1),
            **cpu_budget(cpu, len(later), elapsed[0]),
            "verdicts": dict(Counter(r.verdict for r in results).most_common()),
            "look-up statements": len(waited),
            "look-ups, seconds waited": round(sum(waited) / 1000, 2),
        },
        args.json,
    )
    bg.close()
    return 0
