"""The statements the engine plans once (``CYPHER replan=skip``, cypher.PLANNED_ONCE) keep the
plan Neo4j makes the first time it sees them, whatever the database holds by then. That is only
right when no plan of theirs depends on how much the database holds: every node they touch is
found by its whole unique key (one node at most) or reached from a node in hand (by an edge,
or a slot's claims by the slot's id), so whichever order the planner picks, each step costs the
same at any size. This checks that premise on the
plans the server makes for an empty and for a filled database, and that the filled one was
filled enough to move the plans of statements that do depend on the statistics."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft, HistoricalDraft, cypher
from belief_graph.store import Store
from belief_graph.testing import factories

START = datetime(2026, 1, 1, tzinfo=UTC)
# A unique seek as EXPLAIN details it: "UNIQUE s:Slot(id) WHERE id = k.id, cache[s.id]"
_UNIQUE_SEEK = re.compile(
    r"^UNIQUE \w+:\w+\((?P<keys>[\w, ]+)\) WHERE (?P<where>.+?)(, cache\[.*)?$"
)
_EQUALS_ONE = re.compile(r"^(?P<key>\w+) = (?!.* IN ).+$")
# A seek of one slot's claims, as EXPLAIN details it: "RANGE INDEX c:Claim(slot_id, status)
# WHERE slot_id = s.id AND status IN $autolist_0"
_SLOTS_CLAIMS = re.compile(
    r"^RANGE INDEX \w+:Claim\(slot_id, \w+\) "
    r"WHERE slot_id = (\w+\.id|cache\[\w+\.id\]|\w+\.slot_id|cache\[\w+\.slot_id\]) AND "
)


def statements() -> list[str]:
    return [n for n in cypher.names() if not n.startswith(("schema/", cypher.CYPHER25))]


def reads(store: Store, name: str) -> list[str]:
    """How the plan Neo4j makes for ``name`` now finds its first nodes: each index read or scan,
    as its operator and details."""
    found = []

    def walk(op: dict[str, Any]) -> None:
        kind = op["operatorType"].split("@")[0]
        if "Seek" in kind or "Scan" in kind:
            found.append(f"{kind}: {op.get('args', {}).get('Details', '')}")
        for child in op.get("children", []):
            walk(child)

    walk(store.explain(cypher.variant(name, store.filters_in_vector_index())))
    return found


def finds_one(read: str) -> bool:
    """Whether an index read finds one node at most: a seek on a unique constraint with every
    key equal to one value (no scan, no list of values, no prefix of the key)."""
    kind, _, details = read.partition(": ")
    seek = _UNIQUE_SEEK.match(details)
    if not kind.startswith("NodeUniqueIndexSeek") or "ByRange" in kind or seek is None:
        return False
    keys = [k.strip() for k in seek["keys"].split(",")]
    equal = [_EQUALS_ONE.match(part) for part in seek["where"].split(" AND ")]
    return all(equal) and sorted(m["key"] for m in equal if m) == sorted(keys)


def of_running_erases(read: str) -> bool:
    """Whether a read is the scan of the erases running now (read/hidden, and write/apply's
    refusal of a write to what one covers): what it reads grows with the erases running (nearly
    always none: the label is taken off an erase when it finishes), not with the database."""
    kind, _, details = read.partition(": ")
    return kind == "NodeByLabelScan" and details.endswith(":Erasing")


def of_a_slot_in_hand(read: str) -> bool:
    """Whether an index read finds the claims of one slot already found: what it reads grows
    with that fact's history, not with the database, as a walk of the slot's edges would."""
    kind, _, details = read.partition(": ")
    return kind.startswith("NodeIndexSeek") and _SLOTS_CLAIMS.match(details) is not None


def fill(bg: BeliefGraph) -> None:
    """A few thousand claims in four namespaces: versions, corrections, dependents, and
    premises changed under them."""

    def hourly(i: int, subject: str, predicate: str, value: str, **more: Any) -> HistoricalDraft:
        at = START + timedelta(hours=i)
        return factories.historical(
            subject,
            predicate,
            value,
            namespace=f"plans:{i % 4}",
            valid_from=at,
            recorded_at=at,
            **more,
        )

    premises = [hourly(k, f"project-{k}", "uses", "lang-0", id=f"p{k}") for k in range(100)]
    claims = [
        hourly(
            i,
            f"person-{i % 300}",
            ("lives_in", "works_at", "likes")[i % 3],
            f"value-{i % 7}",
            correction=i % 11 == 0,
            depends_on=(f"p{i % 100}",) if i % 13 == 0 else (),
        )
        for i in range(100, 2500)
    ]
    changed = [hourly(k + 2500, f"project-{k}", "uses", "lang-1") for k in range(0, 100, 2)]
    bg.import_history(premises + claims + changed, batch_size=500, actor="fill")


def test_finding_one_node_is_told_from_the_reads_that_grow() -> None:
    assert finds_one("NodeUniqueIndexSeek(Locking): UNIQUE s:Slot(id) WHERE id = k.id, cache[s.id]")
    assert finds_one(
        "NodeUniqueIndexSeek: UNIQUE s:Slot(namespace, subject_key, predicate) WHERE "
        "namespace = k.namespace AND subject_key = k.subject_key AND predicate = k.predicate"
    )
    assert not finds_one("NodeUniqueIndexSeek(Locking): UNIQUE s:Slot(id) WHERE id IN held")
    assert not finds_one(
        "NodeUniqueIndexSeek: UNIQUE r:Revision(namespace, id) WHERE namespace = rv.namespace "
        "AND id IS NOT NULL, cache[r.id]"
    )
    assert not finds_one("NodeIndexSeek: RANGE INDEX c:Claim(namespace, status) WHERE ...")
    assert not finds_one("NodeByLabelScan: c:Claim")
    assert of_a_slot_in_hand(
        "NodeIndexSeek: RANGE INDEX c:Claim(slot_id, valid_to) WHERE slot_id = s.id AND "
        "valid_to > valid_at"
    )
    assert of_a_slot_in_hand(
        "NodeIndexSeek: RANGE INDEX c:Claim(slot_id, version) WHERE slot_id = cache[s.id] AND "
        "version IS NOT NULL"
    )
    assert of_a_slot_in_hand(
        "NodeIndexSeek: RANGE INDEX p:Claim(slot_id, status) WHERE slot_id = c.slot_id AND "
        "status = $autostring_0"
    )
    assert not of_a_slot_in_hand(
        "NodeIndexSeek: RANGE INDEX c:Claim(slot_id, status) WHERE slot_id IS NOT NULL AND "
        "status = $status"
    )
    assert not of_a_slot_in_hand("NodeIndexSeek: RANGE INDEX c:Claim(namespace, status) WHERE ...")


@pytest.mark.slow
def test_statements_planned_once_find_each_node_by_its_key_on_an_empty_and_a_filled_database(
    bg: BeliefGraph, store: Store
) -> None:
    names = statements()
    once = [n for n in names if cypher.planned_once(n)]
    assert {"write/apply", "write/state"} <= set(once)
    empty = {n: reads(store, n) for n in names}
    fill(bg)
    assert store.run_literal("MATCH (c:Claim) RETURN count(c) AS n")[0]["n"] >= 2000
    filled = {n: reads(store, n) for n in names}
    # The data moves the planner: statements that replan as usual read otherwise now.
    assert any(sorted(empty[n]) != sorted(filled[n]) for n in names if n not in once)
    growing = {
        (n, when): [
            r
            for r in plans[n]
            if not finds_one(r) and not of_a_slot_in_hand(r) and not of_running_erases(r)
        ]
        for when, plans in (("empty", empty), ("filled", filled))
        for n in once
    }
    assert {k: v for k, v in growing.items() if v} == {}


def cached_plans(store: Store) -> int:
    """How many plans the server held, emptying its plan cache."""
    message = store.run_literal("CALL db.clearQueryCaches() YIELD value RETURN value")[0]["value"]
    found = re.search(r"of (\d+) quer", message)
    return int(found.group(1)) if found else 0


@pytest.mark.slow
def test_every_kind_of_write_uses_the_one_plan_init_schema_made(
    bg: BeliefGraph, store: Store, sent: list[str]
) -> None:
    # The control: the server keys a plan by the length of a list parameter (tenfold steps).
    cached_plans(store)
    for n in (0, 1, 5, 50):
        store.run_literal("UNWIND $xs AS x RETURN count(x) AS n", xs=list(range(n)))
    assert cached_plans(store) == 4
    bg.init_schema()
    assert {"write/state", "write/apply"} <= set(sent), "init_schema planned the write path"

    days = iter(range(1000))

    def next_day(subject: str, predicate: str, value: str) -> ClaimDraft:
        start = START + timedelta(days=next(days))
        return factories.draft(subject, predicate, value, namespace="plans", valid_from=start)

    bg.remember(next_day("ana", "lives_in", "Paris"))  # NEW
    bg.remember(next_day("ana", "lives_in", "Paris"))  # SAME: a reinforcement
    bg.remember(next_day("ana", "lives_in", "Rome"))  # UPDATE: a retirement and its edge
    bg.remember(next_day("ana", "likes", "tea"))
    bg.remember(next_day("ana", "likes", "jazz"))
    rome = bg.current("plans", "ana", "lives_in")
    assert rome is not None and not isinstance(rome, list)
    bg.contract("plans", rome.id)  # a retraction
    bg.ingest([next_day(f"p{i}", "works_on", "Atlas") for i in range(5)], batch_size=5)
    bg.ingest([next_day(f"q{i}", "works_on", "Atlas") for i in range(50)], batch_size=50)
    # One plan per statement sent, though the lists ranged from empty to 50 long: the writes
    # used the plans init_schema made for the write path with an empty batch.
    assert cached_plans(store) == len(set(sent))


# The statements that read a namespace's nodes with no key of their own: they name the index
# they start from (its namespace prefix), so that no database's statistics can plan them as a
# scan of every node of a label or every entry of an index. (The conflicts lists start from the
# contradiction edges or from the namespace's claims, whichever the statistics say is fewer;
# an erase of listed claims checks each slot's other claims as the statistics say. Every read
# also scans the erases running: read/hidden, of_running_erases.)
NAMESPACE_WIDE = (
    "admin/namespace_stats",
    "audit/known_at",
    "audit/promotions",
    "read/store_items",
    "read/subjects_list",
    "transfer/restore_collisions",
    "write/consolidate_count",
    "write/erase_revisions",
    "write/erase_slots",
    "write/erase_targets",
)


@pytest.mark.slow
def test_a_statement_about_one_namespace_reads_that_namespace_not_the_database(
    bg: BeliefGraph, store: Store
) -> None:
    """A statement given a namespace starts from that namespace's entries in an index, never from
    every node of a label or every entry of an index: what it costs grows with the namespace,
    not with the database and its other tenants. (Until 2026-12-05 `observe` read every slot of
    every namespace to list one namespace's subjects: 110 ms of a 162 ms turn in a database of
    165,000 slots.)"""
    fill(bg)
    whole = ("NodeByLabelScan", "AllNodesScan", "NodeIndexScan")
    scans = {
        name: found
        for name in NAMESPACE_WIDE
        if "$namespace" in cypher.load(name)
        and (
            found := [
                r for r in reads(store, name) if r.startswith(whole) and not of_running_erases(r)
            ]
        )
    }
    assert sorted(scans) == [], scans


# An index is written with every node of its label that has its properties: each one the schema
# creates must be read by some statement to be worth that price.
_INDEX_READ = re.compile(r"^(?:RANGE INDEX|UNIQUE) \w+:(?P<label>\w+)\((?P<keys>[\w, ]+)\)")


@pytest.mark.slow
def test_every_index_the_schema_creates_is_read_by_a_shipped_statement(
    bg: BeliefGraph, store: Store
) -> None:
    """Until 2026-12-05 two indexes of the claims (by subject, by recorded_at) were written with
    every claim and read by nothing."""
    fill(bg)
    schema = store.run_literal(
        "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, owningConstraint "
        "WHERE type = 'RANGE' AND owningConstraint IS NULL "
        "RETURN name, labelsOrTypes[0] AS label, properties"
    )
    created = {
        r["name"]: (r["label"], ", ".join(r["properties"]))
        for r in schema
        if r["name"] in cypher.schema_names()
    }
    assert len(created) == 7, created
    read = set()
    for name in statements():
        for found in reads(store, name):
            if match := _INDEX_READ.match(found.partition(": ")[2]):
                read.add((match["label"], match["keys"]))
    assert {name for name, key in created.items() if key not in read} == set()


@pytest.mark.slow
def test_the_schema_drops_an_index_an_earlier_version_created_that_nothing_reads(
    bg: BeliefGraph, store: Store
) -> None:
    store.run_literal(
        "CREATE INDEX claim_recorded_at IF NOT EXISTS FOR (c:Claim) ON (c.namespace, c.recorded_at)"
    )
    schema = next(c for c in bg.doctor().checks if c.name == "schema")
    assert not schema.ok and "claim_recorded_at" in schema.detail
    assert "schema/retired/claim_recorded_at" in store.ensure_schema()
    names = {r["name"] for r in store.read("admin/doctor_indexes")}
    assert not cypher.retired_names() & names and cypher.schema_names() <= names
    assert store.ensure_schema() == []
    assert next(c for c in bg.doctor().checks if c.name == "schema").ok
