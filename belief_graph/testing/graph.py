"""The graph as tests and benchmarks see it: raw Cypher reads, counts, the DESIGN §7 invariants
that can be read off the stored graph, and the guarded wipe.

Every check returns the violations it found (empty: all good), so a test asserts ``== []`` and a
benchmark prints them. Nothing here is used by the engine itself.
"""

from __future__ import annotations

import json
import os
from typing import Any, LiteralString

from belief_graph.store import Store

WIPE_ALLOWED = "BELIEF_GRAPH_TEST_WIPE"
Row = dict[str, Any]

# Databases (uri, database) this process has found empty or was allowed to wipe: from then on
# their data is the tests' own.
_claimed: set[tuple[str, str]] = set()


class WipeRefused(RuntimeError):
    """The database holds data this process did not write: the tests will not delete it."""


def q(store: Store, query: LiteralString, **params: Any) -> list[Row]:
    """Run test Cypher (a literal) with ``params``; rows as the driver returns them."""
    return store.run_literal(query, **params)


def claims_read(store: Store, statement: str, **params: Any) -> int:
    """How many claims ``statement`` reads for ``params``, as PROFILE counts the rows of its
    reads of claims: by index, or by walking a slot's edges."""
    profile = store.profile(statement, **params)

    def rows(op: dict[str, Any]) -> int:
        reads_claims = op["operatorType"].startswith("Expand") or "Claim(" in op.get(
            "args", {}
        ).get("Details", "")
        own = op["rows"] if reads_claims else 0
        return int(own) + sum(rows(child) for child in op.get("children", []))

    return rows(profile)


def node_count(store: Store) -> int:
    """How many nodes the whole database holds."""
    return int(q(store, "MATCH (n) RETURN count(n) AS n")[0]["n"])


def counts(store: Store) -> dict[str, int]:
    """Nodes, relationships, claims and revisions in the whole database."""
    return q(
        store,
        "CALL () { MATCH (n) RETURN count(n) AS nodes } "
        "CALL () { MATCH ()-[r]->() RETURN count(r) AS rels } "
        "CALL () { MATCH (c:Claim) RETURN count(c) AS claims } "
        "CALL () { MATCH (r:Revision) RETURN count(r) AS revisions } "
        "RETURN nodes, rels, claims, revisions",
    )[0]


def claim_database(store: Store) -> None:
    """Take the database for tests: refuse, naming how to allow it, when it holds data.

    Every source is guarded alike (``NEO4J_URI``, a container, the launcher): a private test
    server is empty when it starts, so only somebody's own data can trip this.
    """
    key = (store.uri, store.database)
    if key in _claimed:
        return
    held = node_count(store)
    if held and os.environ.get(WIPE_ALLOWED) != "1":
        raise WipeRefused(
            f"the database at {store.uri} ({store.database}) holds {held} nodes, and the tests "
            f"wipe it between tests. Point NEO4J_URI at an empty database, unset it so the tests "
            f"start a private Neo4j, or set {WIPE_ALLOWED}=1 to allow deleting that data."
        )
    _claimed.add(key)


def wipe(store: Store) -> None:
    """Empty the database, once ``claim_database`` allows it (the engine itself never deletes)."""
    claim_database(store)
    q(store, "MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS")


def namespace_snapshot(store: Store, ns: str) -> list[Row]:
    """Every node of the namespace with its properties and outgoing edges, sorted."""
    rows = q(
        store,
        "MATCH (n {namespace: $ns}) OPTIONAL MATCH (n)-[r]->(m) "
        "WITH n, collect([type(r), properties(r), m.id]) AS out "
        "RETURN labels(n) AS labels, properties(n) AS props, out",
        ns=ns,
    )
    plain = [json.loads(json.dumps(r, default=str, sort_keys=True)) for r in rows]
    for row in plain:  # collect() gives a node's edges in no fixed order
        row["out"] = sorted(row["out"], key=lambda edge: json.dumps(edge, sort_keys=True))
    return sorted(plain, key=lambda r: json.dumps(r, sort_keys=True))


def string_values(store: Store) -> list[str]:
    """Every string held by any node or relationship property (lists included)."""
    rows = q(
        store,
        "CALL () { MATCH (n) RETURN properties(n) AS p "
        "UNION ALL MATCH ()-[r]->() RETURN properties(r) AS p } RETURN p",
    )
    out: list[str] = []
    for row in rows:
        for value in row["p"].values():
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, list):
                out.extend(v for v in value if isinstance(v, str))
    return out


def strings_holding(store: Store, needle: str) -> list[str]:
    """Every string property value (lists included) of any node or relationship that holds
    ``needle``: what ``string_values`` would give filtered, but filtered by the server, so a
    store of many thousand claims is not sent over."""
    rows = q(
        store,
        "CALL () { MATCH (n) RETURN properties(n) AS p "
        "UNION ALL MATCH ()-[r]->() RETURN properties(r) AS p } "
        "UNWIND keys(p) AS k WITH p[k] AS v "
        "UNWIND CASE WHEN v IS :: STRING THEN [v] "
        "WHEN v IS :: LIST<ANY> THEN [x IN v WHERE x IS :: STRING] ELSE [] END AS text "
        "WITH text WHERE text CONTAINS $needle RETURN text",
        needle=needle,
    )
    return [row["text"] for row in rows]


# -- DESIGN §7 invariants ---------------------------------------------------------------------


def one_active_per_single_slot(store: Store) -> list[str]:
    """Invariant 1: a single-valued slot has at most one active claim."""
    bad = q(
        store,
        "MATCH (s:Slot {cardinality: 'single'})<-[:IN_SLOT]-(c:Claim {status: 'active'}) "
        "WITH s, collect(c.object) AS objects WHERE size(objects) > 1 "
        "RETURN s.predicate AS predicate, s.subject AS subject, objects",
    )
    return [f"invariant 1: more than one active claim in {row}" for row in bad]


def superseded_without_an_end(store: Store) -> list[str]:
    """A superseded claim's window has an end (as_of finds a fact's open windows among its
    active and retracted claims only)."""
    bad = q(
        store,
        "MATCH (c:Claim {status: 'superseded'}) WHERE c.valid_to IS NULL "
        "RETURN c.id AS id, c.namespace AS namespace",
    )
    return [f"a superseded claim without an end: {row}" for row in bad]


def version_chains(store: Store) -> list[str]:
    """Invariant 2: each single slot's versions are 1..n, the slot counts them, and every
    non-first version SUPERSEDES exactly its predecessor in the same slot; multi slots have no
    SUPERSEDES at all."""
    slots = q(
        store,
        "MATCH (s:Slot)<-[:IN_SLOT]-(c:Claim) "
        "OPTIONAL MATCH (c)-[out:SUPERSEDES]->(p:Claim) "
        "WITH s, c, collect({to: p.id, same_slot: exists { (p)-[:IN_SLOT]->(s) }}) AS outs "
        "OPTIONAL MATCH (c)<-[inc:SUPERSEDES]-() "
        "WITH s, c, outs, count(inc) AS incoming "
        "RETURN s.id AS slot, s.cardinality AS cardinality, s.versions AS slot_versions, "
        "collect({id: c.id, version: c.version, status: c.status, incoming: incoming, "
        "outs: [o IN outs WHERE o.to IS NOT NULL]}) AS claims",
    )
    problems: list[str] = []
    for slot in slots:
        problems += _chain_problems(slot)
    return problems


def _chain_problems(slot: Row) -> list[str]:
    claims = slot["claims"]
    where = f"in slot {slot['slot']}: {claims}"[:600]
    if slot["cardinality"] == "multi":
        if any(c["outs"] or c["incoming"] for c in claims):
            return [f"invariant 2: a multi slot has SUPERSEDES edges {where}"]
        return []
    versioned = sorted((c for c in claims if c["version"] is not None), key=lambda c: c["version"])
    versions = [c["version"] for c in versioned]
    if versions != list(range(1, len(versioned) + 1)):
        return [f"invariant 2: versions {versions} are not 1..{len(versioned)} {where}"]
    problems = []
    if (slot["slot_versions"] or 0) != len(versioned):
        problems.append(f"invariant 2: slot counts {slot['slot_versions']} versions {where}")
    by_version = {c["version"]: c["id"] for c in versioned}
    for c in claims:
        if c["incoming"] > 1:
            problems.append(f"invariant 2: {c['id']} superseded twice {where}")
        if c["version"] is None or c["version"] == 1:
            if c["outs"]:
                problems.append(f"invariant 2: unversioned/first {c['id']} supersedes {where}")
        elif [o["to"] for o in c["outs"]] != [by_version[c["version"] - 1]]:
            problems.append(f"invariant 2: {c['id']} does not supersede its predecessor {where}")
        elif not c["outs"][0]["same_slot"]:
            problems.append(f"invariant 2: {c['id']} supersedes across slots {where}")
    return problems


def check_graph(store: Store, results: list[dict[str, Any]] | None = None) -> list[str]:
    """Every DESIGN §7 invariant that can be read off the stored graph; the violations found.

    ``results`` (RevisionResult dumps of every acknowledged write) adds the bookkeeping checks:
    each acknowledged revision exists exactly once and every claim it added is there.
    """
    violations = one_active_per_single_slot(store) + version_chains(store)
    # 3 and 4: no claim without the revision that added it; each revision's recorded result
    # matches its edges (nothing half-applied); revision ids unique.
    for row in q(
        store,
        # An operation that makes a waiting claim the belief (a confirm, a resolve, a promote,
        # a rollback of a rollback of those) also lists it as ADDED, its edge saying what it was
        # while it waited (previous_status); creation is the other one (a promote creates the
        # policy copy it names as such; edges written before previous_status, by op).
        "MATCH (c:Claim) WITH c, count { (r:Revision)-[a:ADDED]->(c) "
        "WHERE a.previous_status IS NULL AND (NOT r.op IN ['confirm', 'resolve', 'promote'] "
        "OR (r.op = 'promote' AND c.promoted_from IS NOT NULL)) } "
        "AS n WHERE n <> 1 RETURN c.id AS id, n LIMIT 20",
    ):
        violations.append(f"invariant 4: claim {row['id']} was created by {row['n']} revisions")
    for row in q(
        store,
        "MATCH (r:Revision) WITH r.id AS id, count(*) AS n WHERE n > 1 RETURN id, n LIMIT 20",
    ):
        violations.append(f"invariant 4: revision {row['id']} exists {row['n']} times")
    for row in q(
        store,
        "MATCH (r:Revision) RETURN r.id AS id, r.result AS result, "
        "[(r)-[:ADDED]->(c) | c.id] AS added, [(r)-[:RETIRED]->(c) | c.id] AS retired, "
        "[(r)-[:REINFORCED]->(c) | c.id] AS reinforced",
    ):
        if row["result"] is None:
            violations.append(f"invariant 4: revision {row['id']} has no stored result")
            continue
        stored = json.loads(row["result"])
        for key in ("added", "retired", "reinforced"):
            if sorted(stored.get(key) or []) != sorted(row[key]):
                violations.append(
                    f"half-applied: revision {row['id']} {key} {stored.get(key)} "
                    f"vs edges {row[key]}"
                )
    # 5: no relationship joins two namespaces.
    for row in q(
        store,
        "MATCH (a)-[r]->(b) WHERE a.namespace <> b.namespace "
        "RETURN type(r) AS type, a.id AS a, b.id AS b LIMIT 20",
    ):
        violations.append(f"invariant 5: {row['type']} joins {row['a']} and {row['b']}")
    # 7: an erased claim keeps no content, and neither do the episodes it came from.
    for row in q(
        store,
        "MATCH (c:Claim {status: 'erased'}) "
        "WHERE c.text IS NOT NULL OR c.object IS NOT NULL OR c.subject IS NOT NULL "
        "OR c.embedding IS NOT NULL OR exists { (c)-[:DERIVED_FROM]->(e:Episode) "
        "WHERE e.content IS NOT NULL AND NOT exists { (e)<-[:DERIVED_FROM]-(o:Claim) "
        "WHERE o.status <> 'erased' } } RETURN c.id AS id LIMIT 20",
    ):
        violations.append(f"invariant 7: erased claim {row['id']} still holds content")
    if results is not None:
        violations += _acknowledged_problems(store, results)
    return violations


def _acknowledged_problems(store: Store, results: list[dict[str, Any]]) -> list[str]:
    acknowledged = [r for r in results if not r.get("replayed")]
    ids = [r["revision_id"] for r in acknowledged]
    found = {
        row["id"]: row["n"]
        for row in q(
            store,
            "UNWIND $ids AS id OPTIONAL MATCH (r:Revision {id: id}) RETURN id, count(r) AS n",
            ids=ids,
        )
    }
    problems = [
        f"invariant 4: acknowledged revision {rid} stored {found.get(rid)}x"
        for rid in ids
        if found.get(rid) != 1
    ]
    claim_ids = sorted({c for r in acknowledged for c in r["added"]})
    present = q(
        store, "UNWIND $ids AS id MATCH (c:Claim {id: id}) RETURN count(c) AS n", ids=claim_ids
    )[0]["n"]
    if present != len(claim_ids):
        problems.append(f"invariant 3: {len(claim_ids) - present} acknowledged claims are missing")
    return problems
