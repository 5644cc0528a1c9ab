"""A fact with a long history: what a ``remember`` of it costs as its versions grow, with every
past version read before each write (``Writer.whole_past``, the way before 2026-12-04) and with
the past read from the draft on (the engine's way), by clients that read first, and by one that
keeps what it wrote (``carry``, the default: no read; what it keeps is cut alike), call by call
in turns, each way on a fact of its own in a namespace of its own. Then ``current`` of the
fact (and with the models on, a ``remember`` of another fact of the same person, whose nearest
slot is the long one, and a ``search`` that finds it), and a ``contract`` that retracts its
current claim, its fact read whole and read from its newest window on. The versions are an
hour apart, written by ``ingest`` up to each mark. With ``--models`` the offline embedder and
contradiction classifier are on (every client reads first then: a draft's nearest slots are
read with its own).
python bench/long_history.py [--versions 50,500,2000] [--samples 40] [--models] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import timedelta

from _common import connect, percentile, report
from engine import BASE, offline_models

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.detect import Detector
from belief_graph.testing.factories import Clock, as_history

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
        client = BeliefGraph(bg.store, detector=detector, clock=clock)
        client._writer.whole_past, client._writer.carry = whole_past, carry
        clients[way] = client
    namespaces = {way: f"{run}:{i}" for i, way in enumerate(WAYS)}
    written = dict.fromkeys(WAYS, 0)

    def draft(way: str) -> ClaimDraft:
        n = written[way]
        written[way] += 1
        at = BASE + timedelta(hours=n)
        value = f"place-{n % 7}"
        clock.set(at)
        return ClaimDraft(
            namespace=namespaces[way],
            subject="the user",
            predicate="lives_in",
            object=value,
            text=f"The user lives in {value}.",
            valid_from=at,
        )

    for mark in marks:
        for way in WAYS:
            filled = [draft(way) for _ in range(max(0, mark - written[way]))]
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
                clients[way].remember(draft(way))
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
                clients[way].remember(draft(way))
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
                client.remember(
                    ClaimDraft(
                        namespace=namespaces["from the draft on, read first"],
                        subject="the user",
                        predicate="works_in",
                        object=place,
                        text=f"The user works in {place}.",
                    )
                )
                beside.append((time.perf_counter() - started) * 1000)
            rows["remember, a fact beside it, read first (p50 / p95 ms)"] = spread(beside)
        report(f"a fact with {mark} versions", rows, args.json)
    bg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
