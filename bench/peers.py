"""How does belief-graph compare with in-process peers on the FactConsolidation stream?

The FactConsolidation stream through belief-graph and its in-process peers, in one run.

Each peer is installed from PyPI into a virtualenv of its own under the cache directory
(``<cache_dir>/peers/<name>``, kept and reused across runs) and driven by a small driver in
``bench/peer_runners/`` run as a subprocess in that virtualenv (JSON lines over stdin/stdout).
belief-graph runs in this process against a private Neo4j (or ``NEO4J_URI``), structural mode,
one ``remember`` per fact. Every engine gets the 455 facts in serial order (serial as time), then
the single-hop questions (the current value) and the point-in-time probes (the value as of a
serial). Latencies are each engine's own call time: inside the peer's process, around the
client call here (the pipe to a peer is not counted; the network to Neo4j is, as it is part
of every belief-graph call).

A peer that cannot be installed or started is reported with the reason and skipped.

    python -m bench peers [--data DIR] [--peers memvara,doxastica] [--python NAME=PATH] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from belief_graph import Claim, ClaimDraft
from belief_graph.settings import ServerSettings
from belief_graph.testing.factories import Clock, draft
from belief_graph.vocabulary import normalize_key
from bench.common import connect, percentile

BASE = datetime(2026, 1, 1, tzinfo=UTC)
DEFAULT_DATA = Path(__file__).resolve().parents[1] / "data" / "factconsolidation"
RUNNERS = Path(__file__).resolve().parent / "peer_runners"
NAMESPACE = "bench:peers"
# The first writes pay for a cold start (JIT, query plans, a new file's schema) in every engine:
# each writes this many facts into a namespace of their own before the timed stream.
WARMUP = "bench:peers-warmup"


@dataclass(frozen=True)
class Peer:
    package: str
    python: tuple[int, int]  # the oldest Python its release on PyPI accepts
    driver: str
    store: str
    extras: tuple[str, ...] = ()  # what the driver needs beside the package


PEERS = {
    # memvara needs SQLite >= 3.42 (FTS5 secure-delete): the driver falls back to this one.
    "memvara": Peer(
        "memvara", (3, 10), "memvara_runner.py", "in-process, SQLite file", ("pysqlite3-binary",)
    ),
    "doxastica": Peer("doxastica", (3, 14), "doxastica_runner.py", "in-process, in memory"),
}


class Unavailable(Exception):
    """A peer that cannot be installed or started here; the message says why."""


@dataclass
class Figures:
    engine: str
    store: str
    version: str = ""
    writes: list[float] = field(default_factory=list)
    lookups: list[float] = field(default_factory=list)
    correct: int = 0
    questions: int = 0
    pit_correct: int = 0
    probes: int = 0

    def row(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "version": self.version,
            "store": self.store,
            "write_p50_ms": round(percentile(self.writes, 0.5), 3),
            "write_p95_ms": round(percentile(self.writes, 0.95), 3),
            "lookup_p50_ms": round(percentile(self.lookups, 0.5), 3),
            "accuracy": round(self.correct / self.questions, 3),
            "point_in_time_accuracy": round(self.pit_correct / self.probes, 3),
        }


def at(serial: int) -> datetime:
    return BASE + timedelta(minutes=serial)


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def same(answer: Any, values: list[str]) -> bool:
    return answer is not None and normalize_key(str(answer)) in {normalize_key(v) for v in values}


# -- the peers' virtualenvs --------------------------------------------------------------------


def interpreter(peer: Peer, given: dict[str, str], name: str) -> str:
    """A Python the peer accepts: ``--python NAME=PATH``, this one, or ``python3.N`` on PATH."""
    if name in given:
        return given[name]
    if sys.version_info[:2] >= peer.python:
        return sys.executable
    for minor in range(20, peer.python[1] - 1, -1):
        found = shutil.which(f"python3.{minor}")
        if found:
            return found
    wanted = f"{peer.python[0]}.{peer.python[1]}"
    raise Unavailable(
        f"needs Python >= {wanted} (its releases on PyPI require it) and none was found: this "
        f"is Python {sys.version_info.major}.{sys.version_info.minor}, no python3.N >= {wanted} "
        f"on PATH; give one with --python {name}=PATH"
    )


def virtualenv(name: str, peer: Peer, root: Path, given: dict[str, str]) -> Path:
    """The peer's virtualenv with its package installed: reused when it has it, else made."""
    home = root / name
    python = home / "bin" / "python"
    names = (peer.package, *peer.extras)
    check = [str(python), "-c", f"import importlib.metadata as m; [m.version(n) for n in {names}]"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    base = interpreter(peer, given, name)
    print(
        f"peers: installing {peer.package} into {home} (once; reused afterwards)", file=sys.stderr
    )
    steps = [
        [base, "-m", "venv", "--clear", str(home)],
        [str(python), "-m", "pip", "install", "--quiet", peer.package, *peer.extras],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
            raise Unavailable(f"`{' '.join(step[-3:])}` failed: {tail}")
    return python


# -- running the stream ------------------------------------------------------------------------


def _runner_env() -> dict[str, str]:
    """This environment, less what would put this virtualenv's packages on the driver's path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PYTHONPATH": str(RUNNERS)}


class Driver:
    """A peer's driver process: one request, one answer."""

    def __init__(self, python: Path, peer: Peer) -> None:
        self.process = subprocess.Popen(
            [str(python), str(RUNNERS / peer.driver)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=RUNNERS,
            env=_runner_env(),
        )
        self.hello = self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise Unavailable(f"the driver exited (code {self.process.wait()}); see stderr above")
        answer: dict[str, Any] = json.loads(line)
        if not answer["ok"]:
            raise Unavailable(f"the driver failed: {answer['error']}")
        return answer

    def call(self, op: str, **params: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": op, **params}) + "\n")
        self.process.stdin.flush()
        return self._answer()

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.call("close")
            finally:
                self.process.wait(timeout=30)


def run_peer(
    name: str, python: Path, data: dict[str, list[dict[str, Any]]], workdir: Path, warmup: int
) -> Figures:
    peer = PEERS[name]
    driver = Driver(python, peer)
    figures = Figures(name, driver.hello.get("store", peer.store), driver.hello.get("version", ""))
    try:
        relations = sorted({f["relation"] for f in data["facts"]})
        driver.call("open", path=str(workdir), relations=relations)
        for f in data["facts"][:warmup]:
            driver.call(
                "write",
                namespace=WARMUP,
                subject=f["subject"],
                relation=f["relation"],
                object=f["object"],
                text=f["text"],
                at=at(f["serial"]).isoformat(),
            )
        for f in data["facts"]:
            written = driver.call(
                "write",
                namespace=NAMESPACE,
                subject=f["subject"],
                relation=f["relation"],
                object=f["object"],
                text=f["text"],
                at=at(f["serial"]).isoformat(),
            )
            figures.writes.append(written["ms"])
        for q in data["questions"]:
            found = driver.call(
                "current", namespace=NAMESPACE, subject=q["subject"], relation=q["relation"]
            )
            figures.lookups.append(found["ms"])
            figures.correct += same(found["value"], q["gold"])
        for p in data["probes"]:
            then = driver.call(
                "as_of",
                namespace=NAMESPACE,
                subject=p["subject"],
                relation=p["relation"],
                at=at(p["as_of_serial"]).isoformat(),
            )
            figures.pit_correct += same(then["value"], [p["expected"]])
    finally:
        driver.close()
    figures.questions, figures.probes = len(data["questions"]), len(data["probes"])
    return figures


def fact_draft(f: dict[str, Any], namespace: str, **fields: Any) -> ClaimDraft:
    """A draft of FactConsolidation's fact ``f`` (a line of facts_structured.jsonl), valid from
    its serial (the engine learns it when its clock says: set it to the serial first)."""
    moment = at(f["serial"])
    return draft(
        f["subject"],
        f["relation"],
        f["object"],
        namespace=namespace,
        text=f["text"],
        valid_from=moment,
        **fields,
    )


def run_belief_graph(data: dict[str, list[dict[str, Any]]], warmup: int) -> Figures:
    from importlib.metadata import version

    clock = Clock()  # each fact is learned at its serial's moment (set before it is told)
    bg = connect(clock=clock)
    figures = Figures(
        "belief-graph", "client-server: Neo4j over Bolt, durable commits", version("belief-graph")
    )
    ns = f"{NAMESPACE}:{datetime.now(UTC):%Y%m%d%H%M%S}"
    try:
        for f in data["facts"][:warmup]:
            clock.set(at(f["serial"]))
            bg.remember(fact_draft(f, f"{WARMUP}:{ns}"))
        for f in data["facts"]:
            written = fact_draft(f, ns, source_type="observed")
            clock.set(at(f["serial"]))
            start = time.perf_counter()
            bg.remember(written)
            figures.writes.append((time.perf_counter() - start) * 1000)
        clock.set(datetime.now(UTC))  # the questions are asked now
        for q in data["questions"]:
            start = time.perf_counter()
            belief = bg.current(ns, q["subject"], q["relation"])
            figures.lookups.append((time.perf_counter() - start) * 1000)
            figures.correct += same(belief.object if isinstance(belief, Claim) else None, q["gold"])
        for p in data["probes"]:
            moment = at(p["as_of_serial"])
            then = bg.as_of(ns, p["subject"], p["relation"], valid_at=moment, known_at=moment)
            answer = then.object if isinstance(then, Claim) else None
            figures.pit_correct += same(answer, [p["expected"]])
    finally:
        bg.close()
    figures.questions, figures.probes = len(data["questions"]), len(data["probes"])
    return figures


# -- report ------------------------------------------------------------------------------------


def ratios(row: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    """The peer's figure over belief-graph's (below 1: the peer is faster or less accurate)."""
    keys = ("write_p50_ms", "write_p95_ms", "lookup_p50_ms", "accuracy", "point_in_time_accuracy")
    return {k: round(row[k] / ours[k], 3) if ours[k] else None for k in keys}


def print_table(rows: list[dict[str, Any]], skipped: dict[str, str]) -> None:
    ours = rows[0]
    print("\n== FactConsolidation 6K, structured: belief-graph and in-process peers")
    header = f"{'engine':<14}{'write p50':>11}{'write p95':>11}{'lookup p50':>12}"
    print(header + f"{'accuracy':>10}{'as-of acc.':>12}   store")
    for row in rows:
        print(
            f"{row['engine']:<14}{row['write_p50_ms']:>9.2f}ms{row['write_p95_ms']:>9.2f}ms"
            f"{row['lookup_p50_ms']:>10.3f}ms{row['accuracy']:>10.2f}"
            f"{row['point_in_time_accuracy']:>12.2f}   {row['store']} ({row['version']})"
        )
    if len(rows) > 1:
        print("\nratio to belief-graph (peer ÷ belief-graph; below 1 = the peer is faster):")
        for row in rows[1:]:
            r = ratios(row, ours)
            print(
                f"  {row['engine']:<12} write p50 {r['write_p50_ms']}×, write p95 "
                f"{r['write_p95_ms']}×, lookup p50 {r['lookup_p50_ms']}×, accuracy "
                f"{r['accuracy']}×, as-of accuracy {r['point_in_time_accuracy']}×"
            )
    print(
        "\nbelief-graph is client-server and durable: every write is a Neo4j transaction over "
        "Bolt, committed to disk before it returns. The peers run inside the caller's process."
    )
    for name, why in skipped.items():
        print(f"not run: {name}: {why}")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--peers", default=",".join(PEERS))
    parser.add_argument("--python", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--cache-dir", type=Path, default=None)
    parser.add_argument("--warmup", type=int, default=50, help="untimed writes first")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    wanted = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = [p for p in wanted if p not in PEERS]
    if unknown:
        parser.error(f"--peers: unknown {unknown}; known: {', '.join(PEERS)}")
    given = dict(item.split("=", 1) for item in args.python)
    root = (args.cache_dir or ServerSettings().cache_dir) / "peers"
    root.mkdir(parents=True, exist_ok=True)
    data = {
        "facts": sorted(load(args.data / "facts_structured.jsonl"), key=lambda f: f["serial"]),
        "questions": load(args.data / "sh_questions_structured.jsonl"),
        "probes": load(args.data / "pit_probes.jsonl"),
    }

    load_before = os.getloadavg()[0]
    rows = [run_belief_graph(data, args.warmup).row()]
    skipped: dict[str, str] = {}
    for name in wanted:
        try:
            python = virtualenv(name, PEERS[name], root, given)
            with tempfile.TemporaryDirectory(prefix=f"peers-{name}-") as workdir:
                rows.append(run_peer(name, python, data, Path(workdir), args.warmup).row())
        except Unavailable as exc:
            skipped[name] = str(exc)
            print(f"peers: {name} not run: {exc}", file=sys.stderr)
    loadavg = {"before": round(load_before, 1), "after": round(os.getloadavg()[0], 1)}
    if args.json:
        ours = rows[0]
        for row in rows[1:]:
            row["ratio_to_belief_graph"] = ratios(row, ours)
        print(
            json.dumps(
                {"benchmark": "peers", "engines": rows, "not_run": skipped, "load_average": loadavg}
            )
        )
    else:
        print_table(rows, skipped)
        print(f"load average (1 min): {loadavg['before']} before, {loadavg['after']} after")
    return 0
