"""The random computer player: any legal action, chosen from the seat's own view only."""

from __future__ import annotations

import random
from typing import Any


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Pick one of ``view["legal"]`` (the seat's legal actions) uniformly at random.

    An announcement is chosen one time in ten when there is something else to do, so a random table still
    reaches the cards. Raises ValueError if the view lists no legal action.
    """
    legal = view.get("legal") or []
    if not legal:
        raise ValueError("no legal action in this view")
    main = [a for a in legal if a.get("type") != "announce"]
    if main and (len(main) == len(legal) or rng.random() < 0.9):
        return dict(rng.choice(main))
    return dict(rng.choice(legal))
