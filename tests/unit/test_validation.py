"""Argument validation comes from the type hints: no public parameter goes unchecked, and a bad
value is refused naming its parameter before anything reaches the database (these tests point
the engine at a port where nothing listens: a call that got past validation would fail there)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Annotated, Any, Literal

import pytest
from pydantic import AwareDatetime, Field, TypeAdapter, ValidationError

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.models import Identifier, Moment, Reason, Term, Text
from belief_graph.store import Store
from belief_graph.testing import factories
from belief_graph.validation import checked, gaps, unchecked

NS = "user:ana"


@pytest.fixture(scope="module")
def bg() -> Iterator[BeliefGraph]:
    graph = BeliefGraph(Store("bolt://127.0.0.1:9", None, "neo4j"))
    yield graph
    graph.close()


draft = partial(factories.draft, namespace=NS, text="Ana lives in Oslo.")


def hint_id(hint: Any) -> str:
    """A type hint's repr without functions' addresses, which differ from one process (or xdist
    worker) to the next."""
    return re.sub(r" at 0x[0-9a-f]+", "", repr(hint))


def public_methods() -> list[tuple[str, Callable[..., Any]]]:
    methods = []
    for name, member in vars(BeliefGraph).items():
        if name.startswith("_"):
            continue
        func = member.__func__ if isinstance(member, classmethod | staticmethod) else member
        if callable(func):
            methods.append((name, func))
    return methods


def test_every_public_method_checks_every_argument() -> None:
    seen = set()
    for name, func in public_methods():
        params = [p for p in inspect.signature(func).parameters if p not in ("self", "cls")]
        if not params:
            continue
        seen.add(name)
        assert getattr(func, "__checked__", False), f"{name} is not @checked"
        assert gaps(inspect.unwrap(func)) == [], name
    # The walk reaches the methods that matter (a renamed decorator would not empty it).
    assert {"remember", "ingest", "contract", "search", "as_of", "erase", "connect"} <= seen


def test_every_draft_field_is_checked() -> None:
    for name, field in ClaimDraft.model_fields.items():
        hint = field.annotation
        if field.metadata:
            hint = Annotated[(hint, *field.metadata)]
        assert unchecked(hint) is None, name


@pytest.mark.parametrize(
    "hint",
    [
        str,
        int,
        float,
        datetime,
        AwareDatetime,
        Any,
        dict[str, str],
        list,
        Annotated[str, Field(max_length=10)],  # bounded, but any character goes
        Annotated[int, Field(ge=1)],  # no upper bound
        list[str],
        Term | str,
        tuple[Term, str],
        Iterable[str] | None,
    ],
    ids=hint_id,
)
def test_a_type_that_lets_values_through_is_named(hint: Any) -> None:
    assert unchecked(hint) is not None


@pytest.mark.parametrize(
    "hint",
    [
        Identifier,
        Term,
        Text,
        Reason,
        Moment,
        Identifier | None,
        Sequence[Identifier] | None,
        Iterable[ClaimDraft],
        tuple[Term, Term],
        bool,
        Literal["single", "multi"],
        Callable[[int], None] | None,
        Annotated[int, Field(ge=1, le=5)],
    ],
    ids=hint_id,
)
def test_a_validated_type_passes(hint: Any) -> None:
    assert unchecked(hint) is None


def test_checked_refuses_to_run_a_function_with_an_unchecked_parameter() -> None:
    @checked
    def note(namespace: Identifier, text: str) -> str:
        return text

    with pytest.raises(TypeError, match=r"note\(text\)"):
        note(NS, "hello")


@pytest.mark.parametrize(
    "value",
    ["user:ana\n", "user:ana\r\n", "\nuser:ana", "user:ana ", "user:ana\x00", "user:\u2028ana"],
    ids=repr,
)
def test_an_identifier_is_the_whole_string(bg: BeliefGraph, value: str) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(Identifier).validate_python(value)
    with pytest.raises(ValidationError) as exc:
        ClaimDraft(namespace=value, text="Ana lives in Oslo.")
    assert exc.value.errors()[0]["loc"] == ("namespace",)
    with pytest.raises(ValidationError) as exc:
        bg.get(NS, value)
    assert exc.value.errors()[0]["loc"] == ("claim_id",)


def named(call: Callable[[], Any]) -> tuple[str | int, ...]:
    """The loc of the single error ``call`` raises."""
    with pytest.raises(ValidationError) as exc:
        call()
    errors = exc.value.errors()
    assert len(errors) == 1, errors
    return errors[0]["loc"]


NAIVE = datetime(2026, 3, 1, 9, 0)
FAR = datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-5)))
CASES: list[tuple[str, Callable[[BeliefGraph], Any], tuple[str | int, ...]]] = [
    ("reason 1 MB", lambda bg: bg.contract(NS, "c1", reason="x" * 1_000_000), ("reason",)),
    ("reason NUL", lambda bg: bg.contract(NS, "c1", reason="wrong\x00"), ("reason",)),
    ("reason surrogate", lambda bg: bg.contract(NS, "c1", reason="bad \ud800"), ("reason",)),
    ("valid_to naive", lambda bg: bg.contract(NS, "c1", valid_to=NAIVE), ("valid_to",)),
    ("actor blank", lambda bg: bg.confirm(NS, "c1", actor="  "), ("actor",)),
    ("revision id", lambda bg: bg.reject(NS, "c1", revision_id="r 1"), ("revision_id",)),
    ("rectify text", lambda bg: bg.rectify(NS, "c1", object="x", text="", actor="d"), ("text",)),
    ("rollback id", lambda bg: bg.rollback(NS, "r1", new_revision_id="r\n"), ("new_revision_id",)),
    ("erase ids", lambda bg: bg.erase(NS, claim_ids=["ok", "not ok"]), ("claim_ids", 1)),
    ("erase ids str", lambda bg: bg.erase(NS, claim_ids="c1"), ("claim_ids",)),
    ("as_of naive", lambda bg: bg.as_of(NS, "ana", "city", valid_at=NAIVE), ("valid_at",)),
    ("as_of range", lambda bg: bg.as_of(NS, "ana", "city", known_at=FAR), ("known_at",)),
    ("current", lambda bg: bg.current(NS, "ana", "x" * 1001), ("predicate",)),
    ("history", lambda bg: bg.history("", "ana", "city"), ("namespace",)),
    ("beliefs", lambda bg: bg.beliefs(NS, "\x1b[31m"), ("subject",)),
    ("lineage", lambda bg: bg.lineage(NS, "a b"), ("claim_id",)),
    ("conflicts", lambda bg: bg.conflicts(NS, open_only="perhaps"), ("open_only",)),
    ("pending", lambda bg: bg.pending("\ud800"), ("namespace",)),
    ("needs_review", lambda bg: bg.needs_review(None), ("namespace",)),
    ("search k 0", lambda bg: bg.search("where?", NS, k=0), ("k",)),
    ("search k huge", lambda bg: bg.search("where?", NS, k=10**20), ("k",)),
    ("search blank", lambda bg: bg.search("   ", NS), ("query",)),
    ("search naive", lambda bg: bg.search("where?", NS, valid_at=NAIVE), ("valid_at",)),
    ("remember dict?", lambda bg: bg.remember("a draft"), ("draft",)),
    ("remember actor", lambda bg: bg.remember(draft(), actor="\x07"), ("actor",)),
    ("ingest batch", lambda bg: bg.ingest([draft()], batch_size=0), ("batch_size",)),
    ("ingest item", lambda bg: bg.ingest([draft(), 1]), ("drafts", 1)),
    ("ingest stream", lambda bg: bg.ingest(iter([draft(), "x"])), ("drafts", 1)),
    ("ingest ids", lambda bg: bg.ingest([draft()], revision_ids=["r\n"]), ("revision_ids", 0)),
    ("ingest progress", lambda bg: bg.ingest([draft()], progress="print"), ("progress",)),
    ("init_schema", lambda bg: bg.init_schema(timeout_seconds=-1), ("timeout_seconds",)),
    ("connect uri", lambda bg: BeliefGraph.connect("bolt://\x00"), ("uri",)),
    ("connect db", lambda bg: BeliefGraph.connect("bolt://x", database="a b"), ("database",)),
]


@pytest.mark.parametrize(("call", "loc"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_argument_is_refused_naming_it(
    bg: BeliefGraph, call: Callable[[BeliefGraph], Any], loc: tuple[str | int, ...]
) -> None:
    assert named(lambda: call(bg)) == loc


def test_every_error_of_one_call_is_reported(bg: BeliefGraph) -> None:
    with pytest.raises(ValidationError) as exc:
        bg.contract("", "a b", reason="\x00", actor="")
    assert {e["loc"][0] for e in exc.value.errors()} == {"namespace", "claim_id", "reason", "actor"}


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (["r1"], "revision_ids: no id left for draft 1"),
        (["r1", "r2", "r3"], "revision_ids: more ids than the 2 drafts"),
        (["r1", "r1"], "revision_ids: 'r1' is given to drafts 0 and 1"),
    ],
)
def test_ingest_refuses_revision_ids_that_do_not_match_the_drafts(
    bg: BeliefGraph, ids: list[str], message: str
) -> None:
    drafts = [draft(), ClaimDraft(namespace=NS, text="Ana likes tea.")]
    with pytest.raises(ValueError, match=message):
        bg.ingest(drafts, revision_ids=ids)


def test_ingest_refuses_a_claim_id_given_twice(bg: BeliefGraph) -> None:
    drafts = [draft(id="c1"), ClaimDraft(namespace="user:bo", text="Bo likes tea.", id="c1")]
    with pytest.raises(ValueError, match="id: drafts 0 and 1 both give the claim id 'c1'"):
        bg.ingest(drafts)


def test_a_reason_may_be_empty_or_a_paragraph() -> None:
    adapter = TypeAdapter(Reason)
    assert adapter.validate_python("") == ""
    paragraph = "Checked with Ana on the phone.\nShe moved in March.\t(see ticket 42)"
    assert adapter.validate_python(paragraph) == paragraph
