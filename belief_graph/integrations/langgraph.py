"""A LangGraph ``BaseStore`` on ``BeliefGraph`` (the ``langgraph`` extra).

The mapping, so that what a LangGraph agent stores is a belief like any other:

- the namespace tuple is one belief-graph namespace, its labels joined by ``.`` (LangGraph
  forbids ``.`` in a label): ``("user:priya",)`` is ``user:priya``, the namespace the CLI and the
  MCP server read; ``("memories", "u1")`` is ``memories.u1``;
- the key is the subject of one slot whose predicate is ``langgraph_value``; a key that the
  engine's subject normalization would change (case, spacing, trailing punctuation) carries a
  short digest so that two keys never share a slot;
- the value is the claim's object and text: its canonical JSON (at most 1,000 characters);
- ``put`` remembers it: the same value reinforces, a new one supersedes the old (the history and
  both time axes keep it). A put is the application's own word for its key, so when the policy
  would hold the new value pending (a belief reinforced many times), the store confirms it;
- ``delete`` retracts the current claim: gone from ``get`` and ``search``, kept in the history.
  Nothing is ever physically deleted;
- ``search`` reads current items only; with ``query`` it ranks by meaning (the engine needs its
  embedding model), else by key; ``filter`` matches values exactly or with ``$eq``, ``$ne``,
  ``$gt``, ``$gte``, ``$lt``, ``$lte``;
- a claim with the store's predicate whose object is not a JSON object (written through the API
  or MCP: ``"happy"``, ``"[1, 2]"``) is not one of the store's items: ``get`` answers ``None``
  for its key and ``search`` leaves it out, each logging a warning that names the claim; one
  such claim never fails a read of the others.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import operator
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from pydantic import TypeAdapter, ValidationError

from belief_graph.client import BeliefGraph
from belief_graph.errors import ConflictError
from belief_graph.models import Claim, ClaimDraft, Identifier, SourceType, Term
from belief_graph.vocabulary import normalize_key

PREDICATE = "langgraph_value"
SEPARATOR = "."
MAX_VALUE = 1000  # a claim's object is a Term
MAX_KEY = 980  # room for the digest within a Term
_LOG = logging.getLogger(__name__)
_DIGEST = re.compile(r"^(?P<key>.*) #[0-9a-f]{16}$", re.DOTALL)
_NAMESPACE = TypeAdapter(Identifier)
_TERM = TypeAdapter(Term)
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": operator.eq,
    "$ne": operator.ne,
    "$gt": operator.gt,
    "$gte": operator.ge,
    "$lt": operator.lt,
    "$lte": operator.le,
}


def namespace_of(labels: tuple[str, ...]) -> str:
    """The belief-graph namespace of a LangGraph namespace tuple."""
    if not labels:
        raise InvalidNamespaceError("namespace: must not be empty")
    for label in labels:
        if not isinstance(label, str) or not label or SEPARATOR in label:
            raise InvalidNamespaceError(
                f"namespace: label {label!r} must be a non-empty string without '.'"
            )
    joined = SEPARATOR.join(labels)
    try:
        return _NAMESPACE.validate_python(joined)
    except ValidationError as exc:
        raise InvalidNamespaceError(
            f"namespace: {labels!r} {exc.errors()[0]['msg']} (within each label)"
        ) from None


def labels_of(namespace: str) -> tuple[str, ...]:
    """The LangGraph namespace tuple of a belief-graph namespace."""
    return tuple(namespace.split(SEPARATOR))


def subject_of(key: str) -> str:
    """The claim subject of a store key: the key itself when the engine's subject normalization
    keeps it as it is, else the key with a digest, so distinct keys never share a slot."""
    if not isinstance(key, str):
        raise ValueError(f"key: must be a string, not {type(key).__name__}")
    if len(key) > MAX_KEY:
        raise ValueError(f"key: at most {MAX_KEY} characters")
    try:
        _TERM.validate_python(key)
    except ValidationError as exc:
        raise ValueError(f"key: {exc.errors()[0]['msg']}") from None
    if normalize_key(key) == key and not _DIGEST.match(key):
        return key
    return f"{key} #{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def key_of(subject: str) -> str:
    """The store key of a claim subject (the inverse of ``subject_of``)."""
    match = _DIGEST.match(subject)
    if match and subject_of(match["key"]) == subject:
        return match["key"]
    return subject


def encode(value: Mapping[str, Any]) -> str:
    """A value as canonical JSON (sorted keys, no spaces): equal values, equal objects."""
    if not isinstance(value, Mapping):
        raise ValueError(f"value: must be a dict, not {type(value).__name__}")
    value = dict(value)
    try:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"value: is not JSON-serializable ({exc})") from None
    if len(text) > MAX_VALUE:
        raise ValueError(f"value: its JSON is {len(text)} characters; at most {MAX_VALUE}")
    return text


def decode(claim: Claim) -> dict[str, Any] | None:
    """The store value a claim holds: its object as a JSON object; ``None`` (logged, naming the
    claim) when the object is anything else, i.e. the claim is not one of the store's items."""
    try:
        value = json.loads(claim.object or "")
    except ValueError:
        value = None
    if isinstance(value, dict):
        return value
    _LOG.warning(
        "claim %r in namespace %r has the store's predicate but its object is not a JSON "
        "object: not a store item, left out",
        claim.id,
        claim.namespace,
    )
    return None


def _matches(value: dict[str, Any], conditions: dict[str, Any] | None) -> bool:
    for field, wanted in (conditions or {}).items():
        present = field in value
        actual = value.get(field)
        if isinstance(wanted, dict) and wanted and all(k in _COMPARE for k in wanted):
            for op, operand in wanted.items():
                if op != "$ne" and not present:
                    return False
                try:
                    if not _COMPARE[op](actual, operand):
                        return False
                except TypeError:
                    return False
        elif not present or actual != wanted:
            return False
    return True


class BeliefGraphStore(BaseStore):
    """LangGraph's long-term memory store on belief-graph (see the module docstring).

    ``source_type`` is the provenance every put records; ``actor`` is the name its revisions
    carry. Give the ``BeliefGraph`` models (``BeliefGraph.connect()``) for ``search(query=...)``.
    """

    __slots__ = ("actor", "bg", "predicate", "source_type")

    def __init__(
        self,
        bg: BeliefGraph,
        *,
        source_type: SourceType = "user_stated",
        actor: str = "langgraph",
    ) -> None:
        self.bg = bg
        self.source_type = source_type
        self.actor = actor
        self.predicate = bg.vocabulary.canonical(PREDICATE)

    # -- BaseStore ---------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run the operations in order (each write is its own revision)."""
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"ops: unknown operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` in a worker thread (the engine's driver is synchronous)."""
        return await asyncio.to_thread(self.batch, list(ops))

    # -- operations --------------------------------------------------------------------------

    def _current(self, namespace: str, key: str) -> Claim | None:
        found = self.bg.current(namespace, subject_of(key), PREDICATE)
        if isinstance(found, list):
            return found[0] if found else None
        return found

    def _item(self, claim: Claim, created_at: datetime | None = None) -> Item | None:
        """The store item ``claim`` holds; ``None`` when it holds none (``decode``)."""
        value = decode(claim)
        if value is None:
            return None
        return Item(
            value=value,
            key=key_of(claim.subject or ""),
            namespace=labels_of(claim.namespace),
            created_at=created_at or self._created(claim),
            updated_at=claim.recorded_at,
        )

    def _created(self, claim: Claim) -> datetime:
        chain = self.bg.history(claim.namespace, claim.subject or "", PREDICATE)
        kept = [c.recorded_at for c in chain if c.status in ("active", "superseded")]
        return min(kept, default=claim.recorded_at)

    def _get(self, op: GetOp) -> Item | None:
        namespace = namespace_of(op.namespace)
        claim = self._current(namespace, op.key)
        return self._item(claim) if claim is not None else None

    def _put(self, op: PutOp) -> None:
        namespace = namespace_of(op.namespace)
        if op.value is None:
            claim = self._current(namespace, op.key)
            if claim is not None:
                self.bg.contract(
                    namespace, claim.id, retract=True, reason="store delete", actor=self.actor
                )
            return
        text = encode(op.value)
        result = self.bg.remember(
            ClaimDraft(
                namespace=namespace,
                subject=subject_of(op.key),
                predicate=PREDICATE,
                object=text,
                text=text,
                source_type=self.source_type,
                origin="langgraph store",
            ),
            actor=self.actor,
        )
        if result.decision == "hold_pending":
            self.bg.confirm(namespace, result.added[0], actor=self.actor)
        elif result.decision == "reject":
            raise ConflictError(f"key: {op.key!r} holds a belief of higher trust ({result.reason})")

    def _search(self, op: SearchOp) -> list[SearchItem]:
        namespaces = self._namespaces(op.namespace_prefix)
        found: list[SearchItem] = []
        if op.query:
            wanted = op.offset + op.limit
            for namespace in namespaces:
                hits = self.bg.search(op.query, namespace, k=min(1000, max(wanted * 3, 20)))
                for hit in hits:
                    claim = hit.claim
                    if claim.predicate != self.predicate:
                        continue
                    item = self._item(claim)
                    if item is not None and _matches(item.value, op.filter):
                        found.append(self._scored(item, hit.score))
            found.sort(key=lambda i: -(i.score or 0.0))
        else:
            for namespace in namespaces:
                for belief in self.bg.current_beliefs(namespace, PREDICATE):
                    item = self._item(belief.claim, belief.since)
                    if item is not None and _matches(item.value, op.filter):
                        found.append(self._scored(item, None))
        return found[op.offset : op.offset + op.limit]

    @staticmethod
    def _scored(item: Item, score: float | None) -> SearchItem:
        return SearchItem(
            namespace=item.namespace,
            key=item.key,
            value=item.value,
            created_at=item.created_at,
            updated_at=item.updated_at,
            score=score,
        )

    def _namespaces(self, prefix: tuple[str, ...]) -> list[str]:
        return self.bg.namespaces_holding(PREDICATE, namespace_of(prefix) if prefix else None)

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        prefix: tuple[str, ...] = ()
        for condition in op.match_conditions or ():
            if condition.match_type == "prefix" and "*" not in condition.path:
                prefix = tuple(condition.path)
                break
        found = [labels_of(n) for n in self._namespaces(prefix)]
        for condition in op.match_conditions or ():
            found = [
                ns for ns in found if _condition_holds(ns, condition.match_type, condition.path)
            ]
        if op.max_depth is not None:
            found = sorted({ns[: op.max_depth] for ns in found})
        return found[op.offset : op.offset + op.limit]


def _condition_holds(namespace: tuple[str, ...], kind: str, path: tuple[str, ...]) -> bool:
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if kind == "prefix" else namespace[len(namespace) - len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))
