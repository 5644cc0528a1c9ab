"""Rich output for the ``belief-graph`` commands: tables, trees and result panels.

Imported only inside commands (rich's tables and trees are not free to import).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from .models import Claim, Conflict, Lineage, RevisionResult, SearchHit
from .transfer import ImportStats

_STATUS_STYLE = {
    "active": "bold green",
    "superseded": "dim",
    "retracted": "red",
    "pending": "yellow",
    "rejected": "magenta",
    "erased": "dim red",
}


def console(stderr: bool = False) -> Console:
    """A console on stdout (or stderr); piped output gets a wide page rather than 80 columns."""
    out = Console(stderr=stderr, highlight=False)
    if not out.is_terminal:
        out = Console(stderr=stderr, highlight=False, width=160)
    return out


def when(value: datetime | None) -> str:
    """A timestamp in UTC, to the second (``--json`` keeps full precision)."""
    if value is None:
        return "—"
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def status(value: str) -> Text:
    """A claim status, coloured."""
    return Text(value, style=_STATUS_STYLE.get(value, ""))


def flags(claim: Claim) -> str:
    """The claim's flags, comma-separated."""
    names = [
        n
        for n, on in (
            ("contradiction", claim.contradiction),
            ("disputed", claim.disputed),
            ("needs_review", claim.needs_review),
        )
        if on
    ]
    return ", ".join(names)


def window(claim: Claim) -> str:
    """World time: [valid_from, valid_to)."""
    return f"[{when(claim.valid_from)} → {when(claim.valid_to) if claim.valid_to else 'open'})"


def claims_table(claims: Sequence[Claim], title: str) -> Table:
    """One row per claim: triple, status, version, both time axes, trust, flags."""
    table = Table(title=title, show_lines=False)
    table.add_column("id", no_wrap=True, style="dim")
    table.add_column("subject", overflow="fold")
    table.add_column("predicate", no_wrap=True)
    table.add_column("object", overflow="fold", min_width=12)
    table.add_column("status", no_wrap=True)
    table.add_column("v", justify="right")
    for column in ("valid from", "valid to", "recorded"):
        table.add_column(column, no_wrap=True)
    table.add_column("source", no_wrap=True)
    table.add_column("flags", overflow="fold", min_width=12)
    for c in claims:
        table.add_row(
            c.id,
            c.subject or "—",
            c.predicate or "—",
            c.object or "—",
            status(c.status),
            str(c.version or ""),
            when(c.valid_from),
            when(c.valid_to) if c.valid_to else "open",
            when(c.recorded_at),
            f"{c.source_type} {c.confidence:g} ×{c.frequency}",
            flags(c),
        )
    return table


def search_table(hits: Sequence[SearchHit], title: str) -> Table:
    """One row per hit: score, sentence, status and validity; rivals listed under their hit."""
    table = Table(title=title, show_lines=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("claim", overflow="fold", min_width=30)
    table.add_column("status", no_wrap=True)
    table.add_column("valid", no_wrap=True)
    table.add_column("rivals (contradictions on record)", overflow="fold", min_width=20)
    for hit in hits:
        c = hit.claim
        rivals = "\n".join(f"{r.text}  {r.status} {window(r)}" for r in hit.rivals) or "—"
        table.add_row(
            f"{hit.score:.3f}", f"{c.text}\n[dim]{c.id}[/]", status(c.status), window(c), rivals
        )
    return table


def result_table(result: RevisionResult) -> Table:
    """What one write operation did."""
    table = Table(title=f"revision {result.revision_id}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    rows: list[tuple[str, str]] = [
        ("operation", result.op + (" (replayed)" if result.replayed else "")),
        ("verdict", result.verdict or "—"),
        ("decision", result.decision),
        ("reason", result.reason or "—"),
        ("slot", result.slot_id or "—"),
    ]
    for name in ("added", "retired", "reinforced", "flagged", "restored"):
        ids: list[str] = getattr(result, name)
        if ids:
            rows.append((name, ", ".join(ids)))
    for name, value in rows:
        table.add_row(name, value)
    return table


def conflicts_table(conflicts: Iterable[Conflict], title: str) -> Table:
    """One row per CONTRADICTS edge."""
    table = Table(title=title)
    for column in ("claim", "status", "says", "rival", "rival status", "rival says"):
        table.add_column(column, overflow="fold")
    table.add_column("score")
    table.add_column("resolution")
    for k in conflicts:
        table.add_row(
            k.claim.id,
            status(k.claim.status),
            k.claim.object or k.claim.text or "—",
            k.rival.id,
            status(k.rival.status),
            k.rival.object or k.rival.text or "—",
            "—" if k.score is None else f"{k.score:.2f}",
            k.resolution or "open",
        )
    return table


def _claim_label(c: Claim, chosen: str, fact: bool = False) -> Text:
    label = Text()
    label.append("▶ " if c.id == chosen else "  ", style="bold cyan")
    if fact:
        label.append(f"{c.subject or '(erased)'} · {c.predicate} = ")
    label.append(f"v{c.version} " if c.version and not fact else "", style="bold")
    label.append(f"{c.object or c.text or '(erased)'} ")
    label.append(c.id, style="dim")
    label.append(" ")
    label.append_text(status(c.status))
    marks = flags(c)
    if marks:
        label.append(f" [{marks}]", style="yellow")
    return label


def lineage_tree(lineage: Lineage) -> Tree:
    """The version chain with verdicts and flags, both time axes, provenance, revisions,
    dependents with their review flags, and premises."""
    me = lineage.claim
    root = Tree(
        Text.assemble(
            ("claim ", "bold"),
            (me.id, "bold cyan"),
            f"  {me.subject} · {me.predicate}  ",
            status(me.status),
        )
    )
    supersedes = {edge["from"]: edge for edge in lineage.supersedes}
    chain = root.add(Text(f"version chain ({len(lineage.chain)})", style="bold"))
    for c in lineage.chain:
        node = chain.add(_claim_label(c, me.id))
        edge = supersedes.get(c.id)
        if edge is not None:
            node.add(
                f"supersedes {edge['to']}  verdict {edge.get('verdict') or '—'}  "
                f"revision {edge.get('revision_id') or '—'}"
            )
        node.add(f"world time  {window(c)}")
        known = f"transaction time  recorded {when(c.recorded_at)}"
        if c.superseded_at:
            known += f", superseded {when(c.superseded_at)}"
        if c.retracted_at:
            known += f", retracted {when(c.retracted_at)}"
        if c.erased_at:
            known += f", erased {when(c.erased_at)}"
        node.add(known)
        node.add(f"source {c.source_type}, confidence {c.confidence:g}, seen ×{c.frequency}")
        if c.review_reason:
            node.add(Text(f"review: {c.review_reason}", style="yellow"))
    episodes = root.add(Text(f"provenance ({len(lineage.episodes)} episodes)", style="bold"))
    for e in lineage.episodes:
        parts = [f"{e.id} → {e.claim_id}", f"at {when(e.occurred_at)}"]
        parts += [e.source] if e.source else []
        parts += [f"“{e.content}”"] if e.content else []
        episodes.add("  ".join(parts))
    revisions = root.add(Text(f"revisions ({len(lineage.revisions)})", style="bold"))
    for r in lineage.revisions:
        verdict = f" {r.verdict}" if r.verdict else ""
        actor = f" by {r.actor}" if r.actor else ""
        revisions.add(f"{r.id}  {when(r.at)}  {r.op}{verdict} → {r.decision}{actor}")
    for title, group in (("dependents", lineage.dependents), ("premises", lineage.premises)):
        branch = root.add(Text(f"{title} ({len(group)})", style="bold"))
        for c in group:
            node = branch.add(_claim_label(c, me.id, fact=True))
            if c.needs_review:
                node.add(Text(f"needs review: {c.review_reason or ''}", style="yellow"))
    return root


def import_summary(stats: ImportStats) -> Table:
    """Counts and throughput of a claim import."""
    table = Table(title="import", show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value")
    table.add_row("claims", str(stats.lines))
    for verdict, n in sorted(stats.verdicts.items()):
        table.add_row(f"  {verdict}", str(n))
    table.add_row("seconds", f"{stats.seconds:.2f}")
    table.add_row("claims/s", f"{stats.rate:.1f}")
    return table


def mapping_table(title: str, data: dict[str, Any]) -> Table:
    """A two-column table of a flat mapping."""
    table = Table(title=title, show_header=False)
    table.add_column("what", style="bold")
    table.add_column("value")
    for key, value in data.items():
        table.add_row(key, str(value))
    return table
