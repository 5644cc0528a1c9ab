"""The only module that talks to Neo4j: driver, managed transactions, and error mapping."""

from __future__ import annotations

import copy
import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from functools import cache
from typing import Any, LiteralString, TypeVar, cast

import neo4j
import numpy as np
from neo4j import exceptions as neo4j_errors
from neo4j.time import Date, DateTime, Duration, Time
from neo4j.vector import Vector

from . import cypher
from .errors import BeliefGraphError, ConfigError, ConflictError, StoreUnavailable
from .settings import database_for, database_map

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
    """A slot changed between detect and apply: the caller re-detects and tries again.
    ``found``: the slots as the refused apply found them under their locks (write/apply's rows
    of write/slot_states), when it read them."""

    def __init__(self, found: list[Row] | None = None) -> None:
        super().__init__()
        self.found = found


# A list of two look-ups or more is read in two halves side by side (read_leader_split): one
# vector look-up costs several milliseconds on the server, a second statement's round trip about
# one (4 look-ups: 32 ms as one statement, 18 as two; 64: 428 against 235). Two, not more: the
# server here has two cores; one with more could take more parts.
SPLIT_AT = 2

# Failures after which a statement can run again (nothing of it was kept, or a replay finds it).
_RETRYABLE = (
    neo4j_errors.TransientError,
    neo4j_errors.ServiceUnavailable,
    neo4j_errors.SessionExpired,
)


_PLAIN = frozenset((str, int, float, bool, type(None)))


def _native(value: Any) -> Any:
    kind = type(value)
    if kind is dict:  # a plain value is taken as it is without a call: most values are
        return {k: v if type(v) in _PLAIN else _native(v) for k, v in value.items()}
    if kind is list:
        if _PLAIN.issuperset(map(type, value)):  # a vector: kept as it came, not copied
            return value
        return [v if type(v) in _PLAIN else _native(v) for v in value]
    if kind in _PLAIN:
        return value
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


def _query(name: str, params: dict[str, Any] | None = None) -> LiteralString:
    # Only our shipped files are ever run, never text built from input; mypy reads
    # LiteralString as str, so the annotation documents that promise rather than checks it.
    if params is not None:  # EXPLAIN runs without any
        cypher.check_params(name, params)
    if params is None or _DRIVER_LOG.isEnabledFor(logging.DEBUG):
        return cypher.sent(name)
    return _unlogged(name)


class _UnloggedText(str):
    """A statement's text whose repr is its size (see ``_sent``): the driver writes the text
    out for its debug log too, 0.09 ms for ``write/apply`` on every call. The driver takes
    ``str()`` of a query before that, so ``str()`` keeps it as it is."""

    __slots__ = ()

    def __str__(self) -> str:
        return self

    def __repr__(self) -> str:
        return f"<a statement of {len(self)} characters>"


@cache
def _unlogged(name: str) -> LiteralString:
    return cast(LiteralString, _UnloggedText(cypher.sent(name)))


class _UnloggedMap(dict[str, Any]):
    __slots__ = ()

    def __repr__(self) -> str:
        return f"<a map of {len(self)} keys>"


class _UnloggedList(list[Any]):
    __slots__ = ()

    def __repr__(self) -> str:
        return f"<a list of {len(self)}>"


_DRIVER_LOG = logging.getLogger("neo4j.io")


def _sent(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` as handed to the driver. The driver writes every statement's parameters out
    for its debug log before it asks whether that log is on (neo4j 6.4): for a batch of 1,000
    drafts that repr took longer than packing them. Unless the log is on, each map and list
    parameter goes in a copy whose repr is its size; the bytes sent are the same. (The
    statement's text likewise: ``_query``.)"""
    if _DRIVER_LOG.isEnabledFor(logging.DEBUG):
        return params
    return {
        key: _UnloggedMap(value)
        if type(value) is dict
        else _UnloggedList(value)
        if type(value) is list
        else value
        for key, value in params.items()
    }


_DATABASE_NOT_FOUND = "Neo.ClientError.Database.DatabaseNotFound"
_OUT_OF_MEMORY = "Neo.TransientError.General.MemoryPoolOutOfMemoryError"


@contextmanager
def _mapped(where: Store | None = None) -> Iterator[None]:
    """Neo4j's errors become ours, here and nowhere else. ``where``: the store whose database a
    missing-database error names."""
    try:
        yield
    except neo4j_errors.AuthError as exc:
        raise ConfigError(f"Neo4j refused the credentials: {exc.message}") from exc
    except (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired) as exc:
        raise StoreUnavailable(f"Neo4j is unavailable: {exc}") from exc
    except neo4j_errors.ConstraintError as exc:
        raise ConflictError(f"already exists: {exc.message}") from exc
    except neo4j_errors.TransientError as exc:
        if exc.code == _OUT_OF_MEMORY:
            raise BeliefGraphError(
                f"the transaction needs more memory than the server allows ({exc.message}); "
                "raise db.memory.transaction.max / dbms.memory.transaction.total.max (and the "
                "heap) in the server's settings (BELIEF_GRAPH_NEO4J_CONF for the launcher's), "
                "or write less in one call; nothing of it was written"
            ) from exc
        raise StoreUnavailable(f"Neo4j kept failing transiently: {exc.message}") from exc
    except neo4j_errors.DriverError as exc:
        raise StoreUnavailable(f"Neo4j driver error: {exc}") from exc
    except neo4j_errors.Neo4jError as exc:
        if exc.code == _DATABASE_NOT_FOUND and where is not None:
            raise ConfigError(where.missing_database()) from exc
        raise BeliefGraphError(f"Neo4j error {exc.code}: {exc.message}") from exc


class Tx:
    """One managed transaction: run named statements, rows back as plain dicts."""

    def __init__(self, tx: neo4j.ManagedTransaction) -> None:
        self._tx = tx

    def run(self, name: str, **params: Any) -> list[Row]:
        """Run the statement ``name`` with ``params``; every row as a dict of Python values."""
        result = self._tx.run(_query(name, params), _sent(params))
        return [_native(record.data()) for record in result]

    def one(self, name: str, **params: Any) -> Row | None:
        """The first row, or ``None``."""
        rows = self.run(name, **params)
        return rows[0] if rows else None


class Store:
    """A Neo4j connection with bounded retries. Reads go to readers, writes to the leader.

    Every statement on a database shares that database's bookmark manager, so on a cluster a read
    always sees this store's earlier writes (causal consistency); ``bookmarks`` hands them to
    another process, whose store then starts from them.

    ``databases`` maps namespaces (or namespace prefixes) to databases of their own, on servers
    that hold several (Enterprise, Aura): ``on(namespace)`` is the store of the namespace's
    database, sharing this one's driver. Unmapped namespaces stay in ``database``.
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
        databases: Mapping[str, str] | None = None,
    ) -> None:
        self.uri = uri
        self.database = database
        self.routes = database_map(databases or {})
        # What routed a view here (``namespace 'x'``), for the error when its database is missing.
        self.route: str | None = None
        self._root = self
        self._initial = list(bookmarks)
        self._managers: dict[str, neo4j.BookmarkManager] = {}
        self._prepared: set[str] = set()
        self._lock = threading.Lock()
        self._bookmarks = self._manager(database)
        self._features: ServerFeatures | None = None
        # None: decided on first use (``filters_in_vector_index``); True/False forces one path
        # (the benchmarks and tests compare both on the same server).
        self.vector_filtering: bool | None = None
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

    def query_vector(self, embedding: Iterable[float]) -> list[float] | Vector:
        """An embedding as a vector read's parameter: on the in-index path (Neo4j 2026, Bolt 6)
        a ``Vector``, one block of bytes the server takes as it is, where a list of 384 floats is
        384 values packed and unpacked one by one (0.3 ms of a search here: docs/benchmarks.md);
        else the list that Neo4j 5 takes. Float64, so that the scores are the list's."""
        if self.filters_in_vector_index():
            return Vector(np.asarray(embedding, dtype=np.float64))
        return list(embedding)

    def schema_changed(self) -> None:
        """Forget what ``filters_in_vector_index`` decided (the index may be another now)."""
        self.vector_filtering = None

    def close(self) -> None:
        """Close the driver and its pooled connections (shared by every ``on`` view)."""
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

    # -- databases -----------------------------------------------------------------------------

    def _manager(self, database: str) -> neo4j.BookmarkManager:
        """The bookmark manager of ``database``: one per database, so a read waits only for this
        store's writes to the database it reads. Each starts from every bookmark the store was
        given (raw bookmarks do not say their database; the server waits only for its own)."""
        root = self._root
        with root._lock:
            manager = root._managers.get(database)
            if manager is None:
                manager = neo4j.GraphDatabase.bookmark_manager(
                    initial_bookmarks=neo4j.Bookmarks.from_raw_values(root._initial)
                )
                root._managers[database] = manager
            return manager

    def database_of(self, namespace: str) -> str:
        """The database ``namespace`` lives in: its mapping's, else the default one."""
        return database_for(namespace, self._root.routes) or self._root.database

    def on(self, namespace: str) -> Store:
        """The store for ``namespace``: this one when the namespace is not mapped, else a view on
        its database (the driver shared). A mapped database is prepared on its first use in this
        process: a missing database is a ``ConfigError`` naming it and the namespace, and a
        database without the schema gets it (``ensure_schema``), before anything is written."""
        root = self._root
        database = database_for(namespace, root.routes)
        if database is None:
            return root
        view = root._view(database, f"namespace {namespace!r}")
        with root._lock:
            ready = database in root._prepared
        if not ready:
            view.ensure_schema()
            with root._lock:
                root._prepared.add(database)
        return view

    def every_database(self) -> list[Store]:
        """A store per database in use: the default one, then each mapped one (for what spans
        namespaces: listings, the schema)."""
        root = self._root
        found = [root]
        for database in dict.fromkeys(root.routes.values()):
            if database != root.database:
                keys = ", ".join(repr(k) for k, v in root.routes.items() if v == database)
                found.append(root._view(database, f"the namespaces under {keys}"))
        return found

    def _view(self, database: str, route: str) -> Store:
        view = copy.copy(self._root)
        view.database, view.route = database, route
        view._bookmarks = view._manager(database)
        # Each database has its own vector index: what it filters on is decided per view.
        view.vector_filtering = None
        return view

    def missing_database(self) -> str:
        """The error for a database the server does not have."""
        if self.route is None:
            return (
                f"database: Neo4j has no database {self.database!r} (NEO4J_DATABASE, or the "
                "database given to connect)"
            )
        return (
            f"databases: {self.route} → the database {self.database!r}, which this Neo4j server "
            "does not have; create it (CREATE DATABASE, on Enterprise or Aura) or change the "
            "mapping. Nothing was written."
        )

    def ensure_schema(self, timeout: int = 120) -> list[str]:
        """Apply the schema if any of its constraints or indexes is missing from this database,
        or one it retired is still there; the statements applied (none when it was as it
        should be)."""
        present = {r["name"] for r in self.read_leader("admin/doctor_indexes")}
        if cypher.schema_names() <= present and not cypher.retired_names() & present:
            return []
        return self.apply_schema(timeout)

    def apply_schema(self, timeout: int = 120, *, plan: bool = True) -> list[str]:
        """Create this database's constraints and indexes (idempotent) and wait until they are
        online, then plan the write path unless ``plan`` is False (the caller plans it later);
        the statements applied."""
        applied = cypher.schema_for(self.features().vector_filters)
        for name in applied:
            self.write(name)
        self.write("admin/schema_await", timeout=timeout)
        self.schema_changed()
        if plan:
            self.plan_write_path()
        return applied

    def plan_write_path(self) -> None:
        """Have Neo4j plan the write path's read and apply now, with an empty batch (which reads
        and writes nothing), rather than in the first write: seconds on a server that has not
        planned them since it started or since the schema changed. The plan made here is the
        one a real write uses, because the lists come in one map (docs/engine.md#plans)."""
        nothing: dict[str, Any] = {key: [] for key in cypher.batch_keys("write/state")}
        # A single draft's vector look-up rides with its read: in Cypher 25 where the index
        # filters (read_state), so that statement is planned too.
        for name in {"write/state", cypher.variant("write/state", self.filters_in_vector_index())}:
            self.read_leader(name, batch=nothing, fetch=1)
        nothing = {key: [] for key in cypher.batch_keys("write/apply")}
        self.write_once("write/apply", batch=nothing)

    # -- statements ----------------------------------------------------------------------------

    def _session(self, access: str = neo4j.WRITE_ACCESS) -> neo4j.Session:
        return self._driver.session(
            database=self.database, bookmark_manager=self._bookmarks, default_access_mode=access
        )

    def bookmarks(self) -> list[str]:
        """The bookmarks of every transaction this store has run (or was started from), on every
        database it used."""
        root = self._root
        with root._lock:
            found = {b for m in root._managers.values() for b in m.get_bookmarks()}
        if root.routes:
            # A database's manager drops the bookmarks a transaction there was given; those of
            # the other databases among them must still be handed on.
            found |= set(root._initial)
        return sorted(found)

    def read(self, name: str, **params: Any) -> list[Row]:
        """One read statement as an auto-commit read transaction (on a cluster, any member
        that has caught up with this store's bookmarks): one round trip, where a managed
        transaction takes two (its COMMIT is a second one); p50 1.91 → 1.44 ms for ``current``
        here (docs/benchmarks.md). After a transient failure or a lost connection, a managed
        read transaction with the driver's retries."""
        return self._autocommit(
            name,
            params,
            lambda: self._execute(name, params, neo4j.RoutingControl.READ),
            access=neo4j.READ_ACCESS,
        )

    def read_leader(self, name: str, **params: Any) -> list[Row]:
        """A read that a write will be decided on (the write path's read step): run on the
        leader, which has every committed write, so the decision is not made on a follower's
        older state only to be refused by the slot's sequence check. One auto-commit statement
        (one round trip); after a transient failure or a lost connection, a managed read
        transaction with the driver's retries."""
        return self._autocommit(
            name, params, lambda: self._execute(name, params, neo4j.RoutingControl.WRITE)
        )

    def read_leader_split(self, name: str, key: str, items: list[Any], **params: Any) -> list[Row]:
        """``read_leader`` of a statement that looks up each item of its list ``$batch.<key>``
        on its own (the nearest claims of each draft of a batch), the list cut in two halves
        sent side by side: Neo4j runs a statement on one thread, and the vector look-ups of a
        batch are most of a batch's read (250 drafts: 1.70 s as one statement, 0.95 s as two,
        docs/benchmarks.md). The rows of the first half come first."""
        if len(items) < SPLIT_AT:
            return self.read_leader(name, batch={key: items}, **params)
        half = len(items) // 2
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="read") as pool:
            second = pool.submit(self.read_leader, name, batch={key: items[half:]}, **params)
            first = self.read_leader(name, batch={key: items[:half]}, **params)
            return first + second.result()

    def write(self, name: str, **params: Any) -> list[Row]:
        """One write statement in its own auto-retried write transaction."""
        return self._execute(name, params, neo4j.RoutingControl.WRITE)

    def _execute(
        self, name: str, params: dict[str, Any], routing: neo4j.RoutingControl
    ) -> list[Row]:
        with _mapped(self):
            records, _, _ = self._driver.execute_query(
                _query(name, params),
                _sent(params),
                database_=self.database,
                routing_=routing,
                bookmark_manager_=self._bookmarks,
            )
        return [_native(r.data()) for r in records]

    def transaction(self, work: Callable[[Tx], T]) -> T:
        """Run ``work`` as one write transaction, retried by the driver on transient errors.

        Any exception ``work`` raises (``StaleSlot`` among them) rolls the transaction back.
        """
        with _mapped(self), self._session() as session:
            return session.execute_write(lambda tx: work(Tx(tx)))

    def write_once(self, name: str, **params: Any) -> list[Row]:
        """One write statement as its own transaction with no BEGIN and COMMIT of their own (an
        auto-commit transaction: one round trip, committed when the statement ends). Not retried
        here: when it fails transiently or the connection is lost, ``StaleSlot`` says read and
        decide again (a statement that did commit is then found by its revision ids)."""

        def stale() -> list[Row]:
            raise StaleSlot()

        return self._autocommit(name, params, stale)

    def _autocommit(
        self,
        name: str,
        params: dict[str, Any],
        failed: Callable[[], list[Row]],
        access: str = neo4j.WRITE_ACCESS,
    ) -> list[Row]:
        """``name`` as an auto-commit transaction; ``failed()`` instead when it failed in a way
        that running it again may fix. The write path's statements return values, lists and
        maps, never nodes or relationships: their rows are taken as they come (``dict``, not
        the driver's recursive ``data()``)."""
        with _mapped(self):
            try:
                with self._session(access) as session:
                    result = session.run(_query(name, params), _sent(params))
                    if access == neo4j.READ_ACCESS:
                        return [_native(r.data()) for r in result]
                    return [_native(dict(r)) for r in result]
            except _RETRYABLE as exc:
                if getattr(exc, "code", None) == _OUT_OF_MEMORY:
                    raise  # as large again next time: _mapped says what to change
                return failed()

    def run_literal(self, query: LiteralString, /, **params: Any) -> list[Row]:
        """Run Cypher given as a literal, in one auto-commit transaction; rows as the driver
        returns them (no conversion).

        Only for ``belief_graph.testing`` (invariant checks, counts, the guarded wipe) and the
        tests: the engine itself runs nothing but its shipped statements.
        """
        with _mapped(self), self._session() as session:
            return [record.data() for record in session.run(query, params)]

    def profile(self, name: str, /, **params: Any) -> dict[str, Any]:
        """The profile of a shipped statement run on ``params`` (its operators with their rows
        and db hits), in a transaction rolled back: a write statement changes nothing. For
        the tests and the benchmarks, which count what a statement reads."""
        with _mapped(self), self._session() as session:
            tx = session.begin_transaction()
            try:
                result = tx.run("PROFILE " + cypher.sent(name), params)
                summary = result.consume()
            finally:
                tx.rollback()
        return summary.profile or {}

    def explain(self, name: str) -> dict[str, Any]:
        """The plan Neo4j makes for a shipped statement now, without running it (EXPLAIN is
        planned every time, never answered from the plan cache): catches syntax errors."""
        with _mapped(self):
            result = self._driver.execute_query("EXPLAIN " + _query(name), database_=self.database)
        return result.summary.plan or {}
