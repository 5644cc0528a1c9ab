"""The line protocol between ``python -m bench peers`` and a peer's driver, run in the peer's
own virtualenv: one JSON object per line on stdin, one answer per line on stdout. Standard
library only, so any interpreter the peer needs can run it.

Requests: ``{"op": "open", "path": DIR, "relations": [...]}``, ``{"op": "write", "namespace",
"subject", "relation", "object", "text", "at"}``, ``{"op": "current", "namespace", "subject",
"relation"}``, ``{"op": "as_of", ..., "at"}``, ``{"op": "close"}``. Every answer carries ``ms``:
the peer's own call time, measured inside its process (the pipe is not part of the figure).
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from collections.abc import Callable
from datetime import datetime
from typing import Any

Handler = Callable[[dict[str, Any]], Any]


def moment(value: str) -> datetime:
    return datetime.fromisoformat(value)


def serve(handlers: dict[str, Handler], describe: Callable[[], dict[str, Any]]) -> None:
    """Answer requests until ``close`` or end of input; a failure is answered, not raised."""
    print(json.dumps({"ok": True, **describe()}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        try:
            start = time.perf_counter()
            value = handlers[op](request)
            ms = (time.perf_counter() - start) * 1000
            answer: dict[str, Any] = {"ok": True, "value": value, "ms": ms}
        except Exception as exc:  # the harness reports it and stops this peer
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            traceback.print_exc(file=sys.stderr)
        print(json.dumps(answer), flush=True)
        if op == "close":
            return
