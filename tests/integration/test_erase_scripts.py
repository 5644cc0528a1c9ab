"""Erase by subject finds the text-only claims that name the subject in any script (issue 64,
item 2): the name and the text are folded the same way (vocabulary.fold: compatibility forms,
full case folding, the dotted and dotless i as one, composed), so German ß, Greek final sigma,
Turkish İ/ı and composed or decomposed accents all match, in either direction; a different
word does not."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import pytest

from belief_graph import BeliefGraph
from belief_graph.testing.factories import draft
from belief_graph.testing.graph import check_graph, q, string_values

NS = "user:scripts"

# (the subject as erase is given it, a text-only claim naming it in another spelling, a text
# naming someone else whose name only resembles it)
CASES = [
    ("Weiß", "Note: HERR WEISS, asthma file.", "Note: Weissman, a call."),
    ("WEISS", "Note: Herr Weiß, asthma file.", "Note: Weißbier, a beer."),
    ("Νίκος", "Note: Ο ΝΊΚΟΣ, asthma file.", "Note: Νικόλαος, a call."),
    ("Οδυσσέας", "Note: ΟΔΥΣΣΈΑΣ, asthma file.", "Note: Οδυσσεία, a book."),
    ("İstanbul Yılmaz", "Note: ISTANBUL YILMAZ, asthma file.", "Note: Istanbul, sunny."),
    ("Işık", "Note: IŞIK, asthma file.", "Note: Işıklar, a call."),
    ("ışık", "Note: Işık, asthma file.", "Note: Işıl, a call."),
    ("Zoë Müller", "Note: Zoe\u0308 Mu\u0308ller, asthma file.", "Note: Zoë Müllerová, a call."),
    (unicodedata.normalize("NFD", "Zoë Müller"), "Note: ZOË MÜLLER, asthma file.", "Note: Zoë."),
]


@pytest.mark.parametrize(("subject", "naming", "other"), CASES)
def test_erase_by_subject_finds_its_name_in_any_script(
    make_bg: Callable[..., BeliefGraph], subject: str, naming: str, other: str
) -> None:
    bg = make_bg()
    fact = bg.remember(draft(subject, "diagnosis", "asthma-XQ", namespace=NS)).added[0]
    named = bg.remember(draft(text=naming, namespace=NS)).added[0]
    kept = bg.remember(draft(text=other, namespace=NS)).added[0]
    assert {bg.get(NS, i).predicate for i in (named, kept)} == {"statement"}
    erased = bg.erase(NS, subject=subject)
    assert set(erased.retired) == {fact, named}
    held = string_values(bg.store)
    assert not [v for v in held if "asthma" in v]
    assert bg.get(NS, kept).text == other
    assert check_graph(bg.store) == []


def test_a_text_only_claim_stored_before_text_was_folded_is_still_found(
    make_bg: Callable[..., BeliefGraph],
) -> None:
    """A claim written before ``text_key`` existed is matched on its lower-cased text."""
    bg = make_bg()
    named = bg.remember(draft(text="Note: Herr WEISS, asthma file.", namespace=NS)).added[0]
    q(bg.store, "MATCH (c:Claim {id: $id}) REMOVE c.text_key", id=named)
    assert named in bg.erase(NS, subject="Weiss").retired
    assert not [v for v in string_values(bg.store) if "asthma" in v]
