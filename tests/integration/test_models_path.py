"""The models path's shortcut: contradiction scores computed only where the decision reads them
(``Detector(lazy=True)``, the default) leave the same graph as scoring every pair up front
(``lazy=False``), while asking the model for fewer pairs.

Each case runs the same drafts twice on an emptied database, with the same clock and the same
ids, and compares every node and edge of the namespace afterwards (CONTRADICTS scores, flags,
statuses, revisions) and every result returned.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from belief_graph import BeliefGraph, ClaimDraft, cypher
from belief_graph import client as client_module
from belief_graph.detect import Detector
from belief_graph.policy import Policy
from belief_graph.semantic.contradiction import PairScore
from belief_graph.store import Store
from belief_graph.testing.examples import examples
from belief_graph.testing.factories import draft
from belief_graph.testing.graph import namespace_snapshot, wipe
from belief_graph.write import ingest as ingest_module
from belief_graph.write import lookup as lookup_module
from belief_graph.write import remember as remember_module
from belief_graph.write.ingest import Ingest
from belief_graph.write.lookup import Neighbours
from belief_graph.write.remember import Remember

NS = "models-path"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
# The stand-in scorer's contradictions (0.9-0.99) record conflicts between any two facts: the
# look-ups are what these tests are about, and a conflict on record is how they see one.
PAIRED = Policy(apart_contradiction_threshold=0.9)


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


class CountingEmbedder:
    """An embedder that counts the sentences it is asked to embed."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.texts = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed(self, texts: Sequence[str]) -> Any:
        self.texts += len(texts)
        return self.inner.embed(texts)


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


def fresh_start(store: Store, monkeypatch: pytest.MonkeyPatch) -> Callable[[], datetime]:
    """An emptied database, ids drawn as numbers in turn, and a clock a millisecond on at each
    reading: two runs of the same drafts draw the same ids and moments."""
    wipe(store)
    ids = iter(range(1_000_000))
    monkeypatch.setattr(client_module, "new_id", lambda: f"id{next(ids):06d}")
    moment = [START]

    def clock() -> datetime:
        moment[0] += timedelta(milliseconds=1)
        return moment[0]

    return clock


def run(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    embedder: Any,
    scorer: Any,
    lazy: bool,
    drafts: list[ClaimDraft],
) -> tuple[list[dict[str, Any]], list[Any], Counting]:
    """The drafts remembered one by one from an empty database: (results, graph, scorer)."""
    clock = fresh_start(store, monkeypatch)
    counting = Counting(scorer)
    bg = BeliefGraph(
        store, detector=Detector(embedder, counting, lazy=lazy), clock=clock, policy=PAIRED
    )
    results = []
    for i, told in enumerate(drafts):
        try:
            result = bg.remember(told, revision_id=f"rev{i:03d}")
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
    """A draft of ``NS`` said in ``text``: of the triple ``spo`` when given, else text-only."""
    return draft(*spo, namespace=NS, text=text, **fields)


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


@pytest.mark.slow
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
    max_examples=examples(12),
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
        {"draft": i, "namespace": NS, "embedding": store.query_vector(e)}
        | {"fetch": 100, "wider": 1600, "k": 5, "rank": 5, "extent": 5}
        for i, e in enumerate(embedder.embed(texts))
    ]
    statement = cypher.variant("write/neighbours", store.filters_in_vector_index())
    whole = store.read_leader(statement, batch={"near": lookups}, fetch=20)
    halves = store.read_leader_split(statement, "near", lookups, fetch=20)
    assert len(whole) == 1 and len(halves) == 2
    found = {(r["namespace"], r["id"]) for r in whole[0]["near"]}
    assert {(r["namespace"], r["id"]) for row in halves for r in row["near"]} == found
    # Every person's "likes" slot is among the nearest of "<person> enjoys <thing>".
    assert len(found) >= len(people)


@pytest.mark.slow
def test_a_single_drafts_models_run_beside_its_reads_and_decide_the_same(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """A draft remembered alone with the models on is embedded while its slot is read, and
    its likely pairs are scored while its state read looks up its nearest claims (the
    default); or the read waits for the embedding and the scores for the read; or the look-up
    is a statement of its own before the state read (as a batch's): the same results and
    graph."""
    embedder, _ = offline_models
    names: list[str] = []
    guesses: list[str] = []
    threads: list[str] = []
    read_leader, read = Store.read_leader, Store.read

    def counted(self: Store, name: str, **params: Any) -> Any:
        names.append(name)
        return read_leader(self, name, **params)

    def guessed(self: Store, name: str, **params: Any) -> Any:
        guesses.append(name)
        return read(self, name, **params)

    class Where(Hashed):
        def score(self, pairs: Sequence[tuple[str, str]]) -> list[PairScore]:
            threads.append(threading.current_thread().name)
            return super().score(pairs)

    monkeypatch.setattr(Store, "read_leader", counted)
    monkeypatch.setattr(Store, "read", guessed)
    beside = run(store, monkeypatch, embedder, Where(), True, TABLE)
    reads_beside, names[:] = list(names), []
    guesses_beside, guesses[:] = list(guesses), []
    on_the_models_thread = sum(name.startswith("models") for name in threads)
    monkeypatch.setattr(remember_module, "BESIDE", False)
    folded = run(store, monkeypatch, embedder, Hashed(), True, TABLE)
    reads_folded, names[:] = list(names), []
    # Every look-up on its own, as a batch's are: a statement of its own before the state read.
    monkeypatch.setattr(remember_module, "RIDES_UP_TO", 0)
    alone = run(store, monkeypatch, embedder, Hashed(), True, TABLE)
    assert beside[0] == folded[0] == alone[0]
    assert beside[1] == folded[1] == alone[1]
    neighbours = cypher.variant("write/neighbours", store.filters_in_vector_index())
    assert names.count(neighbours) == len(TABLE)
    # The state read is the one read of each draft before its write; beside, a draft with a
    # fact to read has what the fact believes read first, while it is embedded (a guess).
    assert neighbours not in reads_beside + reads_folded
    assert len(reads_beside) == len(reads_folded) == len(TABLE)
    keyed = sum(1 for draft in TABLE if draft.subject is not None)
    assert set(guesses_beside) == {"write/values"}
    assert keyed <= len(guesses_beside) <= len(TABLE)
    assert guesses == []
    # The pairs the decisions read (a denial of the value a fact holds, a draft against its
    # source) were scored while the look-ups were on the server.
    assert on_the_models_thread >= 1, threads


# -- an ingest reads the batch after next while the next is planned ---------------------------

ID = re.compile(r"id\d{6}")


def canonical(results: list[Any], graph: list[Any]) -> tuple[Any, Any]:
    """Results and graph with each drawn id named by where it first appears in the results (a
    slot's by its key): the two ways draw the same ids in another order (a batch read ahead
    draws the ids of its new slots before the batch before it is planned)."""
    names: dict[str, str] = {}
    for row in graph:
        if "Slot" in row["labels"]:
            p = row["props"]
            names[p["id"]] = f"slot:{p['subject_key']}:{p['predicate']}"
    text = json.dumps(results, sort_keys=True, default=str)
    for found in ID.findall(text):
        names.setdefault(found, f"<{len(names)}>")

    def named(value: Any) -> Any:
        dumped = ID.sub(lambda m: names.get(m.group(0), "<unnamed>"), json.dumps(value))
        return json.loads(dumped)

    renamed = [named(row) for row in graph]
    for row in renamed:
        row["out"] = sorted(row["out"], key=lambda edge: json.dumps(edge, sort_keys=True))
    return named(results), sorted(renamed, key=lambda r: json.dumps(r, sort_keys=True))


def ingest(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    embedder: Any,
    scorer: Any,
    drafts: list[ClaimDraft],
    batch_size: int,
    ahead: bool,
    policy: Policy | None = None,
) -> tuple[Any, Any]:
    """The drafts ingested from an empty database, pipelined (``ahead``) or each batch read and
    written before the next is read: (results, graph), ids named (``canonical``)."""
    clock = fresh_start(store, monkeypatch)
    with monkeypatch.context() as patch:
        if not ahead:
            patch.setattr(Ingest, "_pipelined", lambda self, requests: False)
        bg = BeliefGraph(
            store,
            detector=Detector(embedder, scorer),
            clock=clock,
            policy=(policy or PAIRED).model_copy(update={"apart_contradiction_threshold": 0.9}),
        )
        try:
            results: Any = [
                r.model_dump()
                for r in bg.ingest(
                    drafts,
                    batch_size=batch_size,
                    revision_ids=[f"rev{i:03d}" for i in range(len(drafts))],
                )
            ]
        except Exception as exc:  # the same refusal both ways counts as the same outcome
            results = {"error": f"{type(exc).__name__}: {exc}"}
    return canonical(results, namespace_snapshot(store, NS))


# Sentences of other facts of the same person that the frame reader cannot tell apart by
# predicate: the models judge whether they contradict (implicit conflicts across slots).
UNFRAMED = [
    ("{} is cautious with money.", "money"),
    ("{} spends freely.", "spending"),
    ("{} is careful with every cent.", "cents"),
    ("{} enjoys quiet evenings at home.", "evenings"),
    ("{} loves loud parties.", "parties"),
]


@st.composite
def facts(draw: Callable[..., Any]) -> list[ClaimDraft]:
    """Structured drafts (an ingest reads them ahead): ``drafts``' framed ones and the
    ``UNFRAMED`` sentences, each its own fact."""
    out = []
    for _ in range(draw(st.integers(3, 8))):
        subject = draw(st.sampled_from(SUBJECTS))
        if draw(st.booleans()):
            template, predicate = draw(st.sampled_from(UNFRAMED))
            out.append(d(template.format(subject.title()), subject, predicate, predicate))
            continue
        predicate = draw(st.sampled_from(PREDICATES))
        value = draw(st.sampled_from(VALUES))
        text = f"{subject.title()} {predicate.replace('_', ' ')} {value}."
        source_type = draw(st.sampled_from(["user_stated", "inferred"]))
        out.append(d(text, subject, predicate, value, source_type=source_type))
    return out


@settings(
    max_examples=examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stream=facts(), batch_size=st.integers(1, 3))
@pytest.mark.slow
def test_an_ingest_read_ahead_leaves_what_batch_after_batch_leaves(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    offline_models: tuple[Any, Any],
    stream: list[ClaimDraft],
    batch_size: int,
) -> None:
    embedder, _ = offline_models
    stream = stream + stream[::-1]  # the same facts again: slots the batches before touched
    ahead = ingest(store, monkeypatch, embedder, Hashed(), stream, batch_size, ahead=True)
    each = ingest(store, monkeypatch, embedder, Hashed(), stream, batch_size, ahead=False)
    assert ahead == each
    assert "<unnamed>" not in json.dumps(ahead)


def spy_adopt(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each ``Remember.adopt`` answers, in order."""
    adopted: list[bool] = []
    adopt = Remember.adopt

    def spied(self: Remember, *args: Any) -> bool:
        adopted.append(adopt(self, *args))
        return adopted[-1]

    monkeypatch.setattr(Remember, "adopt", spied)
    return adopted


def elsewhere(i: int) -> ClaimDraft:
    """A fact of another namespace: a batch of its own between two of ``NS``."""
    return draft(
        f"build server {i}",
        "runs",
        "Debian",
        namespace="models-path-elsewhere",
        text=f"Build server {i} runs Debian.",
    )


class InTurn:
    """An executor that runs each task as it is submitted: a pipelined ingest then reads each
    batch ahead once the batch before the one being planned has committed, never later."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __enter__(self) -> InTurn:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


# Priya's city and employer, and a fact far from both.
OFFICE = [
    d("Priya lives in Lisbon.", "priya", "lives_in", "Lisbon"),
    d("Priya works at Acme.", "priya", "works_at", "Acme"),
    d("The office printer is out of toner.", "office printer", "status", "no toner"),
]


# Batch 3 (of 5) is one draft nearest to Priya's city and employer, which batch 2 changes.
MOVED_BEFORE_IT = [
    *OFFICE,
    d("The coffee machine is broken.", "coffee machine", "status", "broken"),
    d("The parking lot is full.", "parking lot", "status", "full"),
    d("Priya lives in Porto.", "priya", "lives_in", "Porto"),
    d("Priya works at Globex.", "priya", "works_at", "Globex"),
    *(elsewhere(i) for i in range(3)),
    d("Priya lives in Lisbon and works at Acme.", "priya", "likes", "Lisbon and Acme"),
]


def both_ways_in_turn(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    embedder: Any,
    stream: list[ClaimDraft],
    batch_size: int,
    policy: Policy | None = None,
) -> tuple[list[bool], Any]:
    """``stream`` ingested read ahead, then batch after batch, the batches' reads and writes in
    a fixed order (``InTurn``): what each ``adopt`` answered, and the results and graph, which
    are the same both ways."""
    adopted = spy_adopt(monkeypatch)
    monkeypatch.setattr(ingest_module, "ThreadPoolExecutor", InTurn)
    ahead = ingest(store, monkeypatch, embedder, Hashed(), stream, batch_size, True, policy)
    answers = list(adopted)
    adopted.clear()
    each = ingest(store, monkeypatch, embedder, Hashed(), stream, batch_size, False, policy)
    assert adopted == []
    assert ahead == each
    return answers, each


def test_a_batch_read_ahead_that_found_every_slot_is_taken_whatever_was_written_since(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """A namespace of a few facts: each look-up finds every slot there is, so a draft whose
    nearest slots the batch before touched is still planned on the read made ahead."""
    stream = [
        *OFFICE,
        d("Priya lives in Porto.", "priya", "lives_in", "Porto"),
        d("Priya lives in Lisbon and works at Acme.", "priya", "likes", "Lisbon and Acme"),
    ]
    adopted, _ = both_ways_in_turn(store, monkeypatch, offline_models[0], stream, 2)
    # Batch 3's look-up, made while batch 2 was planned, found Priya's city, which batch 2
    # touched: taken all the same, the look-up having found every slot.
    assert adopted == [True, True]


def test_a_batch_read_ahead_whose_neighbours_the_batch_before_moved_is_read_again(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """Batch 3's one draft is nearest to Priya's city and employer, which batch 2 (planned
    while batch 3 is read) changes: with one neighbour asked for, its read-ahead (the four
    nearest slots, of five, all written since) cannot say which slot is nearest now, and the
    batch is read again once batch 2 is written. (Each look-up returns only the slots it ranks:
    by default it returns those its fetch held beyond them too, and finds the nearest there.)"""
    stream = MOVED_BEFORE_IT
    policy = Policy(neighbours=1)
    embedder = CountingEmbedder(offline_models[0])
    monkeypatch.setattr(lookup_module, "LOOKUP_EXTENT", 1)
    adopted, _ = both_ways_in_turn(store, monkeypatch, embedder, stream, 5, policy)
    assert adopted == [True, False]
    # The batch read again keeps the embeddings made for its read ahead: each way embeds
    # each sentence once.
    assert embedder.texts == 2 * len(stream)


def test_the_batch_after_one_read_again_is_planned_with_the_embeddings_made_ahead(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """Batch 3 cannot take its read ahead (batch 2 moved its nearest slots) and is written the
    general way; batch 4, read ahead meanwhile, is then read again with nothing on the server:
    with the embeddings its read ahead made, not embedded a second time. (Each look-up returns
    only the slots it ranks, as above.)"""
    stream = [
        *MOVED_BEFORE_IT,
        *(elsewhere(i) for i in range(3, 7)),
        d("The parking lot is empty.", "parking lot", "status", "empty"),
        d("The coffee machine works again.", "coffee machine", "status", "working"),
    ]
    embedder = CountingEmbedder(offline_models[0])
    monkeypatch.setattr(lookup_module, "LOOKUP_EXTENT", 1)
    adopted, _ = both_ways_in_turn(store, monkeypatch, embedder, stream, 5, Policy(neighbours=1))
    assert adopted == [True, False]  # batch 4 is not adopted: nothing was in flight
    assert embedder.texts == 2 * len(stream)  # each way embeds each sentence once


def test_a_near_slot_the_read_ahead_ranked_but_did_not_read_is_read_when_it_is_needed(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """One neighbour asked for: the read ahead of the last batch reads the two slots nearest to
    "Priya splurges on everything." (that Priya is frugal, that she saves every penny) and
    ranks the next ones. Batch 4 then changes both to sentences far from it: the third (that
    she is careful with every cent) holds the draft's nearest claim now, and the conflict with
    it is on record, as when each batch is read after the one before."""
    stream = [
        d("Priya is frugal.", "priya", "frugality", "frugal"),
        d("Priya saves every penny.", "priya", "saving", "every penny"),
        d("Priya is careful with every cent.", "priya", "care", "every cent"),
        d("Priya plays chess on Sundays.", "priya", "sunday", "chess"),
        elsewhere(0),
        elsewhere(1),
        d("Priya loves loud parties.", "priya", "frugality", "parties"),
        d("Priya plays the drums.", "priya", "saving", "drums"),
        d("Priya splurges on everything.", "priya", "spending", "everything"),
    ]
    policy = Policy(neighbours=1)
    adopted, (results, graph) = both_ways_in_turn(
        store, monkeypatch, offline_models[0], stream, 2, policy
    )
    assert adopted == [True] * 4
    conflicts = [e for row in graph for e in row["out"] if e[0] == "CONTRADICTS"]
    assert results[-1]["verdict"] == "NEW" and conflicts, (results[-1], conflicts)


# -- within a batch: a draft's look-up made before the drafts before it are planned -----------


def unsequenced(graph: list[Any]) -> list[Any]:
    """The graph without the slots' write counters: a batch writes a slot once however many of
    its drafts are about it, one draft at a time once per draft."""
    return [
        {**row, "props": {k: v for k, v in row["props"].items() if k != "seq"}}
        if "Slot" in row["labels"]
        else row
        for row in graph
    ]


# Priya's thrift, two facts far from it, and three drafts: the first two move her frugality
# and saving far from the third.
THRIFT = [
    d("Priya is frugal.", "priya", "frugality", "frugal"),
    d("Priya saves every penny.", "priya", "saving", "every penny"),
    d("Priya is careful with every cent.", "priya", "care", "every cent"),
]
ANIMALS = [
    d("Elephants bathe in the river.", "elephants", "bathe", "river"),
    d("Giraffes eat acacia leaves.", "giraffes", "eat", "acacia"),
]
MOVED_FAR = [
    d("Zebras graze on the plains of Kenya.", "priya", "frugality", "zebras"),
    d("Kangaroos hop across the outback.", "priya", "saving", "kangaroos"),
    d("Priya splurges on everything.", "priya", "spending", "everything"),
]


def met_as_one_at_a_time(batched: Any, alone: Any, slot_id: str) -> None:
    """The stream ingested in batches left what one draft at a time left, and its last draft
    met the claim first written to ``slot_id`` (the conflict with it on record)."""
    assert batched[0] == alone[0]
    assert unsequenced(batched[1]) == unsequenced(alone[1])
    met = next(r["added"][0] for r in alone[0] if r["slot_id"] == slot_id)
    assert alone[0][-1]["flagged"] == [met]


def test_a_drafts_nearest_slots_moved_by_the_drafts_before_it_in_its_batch_are_found_again(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """One neighbour asked for: "Priya splurges on everything." is nearest to Priya being frugal
    and saving every penny, which the two drafts before it in its batch change to sentences far
    from it. Its look-up, made before either was planned, ranked those two slots first; the
    third (that she is careful with every cent) holds its nearest claim now, and the conflict
    with it is on record however the stream is cut: in batches read ahead, batch after batch,
    one draft at a time."""
    stream = [
        *THRIFT,
        d("Priya plays chess on Sundays.", "priya", "sunday", "chess"),
        *ANIMALS,
        *MOVED_FAR,
    ]
    embedder, policy = offline_models[0], Policy(neighbours=1)
    ahead = ingest(store, monkeypatch, embedder, Hashed(), stream, 3, True, policy)
    each = ingest(store, monkeypatch, embedder, Hashed(), stream, 3, False, policy)
    alone = ingest(store, monkeypatch, embedder, Hashed(), stream, 1, False, policy)
    assert ahead == each
    met_as_one_at_a_time(ahead, alone, "slot:priya:care")


# Five of Priya's thrifty slots, four of them then moved far: the stream of the two tests below.
_THRIFTY = [
    ("Priya is frugal.", "frugality"),
    ("Priya saves every penny.", "saving"),
    ("Priya never wastes money.", "waste"),
    ("Priya lives on a tight budget.", "budget"),
    ("Priya buys only what she needs.", "buying"),
]
_FAR = [
    "Zebras graze on the plains of Kenya.",
    "Kangaroos hop across the outback.",
    "Penguins slide on the ice.",
    "Owls hunt at night.",
]
SPLURGE_AFTER_THRIFT = [
    *(d(text, "priya", predicate, predicate) for text, predicate in _THRIFTY),
    d("Priya plays chess on Sundays.", "priya", "sunday", "chess"),
    *ANIMALS,
    d("Priya hums in the shower.", "priya", "shower", "humming"),
    d("Owls live in the old barn.", "owls", "home", "barn"),
    *(d(text, "priya", _THRIFTY[i][1], f"far {i}") for i, text in enumerate(_FAR)),
    d("Priya splurges on everything.", "priya", "spending", "everything"),
]


def test_a_draft_whose_ranked_slots_were_all_moved_is_ranked_wider_until_one_was_not(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """One neighbour asked for, batch after batch: "Priya splurges on everything." ranks four
    of Priya's thrifty slots first, and the four drafts before it in its batch move each far
    from it. Ranked again twice as wide, it finds only moved slots; ranked once more (at most as
    many more as were moved) it finds the fifth, that she buys only what she needs, and the
    conflict with it is on record as when the drafts come one at a time. (Each look-up returns
    only the slots it ranks: ``test_a_look_up_returns_the_slots_its_fetch_held_beyond_its_rank``
    is the default.)"""
    ranks = spy_ranks(monkeypatch)
    monkeypatch.setattr(lookup_module, "LOOKUP_EXTENT", 1)
    embedder, policy = offline_models[0], Policy(neighbours=1)
    each = ingest(store, monkeypatch, embedder, Hashed(), SPLURGE_AFTER_THRIFT, 5, False, policy)
    assert ranks == [4, 6]  # two slots ranked at first (one neighbour and the draft's own)
    alone = ingest(store, monkeypatch, embedder, Hashed(), SPLURGE_AFTER_THRIFT, 1, False, policy)
    met_as_one_at_a_time(each, alone, "slot:priya:buying")


@pytest.mark.slow
def test_a_look_up_returns_the_slots_its_fetch_held_beyond_its_rank(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """The streams of the two tests before, each look-up returning what its fetch held beyond
    the slots it ranks (the default): "Priya splurges on everything." finds the untouched slot
    nearest to it among them, with no look-up of its own, and batch 3 is planned on its read
    ahead; both meet what one draft at a time meets."""
    ranks = spy_ranks(monkeypatch)
    embedder, policy = offline_models[0], Policy(neighbours=1)
    each = ingest(store, monkeypatch, embedder, Hashed(), SPLURGE_AFTER_THRIFT, 5, False, policy)
    assert ranks == []
    alone = ingest(store, monkeypatch, embedder, Hashed(), SPLURGE_AFTER_THRIFT, 1, False, policy)
    met_as_one_at_a_time(each, alone, "slot:priya:buying")

    adopted, each = both_ways_in_turn(store, monkeypatch, embedder, MOVED_BEFORE_IT, 5, policy)
    assert adopted == [True, True]
    alone = ingest(store, monkeypatch, embedder, Hashed(), MOVED_BEFORE_IT, 1, False, policy)
    assert each == alone


def spy_ranks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many slots each look-up of a draft's own (``Neighbours._rank``) ranks, in order."""
    ranks: list[int] = []
    rank = Neighbours._rank

    def spied(self: Neighbours, index: int, embedding: Any, namespace: str, wide: int) -> Any:
        ranks.append(wide)
        return rank(self, index, embedding, namespace, wide)

    monkeypatch.setattr(Neighbours, "_rank", spied)
    return ranks


@pytest.mark.slow
def test_a_batch_read_ahead_finds_a_drafts_nearest_slot_beyond_those_moved_before_it(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """As above, read ahead, with one more slot moved: "Priya splurges on everything." ranks
    Priya's frugality, saving, care and coins slots in that order. The batch before its own
    (written after its read) moves the care slot far from it; the two drafts before it in its
    batch move the first two. Its nearest claim now is that she counts every single coin,
    ranked but not read: read then, and the conflict with it is on record as when the drafts
    come one at a time."""
    stream = [
        *THRIFT,
        d("Priya counts every single coin.", "priya", "coins", "every coin"),
        *ANIMALS,
        *(elsewhere(i) for i in range(18)),
        d("Priya hums in the shower.", "priya", "care", "humming"),
        *(elsewhere(i) for i in range(18, 23)),
        *MOVED_FAR,
    ]
    embedder, policy = offline_models[0], Policy(neighbours=1)
    adopted = spy_adopt(monkeypatch)
    monkeypatch.setattr(ingest_module, "ThreadPoolExecutor", InTurn)
    ahead = ingest(store, monkeypatch, embedder, Hashed(), stream, 6, True, policy)
    assert adopted[-1] is True  # the last batch was planned on its read ahead
    alone = ingest(store, monkeypatch, embedder, Hashed(), stream, 1, False, policy)
    met_as_one_at_a_time(ahead, alone, "slot:priya:coins")


# Sentences near and far from each other: a slot they are written to moves across the space.
SENTENCES = [
    "{} is frugal.",
    "{} saves every penny.",
    "{} is careful with every cent.",
    "{} splurges on everything.",
    "{} plays chess on Sundays.",
    "{} loves loud parties.",
    "{} watched zebras graze in Kenya.",
    "{}'s office printer is out of toner.",
]


@st.composite
def moves(draw: Callable[..., Any]) -> list[ClaimDraft]:
    """Structured drafts whose sentences say nothing of their slot: a later draft of a slot
    can move it far from where it was, or near another slot's claims. Each sentence is written
    once (to one slot): two slots never hold claims equally near a draft."""
    said = draw(
        st.lists(
            st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(SENTENCES)),
            min_size=4,
            max_size=12,
            unique=True,
        )
    )
    out = []
    for subject, sentence in said:
        predicate = draw(st.sampled_from(["habit", "saving", "hobby", "mood"]))
        text = sentence.format(subject.title())
        out.append(d(text, subject, predicate, text.split()[-1].strip(".")))
    return out


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    stream=st.one_of(facts(), moves()),
    batch_size=st.integers(2, 5),
    neighbours=st.integers(1, 2),
)
@pytest.mark.slow
def test_an_ingest_in_batches_leaves_what_one_draft_at_a_time_leaves(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    offline_models: tuple[Any, Any],
    stream: list[ClaimDraft],
    batch_size: int,
    neighbours: int,
) -> None:
    embedder, _ = offline_models
    stream = stream + stream[::-1]  # the same facts again: slots earlier drafts touched
    policy = Policy(neighbours=neighbours)
    batched = ingest(store, monkeypatch, embedder, Hashed(), stream, batch_size, True, policy)
    alone = ingest(store, monkeypatch, embedder, Hashed(), stream, 1, False, policy)
    assert batched[0] == alone[0]
    assert unsequenced(batched[1]) == unsequenced(alone[1])


def test_a_batchs_updates_are_scored_in_one_model_call_and_decided_as_one_by_one(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """Each denial of the value a single-valued fact holds asks the contradiction model (its
    score goes on record with the contradiction); a batch asks once for all of its drafts (the
    model runs pairs together for less each), the pair of a fact a draft before it in the batch
    changed included, and decides what a call per draft decides. Another value the structure
    reads asks nothing: a change of value, whatever the model would say."""
    embedder, scorer = offline_models
    people = ["priya", "ben", "mia", "tom", "ana"]
    before = [d(f"{p.title()} lives in Lisbon.", p, "lives_in", "Lisbon") for p in people]
    after = [
        *(
            d(f"{p.title()} no longer lives in Lisbon.", p, "lives_in", "Lisbon", negated=True)
            for p in people
        ),
        # restated: no pair
        d("Priya doesn't live in Lisbon.", "priya", "lives_in", "Lisbon", negated=True),
        # affirmed again after its denial, in this batch
        d("Ben lives in Lisbon again.", "ben", "lives_in", "Lisbon"),
    ]
    outcomes = []
    for batch_size in (len(after), 1):
        clock = fresh_start(store, monkeypatch)
        counting = Counting(scorer)
        bg = BeliefGraph(store, detector=Detector(embedder, counting), clock=clock)
        bg.ingest(before)
        counting.calls = counting.pairs = 0
        results = bg.ingest(after, batch_size=batch_size)
        outcomes.append(([(r.verdict, r.decision) for r in results], counting.calls))
    (batched, calls), (alone, calls_alone) = outcomes
    assert batched == alone
    changed = {"UPDATE", "CONFLICT"}  # which of the two: the model's flag
    assert [v in changed for v, _ in batched] == [True] * 5 + [False, True]
    assert batched[5][0] == "SAME"
    assert (calls, calls_alone) == (1, 6)


# -- a look-up crowded out: nearer claims fill the index's fetch ----------------------------

CROWD = 150


def crowded(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    offline_models: tuple[Any, Any],
    crowd: list[ClaimDraft],
) -> BeliefGraph:
    """An emptied database holding ``crowd`` with their embeddings (no contradiction model: a
    fast fill), and a client with both models on it."""
    embedder, scorer = offline_models
    clock = fresh_start(store, monkeypatch)
    BeliefGraph(store, detector=Detector(embedder, None), clock=clock).ingest(crowd)
    return BeliefGraph(store, detector=Detector(embedder, scorer), clock=clock)


def splurges(namespace: str) -> list[ClaimDraft]:
    """Priya splurging at ``CROWD`` shops: sentences nearer to "Priya splurges on everything."
    than anything else of ours."""
    return [
        draft(
            "priya",
            "has_habit",
            f"splurging at shop {i}",
            namespace=namespace,
            text=f"Priya splurges on everything at shop {i}.",
        )
        for i in range(CROWD)
    ]


@pytest.mark.parametrize("rides", [True, False], ids=["with its read", "on its own"])
@pytest.mark.parametrize("crowd", ["another namespace", "the draft's own fact"])
@pytest.mark.slow
def test_a_drafts_nearest_claim_elsewhere_is_found_when_many_nearer_ones_fill_the_fetch(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    offline_models: tuple[Any, Any],
    crowd: str,
    rides: bool,
) -> None:
    """150 claims nearer to "Priya splurges on everything." than anything else of ours (that
    she does so at shop 1, 2, ...): held by another tenant of the database (on a server whose
    vector index spans every namespace, a look-up's first fetch holds none of ours), or by the
    draft's own fact, a habit of many values (its candidates are claims of other facts, and
    the first fetch holds only its own). The look-up asks the index again, wider, and Priya
    being frugal is still met, the conflict with it on record: the look-up riding with the
    draft's read, or on its own before it (as a batch's do)."""
    namespace = "models-path-crowd" if crowd == "another namespace" else NS
    bg = crowded(store, monkeypatch, offline_models, splurges(namespace))
    frugal = bg.remember(d("Priya is frugal.", "priya", "frugality", "frugal")).added[0]
    if not rides:
        monkeypatch.setattr(remember_module, "RIDES_UP_TO", 0)
    result = bg.remember(d("Priya splurges on everything.", "priya", "has_habit", "splurging"))
    assert frugal in result.flagged, result


@pytest.mark.slow
def test_a_look_up_starts_as_wide_as_most_of_the_last_ones_in_its_namespace_needed(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any]
) -> None:
    """Where the vector index spans every namespace (Neo4j 5.26), a look-up that another
    tenant's nearer sentences crowd out reads the index twice, the second time wider; the next
    look-up in the namespace starts at the step of the ladder that held the slots most of the
    last ones needed (one read where it took two) and finds as much: the conflict with Priya
    being frugal is on record. Once most of them needed less, the start is back at the foot.
    Where the index filters (2026), no look-up is crowded out by another tenant and each starts
    at the foot."""
    bg = crowded(store, monkeypatch, offline_models, splurges("models-path-crowd"))
    starts: list[int] = []
    read_leader = Store.read_leader

    def watched(self: Store, name: str, **params: Any) -> Any:
        starts.extend(q["fetch"] for q in params.get("batch", {}).get("near", []))
        return read_leader(self, name, **params)

    monkeypatch.setattr(Store, "read_leader", watched)
    # Our namespace holds too few slots: these two look-ups read every claim of the index.
    frugal = bg.remember(d("Priya is frugal.", "priya", "frugality", "frugal")).added[0]
    result = bg.remember(d("Priya splurges on everything.", "priya", "has_habit", "splurging"))
    assert frugal in result.flagged, result
    # Ben's ten facts: his next sentences find their nearest slots among the first claims.
    BeliefGraph(store, detector=Detector(offline_models[0], None), clock=bg.clock).ingest(
        [d(f"Ben likes {x}.", "ben", f"likes_{x}", x) for x in DRINKS]
    )
    for x in ("juice", "soda", "broth"):
        bg.remember(d(f"Ben likes {x}.", "ben", f"likes_{x}", x))
    foot = max(Policy().neighbours * 20, (Policy().neighbours + 1) * 4)
    if store.filters_in_vector_index():
        assert starts == [foot] * 5
    else:  # the last two looked up less far than the first two: a tie, the lower taken
        assert starts == [foot, foot * 4, foot * 4, foot * 4, foot]


DRINKS = ["tea", "coffee", "milk", "water", "cocoa", "cider", "lemonade", "kefir", "mate", "chai"]


@pytest.mark.parametrize("crowd", [0, 1000], ids=["alone", "another namespace crowding"])
@pytest.mark.slow
def test_a_sentence_restating_a_fact_joins_it_when_another_namespace_crowds_the_index(
    store: Store, monkeypatch: pytest.MonkeyPatch, offline_models: tuple[Any, Any], crowd: int
) -> None:
    """A sentence the parser does not read ("Lives in Lisbon: Priya.") restates Priya living in
    Lisbon: its look-up finds the fact among its nearest claims and it joins it, one belief,
    even when another tenant holds hundreds of sentences nearer to it (of a thousand)."""
    tenants = [
        ClaimDraft(
            namespace="models-path-crowd",
            subject=f"tenant {i}",
            predicate="lives_in",
            object="Lisbon",
            text=f"Lives in Lisbon: Priya ({i}).",
        )
        for i in range(crowd)
    ]
    bg = crowded(store, monkeypatch, offline_models, tenants)
    fact = bg.remember(d("Priya now lives in Lisbon.", "priya", "lives_in", "Lisbon"))
    restated = bg.remember(d("Lives in Lisbon: Priya."))
    assert restated.slot_id == fact.slot_id, restated


@pytest.mark.slow
def test_ingest_commits_100_drafts_a_transaction_with_a_contradiction_model_and_500_without(
    make_bg: Callable[..., BeliefGraph], offline_models: tuple[Any, Any]
) -> None:
    """A batch's drafts look for contradictions among each other's neighbours, a cost that
    grows with the batch: with a contradiction model an ingest given no batch size commits
    fewer drafts at a time."""

    def notes(namespace: str, n: int) -> list[ClaimDraft]:
        return [
            draft(f"s{i}", "note", str(i), namespace=namespace, text=f"S{i} keeps note {i}.")
            for i in range(n)
        ]

    models = make_bg(detector=Detector(offline_models[0], Hashed()))
    structural = make_bg()
    assert (models.default_batch_size, structural.default_batch_size) == (100, 500)
    for bg, namespace, n, asked, committed in (
        (models, "batches:models", 250, None, [100, 200, 250]),
        (structural, "batches:structural", 600, None, [500, 600]),
        (models, "batches:told", 60, 25, [25, 50, 60]),
    ):
        done: list[int] = []
        results = bg.ingest(notes(namespace, n), batch_size=asked, progress=done.append)
        assert done == committed
        assert [r.verdict for r in results] == ["NEW"] * n
