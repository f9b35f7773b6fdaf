"""The pieces of an analysis that run in the bots' process pool (app.bots.runner.run_job).

Each function is module-level and takes and returns plain, picklable values, so a pool worker
can run it; each job is short (one decision at the site's budget), so computer players at the
tables never queue long behind an analysis.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from app.analysis.decisions import Decision, choices_in, decisions_of
from app.analysis.estimators import estimator_for
from app.analysis.report import value_decision
from app.games.registry import get_game
from app.scenario import load_scenario


def plan_match(document: dict[str, Any], seat: int) -> tuple[list[Decision], int]:
    """Every decision of ``seat`` in a scenario document (the match's download), with views,
    and how many actions of the match (any seat) had a choice: the measure of its thinking
    budget (app.analysis.schedule). Raises app.scenario.ScenarioError."""
    scenario = load_scenario(document)
    return list(decisions_of(scenario, seat)), choices_in(scenario)


@cache
def _rules(game: str, raw: str) -> Any:
    import json

    return get_game(game).make_rules(json.loads(raw))


def value(game: str, rules_raw: str, decision: Decision, seed: int, budget_ms: float,
          worlds: int) -> dict[str, Any]:
    """One decision's entry (app.analysis.report.value_decision); ``rules_raw`` is the
    scenario's ``rules`` object as JSON text."""
    return value_decision(estimator_for(game), _rules(game, rules_raw), decision, seed=seed,
                          budget_ms=budget_ms, worlds=worlds)
