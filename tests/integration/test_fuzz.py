"""Hostile input against every public entry point (hypothesis) and a few CLI commands.

Each input is either refused with an error naming the field (pydantic ``ValidationError``,
``ValueError`` or one of ours) and nothing written, or stored and read back byte-identical. Never
a neo4j driver exception, a server error or a partial write. A session counter reports how many
generated cases ran.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from typer.testing import CliRunner

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.cli.app import app
from belief_graph.errors import BeliefGraphError, StoreUnavailable
from belief_graph.server.provide import ConnectionInfo
from belief_graph.store import Store
from belief_graph.testing.examples import examples
from belief_graph.testing.graph import counts, q, wipe

CASES: Counter[str] = Counter()
NS = "fuzz:ns"
EXAMPLES = examples(60)

INJECTIONS = [
    "'}) MATCH (n) DETACH DELETE n //",
    '"}) MATCH (n) DETACH DELETE n RETURN 1 //',
    "`; DROP CONSTRAINT claim_id_unique; //",
    "$namespace",
    "{namespace: 'other'}",
    '{"kind": "node", "label": "Claim", "props": {"id": "x"}}',
    '"},{"kind":"edge","type":"SUPERSEDES"}',
    '\\u0000\\n\\"',
    "<script>alert(1)</script>",
    "Robert'); DROP TABLE claims;--",
    "𝕳𝖊𝖑𝖑𝖔 🧠 ע\u200fברית 中文 \u202eevil",
    "e\u0301 vs \u00e9",  # combining vs precomposed: must not be conflated in storage
]
BIG = "x" * 1_000_000
CONTROL = "".join(chr(c) for c in range(0, 32)) + "\x7f"


@pytest.fixture(scope="session", autouse=True)
def report_cases() -> Iterator[None]:
    yield
    if CASES:
        total = sum(CASES.values())
        detail = ", ".join(f"{k}={v}" for k, v in sorted(CASES.items()))
        print(f"\nfuzz: {total} generated cases ran ({detail})")


# -- strategies -------------------------------------------------------------------------------

# Any code point, lone surrogates included (st.text leaves them out by default).
any_char = st.one_of(st.characters(), st.characters(categories=["Cs"]), st.sampled_from(CONTROL))
hostile = st.one_of(
    st.text(any_char, max_size=40),
    st.sampled_from(INJECTIONS),
    st.just(BIG),
    st.just(""),
    st.just("   "),
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=40),
)
# What a read or an operation takes: UTF-8-encodable text (lone surrogates have their own test
# below).
encodable = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=40),
    st.sampled_from(INJECTIONS),
    st.just(BIG),
    st.just(""),
)
# Whole-minute offsets (Bolt carries no finer ones; the seconds case is pinned below).
offsets = st.integers(-23 * 60, 23 * 60).map(lambda m: timezone(timedelta(minutes=m)))
# Neo4j stores years 1..9999 in UTC; keep a day's margin (the edges are pinned below).
moments = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),  # naive
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=offsets),
)
confidences = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1.0000001, 0.0, 1.0]),
)
sources = st.one_of(
    st.sampled_from(["human_verified", "user_stated", "observed", "tool_output", "inferred"]),
    hostile,
)


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


draft_fields = st.fixed_dictionaries(
    {"namespace": st.one_of(st.sampled_from([NS, "fuzz:other"]), hostile), "text": hostile},
    optional={
        "subject": maybe(hostile),
        "predicate": maybe(st.one_of(hostile, st.sampled_from(["city", "likes", "uses"]))),
        "object": maybe(hostile),
        "source_type": sources,
        "confidence": confidences,
        "author": maybe(hostile),
        "origin": maybe(hostile),
        "kind": st.one_of(st.sampled_from(["evidence", "policy"]), hostile),
        "valid_from": moments,
        "valid_to": moments,
        "recorded_at": moments,
        "episode_id": maybe(hostile),
        "episode_content": maybe(hostile),
        "correction": st.booleans(),
        "id": maybe(hostile),
    },
)

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


# -- the contract ---------------------------------------------------------------------------


def names_field(exc: Exception, fields: set[str]) -> bool:
    """The error says which input was wrong: in a ``loc``, or as a word of the message (so that
    "valid" does not count as naming ``id``)."""
    if isinstance(exc, ValidationError):
        return bool({str(part) for e in exc.errors() for part in e["loc"]} & fields)
    return any(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", str(exc)) for f in fields)


def refused_cleanly(exc: Exception, fields: set[str]) -> None:
    assert not type(exc).__module__.startswith("neo4j"), f"driver error leaked: {exc!r}"
    assert not isinstance(exc, StoreUnavailable), f"server error: {exc!r}"
    assert isinstance(exc, ValidationError | ValueError | BeliefGraphError), repr(exc)
    assert not isinstance(exc, UnicodeError), f"encoding error leaked: {exc!r}"
    assert names_field(exc, fields), f"{exc!r} names none of {sorted(fields)}"


def attempt(store: Store, fields: set[str], call: Callable[[], Any]) -> tuple[bool, Any]:
    """Run ``call``; on refusal, check the error and that the graph did not change."""
    before = counts(store)
    try:
        return True, call()
    except Exception as exc:  # judged, not swallowed
        refused_cleanly(exc, fields)
        assert counts(store) == before, f"partial write before {exc!r}"
        return False, None


# -- drafts and remember ----------------------------------------------------------------------


@FUZZ
@given(fields=draft_fields)
def test_remember_stores_exactly_or_refuses(
    store: Store, make_bg: Callable[..., BeliefGraph], fields: dict[str, Any]
) -> None:
    CASES["remember"] += 1
    bg = make_bg()
    try:
        draft = ClaimDraft(**fields)
    except ValidationError as exc:
        refused_cleanly(exc, set(fields) | {"subject", "predicate", "object", "valid_to"})
        return
    ok, result = attempt(store, set(fields), lambda: bg.remember(draft))
    if not ok:
        return
    assert result.added or result.reinforced
    claim = bg.get(draft.namespace, result.claim_id)
    for name in ("namespace", "subject", "object", "text", "author", "origin", "kind"):
        assert getattr(claim, name) == getattr(draft, name), name
    assert claim.confidence == draft.confidence and claim.source_type == draft.source_type
    if draft.valid_from is not None:
        assert claim.valid_from == draft.valid_from
    if draft.predicate is not None:
        raw = q(store, "MATCH (c:Claim {id: $id}) RETURN c.predicate_text AS p", id=claim.id)
        assert raw[0]["p"] == draft.predicate
    if draft.episode_content is not None:
        episodes = bg.lineage(draft.namespace, claim.id).episodes
        assert [e.content for e in episodes] == [draft.episode_content]


@FUZZ
@given(drafts=st.lists(draft_fields, min_size=1, max_size=4), batch=st.integers(-2, 3))
def test_ingest_refuses_whole_batches(
    store: Store, make_bg: Callable[..., BeliefGraph], drafts: list[dict[str, Any]], batch: int
) -> None:
    CASES["ingest"] += 1
    bg = make_bg()
    try:
        built = [ClaimDraft(**d) for d in drafts]
    except ValidationError:
        return  # covered field by field above
    ok, results = attempt(
        store,
        {"batch_size", "draft", "id", "valid_from", "valid_to", "recorded_at"},
        lambda: bg.ingest(built, batch_size=batch),
    )
    if ok:
        assert len(results) == len(built)
        for draft, result in zip(built, results, strict=True):
            if result.added:
                assert bg.get(draft.namespace, result.added[0]).text == draft.text


# -- reads and operations on hostile arguments ----------------------------------------------


@pytest.fixture
def seeded(make_bg: Callable[..., BeliefGraph]) -> BeliefGraph:
    bg = make_bg()
    bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="ana",
            predicate="city",
            object="Oslo",
            text="Ana lives in Oslo.",
            episode_id="ep-1",
            episode_content="chat: I moved to Oslo",
        )
    )
    return bg


READS = {
    "current": lambda bg, a, b, c: bg.current(a, b, c),
    "history": lambda bg, a, b, c: bg.history(a, b, c),
    "beliefs": lambda bg, a, b, c: bg.beliefs(a, b),
    "get": lambda bg, a, b, c: bg.get(a, b),
    "lineage": lambda bg, a, b, c: bg.lineage(a, b),
    "conflicts": lambda bg, a, b, c: bg.conflicts(a),
    "pending": lambda bg, a, b, c: bg.pending(a),
    "needs_review": lambda bg, a, b, c: bg.needs_review(a),
}
READ_FIELDS = {"namespace", "subject", "predicate", "claim_id"}


@FUZZ
@given(read=st.sampled_from(sorted(READS)), a=encodable, b=encodable, c=encodable)
def test_reads_never_leak_neo4j_errors(
    store: Store, seeded: BeliefGraph, read: str, a: str, b: str, c: str
) -> None:
    CASES[f"read:{read}"] += 1
    ok, got = attempt(store, READ_FIELDS, lambda: READS[read](seeded, a, b, c))
    if ok and a != NS:
        items = got if isinstance(got, list) else [got] if got is not None else []
        assert all(getattr(x, "namespace", a) == a for x in items)


@FUZZ
@given(a=encodable, b=encodable, valid_at=moments, known_at=moments)
def test_as_of_refuses_naive_times_by_name(
    store: Store,
    seeded: BeliefGraph,
    a: str,
    b: str,
    valid_at: datetime | None,
    known_at: datetime | None,
) -> None:
    CASES["as_of"] += 1
    ok, _ = attempt(
        store,
        READ_FIELDS | {"valid_at", "known_at"},
        lambda: seeded.as_of(a, b, "city", valid_at=valid_at, known_at=known_at),
    )
    naive = any(m is not None and m.tzinfo is None for m in (valid_at, known_at))
    assert not (ok and naive), "a naive datetime was accepted"


OPS = {
    "contract": lambda bg, ns, x, when: bg.contract(ns, x, retract=when is None, valid_to=when),
    "confirm": lambda bg, ns, x, when: bg.confirm(ns, x, actor=x),
    "reject": lambda bg, ns, x, when: bg.reject(ns, x, actor=x),
    "rectify": lambda bg, ns, x, when: bg.rectify(ns, x, object=x, text=x, actor=x),
    "rollback": lambda bg, ns, x, when: bg.rollback(ns, x, new_revision_id=x),
    "erase-claims": lambda bg, ns, x, when: bg.erase(ns, claim_ids=[x]),
    "erase-subject": lambda bg, ns, x, when: bg.erase(ns, subject=x),
}
OP_FIELDS = {
    "namespace",
    "claim_id",
    "revision_id",
    "valid_to",
    "object",
    "text",
    "actor",
    "subject",
    "claim_ids",
    "new_revision_id",
}


@FUZZ
@given(op=st.sampled_from(sorted(OPS)), ns=encodable, x=encodable, when=moments)
def test_operations_on_hostile_ids_refuse_or_touch_nothing(
    store: Store, seeded: BeliefGraph, op: str, ns: str, x: str, when: datetime | None
) -> None:
    CASES[f"op:{op}"] += 1
    before = q(store, "MATCH (c:Claim {namespace: $ns}) RETURN c.text AS t, c.status AS s", ns=NS)
    ok, result = attempt(store, OP_FIELDS, lambda: OPS[op](seeded, ns, x, when))
    if ns != NS:  # another namespace's hostile operation never touches the seeded one
        after = q(
            store, "MATCH (c:Claim {namespace: $ns}) RETURN c.text AS t, c.status AS s", ns=NS
        )
        assert after == before
    if ok:
        assert result.namespace == ns


# -- the CLI ----------------------------------------------------------------------------------


@pytest.fixture
def cli(neo4j_info: ConnectionInfo, store: Store, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("NEO4J_URI", neo4j_info.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_info.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_info.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_info.database)
    monkeypatch.setenv("BELIEF_GRAPH_MODELS", "false")
    wipe(store)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


# Command-line arguments cannot carry NUL or lone surrogates (the OS refuses them first).
cli_text = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=30),
    st.sampled_from(INJECTIONS),
)


@FUZZ
@given(
    subject=cli_text,
    obj=cli_text,
    text=cli_text,
    confidence=st.sampled_from(["nan", "inf", "-1", "0.5", "1e309", "abc"]),
    valid_from=st.sampled_from(
        ["2026-03-01", "2026-03-01T09:00+05:00", "yesterday", "9999-12-31T23:59-05:00"]
    ),
)
def test_cli_remember_refuses_by_name_or_round_trips(
    store: Store, cli: Any, subject: str, obj: str, text: str, confidence: str, valid_from: str
) -> None:
    CASES["cli:remember"] += 1
    before = counts(store)
    result = cli(
        "remember",
        "--namespace",
        NS,
        "--subject",
        subject,
        "--predicate",
        "city",
        "--object",
        obj,
        "--text",
        text,
        "--confidence",
        confidence,
        "--valid-from",
        valid_from,
        "--json",
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    if result.exit_code != 0:
        assert counts(store) == before, "a refused CLI remember wrote something"
        assert result.exit_code in (1, 2), result.output
        line = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
        assert line, "refused without a message"
        return
    added = json.loads(result.stdout)["added"]
    if added:
        shown = json.loads(cli("lineage", NS, added[0], "--json").stdout)
        claim = shown["claim"]
        assert (claim["subject"], claim["object"], claim["text"]) == (subject, obj, text)


@FUZZ
@given(ns=cli_text, arg=cli_text)
@pytest.mark.slow
def test_cli_reads_refuse_cleanly(store: Store, cli: Any, ns: str, arg: str) -> None:
    CASES["cli:reads"] += 1
    for args in (
        ["current", ns, arg, "city", "--json"],
        ["lineage", ns, arg, "--json"],
        ["conflicts", ns, "--json"],
        ["export", "--namespace", ns],
    ):
        result = cli(*args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            result.exception,
        )
        assert "Traceback" not in result.output
        assert result.exit_code in (0, 1, 2), (args, result.output)


# -- edges found by fuzzing, pinned ---------------------------------------------------------


def refused_naming(store: Store, field: str, call: Callable[[], Any]) -> None:
    """``call`` is refused with a validation error whose first ``loc`` is ``field``, and the
    graph is unchanged."""
    ok, _ = attempt(store, {field}, call)
    assert not ok, f"accepted; {field} should have been refused"
    with pytest.raises(ValidationError) as exc:
        call()
    assert [e["loc"][0] for e in exc.value.errors()] == [field]


OUT_OF_RANGE = [
    datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5))),  # before 0001-01-01 in UTC
    datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-5))),  # after 9999 in UTC
]


@pytest.mark.parametrize("moment", OUT_OF_RANGE, ids=["before-year-1", "after-year-9999"])
def test_out_of_range_aware_datetimes_are_refused_by_name(
    store: Store, seeded: BeliefGraph, moment: datetime
) -> None:
    CASES["pinned"] += 1
    refused_naming(
        store,
        "valid_from",
        lambda: seeded.remember(
            ClaimDraft(namespace=NS, text="Ana lives in Oslo.", valid_from=moment)
        ),
    )
    refused_naming(store, "known_at", lambda: seeded.as_of(NS, "ana", "city", known_at=moment))


def test_a_sub_minute_offset_is_kept_as_the_same_instant(
    store: Store, make_bg: Callable[..., BeliefGraph]
) -> None:
    """Bolt carries whole-minute offsets only; moments are stored in UTC, so an offset of 30
    seconds is representable and accepted, not refused."""
    CASES["pinned"] += 1
    bg = make_bg()
    moment = datetime(2026, 3, 1, tzinfo=timezone(timedelta(seconds=30)))
    result = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="ana",
            predicate="city",
            object="Oslo",
            text="Ana lives in Oslo.",
            valid_from=moment,
        )
    )
    claim = bg.get(NS, result.claim_id)
    assert claim.valid_from == moment and claim.valid_from.utcoffset() == timedelta(0)
    assert claim.valid_from.isoformat() == "2026-02-28T23:59:30+00:00"
    before = bg.as_of(NS, "ana", "city", valid_at=moment - timedelta(microseconds=1))
    assert before is None
    assert bg.as_of(NS, "ana", "city", valid_at=moment) == claim


SURROGATES = {
    "current": ("subject", lambda bg: bg.current(NS, "ana\ud800", "city")),
    "get": ("claim_id", lambda bg: bg.get(NS, "\udfff")),
    "conflicts": ("namespace", lambda bg: bg.conflicts("fuzz:\ud800")),
    "erase": ("namespace", lambda bg: bg.erase("fuzz:\ud800", subject="ana")),
    "erase-subject": ("subject", lambda bg: bg.erase(NS, subject="an\udc00a")),
    "contract-reason": ("reason", lambda bg: bg.contract(NS, "c", reason="\ud800")),
}


@pytest.mark.parametrize("read", sorted(SURROGATES))
def test_lone_surrogates_in_read_arguments_are_refused_by_name(
    store: Store, seeded: BeliefGraph, read: str
) -> None:
    CASES["pinned"] += 1
    field, call = SURROGATES[read]
    refused_naming(store, field, lambda: call(seeded))


def test_names_field_wants_the_word_not_a_substring() -> None:
    assert not names_field(ValueError("not a valid moment"), {"id"})
    assert names_field(ValueError("id: a claim 'x' already exists"), {"id"})
    assert not names_field(ValueError("claim_id: no claim"), {"id"})


def test_naive_and_aware_times_round_trip(make_bg: Callable[..., BeliefGraph]) -> None:
    bg = make_bg()
    CASES["pinned"] += 1
    aware = datetime(2026, 3, 1, 9, 30, tzinfo=timezone(timedelta(hours=-3, minutes=-30)))
    result = bg.remember(
        ClaimDraft(
            namespace=NS,
            subject="ana",
            predicate="city",
            object="Oslo",
            text="Ana lives in Oslo.",
            valid_from=aware,
        )
    )
    claim = bg.get(NS, result.claim_id)
    assert claim.valid_from == aware and claim.valid_from.astimezone(UTC) == aware
    with pytest.raises(ValidationError, match="valid_from"):
        ClaimDraft(namespace=NS, text="x", valid_from=datetime(2026, 3, 1))
