"""Loads the Cypher statements shipped in ``cypher/`` (one statement per file).

Queries are fixed text plus ``$params``: no label, type or clause is ever built from input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .errors import ConfigError


@cache
def cypher_dir() -> Path:
    """The folder of ``.cypher`` files: inside an installed wheel, or the repository's own."""
    packaged = Path(__file__).parent / "_resources" / "cypher"
    if packaged.is_dir():
        return packaged
    repo = Path(__file__).resolve().parents[1] / "cypher"
    if repo.is_dir():
        return repo
    raise ConfigError("the cypher/ statements are missing from this installation")


@cache
def load(name: str) -> str:
    """The statement ``name`` (``"read/current_claims"``, ``"schema/01_claim_id_unique"``), its
    ``//@include`` lines expanded. ``cypher25/<name>`` without a file of its own is ``<name>``
    carrying the Cypher 25 statements it includes, in Cypher 25 (see ``variant``)."""
    if name.startswith(f"{CYPHER25}/") and not _path(name).is_file():
        base = name.removeprefix(f"{CYPHER25}/")
        text = _INCLUDE.sub(lambda m: _body(load(variant(m.group(1), True))), _read(base))
        return _in_cypher25(text)
    return _INCLUDE.sub(lambda m: _body(load(m.group(1))), _read(name))


@cache
def sent(name: str) -> str:
    """The statement ``name`` as the server receives it: ``load``'s text without its comment
    lines, blank lines and indentation (no statement has a comment after code on a line, nor a
    string across lines). A statement's text travels with every call, and the server reads
    comments dearly: ``write/apply``'s 8,718 characters of them cost a round trip 0.23 ms, as
    many characters of code about 0.02 ms (docs/engine.md, "What is sent")."""
    lines = (line.strip() for line in load(name).split("\n"))
    return "\n".join(line for line in lines if line and not line.startswith("//"))


def _path(name: str) -> Path:
    return cypher_dir() / f"{name}.cypher"


def _read(name: str) -> str:
    try:
        return _path(name).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"no Cypher statement named {name!r}") from exc


# ``//@include write/changes`` on a line of its own: that statement's text without its final
# RETURN, so one statement can carry another's unit subqueries (write/apply runs the changes of
# write/changes after its lock, in one round trip) while the text lives in one file. A statement
# that works on what its carrier has bound (read/held_claims: a slot and two moments) binds it
# for itself above a ``//@shared`` line, and only what follows that line is carried.
_INCLUDE = re.compile(r"^//@include ([\w/]+)$", re.M)
_SHARED = "\n//@shared\n"
# A statement's query options (its Cypher version, ``replan=skip``): a line of its own, before
# any clause.
_OPTIONS = re.compile(r"^CYPHER\b.*$", re.M)


def _body(text: str) -> str:
    text = text.partition(_SHARED)[2] or text
    head, _, last = text.rstrip().rpartition("\n")
    if not last.startswith("RETURN "):
        raise ConfigError("an included statement must end with a RETURN line")
    # Query options belong to the statement that is sent, never to the middle of another.
    return _OPTIONS.sub("", head)


def _in_cypher25(text: str) -> str:
    """``text`` with its options line asking for Cypher 25 (one added if it has none)."""
    options = _OPTIONS.search(text)
    if options is None:
        return f"CYPHER 25\n{text}"
    words = options.group().split()
    if words[1:2] != ["25"]:
        words.insert(1, "25")
    return f"{text[: options.start()]}{' '.join(words)}{text[options.end() :]}"


# A statement whose plan does not depend on the database's statistics carries this line: Neo4j
# plans it once and keeps the plan as the database grows, where it would otherwise plan it again
# (seconds for the write path's statements) in the middle of a write whenever the counts moved
# enough since (docs/engine.md#plans; tests/integration/test_plans.py holds the premise).
PLANNED_ONCE = "CYPHER replan=skip"


@cache
def planned_once(name: str) -> bool:
    """Whether the statement ``name`` keeps its first plan (carries ``PLANNED_ONCE``, maybe
    with its Cypher version: ``CYPHER 25 replan=skip``)."""
    return any("replan=skip" in line.split() for line in _OPTIONS.findall(load(name)))


@cache
def batch_keys(name: str) -> frozenset[str]:
    """The keys the statement ``name`` reads from its ``$batch`` map (comments aside)."""
    code = "\n".join(line for line in load(name).split("\n") if not line.lstrip().startswith("//"))
    return frozenset(re.findall(r"\$batch\.(\w+)", code))


def check_params(name: str, params: Mapping[str, Any]) -> None:
    """Refuse a call that would cost a plan of its own or read a value it was not given.

    Neo4j keys a cached plan by the statement's text and its parameters' types, and a list's
    length counts, in tenfold steps (0, 1, 2-10, 11-100, ...): the write path's statements,
    seconds each to plan, would be planned again for every new mix of list lengths (a first
    UPDATE after a NEW, a first batch of 11). A statement planned once therefore takes its
    lists inside one map, ``$batch``, whose contents do not key the plan; and a key it reads
    that the map does not hold would read as null and do nothing, silently.
    """
    if not planned_once(name):
        return
    lists = sorted(k for k, v in params.items() if isinstance(v, (list, tuple)))
    if lists:
        raise TypeError(f"{name}: lists {lists} must come inside $batch (docs/engine.md#plans)")
    missing = sorted(batch_keys(name) - set(params.get("batch", {})))
    if missing:
        raise TypeError(f"{name}: $batch lacks {missing}")


def names(folder: str = "") -> list[str]:
    """Every statement name under ``folder`` (recursively), sorted."""
    root = cypher_dir()
    return sorted(
        str(p.relative_to(root).with_suffix("")) for p in (root / folder).rglob("*.cypher")
    )


def schema() -> list[str]:
    """The schema statements in the order they apply."""
    return names("schema")


_SCHEMA_NAME = re.compile(r"^CREATE (?:[A-Z]+ )?(?:CONSTRAINT|INDEX) (\w+) IF NOT EXISTS", re.M)


_RETIRED_NAME = re.compile(r"^DROP (?:CONSTRAINT|INDEX) (\w+) IF EXISTS", re.M)


@cache
def schema_names() -> frozenset[str]:
    """The names of the constraints and indexes the schema statements create."""
    return frozenset(m for name in schema() for m in _SCHEMA_NAME.findall(load(name)))


@cache
def retired_names() -> frozenset[str]:
    """The names of the constraints and indexes an earlier version created and the schema
    statements drop (``schema/retired/``)."""
    return frozenset(m for name in schema() for m in _RETIRED_NAME.findall(load(name)))


# Statements written for Cypher 25 on a server whose vector index filters inside the index
# (Neo4j 2026.01+) live under cypher25/, each replacing the statement of the same name.
CYPHER25 = "cypher25"


def variant(name: str, cypher25: bool) -> str:
    """``name``, or its ``cypher25/`` replacement when the server speaks it and one exists: a
    file of its own, or made by ``load`` when ``name`` includes a statement that has one
    (write/state carries write/neighbours' vector look-up)."""
    if cypher25 and _has_cypher25(name):
        return f"{CYPHER25}/{name}"
    return name


@cache
def _has_cypher25(name: str) -> bool:
    if _path(f"{CYPHER25}/{name}").is_file():
        return True
    return any(_has_cypher25(included) for included in _INCLUDE.findall(_read(name)))


def schema_for(cypher25: bool) -> list[str]:
    """The schema statements in the order they apply, each in the server's variant."""
    return [variant(name, cypher25) for name in schema()]
