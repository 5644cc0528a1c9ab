"""The only module that talks to Neo4j: driver, managed transactions, and error mapping."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from typing import Any, LiteralString, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors
from neo4j.time import Date, DateTime, Duration, Time

from . import cypher
from .errors import BeliefGraphError, ConfigError, ConflictError, StoreUnavailable

T = TypeVar("T")
Row = dict[str, Any]


@dataclass(frozen=True)
class ServerFeatures:
    """What the connected server can do that the engine uses differently per version."""

    version: str
    edition: str
    cypher_versions: tuple[str, ...]

    @property
    def vector_filters(self) -> bool:
        """Whether ``SEARCH ... WHERE`` filters inside a vector index (Cypher 25 on Neo4j
        2026.01 or newer): the engine then declares namespace and status in the index and
        searches one namespace, instead of fetching across all of them and filtering after."""
        numbers = [int(part) for part in re.findall(r"\d+", self.version)[:2]]
        return "25" in self.cypher_versions and numbers >= [2026, 1]


class StaleSlot(Exception):
    """A slot changed between detect and apply: the caller re-detects and tries again."""


def _native(value: Any) -> Any:
    if isinstance(value, DateTime):
        # Always timezone.utc: a named zone sent back to the server would be stored as one.
        return value.to_native().astimezone(UTC)
    if isinstance(value, Date | Time):
        return value.to_native()
    if isinstance(value, Duration):
        return value
    if isinstance(value, list):
        return [_native(v) for v in value]
    if isinstance(value, dict):
        return {k: _native(v) for k, v in value.items()}
    return value


def _query(name: str) -> LiteralString:
    # Only our shipped files are ever run, never text built from input; mypy reads
    # LiteralString as str, so the annotation documents that promise rather than checks it.
    return cypher.load(name)


@contextmanager
def _mapped() -> Iterator[None]:
    """Neo4j's errors become ours, here and nowhere else."""
    try:
        yield
    except neo4j_errors.AuthError as exc:
        raise ConfigError(f"Neo4j refused the credentials: {exc.message}") from exc
    except (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired) as exc:
        raise StoreUnavailable(f"Neo4j is unavailable: {exc}") from exc
    except neo4j_errors.ConstraintError as exc:
        raise ConflictError(f"already exists: {exc.message}") from exc
    except neo4j_errors.TransientError as exc:
        raise StoreUnavailable(f"Neo4j kept failing transiently: {exc.message}") from exc
    except neo4j_errors.DriverError as exc:
        raise StoreUnavailable(f"Neo4j driver error: {exc}") from exc
    except neo4j_errors.Neo4jError as exc:
        raise BeliefGraphError(f"Neo4j error {exc.code}: {exc.message}") from exc


class Tx:
    """One managed transaction: run named statements, rows back as plain dicts."""

    def __init__(self, tx: neo4j.ManagedTransaction) -> None:
        self._tx = tx

    def run(self, name: str, **params: Any) -> list[Row]:
        """Run the statement ``name`` with ``params``; every row as a dict of Python values."""
        result = self._tx.run(_query(name), params)
        return [_native(record.data()) for record in result]

    def one(self, name: str, **params: Any) -> Row | None:
        """The first row, or ``None``."""
        rows = self.run(name, **params)
        return rows[0] if rows else None


class Store:
    """A Neo4j connection with bounded retries. Reads go to readers, writes to the leader.

    Every statement shares one bookmark manager, so on a cluster a read always sees this store's
    earlier writes (causal consistency); ``bookmarks`` hands them to another process, whose
    store then starts from them.
    """

    def __init__(
        self,
        uri: str,
        auth: tuple[str, str] | None,
        database: str = "neo4j",
        *,
        retry_seconds: float = 15.0,
        connect_timeout: float = 5.0,
        bookmarks: Iterable[str] = (),
    ) -> None:
        self.uri = uri
        self.database = database
        self._features: ServerFeatures | None = None
        # None: decided on first use (``filters_in_vector_index``); True/False forces one path
        # (the benchmarks and tests compare both on the same server).
        self.vector_filtering: bool | None = None
        self._bookmarks = neo4j.GraphDatabase.bookmark_manager(
            initial_bookmarks=neo4j.Bookmarks.from_raw_values(bookmarks)
        )
        with _mapped():
            self._driver = neo4j.GraphDatabase.driver(
                uri,
                auth=auth,
                max_transaction_retry_time=retry_seconds,
                connection_timeout=connect_timeout,
                connection_acquisition_timeout=retry_seconds,
                # Schema hints ("property does not exist yet") are noise on a young database.
                notifications_min_severity="OFF",
            )

    def features(self) -> ServerFeatures:
        """The server's version and what it supports; asked once, on first use."""
        if self._features is None:
            try:
                rows = self.read("admin/server_components")
            except BeliefGraphError:
                # A user not allowed dbms.components(): the agent string still names the
                # version; assume only what every version has (Cypher 5).
                agent = self.verify()["agent"]
                rows = [{"name": "Neo4j Kernel", "versions": [agent.rsplit("/", 1)[-1]]}]
            by_name = {r["name"]: r for r in rows}
            kernel = by_name.get("Neo4j Kernel", rows[0] if rows else {})
            self._features = ServerFeatures(
                version=str((kernel.get("versions") or ["unknown"])[0]),
                edition=str(kernel.get("edition") or ""),
                cypher_versions=tuple(by_name.get("Cypher", {}).get("versions") or ("5",)),
            )
        return self._features

    def filters_in_vector_index(self) -> bool:
        """Whether vector reads filter inside the index (``SEARCH ... WHERE``, the cypher25/
        statements): the server has it (Neo4j 2026.01+) and ``claim_embedding`` declares
        namespace and status. An index created on Neo4j 5 keeps the fetch-and-filter reads until
        it is dropped and recreated by ``init_schema``. Decided once, again after a schema change
        (``schema_changed``)."""
        if self.vector_filtering is None:
            declared: set[str] = set()
            if self.features().vector_filters:
                for row in self.read("admin/doctor_indexes"):
                    if row["name"] == "claim_embedding":
                        declared = set(row["properties"] or ())
            self.vector_filtering = {"namespace", "status"} <= declared
        return self.vector_filtering

    def schema_changed(self) -> None:
        """Forget what ``filters_in_vector_index`` decided (the index may be another now)."""
        self.vector_filtering = None

    def close(self) -> None:
        """Close the driver and its pooled connections."""
        self._driver.close()

    def verify(self) -> dict[str, str]:
        """Connectivity check; the server's address, agent and protocol version."""
        with _mapped():
            info = self._driver.get_server_info()
        return {
            "address": str(info.address),
            "agent": info.agent,
            "protocol": str(info.protocol_version),
        }

    def _session(self) -> neo4j.Session:
        return self._driver.session(database=self.database, bookmark_manager=self._bookmarks)

    def bookmarks(self) -> list[str]:
        """The bookmarks of every transaction this store has run (or was started from)."""
        return sorted(self._bookmarks.get_bookmarks())

    def read(self, name: str, **params: Any) -> list[Row]:
        """One read statement in its own auto-retried read transaction (on a cluster, any
        member that has caught up with this store's bookmarks)."""
        return self._execute(name, params, neo4j.RoutingControl.READ)

    def read_leader(self, name: str, **params: Any) -> list[Row]:
        """A read that a write will be decided on (the write path's read step): run on the
        leader, which has every committed write, so the decision is not made on a follower's
        older state only to be refused by the slot's sequence check."""
        return self._execute(name, params, neo4j.RoutingControl.WRITE)

    def write(self, name: str, **params: Any) -> list[Row]:
        """One write statement in its own auto-retried write transaction."""
        return self._execute(name, params, neo4j.RoutingControl.WRITE)

    def _execute(
        self, name: str, params: dict[str, Any], routing: neo4j.RoutingControl
    ) -> list[Row]:
        with _mapped():
            records, _, _ = self._driver.execute_query(
                _query(name),
                params,
                database_=self.database,
                routing_=routing,
                bookmark_manager_=self._bookmarks,
            )
        return [_native(r.data()) for r in records]

    def transaction(self, work: Callable[[Tx], T]) -> T:
        """Run ``work`` as one write transaction, retried by the driver on transient errors.

        Any exception ``work`` raises (``StaleSlot`` among them) rolls the transaction back.
        """
        with (
            _mapped(),
            self._driver.session(
                database=self.database, bookmark_manager=self._bookmarks
            ) as session,
        ):
            return session.execute_write(lambda tx: work(Tx(tx)))

    def run_literal(self, query: LiteralString, /, **params: Any) -> list[Row]:
        """Run Cypher given as a literal, in one auto-commit transaction; rows as the driver
        returns them (no conversion).

        Only for ``belief_graph.testing`` (invariant checks, counts, the guarded wipe) and the
        tests: the engine itself runs nothing but its shipped statements.
        """
        with (
            _mapped(),
            self._driver.session(
                database=self.database, bookmark_manager=self._bookmarks
            ) as session,
        ):
            return [record.data() for record in session.run(query, params)]

    def explain(self, name: str) -> None:
        """EXPLAIN a shipped statement (plans it without running it): catches syntax errors."""
        with _mapped():
            self._driver.execute_query("EXPLAIN " + _query(name), database_=self.database)
