"""Reads through a scope chain (docs/policy.md, "Scopes") on the real Neo4j: the nearer namespace
answers first, a policy outranks evidence below it and comes back with the evidence disputing it,
a fact held only by the shared layer is seen through the chain, and no read through a chain
returns a claim from a namespace it did not name (hypothesis)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.detect import Detector
from belief_graph.models import Kind, SourceType
from belief_graph.store import Store
from belief_graph.testing.examples import examples
from belief_graph.testing.factories import Clock
from belief_graph.testing.graph import q, wipe
from belief_graph.testing.offline import offline_embedder

SESSION, ROLE, PROJECT = "session:42", "agent:reviewer", "project:atlas"
CHAIN = f"{SESSION} > {ROLE} > {PROJECT}"


def say(
    bg: BeliefGraph,
    ns: str,
    subject: str,
    predicate: str,
    obj: str,
    *,
    kind: Kind = "evidence",
    source_type: SourceType = "user_stated",
    episode: str | None = None,
    text: str | None = None,
) -> str:
    result = bg.remember(
        ClaimDraft(
            namespace=ns,
            subject=subject,
            predicate=predicate,
            object=obj,
            text=text or f"{subject} {predicate} {obj}.",
            kind=kind,
            source_type=source_type,
            episode_id=episode,
        )
    )
    assert result.claim_id is not None
    return result.claim_id


def test_the_nearer_scope_answers_first(bg: BeliefGraph) -> None:
    say(bg, PROJECT, "atlas", "uses_framework", "Express.js")
    say(bg, ROLE, "atlas", "uses_framework", "Fastify")
    near = say(bg, SESSION, "atlas", "uses_framework", "Go")
    answer = bg.scoped_current(CHAIN, "atlas", "uses")
    assert answer.known and [b.claim.id for b in answer.beliefs] == [near]
    assert (answer.beliefs[0].scope, answer.beliefs[0].layer) == (SESSION, 0)
    assert [s.scope for s in answer.shadowed] == [ROLE, PROJECT]
    assert not answer.disputes and not answer.contested
    # Without the session in the chain, the role answers.
    assert bg.scoped_current([ROLE, PROJECT], "atlas", "uses").beliefs[0].claim.object == "Fastify"


def test_a_fact_only_in_the_project_layer_is_visible_through_the_chain(bg: BeliefGraph) -> None:
    held = say(bg, PROJECT, "atlas", "deploys_to", "Fly.io")
    say(bg, SESSION, "atlas", "uses_framework", "Go")
    answer = bg.scoped_current(CHAIN, "atlas", "deploys_to")
    assert [(b.claim.id, b.scope, b.layer) for b in answer.beliefs] == [(held, PROJECT, 2)]
    assert bg.current(SESSION, "atlas", "deploys_to") is None  # the session alone does not know
    unknown = bg.scoped_current(CHAIN, "atlas", "hosted_by")
    assert not unknown.known and unknown.beliefs == []


def test_a_policy_outranks_nearer_evidence_and_comes_back_with_it(bg: BeliefGraph) -> None:
    policy = say(bg, PROJECT, "atlas", "package_manager", "pnpm", kind="policy", text="Use pnpm.")
    failed = say(bg, ROLE, "atlas", "package_manager", "npm", episode="run-1")
    say(bg, ROLE, "atlas", "package_manager", "npm", episode="run-2")  # failed again
    agree = say(bg, SESSION, "atlas", "package_manager", "PNPM", episode="run-3")
    answer = bg.scoped_current(CHAIN, "atlas", "package_manager")
    assert [b.claim.id for b in answer.beliefs] == [policy]
    assert answer.beliefs[0].claim.kind == "policy" and answer.beliefs[0].scope == PROJECT
    assert [(d.claim.id, d.scope, d.support.episodes) for d in answer.disputes] == [
        (failed, ROLE, 2)
    ]
    assert answer.disputes[0].support.frequency == 2
    assert [s.claim.id for s in answer.shadowed] == [agree]  # same value: no dispute
    assert answer.contested


def test_nearer_policy_wins_among_policies_and_multi_values_merge(bg: BeliefGraph) -> None:
    say(bg, PROJECT, "atlas", "package_manager", "pnpm", kind="policy")
    role = say(bg, ROLE, "atlas", "package_manager", "yarn", kind="policy")
    say(bg, SESSION, "atlas", "package_manager", "npm")
    answer = bg.scoped_current(CHAIN, "atlas", "package_manager")
    assert [b.claim.id for b in answer.beliefs] == [role]
    assert [d.claim.object for d in answer.disputes] == ["npm"]
    assert [s.claim.object for s in answer.shadowed] == ["pnpm"]
    # likes is multi-valued: values of every namespace, a value two hold once (the nearer).
    say(bg, PROJECT, "ana", "likes", "jazz")
    say(bg, PROJECT, "ana", "likes", "tea")
    near_jazz = say(bg, SESSION, "ana", "likes", "Jazz")
    likes = bg.scoped_current(CHAIN, "ana", "likes")
    assert [(b.claim.object, b.scope) for b in likes.beliefs] == [
        ("Jazz", SESSION),
        ("tea", PROJECT),
    ]
    assert likes.beliefs[0].claim.id == near_jazz


def test_rivals_in_the_answering_namespace_come_back(bg: BeliefGraph) -> None:
    for _ in range(3):
        say(bg, PROJECT, "ana", "city", "Lisbon")
    waiting = say(bg, PROJECT, "ana", "city", "Porto")  # against a well-reinforced belief
    answer = bg.scoped_current([ROLE, PROJECT], "ana", "city")
    assert answer.beliefs[0].claim.object == "Lisbon"
    assert [r.id for r in answer.rivals] == [waiting] and answer.contested


def test_scoped_as_of_resolves_the_past(make_bg: Callable[..., BeliefGraph]) -> None:
    clock = Clock(datetime(2026, 3, 1, tzinfo=UTC))
    bg = make_bg(clock=clock)
    say(bg, PROJECT, "atlas", "uses_framework", "Express.js")
    before_session = clock.now
    clock.set(datetime(2026, 4, 1, tzinfo=UTC))
    say(bg, SESSION, "atlas", "uses_framework", "Go")
    assert bg.scoped_current(CHAIN, "atlas", "uses").beliefs[0].claim.object == "Go"
    past = bg.scoped_as_of(CHAIN, "atlas", "uses", known_at=before_session + timedelta(days=1))
    assert [(b.claim.object, b.scope) for b in past.beliefs] == [("Express.js", PROJECT)]
    assert not bg.scoped_as_of(
        CHAIN, "atlas", "uses", valid_at=datetime(2026, 1, 1, tzinfo=UTC)
    ).known


def test_bad_scope_chains_are_refused_by_name(bg: BeliefGraph) -> None:
    say(bg, PROJECT, "atlas", "uses_framework", "Go")
    for bad in ("", "session:42 >> project:atlas", "a > a", "user:ana\n", ["ok", "not ok"]):
        with pytest.raises(ValidationError) as err:
            bg.scoped_current(bad, "atlas", "uses")  # type: ignore[arg-type]
        assert err.value.errors()[0]["loc"][0] == "scope"
    chain = " > ".join(f"ns:{i}" for i in range(17))
    with pytest.raises(ValidationError, match="scope"):
        bg.scoped_current(chain, "atlas", "uses")
    # Every separator reads the same chain.
    for spelled in (CHAIN, f"{SESSION} -> {ROLE} -> {PROJECT}", f"{SESSION},{ROLE},{PROJECT}"):
        assert bg.scoped_current(spelled, "atlas", "uses").scope == [SESSION, ROLE, PROJECT]


# -- retrieval shows the layers ---------------------------------------------------------------


@pytest.fixture
def sbg(make_bg: Callable[..., BeliefGraph]) -> BeliefGraph:
    return make_bg(detector=Detector(offline_embedder()))


def test_search_hits_say_kind_scope_and_support(sbg: BeliefGraph) -> None:
    policy = say(
        sbg,
        PROJECT,
        "atlas",
        "package_manager",
        "pnpm",
        kind="policy",
        text="The Atlas project installs packages with pnpm.",
    )
    for run in ("run-1", "run-2"):
        say(
            sbg,
            SESSION,
            "atlas",
            "package_manager",
            "npm",
            episode=run,
            text="Atlas packages were installed with npm.",
        )
    say(sbg, ROLE, "atlas", "review_style", "strict", text="Reviews of Atlas are strict.")
    hits = sbg.scoped_search("which package manager does Atlas use?", CHAIN, k=5)
    by_id = {h.claim.id: h for h in hits}
    assert policy in by_id
    top = by_id[policy]
    assert (top.kind, top.scope, top.layer) == ("policy", PROJECT, 2)
    assert [(d.claim.object, d.scope, d.support.episodes) for d in top.disputes] == [
        ("npm", SESSION, 2)
    ]
    assert top.contested
    # The package-manager fact comes back once, as the chain resolves it.
    assert [h.claim.predicate for h in hits].count("package_manager") == 1
    # Three claims, two facts: k=2 gives both facts, taking candidates past the merged ones.
    two = sbg.scoped_search("which package manager does Atlas use?", CHAIN, k=2)
    assert {h.claim.predicate for h in two} == {"package_manager", "review_style"}
    strict = next(h for h in hits if h.claim.object == "strict")
    assert (strict.kind, strict.scope, strict.support.frequency) == ("evidence", ROLE, 1)
    # Its score is the claim's own similarity, as the single-namespace search gives it.
    alone = sbg.search("which package manager does Atlas use?", PROJECT, k=1)[0]
    assert alone.claim.id == policy and top.score == pytest.approx(alone.score, abs=1e-9)


def test_search_history_tags_every_version_with_its_scope(sbg: BeliefGraph) -> None:
    say(sbg, PROJECT, "atlas", "uses_framework", "Express.js", text="Atlas runs on Express.js.")
    say(sbg, PROJECT, "atlas", "uses_framework", "Go", text="Atlas runs on Go.")
    say(sbg, SESSION, "atlas", "uses_framework", "Rust", text="Atlas runs on Rust.")
    now = sbg.scoped_search("what does Atlas run on?", CHAIN, k=10)
    assert [h.claim.object for h in now] == ["Rust"]
    every = sbg.scoped_search("what does Atlas run on?", CHAIN, k=10, history=True)
    assert {(h.claim.object, h.scope) for h in every} == {
        ("Express.js", PROJECT),
        ("Go", PROJECT),
        ("Rust", SESSION),
    }


# -- isolation: no read through a chain returns a claim outside it (hypothesis) ---------------

NAMESPACES = ["session:1", "session:2", "agent:a", "agent:b", "project:x", "project:y"]
SUBJECTS = ["atlas", "ana"]
PREDICATES = ["uses_framework", "likes", "package_manager"]
OBJECTS = ["Go", "Rust", "npm", "pnpm", "jazz"]

CLAIMS = st.lists(
    st.tuples(
        st.sampled_from(NAMESPACES),
        st.sampled_from(SUBJECTS),
        st.sampled_from(PREDICATES),
        st.sampled_from(OBJECTS),
        st.sampled_from(["evidence", "policy"]),
        st.sampled_from(["user_stated", "observed", "inferred", "human_verified"]),
    ),
    min_size=1,
    max_size=14,
)
CHAINS = st.lists(st.sampled_from(NAMESPACES), min_size=1, max_size=4, unique=True)


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(claims=CLAIMS, chains=st.lists(CHAINS, min_size=1, max_size=3))
@pytest.mark.slow
def test_no_read_through_a_chain_leaves_it(
    store: Store, claims: list[tuple[str, ...]], chains: list[list[str]]
) -> None:
    wipe(store)
    bg = BeliefGraph(store, detector=Detector(offline_embedder()), clock=Clock())
    for ns, subject, predicate, obj, kind, source in claims:
        bg.remember(
            ClaimDraft(
                namespace=ns,
                subject=subject,
                predicate=predicate,
                object=obj,
                text=f"{subject} {predicate} {obj}.",
                kind=kind,  # type: ignore[arg-type]
                source_type=source,  # type: ignore[arg-type]
            )
        )
    where = {
        r["id"]: r["ns"] for r in q(store, "MATCH (c:Claim) RETURN c.id AS id, c.namespace AS ns")
    }
    for chain in chains:
        seen = []
        for subject in SUBJECTS:
            for predicate in PREDICATES:
                for answer in (
                    bg.scoped_current(chain, subject, predicate),
                    bg.scoped_as_of(chain, subject, predicate, known_at=bg.clock()),
                ):
                    held = answer.beliefs + answer.disputes + answer.shadowed
                    seen += [h.claim for h in held] + answer.rivals
                    assert all(h.scope == chain[h.layer] == h.claim.namespace for h in held)
                    # Each namespace of the chain that holds the fact is accounted for, once.
                    alone = [bg.current(ns, subject, predicate) for ns in chain]
                    expected = set()
                    for got in alone:
                        expected |= {
                            c.id for c in (got if isinstance(got, list) else [got] if got else [])
                        }
                    assert {h.claim.id for h in held} == expected
                    # A policy anywhere in the chain answers before any evidence.
                    if any(h.claim.kind == "policy" for h in held):
                        assert answer.beliefs[0].claim.kind == "policy"
        for history in (False, True):
            hits = bg.scoped_search("atlas uses Go", chain, k=20, history=history)
            seen += [h.claim for h in hits] + [r for h in hits for r in h.rivals]
            seen += [d.claim for h in hits for d in h.disputes]
            assert all(h.scope == chain[h.layer] == h.claim.namespace for h in hits)
            if not history:  # search and scoped_current agree on who answers for a fact
                for h in hits:
                    assert h.claim.subject is not None and h.claim.predicate is not None
                    answer = bg.scoped_current(chain, h.claim.subject, h.claim.predicate)
                    assert h.claim.id in {b.claim.id for b in answer.beliefs}
                    assert [d.claim.id for d in h.disputes] == [d.claim.id for d in answer.disputes]
        assert all(where[c.id] in chain and c.namespace in chain for c in seen)
