"""A short soak: threads and processes writing at once, then every §7 invariant over the graph."""

from __future__ import annotations

import pytest

from belief_graph.database import ConnectionInfo
from belief_graph.store import Store
from bench.soak import Target, soak
from tests.conftest import wipe


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_short_soak_keeps_every_invariant(neo4j_info: ConnectionInfo, store: Store) -> None:
    wipe(store)
    target = Target(neo4j_info.uri, neo4j_info.auth, neo4j_info.database, "soak:test", "soak-test")
    figures = soak(target, threads=4, processes=2, ops=50, seconds=150, seed=11, replays=20)
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
