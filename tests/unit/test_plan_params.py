"""A statement planned once takes its lists in one map (docs/engine.md#plans): Neo4j keys a
cached plan by its parameters' list lengths too, so lists of their own would have the write
path planned again, for seconds, at every new mix of lengths."""

from __future__ import annotations

import pytest

from belief_graph import cypher
from belief_graph.store import _query

EMPTY_STATE = {
    "slots": [],
    "slot_refs": [],
    "near": [],
    "claim_refs": [],
    "revisions": [],
    "claim_ids": [],
    "walk_up_to": 16,
    "by_id_whole": True,
}


def test_the_write_paths_statements_are_planned_once_and_read_their_lists_from_one_map() -> None:
    for name in ("write/state", "write/apply", "write/changes", "write/flags", "write/finish"):
        assert cypher.planned_once(name), name
        assert cypher.batch_keys(name), name
    # write/apply carries write/changes: it reads every list the changes read, and its own.
    assert cypher.batch_keys("write/changes") < cypher.batch_keys("write/apply")
    assert {"slots", "revisions", "retired"} <= cypher.batch_keys("write/apply")


def test_a_list_of_its_own_is_refused_before_anything_is_sent() -> None:
    with pytest.raises(TypeError, match=r"write/state: lists \['slots'\] must come inside"):
        _query("write/state", {"slots": [], "batch": EMPTY_STATE})


def test_a_key_the_statement_reads_and_the_map_lacks_is_named() -> None:
    batch = {k: v for k, v in EMPTY_STATE.items() if k != "claim_refs"}
    with pytest.raises(TypeError, match=r"write/state: \$batch lacks \['claim_refs'\]"):
        _query("write/state", {"batch": batch})


def test_the_whole_map_passes_and_statements_that_replan_keep_their_lists() -> None:
    assert "UNWIND $batch.slots" in _query("write/state", {"batch": EMPTY_STATE})
    assert not cypher.planned_once("write/lock")
    assert _query("write/lock", {"slots": [], "revisions": []})
    # EXPLAIN sends no parameters and is not checked.
    assert _query("write/apply")


def test_a_statement_carrying_a_cypher25_one_has_a_cypher25_variant_planned_once_too() -> None:
    # write/state carries write/neighbours, which has a Cypher 25 statement of its own.
    assert cypher.variant("write/state", True) == "cypher25/write/state"
    assert cypher.variant("write/state", False) == "write/state"
    assert cypher.variant("write/apply", True) == "write/apply"  # carries none
    text = cypher.load("cypher25/write/state")
    options = [line for line in text.split("\n") if line.startswith("CYPHER")]
    assert options == ["CYPHER 25 replan=skip"]  # the included statement's own line is gone
    assert "SEARCH node IN (" in text and "queryNodes" not in text
    assert "queryNodes" in cypher.load("write/state")
    assert cypher.planned_once("cypher25/write/state")
    assert cypher.batch_keys("cypher25/write/state") == cypher.batch_keys("write/state")


def test_a_statement_carries_only_what_an_included_one_shares() -> None:
    # read/held_claims binds a slot and two moments for itself, above its //@shared line; the
    # statements that carry it bind their own, and carry only its test.
    alone = cypher.load("read/held_claims")
    assert "$slot_id" in alone and "//@shared" in alone
    carriers = ("read/as_of_claims", "read/beliefs_subject", "read/scope_facts")
    # ... and through read/search_holds, which a search's statements carry.
    searches = (
        "read/search_claims",
        "cypher25/read/search_claims",
        "read/scope_search",
        "cypher25/read/scope_search",
    )
    for carrier in (*carriers, *searches):
        text = cypher.load(carrier)
        own = (cypher.cypher_dir() / f"{carrier}.cypher").read_text().count("//@shared")
        # read/scope_facts is carried in turn (by read/scope_hits): its own line stays.
        assert "$slot_id" not in text and text.count("//@shared") == own
        assert "USING INDEX SEEK c:Claim(slot_id, superseded_at)" in text
    for carrier in searches:
        assert "{id: $id}" not in cypher.load(carrier)
    # A statement without the line is carried whole but for its RETURN, as before.
    assert "MATCH (s:Slot {namespace: k.namespace" in cypher.load("write/apply")


def test_what_is_sent_is_every_statements_code_without_its_comments_or_indentation() -> None:
    names = cypher.names() + [cypher.variant(name, True) for name in cypher.names()]
    for name in names:
        loaded, sent = cypher.load(name), cypher.sent(name)
        code = [line.strip() for line in loaded.split("\n")]
        assert sent.split("\n") == [line for line in code if line and not line.startswith("//")]
        assert "//" not in sent, name  # no comment after code, nor a string that holds one
        assert all(_strings_closed(line) for line in code), name  # nor a string across lines
        assert len(sent) <= len(loaded), name
    assert len(cypher.sent("write/apply")) < 0.7 * len(cypher.load("write/apply"))


def _strings_closed(line: str) -> bool:
    """Whether every string literal that starts on ``line`` ends on it (a comment has none)."""
    if line.lstrip().startswith("//"):
        return True
    quote = None
    escaped = False
    for char in line:
        if quote is None:
            if char in "'\"":
                quote = char
        elif escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == quote:
            quote = None
    return quote is None
