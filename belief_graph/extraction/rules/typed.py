"""How a turn is typed: curly quotes, an ellipsis character, dashes and emoji read as plain
characters of the same length, so that a span of the plain text is the same span of the turn."""

from __future__ import annotations

import re

from ..episode import Proposal

# Characters typed for the same thing as a plain one, or for no word at all (emoji and their
# joiners), each read as one plain character so that offsets stay those of the turn.
_TYPOGRAPHIC = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u02bc": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2026": ".",
        "\u2013": "-",
        "\u2014": "-",
    }
)
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]")


def _typed_plainly(text: str) -> str:
    """The text with curly quotes, an ellipsis character and dashes as plain ones and emoji as
    spaces: the same length, so a span of one is the same span of the other."""
    return _EMOJI.sub(" ", text.translate(_TYPOGRAPHIC))


def _as_typed(proposal: Proposal, plain: str, typed: str) -> Proposal:
    """The proposal with its source the span of the turn as typed."""
    at = plain.find(proposal.source) if proposal.source else -1
    if at < 0:
        return proposal
    return proposal.model_copy(update={"source": typed[at : at + len(proposal.source)]})
