"""A short soak: threads and processes writing at once, then every §7 invariant over the graph.

The soak is the benchmark ``python -m bench soak``, run as the command it is (tests never import
the benchmarks), pointed at the session's database through ``NEO4J_URI``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.graph import wipe

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_short_soak_keeps_every_invariant(neo4j_info: ConnectionInfo, store: Store) -> None:
    wipe(store)
    env = {
        **os.environ,
        "NEO4J_URI": neo4j_info.uri,
        "NEO4J_USER": neo4j_info.user,
        "NEO4J_PASSWORD": neo4j_info.password,
        "NEO4J_DATABASE": neo4j_info.database,
    }
    args = ["--threads", "4", "--processes", "2", "--ops", "50", "--seconds", "150"]
    run = subprocess.run(
        [sys.executable, "-m", "bench", "soak", *args, "--seed", "11", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=280,
        check=False,
    )
    assert run.stdout.strip(), run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    print(
        f"\nsoak: {figures['revisions']} revisions, {figures['refused']} refused in "
        f"{figures['seconds']} s ({figures['ops_per_s']} ops/s, p95 {figures['p95_ms']} ms)"
    )
    assert figures["errors"] == []
    assert figures["violations"] == []
    assert figures["replays_checked"] > 0
    # Every worker got work done, and the mix really exercised the operations.
    assert figures["revisions"] >= 6 * 50 // 2
    assert figures["per_op"]["remember"]["ok"] > 0
    assert figures["per_op"]["contract"]["ok"] + figures["per_op"]["rollback"]["ok"] > 0
    assert run.returncode == 0, run.stderr[-3000:]
