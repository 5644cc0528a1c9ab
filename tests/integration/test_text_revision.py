"""Issue #60 on a real Neo4j: text that revises right. Each class with its neighbours, models off
and (where the models could change the outcome) on: polarity taken from what the sentence says
about the claim's own object, relations read in context, one value however it is worded, late
facts in their place, a policy that holds from its promotion."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from belief_graph import BeliefGraph, Claim, ClaimDraft, ConflictError
from belief_graph.testing.factories import Clock, draft
from belief_graph.testing.graph import q

NS = "user:sam"


def d(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, 0, tzinfo=UTC)


def one(found: Claim | list[Claim] | None) -> Claim:
    assert isinstance(found, Claim), found
    return found


def said(text: str, **kw: Any) -> ClaimDraft:
    return draft(text=text, namespace=NS, **kw)


@pytest.fixture(params=["off", "on"])
def either(request: pytest.FixtureRequest, make_bg: Callable[..., BeliefGraph]) -> BeliefGraph:
    """The engine with the models off, then on: a structured case is decided the same."""
    if request.param == "off":
        return make_bg()
    return request.getfixturevalue("semantic_bg")  # type: ignore[no-any-return]


# -- 1. polarity belongs to the claim -----------------------------------------------------------


def test_a_sentence_negating_the_old_value_affirms_the_new_one(either: BeliefGraph) -> None:
    either.remember(draft("sam", "diet", "vegetarian", namespace=NS, text="I'm vegetarian."))
    moved = either.remember(
        draft(
            "sam", "diet", "omnivore", namespace=NS, text="I'm not vegetarian any more, I eat meat."
        )
    )
    assert moved.decision == "supersede", moved.reason
    now = one(either.current(NS, "sam", "diet"))
    assert (now.object, now.negated) == ("omnivore", False)
    either.remember(
        draft("atlas", "uses_framework", "Express", namespace=NS, text="We use Express.")
    )
    koa = either.remember(
        draft(
            "atlas",
            "uses_framework",
            "Koa",
            namespace=NS,
            text="We no longer use Express; we moved to Koa.",
        )
    )
    assert koa.decision == "supersede" and not either.get(NS, koa.added[0]).negated
    assert one(either.current(NS, "atlas", "uses_framework")).object == "Koa"


def test_a_sentence_negating_the_claims_own_value_still_ends_it(either: BeliefGraph) -> None:
    express = either.remember(
        draft("atlas", "uses_framework", "Express", namespace=NS, text="We use Express.")
    )
    ended = either.remember(
        draft("atlas", "uses_framework", "Express", namespace=NS, text="We no longer use Express.")
    )
    assert ended.verdict == "CONFLICT" and ended.retired == express.added
    assert one(either.current(NS, "atlas", "uses_framework")).negated
    # Without naming it: the relation denied as a whole ends the value it holds.
    either.remember(draft("sam", "works_at", "Acme", namespace=NS, text="I work at Acme."))
    quit_ = either.remember(
        draft("sam", "works_at", "Acme", namespace=NS, text="I don't work there any more.")
    )
    assert quit_.verdict == "CONFLICT" and either.get(NS, quit_.added[0]).negated
    # A stated polarity is never second-guessed by the sentence.
    either.remember(draft("sam", "likes", "jazz", namespace=NS, text="I like jazz."))
    kept = either.remember(
        draft("sam", "likes", "jazz", namespace=NS, text="I no longer like jazz.", negated=False)
    )
    assert kept.verdict == "SAME"


# -- 2. a synonym applies only where its subject and object fit it -------------------------------


def test_a_meeting_moved_to_another_day_is_not_a_move_of_house(either: BeliefGraph) -> None:
    either.remember(said("Sam lives in Lisbon."))
    either.remember(said("The team meeting is on Monday."))
    moved = either.remember(said("The team meeting moved to Tuesday."))
    assert moved.verdict in ("UPDATE", "CONFLICT") and len(moved.retired) == 1
    assert one(either.current(NS, "team meeting", "takes place on")).text == (
        "The team meeting moved to Tuesday."
    )
    # The neighbour: a person who moves still moves house.
    home = either.remember(said("Sam moved to Porto."))
    assert len(home.retired) == 1
    assert one(either.current(NS, "sam", "lives_in")).text == "Sam moved to Porto."


def test_a_tool_used_in_another_role_is_not_the_framework(either: BeliefGraph) -> None:
    def use(obj: str, text: str) -> Any:
        return either.remember(draft("atlas", "uses", obj, namespace=NS, text=text))

    postgres = use("PostgreSQL", "We use PostgreSQL.")
    redis = use("Redis", "We use Redis for caching.")
    assert redis.retired == [] and redis.verdict == "NEW"
    assert one(either.current(NS, "atlas", "uses")).id == postgres.added[0]
    assert one(either.current(NS, "atlas", "uses_cache")).object == "Redis"
    # Within its own fact a tool still replaces another ...
    memcached = use("Memcached", "We moved caching to Memcached, so we use Memcached for caching.")
    assert memcached.retired == redis.added
    # ... and libraries coexist.
    use("the requests library", "We use the requests library.")
    use("the httpx library", "We use the httpx library.")
    libraries = either.current(NS, "atlas", "uses_library")
    assert isinstance(libraries, list) and len(libraries) == 2
    assert one(either.current(NS, "atlas", "uses")).id == postgres.added[0]


def test_a_relation_none_of_whose_senses_fits_keeps_compatible_facts(either: BeliefGraph) -> None:
    search = either.remember(
        draft(
            "atlas", "uses", "Elasticsearch", namespace=NS, text="We use Elasticsearch for search."
        )
    )
    metrics = either.remember(
        draft("atlas", "uses", "Kafka", namespace=NS, text="We use Kafka for event streaming.")
    )
    assert search.retired == [] and metrics.retired == []
    assert {c.predicate for c in either.beliefs(NS, "atlas")} == {"uses", "uses_framework"}


# -- 3. one value however it is worded -----------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I prefer a window seat.", "I prefer window seats."),
        ("Sam likes the Beatles.", "Sam likes Beatles."),
        ("Sam enjoys hiking and swimming.", "Sam enjoys swimming and hiking."),
    ],
)
def test_articles_plurals_and_order_make_no_second_belief(
    either: BeliefGraph, first: str, second: str
) -> None:
    one_ = either.remember(said(first))
    again = either.remember(said(second))
    assert again.verdict == "SAME" and again.reinforced == one_.added
    # The neighbour: another value is another belief.
    other = either.remember(said(first.replace("window", "aisle").replace("Beatles", "Kinks")))
    assert other.verdict != "SAME" or "hiking" in first


def test_a_structured_value_written_otherwise_is_the_same_value(either: BeliefGraph) -> None:
    seat = either.remember(draft("sam", "prefers", "a window seat", namespace=NS))
    again = either.remember(draft("sam", "prefers", "Window seats", namespace=NS))
    assert again.reinforced == seat.added
    aisle = either.remember(draft("sam", "prefers", "an aisle seat", namespace=NS))
    assert aisle.verdict == "NEW"


def test_consolidate_folds_values_that_differ_only_in_form(bg: BeliefGraph) -> None:
    """Two beliefs an older writer left apart ("a window seat" / "window seats") become one."""
    kept = bg.remember(draft("sam", "prefers", "a window seat", namespace=NS)).added[0]
    twin = bg.remember(draft("sam", "prefers", "an aisle seat", namespace=NS)).added[0]
    # Rewritten as an older engine stored it: the second value was "window seats".
    q(
        bg.store,
        "MATCH (c:Claim {id: $id}) SET c.object = 'window seats', c.object_key = 'window seats', "
        "c.text = 'sam prefers window seats.'",
        id=twin,
    )
    report = bg.consolidate(NS)
    [step] = report.steps
    assert step.action == "merge" and {step.claim_id, step.other_id} == {twin, kept}
    prefers = bg.current(NS, "sam", "prefers")
    assert isinstance(prefers, list) and [c.id for c in prefers] == [step.other_id]


# -- 4. late facts in their place ----------------------------------------------------------------


def test_an_earlier_value_learned_late_ends_where_the_later_one_starts(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    clock = Clock(d(5, 16))
    bg = make_bg(clock=clock)
    go = bg.remember(draft("atlas", "uses_framework", "Go", namespace=NS, valid_from=d(5, 15)))
    clock.set(d(5, 18))
    express = bg.remember(
        draft(
            "atlas",
            "uses_framework",
            "Express.js",
            namespace=NS,
            text="We were on Express.js from March 1.",
            valid_from=d(3, 1),
        )
    )
    assert express.verdict == "NEW" and express.retired == []

    def at(valid: datetime, known: datetime | None = None) -> str | None:
        found = bg.as_of(NS, "atlas", "uses_framework", valid_at=valid, known_at=known)
        assert not isinstance(found, list)
        return found.object if found else None

    assert at(d(4, 1)) == "Express.js" and at(d(5, 20)) == "Go" and at(d(2, 1)) is None
    assert at(d(4, 1), known=d(5, 17)) is None  # learned on May 18: not known before
    assert one(bg.current(NS, "atlas", "uses_framework")).id == go.added[0]
    # A real overlap with another value is still refused, by name.
    with pytest.raises(ConflictError, match="valid_from"):
        bg.remember(draft("atlas", "uses_framework", "Koa", namespace=NS, valid_from=d(4, 1)))
    with pytest.raises(ConflictError, match="valid_from"):
        bg.remember(
            draft(
                "atlas",
                "uses_framework",
                "Django",
                namespace=NS,
                valid_from=d(1, 1),
                valid_to=d(4, 1),
            )
        )
    # A closed window in the gap before it fits, as before.
    django = bg.remember(
        draft(
            "atlas",
            "uses_framework",
            "Django",
            namespace=NS,
            valid_from=d(1, 1),
            valid_to=d(3, 1),
        )
    )
    assert django.verdict == "NEW" and at(d(2, 1)) == "Django"

    # "I was wrong, we are still on Express": the wrong value is retracted.
    clock.set(d(5, 25))
    fix = bg.remember(
        draft(
            "atlas",
            "uses_framework",
            "Express.js",
            namespace=NS,
            text="I was wrong, we are still on Express.",
            correction=True,
        )
    )
    assert fix.retired == go.added and bg.get(NS, go.added[0]).status == "retracted"
    assert at(d(5, 20)) == "Express.js" and at(d(4, 1)) == "Express.js"
    assert at(d(5, 20), known=d(5, 24)) == "Go"  # what was believed then stays on record


def test_a_correction_in_the_order_things_happened_retracts_the_wrong_value(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    clock = Clock(d(3, 3))
    bg = make_bg(clock=clock)
    bg.remember(draft("atlas", "uses_framework", "Express.js", namespace=NS, valid_from=d(3, 1)))
    clock.set(d(5, 16))
    go = bg.remember(draft("atlas", "uses_framework", "Go", namespace=NS, valid_from=d(5, 15)))
    clock.set(d(5, 25))
    bg.remember(draft("atlas", "uses_framework", "Express.js", namespace=NS, correction=True))
    assert bg.get(NS, go.added[0]).status == "retracted"
    found = bg.as_of(NS, "atlas", "uses_framework", valid_at=d(5, 20))
    assert isinstance(found, Claim) and found.object == "Express.js"


# -- 5. a promotion does not back-date a policy --------------------------------------------------


def test_a_policy_holds_from_the_decision_that_made_it_one(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    clock = Clock(d(1, 10))
    bg = make_bg(clock=clock)

    def convention(valid: datetime, known: datetime | None = None) -> str | None:
        found = bg.as_of(NS, "atlas", "package_manager", valid_at=valid, known_at=known)
        assert not isinstance(found, list)
        return found.object if found else None

    npm = bg.remember(draft("atlas", "package_manager", "npm", namespace=NS)).added[0]
    bg.promote(NS, npm, by="human", actor="lead")
    clock.set(d(3, 2))
    pnpm = bg.remember(draft("atlas", "package_manager", "pnpm", namespace=NS))
    assert pnpm.decision == "hold_pending"  # evidence against a policy waits
    before = convention(d(3, 15))
    clock.set(d(4, 1))
    bg.promote(NS, pnpm.added[0], by="human", actor="lead")
    promoted = one(bg.current(NS, "atlas", "package_manager"))
    assert (promoted.object, promoted.kind) == ("pnpm", "policy")
    assert d(4, 1) <= promoted.valid_from < d(4, 2)
    # What the convention was on March 15 does not change after the fact.
    assert before == "npm" and convention(d(3, 15)) == "npm"
    assert convention(d(4, 2)) == "pnpm"
    # The neighbour: an active evidence claim promoted also holds as a policy from then on.
    clock.set(d(5, 1))
    bun = bg.remember(draft("atlas", "runtime", "Bun", namespace=NS, valid_from=d(4, 20)))
    bg.promote(NS, bun.added[0], by="human", actor="lead")
    rule = one(bg.current(NS, "atlas", "runtime"))
    assert rule.kind == "policy" and rule.valid_from > d(5, 1)


# -- 7. contradictions a reader can see ----------------------------------------------------------


@pytest.mark.slow
def test_a_belief_that_won_a_contradiction_names_what_it_contradicted(
    either: BeliefGraph,
) -> None:
    first = either.remember(
        draft("sam", "sent_report", "yes", namespace=NS, text="I sent the report to Dana.")
    ).added[0]
    denial = either.remember(
        draft("sam", "sent_report", "yes", namespace=NS, text="I never sent the report to Dana.")
    )
    assert denial.verdict == "CONFLICT" and denial.contradicted == [first]
    now = one(either.current(NS, "sam", "sent_report"))
    [earlier] = now.contradicts
    assert (earlier.id, earlier.text, earlier.status) == (
        first,
        "I sent the report to Dana.",
        "superseded",
    )
    assert earlier.recorded_at is not None and earlier.source_type == "user_stated"
    assert either.get(NS, now.id).contradicts == now.contradicts
    assert either.lineage(NS, now.id).claim.contradicts == now.contradicts
    assert [c.contradicts for c in either.beliefs(NS, "sam")] == [now.contradicts]
    if either.detector.embedder is not None:
        [hit] = either.search("Did Sam send the report?", NS, k=1)
        assert hit.claim.contradicts == now.contradicts
    # conflicts() lists it, resolved; the open queue stays empty.
    [conflict] = either.conflicts(NS)
    assert (conflict.claim.id, conflict.rival.id) == (now.id, first)
    assert conflict.resolution == "superseded: newest wins"
    assert either.conflicts(NS, open_only=True) == []
    # The neighbours: a change of value names nothing; an erased rival is named no more.
    either.remember(draft("sam", "commits", "150", namespace=NS, text="The repo has 150 commits."))
    more = either.remember(
        draft("sam", "commits", "165", namespace=NS, text="The repo has 165 commits.")
    )
    assert more.verdict == "UPDATE" and more.contradicted == []
    assert one(either.current(NS, "sam", "commits")).contradicts == []
    either.erase(NS, claim_ids=[first])
    assert one(either.current(NS, "sam", "sent_report")).contradicts == []


def test_a_correction_names_the_value_it_retracted(bg: BeliefGraph) -> None:
    go = bg.remember(draft("atlas", "uses_framework", "Go", namespace=NS)).added[0]
    fix = bg.remember(
        draft(
            "atlas",
            "uses_framework",
            "Express.js",
            namespace=NS,
            text="I was wrong, we are still on Express.",
            correction=True,
        )
    )
    assert fix.contradicted == [go]
    [earlier] = one(bg.current(NS, "atlas", "uses_framework")).contradicts
    assert (earlier.id, earlier.status, earlier.resolution) == (
        go,
        "retracted",
        "retracted: corrected",
    )


def test_the_cli_and_mcp_show_what_a_belief_contradicted(
    bg: BeliefGraph, neo4j_info: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from typer.testing import CliRunner

    from belief_graph.cli.app import app
    from belief_graph.integrations.mcp import McpSettings, ScopedTools

    bg.remember(draft("sam", "sent_report", "yes", namespace=NS, text="I sent the report."))
    bg.remember(draft("sam", "sent_report", "yes", namespace=NS, text="I never sent the report."))
    answer = ScopedTools(bg, McpSettings(namespace=NS)).current("sam", "sent_report")
    assert [c.text for c in answer.beliefs[0].contradicts] == ["I sent the report."]
    for name, value in (
        ("BELIEF_GRAPH_CONFIG", str(tmp_path / "config.toml")),
        ("NEO4J_URI", neo4j_info.uri),
        ("NEO4J_USER", neo4j_info.user),
        ("NEO4J_PASSWORD", neo4j_info.password),
        ("NEO4J_DATABASE", neo4j_info.database),
        ("BELIEF_GRAPH_MODELS", "false"),
        ("COLUMNS", "200"),
    ):
        monkeypatch.setenv(name, value)
    shown = CliRunner().invoke(app, ["current", "-n", NS, "sam", "sent_report"])
    assert shown.exit_code == 0, shown.output
    assert "contradicts" in shown.stdout and "earlier: I sent the report." in shown.stdout


# -- 8. the flag means a contradiction, not a change of value ------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("The repo has 150 commits.", "The repo has 165 commits."),
        ("The launch is on May 3.", "The launch moved to May 10."),
        ("Sam lives in Lisbon.", "Sam moved to Porto."),
        ("Sam's salary is $90,000.", "Sam's salary is $95,000."),
    ],
)
def test_an_ordinary_update_is_not_flagged_with_the_models_on(
    semantic_bg: BeliefGraph, before: str, after: str
) -> None:
    first = semantic_bg.remember(said(before)).added[0]
    update = semantic_bg.remember(said(after))
    assert update.retired == [first], update
    assert update.verdict == "UPDATE" and not semantic_bg.get(NS, update.added[0]).contradiction


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I sent the invoice to Dana on Friday.", "I never sent the invoice to Dana."),
        ("Sam has been to Japan.", "Sam has never been to Japan."),
    ],
)
def test_a_denial_is_flagged_and_names_what_it_denies(
    semantic_bg: BeliefGraph, before: str, after: str
) -> None:
    first = semantic_bg.remember(said(before)).added[0]
    denial = semantic_bg.remember(said(after))
    assert denial.verdict == "CONFLICT" and denial.retired == [first], denial
    assert semantic_bg.get(NS, denial.added[0]).contradicts[0].id == first


@pytest.mark.parametrize(
    ("predicate", "before", "after"),
    [
        (
            "risk_tolerance",
            ("cautious", "Priya is cautious with money."),
            ("aggressive", "Priya now wants an aggressive, high-risk portfolio."),
        ),
        ("risk_tolerance", ("risk averse", "Tom is risk averse."), ("bold", "Tom loves bets.")),
        ("dietary_preference", ("vegan", "I'm vegan."), ("omnivore", "I eat meat now.")),
    ],
)
def test_a_reversed_stance_is_flagged_and_names_what_it_reversed(
    semantic_bg: BeliefGraph,
    predicate: str,
    before: tuple[str, str],
    after: tuple[str, str],
) -> None:
    """A stance (how much risk, what one eats) that the model reads as contradicted is a change
    of mind: the new belief carries the flag and names the old one."""
    first = semantic_bg.remember(draft("sam", predicate, before[0], text=before[1], namespace=NS))
    flip = semantic_bg.remember(draft("sam", predicate, after[0], text=after[1], namespace=NS))
    assert flip.verdict == "CONFLICT" and flip.retired == first.added, flip
    belief = semantic_bg.get(NS, flip.added[0])
    assert belief.contradiction and belief.contradicts[0].id == first.added[0]


@pytest.mark.parametrize(
    ("predicate", "before", "after"),
    [
        # a stance moved, not reversed: the model does not read a contradiction
        (
            "risk_tolerance",
            ("cautious", "Priya is cautious with money."),
            ("moderate", "Priya takes moderate risks with money."),
        ),
        # facts the model reads as contradicting, but not stances: a change of the world
        ("lives_in", ("Cairo", "Noor lives in Cairo."), ("Dubai", "Noor moved to Dubai.")),
        ("works_at", ("Stripe", "Lucas works at Stripe."), ("Shopify", "Lucas works at Shopify.")),
    ],
)
def test_a_changed_value_that_reverses_no_stance_is_not_flagged(
    semantic_bg: BeliefGraph,
    predicate: str,
    before: tuple[str, str],
    after: tuple[str, str],
) -> None:
    first = semantic_bg.remember(draft("sam", predicate, before[0], text=before[1], namespace=NS))
    update = semantic_bg.remember(draft("sam", predicate, after[0], text=after[1], namespace=NS))
    assert update.verdict == "UPDATE" and update.retired == first.added, update
    assert not semantic_bg.get(NS, update.added[0]).contradiction


# -- 9. compatible facts are not contradictions --------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Sam speaks Spanish.", "Sam works as a French translator."),
        ("We use PostgreSQL.", "We use Redis for caching."),
        ("Sam loves hiking.", "Sam runs marathons."),
        ("Sam lives in Lisbon.", "Sam works in Porto."),
    ],
)
def test_compatible_facts_of_one_subject_stay_undisputed(
    semantic_bg: BeliefGraph, first: str, second: str
) -> None:
    a = semantic_bg.remember(said(first)).added[0]
    b = semantic_bg.remember(said(second))
    assert b.retired == [] and b.flagged == [], b
    assert semantic_bg.conflicts(NS) == []
    assert not semantic_bg.get(NS, a).disputed and not semantic_bg.get(NS, b.added[0]).disputed


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Sam is allergic to peanuts.", "Sam has no allergies at all."),
        ("Sam is allergic to cats.", "Sam adopted a cat last week."),
        ("Sam is frugal.", "Sam splurges on everything."),
    ],
)
def test_facts_that_cannot_both_hold_are_still_an_open_conflict(
    semantic_bg: BeliefGraph, first: str, second: str
) -> None:
    a = semantic_bg.remember(said(first)).added[0]
    b = semantic_bg.remember(said(second))
    assert b.flagged == [a], b
    [conflict] = semantic_bg.conflicts(NS, open_only=True)
    assert {conflict.claim.id, conflict.rival.id} == {a, b.added[0]}
