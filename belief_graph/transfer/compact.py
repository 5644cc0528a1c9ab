"""Compaction of the local server's store: after an erase, nothing erased stays on disk.

Neo4j Community keeps erased values in its transaction logs and in store pages it has not
reused, and has no procedure to force them out. A compaction rewrites the store: every namespace
is exported (erased content is not in an export), the server stopped, its ``data/`` moved aside,
the server started on an empty store, the schema created and every export restored. The old
store is deleted only after all of it is back; on any failure it is put back instead.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..server.launcher import LocalNeo4j
from ..store import Store
from .snapshot import export_namespace, restore_snapshot

DATABASE = "neo4j"


def _size(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


def compact(
    server: LocalNeo4j,
    *,
    wait_seconds: float = 120,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Rewrite ``server``'s store from exports of its namespaces; what it did.

    Clients must not write meanwhile: a write between the export and the stop is lost. A
    database holding nodes outside any namespace (not belief-graph's) is refused.
    """
    say = progress or (lambda _: None)
    work = server.home / "compact"
    started = time.monotonic()
    before = _size(server.home / "data") if (server.home / "data").exists() else 0

    def connect() -> Store:
        return Store(server.bolt_uri, None, DATABASE)

    def save() -> list[tuple[str, Path]]:
        store = connect()
        try:
            row = store.read("transfer/namespaces")[0]
            if row["foreign"]:
                raise ConfigError(
                    f"the database holds {row['foreign']} nodes outside any namespace (not "
                    "belief-graph's data); a compaction would lose them, so it is refused"
                )
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            saved = []
            for number, namespace in enumerate(sorted(row["namespaces"])):
                say(f"exporting {namespace}")
                path = work / f"{number:05d}.jsonl"
                with path.open("w", encoding="utf-8") as out:
                    export_namespace(store, namespace, out)
                saved.append((namespace, path))
            return saved
        finally:
            store.close()

    def refill(saved: list[tuple[str, Path]]) -> None:
        store = connect()
        try:
            # The write path is planned once everything is back: a refill that fails puts
            # the old store back and restarts the server, and its plans would go with it.
            store.apply_schema(plan=False)
            for namespace, path in saved:
                say(f"restoring {namespace}")
                # A statement a transaction: a namespace may be larger than one transaction
                # can hold, and a failure puts the old store back anyway.
                restore_snapshot(store, path, at_once=False)
            store.plan_write_path()
        finally:
            store.close()

    try:
        saved = server.replace_store(save, refill, wait_seconds=wait_seconds)
    except Exception as exc:
        if work.exists():
            raise ConfigError(
                f"compaction failed, the store is as it was: {exc}. The exports are in {work}"
            ) from exc
        raise
    shutil.rmtree(work, ignore_errors=True)
    return {
        "namespaces": len(saved),
        "bytes_before": before,
        "bytes_after": _size(server.home / "data"),
        "seconds": round(time.monotonic() - started, 1),
    }
