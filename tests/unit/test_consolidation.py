"""The consolidation planner without a database: a namespace as the read step finds it in, the
plan (a ChangeSet, the steps, the problems) out; and its exact reverse."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from belief_graph.errors import ConflictError
from belief_graph.policy import PairScores, Policy
from belief_graph.write import consolidation
from belief_graph.write.changes import SlotState
from belief_graph.write.consolidation import Survey, same_value
from belief_graph.write.state import State

NS = "user:priya"
NOW = datetime(2026, 5, 1, tzinfo=UTC)
POLICY = Policy()


def at(month: int) -> datetime:
    return datetime(2026, month, 1, tzinfo=UTC)


def claim(claim_id: str, slot: str = "S1", obj: str | None = "Lisbon", **extra: Any) -> dict:
    row: dict[str, Any] = {
        "id": claim_id,
        "in_slot": [slot],
        "slot_id": slot,
        "object_key": obj.casefold() if obj else None,
        "text": f"Priya lives in {obj}." if obj else "Priya lives in Lisbon.",
        "confidence": 0.8,
        "frequency": 1,
        "status": "active",
        "version": 1,
        "valid_from": at(1),
        "recorded_at": at(1),
        "accepted_at": at(1),
        "disputed": False,
        "needs_review": False,
        "refs": [],
        "conflicts": [],
        "supersedes": [],
    }
    return row | extra


def slot(slot_id: str, cardinality: str = "single", versions: int = 1, head: str | None = None):
    return SlotState(
        key=(NS, slot_id.lower(), "lives_in"),
        subject="priya",
        cardinality=cardinality,  # type: ignore[arg-type]
        slot_id=slot_id,
        seq=3,
        versions=versions,
        head=head,
        last_recorded_at=at(1),
        last_revision="r0",
        claims=[],
        new=False,
    )


def plan(*claims: dict, slots: tuple[SlotState, ...] = (), **scores: Any):
    found = slots or (slot("S1", head=claims[0]["id"]),)
    for s in found:
        if s.head is None:  # the chain's newest version, as a sound slot records it
            chain = [c for c in claims if c["in_slot"] == [s.slot_id] and c.get("version")]
            s.head = max(chain, key=lambda c: c["version"])["id"] if chain else None
    state = State(slots={s.key: s for s in found})
    survey = Survey(NS, state, {c["id"]: c for c in claims}, scores.get("paraphrases", {}))
    return consolidation.consolidate(survey, policy=POLICY, rid="rc", actor="sleep", now=NOW)


def actions(p: consolidation.Plan) -> set[tuple[str, str | None, str | None]]:
    return {(s.action, s.claim_id, s.other_id) for s in p.steps}


def test_duplicates_of_one_value_fold_into_the_claim_the_reads_answer_with() -> None:
    old = claim("old", frequency=2)
    new = claim("new", accepted_at=at(3), valid_from=at(3), recorded_at=at(3))
    p = plan(old, new, slots=(slot("S1", versions=2, head="new"),))
    assert p.change is not None
    assert ("merge", "old", "new") in actions(p)
    (retire,) = p.change.retires
    # Retired, never deleted; its window closes where the survivor starts holding.
    assert (retire.id, retire.status, retire.valid_to, retire.why) == (
        "old",
        "superseded",
        at(3),
        None,
    )
    assert [(m.id, m.into) for m in p.change.merges] == [("old", "new")]
    (more,) = p.change.reinforcements
    assert (more.id, more.delta) == ("new", 2)
    # Both had version 1: the merged one leaves the chain; the fact counts one version.
    assert [(a.id, a.props) for a in p.change.assigns] == [("old", {"version": None})]
    assert p.problems == []


def test_a_second_belief_of_another_value_is_superseded_and_its_dependents_flagged() -> None:
    globex = claim("globex", obj="Globex")
    acme = claim(
        "acme", obj="Acme", accepted_at=at(2), valid_from=at(2), version=2, supersedes=["globex"]
    )
    commute = claim("commute", slot="S2", obj="HQ", refs=[{"kind": "DEPENDS_ON", "to": "globex"}])
    p = plan(globex, acme, commute, slots=(slot("S1", versions=2, head="acme"), slot("S2")))
    assert p.change is not None
    assert actions(p) == {("supersede", "globex", "acme")}
    (retire,) = p.change.retires
    assert retire.why == "superseded" and retire.valid_to == at(2)
    # The dependent's properties are on the undo record: the flag it gets can be taken back.
    assert set(p.change.undo["claims"]) == {"globex", "commute"}  # type: ignore[index]
    assert p.change.slot_ids == ["S1", "S2"]


def test_a_text_only_twin_folds_into_the_structured_claim_across_facts() -> None:
    fact = claim("fact", accepted_at=at(1))
    twin = claim("twin", slot="T1", obj=None, text="priya lives in LISBON", accepted_at=at(4))
    p = plan(fact, twin, slots=(slot("S1", head="fact"), slot("T1", head="twin")))
    # A structured claim absorbs a text-only one, even a newer one.
    assert actions(p) == {("merge", "twin", "fact")}


def test_a_paraphrase_counts_only_when_the_models_say_so_and_the_words_allow_it() -> None:
    fact = claim("fact")
    twin = claim("twin", slot="T1", obj=None, text="Priya has her home in Lisbon.")
    same = PairScores(similarity=0.95, contradiction=0.01, frame="other")
    other_value = PairScores(similarity=0.97, contradiction=0.01, frame="value")
    slots = (slot("S1", head="fact"), slot("T1", head="twin"))
    assert actions(plan(fact, twin, slots=slots)) == set()
    p = plan(fact, twin, slots=slots, paraphrases={"twin": {"fact": same}})
    assert actions(p) == {("merge", "twin", "fact")}
    p = plan(fact, twin, slots=slots, paraphrases={"twin": {"fact": other_value}})
    assert actions(p) == set()


def test_two_structured_values_are_never_one_by_their_words() -> None:
    a = claim("a", obj="Lisbon", text="Priya lives in Lisbon.")
    b = claim("b", obj="Porto", text="Priya lives in Lisbon.")
    assert not same_value(a, b, PairScores(similarity=1.0, frame="same"), POLICY)


def test_a_merged_claims_conflict_passes_to_the_survivor() -> None:
    dup = claim(
        "dup", conflicts=[{"rival": "porto", "score": 0.9, "settled_by": None}], disputed=True
    )
    keep = claim("keep", accepted_at=at(2), version=2, supersedes=["dup"])
    porto = claim("porto", slot="S2", obj="Porto", disputed=True)
    p = plan(dup, keep, porto, slots=(slot("S1", versions=2, head="keep"), slot("S2")))
    assert p.change is not None
    assert ("carry_conflict", "keep", "porto") in actions(p)
    assert [(c.claim, c.rival, c.dispute) for c in p.change.contradictions] == [
        ("keep", "porto", True)
    ]
    assert [(s.id, s.rival, s.resolution) for s in p.change.settles] == [
        ("dup", "porto", "merged into keep")
    ]
    assert p.change.undo["conflicts"] == [  # type: ignore[index]
        {"from": "dup", "to": "porto", "previous": None}
    ]


def test_conflicts_and_flags_whose_cause_is_gone_close() -> None:
    gone = claim(
        "gone",
        status="superseded",
        version=1,
        conflicts=[{"rival": "steak", "score": 0.9, "settled_by": "old"}],
    )
    now = claim("now", obj="Vegan", version=2, supersedes=["gone"], accepted_at=at(2))
    steak = claim("steak", slot="S2", obj="steak", disputed=True)
    budget = claim("budget", slot="S3", obj="high")
    dinner = claim(
        "dinner",
        slot="S4",
        obj="dinner",
        refs=[{"kind": "DEPENDS_ON", "to": "budget"}],
        needs_review=True,
        review_reason="it depends on claim budget, which was retracted by revision r9",
    )
    stale = claim("stale", slot="S5", obj="x", disputed=True)
    slots = (slot("S1", versions=2, head="now"), slot("S2"), slot("S3"), slot("S4"), slot("S5"))
    p = plan(gone, now, steak, budget, dinner, stale, slots=slots)
    assert actions(p) == {
        ("close_conflict", "gone", "steak"),
        ("clear_flag", "dinner", "budget"),
        ("set_disputed", "stale", None),
    }
    assert p.change is not None
    assert p.change.clear_review_of == ["dinner"]
    assert p.change.disputes == [("stale", False)]
    assert p.change.undo["conflicts"] == [  # type: ignore[index]
        {"from": "gone", "to": "steak", "previous": "old"}
    ]


def test_a_flag_stays_while_its_premise_value_is_not_believed() -> None:
    old = claim("old", status="superseded", version=1)
    new = claim("new", obj="Porto", version=2, supersedes=["old"], accepted_at=at(2))
    plan_ = claim(
        "plan",
        slot="S2",
        obj="x",
        needs_review=True,
        review_reason="it depends on claim old, which was superseded by revision r2",
    )
    p = plan(old, new, plan_, slots=(slot("S1", versions=2, head="new"), slot("S2")))
    assert p.change is None and p.steps == [] and p.problems == []


def test_a_dependent_of_an_erased_premise_is_flagged_once() -> None:
    erased = claim("nuts", slot="S2", obj=None, status="erased", text=None, erased_at=at(2))
    snack = claim("snack", refs=[{"kind": "DEPENDS_ON", "to": "nuts"}])
    slots = (slot("S1", head="snack"), slot("S2", head="nuts"))
    p = plan(erased, snack, slots=slots)
    assert p.change is not None
    assert [i for i, _ in p.change.raises] == ["snack"]
    assert "nuts" in p.change.raises[0][1] and "erased" in p.change.raises[0][1]
    # Flagged since the erasure (and perhaps reviewed): never again.
    assert plan(erased, {**snack, "flagged_at": at(3)}, slots=slots).change is None


def test_chain_repairs_and_what_is_only_reported() -> None:
    one = claim("one", status="superseded")
    two = claim("two", obj="Porto", version=2, accepted_at=at(2))  # no edge to version 1
    p = plan(one, two, slots=(slot("S1", versions=5, head="one"),))
    assert p.change is not None
    assert [(e.new, e.old, e.verdict) for e in p.change.supersedes] == [
        ("two", "one", "CONSOLIDATE")
    ]
    assert p.change.undo["slots"] == {"S1": {"versions": 5, "head": "one"}}  # type: ignore[index]
    gap = claim("gap", obj="Porto", version=3, accepted_at=at(2))
    p = plan(one, gap, slots=(slot("S1", versions=2, head="gap"),))
    assert p.change is None
    assert [(x.check, x.slot_id) for x in p.problems] == [("chain", "S1")]
    foreign = claim("lonely", refs=[{"kind": "DEPENDS_ON", "to": None}])
    p = plan(foreign)
    assert [(x.check, x.claim_id) for x in p.problems] == [("reference", "lonely")]


def test_a_clean_namespace_plans_nothing() -> None:
    one = claim("one", status="superseded")
    two = claim("two", obj="Porto", version=2, accepted_at=at(2), supersedes=["one"])
    p = plan(one, two, slots=(slot("S1", versions=2, head="two"),))
    assert p.change is None and p.steps == [] and p.problems == []


def test_the_reverse_sets_back_what_was_recorded_and_refuses_after_a_later_write() -> None:
    old = claim("old", frequency=2, disputed=True, valid_to=None)
    new = claim("new", accepted_at=at(3), valid_from=at(3))
    p = plan(old, new, slots=(slot("S1", versions=2, head="new"),))
    assert p.change is not None and p.change.undo is not None
    s = slot("S1", versions=1, head="new")
    s.last_revision = "rc"
    target = {
        "op": "consolidate",
        "slot_ids": ["S1"],
        "changes": [{"kind": "RETIRED", "id": "old"}, {"kind": "REINFORCED", "id": "new"}],
        "undo": p.change.undo,
    }
    back = consolidation.undo(
        State(slots={s.key: s}), NS, target, revision_id="rc", rid="rb", actor=None, now=NOW
    )
    assigned = {a.id: a for a in back.assigns}
    assert assigned["old"].restored and assigned["old"].props["status"] == "active"
    assert assigned["old"].props["disputed"] is True and assigned["old"].props["version"] == 1
    assert assigned["new"].props["frequency"] == 1 and not assigned["new"].restored
    assert back.unlink == ["new", "old"] and back.unlinked_revision == "rc"
    assert (s.versions, s.head) == (2, "new") and back.undoes == "rc"
    s.last_revision = "later"
    with pytest.raises(ConflictError, match="revision_id"):
        consolidation.undo(
            State(slots={s.key: s}), NS, target, revision_id="rc", rid="rb", actor=None, now=NOW
        )


def test_the_survivor_is_a_claim_that_holds_now_so_current_does_not_change() -> None:
    ended = claim("ended", accepted_at=at(4), valid_to=at(4))  # accepted last, but over
    open_ = claim("open", accepted_at=at(2))
    p = plan(ended, open_, slots=(slot("S1", versions=1, head="open"),))
    assert ("merge", "ended", "open") in actions(p)
