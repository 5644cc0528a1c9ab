"""What changes what the engine holds: the schema, claims told, said or imported, a belief
contracted or a revision reversed, a namespace tidied or erased, vectors for claims without
one."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from belief_graph.cli.command import Command, fail, handle_errors, open_graph
from belief_graph.cli.inputs import namespace_of, parse_when, times_of
from belief_graph.cli.options import (
    ActorOption,
    ClaimId,
    JsonOption,
    LegacyNamespace,
    ModelsOption,
    NamespaceOption,
    ProgressOption,
    ReasonOption,
    TzOption,
)
from belief_graph.cli.output import emit_json, json_of, progress_bar, show_result
from belief_graph.cli.revision_commands import ACTOR, JSON, NAMESPACE, RevisionCommand, parameter

commands = typer.Typer()


@commands.command("init", cls=Command)
@handle_errors
def init_cmd(as_json: JsonOption = False) -> None:
    """Create the constraints and indexes (idempotent) and wait until they are online.

    Example: belief-graph init
    """
    with open_graph() as bg:
        applied = bg.init_schema()
    if as_json:
        emit_json({"applied": applied})
    else:
        typer.echo(f"schema ready ({len(applied)} statements applied)")


@commands.command("remember", cls=Command)
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
    show_result(result, as_json)


@commands.command("observe", cls=Command)
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
            help="auto (the rules, then the LLM for what they did not read when "
            "BELIEF_GRAPH_EXTRACTOR_URL is set), rules, or llm (the LLM alone).",
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
        emit_json(json_of(observation, tz))
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.revisions import observation_table

    if not observation.proposals and not observation.refused:
        typer.echo(f"no claims found in what {speaker} said ({observation.extractor} extractor)")
        return
    show(console(), observation_table(observation, times_of(tz)))


@commands.command("import", cls=Command)
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
    progress: ProgressOption = True,
    models: ModelsOption = False,
    as_json: JsonOption = False,
) -> None:
    """Remember a JSONL file of claims in order; or with --snapshot, restore an export.

    The engine stamps when it learned each claim (recorded_at) with its own clock; a line that
    gives one is refused, unless --history imports it as history, keeping the line's stamp.

    Example: belief-graph import claims.jsonl -n project:atlas
    """
    from belief_graph.cli.config import NAMESPACE_ENV, ConfigError, resolve
    from belief_graph.cli.render import console, mapping_table, show
    from belief_graph.cli.views.summaries import import_summary
    from belief_graph.ingest import INGEST_BATCH
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
    bar = progress_bar(progress, elapsed=True)
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
            emit_json(summary)
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
        emit_json(stats.as_dict())
    else:
        show(console(), import_summary(stats))


@commands.command("retract", cls=Command)
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
    reason: ReasonOption = "",
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
    show_result(result, as_json)


@commands.command("consolidate", cls=Command)
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
    progress: ProgressOption = True,
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
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.revisions import consolidation_tables

    if positional is not None and namespace is not None and positional != namespace:
        fail(f"-n/--namespace: given twice ({namespace!r} and NAMESPACE {positional!r})")
    namespace, _ = namespace_of("consolidate", positional or namespace)
    bar = progress_bar(progress)
    task = bar.add_task("reading claims", total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with open_graph(models) as bg, bar:
        report = bg.consolidate(namespace, dry_run=dry_run, actor=actor, progress=advance)
    if as_json:
        emit_json(report.model_dump(mode="json"))
        return
    show(console(), *consolidation_tables(report))


@commands.command("erase", cls=Command)
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
    show_result(result, as_json)


@commands.command("embed", cls=Command)
@handle_errors
def embed_cmd(
    namespace: NamespaceOption = None,
    batch_size: Annotated[
        int, typer.Option(min=1, max=10_000, help="Claims per committed transaction.")
    ] = 128,
    progress: ProgressOption = True,
    as_json: JsonOption = False,
) -> None:
    """Give every claim of the namespace that has no vector one (claims written with the models
    off have none: search and the models' look-ups never find them). Loads the embedding model
    only. Safe to run again and to interrupt: a claim with a vector is never embedded twice,
    and every batch done is committed.

    Example: belief-graph embed -n user:priya
    """
    from belief_graph.cli.render import console, mapping_table, show

    namespace, _ = namespace_of("embed", namespace)
    bar = progress_bar(progress)
    task = bar.add_task("embedding", total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with open_graph(models=True) as bg, bar:
        result = bg.embed(namespace, batch_size=batch_size, progress=advance)
    if as_json:
        emit_json(result.model_dump(mode="json"))
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


RevisionCommand(
    "rollback",
    "Reverse an earlier revision with a new one (refused if later revisions touched the "
    "fact).\n\nExample: belief-graph rollback -n user:priya 01M8KS...",
    ids=(
        parameter("revision_id", Annotated[str, typer.Argument(help="The revision to reverse.")]),
    ),
    options=(NAMESPACE, ACTOR, JSON),
    legacy=True,
).add_to(commands)
