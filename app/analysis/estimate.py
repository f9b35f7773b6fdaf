"""What every estimator of the analysis answers (app.analysis.estimators picks one per game;
app.analysis.playouts is the game-agnostic one): the stable name of an action, an estimate,
and the estimator's interface."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

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


@dataclass(frozen=True)
class Estimate:
    """An estimator's answer for one view: ``values`` ``{action_key: expected score}`` and
    ``facts`` ``{action_key: [one fact per sampled deal]}`` (app.analysis.facts), which the
    reasons are worded from."""

    values: dict[str, float]
    facts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


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

    def estimate(self, view: Mapping[str, Any], rules: Any, *, budget_ms: float, worlds: int,
                 rng: random.Random) -> Estimate:
        """The values and the sampled deals' facts (the same search as :meth:`values`)."""
        ...
