"""The saved audit queries (cypher/audit/): every shipped statement plans, and each audit
answers the story it is about on a real database."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft, cypher
from belief_graph.cli import browser as audit
from belief_graph.policy import Policy
from belief_graph.store import Store
from belief_graph.testing import factories
from belief_graph.testing.factories import as_history

NS = "audit:atlas"
AUDITS = [
    "known_at",
    "open_conflicts",
    "pending_confirmations",
    "policy_disputes",
    "promotions",
    "revision_changes",
    "revision_flagged",
    "slot_lineage",
]


def day(month: int, d: int = 1) -> datetime:
    return datetime(2026, month, d, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    "name", [n for n in cypher.names() if not n.startswith(("schema/", cypher.CYPHER25))]
)
@pytest.mark.slow
def test_every_statement_explains(store: Store, name: str) -> None:
    """EXPLAIN plans each shipped statement without running it: audit files included."""
    store.explain(name)


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in cypher.names()
        if n.startswith(cypher.CYPHER25) and not n.startswith(f"{cypher.CYPHER25}/schema/")
    ],
)
@pytest.mark.slow
def test_the_cypher25_variant_explains_where_the_engine_picks_it(store: Store, name: str) -> None:
    """A Cypher 25 statement is chosen only on a server whose vector index filters (Neo4j 2026),
    and plans there; elsewhere the engine picks the Cypher 5 statement, which plans."""
    base = name.removeprefix(f"{cypher.CYPHER25}/")
    chosen = cypher.variant(base, store.filters_in_vector_index())
    assert (chosen == name) == store.filters_in_vector_index()
    store.explain(chosen)


def test_audit_folder_is_covered() -> None:
    assert audit.available() == AUDITS
    assert {f"audit/{n}" for n in AUDITS} <= set(cypher.names())


@pytest.mark.parametrize("name", AUDITS)
def test_audit_files_declare_their_params_and_fit_a_browser_url(name: str) -> None:
    query = audit.load(name)
    used = set(re.findall(r"\$(\w+)", query.body))
    assert used == set(query.params), (used, query.params)
    assert query.params["namespace"] == "string"
    assert "Returns:" in query.text
    # Browser splits its URL at & and # after decoding it: the query can never hold them.
    assert "&" not in query.body and "#" not in query.body
    assert ";" not in query.body


def framework(obj: str, month: int, **extra: Any) -> ClaimDraft:
    """The project's framework ``obj``, from the first of ``month``, said in episode S-obj."""
    fields = {
        "text": f"The project uses {obj}.",
        "episode_id": f"S-{obj}",
        "valid_from": day(month),
    }
    return factories.draft("atlas", "uses", obj, namespace=NS, **{**fields, **extra})


def test_slot_lineage_and_known_at(bg: BeliefGraph, store: Store) -> None:
    story = (("Express", 3), ("Fastify", 5), ("Go", 7))
    # Learned the day after each began: history, imported with the days it was learned on.
    learned = [as_history(framework(obj, month), day(month, 2)) for obj, month in story]
    ids = [r.added[0] for r in bg.import_history(learned, actor="audit test", batch_size=1)]
    rows = store.read("audit/slot_lineage", namespace=NS, claim_id=ids[1])
    assert [r["id"] for r in rows] == ids
    assert [r["status"] for r in rows] == ["superseded", "superseded", "active"]
    assert [r["version"] for r in rows] == [1, 2, 3]
    assert [len(r["chain"]) for r in rows] == [0, 1, 1]
    assert all(len(r["provenance"]) == 1 for r in rows)
    assert store.read("audit/slot_lineage", namespace="other", claim_id=ids[1]) == []

    then = store.read("audit/known_at", namespace=NS, known_at=day(6))
    assert [r["id"] for r in then] == ids[:2]
    assert [r["believed_then"] for r in then] == [False, True]
    assert then[1]["valid_to_then"] is None  # Go was not recorded yet: Fastify's end unknown
    assert [len(r["chain"]) for r in then] == [0, 1]
    now = store.read("audit/known_at", namespace=NS, known_at=day(12))
    assert [r["believed_then"] for r in now] == [False, False, True]


def test_conflicts_pending_and_revision_audits(
    make_bg: Callable[..., BeliefGraph], store: Store
) -> None:
    bg = make_bg(policy=Policy(preset="conservative"))
    first = bg.remember(framework("Express", 3))
    held = bg.remember(framework("Go", 5))
    assert held.decision == "hold_pending"
    pending = store.read("audit/pending_confirmations", namespace=NS)
    assert [p["id"] for p in pending] == held.added
    assert pending[0]["rival_ids"] == first.added
    conflicts = store.read("audit/open_conflicts", namespace=NS)
    assert len(conflicts) == 1 and {conflicts[0]["claim_id"], conflicts[0]["rival_id"]} == {
        first.added[0],
        held.added[0],
    }
    assert len(conflicts[0]["slots"]) == 2

    changes = store.read("audit/revision_changes", namespace=NS, revision_id=held.revision_id)
    assert {(c["change"], c["id"]) for c in changes} == {
        ("ADDED", held.added[0]),
        ("FLAGGED", first.added[0]),  # marked disputed
    }
    assert changes[0]["op"]

    dependent = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="atlas",
            predicate="deploys_with",
            object="a Node buildpack",
            text="Atlas deploys with a Node buildpack.",
            depends_on=tuple(first.added),
        )
    )
    retract = bg.contract(NS, first.added[0], retract=True, reason="wrong")
    assert retract.flagged == dependent.added
    flagged = store.read("audit/revision_flagged", namespace=NS, revision_id=retract.revision_id)
    assert [f["id"] for f in flagged] == dependent.added
    assert flagged[0]["needs_review"] is True
    assert len(flagged[0]["premises"]) == 1
    retired = store.read("audit/revision_changes", namespace=NS, revision_id=retract.revision_id)
    assert {(c["change"], c["id"]) for c in retired} >= {
        ("RETIRED", first.added[0]),
        ("FLAGGED", dependent.added[0]),
    }


def test_policy_disputes_and_promotions_audits(bg: BeliefGraph, store: Store) -> None:
    rule = bg.remember(framework("pnpm", 3, kind="policy", origin="ADR-7", episode_id="ADR-7"))
    seen = [
        bg.remember(
            framework(
                "npm", 4, source_type="observed", author=f"agent-{i % 2}", episode_id=f"run-{i}"
            )
        )
        for i in range(3)
    ]
    assert seen[0].decision == "hold_pending" and seen[1].reinforced == seen[0].added
    [row] = store.read("audit/policy_disputes", namespace=NS)
    assert row["id"] == rule.added[0] and row["demoted"] is True
    assert row["evidence_ids"] == seen[0].added and row["episodes"] == 3
    assert "independent episodes" in row["review_reason"]
    assert store.read("audit/policy_disputes", namespace="other") == []
    promoted = bg.promote(NS, seen[0].added[0], by="human", actor="tech-lead")
    rows = store.read("audit/promotions", namespace=NS)
    assert {(r["op"], r["change"], r["id"]) for r in rows} >= {
        ("promote", "ADDED", seen[0].added[0]),
        ("promote", "RETIRED", rule.added[0]),
    }
    assert all(r["actor"] == "tech-lead" for r in rows if r["op"] == "promote")
    assert any(r["supersedes"] for r in rows if r["revision_id"] == promoted.revision_id)
    assert store.read("audit/policy_disputes", namespace=NS) == []
