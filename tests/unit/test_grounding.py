"""Verification by structure: a source that names a claim's value with its polarity supports it,
whatever a model would read; one that names it only ended contradicts a positive claim; else the
structure is silent and the model decides."""

from __future__ import annotations

import pytest

from belief_graph.grounding import clauses, grounding, in_third_person, quoted


@pytest.mark.parametrize(
    ("value", "negated", "source"),
    [
        ("pescatarian", False, "I'm pescatarian these days."),
        ("Berlin", False, "I live in Berlin, in Neukölln."),
        ("Dublin", False, "I live in Dublin."),
        ("junior designer", False, "I'm a junior designer at a small agency in Leeds."),
        ("Paws & Claws", False, "right - I'm a vet tech at Paws & Claws clinic"),
        ("German", False, "My brother Luca speaks Italian and German."),
        ("Central European Time", False, "I'm in Stockholm, so Central European time."),
        ("Thursday", False, "the team meeting is moving to Thursdays starting next week."),
        ("the company", False, "I joined the company in May."),
        ("Milan", False, "I used to live in Rome and now I live in Milan."),
        ("tea", False, "I never liked coffee, I'm all about tea now."),
        ("fish", False, "I don't eat meat but I eat fish."),
        # a negated claim: the source negates or ends the value
        ("coffee", True, "I don't drink coffee anymore."),
        ("peanuts", True, "Sorry, tree nuts, not peanuts."),
        ("running", True, "I gave up running after the knee surgery."),
        ("coffee", True, "I switched from coffee to tea."),
        ("jazz", True, "I can't stand jazz."),
    ],
)
def test_a_source_that_names_the_value_with_its_polarity_supports_it(
    value: str, negated: bool, source: str
) -> None:
    assert grounding(value, negated, source) == "supported"


@pytest.mark.parametrize(
    ("value", "source"),
    [
        ("vegan", "I'm not vegan anymore, I eat meat and fish now."),
        ("peanuts", "Sorry, tree nuts, not peanuts."),
        ("the company", "Tom left the company last week."),
        ("running", "I gave up running after the knee surgery."),
        ("coffee", "I drink tea instead of coffee."),
        ("Paris", "We moved from Paris to Lyon."),
        ("meat", "I'm vegan - no meat, no fish, no dairy."),
    ],
)
def test_a_positive_claim_whose_value_the_source_only_ends_is_contradicted(
    value: str, source: str
) -> None:
    assert grounding(value, False, source) == "contradicted"


@pytest.mark.parametrize(
    ("value", "negated", "source"),
    [
        # the value is not named: the model decides
        ("maths teacher", False, "I teach maths at Greenfield High."),
        ("Hofbäckerei Lenz", True, "I quit the bakery."),
        ("red car", False, "Priya said she has never owned a car."),
        (None, False, "I live in Lisbon."),
        # a negation that may belong to the relation ("dislikes jazz")
        ("jazz", False, "I can't stand jazz."),
        # a negation after the value may or may not be about it
        ("Berlin", False, "Berlin is not where I want to be."),
        # a negated claim whose value reads positive: the end may be in words the rules miss
        ("car", True, "I traded in the car."),
        ("35", True, "no wait, 35."),
        # "Lisbon" is not "Lisbon 2" nor "Lisbonne"
        ("Lisbon 2", False, "I live in Lisbon."),
        ("Lisbon", False, "I live in Lisbonne."),
    ],
)
def test_structure_is_silent_otherwise(value: str | None, negated: bool, source: str) -> None:
    assert grounding(value, negated, source) is None


def test_clauses_split_at_punctuation_dashes_contrasts_and_a_new_subject() -> None:
    assert clauses("I'm vegan - no meat, no fish; but I eat eggs and now I drink milk.") == [
        "I'm vegan",
        "no meat",
        "no fish",
        "I eat eggs",
        "now I drink milk",
    ]
    assert clauses("I speak Italian and German.") == ["I speak Italian and German"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I live in Dublin.", "Alice lives in Dublin."),
        ("I'm a nurse.", "Alice is a nurse."),
        ("My day off is Friday.", "Alice's day off is Friday."),
        ("I've got two cats.", "Alice has got two cats."),
        ("I don't drink coffee.", "Alice doesn't drink coffee."),
        ("I quit the bakery.", "Alice quit the bakery."),
        ("I teach maths.", "Alice teaches maths."),
        ("Tell me about it.", "Tell Alice about it."),
        ("We moved to Lyon.", "We moved to Lyon."),
    ],
)
def test_the_first_person_is_the_speaker(text: str, expected: str) -> None:
    assert in_third_person(text, "alice") == expected


@pytest.mark.parametrize(
    ("text", "source", "expected"),
    [
        ("I quit the café. My feet hurt.", "I quit the café. My feet hurt.", True),
        ("I quit the café.", "Ugh. I quit the café! Any tips for a job hunt?", True),
        ("I quit the café. Any tips?", "I quit the café.  Any   tips?", True),  # spacing aside
        ("I quit the café. My feet hurt", "I quit the café. My feet hurt.", True),  # its stop
        ("I quit the café.", "I never quit the café.", False),  # words cut
        ("I'm vegan.", "I'm not vegan.", False),
        ("alice quit the café.", "I quit the café.", False),  # put in other words
        ("I quit the café.", "", False),
        ("", "I quit the café.", False),
    ],
)
def test_a_text_made_of_its_sources_own_sentences_is_quoted(
    text: str, source: str, expected: bool
) -> None:
    assert quoted(text, source) is expected
