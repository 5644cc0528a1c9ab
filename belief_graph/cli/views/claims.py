"""Claims as the reads show them: a table of claims, one belief's panel, search hits, and a
claim's lineage as a tree."""

from __future__ import annotations

from collections.abc import Sequence

from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from belief_graph.cli.render import Column, FittedTable, Times, flags, status, txt
from belief_graph.models import Claim, Contradicted, Lineage, SearchHit


def claims_table(
    claims: Sequence[Claim], title: str, times: Times, *, one_fact: bool = False
) -> FittedTable:
    """One row per claim: triple, status, version, both time axes, trust, flags.

    ``one_fact``: every claim is about the fact the title names (a history), so the subject and
    predicate columns are left out.
    """
    # Priorities: what goes first when the width runs out (folds keep the content).
    columns = [
        Column("id", 4, fold_into="object", style="dim"),
        Column("subject", 0, wrap=True),
        Column("predicate", 0, wrap=True),
        Column("object", 0, wrap=True),
        Column("status", 1, fold_into="object"),
        Column("v", 8, justify="right", fold_into="status", fold_label="v"),
        Column("valid from", 2),
        Column("valid to", 6, fold_into="valid from", fold_label="to "),
        Column("recorded", 3),
        Column("source", 5),
        Column("flags", 7, wrap=True, fold_into="status"),
    ]
    skip = {"subject", "predicate"} if one_fact else set()
    table = FittedTable(
        txt(title), [c for c in columns if c.header not in skip], caption=times.caption
    )
    for c in claims:
        cells: dict[str, Text | str] = {
            "id": txt(c.id),
            "subject": txt(c.subject or "—"),
            "predicate": txt(c.predicate or "—"),
            "object": txt(c.object or c.text or "—"),
            "status": status(c.status),
            "v": str(c.version or ""),
            "valid from": times.short(c.valid_from),
            "valid to": times.short(c.valid_to) if c.valid_to else "open",
            "recorded": times.short(c.recorded_at),
            "source": txt(f"{c.source_type} {c.confidence:g} ×{c.frequency}"),
            "flags": Text(flags(c), style="yellow"),
        }
        table.add_row(*(cells[column.header] for column in table.columns))
    return table


def belief_panel(
    claim: Claim,
    rivals: Sequence[Claim],
    title: str,
    times: Times,
    extra: Sequence[tuple[str, Text]] = (),
) -> Panel:
    """One belief as a short key–value panel: what, value, since when, as known since, source,
    status, rivals (and ``extra`` rows before the claim id)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    what = txt(f"{claim.subject or '(erased)'} · {claim.predicate or '—'}")
    grid.add_row("what", what)
    grid.add_row("value", txt(claim.object or "—", "bold"))
    if claim.text:
        grid.add_row("said", txt(claim.text))
    since = f"since {times.hint(claim.valid_from)}"
    if claim.valid_to:
        since += f", until {times.hint(claim.valid_to)}"
    grid.add_row("valid", since)
    grid.add_row("known since", times.hint(claim.recorded_at))
    source = f"{claim.source_type}, confidence {claim.confidence:g}, seen ×{claim.frequency}"
    if claim.author:
        source += f", by {claim.author}"
    if claim.origin:
        source += f", from {claim.origin}"
    grid.add_row("source", txt(source))
    state = Text.assemble(status(claim.status), f"  v{claim.version}" if claim.version else "")
    if flags(claim):
        state.append(f"  [{flags(claim)}]", style="yellow")
    grid.add_row("status", state)
    if claim.review_reason:
        grid.add_row("review", txt(claim.review_reason, "yellow"))
    if rivals:
        lines = [
            Text.assemble(
                txt(r.object or r.text or "—"), " ", status(r.status), " ", txt(r.id, "dim")
            )
            for r in rivals
        ]
        grid.add_row("rivals", Text("\n").join(lines))
    else:
        grid.add_row("rivals", "none on record")
    if claim.contradicts:
        grid.add_row(
            "contradicts", Text("\n").join(said_before(c, times) for c in claim.contradicts)
        )
    for name, value in extra:
        grid.add_row(name, value)
    grid.add_row("claim", txt(claim.id, "dim"))
    return Panel(grid, title=txt(title), title_align="left", expand=False)


def search_table(hits: Sequence[SearchHit], title: str, times: Times) -> FittedTable:
    """One row per hit: score, sentence, status and validity; rivals listed under their hit."""
    table = FittedTable(
        txt(title),
        [
            Column("score", 1, justify="right", fold_into="claim", fold_label="score "),
            Column("claim", 0, wrap=True),
            Column("id", 4, fold_into="claim", style="dim"),
            Column("status", 2, fold_into="claim"),
            Column("valid", 3, fold_into="claim"),
            Column("rivals on record", 0, wrap=True),
        ],
        caption=times.caption,
        show_lines=True,
    )
    for hit in hits:
        c = hit.claim
        rivals: list[Text | str] = [
            Text.assemble(txt(r.text or r.object or "—"), " ", status(r.status)) for r in hit.rivals
        ]
        rivals += [said_before(x, times) for x in c.contradicts]
        table.add_row(
            f"{hit.score:.3f}",
            txt(c.text or c.object or "—"),
            txt(c.id),
            status(c.status),
            times.window(c),
            rivals or ["—"],
        )
    return table


def said_before(earlier: Contradicted, times: Times) -> Text:
    """An earlier claim a belief contradicted and replaced: "earlier: X (said ..., by ...)"."""
    said = earlier.text or earlier.object or "(erased)"
    when = times.hint(earlier.recorded_at) if earlier.recorded_at else "—"
    who: str = earlier.source_type or "—"
    if earlier.author:
        who += f" {earlier.author}"
    if earlier.origin:
        who += f", {earlier.origin}"
    return Text.assemble(
        txt("earlier: ", "yellow"),
        txt(said),
        txt(f" (said {when}, {who}; {earlier.resolution or earlier.status})", "dim"),
    )


def _claim_label(c: Claim, chosen: str, fact: bool = False) -> Text:
    label = Text()
    label.append("▶ " if c.id == chosen else "  ", style="bold cyan")
    if fact:
        label.append_text(txt(f"{c.subject or '(erased)'} · {c.predicate} = "))
    label.append(f"v{c.version} " if c.version and not fact else "", style="bold")
    label.append_text(txt(f"{c.object or c.text or '(erased)'} "))
    label.append_text(txt(c.id, "dim"))
    label.append(" ")
    label.append_text(status(c.status))
    marks = flags(c)
    if marks:
        label.append(f" [{marks}]", style="yellow")
    return label


def lineage_tree(lineage: Lineage, times: Times) -> Tree:
    """The version chain with verdicts and flags, both time axes, provenance, revisions,
    dependents with their review flags, and premises."""
    me = lineage.claim
    root = Tree(
        Text.assemble(
            ("claim ", "bold"),
            txt(me.id, "bold cyan"),
            "  ",
            txt(f"{me.subject} · {me.predicate}"),
            "  ",
            status(me.status),
            ("  " + times.caption, "dim"),
        )
    )
    if me.contradicts:
        earlier = root.add(Text(f"contradicts ({len(me.contradicts)})", style="bold"))
        for x in me.contradicts:
            earlier.add(Text.assemble(said_before(x, times), " ", txt(x.id, "dim")))
    supersedes = {edge["from"]: edge for edge in lineage.supersedes}
    chain = root.add(Text(f"version chain ({len(lineage.chain)})", style="bold"))
    for c in lineage.chain:
        node = chain.add(_claim_label(c, me.id))
        edge = supersedes.get(c.id)
        if edge is not None:
            node.add(
                txt(
                    f"supersedes {edge['to']}  verdict {edge.get('verdict') or '—'}  "
                    f"revision {edge.get('revision_id') or '—'}"
                )
            )
        node.add(Text(f"world time  {times.window(c)}"))
        known = f"transaction time  recorded {times.full(c.recorded_at)}"
        if c.superseded_at:
            known += f", superseded {times.full(c.superseded_at)}"
        if c.retracted_at:
            known += f", retracted {times.full(c.retracted_at)}"
        if c.erased_at:
            known += f", erased {times.full(c.erased_at)}"
        node.add(Text(known))
        node.add(txt(f"source {c.source_type}, confidence {c.confidence:g}, seen ×{c.frequency}"))
        if c.review_reason:
            node.add(txt(f"review: {c.review_reason}", "yellow"))
    episodes = root.add(Text(f"provenance ({len(lineage.episodes)} episodes)", style="bold"))
    for e in lineage.episodes:
        parts = [f"{e.id} → {e.claim_id}", f"at {times.full(e.occurred_at)}"]
        parts += [e.source] if e.source else []
        parts += [f"“{e.content}”"] if e.content else []
        episodes.add(txt("  ".join(parts)))
    revisions = root.add(Text(f"revisions ({len(lineage.revisions)})", style="bold"))
    for r in lineage.revisions:
        verdict = f" {r.verdict}" if r.verdict else ""
        actor = f" by {r.actor}" if r.actor else ""
        revisions.add(txt(f"{r.id}  {times.full(r.at)}  {r.op}{verdict} → {r.decision}{actor}"))
    for title, group in (("dependents", lineage.dependents), ("premises", lineage.premises)):
        branch = root.add(Text(f"{title} ({len(group)})", style="bold"))
        for c in group:
            node = branch.add(_claim_label(c, me.id, fact=True))
            if c.needs_review:
                node.add(txt(f"needs review: {c.review_reason or ''}", "yellow"))
    return root
