"""The figures of one action over the sampled deals of its valuation.

``summary(facts)`` turns an action's facts (app.analysis.facts: one per sampled deal) into the
figures its reason may quote; ``paired(taken, best)`` compares two actions deal by deal (every
estimator plays all actions on the same deals, so the lists line up).

Counts are counts of deals ("in 31 of 40 sampled deals"); means are weighted by the deals'
weights, as the estimator's value is (the expert weighs deals by how well they explain the
play so far), so ``mean`` is the action's value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

Fact = dict[str, Any]


def _mean(facts: Sequence[Fact], field: str) -> float | None:
    """The weighted mean of ``field`` over the facts that have it (None: none has it)."""
    having = [f for f in facts if f.get(field) is not None]
    weight = sum(f["w"] for f in having)
    if not having or weight <= 0:
        return None
    return sum(f["w"] * f[field] for f in having) / weight


def _counts(facts: Sequence[Fact], field: str) -> dict[str, int] | None:
    values = [f[field] for f in facts if f.get(field) is not None]
    if not values:
        return None
    return {str(int(value)): count for value, count in sorted(Counter(values).items())}


def summary(facts: Sequence[Fact]) -> dict[str, Any]:
    """The figures of one action over its sampled deals.

    ``{"n": deals, "mean": weighted mean score, "won": deals in which the seat reached the
    round's goal, "scores": {score: deals}, "trick": {"won", "of", "points"} or None (the trick
    in play: deals its side took it, deals where that is known, its mean card points or None),
    "points": mean own card points or None, "tricks": {tricks taken: deals} or None, "bid":
    the bid or None, "hand_value": mean final hand value or None, "gain": an announcement's
    mean gain or None}``. Raises ValueError for no facts.
    """
    if not facts:
        raise ValueError("no sampled deals")
    known = [f for f in facts if f.get("trick") is not None]
    trick = None
    if known:
        trick = {"won": sum(1 for f in known if f["trick"]), "of": len(known),
                 "points": _rounded(_mean(known, "trick_points"))}
    bids = {f.get("bid") for f in facts}
    return {
        "n": len(facts),
        "mean": _rounded(_mean(facts, "score")),
        "won": sum(1 for f in facts if f["won"]),
        "scores": _counts(facts, "score"),
        "trick": trick,
        "points": _rounded(_mean(facts, "points")),
        "tricks": _counts(facts, "tricks"),
        "bid": bids.pop() if len(bids) == 1 else None,
        "hand_value": _rounded(_mean(facts, "hand_value")),
        "gain": _rounded(_mean(facts, "gain")),
    }


def paired(taken: Sequence[Fact], best: Sequence[Fact], *, lower_is_better: bool) -> dict[str, int]:
    """Deal by deal: ``{"better": deals where the best action scored better than the one
    taken, "worse": where it scored worse, "n": deals compared}``."""
    sign = -1 if lower_is_better else 1
    pairs = list(zip(taken, best, strict=False))
    better = sum(1 for took, top in pairs if sign * (top["score"] - took["score"]) > 0)
    worse = sum(1 for took, top in pairs if sign * (top["score"] - took["score"]) < 0)
    return {"better": better, "worse": worse, "n": len(pairs)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)
