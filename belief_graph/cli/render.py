"""Rich output for the ``belief-graph`` commands: tables, a belief panel, trees, result tables.

Three rules hold everywhere here:

- every stored string goes through ``clean`` into a ``Text`` (never a markup string), so a value
  like ``"Lisbon [/bold]"`` prints as written and control sequences (ANSI escapes, bidi
  overrides) show as visible escapes instead of acting on the reader's terminal;
- tables are laid out for the console's width (``COLUMNS``): columns are folded into a
  neighbour or dropped, lowest priority first, until every value column is at least as wide as
  its longest word, so values wrap between words and are never cut;
- times are shown in the zone the command was given (``Times``).

Imported only inside commands (rich's tables and trees are not free to import).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any, Literal

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from ..extraction import Observation
from ..models import (
    Claim,
    Conflict,
    ConsolidationReport,
    Contradicted,
    Dispute,
    Lineage,
    NamespaceInfo,
    RevisionResult,
    ScopedAnswer,
    ScopedClaim,
    ScopedHit,
    SearchHit,
    Support,
)
from ..transfer.claims import ImportStats

_STATUS_STYLE = {
    "active": "bold green",
    "superseded": "dim",
    "retracted": "red",
    "pending": "yellow",
    "rejected": "magenta",
    "erased": "dim red",
}

PIPED_WIDTH = 160
"""Width of output that goes to a pipe or file when ``COLUMNS`` is not set."""


def console(stderr: bool = False) -> Console:
    """A console on stdout (or stderr) as wide as ``COLUMNS``, else the terminal; piped output
    without ``COLUMNS`` gets a wide page rather than 80 columns."""
    out = Console(stderr=stderr, highlight=False, emoji=False)
    if not out.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        out = Console(stderr=stderr, highlight=False, emoji=False, width=PIPED_WIDTH)
    return out


# -- stored strings ----------------------------------------------------------------------------


def clean(value: object) -> str:
    """``value`` as text safe for a terminal: tabs and newlines become spaces; other control
    and format characters (ESC, BEL, bidi overrides, zero-width) become visible escapes."""
    out: list[str] = []
    for char in str(value):
        if char in "\t\n\r":
            out.append(" ")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


def txt(value: object, style: str = "") -> Text:
    """A stored value as ``Text``: printed as written, never read as markup."""
    return Text(clean(value), style=style)


def status(value: str) -> Text:
    """A claim status, coloured."""
    return Text(clean(value), style=_STATUS_STYLE.get(value, ""))


def flags(claim: Claim) -> str:
    """The claim's flags, comma-separated."""
    names = [
        n
        for n, on in (
            ("negated", claim.negated),
            ("contradiction", claim.contradiction),
            ("disputed", claim.disputed),
            ("needs_review", claim.needs_review),
            ("demoted", claim.demoted),
        )
        if on
    ]
    return ", ".join(names)


# -- times -------------------------------------------------------------------------------------


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def relative(moment: datetime, now: datetime) -> str:
    """``moment`` relative to ``now`` in words: ``6 months ago``, ``in 3 days``, ``just now``."""
    seconds = (now - moment).total_seconds()
    size = abs(seconds)
    if size < 60:
        return "just now"
    for limit, unit, per in (
        (3600, "minute", 60),
        (86400, "hour", 3600),
        (86400 * 60, "day", 86400),
        (86400 * 730, "month", 86400 * 30.44),
        (float("inf"), "year", 86400 * 365.25),
    ):
        if size < limit:
            words = _plural(int(size // per), unit)
            return f"{words} ago" if seconds > 0 else f"in {words}"
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Times:
    """How a command shows times: in ``zone`` (named ``label``), relative to ``now``."""

    zone: tzinfo = UTC
    label: str = "UTC"
    now: datetime = field(default_factory=lambda: datetime.now(UTC))

    def full(self, value: datetime | None) -> str:
        """To the second, with the zone's offset (``Z`` for UTC)."""
        if value is None:
            return "—"
        local = value.astimezone(self.zone)
        offset = local.strftime("%z")
        suffix = "Z" if offset in ("+0000", "") else f"{offset[:3]}:{offset[3:]}"
        return local.strftime("%Y-%m-%d %H:%M:%S") + suffix

    def short(self, value: datetime | None) -> str:
        """To the minute, for tables (their caption names the zone)."""
        if value is None:
            return "—"
        return value.astimezone(self.zone).strftime("%Y-%m-%d %H:%M")

    def hint(self, value: datetime | None) -> str:
        """``full`` and how long ago: ``2026-05-15 00:00:00Z (6 months ago)``."""
        if value is None:
            return "—"
        return f"{self.full(value)} ({relative(value, self.now)})"

    def window(self, claim: Claim) -> str:
        """World time: [valid_from → valid_to), to the minute."""
        end = self.short(claim.valid_to) if claim.valid_to else "open"
        return f"[{self.short(claim.valid_from)} → {end})"

    @property
    def caption(self) -> str:
        return f"times in {self.label}"


# -- tables that fit ---------------------------------------------------------------------------


@dataclass
class Column:
    """A column of a fitted table.

    ``priority`` 0 is never folded or dropped; higher numbers go first. ``wrap`` columns hold
    values and wrap between words; others keep each line whole. A column with ``fold_into``
    moves into that column (one more line per cell, prefixed ``fold_label``) instead of
    disappearing.
    """

    header: str
    priority: int = 0
    wrap: bool = False
    fold_into: str | None = None
    fold_label: str = ""
    justify: Literal["left", "right"] = "left"
    style: str = ""


_Line = tuple[Text, bool]  # a line of a cell, and whether it may wrap between words


def _line_min(line: _Line) -> int:
    text, wrap = line
    if not wrap:
        return cell_len(text.plain)
    return max((cell_len(word) for word in text.plain.split()), default=0)


def _folded(column: Column, line: _Line) -> _Line:
    """A line of ``column`` moved into another column: labelled, in its column's style."""
    text, wrap = line
    moved = text.copy()
    if column.style:
        moved.stylize(column.style)
    if column.fold_label:
        moved = Text(column.fold_label, style="dim") + moved
    return moved, wrap


@dataclass
class FittedTable:
    """Build the cells, then ``render(width)``: a ``Table`` whose every line fits ``width``."""

    title: Text | str
    columns: list[Column]
    caption: str | None = None
    show_lines: bool = False
    show_header: bool = True
    rows: list[list[list[_Line]]] = field(default_factory=list)

    def add_row(self, *cells: Text | str | Sequence[Text | str]) -> None:
        row: list[list[_Line]] = []
        for column, cell in zip(self.columns, cells, strict=True):
            parts = [cell] if isinstance(cell, Text | str) else list(cell)
            lines = [(p if isinstance(p, Text) else Text(p), column.wrap) for p in parts]
            row.append(lines)
        self.rows.append(row)

    def _min_width(self, index: int, rows: list[list[list[_Line]]], header: str) -> int:
        widths = [_line_min(line) for row in rows for line in row[index]]
        return max([cell_len(header), *widths])

    def render(self, width: int) -> Table:
        columns = list(self.columns)
        rows = [[list(cell) for cell in row] for row in self.rows]
        hidden: list[str] = []

        def total() -> int:
            mins = [self._min_width(i, rows, c.header) for i, c in enumerate(columns)]
            return sum(mins) + 3 * len(columns) + 1

        carried: dict[str, list[str]] = {c.header: [c.header] for c in columns}
        for victim in sorted(
            (c for c in self.columns if c.priority > 0), key=lambda c: -c.priority
        ):
            if total() <= width:
                break
            i = columns.index(victim)
            names = [c.header for c in columns]
            if victim.fold_into in names:
                j = names.index(victim.fold_into)
                carried[victim.fold_into] += carried[victim.header]
                for row in rows:
                    row[j].extend(_folded(victim, line) for line in row[i] if line[0].plain)
            else:
                hidden += carried[victim.header]
            del columns[i]
            for row in rows:
                del row[i]
        widths = self._widths(columns, rows, width)
        caption = self.caption or ""
        if hidden:
            note = f"narrow terminal: {', '.join(hidden)} hidden (--json has every field)"
            caption = f"{caption}; {note}" if caption else note
        table = Table(
            title=self.title,
            caption=caption or None,
            show_lines=self.show_lines,
            show_header=self.show_header,
            box=box.HEAVY_HEAD,
        )
        for column, w in zip(columns, widths, strict=True):
            table.add_column(
                column.header, width=w, justify=column.justify, style=column.style, overflow="fold"
            )
        for row in rows:
            table.add_row(*(Text("\n").join(text for text, _ in cell) for cell in row))
        return table

    def _widths(
        self, columns: list[Column], rows: list[list[list[_Line]]], width: int
    ) -> list[int]:
        """Each column at its minimum, then the room left shared out to the columns that want
        more (narrowest need first), never more than they want."""
        mins = [self._min_width(i, rows, c.header) for i, c in enumerate(columns)]
        wants = [
            max([m, *(cell_len(text.plain) for row in rows for text, _ in row[i])])
            for i, m in enumerate(mins)
        ]
        widths = list(mins)
        room = width - (sum(widths) + 3 * len(columns) + 1)
        while room > 0:
            hungry = [i for i in range(len(widths)) if widths[i] < wants[i]]
            if not hungry:
                break
            share = max(1, room // len(hungry))
            for i in sorted(hungry, key=lambda i: wants[i] - widths[i]):
                give = min(share, wants[i] - widths[i], room)
                widths[i] += give
                room -= give
                if room <= 0:
                    break
        return widths


def fit(out: Console, table: FittedTable) -> Table:
    """``table`` laid out for ``out``'s width."""
    return table.render(out.width)


# -- claims ------------------------------------------------------------------------------------


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


# -- reads through a scope chain ---------------------------------------------------------------


def support_label(support: Support) -> str:
    """``×3 in 2 episodes``: mentions, and the distinct episodes behind them."""
    episodes = f" in {_plural(support.episodes, 'episode')}" if support.episodes else ""
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


def result_table(result: RevisionResult) -> FittedTable:
    """What one write operation did."""
    table = FittedTable(
        txt(f"revision {result.revision_id}"),
        [Column("field", 0, style="bold"), Column("value", 0, wrap=True)],
        show_header=False,
    )
    rows: list[tuple[str, str]] = [
        ("operation", result.op + (" (replayed)" if result.replayed else "")),
        ("verdict", result.verdict or "—"),
        ("decision", result.decision),
        ("reason", result.reason or "—"),
        ("slot", result.slot_id or "—"),
    ]
    for name in ("added", "retired", "reinforced", "flagged", "restored", "contradicted"):
        ids: list[str] = getattr(result, name)
        if ids:
            rows.append((name, ", ".join(ids)))
    for name, value in rows:
        table.add_row(name, txt(value))
    return table


def observation_table(observation: Observation, times: Times) -> FittedTable:
    """One row per proposal of an ``observe``: the claim, and what became of it."""
    table = FittedTable(
        txt(f"episode {observation.episode_id} ({observation.extractor} extractor)"),
        [
            Column("subject", 2, fold_into="claim", fold_label="about "),
            Column("predicate", 1),
            Column("claim", 0, wrap=True),
            Column("window", 3, fold_into="claim", fold_label="valid "),
            Column("outcome", 0, wrap=True),
        ],
    )
    results = iter(observation.results)
    refusals = list(observation.refused)
    for proposal in observation.proposals:
        refusal = next((r for r in refusals if r.proposal == proposal), None)
        if refusal is not None:
            refusals.remove(refusal)
        reason = refusal.reason if refusal is not None else None
        if reason is not None and reason.startswith(("invalid:", "not written:")):
            # Refused before the write path: no result of its own.
            outcome = f"refused: {reason}"
        else:
            result = next(results, None)
            if result is None:
                outcome = "—"
            elif reason is not None:
                outcome = f"{result.decision}: {reason}"
            else:
                outcome = f"{result.verdict or '—'} {result.decision}"
                if result.replayed:
                    outcome += " (replayed)"
        window = " – ".join(
            times.short(moment) if moment else "…"
            for moment in (proposal.valid_from, proposal.valid_to)
        )
        marks = " ".join(
            word
            for word, on in (("negated", proposal.negated), ("correction", proposal.correction))
            if on
        )
        table.add_row(
            txt(proposal.subject or "—"),
            txt(proposal.predicate or "(kept as text)"),
            txt(proposal.sentence + (f" ({marks})" if marks else "")),
            txt("—" if window == "… – …" else window),
            txt(outcome),
        )
    for refusal in refusals:
        # The whole episode: the extractor gave nothing usable.
        table.add_row(
            txt("—"),
            txt("—"),
            txt(refusal.proposal.source),
            txt("—"),
            txt(f"refused: {refusal.reason}"),
        )
    return table


def conflicts_table(conflicts: Iterable[Conflict], title: str) -> FittedTable:
    """One row per CONTRADICTS edge."""
    table = FittedTable(
        txt(title),
        [
            Column("claim", 2, fold_into="says", style="dim"),
            Column("status", 3, fold_into="says"),
            Column("says", 0, wrap=True),
            Column("rival", 2, fold_into="rival says", style="dim"),
            Column("rival status", 3, fold_into="rival says"),
            Column("rival says", 0, wrap=True),
            Column("score", 4, fold_into="resolution", fold_label="score "),
            Column("resolution", 1),
        ],
    )
    for k in conflicts:
        table.add_row(
            txt(k.claim.id),
            status(k.claim.status),
            txt(k.claim.object or k.claim.text or "—"),
            txt(k.rival.id),
            status(k.rival.status),
            txt(k.rival.object or k.rival.text or "—"),
            "—" if k.score is None else f"{k.score:.2f}",
            txt(k.resolution or "open"),
        )
    return table


def consolidation_tables(report: ConsolidationReport) -> list[FittedTable]:
    """A consolidation's steps (what it changed, or would change), the problems it left, and a
    summary naming the revision that rolls it back."""
    tables: list[FittedTable] = []
    if report.steps:
        steps = FittedTable(
            txt(("planned" if report.dry_run else "consolidated") + f" {report.namespace}"),
            [
                Column("action", 0, style="bold"),
                Column("claim", 0),
                Column("with", 1, fold_into="claim", fold_label="with "),
                Column("slot", 3, fold_into="why", fold_label="slot ", style="dim"),
                Column("why", 0, wrap=True),
            ],
        )
        for step in report.steps:
            steps.add_row(
                txt(step.action.replace("_", " ")),
                txt(step.claim_id or "—"),
                txt(step.other_id or "—"),
                txt(step.slot_id or "—"),
                txt(step.detail),
            )
        tables.append(steps)
    if report.problems:
        problems = FittedTable(
            txt("not repaired (a human decides)"),
            [
                Column("check", 0, style="bold"),
                Column("claim", 1, fold_into="problem", fold_label="claim "),
                Column("slot", 2, fold_into="problem", fold_label="slot ", style="dim"),
                Column("problem", 0, wrap=True),
            ],
        )
        for problem in report.problems:
            problems.add_row(
                txt(problem.check),
                txt(problem.claim_id or "—"),
                txt(problem.slot_id or "—"),
                txt(problem.detail),
            )
        tables.append(problems)
    summary: dict[str, Any] = {f"{k.replace('_', ' ')} read": v for k, v in report.examined.items()}
    summary["steps"] = len(report.steps)
    summary["problems"] = len(report.problems)
    if report.revision is not None:
        summary["revision"] = report.revision.revision_id
        summary["undo with"] = (
            f"belief-graph rollback -n {report.namespace} {report.revision.revision_id}"
        )
    elif report.dry_run:
        summary["written"] = "nothing (dry run)"
    else:
        summary["written"] = "nothing: the namespace is clean"
    tables.append(mapping_table(f"consolidate {report.namespace}", summary))
    return tables


def disputes_table(disputes: Iterable[Dispute], title: str) -> FittedTable:
    """One row per policy that evidence disputes (or that was demoted)."""
    table = FittedTable(
        txt(title),
        [
            Column("policy", 2, fold_into="says", style="dim"),
            Column("says", 0, wrap=True),
            Column("standing", 1),
            Column("evidence against", 0, wrap=True),
            Column("episodes", 3, fold_into="standing", fold_label="episodes "),
            Column("sources", 3, fold_into="standing", fold_label="sources "),
        ],
    )
    for d in disputes:
        table.add_row(
            txt(d.policy.id),
            txt(d.policy.object or d.policy.text or "—"),
            txt("demoted" if d.demoted else "in force"),
            txt(", ".join(f"{c.id}: {c.object or c.text}" for c in d.evidence) or "—"),
            str(d.episodes),
            str(d.sources),
        )
    return table


def review_lines(claims: Sequence[Claim]) -> Group:
    """Why each claim needs review."""
    return Group(
        *(Text.assemble(txt(c.id, "dim"), ": ", txt(c.review_reason or "")) for c in claims)
    )


# -- lineage -----------------------------------------------------------------------------------


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


# -- summaries ---------------------------------------------------------------------------------


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


def mapping_table(title: str, data: dict[str, Any]) -> FittedTable:
    """A two-column table of a flat mapping."""
    table = FittedTable(
        txt(title),
        [Column("what", 0, style="bold"), Column("value", 0, wrap=True)],
        show_header=False,
    )
    for key, value in data.items():
        table.add_row(txt(key), txt(value))
    return table


def show(out: Console, *items: FittedTable | RenderableType) -> None:
    """Print tables fitted to ``out``'s width, and any other renderable as it is."""
    for item in items:
        out.print(fit(out, item) if isinstance(item, FittedTable) else item)
