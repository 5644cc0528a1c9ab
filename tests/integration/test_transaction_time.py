"""Transaction time is the engine's clock (issue 64, item 5): whatever a caller sends through
remember, ingest, observe, a correction or the CLI, what the engine knew at an earlier moment
never changes, and a caller cannot stamp a claim; history learned elsewhere keeps its stamps
only through ``import_history``, whose every revision is an audited ``import``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from pydantic import ValidationError

from belief_graph import BeliefGraph, ClaimDraft, ConflictError
from belief_graph.testing.factories import START, Clock, as_history, draft, episode
from belief_graph.testing.graph import check_graph, q

NS = "user:ana"
DAY = timedelta(days=1)


def works_at(company: str, **fields: object) -> ClaimDraft:
    return draft("ana", "works_at", company, namespace=NS, **fields)  # type: ignore[arg-type]


def believed(bg: BeliefGraph, known_at: datetime, valid_at: datetime | None = None) -> str | None:
    found = bg.as_of(NS, "ana", "works_at", valid_at=valid_at, known_at=known_at)
    assert not isinstance(found, list)
    return found.object if found is not None else None


# Each way a client can tell the engine something, told on "today" about two days before.
def _remember(bg: BeliefGraph, when: datetime) -> object:
    return bg.remember(works_at("Globex", valid_from=when))


def _ingest(bg: BeliefGraph, when: datetime) -> object:
    return bg.ingest([works_at("Globex", valid_from=when), works_at("Initech", valid_from=when)])


def _observe(bg: BeliefGraph, when: datetime) -> object:
    return bg.observe(NS, episode("I work at Globex.", at=when, speaker="ana"))


def _correction(bg: BeliefGraph, when: datetime) -> object:
    return bg.remember(works_at("Globex", valid_from=when - DAY, correction=True))


def _rectify(bg: BeliefGraph, when: datetime) -> object:
    current = bg.current(NS, "ana", "works_at")
    assert current is not None and not isinstance(current, list)
    return bg.rectify(NS, current.id, object="Globex", text="Ana works at Globex.", actor="dpo")


DOORS: dict[str, Callable[[BeliefGraph, datetime], object]] = {
    "remember": _remember,
    "ingest": _ingest,
    "observe": _observe,
    "correction": _correction,
    "rectify": _rectify,
}


@pytest.mark.parametrize("door", list(DOORS))
def test_no_write_changes_what_was_known_before_it(
    make_bg: Callable[..., BeliefGraph], door: str
) -> None:
    """The issue's case and its class: Acme is known from day 0; on day 3 a client says
    Globex held from day 1. What the engine knew on days 0-2 (about any moment) stays Acme;
    the new claims are stamped with the engine's clock, not the day the client named."""
    clock = Clock(START)
    bg = make_bg(clock=clock)
    bg.remember(works_at("Acme", valid_from=START))
    moments = [START + DAY * n + timedelta(hours=h) for n in range(3) for h in (1, 12)]
    before = {(t, v): believed(bg, t, v) for t in moments for v in (t, START + 3 * DAY)}
    assert set(before.values()) == {"Acme"}
    today = clock.advance(days=3)
    DOORS[door](bg, START + DAY)
    after = {(t, v): believed(bg, t, v) for t in moments for v in (t, START + 3 * DAY)}
    assert after == before
    stamps = q(
        bg.store,
        "MATCH (c:Claim {namespace: $ns}) WHERE c.object <> 'Acme' RETURN c.recorded_at AS at",
        ns=NS,
    )
    assert stamps and all(row["at"].to_native() >= today for row in stamps)
    assert check_graph(bg.store) == []


def test_a_transaction_time_cannot_be_given_through_any_door(bg: BeliefGraph) -> None:
    stamp = (START - DAY).isoformat()
    raw = {**works_at("Acme").model_dump(exclude_none=True), "recorded_at": stamp}
    with pytest.raises(ValidationError) as refused:
        bg.remember(raw)  # type: ignore[arg-type]
    assert [e["loc"] for e in refused.value.errors()] == [("draft", "recorded_at")]
    with pytest.raises(ValidationError) as refused:
        bg.ingest([raw])  # type: ignore[list-item]
    assert [e["loc"] for e in refused.value.errors()] == [("drafts", 0, "recorded_at")]
    # A draft of history is refused by remember and ingest rather than losing its stamp.
    history = as_history(works_at("Acme"), START - DAY)
    with pytest.raises(ValueError, match=r"^draft: a HistoricalDraft .* import_history"):
        bg.remember(history)
    with pytest.raises(ValueError, match=r"^drafts\[1\]: a HistoricalDraft"):
        bg.ingest([works_at("Acme"), history])
    assert q(bg.store, "MATCH (c:Claim) RETURN count(c) AS n")[0]["n"] == 0


def test_history_keeps_its_stamps_only_through_the_audited_import(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    clock = Clock(START + 30 * DAY)
    bg = make_bg(clock=clock)
    spring = [
        as_history(works_at("Acme", valid_from=START), START + DAY),
        as_history(works_at("Globex", valid_from=START + 10 * DAY), START + 11 * DAY),
    ]
    with pytest.raises(TypeError):
        bg.import_history(spring)  # type: ignore[call-arg]
    with pytest.raises(ValidationError) as refused:
        bg.import_history(spring, actor=" ")
    assert refused.value.errors()[0]["loc"] == ("actor",)
    ids = ["import-1", "import-2"]
    results = bg.import_history(spring, actor="migration from the CRM", revision_ids=ids)
    assert [r.op for r in results] == ["import", "import"]
    assert believed(bg, START + 5 * DAY) == "Acme"
    assert believed(bg, START + 10 * DAY + timedelta(hours=12)) == "Acme"  # not known yet
    assert believed(bg, START + 12 * DAY) == "Globex"
    # The audit: every claim whose transaction time came from outside, and who brought it.
    audit = q(
        bg.store,
        "MATCH (r:Revision {namespace: $ns, op: 'import'})-[:ADDED]->(c:Claim) "
        "RETURN r.actor AS actor, c.object AS object ORDER BY object",
        ns=NS,
    )
    assert audit == [
        {"actor": "migration from the CRM", "object": "Acme"},
        {"actor": "migration from the CRM", "object": "Globex"},
    ]
    lineage = bg.lineage(NS, results[1].added[0])
    assert {r.op for r in lineage.revisions} >= {"import"}
    # Even an import cannot rewrite what was known: not before the fact's last change, not
    # ahead of the engine's clock.
    with pytest.raises(ConflictError, match="recorded_at"):
        bg.import_history([as_history(works_at("Initech"), START + 2 * DAY)], actor="late")
    with pytest.raises(ValueError, match="recorded_at"):
        bg.import_history([as_history(works_at("Initech"), START + 60 * DAY)], actor="ahead")
    # A re-run of the same import (after a failure) replays it.
    replay = bg.import_history(spring, actor="migration from the CRM", revision_ids=ids)
    assert [r.replayed for r in replay] == [True, True]
    assert check_graph(bg.store) == []
