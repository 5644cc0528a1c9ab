"""Reads through a scope chain: which namespace answered, with what support, and what disputes
it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.panel import Panel
from rich.text import Text

from belief_graph.cli.render import Column, FittedTable, Times, plural, status, txt
from belief_graph.cli.views.claims import belief_panel
from belief_graph.models import ScopedAnswer, ScopedClaim, ScopedHit, Support


def support_label(support: Support) -> str:
    """``×3 in 2 episodes``: mentions, and the distinct episodes behind them."""
    episodes = f" in {plural(support.episodes, 'episode')}" if support.episodes else ""
    return f"×{support.frequency}{episodes}"


def _held_line(h: ScopedClaim) -> Text:
    return Text.assemble(
        txt(h.claim.object or h.claim.text or "—"),
        " ",
        txt(f"{h.claim.kind} in {h.scope}, {support_label(h.support)}", "dim"),
        " ",
        status(h.claim.status),
        " ",
        txt(h.claim.id, "dim"),
    )


def scoped_panel(answer: ScopedAnswer, title: str, times: Times) -> Panel:
    """One belief read through a scope chain: the belief panel's rows, plus which namespace
    answered (kind, scope, support), the evidence disputing a policy, and the other layers'
    answers it outranks."""
    held = answer.beliefs[0]
    extra = [
        ("scope", txt(" > ".join(answer.scope))),
        (
            "answered by",
            txt(
                f"{held.scope} (layer {held.layer}), {held.claim.kind}, "
                f"{support_label(held.support)}"
            ),
        ),
    ]
    if answer.disputes:
        extra.append(("disputed by", Text("\n").join(_held_line(d) for d in answer.disputes)))
    if answer.shadowed:
        extra.append(("outranks", Text("\n").join(_held_line(s) for s in answer.shadowed)))
    return belief_panel(held.claim, answer.rivals, title, times, extra)


def scoped_claims_table(answer: ScopedAnswer, title: str, times: Times) -> FittedTable:
    """The values of a multi-valued fact read through a scope chain, one row each."""
    table = FittedTable(
        txt(title),
        [
            Column("value", 0, wrap=True),
            Column("kind", 2),
            Column("scope", 1, wrap=True),
            Column("support", 3),
            Column("valid", 4, fold_into="value"),
            Column("id", 5, fold_into="value", style="dim"),
        ],
        caption=times.caption,
    )
    for b in answer.beliefs:
        table.add_row(
            txt(b.claim.object or b.claim.text or "—"),
            txt(b.claim.kind),
            txt(b.scope),
            support_label(b.support),
            times.window(b.claim),
            txt(b.claim.id),
        )
    return table


def scoped_search_table(hits: Sequence[ScopedHit], title: str, times: Times) -> FittedTable:
    """One row per hit: score, sentence, kind, the namespace that answered, support, and what
    stands against it (rivals in its namespace, evidence disputing a policy)."""
    table = FittedTable(
        txt(title),
        [
            Column("score", 2, justify="right", fold_into="claim", fold_label="score "),
            Column("claim", 0, wrap=True),
            Column("kind", 1, fold_into="claim"),
            Column("scope", 1, wrap=True),
            Column("support", 3, fold_into="scope"),
            Column("id", 5, fold_into="claim", style="dim"),
            Column("valid", 4, fold_into="claim"),
            Column("against it", 0, wrap=True),
        ],
        caption=times.caption,
        show_lines=True,
    )
    for hit in hits:
        c = hit.claim
        against: list[Text | str] = [
            Text.assemble(txt(r.text or r.object or "—"), " ", status(r.status)) for r in hit.rivals
        ]
        against += [
            Text.assemble(
                txt(d.claim.text or d.claim.object or "—"),
                " ",
                txt(f"disputes it: {d.scope}, {support_label(d.support)}", "yellow"),
            )
            for d in hit.disputes
        ]
        table.add_row(
            f"{hit.score:.3f}",
            txt(c.text or c.object or "—"),
            txt(hit.kind),
            txt(hit.scope),
            support_label(hit.support),
            txt(c.id),
            times.window(c),
            against or ["—"],
        )
    return table
