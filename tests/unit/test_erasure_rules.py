"""The pure parts of an erase (write/erasure.py, vocabulary.fold): which revisions hold the
caller's words about what it erased and how they are rewritten, which running erase a call
resumes, and the one form names and texts are matched in."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest

from belief_graph.models import RevisionResult
from belief_graph.vocabulary import fold
from belief_graph.write import erasure

RID = "ERASE-1"


def revision(op: str, reason: str, *, linked: bool = False, **more: Any) -> dict[str, Any]:
    """A row of write/erase_revisions (``linked``: it touched the erased claim c1)."""
    result = RevisionResult(revision_id=f"r-{op}", namespace="n", op=op, decision=op, reason=reason)  # type: ignore[arg-type]
    return {
        "id": f"r-{op}",
        "op": op,
        "reason": reason,
        "result": result.model_dump_json(),
        "undo": None,
        "slot_ids": [],
        "claims": ["c1"] if linked else ["c7"],
        **more,
    }


def test_caller_text_is_rewritten_and_engine_text_kept() -> None:
    rows = [
        revision("contract", "Priya's test came back XQ", linked=True),
        revision("remember", "empty slot", linked=True),
        revision("demote", "XQ disputed", slot_ids=["S1"]),
        revision("dismiss", "XQ both true", slot_ids=["S9"]),  # about another fact
        revision("resolve", "", linked=True),  # nothing to take
    ]
    out, done = erasure.scrub(rows, RID, {"c1"}, {"S1"}, whole=False)
    assert [r["id"] for r in out] == ["r-contract", "r-demote"]
    assert all(r["reason"] == f"erased by revision {RID}" for r in out)
    assert all("XQ" not in r["result"] for r in out) and done == 2
    whole, _ = erasure.scrub(rows, RID, set(), set(), whole=True)
    assert {r["id"] for r in whole} == {"r-contract", "r-demote", "r-dismiss"}


def test_an_undo_record_loses_the_text_it_copied_from_an_erased_claim() -> None:
    undo = {
        "claims": {
            "c1": {"review_reason": "policy demoted to disputed: XQ", "status": "active"},
            "c2": {"review_reason": "kept: about another subject", "status": "active"},
        },
        "conflicts": [],
        "slots": {},
    }
    row = revision("consolidate", "consolidation: 1 merge", undo=json.dumps(undo))
    [out], done = erasure.scrub([row], RID, {"c1"}, set(), whole=False)
    kept = json.loads(out["undo"])
    assert kept["claims"]["c1"] == {"review_reason": None, "status": "active"}
    assert kept["claims"]["c2"] == undo["claims"]["c2"] and done == 1
    [again], _ = erasure.scrub([row], RID, set(), set(), whole=True)
    assert json.loads(again["undo"])["claims"]["c2"]["review_reason"] is None


def test_a_resumed_scrub_counts_what_it_rewrote_before() -> None:
    rows = [revision("contract", f"erased by revision {RID}", linked=True)]
    out, done = erasure.scrub(rows, RID, {"c1"}, set(), whole=False)
    assert out == [] and done == 1


@pytest.mark.parametrize(
    ("scope", "key", "ids", "running", "same"),
    [
        ("namespace", None, None, {"scope": "namespace", "key": None, "ids": None}, True),
        ("subject", "ana", None, {"scope": "subject", "key": "ana", "ids": None}, True),
        ("subject", "ana", None, {"scope": "subject", "key": "bob", "ids": None}, False),
        ("claims", None, ("a", "b"), {"scope": "claims", "key": None, "ids": ["b", "a"]}, True),
        ("claims", None, ("a",), {"scope": "claims", "key": None, "ids": ["a", "b"]}, False),
        ("namespace", None, None, {"scope": "subject", "key": "ana", "ids": None}, False),
    ],
)
def test_an_erase_resumes_only_a_running_erase_of_its_own_scope(
    scope: Any, key: str | None, ids: tuple[str, ...] | None, running: dict[str, Any], same: bool
) -> None:
    assert erasure.Job("n", scope, key=key, ids=ids).same(running) is same


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Weiß", "HERR WEISS wurde untersucht."),  # ß and ss, case
        ("WEISS", "Herr Weiß wurde untersucht."),
        ("Νίκος", "Ο ΝΊΚΟΣ ήρθε."),  # final sigma from upper case
        ("ΟΔΥΣΣΕΥΣ", "ο οδυσσευς ήρθε"),  # final ς against σ
        ("İstanbul", "ISTANBUL is large."),  # Turkish dotted capital
        ("Işık", "IŞIK geldi."),  # dotless ı against I
        ("ışık", "Işık geldi."),
        ("Café", "Cafe\u0301 Müller"),  # composed against decomposed
        (unicodedata.normalize("NFD", "Müller"), "Herr Müller"),
        ("Ｗｅｉｓｓ", "weiss"),  # full-width
    ],
)
def test_a_name_is_found_in_text_whatever_its_script_spells(name: str, text: str) -> None:
    import re

    # Java's \\p{L} is Python's [^\\W\\d_] for letters; the pattern is checked as Java reads it
    # on the real server (tests/integration/test_erase_scripts.py).
    pattern = erasure.mention(name).replace("\\p{L}\\p{N}_", "\\w")
    assert re.fullmatch(pattern, fold(text)), (name, text, fold(text))


def test_fold_is_idempotent_and_keeps_other_words_apart() -> None:
    for word in ("Weiß", "ΝΊΚΟΣ", "İstanbul", "Işık", "Cafe\u0301"):
        assert fold(fold(word)) == fold(word)
    assert fold("Weiß") != fold("Weis")
    assert fold("Nikos") != fold("Νίκος")
