"""Independent evidence: how much support a claim has, counted the way a careful reader would.

A claim's support is a set of *evidence units*: one per distinct episode (a conversation, a test
run, a file), each with the most trusted source type that stated the value in it, and a set of
distinct *sources* (the author, else the origin). A replayed episode is one unit however often it
is sent; a mention without an episode id is a unit of its own (its revision). Support "against" a
challenger of trust rank r counts only the units stated at rank r or above, so lower-trust echoes
never add weight against a more trusted statement.

Both sets are stored on the claim (``evidence_episodes`` with the parallel ``evidence_types``, and
``evidence_sources``) and capped at ``Policy.support_cap`` entries, so a write stays O(1) however
often a fact is repeated: every threshold is far below the cap, and the full provenance stays in
the ``DERIVED_FROM`` edges and the revisions. Claims stored before these fields existed count their
``frequency`` at their own source type. Pure functions only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .vocabulary import normalize_key

__all__ = ["Evidence", "evidence_of", "mention_key", "source_key", "support_at", "with_mention"]


def mention_key(episode_id: str | None, revision_id: str) -> str:
    """The evidence unit of a mention: its episode, else the revision that brought it."""
    return f"episode:{episode_id}" if episode_id else f"revision:{revision_id}"


def source_key(author: str | None, origin: str | None, source_type: str) -> str:
    """Who a mention came from: its author; else where it came from (its origin); else its
    source type stands in (one anonymous source per type)."""
    if author is not None:
        return f"author:{normalize_key(author)}"
    if origin is not None:
        return f"origin:{normalize_key(origin)}"
    return f"anonymous:{source_type}"


@dataclass(frozen=True)
class Evidence:
    """A claim's evidence units (episode key → source type) and its distinct sources."""

    episodes: dict[str, str]
    sources: tuple[str, ...]

    def props(self) -> dict[str, Any]:
        """The stored form (three list properties)."""
        return {
            "evidence_episodes": list(self.episodes),
            "evidence_types": list(self.episodes.values()),
            "evidence_sources": list(self.sources),
        }


def evidence_of(row: Mapping[str, Any]) -> Evidence:
    """A claim's evidence, from its stored properties (a row or ``Claim.model_dump``)."""
    keys = row.get("evidence_episodes")
    types = row.get("evidence_types")
    if keys and types and len(keys) == len(types):
        return Evidence(
            dict(zip(keys, types, strict=True)), tuple(row.get("evidence_sources") or ())
        )
    # Stored before support was recorded: its mentions, at its own source type.
    count = max(int(row.get("frequency") or 1), 1)
    source_type = str(row.get("source_type") or "inferred")
    return Evidence({f"mention:{i}": source_type for i in range(count)}, ())


def support_at(row: Mapping[str, Any], rank: int, trust: Mapping[str, int]) -> int:
    """The claim's independent units stated at trust rank ``rank`` or above."""
    return sum(1 for t in evidence_of(row).episodes.values() if trust.get(t, 0) >= rank)


def with_mention(
    row: Mapping[str, Any],
    episode: str,
    source_type: str,
    source: str,
    trust: Mapping[str, int],
    cap: int,
) -> Evidence:
    """The claim's evidence after one more mention: a new unit (up to ``cap``), or the unit it
    repeats raised to the more trusted source type; a new source (up to ``cap``)."""
    current = evidence_of(row)
    episodes = dict(current.episodes)
    known = episodes.get(episode)
    if known is None:
        if len(episodes) < cap:
            episodes[episode] = source_type
    elif trust.get(source_type, 0) > trust.get(known, 0):
        episodes[episode] = source_type
    sources = current.sources
    if source not in sources and len(sources) < cap:
        sources = (*sources, source)
    return Evidence(episodes, sources)


def union(rows: Iterable[Mapping[str, Any]]) -> Evidence:
    """The evidence of several claims together (the same episode or source counts once)."""
    episodes: dict[str, str] = {}
    sources: dict[str, None] = {}
    for row in rows:
        ev = evidence_of(row)
        for key, value in ev.episodes.items():
            episodes.setdefault(key, value)
        sources.update(dict.fromkeys(ev.sources))
    return Evidence(episodes, tuple(sources))
