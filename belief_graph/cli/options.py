"""The arguments and options several commands share, each with its one help text."""

from __future__ import annotations

from typing import Annotated

import typer

from belief_graph.cli.inputs import times_of

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
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
ReasonOption = Annotated[str, typer.Option(help="Why, for the audit log.")]
ProgressOption = Annotated[bool, typer.Option(help="Show a progress bar on stderr.")]


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
