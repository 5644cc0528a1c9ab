"""``belief-graph neo4j``: start, stop, compact and show the Neo4j this machine runs for
belief-graph."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from belief_graph.cli.command import fail, handle_errors
from belief_graph.cli.options import JsonOption
from belief_graph.cli.output import emit_json

neo4j_app = typer.Typer(
    help="Run a Neo4j for belief-graph on this machine (Docker if available, else Java).",
    no_args_is_help=True,
)


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
        emit_json(report)
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
