"""Unit tests for the predicate vocabulary and normalization (no database)."""

from __future__ import annotations

import dataclasses
import tomllib
import unicodedata
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belief_graph.errors import ConfigError
from belief_graph.vocabulary import (
    PredicateSpec,
    Vocabulary,
    normalize_key,
    normalize_predicate,
)


def _shipped_document() -> dict[str, Any]:
    resource = resources.files("belief_graph") / "data" / "vocabulary.toml"
    return tomllib.loads(resource.read_text(encoding="utf-8"))


def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


# --- normalize_predicate ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("runs on", "uses_framework"),
        ("is built with", "uses_framework"),
        ("Uses", "uses_framework"),
        ("  RUNS   on. ", "uses_framework"),
        ("is written in", "uses_language"),
        ("moved to", "lives_in"),
        ("city", "lives_in"),
        ("works for", "works_at"),
        ("speaks", "language_spoken"),
        ("doesn't like", "dislikes"),
        ("doesn’t like", "dislikes"),
        ("is deployed on", "deployed_on"),
        ("CI/CD", "ci_system"),
        ("licensed under", "license"),
        ("wants to", "has_goal"),
        ("has a dog", "has_pet"),
        ("tested with", "test_framework"),
        ("Indents with", "indentation_style"),
        ("uses_framework", "uses_framework"),
        ("uses framework", "uses_framework"),
        ("Uses-Framework", "uses_framework"),
    ],
)
def test_synonyms_map_to_canonical(text: str, expected: str) -> None:
    assert normalize_predicate(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Favourite Colour!", "favourite_colour"),
        ("  shoe   size ", "shoe_size"),
        ("Has-Visited", "has_visited"),
        ("préféré", "préféré"),
        ("pre\u0301fe\u0301re\u0301", "préféré"),
        ("likes__spicy  food?", "likes_spicy_food"),
        ("Straße", "strasse"),
    ],
)
def test_unknown_predicates_become_snake_case(text: str, expected: str) -> None:
    assert normalize_predicate(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "!!!", "—", "_"])
def test_empty_predicate_raises(text: str) -> None:
    with pytest.raises(ValueError):
        normalize_predicate(text)


@given(st.text())
def test_normalize_predicate_is_idempotent(text: str) -> None:
    try:
        once = normalize_predicate(text)
    except ValueError:
        return
    assert once
    assert normalize_predicate(once) == once


@given(st.text(alphabet=st.characters(categories=["L", "N", "Zs", "P"]), min_size=1))
def test_unknown_output_is_snake_case(text: str) -> None:
    try:
        out = normalize_predicate(text)
    except ValueError:
        return
    assert out == out.strip("_")
    assert "__" not in out
    assert " " not in out
    assert unicodedata.is_normalized("NFC", out)


# --- normalize_key -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Go.", "go"),
        ("GO", "go"),
        ("  Express.js  ", "express.js"),
        ("New   York", "new york"),
        ("New\tYork\n", "new york"),
        ("Caf\u00e9", "cafe\u0301"),
        ("CAF\u00c9", "caf\u00e9"),
        ("Straße", "strasse"),
        ("Go!", "go"),
        ("go ...", "go"),
        ("Really?", "really"),
    ],
)
def test_normalize_key_equal(a: str, b: str) -> None:
    assert normalize_key(a) == normalize_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("C++", "C"),
        ("C#", "C"),
        ("Node.js", "Nodejs"),
        ("new york", "newyork"),
        ("café", "cafe"),
    ],
)
def test_normalize_key_distinct(a: str, b: str) -> None:
    assert normalize_key(a) != normalize_key(b)


def test_normalize_key_values() -> None:
    assert normalize_key("  Go. ") == "go"
    assert normalize_key("C++.") == "c++"
    assert normalize_key("cafe\u0301") == "caf\u00e9"
    assert normalize_key("?") == "?"
    assert normalize_key("") == ""


@given(st.text())
def test_normalize_key_is_idempotent(text: str) -> None:
    once = normalize_key(text)
    assert normalize_key(once) == once


# --- the shipped vocabulary ------------------------------------------------------------------


def test_shipped_has_at_least_sixty_predicates() -> None:
    vocab = Vocabulary.default()
    assert len(vocab.predicates) >= 60
    assert len(_shipped_document()["predicates"]) == len(vocab.predicates)


def test_shipped_entries_are_complete() -> None:
    for name, table in _shipped_document()["predicates"].items():
        assert table.get("cardinality") in ("single", "multi"), name
        assert table.get("description"), name
        assert len(table.get("synonyms", [])) >= 2, name


def test_shipped_synonyms_are_unambiguous() -> None:
    # Checked on the raw file: the loader lets a later claim win silently, but direct
    # construction refuses a synonym held by two predicates or equal to another canonical name.
    tables = _shipped_document()["predicates"]
    specs = {
        name: PredicateSpec(name, table["cardinality"], tuple(table["synonyms"]))
        for name, table in tables.items()
    }
    vocab = Vocabulary(specs)
    canonical_phrases = {name.replace("_", " ") for name in tables}
    for name, table in tables.items():
        for synonym in table["synonyms"]:
            assert vocab.canonical(synonym) == name, synonym
            phrase = " ".join(synonym.casefold().split())
            assert phrase not in canonical_phrases or phrase == name.replace("_", " "), synonym
    assert len(vocab.aliases) == len(tables) + sum(len(t["synonyms"]) for t in tables.values())


def test_every_shipped_synonym_resolves_to_its_predicate() -> None:
    vocab = Vocabulary.default()
    for name, table in _shipped_document()["predicates"].items():
        assert vocab.canonical(name) == name
        for synonym in table["synonyms"]:
            assert vocab.canonical(synonym) == name, synonym
        assert tuple(table["synonyms"]) == vocab.predicates[name].synonyms


@pytest.mark.parametrize(
    "name",
    ["likes", "dislikes", "language_spoken", "has_goal", "has_pet", "has_skill", "has_child"],
)
def test_multi_valued_predicates(name: str) -> None:
    assert Vocabulary.default().cardinality(name) == "multi"


@pytest.mark.parametrize(
    "name",
    [
        "name",
        "lives_in",
        "works_at",
        "job_title",
        "age",
        "birthday",
        "nationality",
        "risk_tolerance",
        "dietary_preference",
        "communication_style",
        "uses_framework",
        "uses_language",
        "uses_database",
        "deployed_on",
        "ci_system",
        "license",
        "repo_url",
        "project_status",
        "deadline",
        "owner",
        "indentation_style",
        "naming_convention",
        "test_framework",
        "formatter",
        "linter",
        "branching_model",
    ],
)
def test_single_valued_predicates(name: str) -> None:
    vocab = Vocabulary.default()
    assert name in vocab.predicates
    assert vocab.cardinality(name) == "single"


def test_cardinality_resolves_synonyms_and_defaults_unknown() -> None:
    vocab = Vocabulary.default()
    assert vocab.cardinality("speaks") == "multi"
    assert vocab.cardinality("favourite_colour") == "single"
    assert vocab.default_cardinality == "single"


def test_describe() -> None:
    vocab = Vocabulary.default()
    assert "framework" in vocab.describe("uses_framework")
    assert vocab.describe("runs on") == vocab.describe("uses_framework")
    with pytest.raises(KeyError):
        vocab.describe("favourite_colour")


def test_contains_and_default_is_shared() -> None:
    vocab = Vocabulary.default()
    assert "runs on" in vocab
    assert "favourite colour" not in vocab
    assert Vocabulary.default() is vocab


def test_vocabulary_is_immutable() -> None:
    vocab = Vocabulary.default()
    with pytest.raises(dataclasses.FrozenInstanceError):
        vocab.default_cardinality = "multi"  # type: ignore[misc]
    with pytest.raises(TypeError):
        vocab.predicates["x"] = PredicateSpec("x", "single")  # type: ignore[index]
    with pytest.raises(TypeError):
        vocab.aliases["x"] = "x"  # type: ignore[index]


# --- user files ------------------------------------------------------------------------------


def test_user_file_overrides_cardinality_and_adds_synonyms(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "mine.toml",
        """
[predicates.uses_framework]
cardinality = "multi"
synonyms = ["is made with", "stack"]

[predicates.favourite_colour]
synonyms = ["favorite color", "likes the colour"]
cardinality = "single"
description = "The colour the person likes best."

[predicates.visited]
synonyms = ["has been to", "travelled to"]
""",
    )
    vocab = Vocabulary.load(path)
    assert vocab.cardinality("uses_framework") == "multi"
    assert vocab.canonical("is made with") == "uses_framework"
    assert vocab.canonical("runs on") == "uses_framework"  # shipped synonyms survive
    assert vocab.describe("uses_framework") == Vocabulary.default().describe("uses_framework")
    assert vocab.canonical("Favorite Color") == "favourite_colour"
    assert vocab.canonical("has been to") == "visited"
    assert vocab.cardinality("visited") == "single"
    assert vocab.describe("likes the colour") == "The colour the person likes best."
    assert str(path) in vocab.sources
    # The shipped default is untouched.
    assert Vocabulary.default().cardinality("uses_framework") == "single"


def test_later_file_wins_synonym(tmp_path: Path) -> None:
    first = _write(
        tmp_path, "a.toml", '[predicates.hosting_region]\nsynonyms = ["hosted on", "region"]\n'
    )
    second = _write(
        tmp_path,
        "b.toml",
        '[predicates.cloud_region]\nsynonyms = ["region"]\ncardinality = "multi"\n',
    )
    vocab = Vocabulary.load(first, second)
    assert vocab.canonical("hosted on") == "hosting_region"
    assert "hosted on" not in vocab.predicates["deployed_on"].synonyms
    assert vocab.canonical("region") == "cloud_region"
    assert vocab.predicates["hosting_region"].synonyms == ("hosted on",)
    assert vocab.cardinality("cloud_region") == "multi"


def test_new_canonical_takes_a_synonym_over(tmp_path: Path) -> None:
    path = _write(tmp_path, "c.toml", '[predicates.city]\ncardinality = "multi"\n')
    vocab = Vocabulary.load(path)
    assert vocab.canonical("city") == "city"
    assert "city" not in vocab.predicates["lives_in"].synonyms
    assert vocab.canonical("moved to") == "lives_in"


def test_default_cardinality_from_file_and_keyword(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "d.toml",
        'default_cardinality = "multi"\n[predicates.tag]\nsynonyms = ["tagged"]\n',
    )
    vocab = Vocabulary.load(path)
    assert vocab.default_cardinality == "multi"
    assert vocab.cardinality("something_new") == "multi"
    assert vocab.cardinality("tag") == "multi"
    assert vocab.cardinality("lives_in") == "single"  # explicit entries keep their own

    override = Vocabulary.load(path, default_cardinality="single")
    assert override.cardinality("something_new") == "single"
    assert override.cardinality("tag") == "single"

    assert Vocabulary.load(default_cardinality="multi").cardinality("whatever") == "multi"


def test_load_without_default(tmp_path: Path) -> None:
    path = _write(tmp_path, "e.toml", '[predicates.tag]\nsynonyms = ["uses"]\n')
    vocab = Vocabulary.load(path, include_default=False)
    assert list(vocab.predicates) == ["tag"]
    assert vocab.canonical("uses") == "tag"
    assert vocab.canonical("runs on") == "runs_on"


# --- bad files -------------------------------------------------------------------------------


def test_bad_cardinality_names_file_and_key(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.toml", '[predicates.likes]\ncardinality = "many"\n')
    with pytest.raises(ConfigError) as info:
        Vocabulary.load(path)
    message = str(info.value)
    assert "bad.toml" in message
    assert "predicates.likes.cardinality" in message
    assert "'many'" in message


def test_a_stance_is_declared_per_predicate_and_a_user_file_may_set_it(tmp_path: Path) -> None:
    shipped = Vocabulary.default()
    assert shipped.stance("risk_tolerance") and shipped.stance("diet")  # a synonym resolves
    assert not shipped.stance("lives_in") and not shipped.stance("no_such_predicate")
    path = _write(
        tmp_path,
        "mine.toml",
        "[predicates.political_view]\nstance = true\n[predicates.risk_tolerance]\nstance = false\n",
    )
    mine = Vocabulary.load(path)
    assert mine.stance("political_view") and not mine.stance("risk_tolerance")


def test_a_stance_that_is_not_a_boolean_is_refused_by_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.toml", '[predicates.likes]\nstance = "yes"\n')
    with pytest.raises(ConfigError, match=r"bad\.toml.*predicates\.likes\.stance"):
        Vocabulary.load(path)


def test_bad_default_cardinality_names_key(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.toml", 'default_cardinality = "several"\n')
    with pytest.raises(ConfigError, match=r"bad\.toml.*default_cardinality"):
        Vocabulary.load(path)
    with pytest.raises(ConfigError, match="default_cardinality"):
        Vocabulary.load(default_cardinality="several")  # type: ignore[arg-type]


def test_malformed_toml_names_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.toml", "[predicates.likes\nsynonyms = [\n")
    with pytest.raises(ConfigError, match=r"broken\.toml.*malformed TOML"):
        Vocabulary.load(path)


def test_missing_file_names_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nope\.toml.*not found"):
        Vocabulary.load(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ('[predicates.likes]\nsynonyms = "enjoys"\n', "predicates.likes.synonyms"),
        ("[predicates.likes]\nsynonyms = [1, 2]\n", "predicates.likes.synonyms"),
        ('[predicates.likes]\nsynonym = ["enjoys"]\n', "predicates.likes.synonym"),
        ("[predicates.likes]\ndescription = 3\n", "predicates.likes.description"),
        ('[predicates."Uses Stuff"]\ncardinality = "single"\n', "predicates.Uses Stuff"),
        ('[predicates.tag]\nsynonyms = ["uses framework"]\n', "predicates.tag.synonyms"),
        ('[predicates.tag]\nsynonyms = ["!!"]\n', "predicates.tag.synonyms"),
        ('predicates = "x"\n', "predicates"),
        ('[predicates]\nlikes = "x"\n', "predicates.likes"),
        ("vocabulary_version = 2\n", "vocabulary_version"),
    ],
)
def test_invalid_entries_name_the_key(tmp_path: Path, body: str, key: str) -> None:
    path = _write(tmp_path, "user.toml", body)
    with pytest.raises(ConfigError) as info:
        Vocabulary.load(path)
    message = str(info.value)
    assert "user.toml" in message
    assert key in message


def test_direct_construction_validates() -> None:
    spec = PredicateSpec("a", "single", ("x",))
    other = PredicateSpec("b", "multi", ("X!",))
    with pytest.raises(ValueError):
        Vocabulary({"a": spec, "b": other})
    with pytest.raises(ValueError):
        Vocabulary({"Not Snake": PredicateSpec("Not Snake", "single")})
    vocab = Vocabulary({"a": spec}, default_cardinality="multi")
    assert vocab.canonical("X") == "a"
    assert vocab.cardinality("zzz") == "multi"
