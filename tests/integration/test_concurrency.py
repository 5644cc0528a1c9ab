"""Eight writers hammer the same ten facts: one belief and one linear chain per fact survive."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

import pytest

from belief_graph import BeliefGraph, ClaimDraft, RevisionResult
from belief_graph.store import Store
from belief_graph.testing.graph import q

THREADS, CALLS, SLOTS = 8, 200, 10
NS = "user:crowd"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_concurrent_writers_keep_one_chain_per_slot(
    store: Store, make_bg: Callable[..., BeliefGraph]
) -> None:
    make_bg()  # wipes the database
    results: list[list[RevisionResult]] = [[] for _ in range(THREADS)]
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def writer(n: int) -> None:
        bg = BeliefGraph(store)  # each thread its own BeliefGraph over the shared Store
        start.wait()
        try:
            for i in range(CALLS):
                slot = (i * 7 + n) % SLOTS
                draft = ClaimDraft(
                    namespace=NS,
                    subject=f"person-{slot}",
                    predicate="city",
                    object=f"town-{n}-{i}",
                    text=f"Person {slot} lives in town {n}-{i}.",
                    source_type="user_stated",
                )
                results[n].append(bg.remember(draft))
        except BaseException as exc:  # surfaced in the main thread
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    flat = [r for rs in results for r in rs]
    assert len(flat) == THREADS * CALLS

    # No revision lost: one Revision per call, every returned id present.
    rids = [
        r["id"] for r in q(store, "MATCH (r:Revision {namespace: $ns}) RETURN r.id AS id", ns=NS)
    ]
    assert len(rids) == THREADS * CALLS == len(set(rids))
    assert set(rids) == {r.revision_id for r in flat}
    assert not any(r.replayed for r in flat)

    writes = Counter(r.slot_id for r in flat if r.verdict != "SAME")
    slots = q(
        store,
        "MATCH (s:Slot {namespace: $ns})<-[:IN_SLOT]-(c:Claim) "
        "OPTIONAL MATCH (c)-[:SUPERSEDES]->(p:Claim) "
        "OPTIONAL MATCH (c)<-[inc:SUPERSEDES]-() "
        "WITH s, c, collect(DISTINCT p.version) AS prev, count(DISTINCT inc) AS incoming "
        "RETURN s.id AS slot, collect({version: c.version, status: c.status, prev: prev, "
        "incoming: incoming}) AS claims",
        ns=NS,
    )
    assert len(slots) == SLOTS
    for slot in slots:
        claims = slot["claims"]
        assert [c["status"] for c in claims].count("active") == 1, slot["slot"]
        versions = sorted(c["version"] for c in claims)
        n = writes[slot["slot"]]
        assert versions == list(range(1, n + 1)), slot["slot"]
        for c in claims:
            assert c["incoming"] <= 1
            assert c["prev"] == ([] if c["version"] == 1 else [c["version"] - 1])
    assert sum(writes.values()) == THREADS * CALLS  # distinct objects: no SAME verdicts
