"""The analysis document of one seat's play in a scenario.

    doc = analyse(load_file("match.json"), seat=2, seed=1, budget_ms=2000, worlds=32)

For each decision (app.analysis.decisions) the game's estimator values the legal actions from
the seat's view; ``cost`` is how much less the action taken is expected to score than the best
action (in the game's unit, never negative). A decision counts towards ``accuracy`` when it was
valued and the seat had a choice; accuracy is the percentage of those decisions whose cost is
at most the estimator's ``tolerance`` (sampling noise: an action within it is as good as the
best). The costliest decisions are those above the tolerance, largest cost first. Each of
them carries ``why`` (app.analysis.reasons): what made the difference over the sampled deals,
as data; :func:`with_words` writes it in a reader's language. Each round carries its
``curve``: the seat's expected final score after each of its valued decisions.

Deterministic for a seed as long as the number of worlds, not the time budget, ends each
search (give a generous budget for reproducible figures).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.analysis import reasons
from app.analysis.decisions import Decision, decisions_of
from app.analysis.estimators import Estimator, action_key, estimator_for
from app.bots import legal_of
from app.i18n.actions import acted_card
from app.scenario import Scenario

DEFAULT_BUDGET_MS = 2000
DEFAULT_WORLDS = 32
COSTLIEST = 5

Progress = Callable[[int, int], None]


def _rounded(value: float) -> float:
    return round(value, 3)


def value_decision(estimator: Estimator, rules: Any, decision: Decision, *, seed: int,
                   budget_ms: float, worlds: int) -> dict[str, Any]:
    """One decision's entry: the action taken, the best action, the values and the cost; above
    the estimator's tolerance also ``why`` (app.analysis.reasons.reason), and for a Doppio
    discard or catch the cards they move (``taken_card``, ``best_card``).

    Reads only ``decision.view`` (the seat's view) and the table's rules.
    """
    taken = action_key(decision.action)
    entry: dict[str, Any] = {
        "round": decision.round, "index": decision.index, "trick": decision.trick,
        "phase": decision.view.get("phase"), "action": decision.action, "taken": taken,
    }
    legal = legal_of(decision.view)
    if len(legal) < 2:
        return {**entry, "analysed": False, "reason": "forced"}
    rng = random.Random(f"{seed}:{decision.round}:{decision.index}")
    found = estimator.estimate(decision.view, rules, budget_ms=budget_ms, worlds=worlds, rng=rng)
    values = found.values
    if taken not in values:
        why_not = "out_of_turn" if decision.view.get("to_move", decision.view["seat"]) != decision.view["seat"] else "not_simulated"
        return {**entry, "analysed": False, "reason": why_not}
    pick = min if estimator.lower_is_better else max
    best = pick(values, key=lambda key: (values[key], key == taken))
    cost = abs(values[best] - values[taken])
    best_action = next(a for a in legal if action_key(a) == best)
    entry.update(analysed=True, best=best, best_action=dict(best_action),
                 values={key: _rounded(v) for key, v in values.items()}, cost=_rounded(cost))
    for name, action in (("taken_card", decision.action), ("best_card", best_action)):
        card = acted_card(decision.view, action)
        if card is not None:
            entry[name] = card
    if entry["cost"] > estimator.tolerance and found.facts.get(taken) and found.facts.get(best):
        entry["why"] = reasons.reason(estimator.game, entry["phase"], decision.action, best_action,
                              found.facts[taken], found.facts[best],
                              lower_is_better=estimator.lower_is_better)
    return entry


def curve(entries: list[dict[str, Any]], tolerance: float) -> list[dict[str, Any]]:
    """The seat's expected final score after each of its valued decisions of one round, in
    order: ``[{"index", "trick", "value": values[taken], "cost", "costly": cost above the
    tolerance}]`` (the deal's curve on the replay page)."""
    return [{"index": e["index"], "trick": e["trick"], "value": e["values"][e["taken"]],
             "cost": e["cost"], "costly": e["cost"] > tolerance}
            for e in entries if e["analysed"]]


def with_words(doc: dict[str, Any], lang: str) -> dict[str, Any]:
    """A copy of the analysis document whose reasons carry ``text`` in ``lang`` ("de", "en")."""
    out = dict(doc)
    out["decisions"] = []
    for entry in doc["decisions"]:
        if "why" in entry:
            text = reasons.words(entry["why"], game=doc["game"], unit=doc["unit"], lang=lang,
                         taken=entry["action"], best=entry["best_action"],
                         taken_card=entry.get("taken_card"), best_card=entry.get("best_card"))
            entry = {**entry, "why": {**entry["why"], "text": text, "lang": lang}}
        out["decisions"].append(entry)
    return out


def _accuracy(entries: list[dict[str, Any]], tolerance: float) -> float | None:
    counted = [e for e in entries if e["analysed"]]
    if not counted:
        return None
    good = sum(1 for e in counted if e["cost"] <= tolerance)
    return round(100.0 * good / len(counted), 1)


def _summary(entries: list[dict[str, Any]], tolerance: float) -> dict[str, Any]:
    analysed = [e for e in entries if e["analysed"]]
    return {
        "decisions": len(entries),
        "analysed": len(analysed),
        "accuracy": _accuracy(entries, tolerance),
        "cost": _rounded(sum(e["cost"] for e in analysed)),
    }


def document(game: str, rounds: int, entries: list[dict[str, Any]], *, seed: int,
             budget_ms: float, worlds: int) -> dict[str, Any]:
    """The analysis document from the decisions' entries (see :func:`analyse` for its shape)."""
    estimator = estimator_for(game)
    tolerance = estimator.tolerance
    summaries = []
    for index in range(rounds):
        own = [e for e in entries if e["round"] == index]
        summaries.append({"round": index, **_summary(own, tolerance), "curve": curve(own, tolerance)})
    costly = sorted((e for e in entries if e["analysed"] and e["cost"] > tolerance),
                    key=lambda e: (-e["cost"], e["round"], e["index"]))
    return {
        "game": game,
        "seat": entries[0]["action"]["seat"] if entries else None,
        "unit": estimator.unit,
        "lower_is_better": estimator.lower_is_better,
        "what": list(estimator.what),
        "method": getattr(estimator, "method", "expert search"),
        "seed": seed,
        "budget_ms": budget_ms,
        "worlds": worlds,
        "tolerance": tolerance,
        "decisions": entries,
        "rounds": summaries,
        "match": _summary(entries, tolerance),
        "costliest": [{"round": e["round"], "index": e["index"], "trick": e["trick"], "cost": e["cost"]}
                      for e in costly[:COSTLIEST]],
    }


def analyse(scenario: Scenario, seat: int, *, seed: int = 1, budget_ms: float = DEFAULT_BUDGET_MS,
            worlds: int = DEFAULT_WORLDS, progress: Progress | None = None) -> dict[str, Any]:
    """The analysis document of ``seat``'s decisions in ``scenario``.

    Shape: ``{"game", "seat", "unit", "lower_is_better", "what", "method", "seed",
    "budget_ms", "worlds", "tolerance", "decisions": [entry...], "rounds": [{"round",
    "decisions", "analysed", "accuracy", "cost", "curve"}...], "match": {"decisions",
    "analysed", "accuracy", "cost"}, "costliest": [{"round", "index", "trick", "cost"}...]}``
    where an entry is as :func:`value_decision` returns and a curve as :func:`curve`. ``progress(done, total)`` is called after each
    decision. Raises ScenarioError (bad seat, illegal action) and KeyError (no estimator).
    """
    estimator = estimator_for(scenario.game.name)
    decisions = list(decisions_of(scenario, seat))
    entries = []
    for done, decision in enumerate(decisions, start=1):
        entries.append(value_decision(estimator, scenario.rules, decision, seed=seed,
                                      budget_ms=budget_ms, worlds=worlds))
        if progress is not None:
            progress(done, len(decisions))
    doc = document(scenario.game.name, len(scenario.rounds), entries, seed=seed,
                   budget_ms=budget_ms, worlds=worlds)
    doc["seat"] = seat
    return doc
