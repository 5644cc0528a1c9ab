"""The scope-chain ranking (belief_graph.scopes.resolve) and the chain's parsing, without a
database."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import TypeAdapter, ValidationError

from belief_graph.models import Claim, Kind, ScopeChain, ScopedClaim, Support
from belief_graph.scopes import resolve

T = datetime(2026, 3, 1, tzinfo=UTC)
CHAIN = ("session:42", "agent:reviewer", "project:atlas")


def held(layer: int, obj: str, kind: Kind = "evidence", cid: str | None = None) -> ScopedClaim:
    claim = Claim(
        id=cid or f"{CHAIN[layer]}/{obj}",
        namespace=CHAIN[layer],
        subject="atlas",
        predicate="package_manager",
        object=obj,
        text=f"atlas uses {obj}",
        source_type="user_stated",
        confidence=0.8,
        kind=kind,
        status="active",
        valid_from=T,
        recorded_at=T,
    )
    return ScopedClaim(
        claim=claim, scope=CHAIN[layer], layer=layer, support=Support(frequency=1, episodes=0)
    )


def ids(items: list[ScopedClaim]) -> list[str]:
    return [h.claim.id for h in items]


def test_the_nearer_namespace_answers_first() -> None:
    far, near = held(2, "npm"), held(0, "yarn")
    got = resolve([far, near], "single")
    assert ids(got.beliefs) == ids([near]) and ids(got.shadowed) == ids([far])
    assert got.disputes == []


def test_a_policy_outranks_evidence_and_differing_evidence_disputes_it() -> None:
    policy, against, agrees = held(2, "pnpm", "policy"), held(0, "npm"), held(1, "PNPM")
    got = resolve([against, agrees, policy], "single")
    assert ids(got.beliefs) == ids([policy])
    assert ids(got.disputes) == ids([against])  # the same value (any case) does not dispute
    assert ids(got.shadowed) == ids([agrees])


def test_among_policies_the_nearer_answers_and_a_farther_policy_does_not_dispute() -> None:
    project, role, session = held(2, "pnpm", "policy"), held(1, "yarn", "policy"), held(0, "npm")
    got = resolve([project, role, session], "single")
    assert ids(got.beliefs) == ids([role])
    assert ids(got.disputes) == ids([session]) and ids(got.shadowed) == ids([project])


def test_multi_valued_facts_keep_every_value_once() -> None:
    got = resolve([held(2, "jazz"), held(2, "tea"), held(0, "Jazz")], "multi")
    assert [(h.claim.object, h.layer) for h in got.beliefs] == [("Jazz", 0), ("tea", 2)]
    assert [(h.claim.object, h.layer) for h in got.shadowed] == [("jazz", 2)]


def test_nothing_held_is_unknown() -> None:
    assert resolve([], "single").beliefs == []


@pytest.mark.parametrize(
    "spelled",
    [
        "session:42 > agent:reviewer > project:atlas",
        "session:42->agent:reviewer->project:atlas",
        "session:42 → agent:reviewer → project:atlas",
        "session:42,agent:reviewer,project:atlas",
        ["session:42", "agent:reviewer", "project:atlas"],
    ],
)
def test_a_chain_is_spelled_as_a_string_or_a_list(spelled: object) -> None:
    assert TypeAdapter(ScopeChain).validate_python(spelled) == CHAIN


@pytest.mark.parametrize(
    ("bad", "loc"),
    [
        ("", (0,)),
        ("a:1 > > b:2", (1,)),
        ("a:1 > user:ana\n", (1,)),
        (" a:1", (0,)),
        ("a:1 > a:1", ()),
        (" > ".join(f"n:{i}" for i in range(17)), ()),
        ([], ()),
    ],
)
def test_a_bad_chain_is_refused_naming_the_place(bad: object, loc: tuple[int, ...]) -> None:
    with pytest.raises(ValidationError) as err:
        TypeAdapter(ScopeChain).validate_python(bad)
    assert err.value.errors()[0]["loc"] == loc
