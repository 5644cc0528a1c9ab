"""Identity without a model: the value normalizer, polarity, and the sentence frame reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from belief_graph.detect import Detector
from belief_graph.identity import (
    has_negation,
    normalize_value,
    parse,
    polarity,
    same_value,
    value_in_text,
)
from belief_graph.testing.examples import examples


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Lisbon", "lisbon."),
        ("  New   York ", "new york"),
        ('"Lisbon"', "Lisbon"),
        ("$90,000", "90000 USD"),
        ("$90,000", "90k dollars"),
        ("€1500", "1,500 euros"),
        ("£1,200", "1200 pounds"),
        ("5km", "5 kilometers"),
        ("60 kg", "60 kilograms"),
        ("7 hrs", "7 hours"),
        ("1.5M", "1500000"),
        ("Node.js", "node.js"),
    ],
)
def test_equal_values(a: str, b: str) -> None:
    assert same_value(a, b), (normalize_value(a), normalize_value(b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("$90,000", "$95,000"),
        ("Express.js", "Express.js 5"),
        ("Python 3.1", "Python 3.10"),
        ("5 km", "5 mi"),
        ("$100", "€100"),
        ("1.2.0", "1.2.1"),
        ("C", "C++"),
        ("Acme", "Acme Labs"),
    ],
)
def test_different_values(a: str, b: str) -> None:
    assert not same_value(a, b), (normalize_value(a), normalize_value(b))


def test_a_sentence_states_an_object_after_filler_words_only() -> None:
    assert value_in_text("London", "the city of London")
    assert value_in_text("money", "her money")
    assert not value_in_text("Express.js", "Express.js 5")
    assert not value_in_text("London", "London Bridge")


@pytest.mark.parametrize(
    ("text", "subject", "relation", "value", "negated"),
    [
        ("Priya lives in Lisbon.", "priya", "lives in", "Lisbon", False),
        ("Priya's sister lives in Lisbon.", "priya's sister", "lives in", "Lisbon", False),
        ("My flight to Berlin is on Monday", "my flight to berlin", "is on", "Monday", False),
        ("Priya earns $90,000 a year.", "priya", "earns", "$90,000 a year", False),
        ("Priya no longer works at Acme.", "priya", "works at", "Acme", True),
        ("Priya doesn't work at Acme.", "priya", "works at", "Acme", True),
        ("Priya never drinks coffee.", "priya", "drinks", "coffee", True),
        ("Priya used to live in Lisbon.", "priya", "lives in", "Lisbon", True),
        ("Priya lived in Lisbon until 2020.", "priya", "lives in", "Lisbon", True),
        ("Mom lost interest in gardening.", "mom", "likes", "gardening", True),
        ("Priya is now 35 years old.", "priya", "is old", "35 years", False),
        ("Marco's budget is 1,500 euros.", "marco's budget", "is", "1,500 euros", False),
        ("The project has 3 open bugs.", "project", "has open bugs", "3", False),
        ("Priya lives in Lisbon now.", "priya", "lives in", "Lisbon", False),
        ("Thomas Kyd was born in London.", "thomas kyd", "was born in", "London", False),
        (
            "The chairperson of Fatah is Mahmoud Abbas.",
            "chairperson of fatah",
            "is",
            "Mahmoud Abbas",
            False,
        ),
        ("James Harris lives in Oslo.", "james harris", "lives in", "Oslo", False),
        ("My parents live in Porto.", "my parents", "lives in", "Porto", False),
        (
            "Walter Chrysler's child is Charles Frederick, Duke of Holstein-Gottorp.",
            "walter chrysler's child",
            "is",
            "Charles Frederick Duke of Holstein-Gottorp",
            False,
        ),
        ("Ana's school is University of Bonn.", "ana's school", "is", "University of Bonn", False),
        ("Ana is a citizen of Peru.", "ana", "is a citizen of", "Peru", False),
        ("Ana is the CEO of Acme.", "ana", "is the ceo of", "Acme", False),
        (
            "The university where Samuel Beckett was educated is Trinity College Dublin.",
            "university where samuel beckett was educated",
            "is",
            "Trinity College Dublin",
            False,
        ),
        ("The city that Ana loves is Porto.", "city that ana loves", "is", "Porto", False),
        (
            "The company that produced Ford F-Series is Ford Motor Company.",
            "company that produced ford f-series",
            "is",
            "Ford Motor Company",
            False,
        ),
        (
            "The type of music that John McVie plays is rock music.",
            "type of music that john mcvie plays",
            "is",
            "rock music",
            False,
        ),
    ],
)
def test_parse(text: str, subject: str, relation: str, value: str, negated: bool) -> None:
    statement = parse(text)
    assert statement is not None
    assert (statement.subject, statement.relation, statement.value, statement.negated) == (
        subject,
        relation,
        value,
        negated,
    )


@pytest.mark.parametrize(
    "text",
    [
        "Where does Priya live?",
        "She lives in Porto.",
        "Lisbon",
        "They moved the backend to Go",
        "The city that Ana loves.",
    ],
)
def test_sentences_without_a_trustworthy_frame(text: str) -> None:
    assert parse(text) is None


def test_copular_attributes_of_a_named_subject_coexist() -> None:
    vegetarian = parse("Priya is vegetarian.")
    flight = parse("My flight is on Monday.")
    assert vegetarian is not None and vegetarian.cardinality_hint == "multi"
    assert flight is not None and flight.cardinality_hint is None


def test_polarity_as_stated_wins_over_the_text() -> None:
    assert polarity(None, "Priya no longer works at Acme.")
    assert not polarity(None, "Priya works at Acme.")
    assert polarity(True, "Priya works at Acme.")
    assert not polarity(False, "Priya no longer works at Acme.")
    # Negation words outside the relation do not negate it.
    assert not polarity(None, "Priya has no allergies at all.")
    assert has_negation("Priya has no allergies at all.")


def _parsed_polarity(text: str) -> bool:
    """``polarity`` as it reads a sentence without the shortcut: always the parse."""
    statement = parse(text)
    return statement.negated if statement is not None else has_negation(text)


# Words that make a sentence negated or ended, their neighbours, and words around them, in
# the shapes a tokenizer meets (case, apostrophes, punctuation at the edges, spacing).
_WORDS = [
    *"Priya Tom she the my flight project lives works likes uses in at to for on and is was has"
    " had does did moved lived lost fell gave quit stopped used no not never cannot anymore"
    " longer more until till up 2020 recently last Lisbon Acme jazz interest love out away"
    " of with gym membership now still none nobody formerly ceased notable nothing knot".split(),
    "isn't",
    "ISN’T",
    "don't",
    "wouldn't",
    "any more",
    "no-one",
    "(not)",
    '"never"',
    "used,",
    "until:",
    "no.",
]
_GAPS = st.sampled_from([" ", "  ", "\t", " \n "])


@settings(max_examples=examples(2000), deadline=None)
@given(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=9),
    st.lists(_GAPS, min_size=8, max_size=8),
    st.sampled_from(["", ".", "!", "?", ";"]),
)
@example(["Priya", "lived", "in", "Lisbon", "until", "2020"], [" "] * 8, ".")
@example(["Priya", "lost", "interest", "in", "jazz"], [" "] * 8, ".")
@example(["Priya", "used", "to", "live", "in", "Lisbon"], ["  "] * 8, "")
def test_polarity_reads_a_sentence_with_no_negating_word_as_the_parse_does(
    words: list[str], gaps: list[str], end: str
) -> None:
    text = "".join(w + g for w, g in zip(words, gaps, strict=False)).rstrip() + end
    assert polarity(None, text) == _parsed_polarity(text), text


def test_polarity_of_every_sentence_in_the_projects_data_is_the_parses() -> None:
    bench = Path(__file__).resolve().parents[2] / "data"
    texts: list[str] = []
    for line in (bench / "verdicts" / "streams.jsonl").read_text().splitlines():
        texts += [c["text"] for c in json.loads(line)["claims"]]
    for line in (bench / "verdicts" / "pairs.jsonl").read_text().splitlines():
        pair = json.loads(line)
        texts += [pair["first"]["text"], pair["second"]["text"]]
    for line in (bench / "nli_pairs.jsonl").read_text().splitlines():
        pair = json.loads(line)
        texts += [pair["premise"], pair["hypothesis"]]
    for line in (bench / "extraction" / "conversations.jsonl").read_text().splitlines():
        texts += [turn["text"] for turn in json.loads(line)["turns"]]
    negated = [t for t in texts if _parsed_polarity(t)]
    assert len(texts) > 1000 and len(negated) > 50  # the data holds both kinds
    assert [t for t in texts if polarity(None, t) != _parsed_polarity(t)] == []


def test_detect_decides_identity_by_values_not_similarity() -> None:
    rows = [
        {"id": "a", "object": "$90,000", "text": "Priya earns $90,000 a year."},
        {"id": "b", "object": "Acme", "text": "Priya works at Acme."},
    ]
    scores = Detector().score("$95,000", "Priya earns $95,000 a year.", None, rows[:1])
    assert scores["a"].values and not scores["a"].same_object
    same = Detector().score("90k dollars", "Priya earns 90k dollars.", None, rows[:1])
    assert same["a"].same_object
    ended = Detector().score("Acme", "Priya no longer works at Acme.", None, rows[1:], negated=True)
    assert ended["b"].negates and not ended["b"].same_object
    # A text-only draft against a structured claim: the sentence's value meets the object.
    twin = Detector().score(None, "Priya works at Acme.", None, rows[1:])
    assert twin["b"].same_object


def test_a_refinement_is_another_value() -> None:
    assert not value_in_text("Lisbon", "Alfama, Lisbon")
    assert not value_in_text("engineer", "senior engineer")
    assert value_in_text("wide receiver", "the position of wide receiver")


def test_two_clauses_are_not_read_as_one_frame() -> None:
    assert parse("Tom cancelled and no longer has a gym membership.") is None
