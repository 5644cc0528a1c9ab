"""How many examples a property test draws: every one in ``make test`` and CI, a fifth in the
edit loop (``make test-fast``), chosen once by ``BELIEF_GRAPH_TEST_PROFILE``."""

from __future__ import annotations

import os
from typing import Literal

PROFILE_ENV = "BELIEF_GRAPH_TEST_PROFILE"
Profile = Literal["full", "dev"]
DEV_SHARE = 5
DEV_FLOOR = 3


def profile() -> Profile:
    """``full`` (the default: CI and ``make test``) or ``dev``."""
    chosen = os.environ.get(PROFILE_ENV, "full")
    if chosen not in ("full", "dev"):
        raise ValueError(f"{PROFILE_ENV}={chosen!r}: choose 'full' or 'dev'")
    return "dev" if chosen == "dev" else "full"


def examples(full: int) -> int:
    """``full`` examples in the full profile; a fifth of them (at least three) in ``dev``."""
    return full if profile() == "full" else max(DEV_FLOOR, full // DEV_SHARE)
