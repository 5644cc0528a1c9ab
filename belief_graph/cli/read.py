"""What the engine holds, read: one fact now or as of a moment, a subject's beliefs, a fact's
history, a claim's lineage, conflicts, a search by meaning, the namespaces, and a namespace's
whole graph exported."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from belief_graph.cli.command import Command, handle_errors, open_graph
from belief_graph.cli.inputs import namespace_of, parse_when, scope_of, times_of
from belief_graph.cli.options import (
    ClaimId,
    JsonOption,
    LegacyNamespace,
    NamespaceOption,
    Predicate,
    ScopeOption,
    Subject,
    TzOption,
)
from belief_graph.cli.output import emit_json, json_of, show_belief, show_claims, show_scoped

commands = typer.Typer()


@commands.command("export", cls=Command)
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


@commands.command("current", cls=Command)
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
        show_scoped(answer, f"{subject} · {predicate}", as_json, tz)
        return
    namespace, (subject, predicate) = namespace_of(
        "current", namespace, legacy, (subject, predicate)
    )
    with open_graph() as bg:
        claim = bg.current(namespace, subject, predicate)
        show_belief(bg, namespace, claim, f"{subject} · {predicate}", as_json, tz)


@commands.command("beliefs", cls=Command)
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
    show_claims(claims, f"beliefs about {subject}", as_json, "no beliefs", tz)


@commands.command("history", cls=Command)
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
    show_claims(claims, title, as_json, "no history", tz, one_fact=True)


@commands.command("lineage", cls=Command)
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
        emit_json(json_of(lineage, tz))
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.claims import lineage_tree

    show(console(), lineage_tree(lineage, times_of(tz)))


@commands.command("as-of", cls=Command)
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
        show_scoped(answer, f"{subject} · {predicate} as of", as_json, tz)
        return
    namespace, (subject, predicate) = namespace_of("as-of", namespace, legacy, (subject, predicate))
    with open_graph() as bg:
        claim = bg.as_of(namespace, subject, predicate, valid_at=valid, known_at=known)
        show_belief(bg, namespace, claim, f"{subject} · {predicate} as of", as_json, tz)


@commands.command("conflicts", cls=Command)
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
        emit_json([c.model_dump(mode="json") for c in conflicts])
        return
    if not conflicts:
        typer.echo("no conflicts")
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.revisions import conflicts_table

    show(console(), conflicts_table(conflicts, "open conflicts" if open_only else "conflicts"))


@commands.command("search", cls=Command)
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
            emit_json(json_of(found, tz))
            return
        from belief_graph.cli.render import console, show
        from belief_graph.cli.views.scoped import scoped_search_table

        if not found:
            typer.echo(f"no matching claims in {' > '.join(chain)}")
            return
        show(console(), scoped_search_table(found, f"search: {query}", times_of(tz)))
        return
    namespace, _ = namespace_of("search", namespace)
    with open_graph(models=True) as bg:
        hits = bg.search(query, namespace, k, history=history, valid_at=valid, known_at=known)
    if as_json:
        emit_json([{**json_of(h, tz), "contested": h.contested} for h in hits])
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.claims import search_table

    if not hits:
        typer.echo("no matching claims")
        return
    show(console(), search_table(hits, f"search: {query}", times_of(tz)))


@commands.command("namespaces", cls=Command)
@handle_errors
def namespaces_cmd(as_json: JsonOption = False) -> None:
    """Every namespace holding claims, in the default database and every database a namespace
    is mapped to (NEO4J_DATABASES), with its claim counts.

    Example: belief-graph namespaces
    """
    with open_graph() as bg:
        found = bg.namespaces()
    if as_json:
        emit_json([n.model_dump() for n in found])
        return
    if not found:
        typer.echo("no namespaces")
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.summaries import namespaces_table

    show(console(), namespaces_table(found))
