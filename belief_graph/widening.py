"""Where a vector read starts: how many claims it first asks the index for.

Where the vector index cannot filter (Neo4j 5.26: one index spans every namespace and status),
a read in a namespace that holds a small share of the claims (another tenant's nearer sentences,
a long fact's superseded versions) finds what it needs only in a wider fetch, and widens step
by step: each step one more index read, each wider than the last. The next read there is likely
as crowded, so it starts at the step that held what the last ones needed, and lower as soon as
they need less. A wider start never costs a hit (the fetch is the HNSW search's beam).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable


class Widening:
    """Per key (a namespace, a scope chain, with what the read is for), how many claims the
    index had to give the last ``window`` reads there for each to find what it needed (their
    ``reach``). A read starts where the lower median of those reaches lies: with a window of
    one, where the last read needed; with more, where most of the last ones needed, so that a
    namespace crowded now and then keeps starting at the foot."""

    _KEYS = 4096  # keys remembered; beyond, forgotten all at once

    def __init__(self, window: int = 1) -> None:
        self.window = window
        self._reach: dict[Hashable, deque[int]] = {}

    def start(self, key: Hashable, base: int, step: int, top: int) -> int:
        """The first fetch of a read under ``key``: the first step of the ladder from ``base``
        (times ``step``, up to ``top``) that holds the recent reads' median reach there."""
        recent = sorted(self._reach.get(key, ()))
        fetch, reach = base, recent[(len(recent) - 1) // 2] if recent else 0
        while fetch < reach and fetch < top:
            fetch = min(fetch * step, top)
        return fetch

    def learned(self, key: Hashable, reach: int) -> None:
        """A read under ``key`` found what it needed in its ``reach`` nearest claims (or did
        not find it, and ``reach`` is every claim it fetched)."""
        if key not in self._reach and len(self._reach) >= self._KEYS:
            self._reach.clear()
        self._reach.setdefault(key, deque(maxlen=self.window)).append(reach)
