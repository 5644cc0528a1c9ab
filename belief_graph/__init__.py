"""belief-graph: a belief revision engine for AI-agent memory on Neo4j."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    BeliefGraphError,
    ConfigError,
    ConflictError,
    ModelError,
    NotFound,
    StoreUnavailable,
)

if TYPE_CHECKING:
    from .client import BeliefGraph
    from .models import (
        Claim,
        ClaimDraft,
        Conflict,
        Dispute,
        HistoricalDraft,
        Lineage,
        RevisionResult,
    )
    from .policy import Policy

# Resolved on first use, so that `belief-graph --help` does not pay for importing neo4j.
_LAZY = {
    "BeliefGraph": "client",
    "Claim": "models",
    "ClaimDraft": "models",
    "Conflict": "models",
    "Dispute": "models",
    "HistoricalDraft": "models",
    "Lineage": "models",
    "RevisionResult": "models",
    "Policy": "policy",
}

__all__ = [
    "BeliefGraph",
    "BeliefGraphError",
    "Claim",
    "ClaimDraft",
    "ConfigError",
    "Conflict",
    "ConflictError",
    "Dispute",
    "HistoricalDraft",
    "Lineage",
    "ModelError",
    "NotFound",
    "Policy",
    "RevisionResult",
    "StoreUnavailable",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
