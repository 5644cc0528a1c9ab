"""What the benchmarks write and read: the repository's data files, and generated drafts.

Generated drafts are built on ``belief_graph.testing.factories.draft`` (a triple in a
namespace, its sentence made from it unless given):

- the engine's people (``person_fact``, ``drafts``, ``history``, ``fact``, ``random_fact``):
  ``person-N`` with five predicates, single- and multi-valued, four values each, so a sample
  often restates or updates a stored fact;
- memory-style sentences over a few names, verbs and things (``template``, ``sentence``), with
  their vectors made cheaply (``embeddings``) and handed to the engine by a lookup
  (``Lookup``), for the vector index's benchmarks.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from belief_graph import BeliefGraph, ClaimDraft, HistoricalDraft
from belief_graph.testing.factories import as_history, draft
from belief_graph.testing.offline import offline_embedder

# The repository's data folder: the evaluation sets (data/README.md).
DATA = Path(__file__).resolve().parents[1] / "data"


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    """One JSON object per non-empty line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


# -- the engine's people -----------------------------------------------------------------------

PREDICATES = ["lives_in", "works_at", "risk_tolerance", "uses_framework", "likes"]
BASE = datetime(2025, 1, 1, tzinfo=UTC)


def person_fact(ns: str, subjects: int, rng: random.Random, **fields: Any) -> ClaimDraft:
    """A draft of a random one of the facts of ``subjects`` people ("person-3 lives in
    value-1."); ``fields``: its moments and any other field."""
    subject = f"person-{rng.randrange(subjects)}"
    predicate = rng.choice(PREDICATES)
    return draft(subject, predicate, f"value-{rng.randrange(4)}", namespace=ns, **fields)


def drafts(ns: str, n: int, subjects: int, rng: random.Random) -> Iterator[ClaimDraft]:
    """``n`` of ``person_fact``'s drafts, valid one second apart from ``BASE`` (the engine stamps
    when it learned each)."""
    for i in range(n):
        at = BASE + timedelta(seconds=i)
        yield person_fact(ns, subjects, rng, valid_from=at)


def history(ns: str, n: int, subjects: int, rng: random.Random) -> Iterator[HistoricalDraft]:
    """``drafts`` as history, each learned when it became valid (for ``import_history``: the
    as_of reads ask what was known then)."""
    for made in drafts(ns, n, subjects, rng):
        assert made.valid_from is not None
        yield as_history(made, made.valid_from)


def fact(ns: str, subject: str, predicate: str, value: str, at: datetime, label: int) -> ClaimDraft:
    """A draft of ``subject``'s ``predicate`` being ``value``, valid from ``at`` (the engine
    stamps when it learned it); ``label`` makes its sentence its own."""
    text = f"{subject} {predicate} {value} ({label})."
    return draft(subject, predicate, value, namespace=ns, text=text, valid_from=at)


def random_fact(ns: str, subjects: int, rng: random.Random, at: datetime, label: int) -> ClaimDraft:
    """A draft of a random one of the facts of ``subjects`` people (``fact``)."""
    subject, predicate = f"person-{rng.randrange(subjects)}", rng.choice(PREDICATES)
    return fact(ns, subject, predicate, f"value-{rng.randrange(4)}", at, label)


# -- memory-style sentences and their vectors ---------------------------------------------------

NAMES = ["Priya", "Ana", "Mom", "the team", "Atlas", "Ben", "the client", "Lena", "Omar", "Kai"]
VERBS = ["likes", "uses", "lives in", "works at", "prefers", "plans to visit", "owns", "studies"]
THINGS = ["Go", "Lisbon", "hiking", "tea", "Kubernetes", "jazz", "a red bike", "Berlin", "chess"]
PLACES = ["at home", "on weekends", "since March", "for work", "with friends", "every day"]


def template(i: int) -> str:
    """A memory-style sentence; there are 4,320 of them, so every one recurs across namespaces."""
    r = random.Random(i)
    return f"{r.choice(NAMES)} {r.choice(VERBS)} {r.choice(THINGS)} {r.choice(PLACES)}."


def sentence(i: int) -> str:
    """Claim ``i``'s text: its template, told apart by its number."""
    return f"{template(i)[:-1]} ({i})."


class Lookup:
    """An embedder that returns precomputed vectors (the query-time model cost is excluded)."""

    dim = 384

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> list[list[float]]:
        return [self.vectors[t] for t in texts]


def embeddings(count: int, noise: float, cache: Path) -> np.ndarray:
    """One vector per claim: the offline model's embedding of its template (each distinct
    template embedded once, cached in ``cache``), moved by a little seeded noise so that no two
    claims share a vector, renormalized. Embedding 100k sentences on a busy 2-core machine takes
    an hour; the templates take minutes and keep what matters here: near sentences everywhere."""
    names = sorted({template(i) for i in range(count)})
    if cache.is_file():
        stored = np.load(cache)
    else:
        stored = np.zeros((0, 384), dtype=np.float32)
    if stored.shape[0] != len(names):
        started = time.perf_counter()
        stored = np.asarray(offline_embedder().embed(names, batch_size=128), dtype=np.float32)
        np.save(cache, stored)
        print(f"  {len(names)} templates embedded in {time.perf_counter() - started:.0f} s")
    row = {name: n for n, name in enumerate(names)}
    base = stored[[row[template(i)] for i in range(count)]]
    moved = base + np.random.default_rng(3).normal(0, noise, base.shape).astype(np.float32)
    unit: np.ndarray = moved / np.linalg.norm(moved, axis=1, keepdims=True)
    return unit


def fill(bg: BeliefGraph, texts: list[str], spaces: list[str]) -> None:
    """Claim ``i`` (object ``str(i)``, sentence ``texts[i]``) into namespace ``i mod len(spaces)``,
    then wait for the vector index to have them all."""
    bg.ingest(
        (
            draft(f"s{i}", "note", str(i), namespace=spaces[i % len(spaces)], text=text)
            for i, text in enumerate(texts)
        ),
        batch_size=1000,
    )
    bg.store.write("admin/schema_await", timeout=1800)
