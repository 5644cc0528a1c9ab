"""The offline extractor on its own cases: what it reads, and what it leaves alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from belief_graph.extraction import Episode, Proposal, RuleExtractor
from belief_graph.vocabulary import Vocabulary

AT = datetime(2026, 3, 11, 15, 0, tzinfo=UTC)
KNOWN = ["Bob", "atlas"]


def extract(text: str, *context: str) -> list[Proposal]:
    episode = Episode(speaker="alice", at=AT, text=text, context=context)
    return RuleExtractor(keep_unread=False).extract(
        episode, vocabulary=Vocabulary.default(), known_subjects=KNOWN
    )


def triples(text: str, *context: str) -> list[tuple[str, str, str]]:
    return [(p.subject, p.predicate, p.object) for p in extract(text, *context)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm vegan - no meat, no fish, no dairy.", ("alice", "dietary_preference", "vegan")),
        ("I'm a vegetarian.", ("alice", "dietary_preference", "vegetarian")),
        ("I live in Lisbon.", ("alice", "lives_in", "Lisbon")),
        ("I moved to Berlin.", ("alice", "lives_in", "Berlin")),
        ("I moved from Lisbon to Berlin.", ("alice", "lives_in", "Berlin")),
        ("I work at Acme.", ("alice", "works_at", "Acme")),
        ("I started working at Globex.", ("alice", "works_at", "Globex")),
        ("I work as a nurse.", ("alice", "job_title", "nurse")),
        ("I'm allergic to peanuts.", ("alice", "has_allergy", "peanuts")),
        ("I'm from Porto.", ("alice", "born_in", "Porto")),
        ("My manager is Dana.", ("alice", "reports_to", "Dana")),
        ("My favorite food is sushi now.", ("alice", "favorite_food", "sushi")),
        ("Bob lives in Rome.", ("Bob", "lives_in", "Rome")),
        ("bob's email is bob@example.com.", ("Bob", "email", "bob@example.com")),
        ("Atlas uses Postgres.", ("atlas", "uses_framework", "Postgres")),
    ],
)
def test_reads_first_person_possessive_and_known_subject_statements(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert triples(text) == [expected]


def test_a_change_in_the_world_is_the_new_value_not_a_correction() -> None:
    (p,) = extract("Wait, I eat fish now. I'm pescatarian these days.")
    assert (p.predicate, p.object, p.negated, p.correction) == (
        "dietary_preference",
        "pescatarian",
        False,
        False,
    )
    assert p.sentence == "alice is pescatarian."
    assert p.source == "I'm pescatarian these days."


@pytest.mark.parametrize(
    "text",
    [
        "I no longer work at Acme.",
        "I don't work at Acme anymore.",
        "I left Acme.",
        "I quit Acme.",
    ],
)
def test_no_longer_proposes_the_value_negated(text: str) -> None:
    (p,) = extract(text)
    assert (p.predicate, p.object, p.negated) == ("works_at", "Acme", True)
    assert p.sentence == "alice no longer works at Acme."


def test_used_to_and_no_longer_with_a_copula_negate_too() -> None:
    assert [(p.object, p.negated) for p in extract("I used to live in Paris.")] == [("Paris", True)]
    (p,) = extract("I'm no longer vegetarian.")
    assert (p.object, p.negated, p.sentence) == (
        "vegetarian",
        True,
        "alice is no longer vegetarian.",
    )


def test_actually_not_is_a_correction() -> None:
    (p,) = extract("Actually, I live in Porto, not Lisbon.")
    assert (p.predicate, p.object, p.correction) == ("lives_in", "Porto", True)


def test_i_meant_takes_the_fact_from_the_context() -> None:
    (p,) = extract("Sorry, I meant Porto.", "I live in Lisbon.")
    assert (p.subject, p.predicate, p.object, p.correction) == ("alice", "lives_in", "Porto", True)
    assert p.sentence == "alice lives in Porto."


def test_switched_to_takes_the_fact_from_the_context() -> None:
    (p,) = extract("I switched to Neovim.", "My editor is VS Code.")
    assert (p.predicate, p.object, p.correction) == ("editor", "Neovim", False)
    assert p.sentence == "alice's editor is Neovim."


def test_actually_with_news_is_a_change_not_a_correction() -> None:
    (p,) = extract("Actually, I moved to Porto last week.")
    assert (p.object, p.correction) == ("Porto", False)
    assert p.valid_from == datetime(2026, 3, 2, tzinfo=UTC)


def test_a_relative_time_becomes_the_window() -> None:
    (p,) = extract("I started working at Globex yesterday.")
    assert p.valid_from == datetime(2026, 3, 10, tzinfo=UTC) and p.valid_to is None
    (q,) = extract("I'm learning Japanese since June.")
    assert (q.predicate, q.object, q.valid_from) == (
        "is_learning",
        "Japanese",
        datetime(2025, 6, 1, tzinfo=UTC),
    )


def test_a_list_of_values_of_a_multi_valued_fact_is_one_claim_each() -> None:
    assert triples("I speak French and Spanish.") == [
        ("alice", "language_spoken", "French"),
        ("alice", "language_spoken", "Spanish"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I'm tired.",
        "I have a meeting tomorrow.",
        "I think it's going to rain.",
        "We use Go now.",
        "It was 2019, not 2018.",  # no context to say what "it" is
        "How are you?",
        "I eat fish now.",  # a food, not a diet
        "Carol lives in Oslo.",  # not a known subject
    ],
)
def test_leaves_alone_what_it_cannot_read(text: str) -> None:
    assert extract(text) == []


def test_proposals_keep_the_order_said() -> None:
    found = triples("I live in Lisbon. I work at Acme. My manager is Dana.")
    assert [t[1] for t in found] == ["lives_in", "works_at", "reports_to"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a role and an employer in one breath
        (
            "I'm a software engineer at Initech.",
            [("alice", "job_title", "software engineer"), ("alice", "works_at", "Initech")],
        ),
        ("I'm an architect.", [("alice", "job_title", "architect")]),
        # an aside after a comma is not part of the value
        ("I work at Acme, mostly on the billing team.", [("alice", "works_at", "Acme")]),
        ("My manager is Dana, she's great.", [("alice", "reports_to", "Dana")]),
        ("I live in Lisbon, in Alfama.", [("alice", "lives_in", "Lisbon")]),
        ("I joined Globex last month, still settling in.", [("alice", "works_at", "Globex")]),
        # chat without a subject is the speaker's
        ("Moved to Porto in May.", [("alice", "lives_in", "Porto")]),
        ("Left Acme last week.", [("alice", "works_at", "Acme")]),
        # "we" of a household: where they live, their pets and children
        ("We live in Ghent now.", [("alice", "lives_in", "Ghent")]),
        (
            "I've got two dogs, Rex and Luna.",
            [("alice", "has_pet", "Rex"), ("alice", "has_pet", "Luna")],
        ),
        ("We have a cat named Mochi.", [("alice", "has_pet", "Mochi")]),
        # present perfect still holds
        ("I've lived in Oslo for ten years.", [("alice", "lives_in", "Oslo")]),
        # where one is, said plainly
        ("I'm in Madrid.", [("alice", "lives_in", "Madrid")]),
        # the time is the value
        ("My day off is on Thursday.", [("alice", "day_off", "Thursday")]),
        ("My budget is about 900 euros.", [("alice", "budget", "900 euros")]),
    ],
)
def test_common_first_person_shapes(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert triples(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm in Madrid for a conference.",  # a visit, not a home
        "I'm a huge fan of jazz.",  # not a job
        "I'm a member of the chess club.",
        "We use Postgres at work.",  # "we" of a team is not the speaker's household
        "I worked at Acme.",  # a past fact without a change verb
    ],
)
def test_common_shapes_it_still_leaves_alone(text: str) -> None:
    assert [t for t in triples(text) if t[1] in ("job_title", "lives_in", "works_at")] == []


@pytest.mark.parametrize(
    ("text", "expected", "valid_from", "negated"),
    [
        ("I'm moving to Berlin next month.", ("lives_in", "Berlin"), datetime(2026, 4, 1), False),
        (
            "I'll be relocating to Lisbon in June.",
            ("lives_in", "Lisbon"),
            datetime(2026, 6, 1),
            False,
        ),
        ("I'm starting at Globex on Monday.", ("works_at", "Globex"), datetime(2026, 3, 16), False),
        (
            "I'm going to join Initech next week.",
            ("works_at", "Initech"),
            datetime(2026, 3, 16),
            False,
        ),
        ("I'm leaving Acme in June.", ("works_at", "Acme"), datetime(2026, 6, 1), True),
        ("I'm starting at Globex today.", ("works_at", "Globex"), datetime(2026, 3, 11), False),
        ("Bob's moving to Rome next month.", ("lives_in", "Rome"), datetime(2026, 4, 1), False),
    ],
)
def test_a_change_said_as_coming_starts_at_its_date(
    text: str, expected: tuple[str, str], valid_from: datetime, negated: bool
) -> None:
    (p,) = extract(text)
    assert (p.predicate, p.object, p.negated) == (*expected, negated)
    assert p.valid_from == valid_from.replace(tzinfo=UTC) and p.valid_to is None


@pytest.mark.parametrize(
    ("text", "expected", "window"),
    [
        ("I lived in Paris from 2015 to 2019.", ("lives_in", "Paris"), (2015, 2020)),
        ("I worked at Acme from 2018 until 2021.", ("works_at", "Acme"), (2018, 2021)),
        ("Bob lived in Rome between 2001 and 2003.", ("lives_in", "Rome"), (2001, 2004)),
    ],
)
def test_a_past_tense_in_a_closed_range_is_what_held_then(
    text: str, expected: tuple[str, str], window: tuple[int, int]
) -> None:
    (p,) = extract(text)
    assert (p.predicate, p.object, p.negated) == (*expected, False)
    assert (p.valid_from, p.valid_to) == tuple(datetime(y, 1, 1, tzinfo=UTC) for y in window)


@pytest.mark.parametrize(
    "text",
    [
        "I'm moving to Berlin.",  # a plan with no date
        "I'll join Globex.",
        "I lived in Paris.",  # a past with no window: when it ended is unknown
        "I lived in Paris until 2020.",  # no start
        "I worked at Acme for three years.",
        "I left for Paris.",  # not an employer
        "I quit smoking.",
        "I'm leaving for Rome tomorrow.",
    ],
)
def test_plans_and_open_pasts_are_left_alone(text: str) -> None:
    assert extract(text) == []


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("We switched Atlas to Go.", ()),
        ("I migrated the Atlas backend from Express.js to Go.", ()),
        ("We've switched atlas over to Go.", ()),
        ("We switched to Go.", ("Atlas uses Express.js.",)),
    ],
)
def test_a_known_project_switched_to_a_new_stack(text: str, context: tuple[str, ...]) -> None:
    assert triples(text, *context) == [("atlas", "uses_framework", "Go")]


@pytest.mark.parametrize(
    "text",
    [
        "We're porting Atlas to Go.",  # a plan with no date
        "We switched Globex to Go.",  # not a subject the namespace holds
        "We moved Bob to the night shift.",  # moved: a known subject may be a person
        "We switched to Go.",  # nothing in the context says what switched
    ],
)
def test_a_switch_it_cannot_place_is_left_alone(text: str) -> None:
    assert extract(text) == []


def rules(text: str, *context: str) -> list[tuple[str, str, str]]:
    """What the offline extractor a user keeps on reads (turns it cannot read are kept as
    text)."""
    episode = Episode(speaker="sam", at=AT, text=text, context=context)
    found = RuleExtractor().extract(episode, vocabulary=Vocabulary.default(), known_subjects=[])
    return [
        (p.subject or "", p.predicate or "", ("not " if p.negated else "") + (p.object or ""))
        for p in found
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Clauses: "and I", "and" with the subject carried over, ";", "but now".
        (
            "I live in Mechelen and work at Lumen, and I speak Dutch and French.",
            [
                ("sam", "lives_in", "Mechelen"),
                ("sam", "works_at", "Lumen"),
                ("sam", "language_spoken", "Dutch"),
                ("sam", "language_spoken", "French"),
            ],
        ),
        (
            "I weigh 80 kg; I'm 41.",
            [("sam", "weight", "80 kg"), ("sam", "age", "41")],
        ),
        (
            "I used to live in Lisbon but now I live in Porto.",
            [("sam", "lives_in", "not Lisbon"), ("sam", "lives_in", "Porto")],
        ),
        # People other than the speaker, and "he"/"she" after them.
        (
            "My sister Ana lives in Porto and she works at Sonae as a chemist.",
            [
                ("sam", "has_sibling", "Ana"),
                ("Ana", "lives_in", "Porto"),
                ("Ana", "works_at", "Sonae"),
                ("Ana", "job_title", "chemist"),
            ],
        ),
        (
            "Nadia is my cousin. She is 29.",
            [("sam", "has_cousin", "Nadia"), ("Nadia", "age", "29")],
        ),
        # Numbers with units and money.
        ("I run about 25 km a week.", [("sam", "weekly_distance", "25 km a week")]),
        ("We're at 120 commits now.", [("sam", "commit_count", "120 commits")]),
        ("Our rent went up from £900 to £1,100 a month.", [("sam", "rent", "£1,100 a month")]),
        ("They raised my salary to 60k.", [("sam", "salary", "60k")]),
        ("The deadline moved to June 3.", [("sam", "deadline", "June 3")]),
        # Lists, and pets named after their kind.
        (
            "I have three kids: Sami, Lina and Omar.",
            [
                ("sam", "has_child", "Sami"),
                ("sam", "has_child", "Lina"),
                ("sam", "has_child", "Omar"),
            ],
        ),
        (
            "I live in Leeds with my two dogs, Rex and Bella.",
            [("sam", "lives_in", "Leeds"), ("sam", "has_pet", "Rex"), ("sam", "has_pet", "Bella")],
        ),
        # The shapes issue #59 found cut or dropped.
        ("I'm not allergic to peanuts anymore.", [("sam", "has_allergy", "not peanuts")]),
        (
            "I don't live in Lisbon anymore, I live in Porto now.",
            [("sam", "lives_in", "not Lisbon"), ("sam", "lives_in", "Porto")],
        ),
        (
            "I want to buy a house and save for a baby.",
            [("sam", "has_goal", "buy a house"), ("sam", "has_goal", "save for a baby")],
        ),
        (
            "I live in Lisbon and I work at Acme.",
            [("sam", "lives_in", "Lisbon"), ("sam", "works_at", "Acme")],
        ),
        ("I'm on a keto diet.", [("sam", "dietary_preference", "keto")]),
        ("My husband's name is Idris.", [("sam", "spouse", "Idris")]),
        # Jobs, homes and likes said in other words.
        (
            "I got a job as a nurse at Guy's Hospital.",
            [("sam", "job_title", "nurse"), ("sam", "works_at", "Guy's Hospital")],
        ),
        (
            "I've joined Stripe as a backend engineer.",
            [("sam", "works_at", "Stripe"), ("sam", "job_title", "backend engineer")],
        ),
        ("My new job is at Canva.", [("sam", "works_at", "Canva")]),
        ("I've settled in Tallinn.", [("sam", "lives_in", "Tallinn")]),
        ("I'm not a fan of horror films.", [("sam", "dislikes", "horror films")]),
        ("I'm hooked on podcasts these days.", [("sam", "likes", "podcasts")]),
        (
            "My dentist appointment is on Tuesday at 3.",
            [("sam", "dentist_appointment", "Tuesday at 3")],
        ),
        # What people ask an assistant for.
        ("You can reach me on Slack.", [("sam", "contact_preference", "Slack")]),
        ("Switch to Spanish please.", [("sam", "response_language", "Spanish")]),
        ("Be more concise.", [("sam", "communication_style", "concise")]),
        ("Can you answer in German from now on?", [("sam", "response_language", "German")]),
        ("Just text me instead.", [("sam", "contact_preference", "text")]),
        ("Sushi is my favourite food.", [("sam", "favorite_food", "Sushi")]),
        ("I stopped drinking coffee.", [("sam", "favorite_drink", "not coffee")]),
        ("I don't like olives.", [("sam", "dislikes", "olives")]),
        ("I got promoted to team lead.", [("sam", "job_title", "team lead")]),
    ],
)
def test_shapes_of_what_people_say(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert rules(text) == expected


@pytest.mark.parametrize(
    ("context", "text", "expected"),
    [
        # One value of a multi-valued fact removed, the others kept.
        (
            "I have two cats, Tofu and Miso.",
            "Sadly Miso passed away, so it's just Tofu now.",
            [("sam", "has_pet", "not Miso")],
        ),
        (
            "My hobbies are chess and pottery.",
            "I gave up pottery.",
            [("sam", "has_hobby", "not pottery")],
        ),
        # "X instead of Y" and "not Y anymore": the new value is of Y's fact.
        (
            "I use Neovim as my editor.",
            "I moved to Helix, not Neovim anymore.",
            [("sam", "editor", "Helix"), ("sam", "editor", "not Neovim")],
        ),
        (
            "My manager is Britt.",
            "My manager is Olle now instead of Britt.",
            [("sam", "reports_to", "Olle")],
        ),
        # A number that changes is the same fact with its new value.
        ("I'm at 150 commits.", "Now at 165 commits!", [("sam", "commit_count", "165 commits")]),
        ("My budget is $35.", "The budget went up to $50.", [("sam", "budget", "$50")]),
    ],
)
def test_changes_read_against_the_earlier_turns(
    context: str, text: str, expected: list[tuple[str, str, str]]
) -> None:
    assert rules(text, context) == expected


def test_a_long_turn_with_code_gives_each_claim_its_own_span() -> None:
    text = (
        "Quick context: I work at Klarna as a data engineer.\n"
        "```python\n"
        "team = load('payments')  # I live in Code\n"
        "```\n"
        "My manager is Britt, and I've made 150 commits so far. I live in Malmö."
    )
    episode = Episode(speaker="sam", at=AT, text=text)
    found = RuleExtractor().extract(episode, vocabulary=Vocabulary.default(), known_subjects=[])
    assert [(p.predicate, p.object, p.source) for p in found] == [
        ("works_at", "Klarna", "I work at Klarna as a data engineer."),
        ("job_title", "data engineer", "I work at Klarna as a data engineer."),
        ("reports_to", "Britt", "My manager is Britt"),
        ("commit_count", "150 commits", "I've made 150 commits so far."),
        ("lives_in", "Malmö", "I live in Malmö."),
    ]
    assert all(p.source in text for p in found)


def test_a_turn_it_cannot_read_is_kept_as_text_without_its_questions() -> None:
    episode = Episode(
        speaker="sam",
        at=AT,
        text="Ugh, the quarterly report is eating my week. Any tips for focus?",
    )
    (kept,) = RuleExtractor().extract(episode, vocabulary=Vocabulary.default(), known_subjects=[])
    assert kept.text_only and kept.subject is None
    assert kept.sentence == kept.source == "Ugh, the quarterly report is eating my week."
    chatter = Episode(speaker="sam", at=AT, text="lol ok")
    assert (
        RuleExtractor().extract(chatter, vocabulary=Vocabulary.default(), known_subjects=[]) == []
    )


# -- shapes added in round 2 of issue #59, each with the neighbours it must leave alone --------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A phrase the vocabulary only shares with an event's day or place is no fact of a person.
        ("I'm at the gym.", []),
        ("I'm on call this weekend.", []),
        # A subject taught is a teacher's job; where, the employer.
        (
            "I teach chemistry at Northfield Academy.",
            [("sam", "job_title", "chemistry teacher"), ("sam", "works_at", "Northfield Academy")],
        ),
        ("I teach piano.", [("sam", "job_title", "piano teacher")]),
        ("I teach my kids to swim.", []),
        # Hired by someone: the new employer; the person's own subject.
        ("I got hired by Zalando.", [("sam", "works_at", "Zalando")]),
        ("I got hired.", []),
        # How one gets to work.
        ("I take the tram to work.", [("sam", "commute_mode", "tram")]),
        ("I commute by ferry.", [("sam", "commute_mode", "ferry")]),
        ("I take the bus to my mum's on Sundays.", []),
        ("My commute is 40 minutes.", []),
        # A language picked up; anything else picked up is not one.
        ("I picked up Greek while living in Crete.", [("sam", "language_spoken", "Greek")]),
        ("I picked up Ana from the airport.", []),
        # A class started is what one is learning.
        ("I started a ceramics class.", [("sam", "is_learning", "ceramics")]),
        ("I'm taking Italian lessons.", [("sam", "is_learning", "italian")]),
        # A condition said as an adjective or a noun.
        ("I'm diabetic.", [("sam", "health_condition", "diabetes")]),
        ("I have asthma.", [("sam", "health_condition", "asthma")]),
        ("I'm tired.", []),
        # A home named by where it is.
        ("My flat in Tallinn is tiny but cosy.", [("sam", "lives_in", "Tallinn")]),
        ("We moved into a house in Tartu.", [("sam", "lives_in", "Tartu")]),
        ("My flat is tiny.", []),
        # The last day at an employer ends that job; a job named in passing is the employer.
        ("Last day at Initech was Friday.", [("sam", "works_at", "not Initech")]),
        ("This is for my job at Wise.", [("sam", "works_at", "Wise")]),
        ("I miss my old job at Wise.", []),
        # A diet held for a while; a diet switched to, said with "diet".
        ("I've been vegan for two years.", [("sam", "dietary_preference", "vegan")]),
        ("I switched to a paleo diet.", [("sam", "dietary_preference", "paleo")]),
        # Pastimes taken up, played, and no longer played.
        ("I've taken up archery.", [("sam", "has_hobby", "archery")]),
        ("I no longer play squash.", [("sam", "has_hobby", "not squash")]),
        # A hedge before a statement does not hide it.
        ("I'd say my main hobby is birdwatching.", [("sam", "has_hobby", "birdwatching")]),
        # A request after a comma is its own clause.
        (
            "ok I've been practising, reply in Dutch from now on please",
            [("sam", "response_language", "Dutch")],
        ),
        # An aside at the end of a value, or in brackets, is not part of it.
        ("I live in Ghent btw.", [("sam", "lives_in", "Ghent")]),
        (
            "My kids are Ava (7) and Noah (4).",
            [("sam", "has_child", "Ava"), ("sam", "has_child", "Noah")],
        ),
        # A role said as an acronym.
        ("I joined Monzo as an SRE.", [("sam", "works_at", "Monzo"), ("sam", "job_title", "SRE")]),
        # "the <fact> is ..." is the speaker's, as "my <fact> is ..." is.
        ("The budget is now 900 euros.", [("sam", "budget", "900 euros")]),
        ("The weather is lovely.", []),
        # A date moved by someone else.
        ("My flight got moved to June 9.", [("sam", "flight_date", "June 9")]),
        # A role and its employer said without a verb.
        (
            "Got the offer! Data analyst at Zalando, starting in May.",
            [("sam", "job_title", "data analyst"), ("sam", "works_at", "Zalando")],
        ),
        (
            "Senior PM at Spotify now.",
            [("sam", "job_title", "senior PM"), ("sam", "works_at", "Spotify")],
        ),
        ("Dinner at Nando's tonight.", []),
        # A place called home.
        ("Tartu is home now.", [("sam", "lives_in", "Tartu")]),
        ("Tartu is lovely.", []),
        # Hours of a shift.
        ("I'm on early shifts, 6am to 2pm.", [("sam", "working_hours", "6am to 2pm")]),
        # A fact named by its noun at the start of a sentence, without "my".
        ("Rent is £700 a month.", [("sam", "rent", "£700 a month")]),
        ("Coffee is life.", []),
        # Where one works: a place, not a field.
        ("I work in Utrecht at a bank.", [("sam", "work_location", "Utrecht")]),
        ("I work in Marketing.", []),
        # A flight's date; a flight without one is no date.
        ("I'm flying to Lima on June 12 with my brother.", [("sam", "flight_date", "June 12")]),
        ("I'm flying to Lima.", []),
        # A number beside another fact of the same clause: both; a distance run is no mileage.
        (
            "My car is a 2011 Skoda Fabia with 98,000 km on it.",
            [("sam", "car_mileage", "98,000 km"), ("sam", "car", "2011 Skoda Fabia")],
        ),
        ("I ran 10 km today.", []),
        # Other words for a home, a job, a like, a marriage, a diet; no value is no claim.
        ("I'm located in Tampere.", [("sam", "lives_in", "Tampere")]),
        ("My home is in Tampere.", [("sam", "lives_in", "Tampere")]),
        ("Tampere is where I live now.", [("sam", "lives_in", "Tampere")]),
        ("I recently moved to Tampere.", [("sam", "lives_in", "Tampere")]),
        ("I've got a new job at Kone.", [("sam", "works_at", "Kone")]),
        ("I adore opera.", [("sam", "likes", "opera")]),
        ("I got married to Eero.", [("sam", "spouse", "Eero")]),
        ("I follow a keto diet.", [("sam", "dietary_preference", "keto")]),
        ("I'm allergic to nothing.", []),
        # A time zone said by its name or abbreviation; someone else's is not the speaker's.
        ("I'm on Pacific time.", [("sam", "timezone", "Pacific time")]),
        ("I'm in GMT+2.", [("sam", "timezone", "GMT+2")]),
        (
            "I'm in Oslo, so Central European time.",
            [("sam", "lives_in", "Oslo"), ("sam", "timezone", "Central European time")],
        ),
        ("My sister is on Pacific time.", []),
        ("It's 3pm Eastern time here.", []),
        # Typed without capitals or apostrophes: the names as typed; common words are no names.
        ("i live in porto", [("sam", "lives_in", "porto")]),
        ("i work at google", [("sam", "works_at", "google")]),
        ("moved to lisbon last week", [("sam", "lives_in", "lisbon")]),
        ("im vegan now", [("sam", "dietary_preference", "vegan")]),
        ("i work at home", []),
        ("lars moved to guitar", []),
        ("I moved to guitar.", []),
        (
            "my sister ana lives in porto",
            [("sam", "has_sibling", "Ana"), ("Ana", "lives_in", "porto")],
        ),
        ("my sister just moved to porto", []),
        ("my friend is coming over", []),
        ("My mum is 70.", []),
        # Studying is not a job; being fired ends one.
        ("I'm a student at UCL.", [("sam", "studied_at", "UCL")]),
        ("I got fired from Initech.", [("sam", "works_at", "not Initech")]),
        # A name given with the pet, or right after it.
        ("We got a puppy, his name is Taco.", [("sam", "has_pet", "Taco")]),
        ("Got a kitten! Named her Olive.", [("sam", "has_pet", "Olive")]),
        ("I saw a fox. It was huge.", []),
        # What a noun names with "is in" or "meets on".
        ("My office is in Leeds now.", [("sam", "work_location", "Leeds")]),
        ("My book club meets on Thursdays.", [("sam", "book_club_day", "Thursdays")]),
        # Likes said in other words; a go-to is a favourite; a dated fact "I have".
        ("I've been really into K-pop lately.", [("sam", "likes", "K-pop")]),
        ("I've been loving Thai food.", [("sam", "likes", "Thai food")]),
        ("I can't get enough of sushi.", [("sam", "likes", "sushi")]),
        ("I've grown to like olives.", [("sam", "likes", "olives")]),
        ("I can't eat sushi.", []),
        ("My go-to drink is a flat white.", [("sam", "favorite_drink", "flat white")]),
        (
            "I have a dentist appointment on Friday at 3pm.",
            [("sam", "dentist_appointment", "Friday at 3pm")],
        ),
        ("I have a cat on my lap.", []),
        # Where one has been living, a home by its name, a new manager named first.
        ("We've been in Denver since March.", [("sam", "lives_in", "Denver")]),
        ("Been in Denver for a year now.", [("sam", "lives_in", "Denver")]),
        ("Denver's home now.", [("sam", "lives_in", "Denver")]),
        ("I've been in a meeting all day.", []),
        ("Priya is my new manager.", [("sam", "reports_to", "Priya")]),
        ("Starting at Figma next week.", [("sam", "works_at", "Figma")]),
        # Fragments of an update, a purpose after a place, a lead before a name.
        (
            "Update on me - new job at Canva, new flat in Sydney, same old cat.",
            [("sam", "works_at", "Canva"), ("sam", "lives_in", "Sydney")],
        ),
        ("I'm moving to Oslo in August for work.", [("sam", "lives_in", "Oslo")]),
        (
            "FYI my wife's name is Ingrid and she's a dentist.",
            [("sam", "spouse", "Ingrid"), ("Ingrid", "job_title", "dentist")],
        ),
        ("I'm a PhD student at ETH working on robotics.", [("sam", "studied_at", "ETH")]),
        # The speaker with someone else; children and pets named in brackets or after a comma.
        (
            "Me and my husband live in Cork with our two boys, Fionn and Oisin.",
            [
                ("sam", "lives_in", "Cork"),
                ("sam", "has_child", "Fionn"),
                ("sam", "has_child", "Oisin"),
            ],
        ),
        ("My husband and I both work at Intel.", [("sam", "works_at", "Intel")]),
        ("Tom and I are friends.", []),
        (
            "We've got two cats (Salt and Pepper) and a hamster.",
            [("sam", "has_pet", "Salt"), ("sam", "has_pet", "Pepper")],
        ),
        # A stay that ends soon is no home; a job "I'll be working at" only with its date.
        ("I'm in Berlin until Friday.", []),
        ("I'm in Berlin.", [("sam", "lives_in", "Berlin")]),
        ("From May I'll be working at Globex.", [("sam", "works_at", "Globex")]),
        ("I'll be working at Globex.", []),
        # What one is like, does for fun or is from is no job; a job named by what it is called.
        ("I'm a Londoner now.", []),
        ("I'm a heavy smoker.", []),
        ("I'm a runner.", []),
        ("I'm a baker.", [("sam", "job_title", "baker")]),
        (
            "Work's been crazy, I've taken a job at a startup called Nimbus.",
            [("sam", "works_at", "Nimbus")],
        ),
        # Leaving one place for another names no employer.
        ("I left Leeds for York.", []),
        ("I left Initech.", [("sam", "works_at", "not Initech")]),
        # A value of the wrong kind is no value: an amount without a number, a date without a
        # day, a name that is a phrase.
        ("The budget is tight.", []),
        ("Rent is due.", []),
        ("My flight was delayed.", []),
        ("Her name is on the list.", []),
        ("I teach myself guitar.", []),
        # A list headed by its fact's noun; a pastime stopped; a level before a language.
        (
            "Allergies: peanuts and shellfish.",
            [("sam", "has_allergy", "peanuts"), ("sam", "has_allergy", "shellfish")],
        ),
        ("Note: I'm out tomorrow.", []),
        (
            "I play chess, golf and tennis.",
            [
                ("sam", "has_hobby", "chess"),
                ("sam", "has_hobby", "golf"),
                ("sam", "has_hobby", "tennis"),
            ],
        ),
        ("I've stopped doing yoga.", [("sam", "has_hobby", "not yoga")]),
        (
            "I'm fluent in Spanish and conversational in Italian.",
            [("sam", "language_spoken", "Spanish"), ("sam", "language_spoken", "Italian")],
        ),
        # A greeting from home, a resident, born and raised; a job that ended said with "at".
        ("Hello from sunny Lisbon, where I live now.", [("sam", "lives_in", "Lisbon")]),
        ("Greetings from rainy Lisbon!", []),
        ("I'm a Lisbon resident.", [("sam", "lives_in", "Lisbon")]),
        ("Born and raised in Cork.", [("sam", "born_in", "Cork")]),
        ("I'm no longer at Stripe.", [("sam", "works_at", "not Stripe")]),
        ("I'm not at home.", []),
        # A like that ended is not a dislike; what is preferred, without what it beats.
        ("I used to love pizza.", [("sam", "likes", "not pizza")]),
        ("I don't like pizza.", [("sam", "dislikes", "pizza")]),
        ("I prefer tea to coffee now.", [("sam", "prefers", "tea")]),
        ("I'm drinking tea instead of coffee now.", [("sam", "favorite_drink", "tea")]),
        ("Sushi is still my favourite food.", [("sam", "favorite_food", "Sushi")]),
        # ", now I'm ..." starts a clause of its own.
        (
            "I used to work at Acme, now I work at Globex.",
            [("sam", "works_at", "not Acme"), ("sam", "works_at", "Globex")],
        ),
        # The day off said in other words; "off" that says no day is none.
        ("Wednesdays are my day off now.", [("sam", "day_off", "Wednesdays")]),
        ("I have Fridays off.", [("sam", "day_off", "Fridays")]),
        ("I'm off Mondays and Tuesdays.", [("sam", "day_off", "Mondays and Tuesdays")]),
        ("I'm off sick.", []),
        ("I have the day off.", []),
        # A day that is the value, and a time from which it holds.
        (
            "My day off is on Fridays from next month.",
            [("sam", "day_off", "Fridays")],
        ),
    ],
)
def test_round_two_shapes_and_their_neighbours(
    text: str, expected: list[tuple[str, str, str]]
) -> None:
    assert [t for t in rules(text) if t[1]] == expected


@pytest.mark.parametrize(
    ("context", "text", "expected"),
    [
        # A pet or a person mentioned without a name, named next.
        (
            "",
            "Sorry, my dog stepped on the keyboard. His name is Biscuit.",
            [("sam", "has_pet", "Biscuit")],
        ),
        ("", "I have a new boss, her name is Priya.", [("sam", "reports_to", "Priya")]),
        ("My dog is called Biscuit.", "His name is Biscuit, not Brisket.", []),
        ("", "My dog's name is Rex.", [("sam", "has_pet", "Rex")]),
        ("", "We got a new kitten named Luna.", [("sam", "has_pet", "Luna")]),
        # Someone named in the context who quits a job is still who they were to the speaker.
        ("My husband Tom is a chef.", "Tom quit his job at the restaurant.", []),
        ("I have two dogs, Rex and Bo.", "Sadly Bo passed away.", [("sam", "has_pet", "not Bo")]),
        # Someone named in the context: where they are now, what they became.
        ("My sister Ana lives in Porto.", "Ana's in Faro now.", [("Ana", "lives_in", "Faro")]),
        (
            "My wife Lea is a teacher.",
            "Lea just became a headteacher.",
            [("Lea", "job_title", "headteacher")],
        ),
        ("My sister Ana lives in Porto.", "Ana's in a bad mood.", []),
        # A name with the relation beside it.
        ("", "Dana, my manager, is on leave.", [("sam", "reports_to", "Dana")]),
        # A move after a time zone is a new home, not a new time zone.
        (
            "I'm in Oslo, so Central European time.",
            "I moved to Toronto in May. Eastern time for me now.",
            [("sam", "lives_in", "Toronto"), ("sam", "timezone", "Eastern time")],
        ),
        # A correction that names only the right value: of the last fact, or of the wrong value's.
        ("I live in Lyon.", "No wait, it's Lille.", [("sam", "lives_in", "Lille")]),
        ("I'm 34.", "Make that 35, birthday was yesterday.", [("sam", "age", "35")]),
        (
            "My dog's name is Rex.",
            "Autocorrect! Rox, not Rex.",
            [("sam", "has_pet", "Rox"), ("sam", "has_pet", "not Rex")],
        ),
        ("I live in Lyon.", "Sorry, it's raining here.", []),
        ("I started at Deloitte last week.", "Wait no, it's Friday.", []),
        ("I'm vegan.", "I meant vegetarian, sorry.", [("sam", "dietary_preference", "vegetarian")]),
        # A number said alone, in the unit or currency of an earlier one; "upped it to".
        (
            "My budget is $35 per person.",
            "$50 per person now.",
            [("sam", "budget", "$50 per person")],
        ),
        ("I run 20 km a week.", "30 km a week now.", [("sam", "weekly_distance", "30 km a week")]),
        ("My rent is £950 a month.", "£20 for the taxi, ugh.", []),
        (
            "My rent is £950 a month.",
            "We upped it to £990 a month.",
            [("sam", "rent", "£990 a month")],
        ),
        (
            "My brother Leo lives in Kyiv.",
            "Leo moved back home to Lviv.",
            [("Leo", "lives_in", "Lviv")],
        ),
        # "he" after "and" is who was just named.
        (
            "My friend Luca lives in Rome.",
            "And he's picked up Italian since he moved there.",
            [("Luca", "language_spoken", "Italian")],
        ),
    ],
)
def test_names_given_after_the_mention_and_people_who_change_jobs(
    context: str, text: str, expected: list[tuple[str, str, str]]
) -> None:
    context_turns = (context,) if context else ()
    assert [t for t in rules(text, *context_turns) if t[1]] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A home or an employer read by the words around the name, whatever the verb.
        ("We call Montreal home these days.", [("alice", "lives_in", "Montreal")]),
        ("I'm based out of Nairobi.", [("alice", "lives_in", "Nairobi")]),
        ("Settled in Hamburg after the move, loving it.", [("alice", "lives_in", "Hamburg")]),
        ("We've made Lisbon our home.", [("alice", "lives_in", "Lisbon")]),
        ("Bought a house in Utrecht last month!", [("alice", "lives_in", "Utrecht")]),
        ("Started a new position at Deloitte last week.", [("alice", "works_at", "Deloitte")]),
        ("I accepted an offer from Zalando.", [("alice", "works_at", "Zalando")]),
        ("Landed a full-time role with Miro!", [("alice", "works_at", "Miro")]),
        (
            "I'm at Brightwater Industries for now.",
            [("alice", "works_at", "Brightwater Industries")],
        ),
        ("I've been at Northwind Labs for six years.", [("alice", "works_at", "Northwind Labs")]),
        # A role said with its employer is both, whichever shape read it.
        (
            "New job: product manager at Miro.",
            [("alice", "job_title", "product manager"), ("alice", "works_at", "Miro")],
        ),
        # A pet named as a sister is ("my sister Ana").
        ("My dog Rufus is the best.", [("alice", "has_pet", "Rufus")]),
        ("Our cat Mochi just turned two.", [("alice", "has_pet", "Mochi")]),
        ("Our second daughter, Ines, was born in May.", [("alice", "has_child", "Ines")]),
        # How or how often is not the value.
        ("I speak Portuguese fluently.", [("alice", "language_spoken", "Portuguese")]),
        ("My editor is Vim again.", [("alice", "editor", "Vim")]),
        # Chat without a subject, any past tense; a discourse lead before the statement.
        ("Relocated to Dublin over the summer.", [("alice", "lives_in", "Dublin")]),
        ("Now living in Brighton.", [("alice", "lives_in", "Brighton")]),
        ("Turns out I'm allergic to penicillin.", [("alice", "has_allergy", "penicillin")]),
        # The word that led into a time goes with it.
        ("Starting in May my day off moves to Wednesday.", [("alice", "day_off", "Wednesday")]),
    ],
)
def test_round_three_mechanisms(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert triples(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Their neighbours: a job looked for or turned down, a place one is at, a name as home.
        "Applied for a job at Spotify.",
        "Turned down an offer from Meta.",
        "Hoping to get a job at Google.",
        "I had an interview at Amazon.",
        "I'm at the gym.",
        "I'm at Heathrow, flight's delayed.",
        "We called Dave home.",
        "Settled in nicely.",
        "Settled the bill.",
        # A past tense with no fact, a name that ends like one, an -ing that is no home or job.
        "Visited Google's office in Zurich yesterday.",
        "Worked late again.",
        "Decided to stay home tonight.",
        "Ted moved to Leeds.",
        "Hosting a party Saturday.",
        "Thinking about moving to Lisbon.",
        "Interviewed at Northwind Labs today.",
        # "-ly" words that are the value.
        "I'm flying to Italy on Friday?",
    ],
)
def test_round_three_neighbours_left_alone(text: str) -> None:
    assert extract(text) == []


def test_an_ly_word_that_is_a_name_or_a_noun_stays_in_the_value() -> None:
    assert triples("I live with my family in Sicily.")[-1:] != [("alice", "lives_in", "Sic")]
    assert triples("I moved to Italy.") == [("alice", "lives_in", "Italy")]
    assert triples("My favourite food is jelly.") == [("alice", "favorite_food", "jelly")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Typed with curly apostrophes, an ellipsis character, emoji.
        ("I’m vegan now 🌱", [("alice", "dietary_preference", "vegan")]),
        ("I’ve moved to Berlin…", [("alice", "lives_in", "Berlin")]),
        ("Moved to Berlin 🎉🎉", [("alice", "lives_in", "Berlin")]),
        ("My sister’s name is Ana.", [("alice", "has_sibling", "Ana")]),
        # A region after a place; a participle after a comma is an aside.
        ("I live in Berlin, Germany.", [("alice", "lives_in", "Berlin")]),
        ("I'm from Portland, Oregon.", [("alice", "born_in", "Portland")]),
        ("Living in Berlin now, loving it", [("alice", "lives_in", "Berlin")]),
    ],
)
def test_typed_as_people_type(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert triples(text) == expected


def test_a_source_typed_with_curly_quotes_is_the_span_as_typed() -> None:
    text = "I’m vegan now 🌱. I’ve moved to Berlin…"
    assert [p.source for p in extract(text)] == ["I’m vegan now 🌱.", "I’ve moved to Berlin…"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Lists stay lists: the region trim is for one place, the aside for a participle.
        ("I speak French, German.", ["French", "German"]),
        ("I like hiking, running and swimming.", ["hiking", "running", "swimming"]),
        ("I work at Stripe, Dublin.", ["Stripe, Dublin"]),
    ],
)
def test_lists_and_employers_keep_their_commas(text: str, expected: list[str]) -> None:
    assert [p.object for p in extract(text)] == expected


@pytest.mark.parametrize(
    ("text", "context", "expected"),
    [
        ("OK so I moved. Berlin now.", ("I live in Paris.",), [("alice", "lives_in", "Berlin")]),
        ("Cardiff since March.", ("I live in Bristol.",), [("alice", "lives_in", "Cardiff")]),
        ("Tuesdays now.", ("My day off is Monday.",), [("alice", "day_off", "Tuesdays")]),
        ("35 now.", ("I'm 34.",), [("alice", "age", "35")]),
    ],
)
def test_a_bare_value_with_a_change_word_is_the_last_facts_new_value(
    text: str, context: tuple[str, ...], expected: list[tuple[str, str, str]]
) -> None:
    proposals = extract(text, *context)
    assert [(p.subject, p.predicate, p.object) for p in proposals] == expected
    assert not any(p.correction for p in proposals)


@pytest.mark.parametrize(
    ("text", "context", "expected"),
    [
        ("senior developer now!", ("I'm a junior developer.",), ("job_title", "senior developer")),
        (
            "black tea these days",
            ("My favourite drink is green tea.",),
            ("favorite_drink", "black tea"),
        ),
        ("Head nurse now, still on nights.", ("I'm a staff nurse.",), ("job_title", "Head nurse")),
    ],
)
def test_a_lower_case_value_of_the_last_facts_kind_is_its_new_value(
    text: str, context: tuple[str, ...], expected: tuple[str, str]
) -> None:
    """Another of the same kind (the last word of the last fact's value) with a change word."""
    assert [(p.predicate, p.object) for p in extract(text, *context)] == [expected]


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("tired now", ("I'm a nurse.",)),  # not another nurse
        ("red bike now", ("I drive a blue Fiat.",)),  # another kind of thing
        ("junior developer now", ("I'm a junior developer.",)),  # the same value
        ("developer now", ("I'm a junior developer.",)),  # no word of its own
        ("two cats now", ("I have a cat called Tom.",)),  # a fact of several values
    ],
)
def test_a_lower_case_value_of_another_kind_is_not_the_last_facts(
    text: str, context: tuple[str, ...]
) -> None:
    assert extract(text, *context) == []


@pytest.mark.parametrize(
    ("text", "context"),
    [
        ("Berlin now.", ()),  # no fact before it
        ("Thanks now.", ("I live in Bristol.",)),  # a reply, not a value
        ("Call me instead.", ("Email me.",)),  # a clause, not a name
        ("Mia starts there next week.", ("My sister Mia works at Lidl.",)),
    ],
)
def test_a_bare_word_that_is_no_value_is_left_alone(text: str, context: tuple[str, ...]) -> None:
    assert [p for p in extract(text, *context) if p.object in text.split()[0]] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Chat leaves the speaker out: read as "I'm ..." or "I ...".
        ("Vegetarian since March.", [("alice", "dietary_preference", "vegetarian")]),
        ("Allergic to cats, sadly.", [("alice", "has_allergy", "cats")]),
        ("Work at Stripe now.", [("alice", "works_at", "Stripe")]),
        ("Married to Dana.", [("alice", "spouse", "Dana")]),
        ("Based in Leeds now.", [("alice", "lives_in", "Leeds")]),
        ("Originally from Cork.", [("alice", "born_in", "Cork")]),
        ("Fluent in Spanish.", [("alice", "language_spoken", "Spanish")]),
        ("Still in Leeds.", [("alice", "lives_in", "Leeds")]),
    ],
)
def test_a_clause_without_its_subject_is_the_speakers(
    text: str, expected: list[tuple[str, str, str]]
) -> None:
    assert triples(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Still job hunting, sent out thirty CVs.",  # an activity, not a job
        "Love the new design.",  # a thing just seen
        "Hosting a party Saturday.",
        "Applied for a job at Spotify.",
        "Off to Paris tomorrow.",
        "Back from Rome.",
        "In London for the week.",
        "On holiday in Spain.",
        "Happy in Berlin.",
        "Down with a cold.",
        "Thinking of going vegan.",
        "Working with Sara on the launch.",
        "Bob lives in Rome, apparently.",  # a name the namespace holds is a subject
    ],
)
def test_fragments_that_state_no_fact_of_the_speaker_are_left_alone(text: str) -> None:
    assert [p for p in extract(text) if p.subject == "alice"] == []


@pytest.mark.parametrize(
    ("context", "text", "expected"),
    [
        # The last fact's new value, said without its noun or verb.
        ("My day off is Monday.", "It's moved to Friday.", [("day_off", "Friday", False)]),
        (
            "My favourite food is sushi.",
            "These days it's ramen.",
            [("favorite_food", "ramen", False)],
        ),
        ("I work at Acme.", "Got a new job! I'm at Globex now.", [("works_at", "Globex", False)]),
        ("I live in Leeds.", "We're in Cardiff now.", [("lives_in", "Cardiff", False)]),
        # An end said in other words, of a value the earlier turns gave.
        ("I work at Acme.", "Acme let me go last week.", [("works_at", "Acme", True)]),
        (
            "I live in Leeds.",
            "Leeds is behind me, I'm in Glasgow now.",
            [("lives_in", "Glasgow", False), ("lives_in", "Leeds", True)],
        ),
        # A value cut at ", no more ..."; another pet; a commute in the -ing form.
        (
            "I'm vegetarian.",
            "I'm vegan now, no more dairy.",
            [("dietary_preference", "vegan", False)],
        ),
        ("I have a cat, Miso.", "We got a second cat, Tofu.", [("has_pet", "Tofu", False)]),
        ("I drive to work.", "Cycling to work these days.", [("commute_mode", "cycling", False)]),
        # A subjectless progressive of a change with its day is to come.
        ("I work at Acme.", "Starting at Globex on Monday.", [("works_at", "Globex", False)]),
    ],
)
def test_changes_said_without_the_facts_words(
    context: str, text: str, expected: list[tuple[str, str, bool]]
) -> None:
    found = {(p.predicate, p.object, p.negated) for p in extract(text, context)}
    assert found == set(expected)


@pytest.mark.parametrize(
    ("context", "text"),
    [
        ("I live in Leeds.", "I'm at Heathrow now."),  # not the last fact's kind of place
        ("I have two cats, Tofu and Miso.", "So it's Tofu and Bo now."),  # several values
        ("My favourite food is sushi.", "It's great."),  # no change said
        ("I work at Acme.", "It was fine."),
    ],
)
def test_an_it_or_a_place_that_is_no_new_value_is_left_alone(context: str, text: str) -> None:
    assert [p for p in extract(text, context) if not p.negated] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A statement said on the way to a question.
        ("Since I'm vegan, what should I cook tonight?", [("dietary_preference", "vegan")]),
        ("As a vegan, what should I cook?", [("dietary_preference", "vegan")]),
        ("Now that I live in Oslo, any tips for winter running?", [("lives_in", "Oslo")]),
        ("Given that I'm allergic to nuts, is this safe?", [("has_allergy", "nuts")]),
        (
            "Being vegetarian, what protein do you recommend?",
            [("dietary_preference", "vegetarian")],
        ),
        (
            "As a teacher at Oakridge High, how do I grade this?",
            [("job_title", "teacher"), ("works_at", "Oakridge High")],
        ),
        ("I'm a nurse on nights - can you help me plan meals?", [("job_title", "nurse")]),
    ],
)
def test_a_statement_inside_a_question(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(p.predicate, p.object) for p in extract(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Do I live in Paris?",
        "Should I move to Berlin, or stay in Lisbon?",
        "If I move to Berlin, do I need a visa?",
        "I wonder, should I go vegan?",
        "I'm thinking of moving to Leeds, is that wise?",
        "As a kid, did you like Lego?",
        "I'm flying to Italy on Friday?",  # asks whether it is so
    ],
)
def test_questions_that_state_nothing_are_left_alone(text: str) -> None:
    assert extract(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A noun read by the head the vocabulary knows.
        ("My piano lessons are on Mondays.", [("alice", "lesson_day", "Mondays")]),
        ("Piano lessons moved to Fridays.", [("alice", "lesson_day", "Fridays")]),
        ("My weekly team meeting is on Tuesdays.", [("alice", "meeting_day", "Tuesdays")]),
    ],
)
def test_a_noun_read_by_its_head(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert triples(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My old manager is Dana.",  # no longer
        "My sister's boyfriend is Tom.",  # someone else's
        "My best friend's name is Ana.",
        "My car insurance is Aviva.",  # no head the vocabulary knows
    ],
)
def test_a_head_that_is_not_the_speakers_fact_is_left_alone(text: str) -> None:
    assert [p for p in extract(text) if p.subject == "alice"] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("No allergies except penicillin.", ["penicillin"]),
        ("I speak French and Spanish at work.", ["French", "Spanish"]),
        ("I have two plants on the windowsill: mint and thyme.", ["mint", "thyme"]),
    ],
)
def test_a_list_without_what_it_excepts_or_where(text: str, expected: list[str]) -> None:
    assert [p.object for p in extract(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A stance said as it grows is the stance; one that ended is no dislike.
        ("I'm really enjoying yoga.", [("likes", "yoga", False)]),
        ("I've started liking olives.", [("likes", "olives", False)]),
        ("I've fallen in love with bouldering.", [("likes", "bouldering", False)]),
        ("I'm not into techno anymore.", [("likes", "techno", True)]),
        ("I'm not working at Acme anymore.", [("works_at", "Acme", True)]),
        # Their neighbours: a dislike said as one, a doubt, a place one is not at.
        ("I don't like techno.", [("dislikes", "techno", False)]),
        ("I'm not sure about Berlin.", []),
        ("I'm not in Leeds.", []),
    ],
)
def test_stances_as_they_grow_and_end(text: str, expected: list[tuple[str, str, bool]]) -> None:
    assert [(p.predicate, p.object, p.negated) for p in extract(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lost my job at Boots.", [("works_at", "Boots", True)]),
        ("I hate my job at Aldi.", [("works_at", "Aldi", False)]),  # it holds
        ("Applying for my job at Aldi again?", []),
        ("I work in HR at Siemens.", [("works_at", "Siemens", False)]),
        ("I've been promoted to head of design.", [("job_title", "head of design", False)]),
        (
            "I was promoted to senior analyst at Monzo.",
            [("job_title", "senior analyst", False), ("works_at", "Monzo", False)],
        ),
        ("I got promoted!", []),  # to what is not said
    ],
)
def test_jobs_lost_held_and_promoted_to(text: str, expected: list[tuple[str, str, bool]]) -> None:
    assert [(p.predicate, p.object, p.negated) for p in extract(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A statement in brackets, said on the side of a request or a question.
        ("Can you suggest a recipe (I'm vegan)?", [("dietary_preference", "vegan")]),
        ("Help me write to my landlord (I live in Leeds).", [("lives_in", "Leeds")]),
        ("I have two kids (Ava and Ben).", [("has_child", "Ava"), ("has_child", "Ben")]),
        # A number after a comma is no part of the value before it.
        ("Draft a cover letter - I'm a nurse, 5 years at St Mary's.", [("job_title", "nurse")]),
        ("I work at Acme, 9 to 5.", [("works_at", "Acme")]),
    ],
)
def test_statements_on_the_side(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(p.predicate, p.object) for p in extract(text)] == expected


def test_a_bracket_that_states_nothing_of_the_speaker_is_left_alone() -> None:
    assert extract("Can you suggest a recipe (something quick)?") == []


@pytest.mark.parametrize(
    ("context", "text", "expected"),
    [
        # "my sister" later is the sister named before.
        (
            "My sister Ana lives in Porto.",
            "My sister moved to Lisbon.",
            ("Ana", "lives_in", "Lisbon"),
        ),
        ("My brother Leo is a nurse.", "My brother is a vet now.", ("Leo", "job_title", "vet")),
        # A new name given to the relation is a new value, not the old person's fact.
        ("My boss Dana is nice.", "My boss is Greta now.", ("alice", "reports_to", "Greta")),
    ],
)
def test_a_relation_named_before_is_that_person(
    context: str, text: str, expected: tuple[str, str, str]
) -> None:
    assert triples(text, context) == [expected]


def test_a_relation_never_named_is_left_alone() -> None:
    assert extract("My sister moved to Lisbon.") == []


@pytest.mark.parametrize(
    ("context", "text", "expected"),
    [
        # The turn says it corrects; "it's X" in another of its sentences is the fix.
        ("I live in Linz.", "Oops, typo - it's Graz.", ("lives_in", "Graz", True)),
        ("I live in Linz.", "My bad. It's Graz.", ("lives_in", "Graz", True)),
        # An apology after the contrast does not hide it.
        ("My day off is Tuesday.", "Thursday, not Tuesday, sorry.", ("day_off", "Thursday", True)),
        # Without a word that corrects, "it's X now" is news.
        ("I live in Linz.", "It's Graz now.", ("lives_in", "Graz", False)),
    ],
)
def test_corrections_said_across_the_turn(
    context: str, text: str, expected: tuple[str, str, bool]
) -> None:
    assert [(p.predicate, p.object, p.correction) for p in extract(text, context)] == [expected]


def test_an_apology_for_something_else_corrects_nothing() -> None:
    assert extract("Sorry for the late reply! It's been busy.", "I live in Linz.") == []


@pytest.mark.parametrize(
    "text",
    [
        "Galway has been home for a month now.",
        "Got the keys to our new flat in Galway!",
        "Just signed a lease in Galway.",
        "We're Galway-based now.",
        "We moved up to Galway.",
        "Relocated up north to Galway.",
        "Home these days is Galway.",
        "We're now in Galway for good.",
        "I'm renting in Galway.",
    ],
)
def test_a_move_in_other_words(text: str) -> None:
    assert triples(text) == [("alice", "lives_in", "Galway")]


@pytest.mark.parametrize(
    "text",
    [
        "Home is where the heart is.",
        "My sister has been home for a week.",
        "I'm in Rome for good measure.",
        "We moved away to the country.",
    ],
)
def test_words_of_home_that_name_none_are_left_alone(text: str) -> None:
    assert [p for p in extract(text) if p.predicate == "lives_in"] == []


@pytest.mark.parametrize(
    ("text", "context", "expected"),
    [
        ("I got the Spotify job!", (), [("works_at", "Spotify", False)]),
        ("I'm officially a Spotify employee.", (), [("works_at", "Spotify", False)]),
        ("First day at Spotify tomorrow!", (), [("works_at", "Spotify", False)]),
        ("I'm with Spotify now.", ("I work at Acme.",), [("works_at", "Spotify", False)]),
        ("In Cork now.", ("I live in Leeds.",), [("lives_in", "Cork", False)]),
        # Their neighbours.
        ("I applied for the Spotify job.", (), []),
        ("I turned down the Spotify offer.", (), []),
        ("My first day at school was scary.", (), []),
        ("At Heathrow now.", ("I live in Leeds.",), []),  # a place one is at, not a home
    ],
)
def test_an_employer_named_with_the_job(
    text: str, context: tuple[str, ...], expected: list[tuple[str, str, bool]]
) -> None:
    assert [(p.predicate, p.object, p.negated) for p in extract(text, *context)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm hosting the book club this week.",  # a project's hosting, not a person's
        "I'm learning a lot at this job.",
        "I love this song.",  # what is at hand, not a lasting value
    ],
)
def test_what_is_at_hand_is_no_value(text: str) -> None:
    assert extract(text) == []


def test_a_name_that_starts_like_a_demonstrative_stays() -> None:
    assert triples("I like These New Poets.") == [("alice", "likes", "These New Poets")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've gone off sushi lately.", ("likes", "sushi", True)),
        ("I've really gone off horror films.", ("likes", "horror films", True)),
        ("I'm so over reality TV.", ("likes", "reality TV", True)),
        ("I've come round to olives.", ("likes", "olives", False)),
        ("Jazz has grown on me.", ("likes", "Jazz", False)),
        ("Olives kind of grew on me", ("likes", "Olives", False)),
    ],
)
def test_a_like_that_ends_or_grows_in_other_words(
    text: str, expected: tuple[str, str, bool]
) -> None:
    """A like that ended is the like negated (not a dislike); one that grew is a like."""
    assert [(p.predicate, p.object, p.negated) for p in extract(text)] == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "It has grown on me.",  # what "it" is, is in a sentence before
        "My neighbour's jazz has really grown on me.",
        "I'm over the moon about it.",
        "I'm over 18.",
        "I'm over at Sam's place.",
        "We went off to Spain for a week.",
        "The alarm went off at 6.",
        "I went off on a rant.",
        "I've gone off the idea of moving.",
    ],
)
def test_off_over_and_grown_in_other_senses_are_no_likes(text: str) -> None:
    assert [p for p in extract(text) if p.predicate in ("likes", "dislikes")] == []
