"""Search in one namespace while another holds nearer sentences: the same answer on every server,
from one index read where the server filters inside the vector index (Neo4j 2026), and where it
cannot, from one read once a search there has found how far the fetch must reach."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.detect import Detector

CROWD = 150
AXES = {"rent": 0, "lisbon": 1, "bike": 2}


class Words:
    """384-d vectors: a sentence's words each on their own axis, its number on a minor one."""

    dim = 384

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> list[list[float]]:
        out = []
        for text in texts:
            v = [0.0] * self.dim
            words = text.lower().split()
            for word in words:
                if word in AXES:
                    v[AXES[word]] += 1.0 if word == words[0] else 0.5
            number = re.search(r"\d+", text)
            if number:
                v[10 + int(number.group()) % 300] += 0.3
            norm = sum(x * x for x in v) ** 0.5
            out.append([x / norm for x in v])
        return out


@pytest.fixture
def crowded(make_bg: Callable[..., BeliefGraph]) -> BeliefGraph:
    """A namespace of three claims behind another of 150 sentences nearer to "rent"."""
    bg = make_bg(detector=Detector(Words()))  # type: ignore[arg-type]
    bg.ingest(
        ClaimDraft(
            namespace="crowd", subject=f"s{i}", predicate="note", object=str(i), text=f"rent {i}"
        )
        for i in range(CROWD)
    )
    for i in range(3):
        bg.remember(
            ClaimDraft(
                namespace="mine",
                subject=f"m{i}",
                predicate="note",
                object=f"m{i}",
                text=f"lisbon rent {i}",
            )
        )
    bg.remember(  # a retired version is never a current hit
        ClaimDraft(
            namespace="mine", subject="m0", predicate="note", object="m0-new", text="bike rent 7"
        )
    )
    return bg


def counted(
    bg: BeliefGraph, in_index: bool, statement: str, search: Callable[[], list[Any]]
) -> tuple[list[str], int]:
    """The objects of what ``search`` finds on the path asked for, and how many times it read
    the vector index (ran ``statement``)."""
    bg.store.vector_filtering = in_index
    reads = [0]
    read = bg.store.read

    def counting(name: str, **params: Any) -> list[dict[str, Any]]:
        reads[0] += name.endswith(statement)
        return read(name, **params)

    bg.store.read = counting  # type: ignore[method-assign]
    try:
        hits = search()
    finally:
        bg.store.read = read  # type: ignore[method-assign]
    return [h.claim.object for h in hits], reads[0]


def searched(bg: BeliefGraph, in_index: bool) -> tuple[list[str], int]:
    return counted(bg, in_index, "search_claims", lambda: bg.search("rent", "mine", k=3))


def scope_searched(
    bg: BeliefGraph, in_index: bool, chain: list[str], k: int = 3, **when: Any
) -> tuple[list[str], int]:
    return counted(
        bg, in_index, "scope_search", lambda: bg.scoped_search("rent", chain, k=k, **when)
    )


def test_a_crowded_out_namespace_still_gets_its_nearest_claims(crowded: BeliefGraph) -> None:
    objects, reads = searched(crowded, crowded.store.filters_in_vector_index())
    assert sorted(objects) == ["m0-new", "m1", "m2"]
    if crowded.store.features().vector_filters:
        assert reads == 1  # filtered inside the index: no widening
    else:
        assert reads > 1  # the fetch widened past the other namespace's 150 nearer sentences


def test_both_search_paths_give_the_same_hits(crowded: BeliefGraph) -> None:
    fetched, _ = searched(crowded, False)
    if crowded.store.features().vector_filters:
        filtered, _ = searched(crowded, True)
        assert sorted(filtered) == sorted(fetched)  # equal scores may come in either order
        history = crowded.search("rent", "mine", k=10, history=True)
        assert len(history) == 4  # the retired version too
        crowded.store.vector_filtering = False
        assert sorted(h.claim.id for h in crowded.search("rent", "mine", k=10, history=True)) == (
            sorted(h.claim.id for h in history)
        )
    assert sorted(fetched) == ["m0-new", "m1", "m2"]


def test_doctor_says_how_vector_reads_filter(bg: BeliefGraph) -> None:
    features = bg.store.features()
    [row] = [c for c in bg.doctor().checks if c.name == "vector search"]
    assert row.ok and row.info
    assert f"Neo4j {features.version}" in row.detail
    assert ("filtered inside the index" in row.detail) == features.vector_filters


def test_a_search_starts_as_wide_as_the_last_one_in_its_namespace_needed(
    crowded: BeliefGraph,
) -> None:
    first, widened = searched(crowded, False)  # the index spanning every namespace
    again, reads = searched(crowded, False)
    assert sorted(again) == sorted(first) == ["m0-new", "m1", "m2"]
    assert widened > 1 and reads == 1
    # One that needs less (its hits are this namespace's nearest) brings the start back down.
    assert sorted(h.claim.object for h in crowded.search("lisbon", "mine", k=2)) == ["m1", "m2"]
    _, reads = searched(crowded, False)
    assert reads == widened


def test_a_scoped_search_starts_as_wide_as_the_last_one_through_its_chain_needed(
    crowded: BeliefGraph,
) -> None:
    first, widened = scope_searched(crowded, False, ["mine"])
    again, once = scope_searched(crowded, False, ["mine"])
    assert sorted(first) == sorted(again) == ["m0-new", "m1", "m2"]
    assert widened > 1 and once == 1


def test_a_scoped_search_is_filtered_inside_the_index_where_it_can_be(
    crowded: BeliefGraph,
) -> None:
    in_index = crowded.store.features().vector_filters
    objects, reads = scope_searched(crowded, in_index, ["mine"])
    assert sorted(objects) == ["m0-new", "m1", "m2"]
    assert (reads == 1) if in_index else (reads > 1)
    if in_index:  # the same hits through the index of every namespace, for any chain and mode
        # (k beyond what each holds: the crowd's sentences tie, and a cut among ties is either)
        for chain, k, when, held in (
            (["mine"], 10, {"history": True}, 4),
            (["crowd", "mine"], 200, {}, CROWD + 3),
        ):
            filtered, _ = scope_searched(crowded, True, chain, k, **when)
            fetched, _ = scope_searched(crowded, False, chain, k, **when)
            assert sorted(filtered) == sorted(fetched) and len(filtered) == held


def test_a_search_tests_its_fetched_claims_only_until_k_of_them_pass(
    crowded: BeliefGraph,
) -> None:
    """The fetch brings more claims than k (20 at least); each one's test of what holds reads
    its fact, so a search stops testing once k have passed."""
    store = crowded.store
    asked: list[tuple[str, dict[str, Any]]] = []
    read = store.read

    def keeping(name: str, **params: Any) -> list[dict[str, Any]]:
        if name.endswith("search_claims"):
            asked.append((name, params))
        return read(name, **params)

    store.read = keeping  # type: ignore[method-assign]
    try:
        hits = crowded.search("rent", "crowd", k=3)
    finally:
        store.read = read  # type: ignore[method-assign]
    assert len(hits) == 3
    name, params = asked[-1]
    assert params["fetch"] > 3
    plan = store.profile(name, **params)
    facts_read: list[int] = []

    def walk(op: dict[str, Any]) -> None:
        if "IN_SLOT" in op.get("args", {}).get("Details", ""):
            facts_read.append(op.get("rows", 0))
        for child in op.get("children", []):
            walk(child)

    walk(plan)
    assert facts_read and max(facts_read) <= 3  # the tree before read 20: every claim fetched
