"""doxastica (its in-memory core, in process) behind the peers protocol: a fact is a belief
``subject|relation`` in the namespace's scope, revised on every write; lookups read the scope's
current tail, point-in-time probes the scope as of the last event at or before the moment."""

from __future__ import annotations

import bisect
import uuid
from importlib.metadata import version
from typing import Any

from doxastica import BeliefFilter, InMemoryBackend, MemoryCore
from protocol import moment, serve

state: dict[str, Any] = {}


def _belief(request: dict[str, Any]) -> str:
    return f"{request['subject']}|{request['relation']}"


def _open(_: dict[str, Any]) -> None:
    state["core"] = MemoryCore(InMemoryBackend())
    state["events"] = {}  # namespace -> ([moments], [event ids]), in write order


def _write(request: dict[str, Any]) -> None:
    event = uuid.uuid7()  # type: ignore[attr-defined]  # Python 3.14+, which the peer needs
    state["core"].revise(request["namespace"], _belief(request), request["object"], event)
    moments, events = state["events"].setdefault(request["namespace"], ([], []))
    moments.append(moment(request["at"]))
    events.append(event)


def _current(request: dict[str, Any]) -> Any:
    wanted = BeliefFilter(belief_ids=frozenset({_belief(request)}))
    found = state["core"].query_scope(request["namespace"], wanted)
    return found[0].value if found else None


def _as_of(request: dict[str, Any]) -> Any:
    moments, events = state["events"].get(request["namespace"], ([], []))
    index = bisect.bisect_right(moments, moment(request["at"])) - 1
    if index < 0:
        return None
    scope = state["core"].get_scope_at(request["namespace"], events[index])
    belief = _belief(request)
    found = [s for s in scope if s.belief_id == belief]
    return found[0].value if found else None


if __name__ == "__main__":
    serve(
        {
            "open": _open,
            "write": _write,
            "current": _current,
            "as_of": _as_of,
            "close": lambda _: None,
        },
        lambda: {"peer": "doxastica", "version": version("doxastica"), "store": "in memory"},
    )
