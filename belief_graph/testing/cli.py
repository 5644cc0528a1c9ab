"""What a test asks of a finished CLI command (a click ``Result``): success, its JSON, or a
failure told in one line."""

from __future__ import annotations

import json
from typing import Any


def ok(result: Any) -> Any:
    """``result``, asserting exit code 0 (the output and the exception shown when not)."""
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result


def as_json(result: Any) -> Any:
    """The JSON a successful command printed."""
    return json.loads(ok(result).stdout)


def failed(result: Any, *needles: str) -> str:
    """Exit 1, one line on stderr, no traceback; the line contains every needle."""
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return str(lines[0])
