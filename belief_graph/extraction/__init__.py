"""From conversation to claims: an extractor proposes claims from an episode, and the write path
verifies each against its source before it is believed (docs/extraction.md)."""

from .chat import ChatExtractor, ChatSettings, MalformedOutput
from .episode import Episode, Extractor, Observation, Proposal, Refusal
from .rules import RuleExtractor

__all__ = [
    "ChatExtractor",
    "ChatSettings",
    "Episode",
    "Extractor",
    "MalformedOutput",
    "Observation",
    "Proposal",
    "Refusal",
    "RuleExtractor",
    "default_extractor",
]


def default_extractor() -> Extractor:
    """The LLM extractor when ``BELIEF_GRAPH_EXTRACTOR_URL`` is set, else the offline rules."""
    settings = ChatSettings()
    return ChatExtractor(settings) if settings.configured else RuleExtractor()
