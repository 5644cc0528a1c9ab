"""Every stored copy of a caller's words goes with an erase (issue 64, item 3): a distinct marker
is written through every free-text parameter of every public operation (and every free-text
field of a draft and of an episode), wherever the engine then keeps it (a claim, an episode, a
revision's reason, its stored result, a consolidation's undo record, a dismissal on a conflict);
after an erase of the subject, of the namespace or of the claims, no property anywhere holds a
marker. The parameters are found from the signatures, so a new one fails the test until the
scenario writes through it (or it is shown to be kept by design, or never stored)."""

from __future__ import annotations

import inspect
import json
import types
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import pytest
from pydantic import AfterValidator

from belief_graph import BeliefGraph
from belief_graph.extraction import Episode as Said
from belief_graph.models import ClaimDraft, _identifier
from belief_graph.policy import Policy
from belief_graph.testing.factories import as_history, draft, episode
from belief_graph.testing.graph import check_graph, q, string_values

NS = "user:free-text"
MARK = "mkq"  # lower case: no id holds it (ids are upper case)
SUBJECT = "mkq Quolb"


def free_text(hint: Any) -> bool:
    """Whether a parameter takes the caller's free text: a constrained str that is not an
    identifier (``Term``, ``Text``, ``Reason``), alone or in an Optional or a collection."""
    if get_origin(hint) in (Union, types.UnionType, tuple, list, Sequence, Iterable):
        return any(free_text(a) for a in get_args(hint) if a is not Ellipsis)
    if get_origin(hint) is Annotated and get_args(hint)[0] is str:
        checks = [m.func for m in hint.__metadata__ if isinstance(m, AfterValidator)]
        return _identifier not in checks
    return False


def free_text_parameters() -> set[tuple[str, str]]:
    """(method, parameter) of every public method of BeliefGraph that takes free text, and
    (model, field) of the free-text fields of what the writes take: drafts and episodes."""
    found = set()
    for name, member in inspect.getmembers(BeliefGraph):
        if name.startswith("_") or not callable(member):
            continue
        hints = get_type_hints(member, include_extras=True)
        found |= {(name, p) for p, hint in hints.items() if p != "return" and free_text(hint)}
    for model in (ClaimDraft, Said):
        hints = get_type_hints(model, include_extras=True)
        found |= {(model.__name__, f) for f in model.model_fields if free_text(hints[f])}
    return found


# Kept by design (threat-model.md, "What remains"): who acted, and the canonical predicate (a
# fact's key, like an id). Never stored: what the reads and the connection are given.
KEPT = {
    (m, "actor")
    for m in (
        "confirm",
        "consolidate",
        "contract",
        "demote",
        "dismiss",
        "erase",
        "import_history",
        "ingest",
        "observe",
        "promote",
        "rectify",
        "reject",
        "remember",
        "resolve",
        "reviewed",
        "rollback",
    )
} | {("ClaimDraft", "predicate")}
READ_ONLY = {
    ("as_of", "subject"), ("as_of", "predicate"), ("beliefs", "subject"),
    ("current", "subject"), ("current", "predicate"), ("history", "subject"),
    ("history", "predicate"), ("scoped_as_of", "subject"), ("scoped_as_of", "predicate"),
    ("scoped_current", "subject"), ("scoped_current", "predicate"), ("scoped_search", "query"),
    ("search", "query"), ("connect", "uri"), ("connect", "auth"), ("connect", "policy"),
    ("connect", "bookmarks"), ("current_beliefs", "predicate"),
    ("namespaces_holding", "predicate"),
}  # fmt: skip
# What the scenario below writes through (each with its own marker).
WRITTEN = {
    ("ClaimDraft", "subject"), ("ClaimDraft", "object"), ("ClaimDraft", "text"),
    ("ClaimDraft", "author"), ("ClaimDraft", "origin"), ("ClaimDraft", "episode_content"),
    ("Episode", "speaker"), ("Episode", "text"), ("Episode", "context"),
    ("contract", "reason"), ("resolve", "reason"), ("dismiss", "reason"), ("reviewed", "reason"),
    ("rectify", "object"), ("rectify", "text"), ("promote", "origin"), ("promote", "reason"),
    ("demote", "reason"), ("erase", "subject"),
}  # fmt: skip


def test_the_scenario_writes_through_every_free_text_parameter() -> None:
    assert free_text_parameters() == WRITTEN | KEPT | READ_ONLY


def mark(what: str) -> str:
    return f"{MARK}-{what}"


def said(what: str, **fields: Any) -> ClaimDraft:
    """A fact of the subject, every free-text field of the draft carrying a marker."""
    return draft(
        SUBJECT,
        fields.pop("predicate"),
        mark(what),
        namespace=NS,
        text=f"{SUBJECT} is {mark(what + '-text')}.",
        author=mark("author"),
        origin=mark("origin"),
        episode_id=f"episode-{what}",
        episode_content=f"chat line: {mark(what + '-episode')}",
        **fields,
    )


def scenario(bg: BeliefGraph) -> None:
    """Every write that keeps free text, about the subject, each through its own marker."""
    bg.remember(said("home-1", predicate="lives_in"))
    [job] = bg.ingest([said("job", predicate="works_at")])
    bg.import_history(
        [as_history(said("car", predicate="drives"), datetime(2026, 1, 1, tzinfo=UTC))],
        actor="importer",
    )
    told = bg.observe(
        NS,
        episode(
            f"I work at {mark('works')}.",
            f"context: {mark('context')}",
            speaker=SUBJECT,
            at=datetime.now(UTC),
        ),
    )
    assert told.results and not told.refused, told.refused

    # Conflicts (conservative: every change waits), one fact each: confirm, reject, resolve,
    # dismiss.
    waiting = {}
    for fact in ("fav_color", "fav_food", "fav_drink", "fav_sport"):
        first = bg.remember(said(f"{fact}-1", predicate=fact)).added[0]
        held = bg.remember(said(f"{fact}-2", predicate=fact))
        assert held.decision == "hold_pending"
        waiting[fact] = (held.added[0], first)
    bg.confirm(NS, waiting["fav_color"][0])
    bg.reject(NS, waiting["fav_food"][0])
    bg.resolve(NS, *waiting["fav_drink"], keep=waiting["fav_drink"][1], reason=mark("resolve"))
    bg.dismiss(NS, *waiting["fav_sport"], reason=mark("dismiss"))
    # A dependent flagged by a contract, then reviewed; a rectification.
    tram = bg.remember(said("tram", predicate="commutes_by", depends_on=(job.added[0],)))
    bg.contract(NS, job.added[0], reason=mark("contract"))
    bg.reviewed(NS, tram.added[0], reason=mark("reviewed"))
    bg.rectify(NS, tram.added[0], object=mark("rectified"), text=mark("rectified-text"),
               actor="dpo")  # fmt: skip
    # A policy promoted on a record, demoted, retracted; a consolidation then closes its review
    # flag and copies the demote's reason into its undo record (the case).
    rule = bg.remember(said("tabs", predicate="convention")).added[0]
    policy = bg.promote(NS, rule, by="record", origin=mark("adr"), reason=mark("promote")).added[0]
    bg.demote(NS, policy, reason=mark("demote"))
    bg.contract(NS, policy, reason=mark("retract-policy"))
    consolidation = bg.consolidate(NS)
    assert consolidation.revision is not None
    undo = q(
        bg.store,
        "MATCH (r:Revision {namespace: $ns, op: 'consolidate'}) RETURN r.undo AS undo",
        ns=NS,
    )[0]["undo"]
    assert mark("demote") in undo, "the scenario reaches the issue's case"


def traces(bg: BeliefGraph) -> list[str]:
    return sorted(v for v in string_values(bg.store) if MARK in v)


@pytest.mark.parametrize("kind", ["subject", "namespace", "claims"])
@pytest.mark.slow
def test_no_copy_of_the_callers_words_survives_an_erase(
    make_bg: Callable[..., BeliefGraph], kind: str
) -> None:
    bg = make_bg(policy=Policy(preset="conservative"))
    scenario(bg)
    written = traces(bg)
    for what in ("author", "origin", "resolve", "dismiss", "contract", "reviewed", "promote",
                 "demote", "adr", "works", "rectified", "home-1-episode"):  # fmt: skip
        assert any(mark(what) in v for v in written), f"the scenario wrote no {what}"
    bg.remember(draft("ana", "lives_in", "Lisbon", namespace=NS))  # not about the subject
    if kind == "subject":
        result = bg.erase(NS, subject=SUBJECT)
    elif kind == "namespace":
        result = bg.erase(NS)
    else:
        ids = [
            r["id"]
            for r in q(
                bg.store,
                "MATCH (c:Claim {namespace: $ns}) WHERE c.subject_key = $key "
                "OR c.text_key CONTAINS $mark RETURN c.id AS id",
                ns=NS,
                key=SUBJECT.lower(),
                mark=MARK,
            )
        ]
        result = bg.erase(NS, claim_ids=ids)
    assert traces(bg) == [], "a copy of the caller's words survived"
    assert result.erasure is not None and result.erasure.revisions >= 6
    assert json.loads(
        q(bg.store, "MATCH (r:Revision {id: $id}) RETURN r.result AS r", id=result.revision_id)[0][
            "r"
        ]
    )["erasure"]["claims"] == len(result.retired)
    assert check_graph(bg.store) == []
