"""The LangGraph store adapter on the real Neo4j.

LangGraph ships no store conformance suite, so the contract tests below are written from
``BaseStore``'s documented behaviour and run against LangGraph's own ``InMemoryStore`` too: the
adapter must behave as the reference does. Then what only belief-graph does: nothing deleted,
history kept, semantic search, and the same memory seen from the engine's side.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.integrations.langgraph import PREDICATE, BeliefGraphStore


@pytest.fixture(params=["belief-graph", "in-memory"])
def kv(request: pytest.FixtureRequest, bg: BeliefGraph) -> BaseStore:
    """The adapter on a clean database, or LangGraph's reference store."""
    return BeliefGraphStore(bg) if request.param == "belief-graph" else InMemoryStore()


def keys(items: list[Any]) -> set[str]:
    return {i.key for i in items}


# -- the BaseStore contract, against both stores ----------------------------------------------


def test_put_then_get_returns_the_item(kv: BaseStore) -> None:
    kv.put(("user", "priya"), "prefs", {"tea": "green", "sugar": 0})
    item = kv.get(("user", "priya"), "prefs")
    assert item is not None
    assert item.value == {"tea": "green", "sugar": 0}
    assert item.key == "prefs" and item.namespace == ("user", "priya")
    assert item.created_at <= item.updated_at
    assert kv.get(("user", "priya"), "nothing") is None
    assert kv.get(("user", "other"), "prefs") is None


def test_put_overwrites(kv: BaseStore) -> None:
    kv.put(("docs",), "a", {"v": 1})
    first = kv.get(("docs",), "a")
    time.sleep(0.01)
    kv.put(("docs",), "a", {"v": 2})
    second = kv.get(("docs",), "a")
    assert first is not None and second is not None
    assert second.value == {"v": 2}
    assert second.updated_at > first.updated_at


def test_delete_removes_the_item_and_a_later_put_brings_it_back(kv: BaseStore) -> None:
    kv.put(("docs",), "a", {"v": 1})
    kv.delete(("docs",), "a")
    assert kv.get(("docs",), "a") is None
    assert kv.search(("docs",)) == []
    kv.delete(("docs",), "never there")
    kv.put(("docs",), "a", {"v": 3})
    item = kv.get(("docs",), "a")
    assert item is not None and item.value == {"v": 3}


def test_keys_are_exact(kv: BaseStore) -> None:
    for key in ("Key", "key", "key.", "a  b", "a b"):
        kv.put(("k",), key, {"key": key})
    for key in ("Key", "key", "key.", "a  b", "a b"):
        item = kv.get(("k",), key)
        assert item is not None and item.value == {"key": key} and item.key == key
    assert keys(kv.search(("k",))) == {"Key", "key", "key.", "a  b", "a b"}


def test_search_by_prefix_filter_limit_and_offset(kv: BaseStore) -> None:
    kv.put(("docs", "a"), "1", {"type": "report", "score": 3})
    kv.put(("docs", "a"), "2", {"type": "note", "score": 5})
    kv.put(("docs", "b"), "3", {"type": "report", "score": 7})
    kv.put(("docsx",), "4", {"type": "report", "score": 9})
    assert keys(kv.search(("docs",))) == {"1", "2", "3"}
    assert keys(kv.search(("docs", "a"))) == {"1", "2"}
    assert keys(kv.search((), limit=10)) == {"1", "2", "3", "4"}
    assert keys(kv.search(("docs",), filter={"type": "report"})) == {"1", "3"}
    assert keys(kv.search(("docs",), filter={"score": {"$gt": 4}})) == {"2", "3"}
    assert keys(kv.search(("docs",), filter={"score": {"$gte": 3, "$lt": 7}})) == {"1", "2"}
    assert keys(kv.search(("docs",), filter={"type": {"$ne": "report"}})) == {"2"}
    page1 = kv.search(("docs",), limit=2)
    page2 = kv.search(("docs",), limit=2, offset=2)
    assert len(page1) == 2 and len(page2) == 1 and keys(page1) | keys(page2) == {"1", "2", "3"}
    assert all(item.score is None for item in page1)


def test_list_namespaces(kv: BaseStore) -> None:
    for ns in [("a", "b", "c"), ("a", "b", "d"), ("a", "e"), ("x", "b", "c")]:
        kv.put(ns, "k", {"v": 1})
    assert sorted(kv.list_namespaces()) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "e"),
        ("x", "b", "c"),
    ]
    assert sorted(kv.list_namespaces(prefix=("a", "b"))) == [("a", "b", "c"), ("a", "b", "d")]
    assert sorted(kv.list_namespaces(suffix=("c",))) == [("a", "b", "c"), ("x", "b", "c")]
    assert sorted(kv.list_namespaces(prefix=("a", "*", "c"))) == [("a", "b", "c")]
    assert sorted(kv.list_namespaces(max_depth=2)) == [("a", "b"), ("a", "e"), ("x", "b")]
    assert len(kv.list_namespaces(limit=2)) == 2


def test_batch_and_abatch_answer_in_order(kv: BaseStore) -> None:
    # Reads in the same batch as a write may or may not see it (LangGraph's own store applies
    # writes last), so writes and reads go in separate batches.
    assert kv.batch([PutOp(("b",), "x", {"n": 1}), PutOp(("b",), "y", {"n": 2})]) == [None, None]
    results = kv.batch(
        [
            GetOp(("b",), "x"),
            SearchOp(("b",)),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("b",)),)),
            GetOp(("b",), "nothing"),
        ]
    )
    assert results[0] is not None and results[0].value == {"n": 1}  # type: ignore[union-attr]
    assert keys(results[1]) == {"x", "y"}  # type: ignore[arg-type]
    assert results[2] == [("b",)] and results[3] is None

    async def run() -> None:
        await kv.aput(("c",), "y", {"n": 2})
        item = await kv.aget(("c",), "y")
        assert item is not None and item.value == {"n": 2}
        assert keys(await kv.asearch(("c",))) == {"y"}
        await kv.adelete(("c",), "y")
        assert await kv.aget(("c",), "y") is None

    asyncio.run(run())


def test_invalid_namespaces_are_refused(kv: BaseStore) -> None:
    for bad in [(), ("a.b",), ("",), ("langgraph", "x")]:
        with pytest.raises(InvalidNamespaceError):
            kv.put(bad, "k", {"v": 1})


def test_a_graph_keeps_its_memory_in_the_store(kv: BaseStore) -> None:
    class State(TypedDict):
        user: str
        fact: str
        recalled: list[str]

    def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
        store.put(("memories", state["user"]), "fact", {"text": state["fact"]})
        return {}

    def recall(state: State, *, store: BaseStore) -> dict[str, Any]:
        return {"recalled": [i.value["text"] for i in store.search(("memories", state["user"]))]}

    builder = StateGraph(State)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    graph = builder.compile(store=kv)
    out = graph.invoke({"user": "priya", "fact": "Priya prefers green tea.", "recalled": []})
    assert out["recalled"] == ["Priya prefers green tea."]


# -- what only belief-graph does ---------------------------------------------------------------


def test_nothing_is_deleted_and_the_engine_sees_the_same_memory(bg: BeliefGraph) -> None:
    store = BeliefGraphStore(bg)
    store.put(("user:priya",), "city", {"city": "Lisbon"})
    store.put(("user:priya",), "city", {"city": "Berlin"})
    belief = bg.current("user:priya", "city", PREDICATE)
    assert belief is not None and not isinstance(belief, list)
    assert belief.object == '{"city":"Berlin"}' and belief.version == 2
    item = store.get(("user:priya",), "city")
    assert item is not None and item.created_at == history_created(bg)
    store.delete(("user:priya",), "city")
    assert bg.current("user:priya", "city", PREDICATE) is None
    assert store.list_namespaces() == []
    history = bg.history("user:priya", "city", PREDICATE)
    assert [(c.object, c.status) for c in history] == [
        ('{"city":"Lisbon"}', "superseded"),
        ('{"city":"Berlin"}', "retracted"),
    ]


def test_a_put_over_a_reinforced_value_still_takes_effect(bg: BeliefGraph) -> None:
    store = BeliefGraphStore(bg)
    for _ in range(3):
        store.put(("user:priya",), "diet", {"diet": "vegetarian"})
    store.put(("user:priya",), "diet", {"diet": "vegan"})
    item = store.get(("user:priya",), "diet")
    assert item is not None and item.value == {"diet": "vegan"}
    assert bg.pending("user:priya") == []


def test_bad_values_name_the_field(bg: BeliefGraph) -> None:
    store = BeliefGraphStore(bg)
    with pytest.raises(ValueError, match=r"^value: its JSON is"):
        store.put(("docs",), "big", {"text": "x" * 2000})
    with pytest.raises(ValueError, match=r"^value: is not JSON-serializable"):
        store.put(("docs",), "odd", {"when": object()})
    with pytest.raises(InvalidNamespaceError, match=r"^namespace:"):
        store.put(("has space",), "k", {"v": 1})
    for value in ([1, 2], "happy", 42, ("a", 1), True):
        with pytest.raises(ValueError, match=r"^value: must be a dict, not "):
            store.put(("docs",), "not-a-dict", value)  # type: ignore[arg-type]
    assert store.search(()) == []


# Objects a claim with the store's predicate may hold when it was written through the API or
# MCP rather than the store: none of them is a store item (a JSON object).
FOREIGN = ["happy", "[1, 2]", "42", "null", '"quoted"', "true", '{"half": ', "{}x", ""]


@pytest.mark.parametrize("foreign", FOREIGN)
def test_a_foreign_claim_is_left_out_and_never_fails_a_read(
    bg: BeliefGraph, foreign: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = BeliefGraphStore(bg)
    ns = ("user:priya",)
    store.put(ns, "before", {"v": 1})
    store.put(ns, "later", {"v": 2})
    claim = bg.remember(
        ClaimDraft(
            namespace="user:priya",
            subject="mood",
            predicate=PREDICATE,
            object=foreign or "-",
            text=f"Priya's mood is {foreign or '-'}.",
        )
    ).added[0]
    with caplog.at_level("WARNING", logger="belief_graph.integrations.langgraph"):
        assert store.get(ns, "mood") is None
        assert keys(store.search(ns)) == {"before", "later"}
        assert keys(store.search(())) == {"before", "later"}
        assert keys(store.search(ns, filter={"v": 2})) == {"later"}
        [before, later] = store.batch(
            [GetOp(ns, "before"), GetOp(ns, "later")]  # type: ignore[list-item]
        )
    assert before is not None and later is not None and later.value == {"v": 2}
    assert claim in caplog.text and "not a store item" in caplog.text
    # The store's own put takes the key over again.
    store.put(ns, "mood", {"mood": "happy"})
    item = store.get(ns, "mood")
    assert item is not None and item.value == {"mood": "happy"}


def test_a_foreign_claim_is_left_out_of_a_search_by_meaning(semantic_bg: BeliefGraph) -> None:
    store = BeliefGraphStore(semantic_bg)
    ns = ("memories", "priya")
    store.put(ns, "m1", {"text": "Priya lives in Lisbon with her two cats."})
    for subject, foreign in (("m2", "happy"), ("m3", "[1, 2]")):
        semantic_bg.remember(
            ClaimDraft(
                namespace="memories.priya",
                subject=subject,
                predicate=PREDICATE,
                object=foreign,
                text=f"Priya lives in Lisbon and feels {foreign}.",
            )
        )
    hits = store.search(ns, query="where does she live?", limit=5)
    assert keys(hits) == {"m1"}


def test_search_by_meaning_current_only(semantic_bg: BeliefGraph) -> None:
    store = BeliefGraphStore(semantic_bg)
    ns = ("memories", "priya")
    store.put(ns, "m1", {"text": "Priya is cautious with money and dislikes individual stocks."})
    store.put(ns, "m2", {"text": "Priya lives in Lisbon with her two cats."})
    store.put(ns, "m3", {"text": "Priya wants to run a marathon next year."})
    hits = store.search(ns, query="what is her appetite for investment risk?", limit=2)
    assert hits[0].key == "m1" and hits[0].score is not None
    assert len(hits) == 2 and hits[0].score >= hits[1].score  # type: ignore[operator]
    store.delete(ns, "m1")
    again = store.search(ns, query="what is her appetite for investment risk?", limit=3)
    assert "m1" not in keys(again)
    filtered = store.search(ns, query="where does she live?", filter={"text": {"$ne": "x"}})
    assert filtered[0].key == "m2"


def history_created(bg: BeliefGraph) -> Any:
    return bg.history("user:priya", "city", PREDICATE)[0].recorded_at
