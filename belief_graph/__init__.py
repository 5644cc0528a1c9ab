"""belief-graph: a belief revision engine for AI-agent memory on Neo4j."""

from .client import BeliefGraph
from .errors import (
    BeliefGraphError,
    ConfigError,
    ConflictError,
    ModelError,
    NotFound,
    StoreUnavailable,
)
from .models import Claim, ClaimDraft, Conflict, Lineage, RevisionResult
from .policy import Policy

__all__ = [
    "BeliefGraph",
    "BeliefGraphError",
    "Claim",
    "ClaimDraft",
    "ConfigError",
    "Conflict",
    "ConflictError",
    "Lineage",
    "ModelError",
    "NotFound",
    "Policy",
    "RevisionResult",
    "StoreUnavailable",
]

__version__ = "0.1.0"
