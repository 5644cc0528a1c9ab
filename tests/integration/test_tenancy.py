"""A database per tenant (docs/deploy.md, "Tenancy"), on the session's Community server, which
has one user database: a mapping that names it works end to end through the mapped path, and a
mapping to a database the server lacks is refused by name with nothing written."""

from __future__ import annotations

import inspect
import io
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph, Claim, ClaimDraft
from belief_graph.cli.app import app
from belief_graph.detect import Detector
from belief_graph.errors import ConfigError
from belief_graph.extraction import Episode as Said
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing import factories
from belief_graph.testing.factories import as_history
from belief_graph.testing.graph import counts, one_active_per_single_slot, string_values
from belief_graph.transfer.snapshot import export_namespace

TENANT = "tenant-a:priya"
PLAIN = "plain:priya"
GHOST = "ghost:priya"


def home_in(namespace: str, obj: str) -> ClaimDraft:
    return factories.draft(
        "priya", "lives_in", obj, namespace=namespace, text=f"Priya lives in {obj}."
    )


@pytest.fixture
def mapped(
    neo4j_info: ConnectionInfo, make_bg: Callable[..., BeliefGraph]
) -> Iterator[BeliefGraph]:
    """A client whose ``tenant-a:`` namespaces are mapped to the default database by name."""
    make_bg()  # an empty database
    databases = {"tenant-a:": neo4j_info.database}
    with BeliefGraph(
        Store(neo4j_info.uri, neo4j_info.auth, neo4j_info.database, databases=databases)
    ) as bg:
        yield bg


@pytest.fixture
def ghostly(
    neo4j_info: ConnectionInfo, make_bg: Callable[..., BeliefGraph]
) -> Iterator[BeliefGraph]:
    """A client whose ``ghost:`` namespaces are mapped to a database the server does not have."""
    make_bg()  # an empty database
    databases = {"ghost:": "ghost-db"}
    with BeliefGraph(
        Store(neo4j_info.uri, neo4j_info.auth, neo4j_info.database, databases=databases)
    ) as bg:
        yield bg


def test_a_namespace_mapped_to_the_default_database_by_name_works_end_to_end(
    mapped: BeliefGraph, neo4j_info: ConnectionInfo
) -> None:
    view = mapped.store.on(TENANT)
    assert view is not mapped.store and view.database == neo4j_info.database
    assert view.ensure_schema() == [], "the schema is complete: nothing to apply"

    assert mapped.remember(home_in(TENANT, "Lisbon")).verdict == "NEW"
    moved = mapped.remember(home_in(TENANT, "Porto"))
    assert moved.verdict == "UPDATE"
    belief = mapped.current(TENANT, "priya", "lives_in")
    assert belief is not None and not isinstance(belief, list) and belief.object == "Porto"
    assert [c.object for c in mapped.history(TENANT, "priya", "lives_in")] == ["Lisbon", "Porto"]

    # One batch across a mapped and an unmapped namespace: both land, results in order.
    results = mapped.ingest(
        [home_in(PLAIN, "Madrid"), home_in(TENANT, "Faro"), home_in(PLAIN, "Seville")],
        batch_size=10,
    )
    assert [r.verdict for r in results] == ["NEW", "UPDATE", "UPDATE"]
    tenant = mapped.current(TENANT, "priya", "lives_in")
    plain = mapped.current(PLAIN, "priya", "lives_in")
    assert tenant is not None and not isinstance(tenant, list) and tenant.object == "Faro"
    assert plain is not None and not isinstance(plain, list) and plain.object == "Seville"
    assert one_active_per_single_slot(mapped.store) == []

    # The listing spans the databases in use, each namespace in the database it is mapped to.
    listed = {n.namespace: n for n in mapped.namespaces()}
    assert set(listed) == {TENANT, PLAIN}
    assert listed[TENANT].database == listed[TENANT].mapped_to == neo4j_info.database
    assert (listed[TENANT].claims, listed[TENANT].active) == (3, 1)

    # A snapshot of the mapped namespace holds its claims.
    out = io.StringIO()
    assert export_namespace(mapped.store, TENANT, out)["Claim"] == 3
    header = json.loads(out.getvalue().splitlines()[0])
    assert header["namespace"] == TENANT

    # Bookmarks carry the mapped writes to another client with the same mapping.
    with BeliefGraph.connect(
        neo4j_info.uri,
        database=neo4j_info.database,
        models=False,
        bookmarks=mapped.bookmarks(),
        databases={"tenant-a:": neo4j_info.database},
    ) as reader:
        seen = reader.current(TENANT, "priya", "lives_in")
        assert seen is not None and not isinstance(seen, list) and seen.object == "Faro"

    # Erasing the mapped namespace runs on its database and leaves the other one as it was.
    mapped.erase(TENANT, actor="dpo")
    assert mapped.current(TENANT, "priya", "lives_in") is None
    assert {n.namespace: n.active for n in mapped.namespaces()}[TENANT] == 0
    stored = string_values(mapped.store)
    assert not [v for v in stored if any(c in v for c in ("Lisbon", "Porto", "Faro"))]
    still = mapped.current(PLAIN, "priya", "lives_in")
    assert still is not None and not isinstance(still, list) and still.object == "Seville"


def test_a_mapping_to_a_missing_database_is_refused_naming_namespace_and_database(
    ghostly: BeliefGraph,
) -> None:
    mapped = ghostly
    mapped.remember(home_in(PLAIN, "Madrid"))
    before = counts(mapped.store)
    attempts: list[Callable[[], object]] = [
        lambda: mapped.remember(home_in(GHOST, "Lisbon")),
        lambda: mapped.ingest([home_in(GHOST, "Lisbon"), home_in(GHOST, "Porto")]),
        lambda: mapped.current(GHOST, "priya", "lives_in"),
        lambda: mapped.erase(GHOST, actor="dpo"),
    ]
    for attempt in attempts:
        with pytest.raises(ConfigError) as refused:
            attempt()
        message = str(refused.value)
        assert repr(GHOST) in message and "'ghost-db'" in message, message
        assert "Nothing was written" in message
    # Whatever spans the databases names the missing one too.
    with pytest.raises(ConfigError, match="under 'ghost:' → the database 'ghost-db'"):
        mapped.init_schema()
    with pytest.raises(ConfigError, match="'ghost-db'"):
        mapped.namespaces()
    assert counts(mapped.store) == before, "a refused write left something behind"
    # The namespaces that are not mapped there carry on.
    assert mapped.remember(home_in(PLAIN, "Porto")).verdict == "UPDATE"


def test_the_command_line_reads_the_mapping_from_the_environment(
    neo4j_info: ConnectionInfo,
    make_bg: Callable[..., BeliefGraph],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    make_bg()  # an empty database
    monkeypatch.setenv("BELIEF_GRAPH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("NEO4J_URI", neo4j_info.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_info.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_info.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_info.database)
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "false")
    monkeypatch.setenv("NEO4J_DATABASES", json.dumps({"tenant-a:": neo4j_info.database}))
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(app, list(args))

    fact = ("--subject", "priya", "--predicate", "lives_in", "--object", "Lisbon")
    fact += ("--text", "Priya lives in Lisbon.", "--json")
    done = run("remember", "-n", TENANT, *fact)
    assert done.exit_code == 0, done.output
    listed = run("namespaces", "--json")
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.stdout) == [
        {
            "namespace": TENANT,
            "database": neo4j_info.database,
            "claims": 1,
            "active": 1,
            "mapped_to": neo4j_info.database,
        }
    ]
    table = run("namespaces")
    assert table.exit_code == 0 and TENANT in table.stdout and neo4j_info.database in table.stdout

    for mapping, needles in (
        ({"ghost:": "ghost-db"}, ("'ghost-db'", "'ghost:'")),
        ({"tenant-a:": "tenant_a"}, ("databases", "'tenant_a'")),
    ):
        monkeypatch.setenv("NEO4J_DATABASES", json.dumps(mapping))
        refused = run("namespaces")
        assert refused.exit_code == 1, refused.output
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in refused.output, refused.stderr
        assert all(n in lines[0] for n in needles), lines[0]


def test_a_scope_chain_across_databases_is_refused_by_name(
    mapped: BeliefGraph, ghostly: BeliefGraph
) -> None:
    """A chain is read in one statement: namespaces in one database (mapped there by name or
    not) resolve together; a chain that spans two databases is refused, naming the scope."""
    mapped.remember(home_in(TENANT, "Lisbon"))
    mapped.remember(home_in(PLAIN, "Porto"))
    answer = mapped.scoped_current([TENANT, PLAIN], "priya", "lives_in")
    assert [b.claim.object for b in answer.beliefs] == ["Lisbon"]
    before = counts(ghostly.store)
    with pytest.raises(ConfigError, match=r"scope: the chain .*ghost-db"):
        ghostly.scoped_current([PLAIN, GHOST], "priya", "lives_in")
    assert counts(ghostly.store) == before


class _UnitEmbedder:
    """Unit vectors the vector index can hold: enough for a search to reach its database."""

    dim = 384

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> list[list[float]]:
        return [[1.0] + [0.0] * 383 for _ in texts]


# Public members that name no namespace: the connection's own lifecycle and health.
_NAMESPACE_FREE = {"bookmarks", "close", "connect", "default_batch_size", "doctor"}


def _calls(bg: BeliefGraph) -> dict[str, Callable[[], object]]:
    """One call of every public method that takes a namespace (or a scope, or drafts), each
    naming the mapped namespace ``GHOST``; ids need not exist, the database is reached first."""
    claim = Claim(
        id="c1",
        namespace=GHOST,
        source_type="user_stated",
        confidence=0.8,
        status="active",
        predicate="lives_in",
        valid_from=datetime(2026, 3, 1, tzinfo=UTC),
        recorded_at=datetime(2026, 3, 1, tzinfo=UTC),
        slot_id="s1",
    )
    said = Said(speaker="priya", at=datetime(2026, 3, 1, tzinfo=UTC), text="I live in Lisbon.")
    return {
        "as_of": lambda: bg.as_of(GHOST, "priya", "lives_in"),
        "beliefs": lambda: bg.beliefs(GHOST, "priya"),
        "confirm": lambda: bg.confirm(GHOST, "c1"),
        "conflicts": lambda: bg.conflicts(GHOST),
        "consolidate": lambda: bg.consolidate(GHOST),
        "contract": lambda: bg.contract(GHOST, "c1"),
        "current": lambda: bg.current(GHOST, "priya", "lives_in"),
        "current_beliefs": lambda: bg.current_beliefs(GHOST, "langgraph_value"),
        "demote": lambda: bg.demote(GHOST, "c1"),
        "dismiss": lambda: bg.dismiss(GHOST, "c1", "c2"),
        "disputes": lambda: bg.disputes(GHOST),
        "embed": lambda: bg.embed(GHOST),
        "erase": lambda: bg.erase(GHOST),
        "get": lambda: bg.get(GHOST, "c1"),
        "history": lambda: bg.history(GHOST, "priya", "lives_in"),
        "ingest": lambda: bg.ingest([home_in(GHOST, "Lisbon")]),
        "import_history": lambda: bg.import_history(
            [as_history(home_in(GHOST, "Lisbon"), datetime(2026, 3, 1, tzinfo=UTC))], actor="ops"
        ),
        "init_schema": lambda: bg.init_schema(),
        "lineage": lambda: bg.lineage(GHOST, "c1"),
        "namespaces": lambda: bg.namespaces(),
        "namespaces_holding": lambda: bg.namespaces_holding("langgraph_value"),
        "needs_review": lambda: bg.needs_review(GHOST),
        "observe": lambda: bg.observe(GHOST, said),
        "pending": lambda: bg.pending(GHOST),
        "promote": lambda: bg.promote(GHOST, "c1", by="human", actor="ana"),
        "rectify": lambda: bg.rectify(GHOST, "c1", object="Porto", text="In Porto.", actor="ana"),
        "reject": lambda: bg.reject(GHOST, "c1"),
        "remember": lambda: bg.remember(home_in(GHOST, "Lisbon")),
        "resolve": lambda: bg.resolve(GHOST, "c1", "c2", keep="c1"),
        "reviewed": lambda: bg.reviewed(GHOST, "c1"),
        "rivals": lambda: bg.rivals(GHOST, [claim]),
        "rollback": lambda: bg.rollback(GHOST, "r1"),
        "scoped_as_of": lambda: bg.scoped_as_of([GHOST], "priya", "lives_in"),
        "scoped_current": lambda: bg.scoped_current([GHOST], "priya", "lives_in"),
        "scoped_search": lambda: bg.scoped_search("where does she live", [GHOST]),
        "search": lambda: bg.search("where does she live", GHOST),
        "subjects": lambda: bg.subjects(GHOST),
    }


def test_every_public_operation_routes_through_the_database_map(
    neo4j_info: ConnectionInfo, make_bg: Callable[..., BeliefGraph]
) -> None:
    """Every public method that names a namespace reaches the namespace's mapped database
    (here one the server lacks, so reaching it is a ConfigError naming it): none runs on the
    default database instead. The methods are enumerated, so a new one fails this test until it
    is given a call here (or is shown to name no namespace)."""
    make_bg().remember(home_in(PLAIN, "Madrid"))
    with BeliefGraph(
        Store(
            neo4j_info.uri, neo4j_info.auth, neo4j_info.database, databases={"ghost:": "ghost-db"}
        ),
        detector=Detector(_UnitEmbedder()),  # type: ignore[arg-type]
    ) as bg:
        public = {name for name, _ in inspect.getmembers(BeliefGraph) if not name.startswith("_")}
        calls = _calls(bg)
        assert public - _NAMESPACE_FREE == set(calls), "give every public method a call here"
        before = counts(bg.store)
        for name, call in calls.items():
            with pytest.raises(ConfigError, match="'ghost-db'"):
                call()
                pytest.fail(f"{name} ran without reaching the mapped database")
            assert counts(bg.store) == before, f"{name} wrote to the default database"
