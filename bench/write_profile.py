"""Where does a structural remember spend its time, statement by statement?

Ingests ``--claims`` drafts (as ``python -m bench engine`` does), then times ``--samples`` single
``remember`` calls per path, step by step: every statement the write path runs (by its name
under cypher/), the transaction's begin and commit, and the Python in between. The paths take
turns call by call, the one statement on: a random fact (stored or not), a new fact, a fact the
ingest stored, each decided by the default client (a fact it does not hold decided with no
read while a third or more of those were new; the apply finds out), blind (always) or read
first; one of 20 facts a client keeps writing, on the state its last write carried back and
read first; and the general path (lock, changes, flags, finish in one transaction). Then
PROFILEs each write statement, with the parameters of a real call, in a transaction that is
rolled back (nothing is written), and a refused apply.

    python -m bench write_profile [--claims 20000] [--samples 300] [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from belief_graph import BeliefGraph, ClaimDraft, Tuning, cypher
from belief_graph import store as store_module
from belief_graph.testing.factories import draft
from bench.common import Steps, connect, report
from bench.data import BASE, PREDICATES, drafts, fact


class _RolledBack(Exception):
    """Ends the profiled transaction: nothing it wrote is kept."""


def profiled(bg: Any, written: ClaimDraft) -> dict[str, dict[str, Any]]:
    """Run one ``remember`` with every write statement PROFILEd, then roll its transaction
    back; database hits and server time per statement."""
    found: dict[str, dict[str, Any]] = {}
    tx_run = store_module.Tx.run
    transaction = store_module.Store.transaction
    write_once = getattr(store_module.Store, "write_once", None)

    def hits(node: Any) -> int:
        return int(node.get("dbHits", 0)) + sum(hits(c) for c in node.get("children", []))

    def run(self: store_module.Tx, name: str, **params: Any) -> list[dict[str, Any]]:
        result = self._tx.run("PROFILE " + cypher.load(name), params)
        rows = [store_module._native(r.data()) for r in result]
        summary = result.consume()
        found[name] = {
            "db_hits": hits(summary.profile or {}),
            "server_ms": (summary.result_available_after or 0)
            + (summary.result_consumed_after or 0),
        }
        return rows

    def _transaction(self: store_module.Store, work: Callable[[Any], Any]) -> Any:
        def then_roll_back(tx: Any) -> Any:
            work(tx)
            raise _RolledBack()

        return transaction(self, then_roll_back)

    def _write_once(self: store_module.Store, name: str, **params: Any) -> Any:
        return self.transaction(lambda tx: tx.run(name, **params))

    store_module.Tx.run = run  # type: ignore[method-assign]
    store_module.Store.transaction = _transaction  # type: ignore[method-assign]
    store_module.Store.write_once = _write_once  # type: ignore[method-assign]
    try:
        bg.remember(written)
    except _RolledBack:
        pass
    finally:
        store_module.Tx.run = tx_run  # type: ignore[method-assign]
        store_module.Store.transaction = transaction  # type: ignore[method-assign]
        if write_once is not None:
            store_module.Store.write_once = write_once  # type: ignore[method-assign]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    bg = connect()
    ns = f"bench:profile:{datetime.now(UTC):%Y%m%d%H%M%S}"
    subjects = max(1, args.claims // 4)
    stored: list[tuple[str, str]] = []  # the facts the ingest wrote

    def recorded() -> Iterator[ClaimDraft]:
        for made in drafts(ns, args.claims, subjects, rng):
            stored.append((str(made.subject), str(made.predicate)))
            yield made

    started = time.perf_counter()
    bg.ingest(recorded(), batch_size=args.batch)
    print(f"ingested {args.claims} in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    # The paths, call by call in turn, so all see the same load, each client its own (a client
    # that reads first does not carry, and would empty what another carries; the default one
    # learns from what it writes). The facts: a random one (stored or not, as ``engine``
    # writes), a new one, one the ingest stored, and one of 20 a client keeps writing. The
    # clients: the default (a fact it does not hold decided blind while a third or more of
    # those were new), always blind, reading first, and the general path reading first.
    def client(*, one_trip: bool = True, carry: bool = True, assume_new_at: float = 1 / 3) -> Any:
        tuning = Tuning(one_trip=one_trip, carry=carry, assume_new_at=assume_new_at)
        return BeliefGraph(bg.store, tuning=tuning)

    reader, blind = client(carry=False), client(assume_new_at=0)
    paths = {
        "one statement, a random fact, the default": (client(), "random"),
        "one statement, a random fact, read first": (reader, "random"),
        "one statement, a new fact, blind": (blind, "new"),
        "one statement, a new fact, read first": (reader, "new"),
        "one statement, a stored fact, blind": (blind, "stored"),
        "one statement, a stored fact, the default": (client(), "stored"),
        "one statement, a stored fact, read first": (reader, "stored"),
        "one statement, a fact this client wrote before, carried state": (client(), "held"),
        "one statement, a fact this client wrote before, read first": (reader, "held"),
        "statement by statement, a random fact, read first": (
            client(one_trip=False, carry=False),
            "random",
        ),
    }
    names = list(paths)
    steps = {name: Steps() for name in paths}
    totals: dict[str, list[float]] = {name: [] for name in paths}
    # Each call's whole time by how many write/apply statements it took: one, or two (the
    # first refused: a fact decided as not there yet was there), and those refused statements.
    by_statements: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    refusals: dict[str, list[float]] = defaultdict(list)
    clock = BASE + timedelta(seconds=args.claims + 10)
    for i in range(len(paths) * args.samples):
        path = names[i % len(paths)]
        writer, kind = paths[path]
        clock += timedelta(seconds=1)
        if kind == "random":
            subject, predicate = f"person-{rng.randrange(subjects)}", rng.choice(PREDICATES)
        elif kind == "new":
            subject, predicate = f"new-{i}", rng.choice(PREDICATES)
        elif kind == "stored":
            subject, predicate = rng.choice(stored)
        else:
            subject, predicate = f"hot{i % len(paths)}-{(i // len(paths)) % 20}", PREDICATES[0]
        written = fact(ns, subject, predicate, f"value-{rng.randrange(4)}", clock, i)
        before = len(steps[path].times.get("write/apply (auto-commit)", ()))
        with steps[path].patched():
            steps[path].on = i >= 20 * len(paths)  # the first calls warm the plans up
            started = time.perf_counter()
            writer.remember(written)
            if steps[path].on:
                totals[path].append((time.perf_counter() - started) * 1000)
        if steps[path].on and writer.tuning.carry:
            applies = steps[path].times.get("write/apply (auto-commit)", [])
            by_statements[path][len(applies) - before].append(totals[path][-1])
            if len(applies) - before == 2:
                refusals[path].append(applies[-2])
    moment = clock + timedelta(seconds=1)
    supersede = draft(
        "person-0",
        PREDICATES[0],
        "a value never seen",
        namespace=ns,
        valid_from=moment,
    )
    # Carried, so the profiled write applies (read first, the profile would hold the read): a
    # client a statement, another statement by statement.
    profilers = {way: BeliefGraph(bg.store, tuning=Tuning(one_trip=way)) for way in (True, False)}
    for profiler in profilers.values():
        profiler.remember(supersede.model_copy(update={"object": "value-x", "text": "x"}))
    profiles: dict[bool, dict[str, dict[str, Any]]] = {}
    for path, (writer, _) in paths.items():
        one_trip = writer.tuning.one_trip
        times = totals[path]
        rows: dict[str, Any] = {"remember calls timed": len(times)}
        rows["remember, whole call (p50 / p95 ms)"] = (
            f"{statistics.median(times):.2f} / {sorted(times)[int(0.95 * len(times))]:.2f}"
        )
        accounted = 0.0
        for name, values in steps[path].times.items():
            share = len(values) / len(times)
            median = statistics.median(values)
            if not name.startswith("("):
                accounted += median * share
            rows[f"{name} (p50 ms, in {share:.0%} of calls)"] = round(median, 2)
        rows["everything else: Python and the driver (p50 ms, approx.)"] = round(
            statistics.median(times) - accounted, 2
        )
        if one_trip not in profiles:
            profiled(profilers[one_trip], supersede)  # PROFILE plans each statement anew: the
            profiles[one_trip] = profiled(profilers[one_trip], supersede)  # second run reuses
        for name, found in profiles[one_trip].items():
            rows[f"PROFILE {name} (an UPDATE): db hits / server ms"] = (
                f"{found['db_hits']} / {found['server_ms']}"
            )
        for sent, values in sorted(by_statements[path].items()):
            p95 = sorted(values)[int(0.95 * len(values))]
            rows[f"whole call in {sent} write/apply, {len(values)} calls (p50 / p95 ms)"] = (
                f"{statistics.median(values):.2f} / {p95:.2f}"
            )
        if refusals[path]:
            rows["the refused write/apply of a call in two (p50 ms)"] = round(
                statistics.median(refusals[path]), 2
            )
        if path == "one statement, a stored fact, blind":
            # A client that never wrote the fact: its apply is refused and reads the slot.
            profiled(BeliefGraph(bg.store), supersede)
            refused = profiled(BeliefGraph(bg.store), supersede)["write/apply"]
            rows["PROFILE write/apply refused (a stored fact): db hits / server ms"] = (
                f"{refused['db_hits']} / {refused['server_ms']}"
            )
        report(f"one structural remember, {path}, at {args.claims} stored drafts", rows, args.json)
    bg.close()
    return 0
