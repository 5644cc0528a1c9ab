"""Where a structural ``remember`` spends its time: per-statement timings and Cypher PROFILE.

Ingests ``--claims`` drafts (as bench/engine.py does), then times ``--samples`` single
``remember`` calls per path, step by step: every statement the write path runs (by its name
under cypher/), the transaction's begin and commit, and the Python in between. The paths take
turns call by call: the one statement on a random fact, with no read (the apply finds out
whether the fact was there) and read first; on one of 20 facts a client keeps writing, with the
state its last write carried back (no read) and read first; and the general path (lock, changes,
flags, finish in one transaction). Then PROFILEs each write statement, with the parameters of a
real call, in a transaction that is rolled back (nothing is written), and a refused apply.

    python bench/write_profile.py [--claims 20000] [--samples 300] [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from _common import connect, report
from engine import BASE, PREDICATES, drafts, fact

from belief_graph import BeliefGraph, ClaimDraft, cypher
from belief_graph import store as store_module


class Steps:
    """Wall-clock time per step of the calls made while ``on``."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.on = False

    def add(self, name: str, started: float) -> None:
        if self.on:
            self.times[name].append((time.perf_counter() - started) * 1000)

    @contextmanager
    def patched(self) -> Iterator[None]:
        """Time every statement, transaction and query execution of the store module."""
        steps = self
        tx_run = store_module.Tx.run
        execute = store_module.Store._execute
        transaction = store_module.Store.transaction
        autocommit = getattr(store_module.Store, "_autocommit", None)

        def run(self: store_module.Tx, name: str, **params: Any) -> list[dict[str, Any]]:
            started = time.perf_counter()
            try:
                return tx_run(self, name, **params)
            finally:
                steps.add(name, started)

        def _execute(self: store_module.Store, name: str, params: dict[str, Any], routing: Any):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            try:
                return execute(self, name, params, routing)
            finally:
                steps.add(name, started)

        def _transaction(self: store_module.Store, work: Callable[[Any], Any]) -> Any:
            started = time.perf_counter()
            inside = [0.0]

            def timed_work(tx: Any) -> Any:
                began = time.perf_counter()
                try:
                    return work(tx)
                finally:
                    inside[0] += time.perf_counter() - began

            try:
                return transaction(self, timed_work)
            finally:
                steps.add("(transaction, all of it)", started)
                steps.add("begin + commit of the transaction", started + inside[0])

        def _autocommit(self: store_module.Store, name: str, params: Any, failed: Any) -> Any:
            started = time.perf_counter()
            try:
                return autocommit(self, name, params, failed)  # type: ignore[misc]
            finally:
                steps.add(f"{name} (auto-commit)", started)

        store_module.Tx.run = run  # type: ignore[method-assign]
        store_module.Store._execute = _execute  # type: ignore[method-assign]
        store_module.Store.transaction = _transaction  # type: ignore[method-assign]
        if autocommit is not None:
            store_module.Store._autocommit = _autocommit  # type: ignore[method-assign]
        try:
            yield
        finally:
            store_module.Tx.run = tx_run  # type: ignore[method-assign]
            store_module.Store._execute = execute  # type: ignore[method-assign]
            store_module.Store.transaction = transaction  # type: ignore[method-assign]
            if autocommit is not None:
                store_module.Store._autocommit = autocommit  # type: ignore[method-assign]


class _RolledBack(Exception):
    """Ends the profiled transaction: nothing it wrote is kept."""


def profiled(bg: Any, draft: ClaimDraft) -> dict[str, dict[str, Any]]:
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
        bg.remember(draft)
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
    started = time.perf_counter()
    bg.ingest(drafts(ns, args.claims, subjects, rng), batch_size=args.batch)
    print(f"ingested {args.claims} in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    # The paths, call by call in turn, so all see the same load, each client its own (a client
    # that reads first does not carry, and would empty what another carries): a random fact
    # decided with no read (taken as not there yet unless this client wrote it: the apply finds
    # out, and a refused one returns the slot) and the same read first; one of 20 facts a
    # client keeps writing, decided on the state its last write carried back, and read first;
    # and the general path (statement by statement, read first) on a random fact.
    def client(one_trip: bool, carry: bool) -> BeliefGraph:
        made = BeliefGraph(bg.store)
        made._writer.one_trip, made._writer.carry = one_trip, carry
        return made

    unread, reader, general = client(True, True), client(True, False), client(False, False)
    paths = {
        "one statement, a random fact, no read": (unread, True),
        "one statement, a random fact, read first": (reader, True),
        "one statement, a fact this client wrote before, carried state": (unread, False),
        "one statement, a fact this client wrote before, read first": (reader, False),
        "statement by statement, a random fact, read first": (general, True),
    }
    names = list(paths)
    steps = {name: Steps() for name in paths}
    totals: dict[str, list[float]] = {name: [] for name in paths}
    # A random fact with no read, by how many statements it took: one (a new fact), two (one
    # written before: the first apply refused).
    by_statements: dict[int, list[float]] = defaultdict(list)
    refusals: list[float] = []  # the refused statement of those that took two
    clock = BASE + timedelta(seconds=args.claims + 10)
    for i in range(len(paths) * args.samples):
        path = names[i % len(paths)]
        writer, random_fact = paths[path]
        clock += timedelta(seconds=1)
        if random_fact:
            subject, predicate = f"person-{rng.randrange(subjects)}", rng.choice(PREDICATES)
        else:
            subject, predicate = f"hot{i % len(paths)}-{(i // len(paths)) % 20}", PREDICATES[0]
        draft = fact(ns, subject, predicate, f"value-{rng.randrange(4)}", clock, i)
        applies = len(steps[path].times.get("write/apply (auto-commit)", ()))
        with steps[path].patched():
            steps[path].on = i >= 20 * len(paths)  # the first calls warm the plans up
            started = time.perf_counter()
            writer.remember(draft)
            if steps[path].on:
                totals[path].append((time.perf_counter() - started) * 1000)
        if steps[path].on and writer is unread and random_fact:
            sent = len(steps[path].times.get("write/apply (auto-commit)", ())) - applies
            by_statements[sent].append(totals[path][-1])
            if sent == 2:
                refusals.append(steps[path].times["write/apply (auto-commit)"][-2])
    supersede = ClaimDraft(
        namespace=ns,
        subject="person-0",
        predicate=PREDICATES[0],
        object="a value never seen",
        text="person-0 lives in a value never seen.",
        valid_from=clock + timedelta(seconds=1),
        recorded_at=clock + timedelta(seconds=1),
    )
    # Carried, so the profiled write applies (read first, the profile would hold the read).
    bg.remember(supersede.model_copy(update={"object": "value-x", "text": "x"}))
    profiles: dict[bool, dict[str, dict[str, Any]]] = {}
    for path, (writer, _) in paths.items():
        one_trip = writer._writer.one_trip
        bg._writer.one_trip = one_trip
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
            profiled(bg, supersede)  # PROFILE plans each statement anew: the second run reuses
            profiles[one_trip] = profiled(bg, supersede)
        for name, found in profiles[one_trip].items():
            rows[f"PROFILE {name} (an UPDATE): db hits / server ms"] = (
                f"{found['db_hits']} / {found['server_ms']}"
            )
        if path in names[:1]:
            for sent, values in sorted(by_statements.items()):
                p95 = sorted(values)[int(0.95 * len(values))]
                rows[f"whole call in {sent} statement(s), {len(values)} calls (p50 / p95 ms)"] = (
                    f"{statistics.median(values):.2f} / {p95:.2f}"
                )
            rows["the refused write/apply of a call in two statements (p50 ms)"] = round(
                statistics.median(refusals), 2
            )
            # A client that never wrote the fact: its apply is refused and reads the slot.
            profiled(BeliefGraph(bg.store), supersede)
            refused = profiled(BeliefGraph(bg.store), supersede)["write/apply"]
            rows["PROFILE write/apply refused (a fact written before): db hits / server ms"] = (
                f"{refused['db_hits']} / {refused['server_ms']}"
            )
        report(f"one structural remember, {path}, at {args.claims} stored drafts", rows, args.json)
    bg.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
