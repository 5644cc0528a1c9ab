"""How fast are the CLI's import, lineage and start-up?

CLI benchmarks: `import` throughput, `lineage` of a 50-version slot, `--help` start-up.

    python -m bench cli [--claims 100000] [--json]

Without ``NEO4J_URI`` it runs on a private Neo4j started for this run (never the user's own);
with it, on that database.

`import` runs the real command in a subprocess (models off, no embeddings) on a generated JSONL:
many subjects × predicates, about one line in five an update of an earlier fact and one in ten a
repetition (SAME). It runs batched (`bg.ingest`, the default) and, on a smaller file,
`--one-by-one` (one `remember` transaction per claim) for comparison. Each run writes into a fresh
namespace; the data stays in the database afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CLI = [sys.executable, "-m", "belief_graph.cli"]


def generate(path: Path, claims: int, seed: int = 1) -> dict[str, int]:
    """Write ``claims`` ClaimDraft lines; returns how many are new facts, updates, repeats."""
    rng = random.Random(seed)
    predicates = [f"attribute_{i:02d}" for i in range(20)]
    facts: list[tuple[str, str, str]] = []
    kinds = {"new": 0, "update": 0, "same": 0}
    with path.open("w", encoding="utf-8") as out:
        for n in range(claims):
            roll = rng.random()
            if facts and roll < 0.2:
                subject, predicate, _ = rng.choice(facts)
                obj, kind = f"value {n}", "update"
            elif facts and roll < 0.3:
                subject, predicate, obj = rng.choice(facts)
                kind = "same"
            else:
                subject, predicate, obj = f"entity-{n}", rng.choice(predicates), f"value {n}"
                facts.append((subject, predicate, obj))
                kind = "new"
            kinds[kind] += 1
            line = {
                "subject": subject,
                "predicate": predicate,
                "object": obj,
                "text": f"{subject} has {predicate.replace('_', ' ')} {obj}.",
                "source_type": "observed",
                "confidence": 0.9,
            }
            out.write(json.dumps(line) + "\n")
    return kinds


def run_import(path: Path, namespace: str, *extra: str) -> dict[str, Any]:
    """`belief-graph import` in a subprocess; its --json summary plus the process wall time."""
    env = {**os.environ, "BELIEF_GRAPH_MODELS": "false"}
    started = time.perf_counter()
    done = subprocess.run(
        [*CLI, "import", str(path), "--namespace", namespace, "--no-progress", "--json", *extra],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"import failed: {done.stderr.strip()}")
    summary: dict[str, Any] = json.loads(done.stdout)
    summary["process_seconds"] = round(wall, 2)
    return summary


def lineage_timing(namespace: str, versions: int = 50, repeat: int = 10) -> dict[str, float]:
    """Median wall time of `lineage` (in process, after start-up) on a slot of ``versions``."""
    from typer.testing import CliRunner

    from belief_graph.cli.app import app

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "chain.jsonl"
        path.write_text(
            "".join(
                json.dumps(
                    {
                        "subject": "service",
                        "predicate": "version",
                        "object": f"v{i}",
                        "text": f"The service runs version {i}.",
                    }
                )
                + "\n"
                for i in range(versions)
            ),
            encoding="utf-8",
        )
        run_import(path, namespace)
    runner = CliRunner()
    current = runner.invoke(app, ["current", namespace, "service", "version", "--json"])
    head = json.loads(current.stdout)["id"]
    runner.invoke(app, ["lineage", "-n", namespace, head])  # warm: imports, driver, query plan
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = runner.invoke(app, ["lineage", "-n", namespace, head])
        samples.append(time.perf_counter() - started)
        assert result.exit_code == 0, result.output
    assert result.stdout.count(" v") >= versions
    json_samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        runner.invoke(app, ["lineage", "-n", namespace, head, "--json"])
        json_samples.append(time.perf_counter() - started)
    return {
        "versions": versions,
        "tree_median_ms": round(statistics.median(samples) * 1000, 1),
        "json_median_ms": round(statistics.median(json_samples) * 1000, 1),
    }


def help_timing(repeat: int = 20) -> dict[str, float]:
    """Median and min wall time of `belief-graph --help` in a fresh interpreter."""
    samples = []
    for _ in range(repeat + 2):
        started = time.perf_counter()
        subprocess.run([*CLI, "--help"], capture_output=True, check=True)
        samples.append(time.perf_counter() - started)
    samples = samples[2:]  # the first runs warm the OS file cache
    return {
        "runs": repeat,
        "median_ms": round(statistics.median(samples) * 1000, 1),
        "min_ms": round(min(samples) * 1000, 1),
    }


def use_private_database() -> None:
    """Point this process and its CLI subprocesses at NEO4J_URI, else at a private Neo4j."""
    if os.environ.get("NEO4J_URI"):
        return
    from belief_graph.server.provide import provide

    info = provide(start=True, for_tests=True)
    os.environ.update(
        NEO4J_URI=info.uri,
        NEO4J_USER=info.user,
        NEO4J_PASSWORD=info.password,
        NEO4J_DATABASE=info.database,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--claims", type=int, default=100_000, help="lines for the batched import")
    parser.add_argument(
        "--one-by-one-claims", type=int, default=5_000, help="lines for the --one-by-one import"
    )
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    use_private_database()
    stamp = time.strftime("%Y%m%d%H%M%S")
    report: dict[str, Any] = {"help": help_timing()}
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "claims.jsonl"
        report["generated"] = generate(big, args.claims)
        report["import_batched"] = run_import(
            big, f"bench:cli-{stamp}", "--batch-size", str(args.batch_size)
        )
        if args.one_by_one_claims:
            small = Path(tmp) / "small.jsonl"
            generate(small, args.one_by_one_claims, seed=2)
            report["import_one_by_one"] = run_import(small, f"bench:cli1-{stamp}", "--one-by-one")
    report["lineage"] = lineage_timing(f"bench:lineage-{stamp}")
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(
        f"--help start-up: median {report['help']['median_ms']} ms "
        f"(min {report['help']['min_ms']} ms, {report['help']['runs']} runs)"
    )
    for key in ("import_batched", "import_one_by_one"):
        if key in report:
            r = report[key]
            print(
                f"{key}: {r['claims']} claims in {r['seconds']} s = "
                f"{r['claims_per_second']} claims/s (process {r['process_seconds']} s; "
                f"verdicts {r['verdicts']})"
            )
    lin = report["lineage"]
    print(
        f"lineage of a {lin['versions']}-version slot: median {lin['tree_median_ms']} ms (tree), "
        f"{lin['json_median_ms']} ms (--json), 10 runs after start-up"
    )
    return 0
