"""The read step of every write operation: slot states, replays and named claims, read before
the transaction (the apply step re-checks each slot's ``seq`` under its lock)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .. import cypher
from ..models import CLAIM_MOMENTS, Cardinality
from ..store import Store, Tx
from .changes import SlotKey, SlotState

Ref = tuple[str, str]  # (namespace, id)
# A fact of up to this many claims is walked when it is read (current, as_of, beliefs, the write
# path's read); a longer one is read by index (read/held_claims, write/slot_states): three index
# reads cost about as much as walking sixteen claims.
WALK_UP_TO = 16


def moments(row: dict[str, Any]) -> dict[str, Any]:
    """A claim row with its ISO-8601 moments parsed (in place)."""
    for name in CLAIM_MOMENTS:
        value = row.get(name)
        if isinstance(value, str):
            row[name] = datetime.fromisoformat(value)
    return row


@dataclass
class State:
    """What the read step found."""

    slots: dict[SlotKey, SlotState] = field(default_factory=dict)
    claims: dict[Ref, dict[str, Any]] = field(default_factory=dict)
    replays: dict[Ref, str] = field(default_factory=dict)
    existing: set[Ref] = field(default_factory=set)
    # The look-ups' slots ranked, as write/neighbours returns them (those that rode the read).
    ranked: list[dict[str, Any]] = field(default_factory=list)

    def slot(self, slot_id: str) -> SlotState | None:
        return next((s for s in self.slots.values() if s.slot_id == slot_id), None)


def read_state(
    store: Store | Tx,
    new_id: Callable[[], str],
    *,
    keys: Mapping[SlotKey, tuple[str | None, Cardinality]] = {},
    slot_refs: Iterable[Ref] = (),
    claim_refs: Iterable[Ref] = (),
    revisions: Iterable[Ref] = (),
    claim_ids: Iterable[Ref] = (),
    near: Sequence[Mapping[str, Any]] = (),
    fetch: int = 0,
    past: Mapping[SlotKey, datetime | None] | None = None,
    walk_up_to: int = WALK_UP_TO,
    by_id_whole: bool = False,
) -> State:
    """Read the slots by key (``keys``: subject and cardinality for a slot not created yet;
    ``past``: the slots whose past versions are read only from the start of their newest window
    on, or from the moment given if earlier, the others' all: ``SlotState.past_since``) and by
    id, those of the claims nearest to ``near``'s embeddings (write/neighbours' look-ups;
    ``fetch``: how many each asks of an index that filters inside), the claims ``claim_refs``
    (and their slots), stored ``revisions`` and which of ``claim_ids`` exist. The slots read by id
    hold their past versions from their newest window's start on, as a slot by key is cut, or
    with ``by_id_whole`` every one. A slot of more than ``walk_up_to`` claims has its cut past
    read by index. Given a transaction, read inside it (an erase reads under its locks)."""
    if isinstance(store, Tx):
        read, name = store.run, "write/state"
    else:
        read = store.read_leader
        name = cypher.variant("write/state", bool(near) and store.filters_in_vector_index())
    row = read(
        name,
        fetch=fetch,
        batch={
            # Sorted: the index entries of the keys are locked in write/apply's order.
            "slots": [
                {
                    "namespace": k[0],
                    "subject_key": k[1],
                    "predicate": k[2],
                    "since": _since(past, k),
                    "whole_past": past is None or k not in past,
                }
                for k in sorted(keys)
            ],
            "slot_refs": [{"namespace": ns, "id": i} for ns, i in slot_refs],
            "near": list(near),
            "claim_refs": [{"namespace": ns, "id": i} for ns, i in claim_refs],
            "revisions": [{"namespace": ns, "id": i} for ns, i in revisions],
            "claim_ids": [{"namespace": ns, "id": i} for ns, i in claim_ids],
            "walk_up_to": walk_up_to,
            "by_id_whole": by_id_whole,
        },
    )[0]
    state = State(
        claims={(c["namespace"], c["id"]): moments(c) for c in row["claims"]},
        replays={(r["namespace"], r["id"]): r["result"] for r in row["replays"]},
        existing={(c["namespace"], c["id"]) for c in row["existing"]},
        ranked=row["ranked"],
    )
    for s in row["by_id"]:
        key = (s["namespace"], s["subject_key"], s["predicate"])
        state.slots[key] = _slot(key, s["subject"], s["cardinality"], s, new_id)
    held = set(row["held"])
    found = {(s["namespace"], s["subject_key"], s["predicate"]): s for s in row["slots"]}
    _by_key(
        state,
        keys,
        [found[k] if found[k]["slot_id"] in held else _not_there(found[k]) for k in keys],
        new_id,
    )
    return state


def assumed(
    known: Mapping[SlotKey, SlotState],
    keys: Mapping[SlotKey, tuple[str | None, Cardinality]],
    new_id: Callable[[], str],
) -> State:
    """The slots ``keys`` as this client knows them (``known``: as its last write of them left
    them) and the rest as not created yet, with no read: the apply step's check finds out."""
    state = State()
    for key in keys:
        if key in known:
            # Named as this draft names its subject, as a read would.
            state.slots[key] = known[key].copy(subject=keys[key][0])
        else:
            namespace, subject_key, predicate = key
            row = {"namespace": namespace, "subject_key": subject_key, "predicate": predicate}
            _by_key(state, keys, [_not_there(row)], new_id)
    return state


def found_state(
    keys: Mapping[SlotKey, tuple[str | None, Cardinality]],
    rows: Iterable[dict[str, Any]],
    new_id: Callable[[], str],
) -> State | None:
    """The slots ``keys`` from the rows of write/slot_states a refused apply returned (read
    under its locks, as good as a read), None when they do not hold every key."""
    found = {(s["namespace"], s["subject_key"], s["predicate"]): s for s in rows}
    if any(key not in found for key in keys):
        return None
    state = State()
    _by_key(state, keys, [found[key] for key in keys], new_id)
    return state


def _since(past: Mapping[SlotKey, datetime | None] | None, key: SlotKey) -> str | None:
    """The moment from which ``key``'s past is read, as ISO-8601 text (None: its newest window's
    start, or all of it when ``past`` does not name it)."""
    moment = past.get(key) if past is not None else None
    return moment.isoformat() if moment is not None else None


def _not_there(row: dict[str, Any]) -> dict[str, Any]:
    """A slot's row as if the slot were not created yet: what the read takes a slot it did not
    lock for (one created after it took its locks, maybe not wholly visible yet)."""
    key = {k: row[k] for k in ("namespace", "subject_key", "predicate")}
    stored = ("slot_id", "seq", "versions", "head", "last_revision", "last_recorded_at")
    return {**key, **dict.fromkeys(stored), "claims": [], "past": []}


def _by_key(
    state: State,
    keys: Mapping[SlotKey, tuple[str | None, Cardinality]],
    rows: Iterable[dict[str, Any]],
    new_id: Callable[[], str],
) -> None:
    for s in rows:
        key = (s["namespace"], s["subject_key"], s["predicate"])
        if key not in state.slots:
            # A stored slot keeps the cardinality it was created with, whatever this process's
            # vocabulary says: two clients with different vocabulary files cannot give a
            # single-valued fact two beliefs. Only a slot not created yet takes the vocabulary's.
            subject, cardinality = keys[key]
            stored = s.get("stored_cardinality")
            state.slots[key] = _slot(key, subject, stored or cardinality, s, new_id)


def _slot(
    key: SlotKey,
    subject: str | None,
    cardinality: Cardinality,
    row: dict[str, Any],
    new_id: Callable[[], str],
) -> SlotState:
    return SlotState(
        key=key,
        subject=subject,
        cardinality=cardinality,
        slot_id=row["slot_id"] or new_id(),
        seq=row["seq"] or 0,
        versions=row["versions"] or 0,
        head=row["head"],
        last_recorded_at=(
            datetime.fromisoformat(row["last_recorded_at"]) if row["last_recorded_at"] else None
        ),
        last_revision=row.get("last_revision"),
        claims=[moments(c) for c in row["claims"]],
        new=row["slot_id"] is None,
        past=[moments(c) for c in row.get("past") or []],
        past_since=datetime.fromisoformat(row["since"]) if row.get("since") else None,
    )


def new_slot(key: SlotKey, slot_id: str) -> SlotState:
    """The state of a slot that does not exist yet (a text-only claim's own fact)."""
    return SlotState(
        key=key,
        subject=None,
        cardinality="single",
        slot_id=slot_id,
        seq=0,
        versions=0,
        head=None,
        last_recorded_at=None,
        last_revision=None,
        claims=[],
        new=True,
    )


def read_namespace(
    store: Store,
    namespace: str,
    *,
    page_size: int = 2_000,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[State, dict[str, dict[str, Any]]]:
    """Every slot (its ``seq`` first, as for any write) and then every claim of ``namespace``,
    page by page; ``progress(claims read, claims in all)`` after each page of claims."""
    total = store.read_leader("write/consolidate_count", namespace=namespace)[0]
    state = State()
    after = ""
    while True:
        rows = store.read_leader(
            "write/consolidate_slots", namespace=namespace, after=after, limit=page_size
        )
        for row in rows:
            s = row["slot"]
            key = (namespace, s["subject_key"], s["predicate"])
            state.slots[key] = _slot(
                key,
                s["subject"],
                s["cardinality"],
                {**s, "slot_id": s["id"], "claims": [], "past": []},
                lambda: "",
            )
        if len(rows) < page_size:
            break
        after = rows[-1]["slot"]["id"]
    claims: dict[str, dict[str, Any]] = {}
    after = ""
    while True:
        rows = store.read_leader(
            "write/consolidate_claims",
            namespace=namespace,
            after=after,
            limit=page_size,
            undone=total["undone"],
        )
        for row in rows:
            c = moments(row["claim"])
            if isinstance(c.get("flagged_at"), str):
                c["flagged_at"] = datetime.fromisoformat(c["flagged_at"])
            claims[c["id"]] = c
        if progress is not None:
            progress(len(claims), int(total["claims"]))
        if len(rows) < page_size:
            break
        after = rows[-1]["claim"]["id"]
    return state, claims
