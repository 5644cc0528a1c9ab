"""Consolidation on the real Neo4j: a namespace seeded the way older versions (and hand edits)
left data — duplicates of one fact, a text-only twin, a second belief of a single-valued fact,
stale conflicts, dangling and missing review flags, a wrong version count — comes out clean by
the DESIGN §7 invariants and the integrity checks, as one revision that a rollback undoes
exactly (compared by export)."""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from typer.testing import CliRunner

from belief_graph import BeliefGraph
from belief_graph.cli.app import app
from belief_graph.models import ClaimDraft
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing import factories
from belief_graph.testing.graph import check_graph, q
from belief_graph.transfer.snapshot import export_namespace

NS = "user:priya"
OTHER = "user:omar"
EARLY = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def priyas(subject: str | None, predicate: str | None, obj: str | None, text: str, **kw: Any):
    """The shared factory's draft, in Priya's namespace unless another is given."""
    return factories.draft(
        subject, predicate, obj, namespace=kw.pop("namespace", NS), text=text, **kw
    )


def legacy_claim(
    store: Store,
    slot_id: str,
    claim_id: str,
    *,
    subject: str | None,
    predicate: str,
    obj: str | None,
    text: str,
    version: int | None = 1,
    frequency: int = 1,
    at: datetime = EARLY,
    episode: str | None = None,
    namespace: str = NS,
) -> None:
    """A claim as an older writer stored it, with the revision that added it (so the audit
    invariants hold for the seed itself): no checks, no locks, no chain."""
    result = {
        "revision_id": f"legacy-{claim_id}",
        "namespace": namespace,
        "op": "import",
        "decision": "expand",
        "added": [claim_id],
        "retired": [],
        "reinforced": [],
        "flagged": [],
        "restored": [],
    }
    q(
        store,
        "MATCH (s:Slot {namespace: $ns, id: $slot}) "
        "CREATE (c:Claim)-[:IN_SLOT]->(s) "
        "SET c = {id: $id, namespace: $ns, slot_id: $slot, subject: $subject, "
        "  subject_key: toLower($subject), predicate: $predicate, predicate_text: $predicate, "
        "  object: $obj, object_key: toLower($obj), text: $text, source_type: 'user_stated', "
        "  confidence: 0.7, frequency: $frequency, kind: 'evidence', status: 'active', "
        "  version: $version, valid_from: $at, recorded_at: $at, accepted_at: $at, "
        "  contradiction: false, disputed: false, needs_review: false} "
        "CREATE (r:Revision {id: $rid, namespace: $ns, op: 'import', at: $at, "
        "  decision: 'expand', result: $result})-[:ADDED]->(c) "
        "WITH c CALL (c) { WITH c WHERE $episode IS NOT NULL "
        "  MERGE (e:Episode {namespace: $ns, id: $episode}) "
        "  ON CREATE SET e.content = $text, e.occurred_at = $at "
        "  CREATE (c)-[:DERIVED_FROM]->(e) }",
        ns=namespace,
        slot=slot_id,
        id=claim_id,
        subject=subject,
        predicate=predicate,
        obj=obj,
        text=text,
        version=version,
        frequency=frequency,
        at=at,
        episode=episode,
        rid=f"legacy-{claim_id}",
        result=json.dumps(result),
    )


def legacy_slot(store: Store, slot_id: str, subject_key: str, predicate: str) -> None:
    """The fact of its own a text-only claim opened (``text:<id>``)."""
    q(
        store,
        "CREATE (:Slot {id: $id, namespace: $ns, subject_key: $key, predicate: $predicate, "
        "cardinality: 'single', seq: 1, versions: 1, head: $head})",
        id=slot_id,
        ns=NS,
        key=subject_key,
        predicate=predicate,
        head=subject_key.removeprefix("text:"),
    )


def exported(store: Store, namespace: str = NS, *, audit: bool = True) -> list[str]:
    """The namespace's export, line by line, sorted (no header or footer). ``audit=False``
    leaves out what every write adds by design: Revision nodes and their edges, and each locked
    slot's write counter (``seq``) and ``last_revision``."""
    out = io.StringIO()
    export_namespace(store, namespace, out)
    lines = [
        json.dumps(row, sort_keys=True)
        for row in map(json.loads, out.getvalue().splitlines())
        if row["kind"] not in ("header", "footer")
    ]
    return sorted(lines if audit else _without_audit(lines))


def _without_audit(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        row = json.loads(line)
        if row.get("label") == "Revision" or (row.get("start") or [None])[0] == "Revision":
            continue
        if row.get("label") == "Slot":
            row["props"] = {
                k: v for k, v in row["props"].items() if k not in ("seq", "last_revision")
            }
        out.append(json.dumps(row, sort_keys=True))
    return out


class Seeded:
    """The ids of the seeded namespace."""

    def __init__(self, bg: BeliefGraph, store: Store) -> None:
        def remember(d: ClaimDraft) -> str:
            claim_id = bg.remember(d).claim_id
            assert claim_id is not None
            return claim_id

        # One fact, three current claims: the belief, a legacy duplicate (seen twice, with its
        # own episode) and a text-only twin in a fact of its own.
        self.lisbon = remember(priyas("Priya", "lives_in", "Lisbon", "Priya lives in Lisbon."))
        self.home = bg.get(NS, self.lisbon).slot_id
        assert self.home is not None
        legacy_claim(
            store,
            self.home,
            "dup-lisbon",
            subject="Priya",
            predicate="lives_in",
            obj="Lisbon",
            text="Priya lives in Lisbon",
            frequency=2,
            episode="chat-2025-12",
        )
        q(store, "MATCH (s:Slot {id: $id}) SET s.versions = 2", id=self.home)
        legacy_slot(store, "slot-twin", "text:twin-lisbon", "statement")
        legacy_claim(
            store,
            "slot-twin",
            "twin-lisbon",
            subject=None,
            predicate="statement",
            obj=None,
            text="priya lives in lisbon.",
            episode="voice-note-7",
        )
        # A second belief of a single-valued fact, older than the one the reads answer with,
        # and a claim that depends on it.
        self.acme = remember(priyas("Priya", "works_at", "Acme", "Priya works at Acme."))
        work = bg.get(NS, self.acme).slot_id
        assert work is not None
        legacy_claim(
            store,
            work,
            "old-globex",
            subject="Priya",
            predicate="works_at",
            obj="Globex",
            text="Priya works at Globex.",
        )
        self.commute = remember(
            priyas(
                "Priya",
                "commutes_to",
                "Globex HQ",
                "Priya commutes to Globex HQ.",
                depends_on=("old-globex",),
            )
        )
        # A duplicate value of a multi-valued fact.
        self.tea = remember(priyas("Priya", "likes", "tea", "Priya likes tea."))
        likes = bg.get(NS, self.tea).slot_id
        assert likes is not None
        legacy_claim(
            store,
            likes,
            "dup-tea",
            subject="Priya",
            predicate="likes",
            obj="Tea",
            text="Priya likes tea!",
            version=None,
        )
        # The duplicate's own open conflict, which must not vanish with it.
        self.porto = remember(priyas(None, None, None, "Priya is moving to Porto next year."))
        q(
            store,
            "MATCH (a:Claim {id: 'dup-lisbon'}), (b:Claim {id: $b}) "
            "CREATE (a)-[:CONTRADICTS {score: 0.95, revision_id: 'legacy-conflict'}]->(b) "
            "SET a.disputed = true, b.disputed = true",
            b=self.porto,
        )
        # A stale conflict: one side was superseded long ago, the other is still disputed.
        self.vegetarian = remember(priyas("Priya", "diet", "vegetarian", "Priya is vegetarian."))
        self.vegan = remember(priyas("Priya", "diet", "vegan", "Priya is vegan."))
        self.steak = remember(priyas("Priya", "favourite_dish", "steak", "Priya loves steak."))
        q(
            store,
            "MATCH (a:Claim {id: $a}), (b:Claim {id: $b}) "
            "CREATE (a)-[:CONTRADICTS {score: 0.97, revision_id: 'legacy-stale'}]->(b) "
            "SET b.disputed = true",
            a=self.vegetarian,
            b=self.steak,
        )
        # A dangling review flag: the premise it names is a belief (again).
        self.budget = remember(priyas("Priya", "budget", "high", "Priya's budget is high."))
        self.dinner = remember(
            priyas(
                "Priya",
                "plans",
                "a fancy dinner",
                "Priya plans a fancy dinner.",
                depends_on=(self.budget,),
            )
        )
        q(
            store,
            "MATCH (c:Claim {id: $id}) SET c.needs_review = true, c.review_revision = 'r-old', "
            "c.review_reason = 'it depends on claim ' + $premise + ', which was retracted by "
            "revision r-old'",
            id=self.dinner,
            premise=self.budget,
        )
        # A premise erased by an older version that flagged nobody.
        self.nuts = remember(priyas("Priya", "allergy", "nuts", "Priya is allergic to nuts."))
        self.snack = remember(priyas("Priya", "snack", "trail mix", "Priya snacks trail mix."))
        bg.erase(NS, claim_ids=[self.nuts])
        q(
            store,
            "MATCH (a:Claim {id: $a}), (b:Claim {id: $b}) CREATE (a)-[:DEPENDS_ON]->(b)",
            a=self.snack,
            b=self.nuts,
        )


@pytest.fixture
def seeded(bg: BeliefGraph, store: Store) -> Seeded:
    # A neighbour namespace with a duplicate of its own: consolidation never leaves its own.
    omar = bg.remember(priyas("Omar", "lives_in", "Oslo", "Omar lives in Oslo.", namespace=OTHER))
    home = bg.get(OTHER, omar.claim_id or "").slot_id
    assert home is not None
    legacy_claim(
        store,
        home,
        "omar-dup",
        subject="Omar",
        predicate="lives_in",
        obj="Oslo",
        text="Omar lives in Oslo.",
        namespace=OTHER,
    )
    return Seeded(bg, store)


@pytest.mark.slow
def test_the_seed_breaks_the_invariants_consolidation_restores_them(
    bg: BeliefGraph, store: Store, seeded: Seeded
) -> None:
    before = check_graph(store)
    assert any(v.startswith("invariant 1") for v in before)
    assert any(v.startswith("invariant 2") for v in before)
    omar_before = exported(store, OTHER)

    report = bg.consolidate(NS)

    assert report.revision is not None and report.revision.op == "consolidate"
    assert report.problems == []
    actions = {(s.action, s.claim_id, s.other_id) for s in report.steps}
    assert ("merge", "dup-lisbon", seeded.lisbon) in actions
    assert ("merge", "twin-lisbon", seeded.lisbon) in actions
    assert ("merge", "dup-tea", seeded.tea) in actions
    assert ("supersede", "old-globex", seeded.acme) in actions
    assert ("carry_conflict", seeded.lisbon, seeded.porto) in actions
    assert ("close_conflict", seeded.vegetarian, seeded.steak) in actions
    assert ("clear_flag", seeded.dinner, seeded.budget) in actions
    assert ("flag", seeded.snack, seeded.nuts) in actions
    # The pass never leaves its namespace: the neighbour's duplicate waits for its own.
    assert exported(store, OTHER) == omar_before
    assert bg.consolidate(OTHER).revision is not None
    assert check_graph(store) == []

    # One belief per fact, the one the reads already answered with, holding every mention,
    # episode and dependent of its duplicates.
    belief = bg.current(NS, "Priya", "lives_in")
    assert belief is not None and not isinstance(belief, list)
    assert belief.id == seeded.lisbon and belief.frequency == 4
    lineage = bg.lineage(NS, seeded.lisbon)
    assert {"chat-2025-12", "voice-note-7"} <= {e.id for e in lineage.episodes}
    for merged in ("dup-lisbon", "twin-lisbon"):
        gone = bg.get(NS, merged)
        assert gone.status == "superseded" and gone.text  # retired, never deleted
    supports = q(
        store,
        "MATCH (d:Claim)-[:SUPPORTS]->(s:Claim {id: $id}) RETURN collect(d.id) AS ids",
        id=seeded.lisbon,
    )[0]["ids"]
    assert sorted(supports) == ["dup-lisbon", "twin-lisbon"]
    assert [c.object for c in bg.current(NS, "Priya", "likes")] == ["tea"]  # type: ignore[union-attr]
    assert bg.current(NS, "Priya", "works_at").object == "Acme"  # type: ignore[union-attr]

    # The queues say what is true: the duplicate's conflict stands against the belief, the
    # stale one is closed, the dangling flag is gone, the unflagged dependents are flagged.
    open_conflicts = {(c.claim.id, c.rival.id) for c in bg.conflicts(NS, open_only=True)}
    assert open_conflicts == {(seeded.lisbon, seeded.porto)}
    assert bg.get(NS, seeded.lisbon).disputed and not bg.get(NS, seeded.steak).disputed
    flagged = {c.id for c in bg.needs_review(NS)}
    assert flagged == {seeded.commute, seeded.snack}
    assert bg.get(NS, seeded.budget).status == "active"

    # A second pass finds nothing to do and writes nothing.
    after = exported(store)
    again = bg.consolidate(NS)
    assert again.steps == [] and again.problems == [] and again.revision is None
    assert exported(store) == after


def test_a_rollback_of_the_consolidation_restores_the_namespace_exactly(
    bg: BeliefGraph, store: Store, seeded: Seeded
) -> None:
    before = exported(store, audit=False)
    report = bg.consolidate(NS)
    assert report.revision is not None
    assert exported(store, audit=False) != before

    undone = bg.rollback(NS, report.revision.revision_id)

    assert undone.op == "rollback"
    assert {"dup-lisbon", "twin-lisbon", "dup-tea", "old-globex"} <= set(undone.restored)
    assert exported(store, audit=False) == before
    # The audit trail keeps both: what was done and that it was undone.
    ops = q(store, "MATCH (r:Revision {namespace: $ns}) RETURN collect(r.op) AS ops", ns=NS)
    assert {"consolidate", "rollback"} <= set(ops[0]["ops"])
    # Its record says what to set back, not the merges to make again: that is consolidate's.
    from belief_graph.errors import ConflictError

    with pytest.raises(ConflictError, match="run consolidate again"):
        bg.rollback(NS, undone.revision_id)
    assert exported(store, audit=False) == before
    # And the namespace can be consolidated again, to the same end.
    again = bg.consolidate(NS)
    assert {(s.action, s.claim_id) for s in again.steps} == {
        (s.action, s.claim_id) for s in report.steps
    }


def test_a_dry_run_changes_nothing_and_shows_the_plan(
    bg: BeliefGraph, store: Store, seeded: Seeded
) -> None:
    before = exported(store)
    plan = bg.consolidate(NS, dry_run=True)
    assert plan.dry_run and plan.revision is None and plan.steps
    assert exported(store) == before
    done = bg.consolidate(NS)
    assert [s.model_dump() for s in done.steps] != [] and len(done.steps) == len(plan.steps)


def test_a_rollback_is_refused_once_a_later_write_touched_a_merged_fact(
    bg: BeliefGraph, seeded: Seeded
) -> None:
    from belief_graph.errors import ConflictError

    report = bg.consolidate(NS)
    assert report.revision is not None
    bg.remember(priyas("Priya", "lives_in", "Porto", "Priya lives in Porto."))
    with pytest.raises(ConflictError, match="revision_id"):
        bg.rollback(NS, report.revision.revision_id)


def test_a_clean_namespace_is_left_alone(bg: BeliefGraph, store: Store) -> None:
    bg.remember(priyas("Priya", "lives_in", "Lisbon", "Priya lives in Lisbon."))
    bg.remember(priyas("Priya", "lives_in", "Porto", "Priya lives in Porto."))
    before = exported(store)
    report = bg.consolidate(NS)
    assert report.steps == [] and report.problems == [] and report.revision is None
    assert report.examined["claims"] == 2
    assert exported(store) == before


def test_what_cannot_be_repaired_is_reported_not_changed(bg: BeliefGraph, store: Store) -> None:
    first = bg.remember(priyas("Priya", "lives_in", "Lisbon", "Priya lives in Lisbon."))
    second = bg.remember(priyas("Priya", "lives_in", "Porto", "Priya lives in Porto."))
    # A chain with a gap (an older writer skipped a number) and an edge into another tenant.
    q(store, "MATCH (c:Claim {id: $id}) SET c.version = 3", id=second.claim_id)
    other = bg.remember(priyas("Omar", "lives_in", "Oslo", "Omar lives in Oslo.", namespace=OTHER))
    q(
        store,
        "MATCH (a:Claim {id: $a}), (b:Claim {id: $b}) CREATE (a)-[:DEPENDS_ON]->(b)",
        a=first.claim_id,
        b=other.claim_id,
    )
    before = exported(store)
    report = bg.consolidate(NS)
    assert report.steps == [] and report.revision is None
    checks = sorted((p.check, p.claim_id) for p in report.problems)
    assert ("reference", first.claim_id) in checks
    assert any(c == "chain" for c, _ in checks)
    assert all(other.claim_id not in p.detail for p in report.problems)
    assert exported(store) == before


def test_progress_is_reported_while_a_namespace_is_read(bg: BeliefGraph) -> None:
    bg.ingest(priyas("Priya", "likes", f"thing {i}", f"Priya likes thing {i}.") for i in range(30))
    seen: list[tuple[int, int]] = []
    bg.consolidate(NS, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (30, 30)


def test_later_moments_keep_every_earlier_answer(
    bg: BeliefGraph, store: Store, seeded: Seeded
) -> None:
    """Append-only knowledge (invariant 9): what as_of answered before the pass, for any world
    time known then, it still answers."""
    known = datetime.now(UTC)
    moments = [EARLY - timedelta(days=1), EARLY + timedelta(hours=1), known]
    facts = [("Priya", "lives_in"), ("Priya", "works_at"), ("Priya", "likes")]

    def answers() -> list[Any]:
        out = []
        for subject, predicate in facts:
            for t in moments:
                found = bg.as_of(NS, subject, predicate, valid_at=t, known_at=known)
                items = found if isinstance(found, list) else [found]
                out.append(sorted({(c.object or "").casefold() for c in items if c is not None}))
        return out

    before = answers()
    bg.consolidate(NS)
    assert answers() == before
    # And as known now, the past still has the value it had: a merged duplicate holds its
    # window up to where the claim it folds into starts.
    lived = bg.as_of(NS, "Priya", "lives_in", valid_at=EARLY + timedelta(hours=1))
    assert lived is not None and not isinstance(lived, list) and lived.object == "Lisbon"


def small_seed(bg: BeliefGraph, store: Store) -> str:
    """One fact with a legacy duplicate and a text-only twin; the belief's id."""
    lisbon = bg.remember(priyas("Priya", "lives_in", "Lisbon", "Priya lives in Lisbon."))
    assert lisbon.slot_id is not None and lisbon.claim_id is not None
    legacy_claim(
        store,
        lisbon.slot_id,
        "dup-lisbon",
        subject="Priya",
        predicate="lives_in",
        obj="Lisbon",
        text="Priya lives in Lisbon",
    )
    legacy_slot(store, "slot-twin", "text:twin-lisbon", "statement")
    legacy_claim(
        store,
        "slot-twin",
        "twin-lisbon",
        subject=None,
        predicate="statement",
        obj=None,
        text="priya lives in lisbon.",
    )
    return lisbon.claim_id


@pytest.fixture
def cli(
    neo4j_info: ConnectionInfo, bg: BeliefGraph, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Callable[..., Any]:
    """Run a command in process on the clean test database (no default namespace)."""
    monkeypatch.delenv("BELIEF_GRAPH_NAMESPACE", raising=False)
    monkeypatch.setenv("BELIEF_GRAPH_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("NEO4J_URI", neo4j_info.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_info.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_info.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_info.database)
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "false")
    monkeypatch.setenv("COLUMNS", "160")
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def test_the_cli_prints_the_plan_as_a_table_and_the_result_as_json(
    cli: Callable[..., Any], bg: BeliefGraph, store: Store
) -> None:
    belief = small_seed(bg, store)
    before = exported(store)

    dry = cli("consolidate", NS, "--dry-run")
    assert dry.exit_code == 0, (dry.stdout, dry.stderr)
    assert "planned user:priya" in dry.stdout and "merge" in dry.stdout
    assert "twin-lisbon" in dry.stdout and "nothing (dry run)" in dry.stdout
    assert exported(store) == before

    done = cli("consolidate", "-n", NS, "--json")
    assert done.exit_code == 0, (done.stdout, done.stderr)
    report = json.loads(done.stdout)
    assert report["dry_run"] is False and report["problems"] == []
    merged = {(s["claim_id"], s["other_id"]) for s in report["steps"] if s["action"] == "merge"}
    assert merged == {("dup-lisbon", belief), ("twin-lisbon", belief)}
    revision = report["revision"]["revision_id"]
    assert report["revision"]["op"] == "consolidate"

    clean = cli("consolidate", NS)
    assert clean.exit_code == 0 and "nothing: the namespace is clean" in clean.stdout

    undone = cli("rollback", "-n", NS, revision, "--json")
    assert undone.exit_code == 0, (undone.stdout, undone.stderr)
    assert exported(store, audit=False) == sorted(_without_audit(before))

    bad = cli("consolidate", "user:priya\n")
    assert bad.exit_code == 1 and "namespace" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.slow
def test_the_mcp_tool_consolidates_the_servers_namespace_only(
    neo4j_info: ConnectionInfo, bg: BeliefGraph, store: Store
) -> None:
    belief = small_seed(bg, store)
    env = {k: v for k, v in os.environ.items() if k != "BELIEF_GRAPH_NAMESPACE"}
    env.update(
        NEO4J_URI=neo4j_info.uri,
        NEO4J_USER=neo4j_info.user,
        NEO4J_PASSWORD=neo4j_info.password,
        NEO4J_DATABASE=neo4j_info.database,
        BELIEF_GRAPH_MODELS="false",
    )
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "belief_graph.cli", "mcp", "-n", NS], env=env
    )
    before = exported(store)

    async def body() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert "dry_run" in tools["consolidate"].input_schema["properties"]
            assert "duplicates" in (tools["consolidate"].description or "")

            plan = await session.call_tool("consolidate", {"dry_run": True})
            assert not plan.is_error and plan.structured_content is not None
            assert plan.structured_content["revision"] is None
            assert len(plan.structured_content["steps"]) >= 2
            assert exported(store) == before

            done = await session.call_tool("consolidate", {})
            assert not done.is_error and done.structured_content is not None
            revision = done.structured_content["revision"]
            assert revision["op"] == "consolidate"
            current = await session.call_tool(
                "current", {"subject": "Priya", "predicate": "lives_in"}
            )
            assert current.structured_content is not None
            assert [c["id"] for c in current.structured_content["beliefs"]] == [belief]

            refused = await session.call_tool("consolidate", {"namespace": OTHER})
            assert refused.is_error
            text = " ".join(getattr(c, "text", "") for c in refused.content)
            assert "namespace: this server answers for" in text and "Traceback" not in text

            back = await session.call_tool("rollback", {"revision_id": revision["revision_id"]})
            assert not back.is_error

    anyio.run(body)
    assert exported(store, audit=False) == sorted(_without_audit(before))


@pytest.mark.parametrize("crowd", [0, 300], ids=["alone", "another namespace crowding"])
@pytest.mark.slow
def test_with_the_models_a_text_only_paraphrase_of_a_fact_folds_into_it(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[Any, Any], crowd: int
) -> None:
    """A sentence written before the fact it restates opened a fact of its own; with the models
    on, consolidation finds the fact among the sentence's nearest claims and folds the sentence
    into it, even when another tenant of the database holds many nearer sentences (on a server
    whose vector index spans every namespace, they fill the look-up's first fetch)."""
    from belief_graph.detect import Detector

    embedder, scorer = offline_models
    filler = make_bg(detector=Detector(embedder, None))
    filler.ingest(
        [
            priyas(
                f"tenant {i}",
                "lives_in",
                "Lisbon",
                f"Lives in Lisbon: Priya ({i}).",
                namespace="user:crowd",
            )
            for i in range(crowd)
        ]
    )
    bg = BeliefGraph(filler.store, detector=Detector(embedder, scorer))
    twin = bg.remember(priyas(None, None, None, "Lives in Lisbon: Priya.")).claim_id
    fact = bg.remember(priyas("Priya", "lives_in", "Lisbon", "Priya now lives in Lisbon.")).claim_id
    assert bg.get(NS, twin or "").slot_id != bg.get(NS, fact or "").slot_id
    report = bg.consolidate(NS)
    assert ("merge", twin, fact) in {(s.action, s.claim_id, s.other_id) for s in report.steps}
