"""The namespace → database mapping (docs/deploy.md, "Tenancy"): which database a namespace
lives in, and a bad mapping refused by name before anything connects."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from belief_graph import BeliefGraph
from belief_graph.settings import Neo4jSettings, database_for, database_map
from belief_graph.store import Store

MAPPING = {"tenant-a:": "tenant-a", "tenant-a:vip:": "tenant-a-vip", "acme": "acme"}

# No server listens here: a driver connects only when a statement runs.
NOWHERE = "bolt://127.0.0.1:9"


@pytest.mark.parametrize(
    ("namespace", "database"),
    [
        ("tenant-a:priya", "tenant-a"),
        ("tenant-a:vip:priya", "tenant-a-vip"),  # the longest matching prefix wins
        ("tenant-a:", "tenant-a"),
        ("acme", "acme"),  # a whole namespace as the key
        ("acme:ops", "acme"),  # and the namespaces that extend it
        ("tenant-b:priya", None),  # unmapped: the default database
        ("tenant-", None),
    ],
)
def test_a_namespace_goes_to_the_longest_matching_key(namespace: str, database: str | None) -> None:
    assert database_for(namespace, MAPPING) == database


def test_no_mapping_keeps_every_namespace_in_the_default_database() -> None:
    assert database_for("anything", {}) is None
    store = Store(NOWHERE, None, "neo4j")
    try:
        assert store.database_of("tenant-a:priya") == "neo4j"
        assert store.on("tenant-a:priya") is store
        assert [s.database for s in store.every_database()] == ["neo4j"]
    finally:
        store.close()


def test_database_names_are_lowercased_as_neo4j_stores_them() -> None:
    assert database_map({"t:": "Tenant-A"}) == {"t:": "tenant-a"}


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("tenant_a", "not a Neo4j database name"),  # no underscores in database names
        ("ab", "not a Neo4j database name"),  # at least 3 characters
        ("x" * 64, "not a Neo4j database name"),  # at most 63
        ("1tenant", "not a Neo4j database name"),  # a letter first
        ("tenant-", "not a Neo4j database name"),  # not ending in a dash or dot
        ("tenant a", "not a Neo4j database name"),
        ("system", "reserved"),
        ("systemic", "reserved"),
    ],
)
def test_a_bad_database_name_is_refused_naming_the_field_and_entry(name: str, why: str) -> None:
    with pytest.raises(ValueError, match=rf"databases\['t:'\]: .*{why}"):
        database_map({"t:": name})


@pytest.mark.parametrize("key", ["", "tenant a:", "tab\t"])
def test_a_bad_key_is_refused(key: str) -> None:
    with pytest.raises(ValueError, match="databases: the key"):
        database_map({key: "tenant-a"})


def test_the_mapping_comes_from_the_environment_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_DATABASES", '{"tenant-a:": "Tenant-A", "acme": "acme"}')
    assert Neo4jSettings().databases == {"tenant-a:": "tenant-a", "acme": "acme"}
    monkeypatch.setenv("NEO4J_DATABASES", '{"tenant-a:": "tenant_a"}')
    with pytest.raises(ValidationError, match="databases"):
        Neo4jSettings()
    monkeypatch.delenv("NEO4J_DATABASES")
    assert Neo4jSettings().databases == {}


def test_connect_refuses_a_bad_mapping_before_connecting() -> None:
    with pytest.raises(ValueError, match=r"databases\['acme'\]"):
        BeliefGraph.connect(NOWHERE, models=False, databases={"acme": "acme_db"})


def test_each_mapped_database_is_listed_once_after_the_default() -> None:
    store = Store(NOWHERE, None, "neo4j", databases={**MAPPING, "acme:eu": "acme", "x": "neo4j"})
    try:
        assert [s.database for s in store.every_database()] == [
            "neo4j",
            "tenant-a",
            "tenant-a-vip",
            "acme",
        ]
        assert store.database_of("x:1") == "neo4j"
    finally:
        store.close()


def test_bookmarks_given_at_connect_are_handed_on_with_a_mapping() -> None:
    store = Store(NOWHERE, None, "neo4j", bookmarks=["b1", "b2"], databases=MAPPING)
    try:
        assert store.bookmarks() == ["b1", "b2"]
    finally:
        store.close()
