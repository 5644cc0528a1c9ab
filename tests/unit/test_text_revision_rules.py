"""Issue #60's classes, model-free: a claim's polarity taken from what its sentence says about
its own object, a synonym applied only where its subject and object fit it, and values that
differ only by article, plural, case or word order read as one value."""

from __future__ import annotations

import pytest

from belief_graph.errors import ConfigError
from belief_graph.identity import (
    denies,
    parse,
    polarity,
    relation_frame,
    same_value,
    shared_terms,
    value_in_text,
    value_key,
    values_match,
)
from belief_graph.vocabulary import Vocabulary, kind_of_object, kind_of_subject

# -- 1. polarity belongs to the claim ----------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "text", "triple", "negated"),
    [
        # The sentence negates another value and affirms this one.
        ("omnivore", "I'm not vegetarian any more, I eat meat.", "user diet", False),
        ("Koa", "We no longer use Express; we moved to Koa.", "project uses_framework", False),
        ("Milan", "I used to live in Rome and now I live in Milan.", "user lives_in", False),
        ("Postgres", "We use Postgres, not MySQL.", "project uses_database", False),
        (
            "Go",
            "We dropped Rust - the service is written in Go now.",
            "service uses_language",
            False,
        ),
        # ... or negates another value and says nothing of this one.
        ("omnivore", "I'm not vegetarian any more.", "user diet", False),
        # The neighbours: the same sentences about the value they negate.
        ("vegetarian", "I'm not vegetarian any more, I eat meat.", "user diet", True),
        ("Express", "We no longer use Express; we moved to Koa.", "project uses_framework", True),
        ("Express", "We no longer use Express.", "project uses_framework", True),
        ("Rome", "I used to live in Rome and now I live in Milan.", "user lives_in", True),
        ("MySQL", "We use Postgres, not MySQL.", "project uses_database", True),
        # A negation of the relation as a whole is about the object, however it is named.
        ("Acme", "Priya doesn't work there any more.", "priya works_at", True),
        ("Acme", "Priya no longer works at that company.", "priya works_at", True),
        ("Acme Corp", "Priya no longer works at Acme Corporation.", "priya works_at", True),
        ("Acme", "She quit.", "priya works_at", True),
        # No negation at all.
        ("Lisbon", "Priya lives in Lisbon.", "priya lives_in", False),
        ("Lisbon", "Priya moved to Lisbon last spring.", "priya lives_in", False),
    ],
)
def test_a_claims_polarity_is_what_its_sentence_says_about_its_object(
    obj: str, text: str, triple: str, negated: bool
) -> None:
    assert polarity(None, text, obj, triple=triple) is negated


def test_a_stated_polarity_wins_and_a_sentence_alone_is_read_by_its_frame() -> None:
    assert polarity(False, "We no longer use Express.", "Express") is False
    assert polarity(True, "We use Koa.", "Koa") is True
    # Without an object, the sentence's own frame decides, as before.
    assert polarity(None, "Priya no longer works at Acme.") is True
    assert polarity(None, "Priya has no allergies at all.") is False


# -- 2. a synonym applies where its subject and object fit it ----------------------------------


@pytest.mark.parametrize(
    ("phrase", "subject", "obj", "text", "predicate", "cardinality"),
    [
        # "moved to": a home for a person, a day for a meeting, a framework for a backend.
        ("moved to", "Priya", "Porto", None, "lives_in", "single"),
        ("moved to", "we", "Berlin", None, "lives_in", "single"),
        ("moved to", "the team meeting", "Tuesday", None, "takes_place_on", "single"),
        (
            "moved to",
            "my dentist appointment",
            "next Friday at 3pm",
            None,
            "takes_place_on",
            "single",
        ),
        ("moved to", "the backend", "Go", None, "uses_framework", "single"),
        ("moved to", "the conference", "Vienna", None, "venue", "single"),
        ("is at", "the standup", "9am", None, "takes_place_on", "single"),
        ("is in", "the wedding", "Sintra", None, "venue", "single"),
        # A phrase only shared, whose senses the words do not name: as any unknown phrase.
        ("is at", "Sam", "lunch", None, "is_at", "single"),
        # A synonym none of whose senses fits: a relation of its own, values coexisting.
        ("resides in", "the standup", "Tuesday", None, "resides_in", "multi"),
        # "uses": the framework unless the sentence names another role for the tool.
        ("uses", "project", "PostgreSQL", "We use PostgreSQL.", "uses_framework", "single"),
        ("uses", "project", "Redis", "We use Redis for caching.", "uses_cache", "single"),
        ("uses", "project", "Redis", "We use the Redis cache.", "uses_cache", "single"),
        (
            "uses",
            "project",
            "Postgres",
            "We use Postgres as our main database.",
            "uses_database",
            "single",
        ),
        (
            "uses",
            "project",
            "RabbitMQ",
            "We use RabbitMQ for background jobs.",
            "message_queue",
            "single",
        ),
        ("uses", "project", "the httpx library", None, "uses_library", "multi"),
        (
            "uses",
            "project",
            "Django",
            "We use Django as our web framework.",
            "uses_framework",
            "single",
        ),
        # A tool in a role the vocabulary has no predicate for, or a person's tool: its own.
        ("uses", "project", "Elasticsearch", "We use Elasticsearch for search.", "uses", "multi"),
        ("uses", "I", "Vim", "I use Vim.", "uses", "multi"),
        # A copula's value that names a job is a job title; a name is not a job.
        ("is", "Omar", "a junior developer", None, "job_title", "single"),
        ("became", "Omar", "a staff engineer", None, "job_title", "single"),
        ("is", "chief executive officer of Apple", "Tim Cook", None, "is", "single"),
        ("is", "Ana's job title", "Data Analyst", None, "job_title", "single"),
        ("is", "Omar", "cautious", None, "is", "single"),
        # "was born in": a place, or a year.
        ("was born in", "Priya", "Lisbon", None, "born_in", "single"),
        ("was born in", "Priya", "1990", None, "birth_year", "single"),
        # A canonical name is the caller's choice; an unknown phrase its own predicate.
        ("lives_in", "the team meeting", "Tuesday", None, "lives_in", "single"),
        ("favourite colour", "Priya", "blue", None, "favourite_colour", "single"),
    ],
)
def test_a_phrase_means_the_predicate_its_subject_and_object_fit(
    phrase: str,
    subject: str,
    obj: str,
    text: str | None,
    predicate: str,
    cardinality: str,
) -> None:
    assert Vocabulary.default().resolve(phrase, subject, obj, text) == (predicate, cardinality)


def test_kinds_are_read_only_where_the_words_say_them() -> None:
    assert kind_of_subject("the team meeting") == "event"
    assert kind_of_subject("my flight to Berlin") == "event"
    assert kind_of_subject("my sister") == "person"
    assert kind_of_subject("Priya") is None  # a name says nothing
    assert kind_of_object("Tuesdays") == "time"
    assert kind_of_object("the 5th of May") == "time"
    assert kind_of_object("May Street") is None  # a month in a street name
    assert kind_of_object("3 kids") is None
    # The role nearest after the object counts, not another tool's.
    text = "We use Redis for the cache and Postgres as the database."
    assert kind_of_object("Postgres", text) == "database"
    assert kind_of_object("Redis", text) == "cache"


def test_a_users_file_can_share_a_phrase_by_kinds(tmp_path) -> None:  # type: ignore[no-untyped-def]
    extra = tmp_path / "team.toml"
    extra.write_text(
        '[predicates.search_engine]\nobject = ["search"]\nshares = ["uses"]\n'
        'cardinality = "single"\n'
    )
    vocab = Vocabulary.load(extra)
    assert vocab.resolve("uses", "project", "Solr", "We use Solr for search.") == (
        "search_engine",
        "single",
    )
    assert vocab.canonical("uses") == "uses_framework"  # without context, as before
    assert vocab.resolve("uses", "project", "Flask", "We use Flask.")[0] == "uses_framework"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[predicates.x]\nobject = ["colour"]\n', "predicates.x.object: unknown kind 'colour'"),
        ('[predicates.x]\nshares = "uses"\n', "predicates.x.shares: expected a list"),
        ('[predicates.x]\nobject = ["time"]\nshares = ["x"]\n', "is its own name"),
    ],
)
def test_kinds_and_shares_are_checked_when_loaded(tmp_path, toml: str, message: str) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text(toml)
    with pytest.raises(ConfigError, match=message):
        Vocabulary.load(bad)


def test_a_phrase_shared_without_kinds_is_refused() -> None:
    from belief_graph.vocabulary import PredicateSpec

    with pytest.raises(ValueError, match="declares no kinds"):
        Vocabulary(
            {
                "a": PredicateSpec("a", "single", ("uses",)),
                "b": PredicateSpec("b", "single", shares=("uses",)),
            }
        )


# -- 3. one value, however it is worded --------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("a window seat", "window seats"),
        ("Window Seats", "the window seat"),
        ("seat, window", "window seat"),
        ("dark mode", "Dark mode."),
        ("cities", "a city"),
        ("boxes", "box"),
        ("the Beatles", "Beatles"),
        ("hiking and swimming", "swimming and hiking"),
        ("$90,000", "90k dollars"),
    ],
)
def test_articles_plurals_case_and_word_order_make_no_new_value(a: str, b: str) -> None:
    assert same_value(a, b), (value_key(a), value_key(b))
    assert value_in_text(a, b) and value_in_text(b, a)
    assert values_match(a, a, None, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("a window seat", "an aisle seat"),
        ("window seats", "window seats in business class"),
        ("from Lisbon to Porto", "from Porto to Lisbon"),
        ("Express.js", "Express.js 5"),
        ("Python 3.1", "Python 3.10"),
        ("150 commits", "165 commits"),
        ("glass", "glasses of wine"),
        ("C", "C++"),
    ],
)
def test_other_words_or_another_order_of_meaning_are_another_value(a: str, b: str) -> None:
    assert not same_value(a, b), (value_key(a), value_key(b))


# -- 8, 9. what the words say about a pair: a denial, a point of contact ---------------------------


@pytest.mark.parametrize(
    ("text", "denial"),
    [
        ("I never sent the report.", True),
        ("Ana has no allergies at all.", True),
        ("The invoice was not paid.", True),
        ("I don't work there any more.", False),  # an end, not a denial
        ("We no longer use Express; we moved to Koa.", False),
        ("Ana quit smoking.", False),
        ("I sent the report.", False),
    ],
)
def test_a_denial_is_told_from_an_end(text: str, denial: bool) -> None:
    assert denies(text) is denial


@pytest.mark.parametrize(
    ("a", "b", "shared"),
    [
        ("Priya is allergic to cats.", "Priya adopted a cat last week.", {"cat"}),
        ("I love my job.", "I hate my job.", {"job"}),
        ("Sam speaks Spanish.", "Sam works as a French translator.", set()),
        ("We use PostgreSQL.", "We use Redis for caching.", set()),
        ("Priya lives in Lisbon.", "Priya works in Porto.", set()),
    ],
)
def test_two_facts_share_what_they_speak_of_or_nothing(a: str, b: str, shared: set[str]) -> None:
    assert shared_terms(a, b) == shared


def test_a_relation_is_read_past_a_pronoun_and_an_end_past_the_value() -> None:
    frame = relation_frame("She uses Redis for caching.")
    assert frame is not None and (frame.subject, frame.relation, frame.value) == (
        "she",
        "uses",
        "Redis for caching",
    )
    assert parse("She uses Redis.") is None  # who "she" is stays the conversation's
    we = parse("We use Redis for caching.")  # the speaker's group, like "I"
    assert we is not None and we.subject == "we"
    denied = parse("Ivo didn't go to the concert.")  # denies "went to", the same past event
    assert denied is not None and (denied.relation, denied.negated) == ("went to", True)
    for text, value in (
        ("Ana doesn't like jazz any more.", "jazz"),
        ("Omar uses Neovim these days.", "Neovim"),
        ("Sam lives in Milan right now.", "Milan"),
    ):
        statement = parse(text)
        assert statement is not None and statement.value == value, (text, statement)
