"""Namespace snapshots: export to JSON Lines and restore into an empty namespace.

A snapshot is JSON Lines: a header, one line per node (``Slot``, ``Claim`` with its embedding,
``Episode``, ``Revision``), one line per relationship between nodes of the namespace, and a footer
with the counts (so a truncated file is refused rather than half restored). Values that JSON
cannot carry are tagged: ``{"$datetime": "<ISO-8601>"}`` and ``{"$date": "<ISO-8601>"}``.
Restore writes through fixed statements only: the node label and relationship type of each line
pick a statement from a whitelist, they are never put into query text.
"""

from __future__ import annotations

import functools
import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, get_args

from ..errors import BeliefGraphError, ConflictError
from ..models import CLAIM_MOMENTS, CLAIM_TRANSACTION_TIMES
from ..write.apply import load, load_all

if TYPE_CHECKING:
    from ..store import Store

SNAPSHOT_FORMAT = "belief-graph-snapshot"
SNAPSHOT_VERSION = 1

NODE_LABELS = ("Slot", "Claim", "Episode", "Revision")
_EXPORT_NODES = {
    "Slot": "transfer/export_slots",
    "Claim": "transfer/export_claims",
    "Episode": "transfer/export_episodes",
    "Revision": "transfer/export_revisions",
}
_RESTORE_NODES = {
    "Slot": "transfer/restore_slots",
    "Claim": "transfer/restore_claims",
    "Episode": "transfer/restore_episodes",
    "Revision": "transfer/restore_revisions",
}
# (type, start label, end label) -> statement: the whole vocabulary of relationships in DESIGN §2.
_RESTORE_EDGES = {
    ("IN_SLOT", "Claim", "Slot"): "transfer/restore_in_slot",
    ("DERIVED_FROM", "Claim", "Episode"): "transfer/restore_derived_from",
    ("SUPERSEDES", "Claim", "Claim"): "transfer/restore_supersedes",
    ("SUPPORTS", "Claim", "Claim"): "transfer/restore_supports",
    ("DEPENDS_ON", "Claim", "Claim"): "transfer/restore_depends_on",
    ("CONTRADICTS", "Claim", "Claim"): "transfer/restore_contradicts",
    ("ADDED", "Revision", "Claim"): "transfer/restore_added",
    ("RETIRED", "Revision", "Claim"): "transfer/restore_retired",
    ("REINFORCED", "Revision", "Claim"): "transfer/restore_reinforced",
    ("FLAGGED", "Revision", "Claim"): "transfer/restore_flagged",
    ("RESTORED", "Revision", "Claim"): "transfer/restore_restored",
}


class SnapshotError(BeliefGraphError):
    """A snapshot file that cannot be restored as it stands (nothing was written)."""


# -- values ------------------------------------------------------------------------------------


def encode_value(value: Any) -> Any:
    """A property value as JSON: datetimes and dates tagged, lists element-wise."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, date):
        return {"$date": value.isoformat()}
    if isinstance(value, list | tuple):
        return [encode_value(v) for v in value]
    raise SnapshotError(f"cannot export a property of type {type(value).__name__}")


def decode_value(value: Any) -> Any:
    """The inverse of ``encode_value``."""
    if isinstance(value, dict):
        if set(value) == {"$datetime"}:
            return datetime.fromisoformat(value["$datetime"])
        if set(value) == {"$date"}:
            return date.fromisoformat(value["$date"])
        raise SnapshotError(f"unknown tagged value {sorted(value)}")
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    return value


def _encode_props(props: dict[str, Any]) -> dict[str, Any]:
    return {k: encode_value(v) for k, v in sorted(props.items())}


def _decode_props(props: Any) -> dict[str, Any]:
    if not isinstance(props, dict):
        raise SnapshotError("props must be a JSON object")
    return {k: decode_value(v) for k, v in props.items()}


# -- export ------------------------------------------------------------------------------------


def export_namespace(
    store: Store, namespace: str, out: IO[str], *, page_size: int = 1_000
) -> dict[str, int]:
    """Write the namespace's whole graph to ``out`` as a snapshot; the counts written.

    Reads page by page; a consistent snapshot needs a namespace nobody writes meanwhile. Refused
    while an erase of the namespace is unfinished: a snapshot would hold what it has not erased
    yet, and nothing would say it is being erased.
    """
    store = store.on(namespace)
    running = [
        r["id"]
        for r in store.read_leader("write/erase_running", namespace=namespace, id=None)
        if r["running"]
    ]
    if running:
        raise ConflictError(
            f"namespace {namespace!r}: the erase {', '.join(map(repr, running))} has not finished; "
            "finish it (erase again with the same arguments) before exporting"
        )
    counts: Counter[str] = Counter()
    header = {
        "kind": "header",
        "format": SNAPSHOT_FORMAT,
        "version": SNAPSHOT_VERSION,
        "namespace": namespace,
        "exported_at": datetime.now().astimezone().isoformat(),
    }
    out.write(json.dumps(header) + "\n")
    # Relationships follow all nodes, so they are spooled to disk rather than held in memory.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as edges:
        for label in NODE_LABELS:
            after = ""
            while True:
                rows = store.read(
                    _EXPORT_NODES[label], namespace=namespace, after=after, limit=page_size
                )
                for row in rows:
                    props = row["props"]
                    node = {"kind": "node", "label": label, "props": _encode_props(props)}
                    out.write(json.dumps(node) + "\n")
                    counts[label] += 1
                    for edge in row["edges"]:
                        line = {
                            "kind": "edge",
                            "type": edge["type"],
                            "start": [label, props["id"]],
                            "end": [edge["end_label"], edge["end_id"]],
                            "props": _encode_props(edge["props"]),
                        }
                        edges.write(json.dumps(line) + "\n")
                        counts["edges"] += 1
                if len(rows) < page_size:
                    break
                after = rows[-1]["props"]["id"]
        edges.seek(0)
        shutil.copyfileobj(edges, out)
    footer = {
        "kind": "footer",
        "nodes": {k: counts[k] for k in NODE_LABELS},
        "edges": counts["edges"],
    }
    out.write(json.dumps(footer) + "\n")
    return dict(counts)


# -- restore -----------------------------------------------------------------------------------


@dataclass
class _Contents:
    namespace: str = ""
    nodes: Counter[str] = field(default_factory=Counter)
    edges: int = 0
    claim_ids: list[str] = field(default_factory=list)
    slot_ids: list[str] = field(default_factory=list)


def _snapshot_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SnapshotError(f"line {number}: not valid JSON ({exc.msg})") from exc
            if not isinstance(record, dict):
                raise SnapshotError(f"line {number}: expected a JSON object")
            yield number, record


def _is_endpoint(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(x, str) for x in value)


_MOMENTS = {
    "Claim": CLAIM_MOMENTS,
    "Slot": ("last_recorded_at",),
    "Episode": ("occurred_at", "erased_at"),
    "Revision": ("at",),
}
# The moments that are transaction time: when the engine learned or did something. None can lie
# ahead of the restoring engine's clock (by more than the skew remember allows a draft): a fact
# whose last change is in the year 9999 refuses every later write, and a belief recorded then is
# no answer to any read until that year.
_TRANSACTION_TIMES = {
    "Claim": CLAIM_TRANSACTION_TIMES,
    "Slot": ("last_recorded_at",),
    "Episode": ("erased_at",),
    "Revision": ("at",),
}
CLOCK_SKEW = timedelta(seconds=300)
"""How far ahead of the restoring clock a transaction time may be (the policy's default
``clock_skew_seconds``: clocks drift)."""
# Fields the API validates as identifiers (namespaces and ids) and as terms and sentences, per
# label: a restored value the API would refuse (a trailing newline, ESC or BEL in a namespace, a
# control character in a subject) is refused here too, naming it.
_IDENTIFIERS = {
    "Claim": ("id", "namespace", "slot_id", "review_revision", "promoted_from", "restored_from"),
    "Slot": ("id", "namespace", "head", "last_revision"),
    "Episode": ("id", "namespace"),
    "Revision": ("id", "namespace", "undoes", "slot_ids"),
}
_TERMS = {
    "Claim": ("subject", "predicate", "object", "author", "origin", "predicate_text"),
    "Slot": ("subject", "predicate"),
    "Episode": ("source",),
    "Revision": ("actor",),
}
_TEXTS = {"Claim": ("text",), "Slot": (), "Episode": ("content",), "Revision": ()}

_REQUIRED = {
    "Claim": ("status", "source_type", "confidence", "valid_from", "recorded_at"),
    "Slot": ("subject_key", "predicate", "cardinality", "seq", "versions"),
    "Episode": (),
    "Revision": ("op", "at", "result"),
}


@dataclass(frozen=True)
class _ClaimFacts:
    """What the checks of the graph need of one claim (not its content, nor its embedding)."""

    line: int
    status: str
    version: int | None
    slot_id: str | None
    subject_key: str | None
    predicate: str | None


@dataclass(frozen=True)
class _SlotFacts:
    line: int
    cardinality: str
    versions: int
    head: str | None
    subject_key: str
    predicate: str


@dataclass
class _Graph:
    """What the §7 checks need of the restored graph, with the line each item came from."""

    claims: dict[str, _ClaimFacts] = field(default_factory=dict)
    slots: dict[str, _SlotFacts] = field(default_factory=dict)
    in_slot: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    supersedes: list[tuple[int, str, str]] = field(default_factory=list)


def _value(where: str, name: str, value: Any) -> Any:
    """One property value decoded and checked: a storable type, datetimes aware."""
    if isinstance(value, dict):
        try:
            decoded = decode_value(value)
        except (ValueError, TypeError, SnapshotError) as exc:
            raise SnapshotError(f"{where}: {name}: not a valid date or datetime ({exc})") from exc
        if isinstance(decoded, datetime) and decoded.utcoffset() is None:
            raise SnapshotError(f"{where}: {name}: datetime without a timezone: {value}")
        return decoded
    if isinstance(value, list):
        items = [_value(where, name, v) for v in value]
        kinds = {float if type(v) is int else type(v) for v in items}
        if len(kinds) > 1 or list in kinds or type(None) in kinds:
            raise SnapshotError(f"{where}: {name}: a list must hold values of one plain type")
        return items
    return value


@functools.cache
def _adapter(kind: Any) -> Any:
    """One adapter per kind: building one costs more than the validation (a 3,000-claim restore
    spent 17 of its 23 s building them, one per field of every node)."""
    from pydantic import TypeAdapter

    return TypeAdapter(kind)


def _as_api(where: str, name: str, value: Any, kind: Any) -> None:
    """``value`` (or each item of a list) validated as the API validates ``kind``."""
    from pydantic import ValidationError

    adapter = _adapter(kind)
    for item in value if isinstance(value, list) else [value]:
        try:
            adapter.validate_python(item, strict=True)
        except ValidationError as exc:
            raise SnapshotError(f"{where}: {name}: {item!r} {exc.errors()[0]['msg']}") from exc


def _node(where: str, label: str, props: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A node's properties decoded and checked field by field, as the engine reads them and as
    the API would have taken them."""
    from pydantic import ValidationError

    from ..models import Cardinality, Claim, Identifier, Operation, RevisionResult, Term, Text

    decoded = {k: _value(where, f"{label}.{k}", v) for k, v in props.items()}
    for name in _REQUIRED[label]:
        if decoded.get(name) is None:
            raise SnapshotError(f"{where}: {label}.{name}: missing")
    for name in _MOMENTS[label]:
        if decoded.get(name) is not None and not isinstance(decoded[name], datetime):
            raise SnapshotError(
                f"{where}: {label}.{name}: expected a tagged datetime, got {props[name]!r}"
            )
    for names, kind in ((_IDENTIFIERS, Identifier), (_TERMS, Term), (_TEXTS, Text)):
        for name in names[label]:
            if decoded.get(name) is not None:
                _as_api(where, f"{label}.{name}", decoded[name], kind)
    for name in _TRANSACTION_TIMES[label]:
        moment = decoded.get(name)
        if isinstance(moment, datetime) and moment > now + CLOCK_SKEW:
            raise SnapshotError(
                f"{where}: {label}.{name}: {moment.isoformat()} is in the future (the restoring "
                f"clock reads {now.isoformat()}); a transaction time is when the engine learned "
                "something, never ahead of it"
            )
    if label == "Claim":
        try:
            Claim.model_validate(decoded)
        except ValidationError as exc:
            error = exc.errors()[0]
            field_name = ".".join(str(p) for p in error["loc"])
            raise SnapshotError(f"{where}: Claim.{field_name}: {error['msg']}") from exc
        _claim_window(where, decoded)
    elif label == "Slot":
        for name in ("subject_key", "predicate"):
            if not isinstance(decoded[name], str):
                raise SnapshotError(f"{where}: Slot.{name}: not a string")
        if decoded["cardinality"] not in get_args(Cardinality):
            raise SnapshotError(f"{where}: Slot.cardinality: {decoded['cardinality']!r}")
        for name in ("seq", "versions"):
            if not isinstance(decoded[name], int) or isinstance(decoded[name], bool):
                raise SnapshotError(f"{where}: Slot.{name}: not an integer")
    elif label == "Revision":
        if decoded["op"] not in get_args(Operation):
            raise SnapshotError(f"{where}: Revision.op: unknown operation {decoded['op']!r}")
        try:
            RevisionResult.model_validate_json(decoded["result"])
        except (ValidationError, ValueError) as exc:
            raise SnapshotError(f"{where}: Revision.result: not a stored result") from exc
    return decoded


def _claim_window(where: str, claim: dict[str, Any]) -> None:
    """A claim's times as the reads rely on them: a window that ends after it starts (a live
    claim's) or at its start at the earliest (a retired one's), the end a superseded claim
    always has, and the moment a belief was accepted or retracted, without which ``as_of``
    cannot place it."""
    status, start, end = claim["status"], claim["valid_from"], claim.get("valid_to")
    if end is not None and (end < start or (end == start and status in _LIVE)):
        raise SnapshotError(
            f"{where}: Claim.valid_to: {end.isoformat()} is not later than valid_from "
            f"({start.isoformat()}) in a {status} claim"
        )
    if status == "superseded" and end is None:
        raise SnapshotError(f"{where}: Claim.valid_to: missing in a superseded claim")
    if status in ("active", "superseded") and claim.get("accepted_at") is None:
        raise SnapshotError(f"{where}: Claim.accepted_at: missing in a {status} claim")
    if status == "retracted" and claim.get("retracted_at") is None:
        raise SnapshotError(f"{where}: Claim.retracted_at: missing in a retracted claim")


_LIVE = ("active", "pending", "rejected")


def _check_graph(graph: _Graph) -> None:
    """The DESIGN §7 invariants over the graph to restore, and what the write path relies on
    beyond them: every claim in exactly one slot (its ``slot_id``, and the slot's key while it
    has content), at most one active claim per single-valued slot, a slot key once, each
    single-valued slot's versions numbered 1..n with every version but the first superseding
    exactly its predecessor (no reversed edge, no cycle, no fork) and the slot's ``versions``
    and ``head`` naming the last of them (the next write numbers its version from them)."""
    keys: dict[tuple[str, str], tuple[int, str]] = {}
    for slot_id, facts in sorted(graph.slots.items(), key=lambda s: s[1].line):
        key = (facts.subject_key, facts.predicate)
        if key in keys:
            raise SnapshotError(
                f"line {facts.line}: Slot.subject_key: the fact {key!r} twice (the first: slot "
                f"{keys[key][1]!r}, line {keys[key][0]})"
            )
        keys[key] = (facts.line, slot_id)
    for claim_id, claim in graph.claims.items():
        homes = graph.in_slot.get(claim_id, [])
        if len(homes) != 1:
            raise SnapshotError(
                f"line {claim.line}: Claim {claim_id!r}: in {len(homes)} slots (IN_SLOT), not one"
            )
        home = graph.slots[homes[0][1]]
        if claim.slot_id != homes[0][1]:
            raise SnapshotError(
                f"line {claim.line}: Claim.slot_id: {claim.slot_id!r}, but its IN_SLOT edge "
                f"(line {homes[0][0]}) is to slot {homes[0][1]!r}"
            )
        if claim.status != "erased" and (claim.subject_key, claim.predicate) != (
            home.subject_key,
            home.predicate,
        ):
            raise SnapshotError(
                f"line {claim.line}: Claim.subject_key: ({claim.subject_key!r}, "
                f"{claim.predicate!r}) is not its slot's ({home.subject_key!r}, "
                f"{home.predicate!r}, line {home.line})"
            )
    active: dict[str, tuple[int, str]] = {}
    for claim_id, claim in sorted(graph.claims.items(), key=lambda c: c[1].line):
        slot = graph.in_slot[claim_id][0][1]
        if claim.status == "active" and graph.slots[slot].cardinality == "single":
            if slot in active:
                raise SnapshotError(
                    f"line {claim.line}: Claim.status: a second active claim in single-valued "
                    f"slot {slot!r} (the first: {active[slot][1]!r}, line {active[slot][0]})"
                )
            active[slot] = (claim.line, claim_id)
    outgoing: set[str] = set()
    incoming: set[str] = set()
    for line, new, old in graph.supersedes:
        where = f"line {line}: SUPERSEDES {new!r} -> {old!r}"
        slot = graph.in_slot[new][0][1]
        if graph.in_slot[old][0][1] != slot:
            raise SnapshotError(f"{where}: across slots")
        if graph.slots[slot].cardinality != "single":
            raise SnapshotError(f"{where}: in multi-valued slot {slot!r}")
        new_version, old_version = graph.claims[new].version, graph.claims[old].version
        if new_version is None or old_version is None or new_version != old_version + 1:
            raise SnapshotError(
                f"{where}: version {new_version} does not follow version {old_version} "
                "(a reversed edge or a cycle)"
            )
        if new in outgoing or old in incoming:
            raise SnapshotError(
                f"{where}: the chain forks (a claim supersedes or is superseded twice)"
            )
        outgoing.add(new)
        incoming.add(old)
    _check_chains(graph, outgoing)


def _check_chains(graph: _Graph, superseding: set[str]) -> None:
    """Each single-valued slot's versions are 1..n, every one but the first supersedes (the
    edges themselves are checked already), and the slot counts n with the last as its head."""
    versioned: dict[str, list[tuple[int, str]]] = {}
    for claim_id, claim in graph.claims.items():
        if claim.version is not None:
            versioned.setdefault(graph.in_slot[claim_id][0][1], []).append(
                (claim.version, claim_id)
            )
    for slot_id, slot in sorted(graph.slots.items(), key=lambda s: s[1].line):
        if slot.cardinality != "single":
            continue
        chain = sorted(versioned.get(slot_id, []))
        numbers = [v for v, _ in chain]
        if numbers != list(range(1, len(chain) + 1)):
            claim = graph.claims[chain[0][1] if numbers[:1] != [1] else _gap(chain)]
            raise SnapshotError(
                f"line {claim.line}: Claim.version: slot {slot_id!r} numbers its versions "
                f"{numbers}, not 1..{len(chain)}"
            )
        for version, claim_id in chain[1:]:
            if claim_id not in superseding:
                raise SnapshotError(
                    f"line {graph.claims[claim_id].line}: Claim.version: version {version} of "
                    f"slot {slot_id!r} supersedes nothing (no SUPERSEDES edge to version "
                    f"{version - 1})"
                )
        head = chain[-1][1] if chain else None
        if slot.versions != len(chain):
            raise SnapshotError(
                f"line {slot.line}: Slot.versions: {slot.versions}, but the slot holds "
                f"{len(chain)} versions (the next write would number its version from it)"
            )
        if slot.head != head:
            raise SnapshotError(
                f"line {slot.line}: Slot.head: {slot.head!r}, but the last version is {head!r}"
            )


def _gap(chain: list[tuple[int, str]]) -> str:
    """The first claim of ``chain`` (sorted, starting at 1) out of step."""
    return next(
        (claim_id for i, (v, claim_id) in enumerate(chain, start=1) if v != i), chain[-1][1]
    )


def _validate(path: Path, now: datetime) -> _Contents:
    """Validate the whole file before anything is written: its shape, every field of every
    line (``now``: the restoring clock, which no transaction time may be ahead of), and the §7
    invariants over the graph it holds; the first error names its line."""
    from ..models import Identifier

    plan = _Contents()
    graph = _Graph()
    keys: set[tuple[str, str]] = set()
    footer: dict[str, Any] | None = None
    for number, record in _snapshot_lines(path):
        kind = record.get("kind")
        where = f"line {number}"
        if footer is not None:
            raise SnapshotError(f"{where}: content after the footer")
        if number == 1 or not plan.namespace:
            if kind != "header" or record.get("format") != SNAPSHOT_FORMAT:
                raise SnapshotError(f"{where}: not a {SNAPSHOT_FORMAT} file (no header)")
            if record.get("version") != SNAPSHOT_VERSION:
                raise SnapshotError(f"{where}: unsupported version {record.get('version')!r}")
            if not isinstance(record.get("namespace"), str) or not record["namespace"]:
                raise SnapshotError(f"{where}: the header names no namespace")
            _as_api(where, "namespace", record["namespace"], Identifier)
            plan.namespace = record["namespace"]
            continue
        if kind == "node":
            label, props = record.get("label"), record.get("props")
            if label not in _RESTORE_NODES:
                raise SnapshotError(f"{where}: unknown node label {label!r}")
            if not isinstance(props, dict) or not isinstance(props.get("id"), str):
                raise SnapshotError(f"{where}: a node needs props with a string id")
            if props.get("namespace") != plan.namespace:
                raise SnapshotError(f"{where}: node outside namespace {plan.namespace!r}")
            key = (str(label), props["id"])
            if key in keys:
                raise SnapshotError(f"{where}: duplicate {label} {props['id']!r}")
            keys.add(key)
            decoded = _node(where, str(label), props, now)
            plan.nodes[str(label)] += 1
            if label == "Claim":
                plan.claim_ids.append(props["id"])
                graph.claims[props["id"]] = _ClaimFacts(
                    number,
                    decoded["status"],
                    decoded.get("version"),
                    decoded.get("slot_id"),
                    decoded.get("subject_key"),
                    decoded.get("predicate"),
                )
            elif label == "Slot":
                plan.slot_ids.append(props["id"])
                graph.slots[props["id"]] = _SlotFacts(
                    number,
                    decoded["cardinality"],
                    decoded["versions"],
                    decoded.get("head"),
                    decoded["subject_key"],
                    decoded["predicate"],
                )
        elif kind == "edge":
            start: list[str] = record.get("start") or []
            end: list[str] = record.get("end") or []
            if not (_is_endpoint(start) and _is_endpoint(end)):
                raise SnapshotError(f"{where}: an edge needs start and end [label, id]")
            if (record.get("type"), start[0], end[0]) not in _RESTORE_EDGES:
                raise SnapshotError(
                    f"{where}: unknown relationship (:{start[0]})-[:{record.get('type')}]->"
                    f"(:{end[0]})"
                )
            for point in (start, end):
                if (point[0], point[1]) not in keys:
                    raise SnapshotError(f"{where}: edge to a node not in the snapshot {point}")
            edge_props = record.get("props", {})
            if not isinstance(edge_props, dict):
                raise SnapshotError(f"{where}: props must be a JSON object")
            for name, value in edge_props.items():
                _value(where, f"{record['type']}.{name}", value)
            if record["type"] == "IN_SLOT":
                graph.in_slot.setdefault(start[1], []).append((number, end[1]))
            elif record["type"] == "SUPERSEDES":
                graph.supersedes.append((number, start[1], end[1]))
            plan.edges += 1
        elif kind == "footer":
            footer = record
        else:
            raise SnapshotError(f"{where}: unknown line kind {kind!r}")
    if not plan.namespace:
        raise SnapshotError("empty file: not a snapshot")
    if footer is None:
        raise SnapshotError("no footer: the snapshot is truncated")
    expected = {k: footer.get("nodes", {}).get(k, 0) for k in NODE_LABELS}
    if expected != {k: plan.nodes[k] for k in NODE_LABELS} or footer.get("edges") != plan.edges:
        raise SnapshotError("the footer's counts do not match the file: it is incomplete")
    _check_graph(graph)
    return plan


def restore_snapshot(
    store: Store,
    path: Path,
    *,
    batch_size: int = 1_000,
    progress: Callable[[int], None] | None = None,
    at_once: bool = True,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Restore a snapshot into a database that does not hold its namespace yet.

    The file is checked whole first (format, whitelist, every field of every line as the API
    would take it, no transaction time ahead of ``now`` (default: the clock), every edge's end
    points, the §7 invariants over its graph and what the write path relies on beyond them,
    counts), then the database (the namespace is empty and no claim or slot id collides), and
    only then written: in one transaction, in statements of ``batch_size`` rows. ``progress``
    is called with each statement's size.

    ``at_once=False`` commits each statement on its own, so a namespace larger than the server
    lets one transaction hold (its transaction memory) is restored too; a failure then leaves
    part of it written. Only for a caller that puts the whole store back itself when anything
    fails (a compaction).
    """
    plan = _validate(path, now or datetime.now(UTC))
    store = store.on(plan.namespace)
    step = 20_000
    for i in range(0, max(len(plan.claim_ids), len(plan.slot_ids), 1), step):
        row = store.read(
            "transfer/restore_collisions",
            namespace=plan.namespace,
            claim_ids=plan.claim_ids[i : i + step],
            slot_ids=plan.slot_ids[i : i + step],
        )[0]
        if row["nodes"]:
            raise ConflictError(
                f"namespace {plan.namespace!r} already holds {row['nodes']} nodes; restore "
                "needs it empty"
            )
        taken = row["claims"] or row["slots"]
        if taken:
            raise ConflictError(f"id {taken[0]!r} already exists in another namespace")

    def batches() -> Iterator[tuple[str, list[Any]]]:
        for wanted in ("node", "edge"):
            buffers: dict[str, list[Any]] = {}
            for _, record in _snapshot_lines(path):
                if record["kind"] != wanted:
                    continue
                if wanted == "node":
                    statement = _RESTORE_NODES[record["label"]]
                    item: Any = _decode_props(record["props"])
                else:
                    statement = _RESTORE_EDGES[
                        (record["type"], record["start"][0], record["end"][0])
                    ]
                    item = {
                        "start": record["start"][1],
                        "end": record["end"][1],
                        "props": _decode_props(record.get("props", {})),
                    }
                buffer = buffers.setdefault(statement, [])
                buffer.append(item)
                if len(buffer) >= batch_size:
                    yield statement, buffer
                    buffers[statement] = []
            yield from ((st, rows) for st, rows in buffers.items() if rows)

    def counted() -> Iterator[tuple[str, list[Any]]]:
        for statement, rows in batches():
            yield statement, rows
            if progress is not None:
                progress(len(rows))

    if at_once:
        # All or nothing: every batch runs in one transaction, so a failure (or a crash) leaves
        # the namespace empty and the same command can run again.
        load_all(store, plan.namespace, counted)
    else:
        for statement, rows in counted():
            load(store, statement, plan.namespace, rows)
    return {"namespace": plan.namespace, "nodes": dict(plan.nodes), "edges": plan.edges}


def snapshot_size(path: Path) -> int:
    """Nodes plus relationships in a snapshot file (for a progress total), from its footer."""
    last = ""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                last = line
    try:
        footer = json.loads(last)
        return int(sum(footer["nodes"].values()) + footer["edges"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return 0
