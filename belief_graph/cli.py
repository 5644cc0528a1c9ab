"""The ``belief-graph`` command line.

One ``app``; each command group is a sub-app added with ``app.add_typer``. Commands import heavy
modules inside their bodies so that ``--help`` stays fast, and wear ``@handle_errors`` so that a
``BeliefGraphError`` ends in a one-line message and exit status 1, never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer

from belief_graph.errors import BeliefGraphError

if TYPE_CHECKING:
    from belief_graph.client import BeliefGraph
    from belief_graph.models import Claim, RevisionResult

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    name="belief-graph",
    help="A belief-revision engine for AI-agent memory on Neo4j.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
neo4j_app = typer.Typer(
    help="Run a Neo4j for belief-graph on this machine (Docker if available, else Java).",
    no_args_is_help=True,
)
app.add_typer(neo4j_app, name="neo4j")


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: <first line of message>`` on stderr and exit with ``code``."""
    first_line = message.strip().splitlines()[0] if message.strip() else "failed"
    typer.echo(f"error: {first_line}", err=True)
    raise typer.Exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Decorate a command so that a ``BeliefGraphError`` exits 1 with a one-line message."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except BeliefGraphError as exc:
            fail(str(exc) or type(exc).__name__)
        except ValueError as exc:
            # Bad input: pydantic's ValidationError (a ValueError) names the field; the engine's
            # own ValueErrors start with the parameter they are about.
            from pydantic import ValidationError

            from belief_graph.transfer import describe_validation

            if isinstance(exc, ValidationError):
                fail(describe_validation(exc))
            fail(str(exc) or type(exc).__name__)
        except NotImplementedError as exc:
            fail(str(exc) or "not implemented")

    return wrapper


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def _print_status(status: dict[str, object], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(status, indent=2))
        return
    if not status["running"]:
        typer.echo("Neo4j is not running")
        return
    typer.echo(f"Bolt:    {status['bolt_uri']}")
    typer.echo(f"Browser: {status['browser_url']}")
    typer.echo(f"Version: {status['version'] or 'unknown'}")
    pid = f" (pid {status['pid']})" if status["pid"] else ""
    typer.echo(f"Source:  {status['source']}{pid}")


@neo4j_app.command("start")
@handle_errors
def neo4j_start(
    launcher: Annotated[
        bool, typer.Option("--launcher", help="Use the Java launcher even if Docker is running.")
    ] = False,
    wait: Annotated[int, typer.Option(help="Seconds to wait for Bolt and HTTP.")] = 120,
    as_json: JsonOption = False,
) -> None:
    """Start Neo4j (docker/compose.yaml if a Docker engine answers, else the local launcher)."""
    from belief_graph.database import docker_available
    from belief_graph.launcher import ComposeNeo4j, LocalNeo4j

    server = LocalNeo4j() if launcher or not docker_available() else ComposeNeo4j()
    status = server.start(wait_seconds=wait)
    _print_status(status.as_dict(), as_json)


@neo4j_app.command("stop")
@handle_errors
def neo4j_stop(
    timeout: Annotated[int, typer.Option(help="Seconds to wait before SIGKILL.")] = 30,
) -> None:
    """Stop the Neo4j started by 'belief-graph neo4j start' (data is kept)."""
    from belief_graph.database import docker_available
    from belief_graph.launcher import ComposeNeo4j, LocalNeo4j

    local = LocalNeo4j()
    pid = local.status().pid
    if local.stop(timeout=timeout):
        typer.echo(f"stopped Neo4j (pid {pid})")
    elif docker_available():
        ComposeNeo4j().stop()
        typer.echo("stopped the docker compose Neo4j")
    else:
        typer.echo("Neo4j is not running")


@neo4j_app.command("status")
@handle_errors
def neo4j_status(as_json: JsonOption = False) -> None:
    """Show whether Neo4j runs, its Bolt URI, Browser URL and server version."""
    from belief_graph.database import docker_available
    from belief_graph.launcher import ComposeNeo4j, LocalNeo4j

    status = LocalNeo4j().status()
    if not status.running and docker_available():
        status = ComposeNeo4j().status()
    _print_status(status.as_dict(), as_json)


# -- engine commands ---------------------------------------------------------------------------

ModelsOption = Annotated[
    bool,
    typer.Option(
        "--models", help="Load the embedding and contradiction models (default: structural only)."
    ),
]
Namespace = Annotated[str, typer.Argument(help="Namespace, e.g. user:priya.")]
Subject = Annotated[str, typer.Argument(help="Subject of the fact.")]
Predicate = Annotated[str, typer.Argument(help="Predicate (synonyms are normalized).")]
ClaimId = Annotated[str, typer.Argument(help="Claim id.")]
ActorOption = Annotated[str | None, typer.Option("--actor", help="Who performs the operation.")]


def connect(models: bool = False) -> BeliefGraph:
    """``NEO4J_URI`` if set; else the Neo4j of ``belief-graph neo4j start``, started if needed."""
    from belief_graph.client import BeliefGraph
    from belief_graph.settings import Neo4jSettings

    if Neo4jSettings().uri:
        return BeliefGraph.connect(models=models)
    from belief_graph.database import docker_available
    from belief_graph.launcher import ComposeNeo4j, LocalNeo4j

    local = LocalNeo4j()
    if local.is_running():
        status = local.status()
    elif docker_available():
        status = ComposeNeo4j().start()
    else:
        status = local.start()
    return BeliefGraph.connect(status.bolt_uri, models=models)


def parse_when(option: str, value: str | None) -> datetime | None:
    """An ISO-8601 date or date-time; without an offset it is UTC. Bad input exits naming
    ``option``."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        fail(f"{option}: {value!r} is not an ISO-8601 date or date-time (e.g. 2026-03-01T09:00Z)")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _emit_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _claim_json(claim: Claim | list[Claim] | None) -> Any:
    if claim is None:
        return None
    if isinstance(claim, list):
        return [c.model_dump(mode="json") for c in claim]
    return claim.model_dump(mode="json")


def _show_result(result: RevisionResult, as_json: bool) -> None:
    if as_json:
        _emit_json(result.model_dump(mode="json"))
        return
    from belief_graph.cli_render import console, result_table

    console().print(result_table(result))


def _show_claims(claims: list[Claim], title: str, as_json: bool, empty: str) -> None:
    if as_json:
        _emit_json(_claim_json(claims))
        return
    from belief_graph.cli_render import claims_table, console

    if not claims:
        typer.echo(empty)
        return
    console().print(claims_table(claims, title))


def _show_belief(claim: Claim | list[Claim] | None, title: str, as_json: bool) -> None:
    if as_json:
        _emit_json(_claim_json(claim))
    elif claim is None or claim == []:
        typer.echo("unknown: no belief (the engine does not guess)")
    else:
        _show_claims(claim if isinstance(claim, list) else [claim], title, False, "")


@app.command("init")
@handle_errors
def init_cmd(as_json: JsonOption = False) -> None:
    """Create the constraints and indexes (idempotent) and wait until they are online."""
    with connect() as bg:
        applied = bg.init_schema()
    if as_json:
        _emit_json({"applied": applied})
    else:
        typer.echo(f"schema ready ({len(applied)} statements applied)")


@app.command("remember")
@handle_errors
def remember_cmd(
    namespace: Annotated[str | None, typer.Option(help="Namespace, e.g. user:priya.")] = None,
    subject: Annotated[str | None, typer.Option(help="Subject of the fact.")] = None,
    predicate: Annotated[str | None, typer.Option(help="Predicate (normalized).")] = None,
    object_: Annotated[str | None, typer.Option("--object", help="Value of the fact.")] = None,
    text: Annotated[str | None, typer.Option(help="The self-contained sentence.")] = None,
    source_type: Annotated[
        str | None,
        typer.Option(help="human_verified, user_stated, observed, tool_output or inferred."),
    ] = None,
    confidence: Annotated[float | None, typer.Option(help="0..1.")] = None,
    valid_from: Annotated[str | None, typer.Option(help="World time it became true.")] = None,
    valid_to: Annotated[str | None, typer.Option(help="World time it stopped being true.")] = None,
    recorded_at: Annotated[str | None, typer.Option(help="Transaction time (default now).")] = None,
    episode: Annotated[str | None, typer.Option(help="Provenance episode id.")] = None,
    episode_content: Annotated[str | None, typer.Option(help="The episode's raw text.")] = None,
    author: Annotated[str | None, typer.Option(help="Who produced it.")] = None,
    origin: Annotated[str | None, typer.Option(help="Where it came from.")] = None,
    kind: Annotated[str | None, typer.Option(help="evidence or policy.")] = None,
    depends_on: Annotated[
        list[str] | None, typer.Option("--depends-on", help="Premise claim id (repeatable).")
    ] = None,
    supports: Annotated[
        list[str] | None, typer.Option("--supports", help="Supported claim id (repeatable).")
    ] = None,
    correction: Annotated[
        bool, typer.Option("--correction", help="The old value was wrong: retract it (CONFLICT).")
    ] = False,
    claim_id: Annotated[str | None, typer.Option("--id", help="Client-chosen claim id.")] = None,
    json_claim: Annotated[
        str | None,
        typer.Option("--json-claim", help="A ClaimDraft as JSON; flags given override it."),
    ] = None,
    revision_id: Annotated[
        str | None, typer.Option(help="Idempotency key: a replay changes nothing.")
    ] = None,
    actor: ActorOption = None,
    models: ModelsOption = False,
    as_json: JsonOption = False,
) -> None:
    """Tell the engine a claim: NEW, SAME (reinforce), UPDATE or CONFLICT, decided by policy."""
    from belief_graph.models import ClaimDraft

    data: dict[str, Any] = {}
    if json_claim is not None:
        try:
            loaded = json.loads(json_claim)
        except json.JSONDecodeError as exc:
            fail(f"--json-claim: not valid JSON ({exc.msg})")
        if not isinstance(loaded, dict):
            fail("--json-claim: expected a JSON object")
        data.update(loaded)
    flags: dict[str, Any] = {
        "namespace": namespace,
        "subject": subject,
        "predicate": predicate,
        "object": object_,
        "text": text,
        "source_type": source_type,
        "confidence": confidence,
        "valid_from": parse_when("--valid-from", valid_from),
        "valid_to": parse_when("--valid-to", valid_to),
        "recorded_at": parse_when("--recorded-at", recorded_at),
        "episode_id": episode,
        "episode_content": episode_content,
        "author": author,
        "origin": origin,
        "kind": kind,
        "depends_on": tuple(depends_on) if depends_on else None,
        "supports": tuple(supports) if supports else None,
        "correction": correction or None,
        "id": claim_id,
    }
    data.update({k: v for k, v in flags.items() if v is not None})
    draft = ClaimDraft.model_validate(data)
    with connect(models) as bg:
        result = bg.remember(draft, revision_id=revision_id, actor=actor)
    _show_result(result, as_json)


@app.command("import")
@handle_errors
def import_cmd(
    file: Annotated[Path, typer.Argument(help="JSONL file: one ClaimDraft per line ('-': stdin).")],
    namespace: Annotated[
        str | None, typer.Option(help="Namespace for lines that name none.")
    ] = None,
    snapshot: Annotated[
        bool, typer.Option("--snapshot", help="FILE is an `export` snapshot: restore it.")
    ] = False,
    batch_size: Annotated[int, typer.Option(min=1, help="Claims per transaction.")] = 500,
    one_by_one: Annotated[
        bool,
        typer.Option("--one-by-one", help="One transaction per claim (remember), not batches."),
    ] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
    models: ModelsOption = False,
    as_json: JsonOption = False,
) -> None:
    """Remember a JSONL file of claims in order; or with --snapshot, restore an export."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from belief_graph import transfer
    from belief_graph.cli_render import console, import_summary, mapping_table

    if str(file) != "-" and not file.is_file():
        fail(f"FILE: no such file {str(file)!r}")
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console(stderr=True),
        disable=not progress,
        transient=True,
    )
    if snapshot:
        if str(file) == "-":
            fail("FILE: a snapshot is read twice; give a file, not stdin")
        with connect(False) as bg, bar:
            bg.init_schema()
            task = bar.add_task("restoring", total=transfer.snapshot_size(file) or None)
            summary = transfer.restore_snapshot(
                bg.store, file, batch_size=batch_size, progress=lambda n: bar.advance(task, n)
            )
        if namespace is not None and namespace != summary["namespace"]:
            typer.echo(
                f"note: --namespace ignored; a snapshot restores its own ({summary['namespace']})",
                err=True,
            )
        if as_json:
            _emit_json(summary)
        else:
            flat = {f"{k} nodes": v for k, v in summary["nodes"].items()}
            console().print(
                mapping_table(
                    f"restored {summary['namespace']}",
                    {**flat, "relationships": summary["edges"]},
                )
            )
        return

    stream = sys.stdin if str(file) == "-" else file.open(encoding="utf-8")
    total = None
    if stream is not sys.stdin:
        with file.open(encoding="utf-8") as counting:
            total = sum(1 for line in counting if line.strip())
    stats = transfer.ImportStats()
    try:
        with connect(models) as bg, bar:
            task = bar.add_task("remembering", total=total)
            stats = transfer.import_claims(
                bg,
                stream,
                namespace=namespace,
                batch_size=batch_size,
                progress=lambda n: bar.advance(task, n),
                use_ingest=not one_by_one,
            )
    except transfer.ImportLineError as exc:
        fail(f"{exc} ({exc.done} earlier claims stored)")
    finally:
        if stream is not sys.stdin:
            stream.close()
    if as_json:
        _emit_json(stats.as_dict())
    else:
        console().print(import_summary(stats))


@app.command("export")
@handle_errors
def export_cmd(
    namespace: Annotated[str, typer.Option(help="The namespace to export.")],
    file: Annotated[
        Path | None, typer.Argument(help="Snapshot file to write (default: stdout).")
    ] = None,
) -> None:
    """Write a namespace's whole graph (slots, claims with embeddings, episodes, revisions, every
    relationship) as a JSONL snapshot that `import --snapshot` restores exactly."""
    from belief_graph.transfer import export_namespace

    with connect() as bg:
        if file is None or str(file) == "-":
            counts = export_namespace(bg.store, namespace, sys.stdout)
            sys.stdout.flush()
        else:
            partial = file.with_name(file.name + ".partial")
            with partial.open("w", encoding="utf-8") as out:
                counts = export_namespace(bg.store, namespace, out)
            partial.replace(file)
    summary = ", ".join(f"{v} {k}" for k, v in counts.items()) or "nothing"
    typer.echo(f"exported {namespace}: {summary}", err=True)


@app.command("current")
@handle_errors
def current_cmd(
    namespace: Namespace, subject: Subject, predicate: Predicate, as_json: JsonOption = False
) -> None:
    """The current belief about one fact, or 'unknown'."""
    with connect() as bg:
        claim = bg.current(namespace, subject, predicate)
    _show_belief(claim, f"{subject} · {predicate}", as_json)


@app.command("beliefs")
@handle_errors
def beliefs_cmd(namespace: Namespace, subject: Subject, as_json: JsonOption = False) -> None:
    """Every current belief about a subject."""
    with connect() as bg:
        claims = bg.beliefs(namespace, subject)
    _show_claims(claims, f"beliefs about {subject}", as_json, "no beliefs")


@app.command("history")
@handle_errors
def history_cmd(
    namespace: Namespace, subject: Subject, predicate: Predicate, as_json: JsonOption = False
) -> None:
    """Every claim ever made about one fact, oldest first."""
    with connect() as bg:
        claims = bg.history(namespace, subject, predicate)
    _show_claims(claims, f"history of {subject} · {predicate}", as_json, "no history")


@app.command("lineage")
@handle_errors
def lineage_cmd(namespace: Namespace, claim_id: ClaimId, as_json: JsonOption = False) -> None:
    """A claim's version chain, provenance, revisions and dependents, as a tree."""
    with connect() as bg:
        lineage = bg.lineage(namespace, claim_id)
    if as_json:
        _emit_json(lineage.model_dump(mode="json"))
        return
    from belief_graph.cli_render import console, lineage_tree

    console().print(lineage_tree(lineage))


@app.command("as-of")
@handle_errors
def as_of_cmd(
    namespace: Namespace,
    subject: Subject,
    predicate: Predicate,
    valid_at: Annotated[str | None, typer.Option(help="World time (ISO-8601).")] = None,
    known_at: Annotated[str | None, typer.Option(help="Transaction time (ISO-8601).")] = None,
    as_json: JsonOption = False,
) -> None:
    """What held at world time --valid-at, as the engine knew it at --known-at."""
    valid = parse_when("--valid-at", valid_at)
    known = parse_when("--known-at", known_at)
    with connect() as bg:
        claim = bg.as_of(namespace, subject, predicate, valid_at=valid, known_at=known)
    _show_belief(claim, f"{subject} · {predicate} as of", as_json)


@app.command("conflicts")
@handle_errors
def conflicts_cmd(
    namespace: Namespace,
    open_only: Annotated[bool, typer.Option("--open", help="Only unresolved ones.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Recorded contradictions, newest first."""
    with connect() as bg:
        conflicts = bg.conflicts(namespace, open_only=open_only)
    if as_json:
        _emit_json([c.model_dump(mode="json") for c in conflicts])
        return
    if not conflicts:
        typer.echo("no conflicts")
        return
    from belief_graph.cli_render import conflicts_table, console

    console().print(conflicts_table(conflicts, "open conflicts" if open_only else "conflicts"))


@app.command("pending")
@handle_errors
def pending_cmd(namespace: Namespace, as_json: JsonOption = False) -> None:
    """Claims waiting for a human to confirm or reject them."""
    with connect() as bg:
        claims = bg.pending(namespace)
    _show_claims(claims, "pending confirmation", as_json, "nothing pending")


@app.command("review")
@handle_errors
def review_cmd(namespace: Namespace, as_json: JsonOption = False) -> None:
    """Claims flagged needs_review because a premise was retired."""
    with connect() as bg:
        claims = bg.needs_review(namespace)
    if as_json or not claims:
        _show_claims(claims, "", as_json, "nothing to review")
        return
    from belief_graph.cli_render import claims_table, console

    out = console()
    out.print(claims_table(claims, "needs review"))
    for c in claims:
        out.print(f"{c.id}: {c.review_reason or ''}")


@app.command("confirm")
@handle_errors
def confirm_cmd(
    namespace: Namespace, claim_id: ClaimId, actor: ActorOption = None, as_json: JsonOption = False
) -> None:
    """Accept a pending claim: it becomes the belief; its rival is superseded."""
    with connect() as bg:
        result = bg.confirm(namespace, claim_id, actor=actor)
    _show_result(result, as_json)


@app.command("reject")
@handle_errors
def reject_cmd(
    namespace: Namespace, claim_id: ClaimId, actor: ActorOption = None, as_json: JsonOption = False
) -> None:
    """Reject a pending claim: it is kept as rejected; the current belief stands."""
    with connect() as bg:
        result = bg.reject(namespace, claim_id, actor=actor)
    _show_result(result, as_json)


@app.command("resolve")
@handle_errors
def resolve_cmd(
    namespace: Namespace,
    claim_id: ClaimId,
    rival_id: Annotated[str, typer.Argument(help="The other side of the conflict.")],
    keep: Annotated[str, typer.Option(help="The side that is right (one of the two ids).")],
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Settle an open conflict for --keep: the other side was wrong."""
    with connect() as bg:
        result = bg.resolve(namespace, claim_id, rival_id, keep=keep, reason=reason, actor=actor)
    _show_result(result, as_json)


@app.command("dismiss")
@handle_errors
def dismiss_cmd(
    namespace: Namespace,
    claim_id: ClaimId,
    rival_id: Annotated[str, typer.Argument(help="The other side of the conflict.")],
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Dismiss an open conflict: the two claims do not contradict each other; both stay."""
    with connect() as bg:
        result = bg.dismiss(namespace, claim_id, rival_id, reason=reason, actor=actor)
    _show_result(result, as_json)


@app.command("reviewed")
@handle_errors
def reviewed_cmd(
    namespace: Namespace,
    claim_id: ClaimId,
    premise: Annotated[
        str | None, typer.Option(help="Depend on this claim (the new version) from now on.")
    ] = None,
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Lift a claim's needs_review flag, optionally re-pointing it to a new premise."""
    with connect() as bg:
        result = bg.reviewed(namespace, claim_id, premise=premise, reason=reason, actor=actor)
    _show_result(result, as_json)


@app.command("retract")
@handle_errors
def retract_cmd(
    namespace: Namespace,
    claim_id: ClaimId,
    close: Annotated[
        bool, typer.Option("--close", help="It was true until --valid-to (not wrong): close it.")
    ] = False,
    valid_to: Annotated[
        str | None, typer.Option(help="End of validity for --close (default now); implies it.")
    ] = None,
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Contract a belief: retract it (it was wrong) or --close it (it ended)."""
    end = parse_when("--valid-to", valid_to)
    with connect() as bg:
        result = bg.contract(
            namespace,
            claim_id,
            retract=not (close or end is not None),
            valid_to=end,
            reason=reason,
            actor=actor,
        )
    _show_result(result, as_json)


@app.command("rollback")
@handle_errors
def rollback_cmd(
    namespace: Namespace,
    revision_id: Annotated[str, typer.Argument(help="The revision to reverse.")],
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Reverse an earlier revision with a new one (refused if later revisions touched the fact)."""
    with connect() as bg:
        result = bg.rollback(namespace, revision_id, actor=actor)
    _show_result(result, as_json)


@app.command("erase")
@handle_errors
def erase_cmd(
    namespace: Namespace,
    subject: Annotated[str | None, typer.Option(help="Erase only this subject.")] = None,
    claims: Annotated[
        list[str] | None, typer.Option("--claim", help="Erase only this claim (repeatable).")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """GDPR Art. 17: remove the content of a namespace, a subject or claims, for good."""
    if claims:
        scope = f"{len(claims)} claim(s) in {namespace}"
    elif subject is not None:
        scope = f"everything about {subject!r} in {namespace}"
    else:
        scope = f"the whole namespace {namespace}"
    if not yes:
        try:
            agreed = typer.confirm(f"Erase the content of {scope}? This cannot be undone")
        except typer.Abort:
            fail("refusing to erase without confirmation: no answer on stdin; pass --yes")
        if not agreed:
            fail("erase cancelled")
    with connect() as bg:
        result = bg.erase(namespace, subject=subject, claim_ids=claims or None, actor=actor)
    _show_result(result, as_json)


@app.command("search")
@handle_errors
def search_cmd(
    query: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    namespace: Annotated[str, typer.Option("--namespace", "-n", help="Namespace to search.")],
    k: Annotated[int, typer.Option("--k", help="How many hits.")] = 10,
    history: Annotated[
        bool, typer.Option("--history", help="Search every version, not only current beliefs.")
    ] = False,
    valid_at: Annotated[
        str | None, typer.Option("--valid-at", help="World time (ISO-8601).")
    ] = None,
    known_at: Annotated[
        str | None, typer.Option("--known-at", help="Transaction time (ISO-8601).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Claims nearest in meaning to QUERY: current beliefs by default, each with its rivals."""
    valid = parse_when("--valid-at", valid_at)
    known = parse_when("--known-at", known_at)
    with connect(models=True) as bg:
        hits = bg.search(query, namespace, k, history=history, valid_at=valid, known_at=known)
    if as_json:
        _emit_json([{**h.model_dump(mode="json"), "contested": h.contested} for h in hits])
        return
    from belief_graph.cli_render import console, search_table

    if not hits:
        typer.echo("no matching claims")
        return
    console().print(search_table(hits, f"search: {query}"))


@app.command("doctor")
@handle_errors
def doctor_cmd(
    models: Annotated[
        bool, typer.Option("--models/--no-models", help="Check with the models loaded.")
    ] = True,
    as_json: JsonOption = False,
) -> None:
    """Connectivity, schema, vector index, models, and a paraphrased query retrieving the right
    belief. Exits 1 when a check fails."""
    with connect(models=models) as bg:
        bg.init_schema()
        report = bg.doctor()
    if as_json:
        _emit_json({"ok": report.ok, "checks": [c.model_dump() for c in report.checks]})
    else:
        for check in report.checks:
            mark = "ok  " if check.ok else "FAIL"
            typer.echo(f"{mark}  {check.name}: {check.detail}")
    if not report.ok:
        raise typer.Exit(1)


@app.command("demo")
@handle_errors
def demo_cmd() -> None:
    """The engine's stories on a real Neo4j (started if needed), narrated, in a fresh namespace."""
    from belief_graph import demo
    from belief_graph.cli_render import console

    with connect() as bg:
        bg.init_schema()
        from belief_graph.launcher import LocalNeo4j

        local = LocalNeo4j()
        browser = local.browser_url if local.is_running() else None
        demo.run(bg, console(), browser)


@app.command("browser")
@handle_errors
def browser_cmd(
    query: Annotated[str, typer.Argument(help="Audit query: slot-lineage, open-conflicts, ...")],
    args: Annotated[
        list[str] | None, typer.Argument(help="Its parameters as name=value.", show_default=False)
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """A Neo4j Browser URL that opens with a saved audit query (cypher/audit/) in the editor,
    and the :param lines to run before it. BELIEF_GRAPH_BROWSER_URL overrides the Browser."""
    from belief_graph.audit import browser_link

    link = browser_link(query, args or [])
    if as_json:
        _emit_json(link.as_dict())
        return
    typer.echo(link.url)
    if link.param_lines:
        typer.echo("\nIn Browser, run these first (Browser forgets parameters on reload):")
        for line in link.param_lines:
            typer.echo(f"  {line}")


def main() -> None:
    """Entry point of the ``belief-graph`` console script."""
    app()


if __name__ == "__main__":
    main()
