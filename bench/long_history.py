"""What do remember, contract, current and search cost as one fact's versions grow?

A ``remember`` of a fact as its versions grow, three ways call by call in turns, each on a
fact of its own in a namespace of its own: every past version read before each write
(``Tuning.whole_past``, the way the engine no longer takes), the past read from the draft on
(the engine's way) by a client that reads first, and by one that keeps what it wrote
(``carry``, the default: no read; what it keeps is cut alike). Then ``current`` of the fact
(and with the models on, a ``remember`` of another fact of the same person, whose nearest slot
is the long one, and a ``search`` that finds it), and a ``contract`` that retracts its current
claim, its fact read whole and read from its newest window on. The versions are an hour apart,
written by ``ingest`` up to each mark. With ``--models`` the offline embedder and
contradiction classifier are on (every client reads first then: a draft's nearest slots are
read with its own).

    python -m bench long_history [--versions 50,500,2000] [--samples 40] [--models] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import timedelta

from belief_graph import BeliefGraph, ClaimDraft, Tuning
from belief_graph.detect import Detector
from belief_graph.testing.factories import Clock, as_history, draft
from bench.common import connect, offline_models, percentile, report
from bench.data import BASE

WAYS = {
    "every past version, read first": (True, False),
    "from the draft on, read first": (False, False),
    "from the draft on, kept": (False, True),
}

# The ways an operation on a claim reads its fact (every client of an operation reads first).
READ_FIRST = [way for way, (_, carry) in WAYS.items() if not carry]


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} / {percentile(values, 0.95):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--versions", default="50,500,2000")
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--models", action="store_true", help="the offline models on")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    marks = sorted(int(v) for v in args.versions.split(","))
    detector = Detector(*offline_models()) if args.models else None
    bg = connect(detector=detector)
    run = f"bench:history:{time.time_ns()}"
    clients: dict[str, BeliefGraph] = {}
    # The clients' clock: each draft is learned at its own hour (draft sets it).
    clock = Clock(BASE)
    for way, (whole_past, carry) in WAYS.items():
        tuning = Tuning(whole_past=whole_past, carry=carry)
        clients[way] = BeliefGraph(bg.store, detector=detector, clock=clock, tuning=tuning)
    namespaces = {way: f"{run}:{i}" for i, way in enumerate(WAYS)}
    written = dict.fromkeys(WAYS, 0)

    def version(way: str) -> ClaimDraft:
        """The next version of the way's fact, an hour after the one before."""
        n = written[way]
        written[way] += 1
        at, value = BASE + timedelta(hours=n), f"place-{n % 7}"
        text = f"The user lives in {value}."
        ns = namespaces[way]
        clock.set(at)
        return draft("the user", "lives_in", value, namespace=ns, text=text, valid_from=at)

    for mark in marks:
        for way in WAYS:
            filled = [version(way) for _ in range(max(0, mark - written[way]))]
            if filled:  # history, each draft learned at its hour
                bg.import_history(
                    [as_history(d, d.valid_from or BASE) for d in filled],
                    actor="bench",
                    batch_size=500,
                )
        times: dict[str, list[float]] = {way: [] for way in WAYS}
        for i in range(args.samples + 2):
            for way in WAYS:
                started = time.perf_counter()
                clients[way].remember(version(way))
                if i >= 2:  # the first calls of a mark fill what a client keeps
                    times[way].append((time.perf_counter() - started) * 1000)
        # An operation on the fact: its current claim retracted (then written again, untimed).
        retracted: dict[str, list[float]] = {way: [] for way in READ_FIRST}
        for _ in range(args.samples):
            for way in READ_FIRST:
                head = clients[way].current(namespaces[way], "the user", "lives_in")
                assert head is not None and not isinstance(head, list)
                started = time.perf_counter()
                clients[way].contract(namespaces[way], head.id, retract=True, reason="wrong")
                retracted[way].append((time.perf_counter() - started) * 1000)
                clients[way].remember(version(way))
        current: list[float] = []
        for _ in range(args.samples):
            started = time.perf_counter()
            bg.current(namespaces["from the draft on, read first"], "the user", "lives_in")
            current.append((time.perf_counter() - started) * 1000)
        rows = {f"remember, {way} (p50 / p95 ms)": spread(values) for way, values in times.items()}
        rows |= {f"contract, {way} (p50 / p95 ms)": spread(v) for way, v in retracted.items()}
        rows["current (p50 / p95 ms)"] = spread(current)
        if detector is not None:
            # A search whose hit is the fact's current claim.
            searched: list[float] = []
            for _ in range(args.samples):
                started = time.perf_counter()
                bg.search("Where does the user live?", namespaces["from the draft on, read first"])
                searched.append((time.perf_counter() - started) * 1000)
            rows["search, k=10 (p50 / p95 ms)"] = spread(searched)
            # A second fact of the same person, whose nearest slot is the long-lived one.
            beside: list[float] = []
            client = clients["from the draft on, read first"]
            for i in range(args.samples):
                place = f"place-{i % 7}"
                started = time.perf_counter()
                ns, text = (
                    namespaces["from the draft on, read first"],
                    f"The user works in {place}.",
                )
                client.remember(draft("the user", "works_in", place, namespace=ns, text=text))
                beside.append((time.perf_counter() - started) * 1000)
            rows["remember, a fact beside it, read first (p50 / p95 ms)"] = spread(beside)
        report(f"a fact with {mark} versions", rows, args.json)
    bg.close()
    return 0
