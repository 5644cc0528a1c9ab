"""The claim's time fields: one list, on two axes (DESIGN §3)."""

from __future__ import annotations

from datetime import datetime

from belief_graph.models import (
    CLAIM_MOMENTS,
    CLAIM_TRANSACTION_TIMES,
    CLAIM_VALID_TIMES,
    Claim,
)
from belief_graph.transfer import snapshot
from belief_graph.write import state


def test_the_claims_moments_are_listed_once_on_their_axes() -> None:
    """Every datetime a ``Claim`` returns is among the moments the engine parses, writes and
    restores (models.CLAIM_MOMENTS), on one axis: world time or the engine's own clock."""
    returned = {
        name
        for name, field in Claim.model_fields.items()
        if field.annotation in (datetime, datetime | None)
    }
    assert returned <= set(CLAIM_MOMENTS)
    assert set(CLAIM_VALID_TIMES).isdisjoint(CLAIM_TRANSACTION_TIMES)
    assert {"valid_from", "valid_to"} <= set(CLAIM_VALID_TIMES)
    assert {"recorded_at", "superseded_at", "retracted_at"} <= set(CLAIM_TRANSACTION_TIMES)


def test_reads_and_restores_take_the_one_list() -> None:
    """A moment added to the list is parsed on read and checked on restore, with no second
    list to keep in step."""
    row = {name: "2026-01-02T03:04:05+00:00" for name in CLAIM_MOMENTS}
    assert all(isinstance(v, datetime) for v in state.moments(row).values())
    assert snapshot._MOMENTS["Claim"] == CLAIM_MOMENTS
    assert snapshot._TRANSACTION_TIMES["Claim"] == CLAIM_TRANSACTION_TIMES
