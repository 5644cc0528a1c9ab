"""Counts: a claim import, the namespaces."""

from __future__ import annotations

from collections.abc import Iterable

from belief_graph.cli.render import Column, FittedTable, txt
from belief_graph.models import NamespaceInfo
from belief_graph.transfer.claims import ImportStats


def import_summary(stats: ImportStats) -> FittedTable:
    """Counts and throughput of a claim import."""
    table = FittedTable(
        "import", [Column("what", 0, style="bold"), Column("value", 0)], show_header=False
    )
    table.add_row("claims", str(stats.lines))
    for verdict, n in sorted(stats.verdicts.items()):
        table.add_row(txt(f"  {verdict}"), str(n))
    if stats.replayed:
        table.add_row("  already stored", str(stats.replayed))
    for item in stats.refused:
        table.add_row(txt(f"  refused, line {item['line']}"), txt(item["reason"]))
    table.add_row("seconds", f"{stats.seconds:.2f}")
    table.add_row("claims/s", f"{stats.rate:.1f}")
    return table


def namespaces_table(found: Iterable[NamespaceInfo]) -> FittedTable:
    """One row per namespace and database; a namespace whose claims sit in a database it is no
    longer mapped to says so."""
    table = FittedTable(
        txt("namespaces"),
        [
            Column("namespace", 0, wrap=True),
            Column("database", 1),
            Column("claims", 2, justify="right"),
            Column("active", 2, justify="right"),
            Column("note", 3, wrap=True),
        ],
    )
    for n in found:
        note = "" if n.mapped_to == n.database else f"mapped to {n.mapped_to}: not read or written"
        table.add_row(
            txt(n.namespace), txt(n.database), str(n.claims), str(n.active), txt(note, "yellow")
        )
    return table
