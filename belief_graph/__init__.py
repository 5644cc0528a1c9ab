"""belief-graph: a belief revision engine for AI-agent memory on Neo4j.

Everything a caller passes to ``BeliefGraph`` or gets back from it is importable from here, one
name per thing: ``from belief_graph import BeliefGraph, ClaimDraft, Episode, Observation``
(``tests/unit/test_exports.py`` holds ``__all__`` to the public signatures).
"""

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
    from .detect import Detector
    from .extraction import (
        Episode,
        Extractor,
        MalformedOutput,
        Observation,
        Proposal,
        Refusal,
    )
    from .models import (
        Cardinality,
        Check,
        Claim,
        ClaimDraft,
        Conflict,
        ConsolidationReport,
        ConsolidationStep,
        CurrentBelief,
        Dispute,
        DoctorReport,
        EmbedResult,
        EpisodeRecord,
        ErasureReport,
        HistoricalDraft,
        IntegrityProblem,
        Kind,
        Lineage,
        NamespaceInfo,
        RevisionRecord,
        RevisionResult,
        ScopeChain,
        ScopedAnswer,
        ScopedClaim,
        ScopedHit,
        SearchHit,
        SourceType,
        Status,
        Support,
        Verdict,
    )
    from .policy import Policy, PredicateRule
    from .store import Store
    from .vocabulary import Vocabulary
    from .write.engine import Tuning

# Resolved on first use, so that `belief-graph --help` does not pay for importing neo4j.
_LAZY = {
    "BeliefGraph": "client",
    "Detector": "detect",
    "Store": "store",
    "Vocabulary": "vocabulary",
    "Tuning": "write.engine",
    "Policy": "policy",
    "PredicateRule": "policy",
    # what observe takes and returns
    "Episode": "extraction",
    "Extractor": "extraction",
    "MalformedOutput": "extraction",
    "Observation": "extraction",
    "Proposal": "extraction",
    "Refusal": "extraction",
    # drafts, claims and results
    **{
        name: "models"
        for name in (
            "Cardinality",
            "Check",
            "Claim",
            "ClaimDraft",
            "Conflict",
            "ConsolidationReport",
            "ConsolidationStep",
            "Contradicted",
            "CurrentBelief",
            "Dispute",
            "DoctorReport",
            "EmbedResult",
            "EpisodeRecord",
            "ErasureReport",
            "HistoricalDraft",
            "IntegrityProblem",
            "Kind",
            "Lineage",
            "NamespaceInfo",
            "RevisionRecord",
            "RevisionResult",
            "ScopeChain",
            "ScopedAnswer",
            "ScopedClaim",
            "ScopedHit",
            "SearchHit",
            "SourceType",
            "Status",
            "Support",
            "Verdict",
        )
    },
}

__all__ = [
    "BeliefGraph",
    "BeliefGraphError",
    "Cardinality",
    "Check",
    "Claim",
    "ClaimDraft",
    "ConfigError",
    "Conflict",
    "ConflictError",
    "ConsolidationReport",
    "ConsolidationStep",
    "Contradicted",
    "CurrentBelief",
    "Detector",
    "Dispute",
    "DoctorReport",
    "EmbedResult",
    "Episode",
    "EpisodeRecord",
    "ErasureReport",
    "Extractor",
    "HistoricalDraft",
    "IntegrityProblem",
    "Kind",
    "Lineage",
    "MalformedOutput",
    "ModelError",
    "NamespaceInfo",
    "NotFound",
    "Observation",
    "Policy",
    "PredicateRule",
    "Proposal",
    "Refusal",
    "RevisionRecord",
    "RevisionResult",
    "ScopeChain",
    "ScopedAnswer",
    "ScopedClaim",
    "ScopedHit",
    "SearchHit",
    "SourceType",
    "Status",
    "Store",
    "StoreUnavailable",
    "Support",
    "Tuning",
    "Verdict",
    "Vocabulary",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
