"""What every command wears: its class, the one-line failure, and the graph it runs against.

Commands import heavy modules inside their bodies so that ``--help`` stays fast, and wear
``@handle_errors`` so that a ``BeliefGraphError`` ends in a one-line message and exit status 1,
never a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

import typer
from typer.core import TyperCommand

from belief_graph.errors import BeliefGraphError

if TYPE_CHECKING:
    from belief_graph.client import BeliefGraph

P = ParamSpec("P")
R = TypeVar("R")


class Command(TyperCommand):
    """A command whose usage line leaves out hidden arguments (the deprecated positional
    namespace)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:  # typer's own vendored click Context
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if not getattr(param, "hidden", False):
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


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
