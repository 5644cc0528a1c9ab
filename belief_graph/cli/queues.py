"""What waits for a human, and the human's decisions on it: pending claims (confirm, reject),
open conflicts (resolve, dismiss), the review queue (reviewed), disputed policies (promote,
demote)."""

from __future__ import annotations

from typing import Annotated

import typer

from belief_graph.cli.command import Command, fail, handle_errors, open_graph
from belief_graph.cli.inputs import namespace_of, times_of
from belief_graph.cli.options import (
    ActorOption,
    ClaimId,
    JsonOption,
    LegacyNamespace,
    NamespaceOption,
    ReasonOption,
    TzOption,
)
from belief_graph.cli.output import emit_json, show_claims, show_result
from belief_graph.cli.revision_commands import (
    ACTOR,
    CLAIM,
    JSON,
    NAMESPACE,
    REASON,
    RIVAL,
    RevisionCommand,
    parameter,
)

commands = typer.Typer()


@commands.command("pending", cls=Command)
@handle_errors
def pending_cmd(
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Claims waiting for a human to confirm or reject them.

    Example: belief-graph pending -n user:priya
    """
    namespace, _ = namespace_of("pending", namespace, legacy)
    with open_graph() as bg:
        claims = bg.pending(namespace)
    show_claims(claims, "pending confirmation", as_json, "nothing pending", tz)


@commands.command("review", cls=Command)
@handle_errors
def review_cmd(
    legacy: LegacyNamespace = None,
    namespace: NamespaceOption = None,
    tz: TzOption = None,
    as_json: JsonOption = False,
) -> None:
    """Claims flagged needs_review because a premise was retired.

    Example: belief-graph review -n project:atlas
    """
    namespace, _ = namespace_of("review", namespace, legacy)
    with open_graph() as bg:
        claims = bg.needs_review(namespace)
    if as_json or not claims:
        show_claims(claims, "", as_json, "nothing to review", tz)
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.claims import claims_table
    from belief_graph.cli.views.revisions import review_lines

    show(console(), claims_table(claims, "needs review", times_of(tz)), review_lines(claims))


@commands.command("disputes", cls=Command)
@handle_errors
def disputes_cmd(
    namespace: NamespaceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Policies that evidence disputes (or that were demoted), with the evidence against them.

    Example: belief-graph disputes -n project:atlas
    """
    namespace, _ = namespace_of("disputes", namespace)
    with open_graph() as bg:
        disputes = bg.disputes(namespace)
    if as_json:
        emit_json([{**d.model_dump(mode="json"), "demoted": d.demoted} for d in disputes])
        return
    if not disputes:
        typer.echo("no disputes")
        return
    from belief_graph.cli.render import console, show
    from belief_graph.cli.views.revisions import disputes_table

    show(console(), disputes_table(disputes, "disputed policies"))


@commands.command("promote", cls=Command)
@handle_errors
def promote_cmd(
    claim_id: ClaimId,
    by: Annotated[
        str,
        typer.Option(
            help="human (a human's decision: give --actor), record (a merged ADR or pull "
            "request: give --origin) or outcome (held across enough independent episodes)."
        ),
    ],
    namespace: NamespaceOption = None,
    origin: Annotated[str | None, typer.Option(help="The ADR or pull request.")] = None,
    reason: ReasonOption = "",
    actor: ActorOption = None,
    as_json: JsonOption = False,
) -> None:
    """Make evidence policy (audited); a demoted policy promoted again is reinstated.

    Example: belief-graph promote -n project:atlas 01M8KR... --by human --actor ana
    """
    if by not in ("human", "record", "outcome"):
        fail("--by: must be human, record or outcome")
    namespace, _ = namespace_of("promote", namespace)
    with open_graph() as bg:
        result = bg.promote(
            namespace,
            claim_id,
            by=by,  # type: ignore[arg-type]
            origin=origin,
            reason=reason,
            actor=actor,
        )
    show_result(result, as_json)


DECISIONS = (
    RevisionCommand(
        "confirm",
        "Accept a pending claim: it becomes the belief; its rival is superseded.\n\n"
        "Example: belief-graph confirm -n user:priya 01M8KR... --actor ana",
        ids=(CLAIM,),
        options=(NAMESPACE, ACTOR, JSON),
        legacy=True,
    ),
    RevisionCommand(
        "reject",
        "Reject a pending claim: it is kept as rejected; the current belief stands.\n\n"
        "Example: belief-graph reject -n user:priya 01M8KR... --actor ana",
        ids=(CLAIM,),
        options=(NAMESPACE, ACTOR, JSON),
        legacy=True,
    ),
    RevisionCommand(
        "resolve",
        "Settle an open conflict for --keep: the other side was wrong and is retracted.\n\n"
        "Example: belief-graph resolve -n user:priya 01M8KR... 01M8KS... --keep 01M8KS...",
        ids=(CLAIM, RIVAL),
        options=(
            parameter(
                "keep",
                Annotated[str, typer.Option(help="The side that is right (one of the two ids).")],
            ),
            NAMESPACE,
            REASON,
            ACTOR,
            JSON,
        ),
    ),
    RevisionCommand(
        "dismiss",
        "Dismiss an open conflict: the two claims do not contradict each other; both stay.\n\n"
        'Example: belief-graph dismiss -n user:priya 01M8KR... 01M8KS... --reason "both hold"',
        ids=(CLAIM, RIVAL),
        options=(NAMESPACE, REASON, ACTOR, JSON),
    ),
    RevisionCommand(
        "reviewed",
        "Lift a claim's needs_review flag, optionally re-pointing it to a new premise.\n\n"
        "Example: belief-graph reviewed -n project:atlas 01M8KR... --premise 01M8KT...",
        ids=(CLAIM,),
        options=(
            NAMESPACE,
            parameter(
                "premise",
                Annotated[
                    str | None,
                    typer.Option(help="Depend on this claim (the new version) from now on."),
                ],
                None,
            ),
            REASON,
            ACTOR,
            JSON,
        ),
    ),
    RevisionCommand(
        "demote",
        "Demote a policy to disputed: it stays the belief, flagged for a human.\n\n"
        'Example: belief-graph demote -n project:atlas 01M8KR... --reason "builds fail with it"',
        ids=(CLAIM,),
        options=(NAMESPACE, REASON, ACTOR, JSON),
    ),
)
for decision in DECISIONS:
    decision.add_to(commands)
