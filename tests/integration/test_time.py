"""Both time axes, corrections, and the queues that must close (DESIGN §1, §4, §5, §7): each
class of case with its neighbours, against a real Neo4j."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft, ConflictError, Policy, Tuning
from belief_graph.detect import Detector
from belief_graph.read import facts
from belief_graph.testing.factories import Clock
from belief_graph.testing.graph import claims_read, string_values

NS = "project:atlas"


def d(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, 0, tzinfo=UTC)


def value(found: Any) -> str | None:
    assert not isinstance(found, list)
    return found.object if found is not None else None


class World:
    """The engine with its clock set to the date of each call."""

    def __init__(self, make_bg: Callable[..., BeliefGraph], policy: Policy | None = None) -> None:
        self.clock = Clock(d(1, 1))
        self.bg = make_bg(clock=self.clock, policy=policy)

    def on(self, month: int, day: int) -> BeliefGraph:
        self.clock.set(d(month, day))
        return self.bg

    def r(
        self,
        month: int,
        day: int,
        obj: str,
        subject: str = "atlas",
        predicate: str = "uses",
        **kw: Any,
    ):
        return self.on(month, day).remember(
            ClaimDraft(
                namespace=NS,
                subject=subject,
                predicate=predicate,
                object=obj,
                text=f"{subject} {predicate} {obj}.",
                **kw,
            )
        )

    def now(self, subject: str = "atlas", predicate: str = "uses") -> str | None:
        return value(self.bg.current(NS, subject, predicate))

    def at(
        self,
        valid: datetime | None = None,
        known: datetime | None = None,
        subject: str = "atlas",
        predicate: str = "uses",
    ) -> str | None:
        return value(self.bg.as_of(NS, subject, predicate, valid_at=valid, known_at=known))


def agree(w: World, subject: str = "atlas", predicate: str = "uses") -> str | None:
    """current, beliefs, search-free as_of(now, now): one answer (invariant 8)."""
    now = w.now(subject, predicate)
    assert now == w.at(w.clock.now, w.clock.now, subject, predicate)
    canonical = w.bg.vocabulary.canonical(predicate)
    held = [c.object for c in w.bg.beliefs(NS, subject) if c.predicate == canonical]
    assert held == ([now] if now else [])
    return now


# -- 1. never rewrite the past --------------------------------------------------------------------


@pytest.mark.parametrize("ends", [(1, 31), (3, 1), (4, 1)])  # in the past, today, the future
def test_a_window_that_ends_is_not_closed_again(
    make_bg: Callable[..., BeliefGraph], ends: tuple[int, int]
) -> None:
    w = World(make_bg)
    w.r(1, 2, "Berlin", "priya", "lives_in", valid_from=d(1, 1), valid_to=d(*ends))
    asked = {t: w.at(t, t, "priya", "lives_in") for t in (d(1, 15), d(2, 15), d(2, 28))}
    lisbon = w.r(3, 1, "Lisbon", "priya", "lives_in")
    [berlin] = [c for c in w.bg.history(NS, "priya", "lives_in") if c.object == "Berlin"]
    assert berlin.valid_to == d(*ends), "an end is never moved"
    assert berlin.superseded_at is None
    # what was answered for a past known_at never changes
    assert {t: w.at(t, t, "priya", "lives_in") for t in asked} == asked
    assert w.at(d(1, 15), None, "priya", "lives_in") == "Berlin"
    if ends == (4, 1):  # still valid when Lisbon arrives: they overlap, the newer one holds
        assert lisbon.decision == "supersede"
    else:
        assert lisbon.decision == "expand" and lisbon.verdict == "NEW"
        assert w.at(d(2, 15), None, "priya", "lives_in") == (None if ends == (1, 31) else "Berlin")
    assert agree(w, "priya", "lives_in") == "Lisbon"


def test_restating_an_ended_value_starts_a_new_window(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    w.r(1, 2, "Berlin", "priya", "lives_in", valid_from=d(1, 1), valid_to=d(1, 31))
    again = w.r(3, 1, "Berlin", "priya", "lives_in")
    assert again.verdict == "NEW" and again.added
    assert agree(w, "priya", "lives_in") == "Berlin"
    assert w.at(d(2, 15), None, "priya", "lives_in") is None


# -- 2. the future is not now ---------------------------------------------------------------------


def test_a_scheduled_change_takes_effect_when_its_time_comes(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js")
    go = w.r(4, 1, "Go", valid_from=d(6, 1))
    assert go.decision == "supersede"
    for day, expected in [((4, 2), "Express.js"), ((5, 31), "Express.js"), ((6, 1), "Go")]:
        w.on(*day)
        assert agree(w) == expected, day
    w.on(4, 2)
    assert w.at(d(7, 1)) == "Go" and w.at(d(5, 1)) == "Express.js"
    # restating the value in force before the change reinforces it, the schedule stands
    again = w.r(4, 3, "Express.js")
    assert again.verdict == "SAME"
    w.on(6, 2)
    assert agree(w) == "Go"


@pytest.mark.parametrize("month", [3, 4, 6])  # the end is in the past, now, the future
def test_contract_with_a_valid_to_ends_the_belief_then(
    make_bg: Callable[..., BeliefGraph], month: int
) -> None:
    w = World(make_bg)
    first = w.r(2, 1, "Express.js")
    w.on(4, 1).contract(NS, first.added[0], retract=False, valid_to=d(month, 1))
    assert agree(w) == ("Express.js" if month == 6 else None)
    w.on(7, 1)
    assert agree(w) is None
    assert w.at(d(5, 15), d(3, 15)) == "Express.js"  # known then: no end yet


def test_contract_never_moves_an_end(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    first = w.r(2, 1, "Express.js", valid_to=d(9, 1))
    with pytest.raises(ConflictError, match="valid_to"):
        w.on(4, 1).contract(NS, first.added[0], retract=False, valid_to=d(5, 1))


def test_a_new_value_before_a_scheduled_end_holds_from_its_start(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    first = w.r(2, 1, "Express.js")
    w.on(3, 1).contract(NS, first.added[0], retract=False, valid_to=d(6, 1))
    w.r(4, 1, "Go")
    assert agree(w) == "Go"
    assert w.at(d(5, 1), d(3, 15)) == "Express.js"


# -- 3. a correction retracts ---------------------------------------------------------------------


@pytest.mark.parametrize("back_dated", [False, True])
def test_a_correction_retracts_the_wrong_value_and_continues_the_right_one(
    make_bg: Callable[..., BeliefGraph], back_dated: bool
) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js")
    go = w.r(5, 16, "Go", valid_from=d(5, 15))
    fix = w.r(5, 25, "Express.js", correction=True, valid_from=d(5, 15) if back_dated else None)
    assert fix.decision == "correct" and fix.verdict == "CONFLICT"
    assert go.added[0] in fix.retired
    assert w.bg.get(NS, go.added[0]).status == "retracted"
    assert agree(w) == "Express.js"
    assert w.at(d(5, 20)) == "Express.js" and w.at(d(4, 1)) == "Express.js"
    assert w.at(d(5, 20), d(5, 20)) == "Go"  # what we believed then stays on record
    assert w.at(d(2, 1)) is None


@pytest.mark.parametrize("after", [1, 2, 3])
def test_a_correction_with_versions_after_the_right_one(
    make_bg: Callable[..., BeliefGraph], after: int
) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js")
    wrong = [w.r(4 + i, 1, v).added[0] for i, v in enumerate(["Go", "Rust", "Zig"][:after])]
    fix = w.r(8, 1, "Express.js", correction=True, valid_from=d(4, 1))
    assert set(wrong) <= set(fix.retired)
    assert agree(w) == "Express.js"
    for month in (4, 5, 6):
        assert w.at(d(month, 15)) == "Express.js"
    # without a valid_from only the value believed now was wrong
    w.r(8, 2, "Express.js", "beta")
    for i, v in enumerate(["Go", "Rust", "Zig"][:after]):
        w.r(8, 3 + i, v, "beta")
    w.r(8, 10, "Express.js", "beta", correction=True)
    assert agree(w, "beta") == "Express.js"
    expected_before = "Express.js" if after == 1 else ["Go", "Rust"][after - 2]
    assert w.at(d(8, 2 + after), None, "beta") == expected_before


def test_a_correction_of_the_belief_by_a_weaker_source_is_rejected(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js", source_type="human_verified")
    fix = w.r(4, 1, "Go", correction=True, source_type="inferred")
    assert fix.decision == "reject" and agree(w) == "Express.js"


# -- 4. late knowledge about the past -------------------------------------------------------------


def test_late_knowledge_about_the_past_is_an_earlier_version(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    w.r(3, 2, "Express.js", valid_from=d(3, 1))
    django = w.r(4, 1, "Django", valid_from=d(1, 1), valid_to=d(3, 1))
    assert django.verdict == "NEW" and django.decision == "expand"
    assert agree(w) == "Express.js"
    assert w.at(d(2, 1)) == "Django" and w.at(d(2, 1), d(3, 15)) is None
    # overlapping what is known is refused by name; the same value reinforces
    with pytest.raises(ConflictError, match="valid_from"):
        w.r(4, 2, "Flask", valid_from=d(2, 1), valid_to=d(3, 15))
    with pytest.raises(ConflictError, match="valid_from"):
        w.r(4, 2, "Flask", valid_from=d(2, 1))
    assert w.r(4, 3, "Django", valid_from=d(2, 1), valid_to=d(2, 15)).verdict == "SAME"


# -- 5. a stale pending claim ---------------------------------------------------------------------


def test_confirming_a_stale_pending_claim_never_makes_an_empty_window(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    w.r(3, 1, "Express.js")
    held = w.r(5, 1, "Go")
    assert held.decision == "hold_pending"
    w.r(5, 2, "Rust", valid_from=d(5, 1), source_type="human_verified")
    with pytest.raises(ConflictError, match="stale"):
        w.on(5, 3).confirm(NS, held.added[0])
    w.bg.reject(NS, held.added[0])
    assert w.bg.pending(NS) == [] and agree(w) == "Rust"
    for c in w.bg.history(NS, "atlas", "uses"):
        assert c.valid_to is None or c.valid_to > c.valid_from


# -- 6. every queue can be worked down to empty ---------------------------------------------------


@pytest.mark.parametrize("how", ["retract", "close", "supersede", "erase"])
def test_a_side_that_leaves_the_beliefs_closes_its_conflict(
    make_bg: Callable[..., BeliefGraph], how: str
) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    first = w.r(3, 1, "Express.js").added[0]
    held = w.r(4, 1, "Go").added[0]
    bg = w.on(4, 2)
    if how == "retract":
        bg.contract(NS, first, retract=True)
    elif how == "close":
        bg.contract(NS, first, retract=False)
    elif how == "supersede":
        w.r(4, 2, "Rust", source_type="human_verified")
    else:
        bg.erase(NS, claim_ids=[first])
    assert w.bg.conflicts(NS, open_only=True) == []
    assert not w.bg.get(NS, held).disputed
    if how != "erase":  # conflicts() leaves erased claims out
        [closed] = w.bg.conflicts(NS)
        assert closed.resolution == {"retract": "retracted", "erase": "erased"}.get(
            how, "superseded"
        )
    if how != "supersede":
        w.bg.reject(NS, held)
    else:
        with pytest.raises(ConflictError, match="stale"):
            w.bg.confirm(NS, held)
        w.bg.reject(NS, held)
    assert w.bg.pending(NS) == []


def test_rollback_of_a_retraction_reopens_its_conflict(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    first = w.r(3, 1, "Express.js").added[0]
    held = w.r(4, 1, "Go").added[0]
    retraction = w.on(4, 2).contract(NS, first, retract=True)
    w.on(4, 3).rollback(NS, retraction.revision_id)
    [conflict] = w.bg.conflicts(NS, open_only=True)
    sides = {conflict.claim.object: conflict.claim.id, conflict.rival.object: conflict.rival.id}
    assert sides["Go"] == held and sides["Express.js"] != first
    assert w.bg.get(NS, held).disputed and w.bg.get(NS, sides["Express.js"]).disputed


def test_rollback_of_a_correction_brings_the_versions_back(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js")
    w.r(4, 1, "Go")
    w.r(5, 1, "Rust")
    fix = w.r(6, 1, "Express.js", correction=True, valid_from=d(4, 1))
    assert agree(w) == "Express.js"
    w.on(6, 2).rollback(NS, fix.revision_id)
    assert agree(w) == "Rust"
    assert w.at(d(4, 15)) == "Go" and w.at(d(3, 15)) == "Express.js"
    assert w.at(d(4, 15), d(6, 1) + timedelta(hours=1)) == "Express.js"  # on record


@pytest.mark.parametrize("keep", ["pending", "belief"])
def test_resolve_and_dismiss_work_the_queues_down(
    make_bg: Callable[..., BeliefGraph], keep: str
) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    first = w.r(3, 1, "Express.js").added[0]
    held = w.r(4, 1, "Go").added[0]
    [conflict] = w.bg.conflicts(NS, open_only=True)
    winner = held if keep == "pending" else first
    done = w.on(4, 2).resolve(NS, held, first, keep=winner, reason="asked the team")
    assert done.op == "resolve" and "asked the team" in done.reason
    assert w.bg.conflicts(NS, open_only=True) == [] and w.bg.pending(NS) == []
    assert agree(w) == ("Go" if keep == "pending" else "Express.js")
    [closed] = w.bg.conflicts(NS)
    assert closed.resolution and closed.resolution.startswith("resolved")
    assert conflict.resolution is None


def test_dismiss_leaves_both_claims(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    first = w.r(3, 1, "Express.js").added[0]
    held = w.r(4, 1, "Go").added[0]
    w.on(4, 2).dismiss(NS, held, first, reason="both are used")
    assert w.bg.conflicts(NS, open_only=True) == []
    assert not w.bg.get(NS, first).disputed and not w.bg.get(NS, held).disputed
    with pytest.raises(ConflictError, match="rival_id"):
        w.bg.dismiss(NS, held, first)


def test_reviewed_lifts_the_flag_and_repoints_the_dependency(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    premise = w.r(3, 1, "Express.js").added[0]
    plan = (
        w.on(3, 2)
        .remember(
            ClaimDraft(
                namespace=NS,
                subject="atlas",
                predicate="middleware",
                object="helmet",
                text="Atlas uses helmet middleware.",
                depends_on=(premise,),
            )
        )
        .added[0]
    )
    new = w.r(4, 1, "Koa").added[0]
    assert [c.id for c in w.bg.needs_review(NS)] == [plan]
    w.on(4, 2).reviewed(NS, plan, premise=new, reason="helmet works with Koa")
    assert w.bg.needs_review(NS) == []
    assert [c.id for c in w.bg.lineage(NS, plan).premises] == [new]
    w.r(5, 1, "Hapi")  # the new premise changes: the dependent is flagged again
    assert [c.id for c in w.bg.needs_review(NS)] == [plan]


# -- 7. rollback restores the whole web -----------------------------------------------------------


def test_rollback_of_a_retraction_restores_the_web(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    premise = w.r(3, 1, "Express.js").added[0]
    dependent = (
        w.on(3, 2)
        .remember(
            ClaimDraft(
                namespace=NS,
                subject="atlas",
                predicate="middleware",
                object="helmet",
                text="Atlas uses helmet middleware.",
                depends_on=(premise,),
                supports=(premise,),
            )
        )
        .added[0]
    )
    retraction = w.on(3, 3).contract(NS, premise, retract=True)
    w.on(3, 4).rollback(NS, retraction.revision_id)
    restored = w.bg.current(NS, "atlas", "uses")
    assert restored is not None and not isinstance(restored, list)
    lineage = w.bg.lineage(NS, restored.id)
    assert dependent in [c.id for c in lineage.dependents]
    again = w.on(3, 5).contract(NS, restored.id, retract=True)
    assert dependent in again.flagged


def test_rollback_of_a_confirm_returns_the_claim_to_pending(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    w.r(3, 1, "Express.js")
    held = w.r(4, 1, "Go").added[0]
    confirmed = w.on(4, 2).confirm(NS, held)
    w.on(4, 3).rollback(NS, confirmed.revision_id)
    [waiting] = w.bg.pending(NS)
    assert waiting.object == "Go"
    assert agree(w) == "Express.js"
    assert w.at(d(4, 2), d(4, 2) + timedelta(hours=1)) == "Go"  # the belief meanwhile, on record
    assert len(w.bg.conflicts(NS, open_only=True)) == 1
    w.on(4, 4).confirm(NS, waiting.id)
    assert agree(w) == "Go" and w.bg.conflicts(NS, open_only=True) == []


def test_rollback_of_a_reinforcement_undoes_it_whole(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    first = w.r(3, 1, "Express.js", confidence=0.5, episode_id="E1").added[0]
    again = w.r(3, 2, "Express.js", confidence=0.9, episode_id="E2")
    assert again.reinforced == [first]
    w.on(3, 3).rollback(NS, again.revision_id)
    claim = w.bg.get(NS, first)
    assert (claim.frequency, claim.confidence) == (1, 0.5)
    assert [e.id for e in w.bg.lineage(NS, first).episodes] == ["E1"]


# -- 8. pending claims accumulate evidence --------------------------------------------------------


def test_a_repeat_of_a_waiting_value_reinforces_it(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    w.r(3, 1, "Express.js")
    held = w.r(4, 1, "Go").added[0]
    for day in (2, 3):
        again = w.r(4, day, "Go")
        assert again.reinforced == [held] and not again.added
    [waiting] = w.bg.pending(NS)
    assert waiting.id == held and waiting.frequency == 3


# -- 9. erase is complete and flags dependents ----------------------------------------------------


def test_erasing_a_subject_covers_its_text_only_claims_and_flags_dependents(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    home = w.r(3, 1, "Lisbon", "Zed", "lives_in").added[0]
    bg = w.on(3, 2)
    note = bg.remember(ClaimDraft(namespace=NS, text="Zed prefers tea over coffee.")).added[0]
    other = bg.remember(ClaimDraft(namespace=NS, text="Zedd the DJ plays in Lisbon.")).added[0]
    dependent = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="atlas",
            predicate="office",
            object="Lisbon",
            text="The Atlas team meets where its lead lives.",
            depends_on=(home,),
        )
    ).added[0]
    erased = w.on(3, 3).erase(NS, subject="zed")
    assert {home, note} <= set(erased.retired) and other not in erased.retired
    assert dependent in erased.flagged
    assert [c.id for c in w.bg.needs_review(NS)] == [dependent]
    assert not [v for v in string_values(w.bg.store) if "tea over" in v]
    assert w.bg.get(NS, other).text == "Zedd the DJ plays in Lisbon."


# -- 10. AGM: the documented exceptions (docs/engine.md) ------------------------------------------


def test_agm_success_fails_for_non_prioritized_revision(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js", source_type="human_verified")
    weaker = w.r(3, 2, "Go", source_type="inferred")
    assert weaker.decision == "reject" and agree(w) == "Express.js"
    w2 = World(make_bg, Policy(preset="conservative"))
    w2.r(3, 3, "Express.js", "beta")
    held = w2.r(3, 4, "Go", "beta")
    assert held.decision == "hold_pending" and agree(w2, "beta") == "Express.js"


def test_agm_inclusion_and_vacuity(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js")
    before = {c.id for c in w.bg.history(NS, "atlas", "uses")}
    revised = w.r(3, 2, "Go")
    after = {c.id for c in w.bg.history(NS, "atlas", "uses")}
    assert after - before == set(revised.added) and len(revised.added) == 1
    # vacuity: nothing excludes a second value of a multi-valued fact: plain expansion
    w.r(3, 3, "Python", "priya", "speaks")
    both = w.r(3, 4, "Portuguese", "priya", "speaks")
    assert both.decision == "expand" and not both.retired
    found = w.bg.current(NS, "priya", "speaks")
    assert isinstance(found, list) and {c.object for c in found} == {"Python", "Portuguese"}


def test_agm_extensionality(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js")
    same = w.on(3, 2).remember(
        ClaimDraft(
            namespace=NS,
            subject="ATLAS ",
            predicate="runs on",
            object="express.JS",
            text="Atlas runs on Express.",
        )
    )
    assert same.verdict == "SAME"
    # without models, two paraphrases of a text-only claim are two facts (the exception)
    one = w.on(3, 3).remember(ClaimDraft(namespace=NS, text="Priya owns two cats."))
    two = w.on(3, 4).remember(ClaimDraft(namespace=NS, text="Priya has a pair of cats."))
    assert one.slot_id != two.slot_id


def test_agm_recovery_fails_rollback_recovers(make_bg: Callable[..., BeliefGraph]) -> None:
    w = World(make_bg)
    for subject in ("atlas", "beta"):
        first = w.r(3, 1, "Express.js", subject, episode_id=f"{subject}-1").added[0]
        w.r(3, 2, "Express.js", subject, episode_id=f"{subject}-2")
        retraction = w.on(3, 3).contract(NS, first, retract=True)
        if subject == "atlas":  # contract then expand again: a new claim, nothing recovered
            again = w.r(3, 4, "Express.js", subject)
            claim = w.bg.current(NS, subject, "uses")
            assert claim is not None and not isinstance(claim, list)
            assert claim.id == again.added[0] != first and claim.frequency == 1
        else:  # rollback is the way back: mentions and provenance come back with the claim
            w.on(3, 4).rollback(NS, retraction.revision_id)
            claim = w.bg.current(NS, subject, "uses")
            assert claim is not None and not isinstance(claim, list)
            assert claim.frequency == 2
            assert {e.id for e in w.bg.lineage(NS, claim.id).episodes} >= {"beta-1", "beta-2"}


# -- current, beliefs, search and as_of(now, now) agree (with the semantic layer) ------------------


def test_search_agrees_with_current_across_a_scheduled_change(semantic_bg: BeliefGraph) -> None:
    clock = Clock(d(3, 1))
    bg = BeliefGraph(semantic_bg.store, detector=semantic_bg.detector, clock=clock)
    for month, obj, start in [(3, "Express.js", None), (4, "Go", d(6, 1))]:
        clock.set(d(month, 1))
        bg.remember(
            ClaimDraft(
                namespace=NS,
                subject="atlas",
                predicate="uses",
                object=obj,
                text=f"The Atlas backend is written in {obj}.",
                valid_from=start,
            )
        )
    for day, expected in [(d(4, 2), "Express.js"), (d(6, 2), "Go")]:
        clock.set(day)
        hits = bg.search("which framework does the backend use?", NS, k=5)
        assert [h.claim.object for h in hits] == [expected]
        assert not hits[0].contested
        current = bg.current(NS, "atlas", "uses")
        assert current is not None and not isinstance(current, list)
        assert current.object == expected
        assert hits[0].claim == current  # every field, its moments to the microsecond
        assert hits[0].claim.valid_from.tzinfo == UTC


def test_the_known_at_audit_believes_what_as_of_believes(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg)
    w.r(3, 1, "Express.js", valid_to=d(6, 1))  # an end stated with it: never moved
    w.r(4, 1, "Go")  # overlaps Express.js until June: the newer claim holds
    rows = w.bg.store.read("audit/known_at", namespace=NS, known_at=d(5, 1))
    assert [r["id"] for r in rows if r["believed_then"]] == [w.bg.as_of(NS, "atlas", "uses").id]


def test_a_correction_that_waits_still_retracts_when_confirmed(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    w = World(make_bg, Policy(preset="conservative"))
    w.r(3, 1, "Express.js")
    go = w.r(5, 16, "Go", valid_from=d(5, 15)).added[0]
    w.on(5, 17).confirm(NS, go)
    fix = w.r(5, 20, "Express.js", correction=True)
    assert fix.decision == "hold_pending" and agree(w) == "Go"
    confirmed = w.on(5, 21).confirm(NS, fix.added[0])
    assert go in confirmed.retired and w.bg.get(NS, go).status == "retracted"
    assert agree(w) == "Express.js"
    assert w.at(d(5, 18)) == "Express.js" and w.at(d(4, 1)) == "Express.js"
    assert w.at(d(5, 18), d(5, 20)) == "Go"  # what we believed then stays on record


def test_a_back_dated_correction_that_waits_retracts_the_belief_that_began_after_it(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """A correction, "it was Express all along, from May 15", held for confirmation, then
    confirmed. Go, the belief, began on May 15 too; it is what the correction retracts, not a
    newer decision the confirmation would override (until 2026-12-05 refused as stale)."""
    w = World(make_bg, Policy(preset="conservative"))
    w.r(3, 1, "Express.js")
    go = w.r(5, 16, "Go", valid_from=d(5, 15)).added[0]
    w.on(5, 17).confirm(NS, go)
    fix = w.r(5, 20, "Express.js", correction=True, valid_from=d(5, 15))
    assert fix.decision == "hold_pending"
    confirmed = w.on(5, 21).confirm(NS, fix.added[0])
    assert go in confirmed.retired and w.bg.get(NS, go).status == "retracted"
    assert agree(w) == "Express.js" and w.at(d(5, 18)) == "Express.js"
    assert w.at(d(5, 18), d(5, 20)) == "Go"


@pytest.mark.parametrize("how", ["confirm", "resolve", "promote"])
def test_a_waiting_correction_kept_retracts_every_version_it_corrects_however_it_is_kept(
    make_bg: Callable[..., BeliefGraph], how: str
) -> None:
    """A correction, "it was Express all along, from April 1", held while Go (April) and then
    Rust (May) were believed: confirmed, kept by resolving its conflict with Rust, or promoted
    to a policy, it retracts both, and Express holds throughout (until 2026-12-05 resolving
    retracted only Rust and promoting superseded Rust, so April still read as Go)."""
    w = World(make_bg, Policy(preset="conservative"))
    w.r(3, 1, "Express.js")
    go = w.r(4, 1, "Go").added[0]
    w.on(4, 2).confirm(NS, go)
    rust = w.r(5, 1, "Rust").added[0]
    w.on(5, 2).confirm(NS, rust)
    fix = w.r(5, 20, "Express.js", correction=True, valid_from=d(4, 1)).added[0]
    [conflict] = w.bg.conflicts(NS, open_only=True)
    assert {conflict.claim.id, conflict.rival.id} == {fix, rust}
    bg = w.on(5, 21)
    if how == "confirm":
        kept = bg.confirm(NS, fix)
    elif how == "resolve":
        kept = bg.resolve(NS, conflict.claim.id, conflict.rival.id, keep=fix)
    else:
        kept = bg.promote(NS, fix, by="human", actor="ana")
    assert {go, rust} <= set(kept.retired)
    assert [w.bg.get(NS, i).status for i in (go, rust)] == ["retracted", "retracted"]
    assert agree(w) == "Express.js"
    assert w.at(d(4, 15)) == w.at(d(5, 10)) == "Express.js"
    assert w.at(d(4, 15), d(5, 20)) == "Go"  # what we believed then stays on record
    assert w.bg.conflicts(NS, open_only=True) == []


def test_a_waiting_correction_is_stale_once_a_later_decision_made_another_value_the_belief(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """A correction back to April held on May 1; Zig confirmed on May 11 is a decision taken
    after it: confirming the correction would silently undo that one, so it is refused."""
    w = World(make_bg, Policy(preset="conservative"))
    w.r(3, 1, "Express.js")
    w.on(4, 2).confirm(NS, w.r(4, 1, "Go").added[0])
    fix = w.r(5, 1, "Rust", correction=True, valid_from=d(4, 1))
    assert fix.decision == "hold_pending"
    w.on(5, 11).confirm(NS, w.r(5, 10, "Zig").added[0])
    with pytest.raises(ConflictError, match="stale"):
        w.on(5, 12).confirm(NS, fix.added[0])
    assert agree(w) == "Zig"


def test_current_and_as_of_of_a_long_lived_fact_read_its_few_windows_not_its_history(
    make_bg: Callable[..., BeliefGraph], store: Any
) -> None:
    """Facts rewritten every day, for 3, 20 and 120 days: ``current`` reads one claim of the
    two long ones, and ``as_of`` two days back the same few of either, as known now and as known
    then (when the later ends were not known yet); the short one is walked, its 3 claims. The
    answers are the versions of then."""
    clock = Clock(d(1, 1))
    bg = make_bg(clock=clock)
    lengths = {"atlas": 3, "borealis": 20, "cygnus": 120}
    for day in range(120):
        clock.set(d(1, 1) + timedelta(days=day))
        for subject, versions in lengths.items():
            if day >= 120 - versions:
                bg.remember(
                    ClaimDraft(
                        namespace=NS,
                        subject=subject,
                        predicate="uses",
                        object=f"v{day}",
                        text=f"{subject} uses v{day}.",
                    )
                )
    now = d(1, 1) + timedelta(days=119, hours=12)
    then = now - timedelta(days=2)
    clock.set(now)
    read: dict[str, list[int]] = {}
    for subject in lengths:
        assert value(bg.current(NS, subject, "uses")) == "v119"
        assert value(bg.as_of(NS, subject, "uses", valid_at=then)) == "v117"
        assert value(bg.as_of(NS, subject, "uses", known_at=then)) == "v117"
        slot = facts.slot(bg.vocabulary, NS, subject, "uses")
        fact = {"namespace": NS, "subject_key": slot.subject_key, "predicate": slot.predicate}
        read[subject] = [
            claims_read(
                store,
                "read/as_of_claims",
                **fact,
                valid_at=valid.isoformat(),
                known_at=known.isoformat(),
                walk_up_to=bg.tuning.walk_up_to,
            )
            for valid, known in ((now, now), (then, now), (then, then))
        ]
    assert read["borealis"] == read["cygnus"]
    assert read["cygnus"][0] == 1
    assert read["atlas"] == [3, 3, 3]


@pytest.mark.slow
def test_search_of_a_long_lived_fact_answers_current_reading_its_few_windows(
    make_bg: Callable[..., BeliefGraph], store: Any, offline_models: tuple[object, object]
) -> None:
    """Facts rewritten every day for 3 and 120 days, each then given a value stated with an end
    still ahead and a newer one over it: search finds what ``current`` finds (the claim accepted
    later holds, as_of's tie-break), as a client that walks every fact does and one that reads
    every fact by index; and for the long fact it reads its few claims that can hold now, not
    its history, which a walk reads whole for each hit of the fact."""
    clock = Clock(d(1, 1))
    embedder, _ = offline_models
    bg = make_bg(clock=clock, detector=Detector(embedder, None))  # type: ignore[arg-type]
    lengths = {"atlas": 3, "cygnus": 120}
    query = "Which database does the service run on?"

    def said(subject: str, value: str, **window: Any) -> None:
        text = f"The {subject} service runs on the {value} database."
        bg.remember(
            ClaimDraft(
                namespace=NS,
                subject=subject,
                predicate="runs_on",
                object=value,
                text=text,
                **window,
            )
        )

    for day in range(120):
        clock.set(d(1, 1) + timedelta(days=day))
        for subject, versions in lengths.items():
            if day >= 120 - versions:
                said(subject, f"db{day}")
    now = d(1, 1) + timedelta(days=121)
    for subject in lengths:
        clock.set(now - timedelta(hours=2))
        said(subject, "Postgres", valid_to=now + timedelta(days=30))  # an end stated: kept
        clock.set(now - timedelta(hours=1))
        said(subject, "MySQL")  # over it: accepted later, it holds
    clock.set(now)
    walked, indexed = (
        BeliefGraph(bg.store, detector=bg.detector, clock=clock, tuning=Tuning(walk_up_to=walk))
        for walk in (10**9, 0)
    )
    answers = {}
    for client in (bg, walked, indexed):
        hits = client.search(query, NS, k=10)
        answers[client] = sorted((h.claim.subject, h.claim.object, h.claim.id) for h in hits)
    assert answers[bg] == answers[walked] == answers[indexed]
    current = {s: bg.current(NS, s, "runs_on") for s in lengths}
    assert answers[bg] == sorted((c.subject, c.object, c.id) for c in current.values())  # type: ignore[union-attr]
    assert {c.object for c in current.values()} == {"MySQL"}  # type: ignore[union-attr]

    def read(subject: str, walk_up_to: int) -> int:
        """The claims one search for ``subject``'s sentence reads, its one hit that holds."""
        embedding = bg.detector.embed([f"The {subject} service runs on the MySQL database."])[0]
        return claims_read(
            store,
            "read/search_claims",
            namespace=NS,
            embedding=embedding,
            fetch=1,
            k=1,
            mode="current",
            now=now,
            valid_at=now,
            known_at=now,
            walk_up_to=walk_up_to,
        )

    engine = {s: read(s, bg.tuning.walk_up_to) for s in lengths}
    walk = {s: read(s, 10**9) for s in lengths}
    index = {s: read(s, 0) for s in lengths}
    assert engine["cygnus"] == index["cygnus"] == index["atlas"] < walk["cygnus"]
    assert engine["atlas"] == walk["atlas"]
