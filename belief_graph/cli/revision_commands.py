"""Commands of one shape, each made from a row: the ids given go to the ``BeliefGraph`` method
of the command's name by position, its options by keyword, and the one revision it makes is
printed. A row lists the parameters in the order ``--help`` shows them."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from belief_graph.cli.command import Command, handle_errors, open_graph
from belief_graph.cli.inputs import namespace_of
from belief_graph.cli.options import (
    ActorOption,
    ClaimId,
    JsonOption,
    LegacyNamespace,
    NamespaceOption,
    ReasonOption,
)
from belief_graph.cli.output import show_result


def parameter(
    name: str, annotation: Any, default: Any = inspect.Parameter.empty
) -> inspect.Parameter:
    """One parameter of a command: typer reads its name, its annotation and its default."""
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


CLAIM = parameter("claim_id", ClaimId)
RIVAL = parameter(
    "rival_id", Annotated[str, typer.Argument(help="The other side of the conflict.")]
)
NAMESPACE = parameter("namespace", NamespaceOption, None)
REASON = parameter("reason", ReasonOption, "")
ACTOR = parameter("actor", ActorOption, None)
JSON = parameter("as_json", JsonOption, False)
_LEGACY = parameter("legacy", LegacyNamespace, None)


@dataclass(frozen=True)
class RevisionCommand:
    """``name``: the command, and the ``BeliefGraph`` method it calls; ``ids``: the arguments
    that method takes after the namespace; ``legacy``: the namespace may still come first, the
    old form; ``options``: every option, -n and --json among them."""

    name: str
    help: str
    ids: tuple[inspect.Parameter, ...]
    options: tuple[inspect.Parameter, ...]
    legacy: bool = False

    def add_to(self, group: typer.Typer) -> None:
        def run(**values: Any) -> None:
            given = [values.pop(p.name) for p in self.ids]
            namespace, ids = namespace_of(
                self.name, values.pop("namespace"), values.pop("legacy", None), given
            )
            as_json = values.pop("as_json")
            with open_graph() as bg:
                result = getattr(bg, self.name)(namespace, *ids, **values)
            show_result(result, as_json)

        legacy = (_LEGACY,) if self.legacy else ()
        # typer reads a command's arguments and options from its signature, its help from its
        # docstring: the row gives both.
        signature = inspect.Signature([*self.ids, *legacy, *self.options])
        run.__signature__ = signature  # type: ignore[attr-defined]
        run.__doc__ = self.help
        group.command(self.name, cls=Command)(handle_errors(run))
