"""An MCP server over ``BeliefGraph``: the engine's reads and operations as typed tools.

Built on the official ``mcp`` SDK (the ``mcp`` extra). ``build_server`` makes the server for one
engine and one namespace; ``serve_stdio`` and ``serve_http`` run it (``belief-graph mcp``). The
namespace is the operator's choice, never the model's: a tool may name another namespace only
when the operator allowed it (``McpSettings.allowed``). Every failure reaches the model as a tool
error whose text starts with the field it is about; a traceback never does.
"""

from __future__ import annotations

import fnmatch
import hmac
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from belief_graph.client import BeliefGraph
from belief_graph.errors import BeliefGraphError, ModelError
from belief_graph.extraction import Episode, Observation
from belief_graph.models import (
    Claim,
    ClaimDraft,
    Conflict,
    ConsolidationReport,
    Dispute,
    Identifier,
    Lineage,
    Moment,
    RevisionResult,
    ScopedAnswer,
    ScopedHit,
    SearchHit,
    Term,
    Text,
)
from belief_graph.transfer.claims import describe_validation

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

R = TypeVar("R")

LOOPBACK = ("127.0.0.1", "localhost", "::1")
TOKEN_ENV = "BELIEF_GRAPH_MCP_TOKEN"
MAX_BATCH = 100

if TYPE_CHECKING:
    Memory = ClaimDraft
else:
    # A draft without its namespace (the server supplies it), built from ClaimDraft's own fields so
    # the tool schema never drifts from the engine's.
    Memory = create_model(
        "Memory",
        __config__=ConfigDict(extra="forbid"),
        __doc__="A claim to remember: a triple and its sentence, or a sentence alone.",
        **{n: (f.annotation, f) for n, f in ClaimDraft.model_fields.items() if n != "namespace"},
    )

NamespaceArg = Annotated[
    Identifier | None,
    Field(
        description="Leave out: the server's namespace. Another one only if the server allows it."
    ),
]
ValidAt = Annotated[
    Moment | None,
    Field(description="World time: when was it true? ISO-8601 with an offset."),
]
KnownAt = Annotated[
    Moment | None,
    Field(description="Belief time: what had we been told by then? ISO-8601 with offset."),
]
When = Annotated[
    Moment | None,
    Field(description="ISO-8601 with an offset, e.g. 2026-05-10T12:00:00Z."),
]


class Answer(BaseModel):
    """The belief about one fact, and what stands against it."""

    model_config = ConfigDict(frozen=True)

    known: bool = Field(description="False: the engine holds no belief (it never guesses).")
    beliefs: list[Claim] = Field(description="One claim, or several for a multi-valued fact.")
    rivals: list[Claim] = Field(
        description="Open contradictions and pending claims of this fact, as of now: "
        "mention them when you answer."
    )
    contested: bool = Field(description="True when a rival or a dispute stands against it.")


@dataclass(frozen=True)
class McpSettings:
    """What one server may do: its namespace, the other namespaces a tool may name (``fnmatch``
    patterns), whether ``erase`` runs, and the actor its revisions record."""

    namespace: str
    allowed: tuple[str, ...] = ()
    allow_erase: bool = False
    actor: str = "mcp"
    scope: tuple[str, ...] = ()
    """A scope chain, nearest first, holding ``namespace``: then ``recall``, ``current`` and
    ``as_of`` read through it (``SCOPED_TOOLS``), and a tool cannot name another namespace."""

    def __post_init__(self) -> None:
        if self.scope and self.namespace not in self.scope:
            raise ValueError(
                f"scope: the server's namespace {self.namespace!r} must be in its scope chain "
                f"({' > '.join(self.scope)}): writes go there"
            )


def _tool_error(exc: Exception) -> ToolError:
    if isinstance(exc, ValidationError):
        return ToolError(describe_validation(exc))
    return ToolError(str(exc) or type(exc).__name__)


class Tools:
    """The tools, bound to one engine and one server's settings. Each docstring is the
    description an agent reads to decide when to call it."""

    def __init__(self, bg: BeliefGraph, settings: McpSettings) -> None:
        self.bg = bg
        self.settings = settings

    def _ns(self, namespace: str | None) -> str:
        if namespace is None or namespace == self.settings.namespace:
            return self.settings.namespace
        if not self.settings.scope and any(
            fnmatch.fnmatchcase(namespace, p) for p in self.settings.allowed
        ):
            return namespace
        raise ToolError(
            f"namespace: this server answers for {self.settings.namespace!r} only; leave it out"
        )

    @staticmethod
    def _run(call: Callable[[], R]) -> R:
        try:
            return call()
        except ToolError:
            raise
        except (BeliefGraphError, ValueError) as exc:
            raise _tool_error(exc) from None

    def _answer(self, namespace: str, found: Claim | list[Claim] | None) -> Answer:
        beliefs = found if isinstance(found, list) else ([found] if found is not None else [])
        rivals = self.bg.rivals(namespace, beliefs)
        return Answer(
            known=bool(beliefs),
            beliefs=beliefs,
            rivals=rivals,
            contested=bool(rivals) or any(c.disputed for c in beliefs),
        )

    # -- writes ----------------------------------------------------------------------------------

    def remember(
        self,
        claims: Annotated[
            list[Memory],
            Field(
                min_length=1,
                max_length=MAX_BATCH,
                description=f"The claims, in order: one, or up to {MAX_BATCH}.",
            ),
        ],
        namespace: NamespaceArg = None,
    ) -> list[RevisionResult]:
        """Store what the user said or what you observed, as soon as you learn it. Give
        subject, predicate and object (e.g. user / risk tolerance / cautious) with the sentence;
        a sentence alone is allowed. The engine decides: NEW, SAME (reinforced), UPDATE (the old
        value is superseded) or CONFLICT (kept on record, maybe pending a human). Set
        correction=true when the user says the old value was wrong; set valid_from when the fact
        became true earlier than now."""
        ns = self._ns(namespace)

        def run() -> list[RevisionResult]:
            drafts = []
            for index, item in enumerate(claims):
                try:
                    data = item.model_dump(exclude_unset=True)
                    drafts.append(ClaimDraft.model_validate({**data, "namespace": ns}))
                except ValidationError as exc:
                    raise ToolError(f"claims.{index}.{describe_validation(exc)}") from None
            return self.bg.ingest(drafts, actor=self.settings.actor)

        return self._run(run)

    def observe(
        self,
        text: Annotated[Text, Field(description="What was said, verbatim: one turn or several.")],
        speaker: Annotated[
            Term, Field(description="Who said it: 'I', 'me' and 'my' are about this subject.")
        ],
        at: Annotated[
            Moment | None,
            Field(description="When it was said, ISO-8601 with an offset (default: now)."),
        ] = None,
        context: Annotated[
            list[Text],
            Field(
                max_length=100,
                description="Earlier turns, oldest first, for 'it', 'that' and 'instead'.",
            ),
        ] = [],  # noqa: B006 - never mutated; the schema shows the default
        episode_id: Annotated[
            Identifier | None,
            Field(description="An id for this turn: observing it again changes nothing."),
        ] = None,
        namespace: NamespaceArg = None,
    ) -> Observation:
        """Store what the user said, in their own words, when you have no subject and
        predicate to give: the engine extracts the claims, checks each against the words it
        came from, and remembers them (a change such as "I'm pescatarian these days" replaces
        the old value). Returns the claims proposed, what became of each, and what was refused
        and why. Use remember instead when you know the triple."""
        ns = self._ns(namespace)

        def run() -> Observation:
            try:
                episode = Episode(
                    speaker=speaker,
                    at=at or datetime.now(UTC),
                    text=text,
                    context=tuple(context),
                    id=episode_id,
                )
            except ValidationError as exc:
                raise ToolError(describe_validation(exc)) from None
            return self.bg.observe(ns, episode, actor=self.settings.actor)

        return self._run(run)

    def confirm(self, claim_id: Identifier, namespace: NamespaceArg = None) -> RevisionResult:
        """Accept a pending claim (listed by `pending`) after the user confirmed it: it becomes
        the belief and its rival is superseded. Only on the user's word, never on a guess."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.confirm(ns, claim_id, actor=self.settings.actor))

    def reject(self, claim_id: Identifier, namespace: NamespaceArg = None) -> RevisionResult:
        """Reject a pending claim (listed by `pending`) the user says is wrong: it is kept as
        rejected and the current belief stands."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.reject(ns, claim_id, actor=self.settings.actor))

    def resolve(
        self,
        claim_id: Identifier,
        rival_id: Identifier,
        keep: Annotated[Identifier, Field(description="The side the user says is right.")],
        reason: Annotated[str, Field(max_length=1000, description="Why, for the audit log.")] = "",
        namespace: NamespaceArg = None,
    ) -> RevisionResult:
        """Settle an open conflict (listed by `conflicts`) once the user said which side is
        right: `keep` stays, the other side was wrong and is withdrawn."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self.bg.resolve(
                ns, claim_id, rival_id, keep=keep, reason=reason, actor=self.settings.actor
            )
        )

    def dismiss(
        self,
        claim_id: Identifier,
        rival_id: Identifier,
        reason: Annotated[str, Field(max_length=1000, description="Why, for the audit log.")] = "",
        namespace: NamespaceArg = None,
    ) -> RevisionResult:
        """Close an open conflict that is no conflict (both can be true, e.g. different
        contexts): both claims stay as they are."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self.bg.dismiss(
                ns, claim_id, rival_id, reason=reason, actor=self.settings.actor
            )
        )

    def reviewed(
        self,
        claim_id: Identifier,
        premise: Annotated[
            Identifier | None,
            Field(description="The claim it depends on from now on (the premise's new version)."),
        ] = None,
        reason: Annotated[str, Field(max_length=1000, description="Why, for the audit log.")] = "",
        namespace: NamespaceArg = None,
    ) -> RevisionResult:
        """Mark a claim flagged by `review` as checked with the user (it still holds), and
        optionally point it at the premise's new version."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self.bg.reviewed(
                ns, claim_id, premise=premise, reason=reason, actor=self.settings.actor
            )
        )

    def retract(
        self,
        claim_id: Identifier,
        reason: Annotated[str, Field(max_length=1000, description="Why, for the audit log.")] = "",
        valid_to: Annotated[
            Moment | None,
            Field(
                description="Give it when the belief was true until then (it ended); leave it "
                "out when it was never true (it was wrong)."
            ),
        ] = None,
        namespace: NamespaceArg = None,
    ) -> RevisionResult:
        """Withdraw a belief without replacing it: it was wrong (leave valid_to out) or it stopped
        being true at valid_to. Claims that depend on it are flagged for review. To replace a
        value, use `remember` with the new one instead."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self.bg.contract(
                ns,
                claim_id,
                retract=valid_to is None,
                valid_to=valid_to,
                reason=reason,
                actor=self.settings.actor,
            )
        )

    def rollback(self, revision_id: Identifier, namespace: NamespaceArg = None) -> RevisionResult:
        """Undo an earlier write by its revision_id (every write returns one), e.g. when you
        stored something by mistake. History is kept; refused if a later write touched the same
        fact."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.rollback(ns, revision_id, actor=self.settings.actor))

    def consolidate(
        self,
        dry_run: Annotated[
            bool, Field(description="True: return the plan and change nothing.")
        ] = False,
        namespace: NamespaceArg = None,
    ) -> ConsolidationReport:
        """Tidy the memory (the "sleep" pass), e.g. at the end of a session or when recall
        shows the same fact twice: merges duplicates of one fact, closes conflicts and review
        flags whose cause is gone, repairs what it can and lists the rest under problems. One
        revision; rollback of revision.revision_id undoes it exactly. Try dry_run first."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self.bg.consolidate(ns, dry_run=dry_run, actor=self.settings.actor)
        )

    def erase(
        self,
        subject: Annotated[Term | None, Field(description="Erase only this subject.")] = None,
        claim_ids: Annotated[
            list[Identifier] | None, Field(description="Erase only these claims.")
        ] = None,
        namespace: NamespaceArg = None,
    ) -> RevisionResult:
        """Remove content for good (right to erasure), only when the user explicitly asks to be
        forgotten. Refused unless the server was started with erasure allowed."""
        ns = self._ns(namespace)
        if not self.settings.allow_erase:
            raise ToolError(
                "erase: refused, this server was not started with erasure allowed "
                "(belief-graph mcp --allow-erase)"
            )
        return self._run(
            lambda: self.bg.erase(
                ns, subject=subject, claim_ids=claim_ids, actor=self.settings.actor
            )
        )

    # -- reads -----------------------------------------------------------------------------------

    def recall(
        self,
        query: Annotated[Text, Field(description="What you want to know, in plain words.")],
        k: Annotated[int, Field(ge=1, le=100, description="How many claims.")] = 5,
        valid_at: When = None,
        known_at: When = None,
        history: Annotated[
            bool, Field(description="Search every version, not only current beliefs.")
        ] = False,
        namespace: NamespaceArg = None,
    ) -> list[SearchHit]:
        """Before answering anything about the user or the project, recall what is believed:
        claims nearest in meaning to the query, current beliefs only unless valid_at/known_at
        ask about the past. A hit with rivals is contested: say so beside the answer. A claim
        whose `contradicts` is not empty replaced what was said before it ("earlier you said
        X"): mention the change when it matters."""
        ns = self._ns(namespace)
        if self.bg.detector.embedder is None:
            raise ToolError(
                "query: recall needs the embedding model; this server runs without models "
                "(start it without --no-models, BELIEF_GRAPH_MODELS=true)"
            )
        return self._run(
            lambda: self.bg.search(
                query, ns, k, history=history, valid_at=valid_at, known_at=known_at
            )
        )

    def current(self, subject: Term, predicate: Term, namespace: NamespaceArg = None) -> Answer:
        """The current belief about one fact (subject + predicate, synonyms understood), with
        its rivals, and in `contradicts` the earlier claims it contradicted and replaced.
        known=false means nobody has said: do not guess."""
        ns = self._ns(namespace)
        return self._run(lambda: self._answer(ns, self.bg.current(ns, subject, predicate)))

    def as_of(
        self,
        subject: Term,
        predicate: Term,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
        namespace: NamespaceArg = None,
    ) -> Answer:
        """The belief about one fact at a past moment: "what was true on May 10?" (valid_at),
        "what did we believe on May 10?" (known_at), or both."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self._answer(ns, self.bg.as_of(ns, subject, predicate, valid_at, known_at))
        )

    def history(
        self, subject: Term, predicate: Term, namespace: NamespaceArg = None
    ) -> list[Claim]:
        """Every claim ever made about one fact, oldest first, with status: how it changed."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.history(ns, subject, predicate))

    def lineage(self, claim_id: Identifier, namespace: NamespaceArg = None) -> Lineage:
        """Why a claim is believed: its version chain, what superseded what and why, where it
        came from (episodes), the revisions that touched it, what depends on it."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.lineage(ns, claim_id))

    def conflicts(
        self,
        open_only: Annotated[bool, Field(description="Only unresolved ones.")] = True,
        namespace: NamespaceArg = None,
    ) -> list[Conflict]:
        """Contradictions the engine recorded instead of resolving silently: check them before
        relying on a belief that may be disputed, or to ask the user which is right. With
        open_only=false also those already resolved (newest wins, corrected): what was
        contradicted earlier, and by what."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.conflicts(ns, open_only=open_only))

    def pending(self, namespace: NamespaceArg = None) -> list[Claim]:
        """Claims waiting for the user to confirm or reject them: ask, then call `confirm` or
        `reject`."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.pending(ns))

    def review(self, namespace: NamespaceArg = None) -> list[Claim]:
        """Claims flagged needs_review because a premise they depend on was withdrawn: check
        them with the user, then remember or retract."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.needs_review(ns))

    def disputes(self, namespace: NamespaceArg = None) -> list[Dispute]:
        """Conventions (policies) that observed evidence contradicts, or that were demoted, each
        with the evidence against it: mention the dispute when you rely on the convention, and
        ask the user whether to `promote` the evidence."""
        ns = self._ns(namespace)
        return self._run(lambda: self.bg.disputes(ns))

    def promote(
        self,
        claim_id: Identifier,
        by: Annotated[
            Literal["human", "record", "outcome"],
            Field(
                description="human: the user decided it; record: a merged ADR or pull request "
                "(give origin); outcome: the same result in enough independent episodes."
            ),
        ],
        origin: Annotated[
            Term | None, Field(description="The ADR or pull request, for by=record.")
        ] = None,
        reason: Annotated[str, Field(max_length=1000, description="Why, for the audit log.")] = "",
        namespace: NamespaceArg = None,
    ) -> RevisionResult:
        """Make a claim (evidence, e.g. one listed by `disputes`) the project's policy: only on
        the user's explicit decision, a merged record, or a repeated outcome, never on a guess.
        A demoted policy promoted again is reinstated."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self.bg.promote(
                ns, claim_id, by=by, origin=origin, reason=reason, actor=self.settings.actor
            )
        )

    def demote(
        self,
        claim_id: Identifier,
        reason: Annotated[str, Field(max_length=1000, description="Why, for the audit log.")] = "",
        namespace: NamespaceArg = None,
    ) -> RevisionResult:
        """Demote a policy the evidence keeps contradicting to disputed: it stays in force but
        is put in front of a human (listed by `disputes` and `review`)."""
        ns = self._ns(namespace)
        return self._run(
            lambda: self.bg.demote(ns, claim_id, reason=reason, actor=self.settings.actor)
        )


class ScopedTools(Tools):
    """The reads of a server with a scope chain: each resolves through the chain (the nearer
    namespace answers first, a policy outranks evidence) and never reads outside it."""

    def recall_scoped(
        self,
        query: Annotated[Text, Field(description="What you want to know, in plain words.")],
        k: Annotated[int, Field(ge=1, le=100, description="How many claims.")] = 5,
        valid_at: When = None,
        known_at: When = None,
        history: Annotated[
            bool, Field(description="Search every version, not only current beliefs.")
        ] = False,
    ) -> list[ScopedHit]:
        """Before answering anything about the user or the project, recall what is believed,
        through this server's scope chain (session, role, project): claims nearest in meaning to
        the query. Each hit says its kind (policy: what should happen; evidence: what happened),
        the scope that answered and its support. A hit with rivals or disputes is contested: a
        policy with disputes is a convention recent evidence contradicts; say both."""
        if self.bg.detector.embedder is None:
            raise ToolError(
                "query: recall needs the embedding model; this server runs without models "
                "(start it without --no-models, BELIEF_GRAPH_MODELS=true)"
            )
        return self._run(
            lambda: self.bg.scoped_search(
                query,
                self.settings.scope,
                k,
                history=history,
                valid_at=valid_at,
                known_at=known_at,
            )
        )

    def current_scoped(self, subject: Term, predicate: Term) -> ScopedAnswer:
        """The current belief about one fact (subject + predicate, synonyms understood) through
        this server's scope chain: which scope answered, its kind and support, and what stands
        against it (rivals, evidence disputing a policy). known=false: nobody has said; do not
        guess."""
        return self._run(lambda: self.bg.scoped_current(self.settings.scope, subject, predicate))

    def as_of_scoped(
        self,
        subject: Term,
        predicate: Term,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
    ) -> ScopedAnswer:
        """The belief about one fact at a past moment, through this server's scope chain:
        "what was true on May 10?" (valid_at), "what did we believe on May 10?" (known_at)."""
        return self._run(
            lambda: self.bg.scoped_as_of(
                self.settings.scope, subject, predicate, valid_at, known_at
            )
        )


TOOL_NAMES = (
    "remember",
    "observe",
    "recall",
    "current",
    "as_of",
    "history",
    "lineage",
    "conflicts",
    "pending",
    "review",
    "disputes",
    "confirm",
    "reject",
    "resolve",
    "dismiss",
    "reviewed",
    "promote",
    "demote",
    "retract",
    "rollback",
    "consolidate",
    "erase",
)


SCOPED_TOOLS = {"recall": "recall_scoped", "current": "current_scoped", "as_of": "as_of_scoped"}
"""The tools a server with a scope chain answers through it, and their methods."""


class _Server(MCPServer[Any]):
    """The SDK's server, with argument errors said in one line: ``field: message``."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            raise ToolError(f"Error executing tool {name}: {describe_validation(cause)}") from cause


def build_server(bg: BeliefGraph, settings: McpSettings) -> MCPServer[Any]:
    """The MCP server for ``bg``: every tool of ``TOOL_NAMES`` and two resources, the
    namespace's open conflicts and its pending queue (JSON)."""
    tools = ScopedTools(bg, settings)
    reads = (
        f" Reads go through the scope chain {' > '.join(settings.scope)} (nearest first); a "
        "policy's disputes are evidence against it."
        if settings.scope
        else ""
    )
    server = _Server(
        "belief-graph",
        instructions=(
            f"Long-term memory for namespace {settings.namespace!r}: one current belief per fact, "
            "its history on both time axes, and every contradiction on record. Recall before "
            f"answering, remember what you learn, and show rivals beside an answer.{reads}"
        ),
    )
    for name in TOOL_NAMES:
        scoped = SCOPED_TOOLS.get(name) if settings.scope else None
        fn = getattr(tools, scoped or name)
        description = inspect.cleandoc(fn.__doc__ or "")
        server.add_tool(fn, name=name, description=description, structured_output=True)

    def dump(items: list[Any]) -> str:
        return json.dumps([i.model_dump(mode="json") for i in items], indent=2)

    @server.resource(
        "belief-graph://conflicts",
        name="open conflicts",
        description=f"Open contradictions in {settings.namespace!r}.",
        mime_type="application/json",
    )
    def open_conflicts() -> str:
        return dump(bg.conflicts(settings.namespace, open_only=True))

    @server.resource(
        "belief-graph://pending",
        name="pending queue",
        description=f"Claims in {settings.namespace!r} waiting for confirm or reject.",
        mime_type="application/json",
    )
    def pending_queue() -> str:
        return dump(bg.pending(settings.namespace))

    return server


MODELS_OFF = "or serve without them: --no-models (BELIEF_GRAPH_MODELS=false, structural only)"


def load_models(bg: BeliefGraph) -> None:
    """Load the engine's models before the server serves (one sentence embedded, one pair
    scored), so that a model configured and unreachable stops the server at start with one
    ``ModelError`` line naming its setting, instead of failing every call that needs it."""
    checks: list[tuple[str, Callable[[], object]]] = []
    embedder, scorer = bg.detector.embedder, bg.detector.scorer
    if embedder is not None:
        checks.append(("BELIEF_GRAPH_EMBEDDING_MODEL", lambda: embedder.embed(["It loads."])))
    if scorer is not None:
        checks.append(
            ("BELIEF_GRAPH_CONTRADICTION_MODEL", lambda: scorer.score([("It loads.", "It does.")]))
        )
    for setting, load in checks:
        try:
            load()
        except ModelError as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            named = first if first.startswith(setting) else f"{setting}: {first}"
            if "BELIEF_GRAPH_MODELS=false" in named:
                named = named.replace(
                    "BELIEF_GRAPH_MODELS=false", "--no-models (BELIEF_GRAPH_MODELS=false)", 1
                )
            else:
                named += f"; {MODELS_OFF}"
            raise ModelError(named) from exc


class BearerAuth:
    """ASGI middleware: every HTTP request must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                from starlette.responses import PlainTextResponse

                response = PlainTextResponse(
                    "unauthorized: a bearer token is required",
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def http_app(server: MCPServer[Any], host: str, token: str | None) -> ASGIApp:
    """The streamable-HTTP app at ``/mcp``. A token is required unless ``host`` is loopback."""
    if host not in LOOPBACK and not token:
        raise ValueError(
            f"--host: {host!r} is not loopback; set {TOKEN_ENV} to require a bearer token"
        )
    app: ASGIApp = server.streamable_http_app(host=host)
    return BearerAuth(app, token) if token else app


def serve_stdio(server: MCPServer[Any]) -> None:
    """Serve on stdin/stdout until the client closes them."""
    server.run("stdio")


def serve_http(server: MCPServer[Any], host: str, port: int, token: str | None) -> None:
    """Serve streamable HTTP on ``http://host:port/mcp`` until interrupted."""
    import uvicorn

    app = http_app(server, host, token)
    uvicorn.run(app, host=host, port=port, log_level="warning")
