"""Two namespaces with identical subjects, predicates and texts: nothing ever crosses over."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.detect import Detector
from belief_graph.errors import NotFound
from belief_graph.store import Store
from belief_graph.testing.graph import namespace_snapshot as snapshot
from belief_graph.testing.graph import q
from belief_graph.testing.offline import offline_embedder
from belief_graph.transfer.snapshot import export_namespace

A, B = "tenant:a", "tenant:b"
FACTS = [
    ("ana", "city", "Lisbon"),
    ("ana", "city", "Porto"),
    ("ana", "likes", "jazz"),
    ("ben", "risk_tolerance", "cautious"),
]


def fill(bg: BeliefGraph, ns: str) -> list[str]:
    rids = []
    for subject, predicate, obj in FACTS:
        result = bg.remember(
            ClaimDraft(
                namespace=ns,
                subject=subject,
                predicate=predicate,
                object=obj,
                text=f"{subject} {predicate} {obj}.",
                episode_id=f"ep-{subject}-{obj}",
                episode_content=f"chat: {subject} {obj}",
            )
        )
        rids.append(result.revision_id)
    # A held conflict, so conflicts()/pending() have something in both namespaces.
    bg.remember(
        ClaimDraft(
            namespace=ns,
            subject="ben",
            predicate="risk_tolerance",
            object="bold",
            text="ben risk_tolerance bold.",
            source_type="inferred",
            confidence=0.3,
        )
    )
    return rids


def claim_ids(store: Store, ns: str) -> set[str]:
    return {r["id"] for r in q(store, "MATCH (c:Claim {namespace: $ns}) RETURN c.id AS id", ns=ns)}


@pytest.mark.slow
def test_reads_never_cross_namespaces(store: Store, make_bg: Callable[..., BeliefGraph]) -> None:
    bg = make_bg(detector=Detector(offline_embedder()))  # vectors, so search has something
    fill(bg, A)
    fill(bg, B)
    ids = {A: claim_ids(store, A), B: claim_ids(store, B)}
    for ns, other in ((A, B), (B, A)):
        seen = list(bg.beliefs(ns, "ana")) + bg.beliefs(ns, "ben")
        for subject, predicate, _ in FACTS:
            for read in (bg.current, bg.history, bg.as_of):
                got = read(ns, subject, predicate)
                seen += got if isinstance(got, list) else [got] if got else []
            past = bg.as_of(ns, subject, predicate, known_at=datetime(2000, 1, 1, tzinfo=UTC))
            assert not past
        seen += bg.pending(ns) + bg.needs_review(ns)
        conflicts = bg.conflicts(ns)
        assert conflicts
        for c in conflicts:
            seen += [c.claim, c.rival]
        for cid in ids[ns]:
            lineage = bg.lineage(ns, cid)
            seen += [lineage.claim, *lineage.chain, *lineage.dependents, *lineage.premises]
            assert all(e.claim_id in (None, *ids[ns]) for e in lineage.episodes)
        assert seen and all(c.namespace == ns for c in seen)
        assert {c.id for c in seen} <= ids[ns]
        for cid in ids[other]:
            for call in (bg.get, bg.lineage, bg.contract, bg.confirm, bg.reject):
                with pytest.raises(NotFound):
                    call(ns, cid)
        if hasattr(bg, "search"):  # the vector index spans namespaces: over-fetch, then filter
            for history in (False, True):
                hits = bg.search("ana city Lisbon", ns, k=20, history=history)
                assert hits
                found = [h.claim for h in hits] + [r for h in hits for r in h.rivals]
                assert all(c.namespace == ns and c.id in ids[ns] for c in found)


def test_export_holds_only_its_namespace(store: Store, make_bg: Callable[..., BeliefGraph]) -> None:
    bg = make_bg()
    fill(bg, A)
    fill(bg, B)
    out = io.StringIO()
    export_namespace(store, A, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    nodes = [x for x in lines if x["kind"] == "node"]
    assert nodes and all(n["props"]["namespace"] == A for n in nodes)
    # Ids are unique per namespace (B has the same episode ids): compare (label, id) pairs.
    a_nodes = {(n["label"], n["props"]["id"]) for n in nodes}
    assert len(a_nodes) == q(store, "MATCH (n {namespace: $ns}) RETURN count(n) AS n", ns=A)[0]["n"]
    edges = [x for x in lines if x["kind"] == "edge"]
    assert edges
    for edge in edges:
        assert tuple(edge["start"]) in a_nodes and tuple(edge["end"]) in a_nodes, edge
    assert B not in out.getvalue()


def test_rollback_and_erase_never_cross(store: Store, make_bg: Callable[..., BeliefGraph]) -> None:
    bg = make_bg()
    a_rids = fill(bg, A)
    fill(bg, B)
    before_b = snapshot(store, B)
    for rid in a_rids:
        with pytest.raises(NotFound):
            bg.rollback(B, rid)
    assert snapshot(store, B) == before_b
    bg.rollback(A, a_rids[2])  # ana likes jazz: nothing touched that fact since
    bg.erase(A, subject="ana")
    assert snapshot(store, B) == before_b
    bg.erase(A)
    assert snapshot(store, B) == before_b
    assert all(c.text for c in bg.history(B, "ana", "city"))
    assert all(c.text is None for c in bg.history(A, "ana", "city"))
