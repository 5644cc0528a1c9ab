"""A single ``remember`` with the models on: its models beside its reads, or in turn.

Beside (the default, ``remember.BESIDE``): the draft is embedded while what its fact believes
is read (write/values), and the pairs its decision will likely read are scored while its state
read looks up its nearest claims. In turn: embedding, state read with its look-up, scoring,
one after the other. The two ways take turns call by call in one client (a noisy machine weighs
on both alike) on random facts of ``bench/engine.py``'s people at ``--claims`` stored claims
(stored with their embeddings only: a fast fill), and each way's calls are also split by
whether the contradiction model was asked (an update of a single-valued fact) or not.

    python bench/beside.py [--claims 100000] [--samples 400] [--json]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from _common import report, summary
from engine import filled_with_models, person_fact

from belief_graph.detect import Detector
from belief_graph.write import remember

WARM_UP = 20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=400, help="timed calls each way")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    bg, later = filled_with_models("beside", args.claims, 1)
    namespace = later[0].namespace
    subjects = max(1, args.claims // 4)
    asked = [0]
    run = Detector._run

    def counted(self: Detector, pairs: Any) -> None:
        asked[0] += bool(pairs)
        run(self, pairs)

    Detector._run = counted  # type: ignore[method-assign]
    rng = random.Random(3)
    times: dict[bool, list[tuple[float, bool]]] = {True: [], False: []}
    for i in range(WARM_UP + 2 * args.samples):
        beside = i % 2 == 0
        remember.BESIDE = beside
        draft = person_fact(namespace, subjects, rng)
        before, began = asked[0], time.perf_counter()
        bg.remember(draft)
        if i >= WARM_UP:
            times[beside].append(((time.perf_counter() - began) * 1000, asked[0] > before))
    remember.BESIDE = True
    for beside in (True, False):
        calls = times[beside]
        rows: dict[str, Any] = {"every call": summary([ms for ms, _ in calls])}
        for scored, label in ((True, "a pair scored"), (False, "no pair scored")):
            some = [ms for ms, s in calls if s == scored]
            if some:
                rows[label] = summary(some)
        rows["mean ms"] = round(sum(ms for ms, _ in calls) / len(calls), 2)
        way = "beside its reads" if beside else "in turn"
        report(f"remember with models on, {way}, at {args.claims} claims", rows, args.json)
    bg.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
