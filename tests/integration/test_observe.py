"""observe(): from what someone said to beliefs, through the one write path, on a real Neo4j:
the rule extractor offline, the LLM extractor against the replay server answering as a real
local model did (data/extraction/recorded.jsonl), verification with the offline models refusing
what the source contradicts. Hand-written answers are only the malformed or adversarial ones a
test needs, and say so."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from belief_graph import BeliefGraph, Claim, ClaimDraft
from belief_graph.extraction import ChatExtractor, ChatSettings, Episode, RuleExtractor
from belief_graph.testing.chat_replay import ChatReplayServer, recorded_answers
from belief_graph.testing.factories import episode
from belief_graph.write.remember import REFUSED_BY_SOURCE

NS = "user:alice"
RULES = RuleExtractor()
SET = Path(__file__).resolve().parents[2] / "data" / "extraction"


def conversation(cid: str) -> dict[str, Any]:
    lines = (SET / "conversations.jsonl").read_text(encoding="utf-8").splitlines()
    return next(c for c in map(json.loads, lines) if c["id"] == cid)


def recorded(conv: dict[str, Any]) -> dict[str, str | list[str]]:
    """The real local model's answers to the turns of ``conv``."""
    lines = (SET / "recorded.jsonl").read_text(encoding="utf-8").splitlines()
    return recorded_answers(conv, [json.loads(line) for line in lines])


def turns(conv: dict[str, Any], start: datetime) -> list[Episode]:
    texts = [t["text"] for t in conv["turns"]]
    return [
        episode(text, *texts[:i], at=start + timedelta(minutes=i), speaker=conv["speaker"])
        for i, text in enumerate(texts)
    ]


def single(found: Claim | list[Claim] | None) -> Claim:
    """The one claim a single-valued read found."""
    assert found is not None and not isinstance(found, list)
    return found


said = partial(episode, speaker="alice")


def claim(obj: str, source: str, **extra: object) -> dict[str, object]:
    return {
        "subject": "alice",
        "predicate": "diet",
        "object": obj,
        "sentence": f"alice is {obj}.",
        "source": source,
        **extra,
    }


JOB = {
    **claim("Acme", "I work at Acme."),
    "predicate": "works_at",
    "sentence": "alice works at Acme.",
}


def answer(*claims: dict[str, object]) -> str:
    return json.dumps({"claims": list(claims)})


def chat(server: ChatReplayServer) -> ChatExtractor:
    return ChatExtractor(ChatSettings(url=server.base_url, model="replay"))


def test_vegan_then_pescatarian_leaves_one_current_diet(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    start = datetime.now(UTC) - timedelta(days=3)
    first = bg.observe(
        NS, said("I'm vegan - no meat, no fish, no dairy.", at=start), extractor=RULES
    )
    assert [r.verdict for r in first.results] == ["NEW"] and first.refused == []
    later = said("Wait, I eat fish now. I'm pescatarian these days.", at=start + timedelta(days=1))
    second = bg.observe(NS, later, extractor=RULES)
    assert [(p.predicate, p.object) for p in second.proposals] == [
        ("dietary_preference", "pescatarian")
    ]
    # The contradiction model reads vegan / pescatarian as a contradiction: the new value
    # supersedes the old one with the contradiction flag (never both current).
    (result,) = second.results
    assert result.verdict in ("UPDATE", "CONFLICT") and second.refused == []
    assert result.retired == first.results[0].added

    current = bg.current(NS, "alice", "diet")
    assert current is not None and not isinstance(current, list)
    assert current.object == "pescatarian"
    assert [b.object for b in bg.beliefs(NS, "alice")] == ["pescatarian"]
    history = bg.history(NS, "alice", "diet")
    assert [(c.object, c.status) for c in history] == [
        ("vegan", "superseded"),
        ("pescatarian", "active"),
    ]
    # Both time axes: valid from when each was said; what held on the first day was vegan.
    assert history[0].valid_from == start and history[0].valid_to == later.at
    held = bg.as_of(NS, "alice", "diet", valid_at=start + timedelta(hours=1))
    assert held is not None and not isinstance(held, list) and held.object == "vegan"
    # Provenance: each claim points at its episode, with the span it came from.
    episodes = {e.claim_id: e.content for e in bg.lineage(NS, current.id).episodes}
    assert episodes[current.id] == "I'm pescatarian these days."


def test_a_correction_retracts_the_wrong_value(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.observe(NS, said("I live in Lisbon.", at=now - timedelta(hours=2)), extractor=RULES)
    fixed = bg.observe(
        NS,
        said("Actually, I live in Porto, not Lisbon.", at=now - timedelta(hours=1)),
        extractor=RULES,
    )
    assert [p.correction for p in fixed.proposals] == [True]
    assert fixed.results[0].verdict == "CONFLICT"
    current = bg.current(NS, "alice", "lives in")
    assert current is not None and not isinstance(current, list) and current.object == "Porto"
    statuses = {c.object: c.status for c in bg.history(NS, "alice", "lives_in")}
    assert statuses == {"Lisbon": "retracted", "Porto": "active"}


def test_a_relative_time_becomes_valid_from(bg: BeliefGraph) -> None:
    at = datetime.now(UTC) - timedelta(days=1)
    monday = (at - timedelta(days=at.weekday() + 7)).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    seen = bg.observe(NS, said("I moved to Berlin last week.", at=at), extractor=RULES)
    assert seen.proposals[0].valid_from == monday
    current = bg.current(NS, "alice", "lives_in")
    assert current is not None and not isinstance(current, list)
    assert (current.object, current.valid_from) == ("Berlin", monday)


def test_a_move_said_as_coming_keeps_the_old_city_current_until_its_date(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.observe(NS, said("I live in Lisbon.", at=now - timedelta(days=30)), extractor=RULES)
    seen = bg.observe(NS, said("I'm moving to Berlin next month.", at=now), extractor=RULES)
    (proposal,) = seen.proposals
    first_of_next_month = (now.replace(day=1) + timedelta(days=32)).replace(
        day=1, hour=0, minute=0, second=0, microsecond=0
    )
    assert (proposal.object, proposal.valid_from) == ("Berlin", first_of_next_month)
    assert single(bg.current(NS, "alice", "lives_in")).object == "Lisbon"
    then = bg.as_of(NS, "alice", "lives_in", valid_at=first_of_next_month + timedelta(days=1))
    assert single(then).object == "Berlin"
    # A plan without a date is no change at all.
    plan = bg.observe(NS, said("I'm moving to Madrid.", at=now), extractor=RULES)
    assert [p.text_only for p in plan.proposals] == [True]  # kept as said, keying no fact
    assert single(bg.current(NS, "alice", "lives_in")).object == "Lisbon"


def test_a_closed_range_in_the_past_is_what_held_then_and_not_now(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.observe(NS, said("I live in Lisbon.", at=now - timedelta(days=1)), extractor=RULES)
    seen = bg.observe(NS, said("I lived in Paris from 2015 to 2019.", at=now), extractor=RULES)
    (proposal,) = seen.proposals
    assert (proposal.object, proposal.valid_from, proposal.valid_to) == (
        "Paris",
        datetime(2015, 1, 1, tzinfo=UTC),
        datetime(2020, 1, 1, tzinfo=UTC),
    )
    assert single(bg.current(NS, "alice", "lives_in")).object == "Lisbon"
    then = bg.as_of(NS, "alice", "lives_in", valid_at=datetime(2017, 6, 1, tzinfo=UTC))
    assert single(then).object == "Paris"


def test_the_same_episode_observed_again_changes_nothing(bg: BeliefGraph) -> None:
    episode = said("I work at Acme.", at=datetime.now(UTC) - timedelta(minutes=5), id="chat-7:3")
    first = bg.observe(NS, episode, extractor=RULES)
    again = bg.observe(NS, episode, extractor=RULES)
    assert first.episode_id == again.episode_id == "chat-7:3"
    assert (
        again.results[0].replayed and again.results[0].revision_id == first.results[0].revision_id
    )
    assert len(bg.history(NS, "alice", "works_at")) == 1


def test_a_recorded_conversation_of_the_local_model_leaves_the_new_channel_current(
    bg: BeliefGraph,
) -> None:
    """pref-c06 as Qwen2.5-Coder-1.5B answered it: email (under three predicates, a small
    model's guesses), then text: the channel it changed is current, email its past."""
    conv = conversation("pref-c06")
    start = datetime.now(UTC) - timedelta(hours=1)
    with ChatReplayServer(recorded(conv)) as server:
        seen = [bg.observe(NS, e, extractor=chat(server)) for e in turns(conv, start)]
    assert "email" in [p.object for p in seen[0].proposals]
    assert [p.object for p in seen[1].proposals] == ["text"]
    assert single(bg.current(NS, "farah", "communication_style")).object == "text"
    assert [(c.object, c.status) for c in bg.history(NS, "farah", "communication_style")] == [
        ("email", "superseded"),
        ("text", "active"),
    ]


def test_the_llm_extractor_retries_a_malformed_answer(bg: BeliefGraph) -> None:
    """Hand-written: a malformed first answer; then the model's recorded one."""
    conv = conversation("pref-c06")
    text = conv["turns"][1]["text"]
    real = recorded(conv)[text]
    with ChatReplayServer(
        {text: ["{not json", *([real] if isinstance(real, str) else real)]}
    ) as server:
        seen = bg.observe(NS, said(text, at=datetime.now(UTC)), extractor=chat(server))
    assert len(server.requests) == 2
    assert seen.extractor == "chat" and seen.refused == []
    assert [r.verdict for r in seen.results] == ["NEW"]
    assert single(bg.current(NS, "alice", "communication_style")).object == "text"


def test_always_malformed_is_refused_with_the_reason_and_stores_nothing(bg: BeliefGraph) -> None:
    """Hand-written: prose every time."""
    with ChatReplayServer({"vegan": "I think alice is vegan"}) as server:
        seen = bg.observe(NS, said("I'm vegan.", at=datetime.now(UTC)), extractor=chat(server))
    assert len(server.requests) == 2  # the answer and one retry
    assert seen.proposals == [] and seen.results == []
    (refusal,) = seen.refused
    assert refusal.reason.startswith("extractor: no readable claims JSON in 2 answers (not JSON")
    assert refusal.proposal.source == "I'm vegan."
    assert bg.history(NS, "alice", "diet") == []


def test_a_proposal_its_source_contradicts_is_refused(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    text = "I'm not vegan anymore, I eat meat and fish now."
    wrong = claim("vegan", text)  # hand-written, adversarial: the negation misread
    with ChatReplayServer({"not vegan": answer(wrong)}) as server:
        seen = bg.observe(NS, said(text, at=datetime.now(UTC)), extractor=chat(server))
    (result,) = seen.results
    assert result.decision == "refuse"
    (refusal,) = seen.refused
    assert refusal.reason == REFUSED_BY_SOURCE and refusal.proposal.object == "vegan"
    assert bg.current(NS, "alice", "diet") is None
    (stored,) = bg.history(NS, "alice", "diet")
    assert stored.status == "rejected" and stored.refused_reason == REFUSED_BY_SOURCE


def test_a_first_person_source_supports_its_third_person_claims(semantic_bg: BeliefGraph) -> None:
    """The offline contradiction model reads "alice lives in Dublin." against "I live in
    Dublin." as a contradiction; the source names the value with its polarity, so structure
    says it is supported and no model may refuse it. Where the source does not name the value
    ("I teach maths" for "works as maths teacher"), the model reads the source with "I" as the
    speaker, and finds no contradiction either."""
    bg = semantic_bg
    # Hand-written, adversarial to the classifier: sentences it misreads against their source.
    text = "I live in Dublin. I teach maths at Greenfield High."
    lives = claim("Dublin", "I live in Dublin.", predicate="lives_in")
    lives["sentence"] = "alice lives in Dublin."
    job = claim("maths teacher", "I teach maths at Greenfield High.", predicate="job_title")
    job["sentence"] = "alice works as maths teacher."
    with ChatReplayServer({"Dublin": answer(lives, job)}) as server:
        seen = bg.observe(NS, said(text, at=datetime.now(UTC)), extractor=chat(server))
    assert seen.refused == []
    assert [r.decision for r in seen.results] == ["expand", "expand"]
    current = bg.current(NS, "alice", "lives_in")
    assert current is not None and not isinstance(current, list) and current.object == "Dublin"


def test_an_invalid_proposal_is_refused_by_field_and_the_rest_is_kept(bg: BeliefGraph) -> None:
    bad = claim("vegan\x00", "I'm vegan.")  # hand-written: an object no draft may hold
    good = claim("vegan", "I'm vegan.")
    with ChatReplayServer({"vegan": answer(bad, good)}) as server:
        seen = bg.observe(NS, said("I'm vegan.", at=datetime.now(UTC)), extractor=chat(server))
    (refusal,) = seen.refused
    assert refusal.reason.startswith("invalid: object: ")
    assert [r.verdict for r in seen.results] == ["NEW"]


def test_third_person_statements_use_the_known_subjects(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.observe(NS, said("My manager is Bob.", at=now - timedelta(minutes=2)), extractor=RULES)
    bg.observe(NS, said("I live in Oslo.", at=now - timedelta(minutes=1)), extractor=RULES)
    assert set(bg.subjects(NS)) == {"alice"}
    bg.remember(
        ClaimDraft(namespace=NS, subject="Bob", predicate="age", object="41", text="Bob is 41.")
    )
    seen = bg.observe(NS, said("Bob lives in Rome.", at=now), extractor=RULES)
    assert [(p.subject, p.object) for p in seen.proposals] == [("Bob", "Rome")]
    current = bg.current(NS, "bob", "lives_in")
    assert current is not None and not isinstance(current, list) and current.object == "Rome"


def test_we_switched_the_project_to_go_and_express_is_no_longer_its_stack(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="Atlas",
            predicate="uses",
            object="Express.js",
            text="Atlas uses Express.js.",
            valid_from=now - timedelta(days=90),
        )
    )
    seen = bg.observe(NS, said("We switched Atlas to Go last week.", at=now), extractor=RULES)
    assert [(p.subject, p.predicate, p.object) for p in seen.proposals] == [
        ("Atlas", "uses_framework", "Go")
    ]
    assert single(bg.current(NS, "atlas", "uses")).object == "Go"
    # A change in the world: Express.js ended when Go began, and is not said to have been wrong.
    express, go = bg.history(NS, "atlas", "uses_framework")
    assert (express.object, express.status, express.valid_to) == (
        "Express.js",
        "superseded",
        go.valid_from,
    )
    assert express.retracted_at is None


def test_what_one_turn_says_is_written_at_once_each_proposal_seeing_the_one_before(
    bg: BeliefGraph, sent: list[str]
) -> None:
    """job-c01's second turn as the local model answered it: Globex, then Initech."""
    conv = conversation("job-c01")
    text = conv["turns"][1]["text"]
    with ChatReplayServer(recorded(conv)) as server:
        seen = bg.observe(NS, said(text, at=datetime.now(UTC)), extractor=chat(server))
    assert [p.object for p in seen.proposals] == ["Globex", "Initech"]
    assert [r.verdict for r in seen.results] == ["NEW", "UPDATE"] and not seen.refused
    assert sent.count("write/apply") == 1  # one write for the turn, not one per proposal
    assert single(bg.current(NS, "alice", "employer")).object == "Initech"
    assert [c.status for c in bg.history(NS, "alice", "works_at")] == ["superseded", "active"]


def test_a_proposal_the_write_path_refuses_keeps_none_of_the_others_out(bg: BeliefGraph) -> None:
    # Hand-written: the same proposal twice in one episode, one revision id twice, which a
    # batch refuses.
    twice = claim("vegan", "I'm vegan.")
    episode = said("I'm vegan. I work at Acme.", at=datetime.now(UTC), id="chat-9:1")
    with ChatReplayServer({"vegan": answer(twice, twice, JOB)}) as server:
        seen = bg.observe(NS, episode, extractor=chat(server))
    assert len(seen.results) == 3 and seen.results[1].replayed
    assert seen.results[0].revision_id == seen.results[1].revision_id
    assert [(c.predicate, c.object) for c in bg.beliefs(NS, "alice")] == [
        ("dietary_preference", "vegan"),
        ("works_at", "Acme"),
    ]


def test_a_turn_in_the_first_person_does_not_read_the_subjects(
    bg: BeliefGraph, sent: list[str]
) -> None:
    now = datetime.now(UTC)
    bg.observe(NS, said("I live in Oslo. My sister lives in Bergen.", at=now), extractor=RULES)
    assert "read/subjects_list" not in sent
    # About someone else: the rules match the clause against the names known, read once.
    about = said("Alice works at Acme. Alice speaks Norwegian.", at=now)
    seen = bg.observe(NS, about, extractor=RULES)
    assert sent.count("read/subjects_list") == 1
    assert {(p.subject, p.object) for p in seen.proposals} == {
        ("alice", "Acme"),
        ("alice", "Norwegian"),
    }


def test_a_long_turn_states_several_facts_and_a_changed_number_updates_its_fact(
    semantic_bg: BeliefGraph,
) -> None:
    """Offline, the rule extractor: each claim with its own span; "150 commits" then "165
    commits" is one fact with a new value; search gives the current value first and the old
    one nowhere; current() answers for the names a person asks with."""
    bg = semantic_bg
    start = datetime.now(UTC) - timedelta(days=9)
    first = (
        "Quick context before we start. I'm working on a budgeting app, and I've made 150 "
        "commits so far. My budget for hosting is $35 a month; I live in Porto.\n"
        "```python\nprint('I live in Code')\n```"
    )
    seen = bg.observe(NS, episode(first, at=start, speaker="sam", id="c1:0"), extractor=RULES)
    assert [(p.predicate, p.object, p.source) for p in seen.proposals] == [
        ("working_on", "budgeting app", "I'm working on a budgeting app"),
        ("commit_count", "150 commits", "I've made 150 commits so far."),
        ("budget", "$35 a month", "My budget for hosting is $35 a month;"),
        ("lives_in", "Porto", "I live in Porto."),
    ]
    later = "Progress: now at 165 commits. And the budget went up to $50 a month."
    bg.observe(
        NS,
        episode(later, first, at=start + timedelta(days=8), speaker="sam"),
        extractor=RULES,
    )
    assert [(c.object, c.status) for c in bg.history(NS, "sam", "commit_count")] == [
        ("150 commits", "superseded"),
        ("165 commits", "active"),
    ]
    assert single(bg.current(NS, "sam", "commits")).object == "165 commits"
    assert single(bg.current(NS, "sam", "budget")).object == "$50 a month"
    assert single(bg.current(NS, "sam", "city")).object == "Porto"
    for question, now, old in (
        ("How many commits has sam made?", "165 commits", "150 commits"),
        ("What is sam's hosting budget?", "$50", "$35"),
    ):
        hits = bg.search(question, NS, k=3)
        assert now in (hits[0].claim.text or ""), question
        assert not any(old in (h.claim.text or "") for h in hits), question


def test_a_turn_the_rules_cannot_read_is_kept_for_search(semantic_bg: BeliefGraph) -> None:
    bg = semantic_bg
    said_it = "The quarterly report is eating my whole week. Any tips for focus?"
    seen = bg.observe(NS, said(said_it, at=datetime.now(UTC)), extractor=RULES)
    (kept,) = seen.proposals
    assert kept.text_only and [r.verdict for r in seen.results] == ["NEW"]
    (hit,) = bg.search("quarterly report", NS, k=1)
    assert hit.claim.text == "The quarterly report is eating my whole week."
    assert bg.beliefs(NS, "alice") == []  # no fact of the speaker's was made up from it


def test_a_turn_kept_as_said_is_never_refused_by_its_own_words(semantic_bg: BeliefGraph) -> None:
    """The contradiction model reads "I quit ..." against the premise "alice quit ..." as a
    contradiction; a text-only claim of the turn's own sentences has nothing to verify, so it is
    kept (before, these were stored rejected and search never found them)."""
    bg = semantic_bg
    for said_it in (
        "I quit the café. My feet couldn't take the long shifts anymore.",
        "I'm in Lyon at the moment for a workshop, home again on Friday.",
    ):
        seen = bg.observe(NS, said(said_it, at=datetime.now(UTC)), extractor=RULES)
        assert [p.text_only for p in seen.proposals] == [True], said_it
        assert [r.verdict for r in seen.results] == ["NEW"] and seen.refused == [], said_it
    (hit,) = bg.search("long shifts at the café", NS, k=1)
    assert hit.claim.text == "I quit the café. My feet couldn't take the long shifts anymore."


def test_the_demo_tells_a_conversation_through_observe(bg: BeliefGraph) -> None:
    import io

    from rich.console import Console

    from belief_graph.cli import demo

    out = io.StringIO()
    ns = "demo:observe"
    demo._conversation_story(bg, ns, Console(file=out, width=200).print)
    text = out.getvalue()
    assert "extracted mara · lives_in · Berlin" in text
    assert "mara's pets:     Miso (no longer: Tofu)" in text
    assert single(bg.current(ns, "mara", "city")).object == "Berlin"
    assert single(bg.current(ns, "Ines", "lives_in")).object == "Porto"
