"""The rich toolkit every view of the ``belief-graph`` commands is built with (the views
themselves are in ``cli/views/``): the console, stored strings, times, tables that fit.

Three rules hold everywhere output is made:

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any, Literal

from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from belief_graph.models import Claim

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


def plural(n: int, unit: str) -> str:
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
            words = plural(int(size // per), unit)
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
