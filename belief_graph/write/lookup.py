"""The look-up stage of ``remember``: where each draft's nearest claims lie (the vector
look-ups of write/neighbours), kept up to date as the drafts before it in the batch, and the
batches written since a read ahead, move slots."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import cypher
from ..policy import Policy
from ..store import Store
from ..widening import Widening
from .changes import SlotKey, SlotState
from .state import State, read_state

# A look-up returns up to this many times the slots it ranks, as many as its fetch holds (free:
# the claims are fetched already). In a batch of many drafts of few facts the drafts before one
# move most of the slots it ranked, and each such draft looked its slots up again on its own.
LOOKUP_EXTENT = 4


class Neighbours:
    """The look-ups of one batch and what they found (``ranked``), the slots moved since
    (``moved``) and the slots of the state being planned (``held``).

    ``rides``: the look-ups ride with the batch's state read (a call of one draft), reading
    their first slots and keeping no ranks. ``ahead``: the batch is read before the batches
    before it are written: each look-up ranks twice the slots it reads (``adopt``).
    ``whole_past``: read every past version of the slots read by id. ``reaches``: where the
    look-ups before found their slots, by namespace and rank (``lookup``)."""

    def __init__(
        self,
        store: Store,
        policy: Policy,
        new_id: Callable[[], str],
        *,
        walk_up_to: int,
        reaches: Widening,
        rides: bool,
        ahead: bool,
        whole_past: bool,
    ) -> None:
        self.store = store
        self.policy = policy
        self.new_id = new_id
        self.walk_up_to = walk_up_to
        self.reaches = reaches
        self.rides = rides
        self.ahead = ahead
        self.whole_past = whole_past
        # Each look-up's slots, nearest first, as the last read found them, by draft index.
        self.ranked: dict[int, dict[str, Any]] = {}
        # The slots the batches written since the read ahead touched (``adopt``): ids by
        # namespace.
        self.moved: dict[str, set[str]] = {}
        # The slots of the state being planned, by id (``reach``).
        self.held: dict[str, SlotState] = {}

    def lookup(
        self, index: int, namespace: str, embedding: list[float], k: int, rank: int
    ) -> dict[str, Any]:
        """Draft ``index``'s look-up: its ``rank`` nearest slots ranked, the first ``k`` read.

        Where the index spans every namespace (write/neighbours), it fetches 20 claims a
        neighbour, and 16 times as many when those hold too few of the namespace's slots; in a
        namespace where most of the last look-ups needed more, it starts at the step of that
        ladder (×4) that held them, one index read where it took two. It returns the slots its
        fetch holds beyond the ``rank`` first too, up to ``LOOKUP_EXTENT`` times as many: still
        the nearest in order, they cost no index read, and a draft whose ranked slots the
        drafts before it moved finds the untouched ones there instead of in a look-up of its
        own (``_reach``)."""
        base = max(self.policy.neighbours * 20, rank * 4)
        fetch = base
        if not self.store.filters_in_vector_index():
            fetch = self.reaches.start((namespace, rank), base, 4, base * 16)
        return {
            "draft": index,
            "namespace": namespace,
            "embedding": self.store.query_vector(embedding),
            "fetch": fetch,
            "wider": base * 16,
            "k": k,
            "rank": rank,
            # A look-up riding with the state read reads its first k slots and keeps no ranks.
            "extent": rank if self.rides else rank * LOOKUP_EXTENT,
        }

    def learned(self, ranked: Iterable[dict[str, Any]], rank: int) -> None:
        """What the look-ups ``ranked`` (of ``rank`` slots each) needed, for the next ones in
        their namespaces, one by one (a batch's last few stand for it)."""
        for r in ranked:
            self.reaches.learned((r["namespace"], rank), r["reach"])

    @property
    def _statement(self) -> str:
        """The look-ups' statement on this server (filtered inside the index where it can)."""
        return cypher.variant("write/neighbours", self.store.filters_in_vector_index())

    @property
    def cover(self) -> int:
        """How many of its nearest slots each look-up reads: a draft's candidates are the
        ``neighbours`` nearest claims outside its own slot, and its own slot is often the
        nearest. Read with one more, they do not depend on which other slots the read holds
        (a batch's read holds those of every draft's look-up, a read ahead more)."""
        return self.policy.neighbours + 1

    @property
    def ranks(self) -> int:
        """How many of its nearest slots each look-up ranks (it reads the first ``_cover``)."""
        return self.cover * (2 if self.ahead else 1)

    @property
    def fetch(self) -> int:
        # Filtered inside the index (Neo4j 2026), every hit is an active claim of the namespace:
        # a few more than the slots ranked cover those that hold several of them (a look-up that
        # still finds too few asks once more, wider: write/neighbours).
        return self.ranks * 4

    def near(self, lookups: list[dict[str, Any]]) -> list[tuple[str, str]]:
        """The slots ``lookups`` find, read on their own (in halves side by side)."""
        rows = self.store.read_leader_split(self._statement, "near", lookups, fetch=self.fetch)
        self.ranked = {r["draft"]: r for row in rows for r in row["ranked"]}
        self.learned(self.ranked.values(), self.ranks)
        refs = (ref for row in rows for ref in row["near"])
        return list(dict.fromkeys((ref["namespace"], ref["id"]) for ref in refs))

    def adopt(self, state: State, written: dict[SlotKey, SlotState]) -> bool:
        """Bring a state read ``ahead`` up to the batches written since the read began: every
        slot they touched (``written``: as their plans left them, ``after_apply``) is taken from
        there, and joins the slots a draft's nearest claims are looked for in. False when that
        is not enough, and the batch must be read again once those batches are written.

        Those batches changed only the slots they touched: an untouched slot ranks as it did
        for each look-up, so the untouched ones a look-up ranked are the nearest untouched
        slots there are. A draft's nearest claims after the write lie in touched slots (all
        taken here) or in its nearest untouched ones (``_cover`` of them): read now when the
        read ahead did not (it read each look-up's first ones, some of them touched since). A
        look-up ranks twice as many, so it holds enough untouched ones unless the touched slots
        took more than that margin (retired claims still ranked by the read, which may have
        pushed a slot out), or it found every slot there was (``complete``)."""
        touched = {s.slot_id for s in written.values()}
        k = self.cover
        wanted: list[tuple[str, str]] = []
        for found in self.ranked.values():
            untouched = [i for i in found["ids"] if i not in touched]
            if len(untouched) < min(k, len(found["ids"])) and not found["complete"]:
                return False
            wanted += [(found["namespace"], i) for i in untouched[:k]]
        held = {s.slot_id for s in state.slots.values()}
        missing = [ref for ref in dict.fromkeys(wanted) if ref[1] not in held]
        if missing:
            more = self.read_by_id(missing)
            for key, slot in more.slots.items():
                state.slots.setdefault(key, slot)
        for key, slot in written.items():
            state.slots[key] = slot.copy()
        self.moved = {}
        for key, s in written.items():
            self.moved.setdefault(key[0], set()).add(s.slot_id)
        return True

    def read_by_id(self, refs: list[tuple[str, str]]) -> State:
        """The slots ``refs`` (namespace, id), read as the batch's read reads its nearest slots."""
        return read_state(
            self.store,
            self.new_id,
            slot_refs=refs,
            walk_up_to=self.walk_up_to,
            by_id_whole=self.whole_past,
        )

    def reach(
        self, index: int, embedding: list[float], state: State, exclude: SlotState | None
    ) -> set[str] | None:
        """Make sure ``state`` holds the slots of draft ``index``'s nearest claims outside
        ``exclude`` as they are now, after the drafts before it in the batch (and the batches
        ``adopt`` brought in): its look-up was made before any of them was planned.

        Those drafts changed only the slots they touched, which ``state`` holds as they left
        them; an untouched slot ranks as it did. So the first ``neighbours`` untouched slots the
        look-up ranked are enough, read now when the batch's read did not hold them. When the
        touched ones took too many of its ranks (and it did not find every slot there was), the
        draft's slots are ranked again first, twice as many each time until enough of them are
        untouched (at most as many more as were touched since, which is always enough): a round
        trip or two of its own, taken only by such a draft.

        Returns the ids of those untouched slots: the draft's candidates lie in them or in
        touched ones (``detection.BatchDetection._candidates``). None when the draft has no
        look-up of its own (a call whose look-ups rode with its state read holds only their
        slots)."""
        found = self.ranked.get(index)
        if found is None:
            return None
        namespace, n = found["namespace"], self.policy.neighbours
        held = self.held  # the state's slots by id (planning changes them in place)
        own = exclude.slot_id if exclude is not None else None

        def moved(i: str) -> bool:
            slot = held.get(i)
            return slot is not None and self.touched(slot)

        def untouched(found: dict[str, Any]) -> tuple[list[str], bool]:
            others = [i for i in found["ids"] if i != own]
            left = [i for i in others if not moved(i)]
            return left, len(left) >= min(n, len(others)) or found["complete"]

        left, enough = untouched(found)
        if not enough:
            # Ranks enough for any order of the touched slots, but one look-up that wide reads
            # many times what the usual case needs: double the ranks until they hold enough.
            touched = sum(1 for i, s in held.items() if s.key[0] == namespace and moved(i))
            rank, widest = max(1, len(found["ids"])), n + 1 + touched
            while not enough and rank < widest:
                rank = min(2 * rank, widest)
                found = self._rank(index, embedding, namespace, rank)
                left, enough = untouched(found)
        missing = [(namespace, i) for i in left[:n] if i not in held]
        if missing:
            more = self.read_by_id(missing)
            for key, slot in more.slots.items():
                held[slot.slot_id] = state.slots.setdefault(key, slot)
        return set(left[:n])

    def touched(self, slot: SlotState) -> bool:
        """Whether a draft planned before in this batch, or a batch written since the read
        ahead (``adopt``), changed ``slot``: it may rank otherwise than the look-ups found it."""
        return slot.touched_by is not None or slot.slot_id in self.moved.get(slot.key[0], ())

    def _rank(
        self, index: int, embedding: list[float], namespace: str, rank: int
    ) -> dict[str, Any]:
        """Draft ``index``'s ``rank`` nearest slots, looked up again (none read)."""
        lookup = self.lookup(index, namespace, embedding, 0, rank)
        rows = self.store.read_leader(self._statement, batch={"near": [lookup]}, fetch=rank * 4)
        found = next(iter(rows[0]["ranked"]), None) if rows else None
        self.learned([found] if found else [], rank)
        return found or {"ids": [], "complete": True}
