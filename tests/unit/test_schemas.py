"""The committed JSON Schemas match the models (regenerate: python -m belief_graph.schemas)."""

from __future__ import annotations

import json

from belief_graph.schemas import SCHEMA_DIR, render


def test_committed_schemas_match_the_models() -> None:
    expected = render()
    committed = {p.name for p in SCHEMA_DIR.glob("*.schema.json")}
    assert committed == set(expected), "a schema file is missing or stale"
    for name, text in expected.items():
        assert (SCHEMA_DIR / name).read_text(encoding="utf-8") == text, f"{name} drifted"


def test_the_draft_schema_names_its_required_fields() -> None:
    schema = json.loads(render()["claim_draft.schema.json"])
    assert set(schema["required"]) == {"namespace", "text"}
    assert schema["properties"]["confidence"]["maximum"] == 1.0
