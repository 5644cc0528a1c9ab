"""The ``belief-graph`` command line.

One ``app``; each command group is a sub-app added with ``app.add_typer``. Commands import heavy
modules inside their bodies so that ``--help`` stays fast, and wear ``@handle_errors`` so that a
``BeliefGraphError`` ends in a one-line message and exit status 1, never a traceback.
"""

from __future__ import annotations

import functools
import json
import logging
import shlex
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from typer.core import TyperCommand

from belief_graph.errors import BeliefGraphError

if TYPE_CHECKING:
    import pydantic

    from belief_graph.cli.render import Times
    from belief_graph.client import BeliefGraph
    from belief_graph.models import Claim, RevisionResult, ScopedAnswer

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    name="belief-graph",
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


class Command(TyperCommand):
    """A command whose usage line leaves out hidden arguments (the deprecated positional
    namespace)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:  # typer's own vendored click Context
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if not getattr(param, "hidden", False):
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


neo4j_app = typer.Typer(
    help="Run a Neo4j for belief-graph on this machine (Docker if available, else Java).",
    no_args_is_help=True,
)
app.add_typer(neo4j_app, name="neo4j")


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: <first line of message>`` on stderr and exit with ``code``."""
    from belief_graph.cli.render import clean

    first_line = message.strip().splitlines()[0] if message.strip() else "failed"
    typer.echo(f"error: {clean(first_line)}", err=True)
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

            from belief_graph.transfer.claims import describe_validation

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
    from belief_graph.server.launcher import LocalNeo4j
    from belief_graph.server.provide import user_server

    server = LocalNeo4j() if launcher else user_server()
    status = server.start(wait_seconds=wait)
    _print_status(status.as_dict(), as_json)


@neo4j_app.command("stop")
@handle_errors
def neo4j_stop(
    timeout: Annotated[int, typer.Option(help="Seconds to wait before SIGKILL.")] = 30,
) -> None:
    """Stop the Neo4j started by 'belief-graph neo4j start' (data is kept)."""
    from belief_graph.server.compose import ComposeNeo4j
    from belief_graph.server.launcher import LocalNeo4j
    from belief_graph.server.provide import docker_available

    local = LocalNeo4j()
    pid = local.status().pid
    if local.stop(timeout=timeout):
        typer.echo(f"stopped Neo4j (pid {pid})")
    elif docker_available():
        ComposeNeo4j().stop()
        typer.echo("stopped the docker compose Neo4j")
    else:
        typer.echo("Neo4j is not running")


@neo4j_app.command("compact")
@handle_errors
def neo4j_compact(
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    wait: Annotated[int, typer.Option(help="Seconds to wait for each start.")] = 120,
    as_json: JsonOption = False,
) -> None:
    """Rewrite the local server's store so nothing erased stays on disk (stop writers first).

    Exports every namespace, restarts Neo4j on an empty store and restores them; the old store
    is deleted only after everything is back.
    """
    import os

    from belief_graph.cli.render import mapping_table, show
    from belief_graph.server.launcher import LocalNeo4j
    from belief_graph.server.provide import docker_available
    from belief_graph.transfer.compact import compact

    if os.environ.get("NEO4J_URI"):
        fail("compact rewrites the launcher's own server; unset NEO4J_URI (it names another)")
    server = LocalNeo4j()
    if not server.is_running() and docker_available():
        fail(
            "compact rewrites the launcher's server, and yours is docker compose; see "
            "docs/threat-model.md for rewriting that store"
        )
    if not yes:
        try:
            agreed = typer.confirm(
                "Rewrite the local Neo4j store? Writes made meanwhile are lost; stop writers first"
            )
        except typer.Abort:
            fail("refusing to compact without confirmation: no answer on stdin; pass --yes")
        if not agreed:
            fail("compact cancelled")
    report = compact(server, wait_seconds=wait, progress=lambda step: typer.echo(step, err=True))
    if as_json:
        _emit_json(report)
    else:
        from belief_graph.cli.render import console

        show(console(), mapping_table("compacted", report))


@neo4j_app.command("status")
@handle_errors
def neo4j_status(as_json: JsonOption = False) -> None:
    """Show whether Neo4j runs, its Bolt URI, Browser URL and server version."""
    from belief_graph.server.provide import user_server

    status = user_server().status()
    _print_status(status.as_dict(), as_json)


# -- engine commands ---------------------------------------------------------------------------

ModelsOption = Annotated[
    bool,
    typer.Option(
        "--models", help="Load the embedding and contradiction models (default: structural only)."
    ),
]
NamespaceOption = Annotated[
    str | None,
    typer.Option(
        "--namespace",
        "-n",
        help="Namespace, e.g. user:priya (default: $BELIEF_GRAPH_NAMESPACE, else the config file).",
        show_default=False,
    ),
]
ScopeOption = Annotated[
    str | None,
    typer.Option(
        "--scope",
        help="Read through a scope chain instead of one namespace, nearest first, e.g. "
        "'session:42 > agent:reviewer > project:atlas' (see docs/policy.md).",
        show_default=False,
    ),
]
# The namespace as a first positional argument: the form before -n, accepted for one release.
LegacyNamespace = Annotated[str | None, typer.Argument(hidden=True, show_default=False)]
Subject = Annotated[str, typer.Argument(help="Subject of the fact.", metavar="SUBJECT")]
Predicate = Annotated[
    str, typer.Argument(help="Predicate (synonyms are normalized).", metavar="PREDICATE")
]
ClaimId = Annotated[str, typer.Argument(help="Claim id.", metavar="CLAIM_ID")]
ActorOption = Annotated[str | None, typer.Option("--actor", help="Who performs the operation.")]


def _check_tz(value: str | None) -> str | None:
    if value is not None:
        times_of(value)  # a bad zone fails before anything else runs
    return value


TzOption = Annotated[
    str | None,
    typer.Option(
        "--tz",
        callback=_check_tz,
        help="Show times in 'local', 'UTC' or a zone such as Europe/Lisbon (default: "
        "$BELIEF_GRAPH_TZ, else the config file, else local; UTC with --json unless --tz is "
        "given).",
        show_default=False,
    ),
]


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version as installed

        typer.echo(f"belief-graph {installed('belief-graph')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            is_eager=True,
            callback=_print_version,
            expose_value=True,
        ),
    ] = False,
) -> None:
    """A belief-revision engine for AI-agent memory on Neo4j.

    Every command that works in a namespace takes -n/--namespace NS; its default comes from
    BELIEF_GRAPH_NAMESPACE or the config file (see docs/cli.md).
    """
    # The driver logs every retry of a transaction as a warning; the command's own one-line
    # error says what matters.
    quiet = logging.getLogger("neo4j")
    if not any(isinstance(h, logging.NullHandler) for h in quiet.handlers):
        quiet.addHandler(logging.NullHandler())
        quiet.propagate = False


def namespace_of(
    command: str,
    option: str | None,
    legacy: str | None = None,
    positionals: Sequence[str] = (),
    *,
    explicit: bool = False,
) -> tuple[str, list[str]]:
    """The namespace and the positional arguments, new form or old.

    The old form names the namespace as the first positional argument, so a command given one
    argument more than it takes is read that way (``legacy`` is the extra last one), with a
    deprecation line on stderr. ``explicit``: the namespace must be on the command line.
    """
    from belief_graph.cli.config import NAMESPACE_ENV, ConfigError, config_path, resolve

    args = list(positionals)
    if legacy is not None:
        if option is not None:
            fail(f"-n/--namespace: given twice ({option!r} and the first argument {args[0]!r})")
        args.append(legacy)
        namespace, args = args[0], args[1:]
        from belief_graph.cli.render import clean

        shown = clean(shlex.join(["belief-graph", command, "-n", namespace, *args]))
        typer.echo(
            f"warning: the namespace as first argument is deprecated and goes in the next "
            f"release; write: {shown}",
            err=True,
        )
        return namespace, args
    if explicit:
        if option is None:
            fail(f"-n/--namespace: {command} needs the namespace on the command line")
        return option, args
    try:
        setting = resolve("namespace", option, NAMESPACE_ENV)
    except ConfigError as exc:
        fail(str(exc))
    if setting.value is None:
        fail(
            f"-n/--namespace: no namespace given; pass -n NS, or set {NAMESPACE_ENV} or "
            f"'namespace' in {config_path()}"
        )
    return setting.value, args


def times_of(option: str | None) -> Times:
    """How to show times: ``--tz`` (``local``, ``UTC`` or an IANA zone), else the default."""
    from belief_graph.cli.config import TZ_ENV, ConfigError, resolve
    from belief_graph.cli.render import Times

    try:
        setting = resolve("tz", option, TZ_ENV)
    except ConfigError as exc:
        fail(str(exc))
    name = setting.value or "local"
    where = "--tz" if setting.source == "option" else setting.source
    if name.lower() == "local":
        zone = datetime.now().astimezone().tzinfo or UTC
        return Times(zone, f"local time ({datetime.now(zone).strftime('%Z')})")
    if name.upper() in ("UTC", "Z"):
        return Times(UTC, "UTC")
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return Times(ZoneInfo(name), name)
    except (ZoneInfoNotFoundError, ValueError):
        fail(f"{where}: {name!r} is not 'local', 'UTC' or a time zone such as Europe/Lisbon")


def connect(models: bool = False) -> BeliefGraph:
    """``NEO4J_URI`` if set; else the Neo4j of ``belief-graph neo4j start``, started if needed
    (the library's order: ``server/provide.py``)."""
    from belief_graph.client import BeliefGraph

    return BeliefGraph.connect(models=models)


def open_graph(models: bool = False) -> BeliefGraph:
    """``connect``, then one round trip: a database that is down fails here at once, in one
    line, rather than after the driver has retried the command's first query for half a
    minute."""
    bg = connect(models)
    try:
        bg.store.verify()
    except BaseException:
        bg.close()
        raise
    return bg


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


def _retime(python: Any, plain: Any, zone: tzinfo) -> Any:
    """``plain`` (a JSON dump) with each date-time that ``python`` (the same dump in Python
    mode) holds rewritten in ``zone``."""
    if isinstance(python, datetime):
        return python.astimezone(zone).isoformat()
    if isinstance(python, dict) and isinstance(plain, dict):
        return {k: _retime(python.get(k), v, zone) for k, v in plain.items()}
    if isinstance(python, list | tuple) and isinstance(plain, list):
        return [_retime(p, v, zone) for p, v in zip(python, plain, strict=True)]
    return plain


def _json_of(
    value: pydantic.BaseModel | Sequence[pydantic.BaseModel] | None, tz: str | None = None
) -> Any:
    """A model (or a list of them) as JSON data: date-times in UTC, or in ``--tz`` if given."""
    if value is None:
        return None
    from pydantic import BaseModel

    if not isinstance(value, BaseModel):
        return [_json_of(v, tz) for v in value]
    plain = value.model_dump(mode="json")
    if tz is None:
        return plain
    return _retime(value.model_dump(), plain, times_of(tz).zone)


def _claim_json(claim: Claim | list[Claim] | None, tz: str | None = None) -> Any:
    return _json_of(claim, tz)


def _show_result(result: RevisionResult, as_json: bool) -> None:
    if as_json:
        _emit_json(result.model_dump(mode="json"))
        return
    from belief_graph.cli.render import console, result_table, show

    show(console(), result_table(result))


def _show_claims(
    claims: list[Claim],
    title: str,
    as_json: bool,
    empty: str,
    tz: str | None,
    *,
    one_fact: bool = False,
) -> None:
    if as_json:
        _emit_json(_claim_json(claims, tz))
        return
    from belief_graph.cli.render import claims_table, console, show

    if not claims:
        typer.echo(empty)
        return
    show(console(), claims_table(claims, title, times_of(tz), one_fact=one_fact))


def _show_belief(
    bg: BeliefGraph,
    namespace: str,
    claim: Claim | list[Claim] | None,
    title: str,
    as_json: bool,
    tz: str | None,
) -> None:
    """One belief as a panel (with its rivals), several as a table, none as 'unknown'."""
    if as_json:
        _emit_json(_claim_json(claim, tz))
    elif claim is None or claim == []:
        typer.echo("unknown: no belief (the engine does not guess)")
    elif isinstance(claim, list):
        _show_claims(claim, title, False, "", tz)
    else:
        from belief_graph.cli.render import belief_panel, console, show

        show(console(), belief_panel(claim, bg.rivals(namespace, [claim]), title, times_of(tz)))


def scope_of(scope: str, namespace: str | None, legacy: str | None = None) -> list[str]:
    """The chain ``--scope`` names, nearest first; refused by name when -n is given too or the
    chain is malformed."""
    from pydantic import TypeAdapter, ValidationError

    from belief_graph.models import ScopeChain

    if namespace is not None or legacy is not None:
        fail("--scope: give -n/--namespace or --scope, not both (the chain names its namespaces)")
    try:
        return list(TypeAdapter(ScopeChain).validate_python(scope))
    except ValidationError as exc:
        error = exc.errors()[0]
        where = "".join(f"[{p}]" for p in error["loc"])
        fail(f"--scope{where}: {error['msg']}")


def _show_scoped(answer: ScopedAnswer, title: str, as_json: bool, tz: str | None) -> None:
    """A belief read through a scope chain: a panel (which namespace answered, the evidence
    disputing a policy), a table for a multi-valued fact, or 'unknown'."""
    if as_json:
        _emit_json(_json_of(answer, tz))
        return
    from belief_graph.cli.render import console, scoped_claims_table, scoped_panel, show

    if not answer.known:
        typer.echo(f"unknown: no belief in {' > '.join(answer.scope)} (the engine does not guess)")
    elif answer.cardinality == "single":
        show(console(), scoped_panel(answer, title, times_of(tz)))
    else:
        show(console(), scoped_claims_table(answer, title, times_of(tz)))


@app.command("init", cls=Command)
@handle_errors
def init_cmd(as_json: JsonOption = False) -> None:
    """Create the constraints and indexes (idempotent) and wait until they are online.

    Example: belief-graph init
    """
    with open_graph() as bg:
        applied = bg.init_schema()
    if as_json:
        _emit_json({"applied": applied})
    else:
        typer.echo(f"schema ready ({len(applied)} statements applied)")


@app.command("remember", cls=Command)
@handle_errors
def remember_cmd(
    namespace: NamespaceOption = None,
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
        bool,
        typer.Option("--correction", help="The old value was wrong: retract it (CONFLICT)."),
    ] = False,
    negated: Annotated[
        bool | None,
        typer.Option(
            "--negated/--affirmed",
            help="Polarity: the relation does not (or no longer) hold for the value "
            "(default: read from the text).",
        ),
    ] = None,
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
    """Tell the engine a claim: NEW, SAME (reinforce), UPDATE or CONFLICT, decided by policy.

    The namespace: -n, else the one in --json-claim, else the default.

    Example: belief-graph remember -n project:atlas --subject atlas --predicate uses
    --object Express.js --text "Atlas uses Express.js." --valid-from 2026-03-01
    """
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
    if namespace is None and "namespace" not in data:
        namespace, _ = namespace_of("remember", None)
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
        "episode_id": episode,
        "episode_content": episode_content,
        "author": author,
        "origin": origin,
        "kind": kind,
        "depends_on": tuple(depends_on) if depends_on else None,
        "supports": tuple(supports) if supports else None,
        "correction": correction or None,
        "negated": negated,
        "id": claim_id,
    }
    data.update({k: v for k, v in flags.items() if v is not None})
    draft = ClaimDraft.model_validate(data)
    with open_graph(models) as bg:
        result = bg.remember(draft, revision_id=revision_id, actor=actor)
    _show_result(result, as_json)


@app.command("observe", cls=Command)
@handle_errors
def observe_cmd(
    text: Annotated[
        str,
        typer.Argument(help="What was said: one turn or several ('-': stdin).", metavar="TEXT"),
    ],
    speaker: Annotated[
        str, typer.Option("--speaker", help="Who said it: 'I' and 'my' are about this subject.")
    ],
    namespace: NamespaceOption = None,
    at: Annotated[
        str | None,
        typer.Option("--at", help="When it was said, ISO-8601 (default: now)."),
    ] = None,
    context: Annotated[
        list[str] | None,
        typer.Option("--context", help="An earlier turn, oldest first (repeatable)."),
    ] = None,
    episode: Annotated[
        str | None,
        typer.Option("--id", help="Episode id: observing it again changes nothing."),
    ] = None,
    extractor: Annotated[
        str,
        typer.Option(
            "--extractor",
            help="auto (the LLM when BELIEF_GRAPH_EXTRACTOR_URL is set, else rules), rules or llm.",
        ),
    ] = "auto",
    source_type: Annotated[
        str,
        typer.Option(help="human_verified, user_stated, observed, tool_output or inferred."),
    ] = "user_stated",
    actor: ActorOption = None,
    models: ModelsOption = False,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take in what someone said: claims are extracted, verified against it, and remembered.

    Each proposed claim goes through remember with the words it came from; with --models a
    claim its source contradicts is refused, one it does not support waits as pending.

    Example: belief-graph observe -n user:alice --speaker alice "I'm pescatarian these days."
    """
    from belief_graph.extraction import ChatExtractor, Episode, Extractor, RuleExtractor
    from belief_graph.extraction import default_extractor as auto

    ns, _ = namespace_of("observe", namespace)
    if text == "-":
        text = sys.stdin.read()
    choices: dict[str, Callable[[], Extractor]] = {
        "auto": auto,
        "rules": RuleExtractor,
        "llm": ChatExtractor,
    }
    if extractor not in choices:
        fail(f"--extractor: {extractor!r} is not auto, rules or llm")
    chosen = choices[extractor]()
    said = Episode.model_validate(
        {
            "speaker": speaker,
            "at": parse_when("--at", at) or datetime.now(UTC),
            "text": text,
            "context": tuple(context or ()),
            "id": episode,
        }
    )
    with open_graph(models) as bg:
        observation = bg.observe(
            ns,
            said,
            extractor=chosen,
            source_type=source_type,  # type: ignore[arg-type]
            actor=actor,
        )
    if as_json:
        _emit_json(_json_of(observation, tz))
        return
    from belief_graph.cli.render import console, observation_table, show

    if not observation.proposals and not observation.refused:
        typer.echo(f"no claims found in what {speaker} said ({observation.extractor} extractor)")
        return
    show(console(), observation_table(observation, times_of(tz)))


@app.command("import", cls=Command)
@handle_errors
def import_cmd(
    file: Annotated[Path, typer.Argument(help="JSONL file: one ClaimDraft per line ('-': stdin).")],
    namespace: Annotated[
        str | None,
        typer.Option(
            "--namespace",
            "-n",
            help="Namespace for lines that name none (default: $BELIEF_GRAPH_NAMESPACE, else "
            "the config file).",
            show_default=False,
        ),
    ] = None,
    snapshot: Annotated[
        bool, typer.Option("--snapshot", help="FILE is an `export` snapshot: restore it.")
    ] = False,
    batch_size: Annotated[
        int | None,
        typer.Option(
            min=1, help="Claims per transaction [default: 500; 100 for an import with --models]."
        ),
    ] = None,
    one_by_one: Annotated[
        bool,
        typer.Option("--one-by-one", help="One transaction per claim (remember), not batches."),
    ] = False,
    history: Annotated[
        bool,
        typer.Option(
            "--history",
            help="The lines are history learned elsewhere: each keeps its recorded_at "
            "(required), audited as an import revision naming --actor (required).",
        ),
    ] = False,
    actor: ActorOption = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
    models: ModelsOption = False,
    as_json: JsonOption = False,
) -> None:
    """Remember a JSONL file of claims in order; or with --snapshot, restore an export.

    The engine stamps when it learned each claim (recorded_at) with its own clock; a line that
    gives one is refused, unless --history imports it as history, keeping the line's stamp.

    Example: belief-graph import claims.jsonl -n project:atlas
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from belief_graph.cli.config import NAMESPACE_ENV, ConfigError, resolve
    from belief_graph.cli.render import console, import_summary, mapping_table, show
    from belief_graph.client import INGEST_BATCH
    from belief_graph.transfer import claims as claim_import
    from belief_graph.transfer import snapshot as snapshots

    if str(file) != "-" and not file.is_file():
        fail(f"FILE: no such file {str(file)!r}")
    if history and (snapshot or not actor):
        fail(
            "--history: a snapshot keeps its own history"
            if snapshot
            else "--actor: an import of history names who imports it"
        )
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
        with open_graph(False) as bg, bar:
            bg.init_schema()
            task = bar.add_task("restoring", total=snapshots.snapshot_size(file) or None)
            summary = snapshots.restore_snapshot(
                bg.store,
                file,
                batch_size=batch_size or INGEST_BATCH,
                progress=lambda n: bar.advance(task, n),
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
            show(
                console(),
                mapping_table(
                    f"restored {summary['namespace']}",
                    {**flat, "relationships": summary["edges"]},
                ),
            )
        return

    try:
        namespace = resolve("namespace", namespace, NAMESPACE_ENV).value
    except ConfigError as exc:
        fail(str(exc))
    stream = sys.stdin if str(file) == "-" else file.open(encoding="utf-8")
    total = None
    if stream is not sys.stdin:
        with file.open(encoding="utf-8") as counting:
            total = sum(1 for line in counting if line.strip())
    stats = claim_import.ImportStats()
    try:
        with open_graph(models) as bg, bar:
            task = bar.add_task("remembering", total=total)
            stats = claim_import.import_claims(
                bg,
                stream,
                namespace=namespace,
                batch_size=batch_size,
                progress=lambda n: bar.advance(task, n),
                use_ingest=not one_by_one,
                source=None if stream is sys.stdin else str(file.resolve()),
                history_by=actor if history else None,
            )
    except claim_import.ImportLineError as exc:
        again = (
            "; fix it and run the same command again: the lines already stored are not applied "
            "twice"
            if stream is not sys.stdin
            else ""
        )
        fail(f"{exc} ({exc.done} earlier claims stored{again})")
    finally:
        if stream is not sys.stdin:
            stream.close()
    if as_json:
        _emit_json(stats.as_dict())
    else:
        show(console(), import_summary(stats))


@app.command("export", cls=Command)
@handle_errors
def export_cmd(
    namespace: NamespaceOption = None,
    file: Annotated[
        Path | None, typer.Argument(help="Snapshot file to write (default: stdout).")
    ] = None,
) -> None:
    """Write a namespace's whole graph (slots, claims with embeddings, episodes, revisions, every
    relationship) as a JSONL snapshot that `import --snapshot` restores exactly.

    Example: belief-graph export -n project:atlas atlas.jsonl
    """
    from belief_graph.cli.render import clean
    from belief_graph.transfer.snapshot import export_namespace

    namespace, _ = namespace_of("export", namespace)
    with open_graph() as bg:
        if file is None or str(file) == "-":
            counts = export_namespace(bg.store, namespace, sys.stdout)
            sys.stdout.flush()
        else:
            partial = file.with_name(file.name + ".partial")
            with partial.open("w", encoding="utf-8") as out:
                counts = export_namespace(bg.store, namespace, out)
            partial.replace(file)
    summary = ", ".join(f"{v} {k}" for k, v in counts.items()) or "nothing"
    typer.echo(f"exported {clean(namespace)}: {summary}", err=True)


@app.command("current", cls=Command)
@handle_errors
def current_cmd(
    subject: Subject,
    predicate: Predicate,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    scope: ScopeOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """The current belief about one fact (a panel), a list for a multi-valued predicate, or
    'unknown'. With --scope, read through a chain of namespaces: the panel says which one
    answered, and evidence disputing a policy.

    Example: belief-graph current -n project:atlas atlas uses
    """
    if scope is not None:
        chain = scope_of(scope, namespace, legacy)
        with open_graph() as bg:
            answer = bg.scoped_current(chain, subject, predicate)
        _show_scoped(answer, f"{subject} · {predicate}", as_json, tz)
        return
    namespace, (subject, predicate) = namespace_of(
        "current", namespace, legacy, (subject, predicate)
    )
    with open_graph() as bg:
        claim = bg.current(namespace, subject, predicate)
        _show_belief(bg, namespace, claim, f"{subject} · {predicate}", as_json, tz)


@app.command("beliefs", cls=Command)
@handle_errors
def beliefs_cmd(
    subject: Subject,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every current belief about a subject.

    Example: belief-graph beliefs -n user:priya priya
    """
    namespace, (subject,) = namespace_of("beliefs", namespace, legacy, (subject,))
    with open_graph() as bg:
        claims = bg.beliefs(namespace, subject)
    _show_claims(claims, f"beliefs about {subject}", as_json, "no beliefs", tz)


@app.command("history", cls=Command)
@handle_errors
def history_cmd(
    subject: Subject,
    predicate: Predicate,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every claim ever made about one fact, oldest first.

    Example: belief-graph history -n project:atlas atlas uses
    """
    namespace, (subject, predicate) = namespace_of(
        "history", namespace, legacy, (subject, predicate)
    )
    with open_graph() as bg:
        claims = bg.history(namespace, subject, predicate)
    title = f"history of {subject} · {predicate}"
    _show_claims(claims, title, as_json, "no history", tz, one_fact=True)


@app.command("lineage", cls=Command)
@handle_errors
def lineage_cmd(
    claim_id: ClaimId,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """A claim's version chain, provenance, revisions and dependents, as a tree.

    Example: belief-graph lineage -n project:atlas 01M8KNXQ...
    """
    namespace, (claim_id,) = namespace_of("lineage", namespace, legacy, (claim_id,))
    with open_graph() as bg:
        lineage = bg.lineage(namespace, claim_id)
    if as_json:
        _emit_json(_json_of(lineage, tz))
        return
    from belief_graph.cli.render import console, lineage_tree, show

    show(console(), lineage_tree(lineage, times_of(tz)))


@app.command("as-of", cls=Command)
@handle_errors
def as_of_cmd(
    subject: Subject,
    predicate: Predicate,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    valid_at: Annotated[str | None, typer.Option(help="World time (ISO-8601).")] = None,
    known_at: Annotated[str | None, typer.Option(help="Transaction time (ISO-8601).")] = None,
    scope: ScopeOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """What held at world time --valid-at, as the engine knew it at --known-at.

    With --scope, read through a chain of namespaces, as current does.

    Example: belief-graph as-of -n project:atlas atlas uses --valid-at 2026-04-01
    """
    valid = parse_when("--valid-at", valid_at)
    known = parse_when("--known-at", known_at)
    if scope is not None:
        chain = scope_of(scope, namespace, legacy)
        with open_graph() as bg:
            answer = bg.scoped_as_of(chain, subject, predicate, valid_at=valid, known_at=known)
        _show_scoped(answer, f"{subject} · {predicate} as of", as_json, tz)
        return
    namespace, (subject, predicate) = namespace_of("as-of", namespace, legacy, (subject, predicate))
    with open_graph() as bg:
        claim = bg.as_of(namespace, subject, predicate, valid_at=valid, known_at=known)
        _show_belief(bg, namespace, claim, f"{subject} · {predicate} as of", as_json, tz)


@app.command("conflicts", cls=Command)
@handle_errors
def conflicts_cmd(
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    open_only: Annotated[bool, typer.Option("--open", help="Only unresolved ones.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Recorded contradictions, newest first.

    Example: belief-graph conflicts -n user:priya --open
    """
    namespace, _ = namespace_of("conflicts", namespace, legacy)
    with open_graph() as bg:
        conflicts = bg.conflicts(namespace, open_only=open_only)
    if as_json:
        _emit_json([c.model_dump(mode="json") for c in conflicts])
        return
    if not conflicts:
        typer.echo("no conflicts")
        return
    from belief_graph.cli.render import conflicts_table, console, show

    show(console(), conflicts_table(conflicts, "open conflicts" if open_only else "conflicts"))


@app.command("pending", cls=Command)
@handle_errors
def pending_cmd(
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Claims waiting for a human to confirm or reject them.

    Example: belief-graph pending -n user:priya
    """
    namespace, _ = namespace_of("pending", namespace, legacy)
    with open_graph() as bg:
        claims = bg.pending(namespace)
    _show_claims(claims, "pending confirmation", as_json, "nothing pending", tz)


@app.command("review", cls=Command)
@handle_errors
def review_cmd(
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Claims flagged needs_review because a premise was retired.

    Example: belief-graph review -n project:atlas
    """
    namespace, _ = namespace_of("review", namespace, legacy)
    with open_graph() as bg:
        claims = bg.needs_review(namespace)
    if as_json or not claims:
        _show_claims(claims, "", as_json, "nothing to review", tz)
        return
    from belief_graph.cli.render import claims_table, console, review_lines, show

    show(console(), claims_table(claims, "needs review", times_of(tz)), review_lines(claims))


@app.command("confirm", cls=Command)
@handle_errors
def confirm_cmd(
    claim_id: ClaimId,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Accept a pending claim: it becomes the belief; its rival is superseded.

    Example: belief-graph confirm -n user:priya 01M8KR... --actor ana
    """
    namespace, (claim_id,) = namespace_of("confirm", namespace, legacy, (claim_id,))
    with open_graph() as bg:
        result = bg.confirm(namespace, claim_id, actor=actor)
    _show_result(result, as_json)


@app.command("reject", cls=Command)
@handle_errors
def reject_cmd(
    claim_id: ClaimId,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Reject a pending claim: it is kept as rejected; the current belief stands.

    Example: belief-graph reject -n user:priya 01M8KR... --actor ana
    """
    namespace, (claim_id,) = namespace_of("reject", namespace, legacy, (claim_id,))
    with open_graph() as bg:
        result = bg.reject(namespace, claim_id, actor=actor)
    _show_result(result, as_json)


@app.command("resolve", cls=Command)
@handle_errors
def resolve_cmd(
    claim_id: ClaimId,
    rival_id: Annotated[str, typer.Argument(help="The other side of the conflict.")],
    keep: Annotated[str, typer.Option(help="The side that is right (one of the two ids).")],
    namespace: NamespaceOption = None,
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Settle an open conflict for --keep: the other side was wrong and is retracted.

    Example: belief-graph resolve -n user:priya 01M8KR... 01M8KS... --keep 01M8KS...
    """
    namespace, _ = namespace_of("resolve", namespace)
    with open_graph() as bg:
        result = bg.resolve(namespace, claim_id, rival_id, keep=keep, reason=reason, actor=actor)
    _show_result(result, as_json)


@app.command("dismiss", cls=Command)
@handle_errors
def dismiss_cmd(
    claim_id: ClaimId,
    rival_id: Annotated[str, typer.Argument(help="The other side of the conflict.")],
    namespace: NamespaceOption = None,
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Dismiss an open conflict: the two claims do not contradict each other; both stay.

    Example: belief-graph dismiss -n user:priya 01M8KR... 01M8KS... --reason "both hold"
    """
    namespace, _ = namespace_of("dismiss", namespace)
    with open_graph() as bg:
        result = bg.dismiss(namespace, claim_id, rival_id, reason=reason, actor=actor)
    _show_result(result, as_json)


@app.command("reviewed", cls=Command)
@handle_errors
def reviewed_cmd(
    claim_id: ClaimId,
    namespace: NamespaceOption = None,
    premise: Annotated[
        str | None, typer.Option(help="Depend on this claim (the new version) from now on.")
    ] = None,
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Lift a claim's needs_review flag, optionally re-pointing it to a new premise.

    Example: belief-graph reviewed -n project:atlas 01M8KR... --premise 01M8KT...
    """
    namespace, _ = namespace_of("reviewed", namespace)
    with open_graph() as bg:
        result = bg.reviewed(namespace, claim_id, premise=premise, reason=reason, actor=actor)
    _show_result(result, as_json)


@app.command("promote", cls=Command)
@handle_errors
def promote_cmd(
    claim_id: ClaimId,
    by: Annotated[
        str,
        typer.Option(
            help="human (a human's decision: give --actor), record (a merged ADR or pull "
            "request: give --origin) or outcome (held across enough independent episodes)."
        ),
    ],
    namespace: NamespaceOption = None,
    origin: Annotated[str | None, typer.Option(help="The ADR or pull request.")] = None,
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Make evidence policy (audited); a demoted policy promoted again is reinstated.

    Example: belief-graph promote -n project:atlas 01M8KR... --by human --actor ana
    """
    if by not in ("human", "record", "outcome"):
        fail("--by: must be human, record or outcome")
    namespace, _ = namespace_of("promote", namespace)
    with open_graph() as bg:
        result = bg.promote(
            namespace,
            claim_id,
            by=by,  # type: ignore[arg-type]
            origin=origin,
            reason=reason,
            actor=actor,
        )
    _show_result(result, as_json)


@app.command("demote", cls=Command)
@handle_errors
def demote_cmd(
    claim_id: ClaimId,
    namespace: NamespaceOption = None,
    reason: Annotated[str, typer.Option(help="Why, for the audit log.")] = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Demote a policy to disputed: it stays the belief, flagged for a human.

    Example: belief-graph demote -n project:atlas 01M8KR... --reason "builds fail with it"
    """
    namespace, _ = namespace_of("demote", namespace)
    with open_graph() as bg:
        result = bg.demote(namespace, claim_id, reason=reason, actor=actor)
    _show_result(result, as_json)


@app.command("disputes", cls=Command)
@handle_errors
def disputes_cmd(
    namespace: NamespaceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Policies that evidence disputes (or that were demoted), with the evidence against them.

    Example: belief-graph disputes -n project:atlas
    """
    namespace, _ = namespace_of("disputes", namespace)
    with open_graph() as bg:
        disputes = bg.disputes(namespace)
    if as_json:
        _emit_json([{**d.model_dump(mode="json"), "demoted": d.demoted} for d in disputes])
        return
    if not disputes:
        typer.echo("no disputes")
        return
    from belief_graph.cli.render import console, disputes_table, show

    show(console(), disputes_table(disputes, "disputed policies"))


@app.command("retract", cls=Command)
@handle_errors
def retract_cmd(
    claim_id: ClaimId,
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
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
    """Contract a belief: retract it (it was wrong) or --close it (it ended).

    Example: belief-graph retract -n project:atlas 01M8KQ... --close --valid-to 2026-06-01
    """
    namespace, (claim_id,) = namespace_of("retract", namespace, legacy, (claim_id,))
    end = parse_when("--valid-to", valid_to)
    with open_graph() as bg:
        result = bg.contract(
            namespace,
            claim_id,
            retract=not (close or end is not None),
            valid_to=end,
            reason=reason,
            actor=actor,
        )
    _show_result(result, as_json)


@app.command("rollback", cls=Command)
@handle_errors
def rollback_cmd(
    revision_id: Annotated[str, typer.Argument(help="The revision to reverse.")],
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Reverse an earlier revision with a new one (refused if later revisions touched the fact).

    Example: belief-graph rollback -n user:priya 01M8KS...
    """
    namespace, (revision_id,) = namespace_of("rollback", namespace, legacy, (revision_id,))
    with open_graph() as bg:
        result = bg.rollback(namespace, revision_id, actor=actor)
    _show_result(result, as_json)


@app.command("consolidate", cls=Command)
@handle_errors
def consolidate_cmd(
    positional: Annotated[
        str | None,
        typer.Argument(metavar="NAMESPACE", help="The namespace (or -n).", show_default=False),
    ] = None,
    namespace: NamespaceOption = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the plan; change nothing.")
    ] = False,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
    models: ModelsOption = False,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Tidy a namespace (the "sleep" pass) as one revision that `rollback` undoes exactly:
    merge duplicates of one fact (text-only twins included), close conflicts and review flags
    whose cause is gone, check and repair references and version chains; report what it
    cannot repair.

    Example: belief-graph consolidate -n user:priya --dry-run   (or: consolidate user:priya)
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from belief_graph.cli.render import console, consolidation_tables, show

    if positional is not None and namespace is not None and positional != namespace:
        fail(f"-n/--namespace: given twice ({namespace!r} and NAMESPACE {positional!r})")
    namespace, _ = namespace_of("consolidate", positional or namespace)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console(stderr=True),
        disable=not progress,
        transient=True,
    )
    task = bar.add_task("reading claims", total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with open_graph(models) as bg, bar:
        report = bg.consolidate(namespace, dry_run=dry_run, actor=actor, progress=advance)
    if as_json:
        _emit_json(report.model_dump(mode="json"))
        return
    show(console(), *consolidation_tables(report))


@app.command("erase", cls=Command)
@handle_errors
def erase_cmd(
    legacy: LegacyNamespace = None,
    namespace: Annotated[
        str | None,
        typer.Option(
            "--namespace",
            "-n",
            help="Namespace to erase in; never a default: erase needs it on the command line.",
            show_default=False,
        ),
    ] = None,
    subject: Annotated[str | None, typer.Option(help="Erase only this subject.")] = None,
    claims: Annotated[
        list[str] | None, typer.Option("--claim", help="Erase only this claim (repeatable).")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Remove the content of a namespace, a subject or claims for good (GDPR right to erasure).

    Example: belief-graph erase -n user:priya --subject priya
    """
    from belief_graph.cli.render import clean

    namespace, _ = namespace_of("erase", namespace, legacy, explicit=True)
    shown = clean(namespace)
    if claims:
        scope = f"{len(claims)} claim(s) in {shown}"
    elif subject is not None:
        scope = f"everything about {clean(repr(subject))} in {shown}"
    else:
        scope = f"the whole namespace {shown}"
    if not yes:
        try:
            agreed = typer.confirm(f"Erase the content of {scope}? This cannot be undone")
        except typer.Abort:
            fail("refusing to erase without confirmation: no answer on stdin; pass --yes")
        if not agreed:
            fail("erase cancelled")
    with open_graph() as bg:
        result = bg.erase(namespace, subject=subject, claim_ids=claims or None, actor=actor)
    _show_result(result, as_json)


@app.command("search", cls=Command)
@handle_errors
def search_cmd(
    query: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    namespace: NamespaceOption = None,
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
    scope: ScopeOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Claims nearest in meaning to QUERY: current beliefs by default, each with its rivals.
    With --scope, through a chain of namespaces: each hit says its kind, the namespace that
    answered and its support, and a policy comes with the evidence disputing it.

    Example: belief-graph search -n user:priya "what is her appetite for risk?" --k 3
    """
    valid = parse_when("--valid-at", valid_at)
    known = parse_when("--known-at", known_at)
    if scope is not None:
        chain = scope_of(scope, namespace)
        with open_graph(models=True) as bg:
            found = bg.scoped_search(
                query, chain, k, history=history, valid_at=valid, known_at=known
            )
        if as_json:
            _emit_json(_json_of(found, tz))
            return
        from belief_graph.cli.render import console, scoped_search_table, show

        if not found:
            typer.echo(f"no matching claims in {' > '.join(chain)}")
            return
        show(console(), scoped_search_table(found, f"search: {query}", times_of(tz)))
        return
    namespace, _ = namespace_of("search", namespace)
    with open_graph(models=True) as bg:
        hits = bg.search(query, namespace, k, history=history, valid_at=valid, known_at=known)
    if as_json:
        _emit_json([{**_json_of(h, tz), "contested": h.contested} for h in hits])
        return
    from belief_graph.cli.render import console, search_table, show

    if not hits:
        typer.echo("no matching claims")
        return
    show(console(), search_table(hits, f"search: {query}", times_of(tz)))


@app.command("doctor", cls=Command)
@handle_errors
def doctor_cmd(
    models: Annotated[
        bool, typer.Option("--models/--no-models", help="Check with the models loaded.")
    ] = True,
    as_json: JsonOption = False,
) -> None:
    """Connectivity, schema, vector index (every claim embedded), each model, and a paraphrased
    query retrieving the right belief; every check that can run, with the remedy of each that
    fails. Changes nothing: its probe namespace is removed whole. Exits 1 when a check fails.

    Example: belief-graph doctor --no-models
    """
    from belief_graph.cli.render import clean

    with open_graph(models=models) as bg:
        report = bg.doctor()
    if as_json:
        _emit_json({"ok": report.ok, "checks": [c.model_dump() for c in report.checks]})
    else:
        for check in report.checks:
            mark = "info" if check.info else ("ok  " if check.ok else "FAIL")
            typer.echo(f"{mark}  {check.name}: {clean(check.detail)}")
            if check.remedy and not check.ok:
                typer.echo(f"      fix: {clean(check.remedy)}")
    if not report.ok:
        raise typer.Exit(1)


@app.command("embed", cls=Command)
@handle_errors
def embed_cmd(
    namespace: NamespaceOption = None,
    batch_size: Annotated[
        int, typer.Option(min=1, max=10_000, help="Claims per committed transaction.")
    ] = 128,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
    as_json: JsonOption = False,
) -> None:
    """Give every claim of the namespace that has no vector one (claims written with the models
    off have none: search and the models' look-ups never find them). Loads the embedding model
    only. Safe to run again and to interrupt: a claim with a vector is never embedded twice,
    and every batch done is committed.

    Example: belief-graph embed -n user:priya
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from belief_graph.cli.render import console, mapping_table, show

    namespace, _ = namespace_of("embed", namespace)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console(stderr=True),
        disable=not progress,
        transient=True,
    )
    task = bar.add_task("embedding", total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with open_graph(models=True) as bg, bar:
        result = bg.embed(namespace, batch_size=batch_size, progress=advance)
    if as_json:
        _emit_json(result.model_dump(mode="json"))
        return
    show(
        console(),
        mapping_table(
            f"embed {namespace}",
            {
                "without a vector": result.found,
                "embedded now": result.embedded,
                "still without": result.remaining,
            },
        ),
    )


@app.command("namespaces", cls=Command)
@handle_errors
def namespaces_cmd(as_json: JsonOption = False) -> None:
    """Every namespace holding claims, in the default database and every database a namespace
    is mapped to (NEO4J_DATABASES), with its claim counts.

    Example: belief-graph namespaces
    """
    with open_graph() as bg:
        found = bg.namespaces()
    if as_json:
        _emit_json([n.model_dump() for n in found])
        return
    if not found:
        typer.echo("no namespaces")
        return
    from belief_graph.cli.render import console, namespaces_table, show

    show(console(), namespaces_table(found))


@app.command("mcp", cls=Command)
@handle_errors
def mcp_cmd(
    namespace: NamespaceOption = None,
    allow_namespace: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-namespace",
            help="Another namespace (fnmatch pattern, e.g. 'user:*') a tool may name "
            "(repeatable); by default the model can use only -n.",
        ),
    ] = None,
    allow_erase: Annotated[
        bool, typer.Option("--allow-erase", help="Let the erase tool run (refused otherwise).")
    ] = False,
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP at /mcp instead of stdio.")
    ] = False,
    host: Annotated[
        str, typer.Option(help="HTTP bind address; other than loopback needs a token.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="HTTP port.")] = 8765,
    models: Annotated[
        bool | None,
        typer.Option(
            "--models/--no-models",
            help="Load the models (recall needs them; default: $BELIEF_GRAPH_MODELS, else on).",
            show_default=False,
        ),
    ] = None,
    actor: Annotated[str, typer.Option(help="The actor its revisions record.")] = "mcp",
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope",
            help="Read through this scope chain, nearest first (e.g. 'session:42 > "
            "agent:reviewer > project:atlas'): recall, current and as_of resolve through it; "
            "writes go to -n, which must be in it (default: its nearest namespace).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve the engine to an agent over MCP (stdio, or streamable HTTP with --http).

    The namespace is fixed by -n (or its default), the scope chain by --scope; with --http on an
    address other than loopback, every request must carry 'Authorization: Bearer
    $BELIEF_GRAPH_MCP_TOKEN'.

    Example: belief-graph mcp -n user:priya
    """
    import os

    try:
        from belief_graph.integrations import mcp
    except ImportError as exc:
        fail(f"mcp: the MCP SDK is not installed ({exc}); pip install 'belief-graph[mcp]'")
    from belief_graph.settings import EngineSettings

    chain: list[str] = []
    if scope is not None:
        chain = scope_of(scope, None)
        if allow_namespace:
            fail("--allow-namespace: a server with --scope reads only its chain; name them there")
        namespace = namespace or chain[0]
        if namespace not in chain:
            fail(f"--scope: the server's namespace {namespace!r} (-n) is not in the chain")
    namespace, _ = namespace_of("mcp", namespace)
    token = os.environ.get(mcp.TOKEN_ENV) or None
    if http and host not in mcp.LOOPBACK and not token:
        fail(f"--host: {host!r} is not loopback; set {mcp.TOKEN_ENV} to require a bearer token")
    use_models = EngineSettings().models if models is None else models
    settings = mcp.McpSettings(
        namespace=namespace,
        allowed=tuple(allow_namespace or ()),
        allow_erase=allow_erase,
        actor=actor,
        scope=tuple(chain),
    )
    with open_graph(models=use_models) as bg:
        bg.init_schema()
        mcp.load_models(bg)  # a model that cannot load ends the server here, in one line
        server = mcp.build_server(bg, settings)
        if http:
            reads = f" (reads through {' > '.join(chain)})" if chain else ""
            typer.echo(
                f"belief-graph MCP for {namespace}{reads} at http://{host}:{port}/mcp", err=True
            )
            mcp.serve_http(server, host, port, token)
        else:
            mcp.serve_stdio(server)


@app.command("demo", cls=Command)
@handle_errors
def demo_cmd() -> None:
    """The engine's stories on a real Neo4j (started if needed), narrated, in a fresh namespace,
    with the models when they load (the first line says which, or what cannot be shown).

    Example: belief-graph demo
    """
    from belief_graph.cli import demo
    from belief_graph.cli.render import console
    from belief_graph.server.provide import provide

    with open_graph() as bg:
        bg.init_schema()
        with console(stderr=True).status("loading the models ..."):
            models = demo.choose_models()
        demo.run(bg, console(), provide(start=False).browser_url, models)


@app.command("browser", cls=Command)
@handle_errors
def browser_cmd(
    query: Annotated[str, typer.Argument(help="Audit query: slot-lineage, open-conflicts, ...")],
    args: Annotated[
        list[str] | None, typer.Argument(help="Its parameters as name=value.", show_default=False)
    ] = None,
    namespace: Annotated[
        str | None,
        typer.Option(
            "--namespace",
            "-n",
            help="Fills the query's namespace parameter (default: $BELIEF_GRAPH_NAMESPACE, else "
            "the config file); a namespace=... argument wins.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """A Neo4j Browser URL that opens with a saved audit query (cypher/audit/) in the editor,
    and the :param lines to run before it. BELIEF_GRAPH_BROWSER_URL overrides the Browser.

    Example: belief-graph browser open-conflicts -n user:priya
    """
    from belief_graph.cli.browser import browser_link, load
    from belief_graph.cli.config import NAMESPACE_ENV, ConfigError, resolve

    given = list(args or [])
    if "namespace" in load(query).params and not any(
        a.partition("=")[0].strip() == "namespace" for a in given
    ):
        try:
            default = resolve("namespace", namespace, NAMESPACE_ENV).value
        except ConfigError as exc:
            fail(str(exc))
        if default is not None:
            given.insert(0, f"namespace={default}")
    link = browser_link(query, given)
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
