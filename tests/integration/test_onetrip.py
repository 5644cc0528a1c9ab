"""The one-statement apply (``write/apply``, one round trip) and the general path (lock, changes,
flags, finish: four statements in a transaction) leave the same graph and answer the same
results, for random sequences of remember, batches of drafts, claims that depend on others,
contract, confirm/reject, rollback, rectify, erase and replays (hypothesis).

Both runs start from an empty database with the same clock and the same id sequence, so the two
exports must be equal line by line: claims, slots (their write counter too), episodes, every
edge, and each Revision with its stored result.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from belief_graph import (
    BeliefGraph,
    ClaimDraft,
    ConflictError,
    NotFound,
    Policy,
    RevisionResult,
    Tuning,
)
from belief_graph.detect import Detector
from belief_graph.store import Store
from belief_graph.testing import factories
from belief_graph.testing.examples import examples
from belief_graph.testing.factories import Clock, as_history
from belief_graph.testing.graph import claims_read, wipe
from belief_graph.testing.sequences import (
    NAMESPACES,
    OBJECTS,
    OPS,
    PREDICATES,
    SUBJECTS,
    Done,
    Run,
)
from belief_graph.transfer.snapshot import export_namespace
from belief_graph.write.state import WALK_UP_TO

EXAMPLES = examples(40)

draft_parts = st.tuples(
    st.integers(0, len(NAMESPACES) - 1),
    st.integers(0, len(SUBJECTS) - 1),
    st.integers(0, len(PREDICATES) - 1),
    st.integers(0, len(OBJECTS) - 1),
    st.sampled_from(["user_stated", "observed", "inferred"]),
)
OPS_HERE = st.one_of(
    OPS,
    # a draft that depends on (or supports) a stored claim: retiring that claim flags it
    st.tuples(st.just("depend"), st.integers(0, 1_000), draft_parts, st.booleans()),
    # several drafts in one batch (``ingest``): one statement for all of them
    st.tuples(st.just("batch"), st.lists(draft_parts, min_size=1, max_size=6)),
)


def city(value: str, subject: str = "ana", **extra: Any) -> ClaimDraft:
    """Where ``subject`` lives, in the first namespace of the run."""
    return factories.draft(subject, "city", value, namespace=NAMESPACES[0], text=value, **extra)


# Random sequences of writes under each preset, each played twice and compared.
sequences = given(
    ops=st.lists(OPS_HERE, min_size=1, max_size=16),
    preset=st.sampled_from(["recency", "conservative", "freshness"]),
)
compared = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def said(run: Run, parts: tuple[Any, ...], **extra: Any) -> ClaimDraft:
    """The draft of a sequence's step ``parts`` (namespace, subject, predicate, object and
    source by index), its sentence numbered by ``run``'s counter."""
    n, s, p, o, source = parts
    token = next(run.counter)
    return factories.draft(
        SUBJECTS[s],
        PREDICATES[p],
        OBJECTS[o],
        namespace=NAMESPACES[n],
        text=f"{SUBJECTS[s]} {PREDICATES[p]} {OBJECTS[o]} (said #{token:04d}).",
        source_type=source,
        **extra,
    )


def play(
    store: Store,
    ops: list[tuple[Any, ...]],
    preset: str,
    *,
    one_trip: bool,
    carry: bool = True,
    whole_past: bool = False,
    walk_up_to: int = WALK_UP_TO,
    detector: Detector | None = None,
) -> list[Any]:
    """Run ``ops`` on an empty database through one apply path (``carry``: small writes decided
    with no read; ``whole_past``: every past version of a fact read before deciding;
    ``walk_up_to``: a fact of more claims read by index, not walked; ``detector``: the models
    on); what the calls answered and the export of every namespace."""
    wipe(store)
    ids = itertools.count()
    bg = BeliefGraph(
        store,
        policy=Policy(preset=preset),
        clock=Clock(),  # type: ignore[arg-type]
        detector=detector,
        tuning=Tuning(
            one_trip=one_trip,
            carry=carry,
            whole_past=whole_past,
            walk_up_to=walk_up_to,
            ids=lambda: f"id-{next(ids):05d}",
        ),
    )
    run = Run(store, bg)
    answers: list[Any] = []

    def record(ns: str, result: RevisionResult, call: Any = None) -> None:
        answers.append(result.model_dump())
        run.claims += [(ns, cid) for cid in result.added]
        run.done.append(Done("remember", ns, result, call))

    for op in run.steps(ops):
        kind = op[0]
        try:
            if kind == "wait":
                run.clock.set(run.clock.now + timedelta(days=op[1]))
            elif kind == "depend":
                if not run.claims:
                    continue
                ns, premise = run.claims[op[1] % len(run.claims)]
                parts = (NAMESPACES.index(ns), *op[2][1:])
                link = {"depends_on": (premise,)} if op[3] else {"supports": (premise,)}
                result = bg.remember(said(run, parts, **link), revision_id=run.rid())
                record(ns, result)
            elif kind == "batch":
                drafts = [said(run, parts) for parts in op[1]]
                # An odd batch lets the engine draw its revision ids (so it may be decided on
                # the state the last write carried back); an even one gives them.
                rids = None if len(drafts) % 2 else [run.rid() for _ in drafts]
                for d, result in zip(drafts, bg.ingest(drafts, revision_ids=rids), strict=True):
                    record(d.namespace, result)
            else:
                call = run.prepare(op)
                if call is None:
                    continue
                ns, do, replayable = call
                if kind == "replay":
                    answers.append(do.call().model_dump())
                    continue
                result = do()
                answers.append(result.model_dump())
                run.claims += [(ns, cid) for cid in result.added]
                run.done.append(Done(kind, ns, result, do if replayable else None))
        except (ConflictError, NotFound, ValueError) as exc:
            answers.append(f"{type(exc).__name__}: {exc}")
    for ns in NAMESPACES:
        out = io.StringIO()
        export_namespace(store, ns, out)
        rows = [json.loads(line) for line in out.getvalue().splitlines()]
        answers.append(
            sorted(
                json.dumps(row, sort_keys=True)
                for row in rows
                if row["kind"] not in ("header", "footer")
            )
        )
    return answers


@compared
# Pinned: a premise superseded flags its dependent (the stored result carries the flag); a
# batch that updates one fact three times; a rollback of a supersession that had flagged one.
@example(
    ops=[
        ("remember", 0, 0, 0, 0, "user_stated", 0.8, False, False, None, None),
        ("depend", 0, (0, 1, 2, 5, "observed"), True),
        ("depend", 0, (0, 0, 1, 3, "observed"), False),
        ("remember", 0, 0, 0, 1, "user_stated", 0.8, False, True, None, None),
        ("rollback", 3),
    ],
    preset="recency",
)
@example(  # a replay after the clock moved: its stored result, though the draft no longer fits
    ops=[
        ("remember", 0, 0, 0, 0, "human_verified", 0.3, True, False, None, 3),
        ("wait", 45),
        ("replay", 0),
    ],
    preset="recency",
)
@example(
    ops=[("batch", [(1, 1, 0, 0, "observed"), (1, 1, 0, 1, "observed"), (1, 1, 0, 0, "inferred")])],
    preset="freshness",
)
@example(  # a batch of one about a fact written before, on a client that does not carry it
    ops=[
        ("remember", 0, 0, 0, 0, "user_stated", 0.8, False, False, None, 3),
        ("batch", [(0, 0, 0, 1, "observed")]),
        ("batch", [(0, 0, 0, 2, "observed")]),
    ],
    preset="recency",
)
@sequences
@pytest.mark.slow
def test_one_statement_and_the_general_path_leave_the_same_graph(
    store: Store, ops: list[tuple[Any, ...]], preset: str
) -> None:
    general = play(store, ops, preset, one_trip=False)
    assert play(store, ops, preset, one_trip=True) == general


_ID = re.compile(r"id-\d{5}")
_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)?")


def beliefs(answers: list[Any]) -> Any:
    """``play``'s answers with every id and moment blanked, the exports sorted again: what was
    believed, decided and recorded, not which ids were drawn or which millisecond it was (a
    write decided twice reads the test's clock twice and draws ids twice)."""

    def blank(value: Any) -> Any:
        if isinstance(value, str):
            return _MOMENT.sub("<moment>", _ID.sub("<id>", value))
        if isinstance(value, dict):
            return {k: blank(v) for k, v in value.items()}
        if isinstance(value, list):
            return [blank(v) for v in value]
        return value

    out = [blank(a) for a in answers]
    return [sorted(a) if i >= len(out) - len(NAMESPACES) else a for i, a in enumerate(out)]


@compared
@example(  # an ingested fact (not held), a new one, then the first again with no read
    ops=[
        ("batch", [(0, 0, 0, 0, "observed")]),
        ("remember", 0, 1, 1, 0, "user_stated", 0.8, False, False, None, None),
        ("remember", 0, 0, 0, 1, "user_stated", 0.8, False, False, None, None),
    ],
    preset="recency",
)
@sequences
def test_deciding_with_no_read_believes_what_reading_first_believes(
    store: Store, ops: list[tuple[Any, ...]], preset: str
) -> None:
    """Small writes decided on what the client holds, a fact it does not hold taken as not
    there yet (the apply finds out, and the write is decided again on what it found), against
    a client that reads before every write: the same answers and the same graph, but for
    which ids were drawn and the test clock's milliseconds."""
    reading = beliefs(play(store, ops, preset, one_trip=True, carry=False))
    assert beliefs(play(store, ops, preset, one_trip=True)) == reading


@compared
@example(  # five versions 10 days apart, then drafts placed among them, and a correction
    ops=[
        ("remember", 0, 0, 0, 0, "user_stated", 0.8, False, False, None, None),
        ("wait", 10),
        ("remember", 0, 0, 0, 1, "user_stated", 0.8, False, False, None, None),
        ("wait", 10),
        ("remember", 0, 0, 0, 2, "user_stated", 0.8, False, False, None, None),
        ("wait", 10),
        ("remember", 0, 0, 0, 3, "user_stated", 0.8, False, False, None, None),
        ("wait", 10),
        ("remember", 0, 0, 0, 0, "user_stated", 0.8, False, False, None, None),
        ("remember", 0, 0, 0, 1, "user_stated", 0.8, False, False, -40, 3),
        ("remember", 0, 0, 0, 2, "user_stated", 0.8, False, False, -40, 30),
        ("batch", [(0, 0, 0, 1, "observed"), (0, 0, 0, 2, "observed")]),
        ("remember", 0, 0, 0, 3, "user_stated", 0.8, True, False, None, None),
    ],
    preset="recency",
)
@sequences
@pytest.mark.slow
def test_a_facts_past_read_from_its_newest_window_on_believes_what_reading_all_of_it_believes(
    store: Store, ops: list[tuple[Any, ...]], preset: str
) -> None:
    """A fact's past versions read only from its newest window on (or from the earliest
    window a draft of the batch gives), every one read and the draft decided again only when
    it is placed before those or corrects, against reading every past version before every
    write: the same answers and the same graph, but for ids and the test clock's milliseconds
    (a draft decided again draws both again). Cut alike when every fact is read by index (the
    engine walks a fact of a few claims, and the facts of these sequences are short)."""
    whole = beliefs(play(store, ops, preset, one_trip=True, whole_past=True))
    assert beliefs(play(store, ops, preset, one_trip=True)) == whole
    assert beliefs(play(store, ops, preset, one_trip=True, walk_up_to=0)) == whole


@settings(compared, max_examples=EXAMPLES // 4)
@sequences
def test_with_the_models_on_a_facts_past_read_from_its_newest_window_on_believes_the_same(
    store: Store, offline_models: tuple[Any, Any], ops: list[tuple[Any, ...]], preset: str
) -> None:
    """As above with the offline models on, where a draft's own fact is often among its
    nearest slots: read once, by its key and cut (walked or by index), it decides what every
    version read does."""
    models = Detector(*offline_models)
    whole = beliefs(play(store, ops, preset, one_trip=True, whole_past=True, detector=models))
    assert beliefs(play(store, ops, preset, one_trip=True, detector=models)) == whole
    indexed = play(store, ops, preset, one_trip=True, walk_up_to=0, detector=models)
    assert beliefs(indexed) == whole


@contextmanager
def state_reads(store: Store) -> Iterator[list[tuple[dict[str, Any], dict[str, Any]]]]:
    """The write path's reads (write/state) sent meanwhile: each one's parameters and row."""
    sent: list[tuple[dict[str, Any], dict[str, Any]]] = []
    real = store.read_leader

    def read(name: str, **params: Any) -> Any:
        rows = real(name, **params)
        if name.endswith("write/state"):
            sent.append((params, rows[0]))
        return rows

    store.read_leader = read  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        del store.read_leader  # the class's again


def rewritten_30_times(
    store: Store, detector: Detector | None, **tuning: Any
) -> tuple[BeliefGraph, Clock]:
    """An empty database where Ana's city was written 30 times, a day apart, by the client
    returned (its ``Tuning`` from ``tuning``)."""
    wipe(store)
    clock = Clock()
    bg = BeliefGraph(store, clock=clock, detector=detector, tuning=Tuning(**tuning))  # type: ignore[arg-type]
    for i in range(30):
        clock.set(clock.now + timedelta(days=1))
        bg.remember(city(f"city-{i}"))
    return bg, clock


@pytest.mark.parametrize(
    ("models", "carry", "reads_for_an_update", "reads_for_a_late_draft"),
    [
        # read first: from the newest window on, then from the draft's start
        (False, False, [1], [22]),
        # decided on what the client kept, then every past version read
        (False, True, [], [30]),
        # the models on: the fact's own slot is the draft's nearest, and is read by its key
        (True, False, [1], [22]),
    ],
)
def test_a_write_reads_a_long_lived_facts_recent_versions_not_its_whole_history(
    store: Store,
    request: pytest.FixtureRequest,
    models: bool,
    carry: bool,
    reads_for_an_update: list[int],
    reads_for_a_late_draft: list[int],
) -> None:
    """A fact rewritten 30 times, a day apart: an update reads the newest version's predecessor
    (or nothing, when the client kept the fact), not the 30 superseded ones; a draft about a
    moment 20 days back is placed among the versions from then on (read, or all of them read
    once the kept ones do not reach back that far). With the models on, the fact's slot is
    among the draft's nearest too, and is read once, by its key, cut alike."""
    detector = Detector(*request.getfixturevalue("offline_models")) if models else None
    bg, clock = rewritten_30_times(store, detector, carry=carry)

    def past_read(sent: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[int]:
        # The fact's slot is the only one stored: by its key, or by id as a draft's nearest.
        return [len(s["past"]) for _, row in sent for s in row["slots"] + row["by_id"]]

    with state_reads(store) as sent:
        # The new value supersedes (the contradiction model may flag it a conflict too).
        assert bg.remember(city("city-30")).verdict in {"UPDATE", "CONFLICT"}
        assert past_read(sent) == reads_for_an_update
        sent.clear()
        start = clock.now - timedelta(days=20, hours=12)
        late = bg.remember(city("city-8", valid_from=start, valid_to=start + timedelta(hours=6)))
    assert late.verdict == "SAME"  # city-8 held then (days 9 to 10): reinforced
    assert past_read(sent) == reads_for_a_late_draft
    current = bg.current(NAMESPACES[0], "ana", "city")
    assert current is not None and not isinstance(current, list)
    assert current.object == "city-30"


@pytest.mark.slow
def test_with_the_models_on_a_nearest_facts_past_is_read_from_its_newest_window_on(
    store: Store, offline_models: tuple[Any, Any]
) -> None:
    """With the models on, a draft's nearest slots are read with its own, by id, for the
    contradiction check, which looks at their current claims: a nearest fact rewritten 30 times
    comes back with its newest past version, not all 29 (until 2026-12-04 every one, whatever
    its history), and the draft is decided alike."""
    bg, _ = rewritten_30_times(store, Detector(*offline_models), carry=False)
    hometown = ClaimDraft(
        namespace=NAMESPACES[0], subject="ana", predicate="hometown", object="city-3", text="city-3"
    )
    with state_reads(store) as sent:
        result = bg.remember(hometown)
    past_read = [
        (s["predicate"], len(s["past"])) for _, row in sent for s in row["slots"] + row["by_id"]
    ]
    assert result.verdict == "NEW"
    assert sorted(past_read) == [("born_in", 0), ("lives_in", 1)]  # hometown, city


@pytest.mark.parametrize("whole_past", [True, False])
def test_a_text_only_draft_about_the_past_of_a_nearest_fact_is_decided_on_all_its_versions(
    store: Store, offline_models: tuple[Any, Any], whole_past: bool
) -> None:
    """A text-only draft that restates a fact rewritten 30 times, back-dated 20 days, with the
    models on: it goes to that fact, read by id as its nearest, cut to its newest versions; it
    starts before them, so the batch is read again with every version (``whole_past``: read
    whole at once) and decided alike either way."""
    bg, clock = rewritten_30_times(
        store, Detector(*offline_models), carry=False, whole_past=whole_past
    )
    start = clock.now - timedelta(days=20, hours=12)
    restated = ClaimDraft(
        namespace=NAMESPACES[0],
        text="city-29",
        valid_from=start,
        valid_to=start + timedelta(hours=6),
    )
    with state_reads(store) as sent:
        with pytest.raises(ConflictError, match=r"valid_from: the window from .* disagrees"):
            bg.remember(restated)  # city-8 held then
    past_read = [len(s["past"]) for _, row in sent for s in row["by_id"]]
    assert past_read == ([29] if whole_past else [1, 29])


def past_read_by_id(sent: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[int]:
    """How many past versions each read of ``sent`` held of each fact it read by id."""
    return [len(s["past"]) for _, row in sent for s in row["by_id"]]


@pytest.mark.parametrize("whole_past", [True, False])
def test_an_operation_on_a_long_lived_facts_claim_reads_its_newest_past_version(
    store: Store, whole_past: bool
) -> None:
    """Retracting the current value of a fact rewritten 30 times, then rolling that back:
    each reads the fact's newest past version, not all 29 (until 2026-12-05 every operation on
    a claim read its fact whole, ``whole_past``), and does what it did."""
    bg, _ = rewritten_30_times(store, None, carry=False, whole_past=whole_past)
    head = bg.current(NAMESPACES[0], "ana", "city")
    assert head is not None and not isinstance(head, list)
    with state_reads(store) as sent:
        retraction = bg.contract(NAMESPACES[0], head.id, retract=True, reason="wrong")
        assert past_read_by_id(sent) == [29 if whole_past else 1]
        assert retraction.retired == [head.id]
        assert bg.current(NAMESPACES[0], "ana", "city") is None
        sent.clear()
        undone = bg.rollback(NAMESPACES[0], retraction.revision_id)
    # city-29 retracted, the newest window is city-28's, and city-27's ends where it starts.
    assert past_read_by_id(sent) == [29 if whole_past else 2]
    back = bg.current(NAMESPACES[0], "ana", "city")
    assert back is not None and not isinstance(back, list)
    assert (back.object, back.id) == ("city-29", undone.restored[0])


@pytest.mark.parametrize("how", ["confirm", "resolve"])
@pytest.mark.parametrize("whole_past", [True, False])
def test_keeping_a_correction_that_reaches_before_the_newest_versions_reads_them_all(
    store: Store, whole_past: bool, how: str
) -> None:
    """A correction of a fact rewritten 30 times, back to 20 days ago, held for confirmation
    (below the confidence floor): confirmed, or kept in its conflict with the current value, it
    retracts every version from then on, so its read cut to the newest past version is read
    again whole (or whole at once, ``whole_past``); the value it names holds from then to now."""
    bg, clock = rewritten_30_times(store, None, carry=False, whole_past=whole_past)
    start = clock.now - timedelta(days=20, hours=12)  # city-8 held then
    fix = bg.remember(city("city-8", valid_from=start, correction=True, confidence=0.1))
    assert fix.decision == "hold_pending"
    with state_reads(store) as sent:
        if how == "confirm":
            kept = bg.confirm(NAMESPACES[0], fix.added[0])
        else:
            [conflict] = bg.conflicts(NAMESPACES[0], open_only=True)
            kept = bg.resolve(
                NAMESPACES[0], conflict.claim.id, conflict.rival.id, keep=fix.added[0]
            )
    assert past_read_by_id(sent) == ([29] if whole_past else [1, 29])
    assert len(kept.retired) == 21  # city-9 to city-29
    for moment in (start + timedelta(days=5), clock.now):
        held = bg.as_of(NAMESPACES[0], "ana", "city", valid_at=moment)
        assert held is not None and not isinstance(held, list)
        assert held.object == "city-8"


@pytest.mark.slow
def test_the_write_paths_read_of_a_long_lived_fact_reads_its_recent_claims_by_index(
    store: Store,
) -> None:
    """Facts rewritten every day for 3, 20 and 120 days, then written again by a client that
    reads first: the write path's read reads as many claims of either long fact, by index,
    fewer than walking the shorter one would, however long its history; the short one is walked,
    its 3 claims. A draft about ten days back reads the versions from then on: as many of either
    (some twice: by their start and by their end)."""
    wipe(store)
    clock = Clock()
    writer = BeliefGraph(store, clock=clock)  # type: ignore[arg-type]
    lengths = {"atlas": 3, "borealis": 20, "cygnus": 120}
    for day in range(120):
        clock.set(clock.now + timedelta(days=1))
        for subject, versions in lengths.items():
            if day >= 120 - versions:
                writer.remember(city(f"city-{day}", subject))
    reader = BeliefGraph(store, clock=clock, tuning=Tuning(carry=False))  # type: ignore[arg-type]

    def claims(params: dict[str, Any], walk_up_to: int) -> int:
        batch = {**params["batch"], "walk_up_to": walk_up_to}
        return claims_read(store, "write/state", **{**params, "batch": batch})

    clock.set(clock.now + timedelta(days=1))
    start = clock.now - timedelta(days=10, hours=12)
    with state_reads(store) as reads:
        updates = {s: reader.remember(city("city-new", s)) for s in lengths}
        then = {"valid_from": start, "valid_to": start + timedelta(hours=1)}
        late = [reader.remember(city("city-109", s, **then)) for s in ("borealis", "cygnus")]
    sent = [params for params, _ in reads]
    assert {r.decision for r in updates.values()} == {"supersede"}
    assert {r.verdict for r in late} == {"SAME"}  # city-109 held then: reinforced
    for subject in lengths:
        current = reader.current(NAMESPACES[0], subject, "city")
        assert current is not None and not isinstance(current, list)
        assert current.object == "city-new"
    update_reads, late_reads = sent[: len(lengths)], sent[len(lengths) :]
    engine = [claims(p, WALK_UP_TO) for p in update_reads]
    walked = [claims(p, 10**9) for p in update_reads]
    assert engine[0] == walked[0] == 4  # atlas: 3 claims and the new one, walked
    assert engine[1] == engine[2] < walked[1] < walked[2], (engine, walked)
    engine = [claims(p, WALK_UP_TO) for p in late_reads]
    walked = [claims(p, 10**9) for p in late_reads]
    assert engine[0] == engine[1] < walked[1], (engine, walked)


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The write path's statements sent meanwhile, by name: each write/apply as ``applied``
    or ``refused`` (a slot was not as planned: the statement changed nothing)."""
    sent: list[str] = []
    real_read, real_write = store.read_leader, store.write_once

    def read(name: str, **params: Any) -> Any:
        sent.append(name)
        return real_read(name, **params)

    def write(name: str, **params: Any) -> Any:
        rows = real_write(name, **params)
        sent.append(f"{name} {'applied' if rows[0]['ok'] else 'refused'}")
        return rows

    store.read_leader = read  # type: ignore[method-assign]
    store.write_once = write  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        # The class's again (an instance's own would outlive the test).
        del store.read_leader, store.write_once


APPLIED, REFUSED = "write/apply applied", "write/apply refused"


def test_a_new_fact_costs_one_statement_and_one_written_before_two_with_no_read(
    store: Store,
) -> None:
    """A small structural remember reads nothing: a fact the client wrote is decided on what
    its write left, any other as not there yet. The apply finds out: for a fact another client
    wrote (or wrote since), it changes nothing, returns the slot as it found it under its lock,
    and the write is decided again on that: two statements, the answers of a read's."""
    wipe(store)
    ns = NAMESPACES[0]
    clock = Clock()
    mine, other = BeliefGraph(store, clock=clock), BeliefGraph(store, clock=clock)
    with statements(store) as sent:
        lisbon = mine.remember(city("Lisbon"))
        assert sent == [APPLIED], "a new fact: the apply alone"
        again = mine.remember(city("Lisbon"))
        assert sent == [APPLIED] * 2, "a fact this client wrote: the apply alone"
        porto = other.remember(city("Porto"))
        assert sent == [APPLIED] * 2 + [REFUSED, APPLIED], "another client's fact: two"
        oslo = mine.remember(city("Oslo"))
        assert sent == [APPLIED] * 2 + [REFUSED, APPLIED] * 2, "changed since mine: two"
    assert lisbon.verdict == "NEW" and again.decision == "reinforce"
    assert porto.decision == "supersede" and porto.retired == lisbon.added
    assert oslo.decision == "supersede" and oslo.retired == porto.added
    assert oslo.slot_id == porto.slot_id == lisbon.slot_id
    slot = store.run_literal(
        "MATCH (s:Slot {namespace: $ns}) RETURN s.id AS id, s.seq AS seq, s.versions AS versions",
        ns=ns,
    )
    assert slot == [{"id": lisbon.slot_id, "seq": 4, "versions": 3}], (
        "one slot, each write counted once: the refused statements left no trace"
    )
    assert [c.object for c in mine.history(ns, "ana", "city")] == ["Lisbon", "Porto", "Oslo"]
    assert mine.current(ns, "ana", "city").object == "Oslo"  # type: ignore[union-attr]


def test_a_client_whose_facts_were_mostly_there_reads_first_until_new_ones_come_again(
    store: Store,
) -> None:
    """A client that keeps writing facts others wrote stops deciding them blind: once fewer
    than a third of the facts it did not hold were new (one new counted before any is seen),
    it reads first (a read and the apply, no refused statement); facts that turn out new bring
    it back to one statement a write."""
    wipe(store)
    clock = Clock()
    BeliefGraph(store, clock=clock).ingest([city(f"Lisbon {i}", f"person-{i}") for i in range(5)])
    bg = BeliefGraph(store, clock=clock)
    with statements(store) as sent:
        for i in range(4):
            bg.remember(city(f"Porto {i}", f"person-{i}"))
        assert sent == [REFUSED, APPLIED] * 3 + ["write/state", APPLIED], (
            "blind while 1 + 0 new of 1 + 2 written was a third; then it reads first"
        )
        sent.clear()
        bg.remember(city("Oslo", "newcomer-1"))
        bg.remember(city("Oslo", "newcomer-2"))
        assert sent == ["write/state", APPLIED, APPLIED], (
            "1 + 0 of 1 + 4 new: reads first and finds a new fact; 1 + 1 of 1 + 5: blind again"
        )
        sent.clear()
        bg.remember(city("Faro", "person-4"))
        assert sent == [REFUSED, APPLIED]
    assert bg.current(NAMESPACES[0], "person-4", "city").object == "Faro"  # type: ignore[union-attr]
    assert [c.object for c in bg.history(NAMESPACES[0], "person-0", "city")] == [
        "Lisbon 0",
        "Porto 0",
    ]


def held(bg: BeliefGraph) -> str:
    """What the client's parts hold, their fields written out (what its writer carries among
    them)."""
    return repr([vars(part) for part in vars(bg).values() if hasattr(part, "__dict__")])


def test_an_erase_leaves_nothing_of_the_erased_facts_in_the_clients_memory(store: Store) -> None:
    """What a client carries of the facts it wrote goes when it erases them: afterwards its
    next write of such a fact is decided as a new fact's (an erased fact's slot is gone)
    instead of on what the client held."""
    wipe(store)
    ns = NAMESPACES[0]
    bg = BeliefGraph(store, clock=Clock())
    bg.remember(city("Lisbon, where Ana keeps a flat on Rua Augusta"))
    bg.remember(city("Lisbon, where Ana keeps a flat on Rua Augusta"))
    assert "Rua Augusta" in held(bg), "the write carried its fact back"
    bg.erase(ns, subject="ana")
    assert "Rua Augusta" not in held(bg)
    again = bg.remember(city("Porto"))
    assert again.verdict == "NEW" and again.retired == []


def refused_between(store: Store, *, carry: bool) -> tuple[Any, ...]:
    """On an empty database: a window of a fact, a later value, a window that overlaps the
    first (refused), then a plain write of the fact; the answers, the clock, the next id and
    the state reads made."""
    wipe(store)
    ids = itertools.count()
    clock = Clock()
    bg = BeliefGraph(
        store, clock=clock, tuning=Tuning(carry=carry, ids=lambda: f"id-{next(ids):05d}")
    )
    start = clock.now

    def window(value: str, begin: int, end: int) -> ClaimDraft:
        return city(
            value, valid_from=start - timedelta(days=begin), valid_to=start - timedelta(days=end)
        )

    with statements(store) as sent:
        first = bg.remember(window("Lisbon", 40, 10))
        then = bg.remember(city("Porto", valid_from=start - timedelta(days=5)))
        with pytest.raises(ConflictError) as refused:
            bg.remember(window("Oslo", 30, 20))  # Lisbon's, an older version's window
        after = bg.remember(city("Madrid"))
    reads = [name for name in sent if not name.startswith("write/apply")]
    answers = [first.model_dump(), then.model_dump(), str(refused.value), after.model_dump()]
    return answers, clock.now, next(ids), reads


def test_a_refusal_on_a_carried_state_is_the_general_paths_answer_after_one_read(
    store: Store,
) -> None:
    """A write refused on the state this client's last write of the fact carried back: one
    read finds that state unchanged and the refusal stands, in the words of a client that
    reads before every write, with the clock read and the ids drawn as often (the next
    write's ids and moments show it); the refused write changed nothing, so the write after it
    is decided on the carried state again, without a read."""
    general = refused_between(store, carry=False)
    carried = refused_between(store, carry=True)
    assert "disagrees with claim" in general[0][2]
    assert carried[:3] == general[:3]
    assert general[3] == ["write/state"] * 4
    assert carried[3] == ["write/state"], "only the refused write read"
    assert BeliefGraph(store).current(NAMESPACES[0], "ana", "city").object == "Madrid"  # type: ignore[union-attr]


def test_a_stale_read_writes_nothing_and_plans_again(store: Store) -> None:
    """A slot that changed between the read and the one-statement apply: the statement changes
    nothing (no slot's write counter moves, a slot it created for the batch goes again) and the
    batch is read and decided again."""
    wipe(store)
    ns = NAMESPACES[0]

    bg = BeliefGraph(store, clock=Clock())
    first = bg.remember(city("Lisbon"))
    real_read = store.read_leader
    sneaked: list[RevisionResult] = []

    def read_then_sneak(name: str, **params: Any) -> Any:
        rows = real_read(name, **params)
        if name == "write/state" and not sneaked:
            sneaked.append(first)  # once
            # Another writer commits on the same fact right after this read.
            sneaked.append(BeliefGraph(store, clock=Clock()).remember(city("Porto")))
        return rows

    store.read_leader = read_then_sneak  # type: ignore[method-assign]
    try:
        new, third = bg.ingest([city("Oslo", "ben"), city("Oslo")])
    finally:
        del store.read_leader  # the class's again (an instance's own would outlive the test)
    assert third.decision == "supersede"
    assert third.retired == sneaked[1].added, "decided again on the state after the other write"
    slots = store.run_literal(
        "MATCH (s:Slot {namespace: $ns}) RETURN s.subject_key AS key, s.id AS id, s.seq AS seq "
        "ORDER BY key",
        ns=ns,
    )
    assert [(r["key"], r["seq"]) for r in slots] == [("ana", 3), ("ben", 1)], (
        "each write counted once: the refused attempt left no trace"
    )
    assert slots[1]["id"] == new.slot_id
    assert bg.current(ns, "ana", "city").object == "Oslo"  # type: ignore[union-attr]


INGESTS = st.lists(
    st.one_of(
        # drafts ingested ``size`` per batch; ``again``: the previous ingest's drafts first, with
        # their revision ids (replays), then these
        st.tuples(
            st.just("ingest"),
            st.lists(draft_parts, min_size=1, max_size=10),
            st.integers(1, 4),
            st.booleans(),
        ),
        st.tuples(st.just("wait"), st.integers(1, 60)),
        # a claim that depends on (or supports) a stored one, remembered on its own: a later
        # batch that retires the premise flags it, maybe while the next batch reads its fact
        st.tuples(st.just("depend"), st.integers(0, 1_000), draft_parts, st.booleans()),
    ),
    min_size=1,
    max_size=6,
)


def play_ingest(
    store: Store, ops: list[tuple[Any, ...]], preset: str, *, one_trip: bool
) -> list[Any]:
    """``ingest`` calls on an empty database: with ``one_trip`` pipelined (the next batch
    planned while the statement of the one before runs), else batch after batch on the general
    path; what they answered and the export of every namespace."""
    wipe(store)
    ids = itertools.count()
    tuning = Tuning(one_trip=one_trip, ids=lambda: f"id-{next(ids):05d}")
    bg = BeliefGraph(store, policy=Policy(preset=preset), clock=Clock(), tuning=tuning)  # type: ignore[arg-type]
    run = Run(store, bg)
    answers: list[Any] = []
    last: tuple[list[ClaimDraft], list[str]] = ([], [])
    for op in run.steps(ops):
        if op[0] == "wait":
            run.clock.set(run.clock.now + timedelta(days=op[1]))
            continue
        if op[0] == "depend":
            if run.claims:
                ns, premise = run.claims[op[1] % len(run.claims)]
                link = {"depends_on": (premise,)} if op[3] else {"supports": (premise,)}
                parts = (NAMESPACES.index(ns), *op[2][1:])
                try:
                    result = bg.remember(said(run, parts, **link), revision_id=run.rid())
                    answers.append(result.model_dump())
                except (ConflictError, NotFound, ValueError) as exc:
                    answers.append(f"{type(exc).__name__}: {exc}")
            continue
        _, parts, size, again = op
        fresh = [said(run, p) for p in parts]
        rids = [run.rid() for _ in fresh]
        drafts, revisions = (last[0] + fresh, last[1] + rids) if again else (fresh, rids)
        last = (fresh, rids)
        try:
            done = bg.ingest(drafts, batch_size=size, revision_ids=revisions)
            answers += [r.model_dump() for r in done]
            for d, r in zip(drafts, done, strict=True):
                run.claims += [(d.namespace, c) for c in r.added]
        except (ConflictError, NotFound, ValueError) as exc:
            answers.append(f"{type(exc).__name__}: {exc}")
    for ns in NAMESPACES:
        out = io.StringIO()
        export_namespace(store, ns, out)
        answers.append(
            sorted(
                json.dumps(row, sort_keys=True)
                for row in (json.loads(line) for line in out.getvalue().splitlines())
                if row["kind"] not in ("header", "footer")
            )
        )
    return answers


@settings(
    max_examples=EXAMPLES // 2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@example(  # batches of one, all on one fact: each planned on the plan of the one in flight
    ops=[("ingest", [(0, 0, 0, o, "observed") for o in (0, 1, 1, 2, 0)], 1, False)],
    preset="recency",
)
@example(  # a re-run: replays and fresh drafts of the same facts in the same batches
    ops=[
        ("ingest", [(0, 0, 0, 0, "observed"), (0, 1, 0, 1, "observed")], 1, False),
        ("ingest", [(0, 0, 0, 2, "observed"), (0, 1, 0, 1, "inferred")], 2, True),
    ],
    preset="freshness",
)
@example(  # a dependent's premise retired by one batch while the next reads the dependent's fact
    ops=[
        ("ingest", [(0, 0, 0, 0, "observed")], 1, False),
        ("depend", 0, (0, 1, 1, 3, "observed"), True),
        ("ingest", [(0, 0, 0, 1, "observed"), (0, 1, 1, 4, "observed")], 1, False),
    ],
    preset="recency",
)
@given(
    ops=INGESTS,
    preset=st.sampled_from(["recency", "conservative", "freshness"]),
)
def test_pipelined_ingest_leaves_the_graph_of_batch_after_batch(
    store: Store, ops: list[tuple[Any, ...]], preset: str
) -> None:
    """Pipelined ingest (batches sharing facts or not, replays among them) answers and stores
    exactly what the general path does batch after batch."""
    general = play_ingest(store, ops, preset, one_trip=False)
    assert play_ingest(store, ops, preset, one_trip=True) == general


def test_a_batch_in_flight_refused_is_run_again_and_so_is_the_next(
    store: Store, monkeypatch: Any
) -> None:
    """Another writer commits on a fact between the plan of the batch in flight and its
    statement: the statement is refused, the batch is read and decided again, and so is the
    next one, which was planned on the refused plan."""
    from belief_graph.write import ingest

    wipe(store)
    ns = NAMESPACES[0]

    clock = Clock()
    bg, other = BeliefGraph(store, clock=clock), BeliefGraph(store, clock=clock)
    real = ingest.send
    sneaked: list[RevisionResult] = []

    def sneak_first(*args: Any) -> Any:
        if not sneaked:
            sneaked.append(other.remember(city("Porto")))
        return real(*args)

    monkeypatch.setattr(ingest, "send", sneak_first)
    lisbon, oslo = bg.ingest([city("Lisbon"), city("Oslo")], batch_size=1)
    assert lisbon.decision == "supersede" and lisbon.retired == sneaked[0].added
    assert oslo.decision == "supersede" and oslo.retired == lisbon.added
    assert bg.current(ns, "ana", "city").object == "Oslo"  # type: ignore[union-attr]
    seq = store.run_literal("MATCH (s:Slot {namespace: $ns}) RETURN s.seq AS seq", ns=ns)
    assert [r["seq"] for r in seq] == [3], "three writes, the refused one left no trace"


def test_a_refusal_in_the_next_batch_keeps_the_batch_in_flight(store: Store) -> None:
    """A draft refused while the batch before it is in flight: that batch commits, the error
    names the refused draft, and nothing of its batch is written."""
    wipe(store)
    ns = NAMESPACES[0]
    clock = Clock()
    bg = BeliefGraph(store, clock=clock)

    future = clock.now + timedelta(days=30)
    now = clock.now
    batch = [as_history(city("Lisbon"), now), as_history(city("Porto"), now)]
    batch.append(as_history(city("Oslo"), future))
    try:
        bg.import_history(batch, batch_size=2, actor="migration")
    except ValueError as exc:
        assert "recorded_at" in str(exc)
    else:
        raise AssertionError("the draft from the future was taken")
    assert bg.current(ns, "ana", "city").object == "Porto"  # type: ignore[union-attr]


def test_a_read_is_one_auto_commit_and_a_lost_connection_falls_back_to_a_retried_one(
    store: Store,
) -> None:
    """``current`` (every public read) is one auto-commit read statement: one round trip.
    When that fails in a way a retry may fix, the read is run again as a managed read
    transaction with the driver's retries, and still answers."""
    import neo4j
    from neo4j.exceptions import ServiceUnavailable

    wipe(store)
    bg = BeliefGraph(store, clock=Clock())
    bg.remember(city("Lisbon"))
    sessions: list[str] = []
    real = store._session

    def counted(access: str = neo4j.WRITE_ACCESS) -> Any:
        sessions.append(access)
        return real(access)

    def lost(access: str = neo4j.WRITE_ACCESS) -> Any:
        sessions.append(access)
        raise ServiceUnavailable("the connection was lost")

    try:
        store._session = counted  # type: ignore[method-assign]
        assert bg.current(NAMESPACES[0], "ana", "city").object == "Lisbon"  # type: ignore[union-attr]
        assert sessions == [neo4j.READ_ACCESS]
        sessions.clear()
        store._session = lost  # type: ignore[method-assign]
        assert bg.current(NAMESPACES[0], "ana", "city").object == "Lisbon"  # type: ignore[union-attr]
        assert sessions == [neo4j.READ_ACCESS], "the retry ran as a managed transaction"
    finally:
        store._session = real  # type: ignore[method-assign]
