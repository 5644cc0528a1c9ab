"""One import for everything a caller passes in or gets back, one name per thing: every type in
the parameters and return annotations of ``BeliefGraph``'s public methods (and every type inside
the results it returns) is in ``belief_graph.__all__``, under its own name."""

from __future__ import annotations

import inspect
import subprocess
import sys
import typing
from typing import Any

from pydantic import BaseModel

import belief_graph
from belief_graph.client import BeliefGraph


def _classes(annotation: Any, found: set[type]) -> None:
    """The project's classes named in ``annotation``, and those inside the models among them."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        _classes(typing.get_args(annotation)[0], found)
        return
    if origin is not None:
        for arg in typing.get_args(annotation):
            _classes(arg, found)
        annotation = origin
    if not isinstance(annotation, type) or annotation in found:
        return
    if not annotation.__module__.startswith("belief_graph"):
        return
    found.add(annotation)
    if issubclass(annotation, BaseModel):
        for field in annotation.model_fields.values():
            _classes(field.annotation, found)


def public_types() -> set[type]:
    """The project's types in BeliefGraph's public signatures (its constructor and
    ``connect`` included) and in the models they return."""
    found: set[type] = set()
    for name, member in inspect.getmembers(BeliefGraph):
        if name.startswith("_") and name != "__init__":
            continue
        function = member.fget if isinstance(member, property) else member
        if not callable(function):
            continue
        for annotation in typing.get_type_hints(function).values():
            _classes(annotation, found)
    return found


def test_every_type_of_the_public_signatures_is_exported_by_its_own_name() -> None:
    types = public_types()
    assert len(types) > 20  # the walk found the results, not only the parameters
    missing = sorted(t.__name__ for t in types if t.__name__ not in belief_graph.__all__)
    assert missing == []
    for t in types:
        assert getattr(belief_graph, t.__name__) is t, t


def test_no_two_public_types_share_a_name() -> None:
    by_name: dict[str, set[str]] = {}
    for t in public_types():
        by_name.setdefault(t.__name__, set()).add(f"{t.__module__}.{t.__qualname__}")
    assert {n: m for n, m in by_name.items() if len(m) > 1} == {}


def test_every_name_in_all_resolves() -> None:
    assert len(set(belief_graph.__all__)) == len(belief_graph.__all__)
    for name in belief_graph.__all__:
        assert getattr(belief_graph, name) is not None, name
    assert set(belief_graph.__all__) <= set(dir(belief_graph))


def test_episode_is_what_observe_takes_and_the_provenance_record_has_its_own_name() -> None:
    from belief_graph import Episode, EpisodeRecord, Lineage, Observation

    observe = typing.get_type_hints(BeliefGraph.observe)
    assert observe["episode"] is Episode and observe["return"] is Observation
    assert typing.get_args(Lineage.model_fields["episodes"].annotation) == (EpisodeRecord,)
    assert not hasattr(belief_graph.models, "Episode")


def test_importing_the_package_stays_light() -> None:
    """The names resolve on first use: importing the package (as ``--help`` does) loads
    neither the driver nor the models."""
    code = (
        "import sys, belief_graph\n"
        "print(','.join(m for m in ('neo4j', 'torch', 'pydantic') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
