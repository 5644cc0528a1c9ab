"""Do concurrent writers keep every invariant, and at what rate?

Soak: concurrent writers (threads and processes) mixing remember / contract / confirm /
reject / rollback over hot and cold slots, then every DESIGN §7 invariant checked over the whole
graph in plain Cypher (``belief_graph.testing.graph``).

Each worker runs a bounded number of operations (and stops early at a deadline) with
deterministic revision ids. Hot slots are shared by every worker (lock contention, pending
conflicts, rejected low-trust claims); cold slots belong to one worker. Afterwards a sample of
the operations is replayed with the same revision ids (invariant 4: nothing changes).

    python -m bench soak [--threads 4] [--processes 2] [--ops 200] [--seconds 300] [--json]

Prints operations/s held, p50/p95 latency per operation type, and the invariant violations
(target: 0). Exit status 1 when there is a violation or an unexpected error.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from belief_graph import BeliefGraph, ClaimDraft, Policy
from belief_graph.errors import ConflictError, NotFound
from belief_graph.store import Store
from belief_graph.testing.graph import check_graph, counts

HOT_SUBJECTS = ["hot-0", "hot-1", "hot-2"]
PREDICATES = ["city", "risk_tolerance", "likes"]  # single, single, multi
OBJECTS = ["Lisbon", "Porto", "Oslo", "cautious", "bold", "jazz", "tea"]
SOURCES = ["human_verified", "user_stated", "user_stated", "observed", "tool_output", "inferred"]
MIX = [("remember", 60), ("contract", 15), ("settle", 15), ("rollback", 10)]
OP_TYPES = ["remember", "contract", "confirm", "reject", "rollback"]


@dataclass(frozen=True)
class Target:
    """Where the workers write: a database and a namespace of its own."""

    uri: str
    auth: tuple[str, str] | None
    database: str
    namespace: str
    run_id: str


@dataclass
class WorkerLog:
    """What one worker did: per operation type, latencies of the calls that wrote a revision,
    refusals (ConflictError/NotFound: the engine said no, which is fine), unexpected errors."""

    name: str
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    refused: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    errors: list[str] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)  # RevisionResult dumps
    drafts: dict[str, dict[str, Any]] = field(default_factory=dict)  # revision id -> draft

    def plain(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "latencies": dict(self.latencies),
            "refused": dict(self.refused),
            "errors": self.errors,
            "results": self.results,
            "drafts": self.drafts,
        }


def _draft(target: Target, rng: random.Random, worker: str, i: int) -> ClaimDraft:
    hot = rng.random() < 0.6
    subject = rng.choice(HOT_SUBJECTS) if hot else f"cold-{worker}-{rng.randrange(20)}"
    predicate = rng.choice(PREDICATES)
    obj = rng.choice(OBJECTS[:3] if predicate == "city" else OBJECTS)
    return ClaimDraft(
        namespace=target.namespace,
        subject=subject,
        predicate=predicate,
        object=obj,
        text=f"{subject} {predicate} {obj} (worker {worker}, op {i}).",
        source_type=rng.choice(SOURCES),  # type: ignore[arg-type]
        confidence=rng.choice([0.3, 0.8, 1.0]),
        author=f"soak-{worker}",
    )


def run_worker(
    target: Target,
    worker: str,
    ops: int,
    deadline: float,
    seed: int,
    store: Store | None = None,
) -> dict[str, Any]:
    """Run up to ``ops`` operations (stopping at the wall-clock ``deadline``); the log as a dict.

    Odd-seeded workers use the ``conservative`` policy, so conflicts wait as ``pending`` and the
    others confirm or reject them.
    """
    own = store is None
    store = store or Store(target.uri, target.auth, target.database)
    bg = BeliefGraph(store, policy=Policy(preset="conservative" if seed % 2 else "recency"))
    rng = random.Random(seed)
    log = WorkerLog(worker)
    added: list[str] = []
    revisions: list[str] = []
    kinds = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    ns = target.namespace
    try:
        for i in range(ops):
            if time.time() >= deadline:
                break
            rid = f"{target.run_id}-{worker}-{i:05d}"
            kind = rng.choices(kinds, weights)[0]
            call: Callable[[], Any] | None = None
            if kind == "remember" or (kind == "contract" and not added):
                kind = "remember"
                draft = _draft(target, rng, worker, i)
                log.drafts[rid] = draft.model_dump(mode="json")

                def call(d: ClaimDraft = draft, r: str = rid) -> Any:
                    return bg.remember(d, revision_id=r)
            elif kind == "contract":
                claim_id = rng.choice(added)
                retract = rng.random() < 0.5

                def call(c: str = claim_id, r: str = rid, x: bool = retract) -> Any:
                    return bg.contract(ns, c, retract=x, revision_id=r)
            elif kind == "settle":
                waiting = bg.pending(ns)
                if not waiting:
                    continue
                claim_id = rng.choice(waiting).id
                kind = "confirm" if rng.random() < 0.5 else "reject"
                settle = bg.confirm if kind == "confirm" else bg.reject

                def call(c: str = claim_id, r: str = rid, f: Any = settle) -> Any:
                    return f(ns, c, revision_id=r)
            else:
                if not revisions:
                    continue
                undo = rng.choice(revisions[-5:])

                def call(u: str = undo, r: str = rid) -> Any:
                    return bg.rollback(ns, u, new_revision_id=r)

            assert call is not None
            started = time.perf_counter()
            try:
                result = call()
            except (ConflictError, NotFound):
                log.refused[kind] += 1
                continue
            except Exception as exc:  # reported, never swallowed silently
                log.errors.append(
                    f"{kind} {rid}: {type(exc).__module__}.{type(exc).__name__}: {exc}"
                )
                continue
            log.latencies[kind].append((time.perf_counter() - started) * 1000)
            log.results.append(result.model_dump(mode="json"))
            added.extend(result.added)
            revisions.append(result.revision_id)
    finally:
        if own:
            store.close()
    return log.plain()


def _process_worker(args: tuple[Target, str, int, float, int]) -> dict[str, Any]:
    return run_worker(*args)


def replay_sample(
    store: Store, logs: list[dict[str, Any]], sample: int, seed: int
) -> tuple[int, list[str]]:
    """Re-issue up to ``sample`` acknowledged remembers with their revision ids: each must be a
    replay returning the original result, and the graph must not change."""
    by_id = {r["revision_id"]: r for log in logs for r in log["results"]}
    drafts = [(rid, d) for log in logs for rid, d in log["drafts"].items() if rid in by_id]
    random.Random(seed).shuffle(drafts)
    bg = BeliefGraph(store)
    before = counts(store)
    problems: list[str] = []
    for rid, draft in drafts[:sample]:
        again = bg.remember(ClaimDraft.model_validate(draft), revision_id=rid).model_dump(
            mode="json"
        )
        if not again["replayed"] or {**again, "replayed": False} != by_id[rid]:
            problems.append(f"invariant 4: replaying {rid} did not return the original result")
    if counts(store) != before:
        problems.append("invariant 4: replays changed the graph")
    return min(sample, len(drafts)), problems


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def soak(
    target: Target,
    *,
    threads: int = 4,
    processes: int = 2,
    ops: int = 200,
    seconds: float = 300,
    seed: int = 7,
    replays: int = 20,
) -> dict[str, Any]:
    """Run the soak against ``target`` and check the graph; the figures as a dict."""
    deadline = time.time() + seconds
    logs: list[dict[str, Any]] = []
    store = Store(target.uri, target.auth, target.database)
    try:
        BeliefGraph(store).init_schema()
        started = time.perf_counter()
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=max(processes, 1), mp_context=ctx) as pool:
            futures = [
                pool.submit(_process_worker, (target, f"p{n}", ops, deadline, seed * 1000 + n))
                for n in range(processes)
            ]
            thread_logs: list[dict[str, Any]] = [{} for _ in range(threads)]

            def in_thread(n: int) -> None:
                thread_logs[n] = run_worker(
                    target, f"t{n}", ops, deadline, seed * 1000 + 100 + n, store=store
                )

            workers = [threading.Thread(target=in_thread, args=(n,)) for n in range(threads)]
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            logs.extend(thread_logs)
            logs.extend(f.result() for f in futures)
        elapsed = time.perf_counter() - started
        results = [r for log in logs for r in log["results"]]
        violations = check_graph(store, results)
        replayed, replay_problems = replay_sample(store, logs, replays, seed)
        violations += replay_problems
    finally:
        store.close()

    per_op: dict[str, dict[str, Any]] = {}
    for kind in OP_TYPES:
        samples = [x for log in logs for x in log["latencies"].get(kind, [])]
        refused = sum(log["refused"].get(kind, 0) for log in logs)
        per_op[kind] = {
            "ok": len(samples),
            "refused": refused,
            "p50_ms": round(_percentile(samples, 0.5), 2) if samples else None,
            "p95_ms": round(_percentile(samples, 0.95), 2) if samples else None,
        }
    done = len(results)
    refusals = sum(v["refused"] for v in per_op.values())
    all_samples = [x for log in logs for v in log["latencies"].values() for x in v]
    return {
        "namespace": target.namespace,
        "threads": threads,
        "processes": processes,
        "ops_per_worker": ops,
        "seconds": round(elapsed, 2),
        "revisions": done,
        "refused": refusals,
        "ops_per_s": round((done + refusals) / elapsed, 1) if elapsed else None,
        "revisions_per_s": round(done / elapsed, 1) if elapsed else None,
        "p50_ms": round(_percentile(all_samples, 0.5), 2) if all_samples else None,
        "p95_ms": round(_percentile(all_samples, 0.95), 2) if all_samples else None,
        "per_op": per_op,
        "replays_checked": replayed,
        "errors": [e for log in logs for e in log["errors"]],
        "violations": violations,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--ops", type=int, default=200, help="operations per worker")
    parser.add_argument("--seconds", type=float, default=300, help="stop workers after this")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--namespace", default=None, help="default: a fresh soak:<run> one")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    from belief_graph.server.provide import provide

    info = provide(start=True, for_tests=True)
    run_id = f"soak{int(time.time())}{os.getpid() % 1000:03d}"
    target = Target(info.uri, info.auth, info.database, args.namespace or f"soak:{run_id}", run_id)
    figures = soak(
        target,
        threads=args.threads,
        processes=args.processes,
        ops=args.ops,
        seconds=args.seconds,
        seed=args.seed,
    )
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"\n== soak ({figures['threads']} threads + {figures['processes']} processes)")
        for key in (
            "namespace",
            "seconds",
            "revisions",
            "refused",
            "ops_per_s",
            "p50_ms",
            "p95_ms",
            "replays_checked",
        ):
            print(f"  {key:<16} {figures[key]}")
        print(f"  {'op':<10} {'ok':>6} {'refused':>8} {'p50 ms':>9} {'p95 ms':>9}")
        for kind, row in figures["per_op"].items():
            print(
                f"  {kind:<10} {row['ok']:>6} {row['refused']:>8} "
                f"{row['p50_ms'] if row['p50_ms'] is not None else '-':>9} "
                f"{row['p95_ms'] if row['p95_ms'] is not None else '-':>9}"
            )
        print(f"  errors           {len(figures['errors'])}")
        for line in figures["errors"][:10]:
            print(f"    {line}")
        print(f"  violations       {len(figures['violations'])}")
        for line in figures["violations"][:20]:
            print(f"    {line}")
    return 1 if figures["violations"] or figures["errors"] else 0
