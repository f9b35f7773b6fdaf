"""Per game: which decisions the analysis can value, and the estimator that values them.

An estimator gives ``{action_key: expected score}`` for the legal actions of one view, reading
only that view and the table's rules. Scores are in the game's own unit, for the deciding
seat, at the end of the round. ``lower_is_better`` marks penalty games (Doppio), where the best
action has the lowest value. An empty result means the decision is not valued (see ``what``).

- Doppelkopf and Doublehead Kids: the expert's own search (app.bots.doppelkopf.evaluate):
  reservations, announcements at the own turn, cards.
- Doppelganger Tricks and Doppio: no evaluate() of their own; the game-agnostic estimator of
  app.analysis.playouts (every legal action played out by the game's intermediate policy over
  worlds sampled to fit the view).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.bots import legal_of

KEY_FIELDS = ("card", "suit", "value", "partner", "position", "cards")


def action_key(action: Mapping[str, Any]) -> str:
    """A stable name of an action, the same for every game: ``play:QC``, ``play:N7:P`` (a navy
    lead naming pink), ``announce:re``, ``discard:L2``, ``poverty_give:9C,AD,QS``."""
    parts = [str(action["type"])]
    for name in KEY_FIELDS:
        if name in action:
            value = action[name]
            parts.append(",".join(sorted(str(v) for v in value)) if isinstance(value, list) else str(value))
    return ":".join(parts)


class Estimator(Protocol):
    """What the analysis needs of a game (see the module docstring)."""

    game: str
    unit: str
    lower_is_better: bool
    tolerance: float
    what: tuple[str, ...]

    def values(self, view: Mapping[str, Any], rules: Any, *, budget_ms: float, worlds: int,
               rng: random.Random) -> dict[str, float]:
        """``{action_key: expected score}`` of the view's legal actions it can value."""
        ...


@dataclass(frozen=True)
class ExpertSearch:
    """Doppelkopf and Doublehead Kids: app.bots.doppelkopf.evaluate, keys translated to
    :func:`action_key`. Out-of-turn announcements, poverty and throw-in are not valued."""

    game: str
    unit: str
    lower_is_better: bool = False
    tolerance: float = 0.25
    what: tuple[str, ...] = ("reservations", "announcements", "cards")

    def values(self, view: Mapping[str, Any], rules: Any, *, budget_ms: float, worlds: int,
               rng: random.Random) -> dict[str, float]:
        from app.bots.doppelkopf.evaluate import action_key as search_key
        from app.bots.doppelkopf.evaluate import evaluate

        found = evaluate(view, rules, budget_ms, worlds=worlds, rng=rng)
        return {action_key(a): found[search_key(a)] for a in legal_of(view) if search_key(a) in found}


def estimator_for(game: str) -> Estimator:
    """The estimator of ``game``. Raises KeyError for a game without one."""
    if game == "doppelkopf":
        return ExpertSearch(game, "game points")
    if game == "doublehead_kids":
        return ExpertSearch(game, "golden coins",
                            what=("reservations", "wedding partners", "announcements", "cards"))
    from app.analysis.playouts import playout_estimator

    return playout_estimator(game)
