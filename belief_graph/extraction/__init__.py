"""From conversation to claims: an extractor proposes claims from an episode, and the write path
verifies each against its source before it is believed (docs/extraction.md).

The extractors are imported when first asked for: the LLM extractor's HTTP client and the
rules' patterns took about a tenth of a second of every process that imported the engine, a
CLI command included, whether it extracted anything or not (docs/benchmarks.md, "CLI").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .episode import (
    Episode,
    Extractor,
    KnownSubjects,
    MalformedOutput,
    Observation,
    Proposal,
    Refusal,
)

if TYPE_CHECKING:
    from .chat import ChatExtractor, ChatSettings
    from .layered import LayeredExtractor
    from .rules import RuleExtractor

__all__ = [
    "ChatExtractor",
    "ChatSettings",
    "Episode",
    "Extractor",
    "KnownSubjects",
    "LayeredExtractor",
    "MalformedOutput",
    "Observation",
    "Proposal",
    "Refusal",
    "RuleExtractor",
    "default_extractor",
]


def __getattr__(name: str) -> Any:
    if name in ("ChatExtractor", "ChatSettings"):
        from . import chat

        return getattr(chat, name)
    if name == "LayeredExtractor":
        from .layered import LayeredExtractor

        return LayeredExtractor
    if name == "RuleExtractor":
        from .rules import RuleExtractor

        return RuleExtractor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_extractor() -> Extractor:
    """The offline rules, and when ``BELIEF_GRAPH_EXTRACTOR_URL`` is set the LLM after them for
    the facts they did not read (``LayeredExtractor``: more right than either alone,
    docs/extraction.md)."""
    from .chat import ChatExtractor, ChatSettings
    from .layered import LayeredExtractor
    from .rules import RuleExtractor

    settings = ChatSettings()
    if not settings.configured:
        return RuleExtractor()
    return LayeredExtractor(RuleExtractor(), ChatExtractor(settings))
