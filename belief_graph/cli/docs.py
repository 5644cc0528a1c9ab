"""Regenerate the command reference in ``docs/cli.md`` from the commands' own ``--help``.

    python -m belief_graph.cli.docs            # rewrite docs/cli.md
    python -m belief_graph.cli.docs --check    # exit 1 if docs/cli.md is stale

Everything above ``MARKER`` in the file is written by hand and kept; everything below it is the
``--help`` of every command, in the order ``belief-graph --help`` lists them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

MARKER = "<!-- Generated below by `python -m belief_graph.cli.docs` from each command's --help. -->"
WIDTH = 100
DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _sections(command: Any, path: list[str], parent: Any) -> list[str]:
    # typer carries its own copy of click: make its contexts through the command.
    ctx = command.context_class(
        command, info_name=path[-1], parent=parent, max_content_width=WIDTH, terminal_width=WIDTH
    )
    level = "#" * min(len(path) + 2, 4)
    text = str(command.get_help(ctx)).rstrip()
    out = [f"{level} `{' '.join(path)}`\n\n```text\n{text}\n```\n"]
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                out += _sections(sub, [*path, name], ctx)
    return out


def reference() -> str:
    """The generated part: every command's help, as Markdown."""
    from typer.main import get_command

    from belief_graph.cli.app import app

    return "\n".join(_sections(get_command(app), ["belief-graph"], None))


def render(current: str) -> str:
    """``current`` with everything below the marker replaced by the generated reference."""
    head, found, _ = current.partition(MARKER)
    if not found:
        raise ValueError(f"{DOC.name}: no generated-part marker; add this line: {MARKER}")
    return f"{head}{MARKER}\n\n{reference()}"


def main(argv: list[str]) -> int:
    current = DOC.read_text(encoding="utf-8")
    fresh = render(current)
    if "--check" in argv:
        if fresh != current:
            print(f"{DOC.name} is stale: run python -m belief_graph.cli.docs", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
