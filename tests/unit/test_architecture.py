"""The structure docs/architecture.md describes, where an import rule cannot say it."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "belief_graph"


def test_only_write_apply_opens_a_write_transaction() -> None:
    openers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "store.py"
        and re.search(r"\.(transaction|write_once)\(", path.read_text("utf-8"))
    )
    assert openers == ["write/apply.py"]


def test_statements_that_write_live_in_write_schema_or_transfer() -> None:
    """cypher/read/, admin/ and audit/ only read: beliefs change through cypher/write/ (plus the
    schema, and the snapshot restore in transfer/, a bulk load into an empty namespace)."""
    cypher = PACKAGE.parent / "cypher"
    writes = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE)\b")
    offenders = sorted(
        str(path.relative_to(cypher))
        for path in cypher.rglob("*.cypher")
        if path.parts[-2] not in ("write", "schema", "transfer")
        and writes.search(
            "\n".join(
                line for line in path.read_text("utf-8").splitlines() if not line.startswith("//")
            )
        )
    )
    assert offenders == []


# A part its carriers filter after they carry it (read/held_claims: a fact's claims that hold).
_FILTERED_BY_CARRIERS = {"read/held_claims"}


def test_every_read_leaves_out_what_a_running_erase_covers() -> None:
    """Each statement under cypher/read/ that reads claims keeps one only where read/hidden
    says no erase running covers it (docs/engine.md, "Erase at any size"): a new read that
    forgets fails here."""
    from belief_graph import cypher

    names = [n for n in cypher.names("read") if n not in _FILTERED_BY_CARRIERS]
    for name in names + [cypher.variant(n, True) for n in names]:
        text = cypher.load(name)
        if ":Claim" in text and name != "read/hidden":
            assert "hidden.whole" in text and "CALL () {" in text, name
