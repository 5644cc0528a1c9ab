"""From conversation to claims: extractors propose claims from an episode, the write path
verifies each against its source before it is believed (docs/extraction.md)."""

from .episode import Episode, Extractor, Observation, Proposal, Refusal
from .rules import RuleExtractor

__all__ = ["Episode", "Extractor", "Observation", "Proposal", "Refusal", "RuleExtractor"]
