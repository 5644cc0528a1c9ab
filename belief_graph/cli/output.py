"""How commands print what the engine answers: JSON (date-times in UTC, or in ``--tz``), or the
tables and panels of ``render`` and ``views``; and the progress bar long commands show on
stderr."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

import typer

from belief_graph.cli.inputs import times_of

if TYPE_CHECKING:
    import pydantic
    from rich.progress import Progress

    from belief_graph.client import BeliefGraph
    from belief_graph.models import Claim, RevisionResult, ScopedAnswer


def emit_json(data: Any) -> None:
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


def json_of(
    value: pydantic.BaseModel | Sequence[pydantic.BaseModel] | None, tz: str | None = None
) -> Any:
    """A model (or a list of them) as JSON data: date-times in UTC, or in ``--tz`` if given."""
    if value is None:
        return None
    from pydantic import BaseModel

    if not isinstance(value, BaseModel):
        return [json_of(v, tz) for v in value]
    plain = value.model_dump(mode="json")
    if tz is None:
        return plain
    return _retime(value.model_dump(), plain, times_of(tz).zone)


def show_result(result: RevisionResult, as_json: bool) -> None:
    if as_json:
        emit_json(result.model_dump(mode="json"))
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.revisions import result_table

    show(console(), result_table(result))


def show_claims(
    claims: list[Claim],
    title: str,
    as_json: bool,
    empty: str,
    tz: str | None,
    *,
    one_fact: bool = False,
) -> None:
    if as_json:
        emit_json(json_of(claims, tz))
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.claims import claims_table

    if not claims:
        typer.echo(empty)
        return
    show(console(), claims_table(claims, title, times_of(tz), one_fact=one_fact))


def show_belief(
    bg: BeliefGraph,
    namespace: str,
    claim: Claim | list[Claim] | None,
    title: str,
    as_json: bool,
    tz: str | None,
) -> None:
    """One belief as a panel (with its rivals), several as a table, none as 'unknown'."""
    if as_json:
        emit_json(json_of(claim, tz))
    elif claim is None or claim == []:
        typer.echo("unknown: no belief (the engine does not guess)")
    elif isinstance(claim, list):
        show_claims(claim, title, False, "", tz)
    else:
        from belief_graph.cli.render import console, show
        from belief_graph.cli.views.claims import belief_panel

        show(console(), belief_panel(claim, bg.rivals(namespace, [claim]), title, times_of(tz)))


def show_scoped(answer: ScopedAnswer, title: str, as_json: bool, tz: str | None) -> None:
    """A belief read through a scope chain: a panel (which namespace answered, the evidence
    disputing a policy), a table for a multi-valued fact, or 'unknown'."""
    if as_json:
        emit_json(json_of(answer, tz))
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.scoped import scoped_claims_table, scoped_panel

    if not answer.known:
        typer.echo(f"unknown: no belief in {' > '.join(answer.scope)} (the engine does not guess)")
    elif answer.cardinality == "single":
        show(console(), scoped_panel(answer, title, times_of(tz)))
    else:
        show(console(), scoped_claims_table(answer, title, times_of(tz)))


def progress_bar(enabled: bool, *, elapsed: bool = False) -> Progress:
    """A bar on stderr that goes when done: a description, the bar, done of total (and the time
    taken, with ``elapsed``)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from belief_graph.cli.render import console

    columns: list[ProgressColumn] = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
    ]
    if elapsed:
        columns.append(TimeElapsedColumn())
    return Progress(*columns, console=console(stderr=True), disable=not enabled, transient=True)
