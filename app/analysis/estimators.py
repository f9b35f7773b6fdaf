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
from typing import Any

from app.analysis.estimate import KEY_FIELDS, Estimate, Estimator, action_key
from app.bots import legal_of

__all__ = ["KEY_FIELDS", "Estimate", "Estimator", "ExpertSearch", "action_key", "estimator_for"]

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
        return self.estimate(view, rules, budget_ms=budget_ms, worlds=worlds, rng=rng).values

    def estimate(self, view: Mapping[str, Any], rules: Any, *, budget_ms: float, worlds: int,
                 rng: random.Random) -> Estimate:
        from app.bots.doppelkopf.evaluate import action_key as search_key
        from app.bots.doppelkopf.evaluate import evaluate

        facts: dict[str, list[dict[str, Any]]] = {}
        found = evaluate(view, rules, budget_ms, worlds=worlds, rng=rng, facts=facts)
        keys = {search_key(a): action_key(a) for a in legal_of(view) if search_key(a) in found}
        return Estimate({key: found[search] for search, key in keys.items()},
                        {key: facts.get(search, []) for search, key in keys.items()})


def estimator_for(game: str) -> Estimator:
    """The estimator of ``game``. Raises KeyError for a game without one."""
    if game == "doppelkopf":
        return ExpertSearch(game, "game points")
    if game == "doublehead_kids":
        return ExpertSearch(game, "golden coins",
                            what=("reservations", "wedding partners", "announcements", "cards"))
    from app.analysis.playouts import playout_estimator

    return playout_estimator(game)
