"""Resolution through a scope chain (pure): which namespace's claim answers for one fact.

Each namespace of the chain answers for itself first (``as_of``'s rule, in the database); this
module only ranks those answers. Rules, in order (docs/policy.md, "Scopes"):

1. A ``policy`` outranks ``evidence``, wherever in the chain each stands.
2. Otherwise the nearer namespace answers first.
3. When a policy answers, evidence anywhere in the chain that holds another value disputes it:
   it comes back beside the answer, never instead of it.

A multi-valued fact keeps every value of every namespace, a value held by several namespaces once
(the claim ranked first by rules 1 and 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .models import Cardinality, ScopedClaim
from .vocabulary import normalize_key


@dataclass(frozen=True)
class Resolved:
    """One fact resolved through a chain: the answer, the evidence disputing a policy answer,
    and the other answers it outranks."""

    beliefs: list[ScopedClaim]
    disputes: list[ScopedClaim] = field(default_factory=list)
    shadowed: list[ScopedClaim] = field(default_factory=list)


def rank(held: ScopedClaim) -> tuple[int, int]:
    """Sort key: policy before evidence, then nearer before farther."""
    return (0 if held.claim.kind == "policy" else 1, held.layer)


def value_key(held: ScopedClaim) -> str:
    """What a claim says, compared as identity compares objects (the sentence for text-only)."""
    return normalize_key(held.claim.object or held.claim.text or "")


def resolve(held: Sequence[ScopedClaim], cardinality: Cardinality) -> Resolved:
    """Rank the answers the chain's namespaces gave for one fact (each namespace's own answer:
    one claim for a single-valued fact, its values for a multi-valued one)."""
    ordered = sorted(held, key=rank)
    if not ordered:
        return Resolved(beliefs=[])
    if cardinality == "multi":
        beliefs: dict[str, ScopedClaim] = {}
        shadowed = []
        for h in ordered:
            if value_key(h) in beliefs:
                shadowed.append(h)
            else:
                beliefs[value_key(h)] = h
        return Resolved(beliefs=list(beliefs.values()), shadowed=shadowed)
    winner, others = ordered[0], ordered[1:]
    disputes = [
        h
        for h in others
        if winner.claim.kind == "policy"
        and h.claim.kind == "evidence"
        and value_key(h) != value_key(winner)
    ]
    return Resolved(
        beliefs=[winner],
        disputes=sorted(disputes, key=lambda h: h.layer),
        shadowed=[h for h in others if h not in disputes],
    )
