"""memvara (SQLite file, in process) behind the peers protocol: ``remember`` per fact with every
relation declared single-valued, ``history`` of the fact's slot at a moment for lookups. No LLM
(``NullLLM``) and no embeddings: belief-graph's side of the comparison is structural too."""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

from protocol import moment, serve

# memvara turns on FTS5's secure-delete, which SQLite has from 3.42; where Python's own SQLite is
# older (Debian 12 ships 3.40), the peer's virtualenv carries a current one from PyPI.
if sqlite3.sqlite_version_info < (3, 42):
    import pysqlite3

    sys.modules["sqlite3"] = pysqlite3
    sqlite3 = pysqlite3

from memvara import Cardinality, Memvara, NullLLM, PredicateRegistry

state: dict[str, Any] = {}


def _open(request: dict[str, Any]) -> None:
    registry = PredicateRegistry()
    for relation in request["relations"]:
        registry.learn(relation, Cardinality.ONE)
    path = Path(request["path"]) / "memvara.db"
    state["mem"] = Memvara(
        str(path), user="bench", llm=NullLLM(), registry=registry, embeddings=False
    )


def _write(request: dict[str, Any]) -> None:
    at = moment(request["at"])
    state["mem"].remember(
        request["subject"],
        request["relation"],
        request["object"],
        user=request["namespace"],
        valid_from=at,
        recorded_at=at,
        text=request["text"],
    )


def _at(request: dict[str, Any], when: datetime) -> str | None:
    claims = state["mem"].history(
        request["subject"], request["relation"], user=request["namespace"], as_of=when
    )
    return claims[-1].object if claims else None


def _close(_: dict[str, Any]) -> None:
    state["mem"].close()


if __name__ == "__main__":
    serve(
        {
            "open": _open,
            "write": _write,
            "current": lambda r: _at(r, datetime.now(UTC)),
            "as_of": lambda r: _at(r, moment(r["at"])),
            "close": _close,
        },
        lambda: {
            "peer": "memvara",
            "version": version("memvara"),
            "store": f"SQLite {sqlite3.sqlite_version} file",
        },
    )
