"""The ``belief-graph`` command line: one ``app`` that the command groups fill.

Each group is a module with its commands: ``read`` (what the engine holds), ``write`` (what
changes it), ``queues`` (what waits for a human, and the decisions on it), ``admin`` (doctor,
mcp, demo, browser) and ``server`` (the ``neo4j`` sub-app).
"""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from belief_graph.cli import admin, queues, read, server, write

app = typer.Typer(
    name="belief-graph",
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

# The order ``belief-graph --help`` lists the commands in, and so docs/cli.md: the groups
# interleave in it, the order the commands came in.
HELP_ORDER = (
    "init",
    "remember",
    "observe",
    "import",
    "export",
    "current",
    "beliefs",
    "history",
    "lineage",
    "as-of",
    "conflicts",
    "pending",
    "review",
    "confirm",
    "reject",
    "resolve",
    "dismiss",
    "reviewed",
    "promote",
    "demote",
    "disputes",
    "retract",
    "rollback",
    "consolidate",
    "erase",
    "search",
    "doctor",
    "embed",
    "namespaces",
    "mcp",
    "demo",
    "browser",
)


def _register(*groups: typer.Typer) -> None:
    by_name = {info.name: info for group in groups for info in group.registered_commands}
    if set(by_name) != set(HELP_ORDER):
        raise RuntimeError(
            f"HELP_ORDER and the groups' commands differ: {set(by_name) ^ set(HELP_ORDER)}"
        )
    app.registered_commands.extend(by_name[name] for name in HELP_ORDER)


_register(write.commands, read.commands, queues.commands, admin.commands)
app.add_typer(server.neo4j_app, name="neo4j")


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


def main() -> None:
    """Entry point of the ``belief-graph`` console script."""
    app()


if __name__ == "__main__":
    main()
