"""The error tree: one root, a handful of kinds a caller can act on.

Bad input is not here: it is a pydantic ``ValidationError`` naming the field.
"""

from __future__ import annotations


class BeliefGraphError(Exception):
    """Root of every error belief-graph raises on purpose."""


class ConfigError(BeliefGraphError):
    """Settings, vocabulary or policy files are missing or inconsistent."""


class NotFound(BeliefGraphError):
    """A claim, revision or slot id that does not exist in the namespace."""


class ConflictError(BeliefGraphError):
    """The operation contradicts the stored state (e.g. a rollback over later revisions)."""


class StoreUnavailable(BeliefGraphError):
    """Neo4j cannot be reached, even after bounded retries."""


class ModelError(BeliefGraphError):
    """An embedding or contradiction model cannot be loaded or run."""
