"""Around the engine: checking the setup, serving it to agents over MCP, the narrated demo,
and Browser links to the audit queries."""

from __future__ import annotations

from typing import Annotated

import typer

from belief_graph.cli.command import Command, fail, handle_errors, open_graph
from belief_graph.cli.inputs import namespace_of, scope_of
from belief_graph.cli.options import JsonOption, NamespaceOption
from belief_graph.cli.output import emit_json

commands = typer.Typer()


@commands.command("doctor", cls=Command)
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
        emit_json({"ok": report.ok, "checks": [c.model_dump() for c in report.checks]})
    else:
        for check in report.checks:
            mark = "info" if check.info else ("ok  " if check.ok else "FAIL")
            typer.echo(f"{mark}  {check.name}: {clean(check.detail)}")
            if check.remedy and not check.ok:
                typer.echo(f"      fix: {clean(check.remedy)}")
    if not report.ok:
        raise typer.Exit(1)


@commands.command("mcp", cls=Command)
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


@commands.command("demo", cls=Command)
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


@commands.command("browser", cls=Command)
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
        emit_json(link.as_dict())
        return
    typer.echo(link.url)
    if link.param_lines:
        typer.echo("\nIn Browser, run these first (Browser forgets parameters on reload):")
        for line in link.param_lines:
            typer.echo(f"  {line}")
