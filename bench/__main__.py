"""The benchmarks' one door, from the repository's root.

    python -m bench                      # every benchmark and the question it answers
    python -m bench NAME [options]       # run one (--help: its options; --json: one JSON object)

A benchmark is a module of ``bench`` (or ``bench.experiments``) with a ``main()``; its question is
the first line of its docstring, read without importing it (so the list costs nothing).
"""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = {"__init__", "__main__", "common", "data"}
GROUPS = {
    "bench": ("Benchmarks", HERE),
    "bench.experiments": (
        "Experiments (settled questions, to run again when Neo4j changes)",
        HERE / "experiments",
    ),
}


def benchmarks() -> dict[str, tuple[str, Path]]:
    """Each benchmark's name, its package and its file."""
    found: dict[str, tuple[str, Path]] = {}
    for package, (_, folder) in GROUPS.items():
        for path in sorted(folder.glob("*.py")):
            if path.stem not in SHARED:
                found[path.stem] = (package, path)
    return found


def question(path: Path) -> str:
    """The first line of the module's docstring."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.split("\n", 1)[0]


def listing() -> str:
    found = benchmarks()
    width = max(len(name) for name in found)
    lines = ["python -m bench NAME [options]   (--help: a benchmark's options)"]
    for package, (title, _) in GROUPS.items():
        lines += ["", f"{title}:"]
        lines += [
            f"  {name:<{width}}  {question(path)}"
            for name, (owner, path) in found.items()
            if owner == package
        ]
    lines += ["", "Figures, commands and what was tried: docs/benchmarks.md"]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "list"):
        print(listing())
        return 0
    name, rest = argv[0], argv[1:]
    found = benchmarks()
    if name not in found:
        print(f"python -m bench: no benchmark {name!r}\n\n{listing()}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"{found[name][0]}.{name}")
    # The benchmark parses its own options, and its usage names the door.
    sys.argv = [f"python -m bench {name}", *rest]
    return int(module.main() or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
