"""The ``belief-graph`` command line.

One ``app``; each command group is a sub-app added with ``app.add_typer``. Commands import heavy
modules inside their bodies so that ``--help`` stays fast, and wear ``@handle_errors`` so that a
``BeliefGraphError`` ends in a one-line message and exit status 1, never a traceback.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Annotated, NoReturn, ParamSpec, TypeVar

import typer

from belief_graph.errors import BeliefGraphError

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


def main() -> None:
    """Entry point of the ``belief-graph`` console script."""
    app()


if __name__ == "__main__":
    main()
