"""The benchmarks' one door lists every benchmark with its question (no database).

Run as the command it is (tests never import the benchmarks).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = {"__init__", "__main__", "common", "data"}


def door(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bench", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_the_door_lists_every_benchmark_with_its_question() -> None:
    listed = door()
    assert listed.returncode == 0, listed.stderr
    rows = {
        line.split()[0]: line.split(None, 1)[1]
        for line in listed.stdout.splitlines()
        if line.startswith("  ")
    }
    modules = [
        path.stem
        for folder in (ROOT / "bench", ROOT / "bench" / "experiments")
        for path in folder.glob("*.py")
        if path.stem not in SHARED
    ]
    assert sorted(rows) == sorted(modules)
    assert all(question.endswith("?") for question in rows.values()), rows


def test_an_unknown_name_is_refused_with_the_list() -> None:
    refused = door("no_such_benchmark")
    assert refused.returncode == 2
    assert "no benchmark 'no_such_benchmark'" in refused.stderr
    assert "engine" in refused.stderr
