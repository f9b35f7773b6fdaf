"""Computer players: ``choose(view, rng) -> action`` strategies by skill level."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.bots import random_bot

Strategy = Callable[[dict[str, Any], random.Random], dict[str, Any]]
LEVELS = ("beginner", "intermediate", "expert")


def strategy(level: str) -> Strategy:
    """The strategy of a skill level. Every level is the random bot for now.

    Raises KeyError for an unknown level.
    """
    if level not in LEVELS:
        raise KeyError(level)
    return random_bot.choose
