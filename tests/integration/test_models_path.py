"""The models path's shortcut: contradiction scores computed only where the decision reads them
(``Detector(lazy=True)``, the default) leave the same graph as scoring every pair up front
(``lazy=False``), while asking the model for fewer pairs.

Each case runs the same drafts twice on an emptied database, with the same clock and the same
ids, and compares every node and edge of the namespace afterwards (CONTRADICTS scores, flags,
statuses, revisions) and every result returned.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belief_graph import BeliefGraph, ClaimDraft, cypher
from belief_graph import client as client_module
from belief_graph.detect import Detector
from belief_graph.semantic.contradiction import PairScore
from belief_graph.store import Store
from belief_graph.testing.graph import namespace_snapshot, wipe
from belief_graph.write import remember as remember_module

NS = "models-path"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Counting:
    """A scorer that counts the pairs it is asked about."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.pairs = 0
        self.calls = 0

    @property
    def name(self) -> str:
        return str(self.inner.name)

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        self.pairs += len(pairs)
        self.calls += 1
        return list(self.inner.score(pairs))


class Hashed:
    """A stand-in model whose score of a pair is fixed by the pair's text: about a third of the
    pairs cross the 0.9 threshold, so every branch that reads a score is taken both ways."""

    name = "hashed"

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
        out = []
        for premise, hypothesis in pairs:
            digest = hashlib.sha256(f"{premise}\x00{hypothesis}".encode()).digest()
            high = digest[1] % 3 == 0
            out.append(PairScore(contradiction=(0.9 if high else 0.0) + digest[0] / 255 * 0.09))
        return out


def run(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    embedder: Any,
    scorer: Any,
    lazy: bool,
    drafts: list[ClaimDraft],
) -> tuple[list[dict[str, Any]], list[Any], Counting]:
    """The drafts remembered one by one from an empty database: (results, graph, scorer)."""
    wipe(store)
    ids = iter(range(1_000_000))
    monkeypatch.setattr(client_module, "new_id", lambda: f"id{next(ids):06d}")
    moment = [START]

    def clock() -> datetime:
        moment[0] += timedelta(milliseconds=1)
        return moment[0]

    counting = Counting(scorer)
    bg = BeliefGraph(store, detector=Detector(embedder, counting, lazy=lazy), clock=clock)
    results = []
    for i, draft in enumerate(drafts):
        try:
            result = bg.remember(draft, revision_id=f"rev{i:03d}")
            results.append(result.model_dump())
        except Exception as exc:  # the same refusal both ways counts as the same outcome
            results.append({"error": f"{type(exc).__name__}: {exc}"})
    return results, namespace_snapshot(store, NS), counting


def same_both_ways(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    embedder: Any,
    scorer: Any,
    drafts: list[ClaimDraft],
) -> tuple[Counting, Counting]:
    lazy_results, lazy_graph, lazy = run(store, monkeypatch, embedder, scorer, True, drafts)
    eager_results, eager_graph, eager = run(store, monkeypatch, embedder, scorer, False, drafts)
    assert lazy_results == eager_results
    assert lazy_graph == eager_graph
    assert lazy.pairs <= eager.pairs
    return lazy, eager


def d(text: str, *spo: str, **fields: Any) -> ClaimDraft:
    if spo:
        fields.update(subject=spo[0], predicate=spo[1], object=spo[2])
    return ClaimDraft(namespace=NS, text=text, **fields)


TABLE = [
    d("Priya lives in Lisbon.", "priya", "lives_in", "Lisbon"),
    d("Priya works at Acme.", "priya", "works_at", "Acme"),
    d("Priya lives in Porto now.", "priya", "lives_in", "Porto"),
    d("Priya lives in Porto.", "priya", "lives_in", "Porto"),
    d("Priya no longer works at Acme.", "priya", "works_at", "Acme", negated=True),
    d("Priya speaks French.", "priya", "speaks", "French"),
    d("Priya speaks Spanish.", "priya", "speaks", "Spanish"),
    d("Priya is allergic to peanuts."),
    d("Priya has no allergies at all."),
    d("Priya moved to Berlin last month."),
    d("Ben lives in Lisbon.", "ben", "lives_in", "Lisbon"),
    d("Ben lives in Madrid.", "ben", "lives_in", "Madrid", source_type="inferred"),
    d("Ben lives in Rome.", "ben", "lives_in", "Rome", correction=True),
    d("Mom likes gardening."),
    d("Mom doesn't care about gardening."),
    d("Priya is cautious with money."),
    d("Priya is careful with her money."),
    d(
        "The project uses Go.",
        "project",
        "uses_framework",
        "Go",
        episode_content="We rewrote the backend in Go last year.",
    ),
    d(
        "The project uses Rust.",
        "project",
        "uses_framework",
        "Rust",
        episode_content="The backend is written in Go and nothing else.",
    ),
    d("She lives in Porto."),
    d("We moved the backend to Go."),
]


def test_the_shortcut_leaves_the_same_graph_with_the_offline_models(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    embedder, scorer = offline_models
    lazy, eager = same_both_ways(store, monkeypatch, embedder, scorer, TABLE)
    # Values restated and claims about another subject or under another relation: the model
    # is not asked about them.
    assert lazy.pairs < eager.pairs, (lazy.pairs, eager.pairs)


SUBJECTS = ["priya", "ben"]
PREDICATES = ["lives_in", "works_at", "speaks", "likes"]  # single, single, multi, multi
VALUES = ["Lisbon", "Acme", "French", "jazz", "Porto"]


@st.composite
def drafts(draw: Callable[..., Any]) -> list[ClaimDraft]:
    out = []
    for _ in range(draw(st.integers(2, 7))):
        subject = draw(st.sampled_from(SUBJECTS))
        predicate = draw(st.sampled_from(PREDICATES))
        value = draw(st.sampled_from(VALUES))
        negated = draw(st.booleans()) and draw(st.booleans())
        words = predicate.replace("_", " ")
        text = f"{subject.title()} {'no longer ' if negated else ''}{words} {value}."
        if draw(st.booleans()):
            out.append(d(text))
            continue
        out.append(
            d(
                text,
                subject,
                predicate,
                value,
                negated=negated,
                source_type=draw(st.sampled_from(["user_stated", "inferred", "human_verified"])),
                correction=draw(st.booleans()) and draw(st.booleans()),
            )
        )
    return out


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stream=drafts())
def test_the_shortcut_leaves_the_same_graph_for_any_stream(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    offline_models: tuple[Any, Any],
    stream: list[ClaimDraft],
) -> None:
    embedder, _ = offline_models
    same_both_ways(store, monkeypatch, embedder, Hashed(), stream)


def test_a_batchs_neighbours_read_in_two_halves_are_those_one_statement_finds(
    store: Store, offline_models: tuple[Any, Any]
) -> None:
    embedder, _ = offline_models
    wipe(store)
    bg = BeliefGraph(store, detector=Detector(embedder))
    people = ["Priya", "Ben", "Ana", "Omar"]
    things = ["Lisbon", "Go", "jazz", "tea", "Berlin", "chess"]
    bg.ingest(
        [d(f"{p} likes {t}.", p.lower(), "likes", t) for p in people for t in things]
        + [d(f"{p} lives in {t}.") for p in people for t in things[:2]],
        batch_size=50,
    )
    texts = [f"{p} enjoys {t}." for p in people for t in things[::-1]]
    lookups = [
        {"namespace": NS, "embedding": store.query_vector(e), "fetch": 100, "k": 5}
        for e in embedder.embed(texts)
    ]
    statement = cypher.variant("write/neighbours", store.filters_in_vector_index())
    whole = store.read_leader(statement, batch={"near": lookups}, fetch=20)
    halves = store.read_leader_split(statement, "near", lookups, fetch=20)
    assert len(whole) == 1 and len(halves) == 2
    found = {(r["namespace"], r["id"]) for r in whole[0]["near"]}
    assert {(r["namespace"], r["id"]) for row in halves for r in row["near"]} == found
    # Every person's "likes" slot is among the nearest of "<person> enjoys <thing>".
    assert len(found) >= len(people)


def test_a_single_drafts_look_up_rides_with_its_state_read_and_decides_the_same(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    embedder, _ = offline_models
    names: list[str] = []
    read_leader = Store.read_leader

    def counted(self: Store, name: str, **params: Any) -> Any:
        names.append(name)
        return read_leader(self, name, **params)

    monkeypatch.setattr(Store, "read_leader", counted)
    folded = run(store, monkeypatch, embedder, Hashed(), True, TABLE)
    reads_folded, names[:] = list(names), []
    # Every look-up on its own, as a batch's are: a statement of its own before the state read.
    monkeypatch.setattr(remember_module, "SPLIT_AT", 1)
    alone = run(store, monkeypatch, embedder, Hashed(), True, TABLE)
    assert folded[0] == alone[0]
    assert folded[1] == alone[1]
    neighbours = cypher.variant("write/neighbours", store.filters_in_vector_index())
    assert names.count(neighbours) == len(TABLE)
    # Folded: the state read is the one read of each draft before its write.
    assert neighbours not in reads_folded
    assert len(reads_folded) == len(TABLE)
