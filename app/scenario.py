"""Scenario files: a whole game as data (../shared/spec/scenario-format.md).

``load_scenario`` checks a document against the format and the game's deck and rules;
``replay`` plays it through the game's rules core and returns the outcome JSON. Errors are
:class:`ScenarioError` with one line a person can read: the JSON path of a format problem, or
the round, action index, seat and reason of an illegal action.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from app.games.base import (
    DealError,
    Game,
    IllegalAction,
    RoundOutcome,
    RulesError,
    action_label,
    totals,
)
from app.games.registry import UnknownGame, get_game


class ScenarioError(ValueError):
    """A scenario that cannot be replayed; ``str(err)`` is the one line to print."""


class RoundDoc(BaseModel):
    """One round of a scenario: who dealt, what was dealt, and every action in order."""

    model_config = ConfigDict(extra="forbid")
    dealer: StrictInt
    deal: list[list[StrictStr]]
    deck: list[StrictStr] = Field(default_factory=list)
    actions: list[dict[str, Any]] = Field(default_factory=list)


class ScenarioDoc(BaseModel):
    """A scenario document: game, rules, player count and rounds."""

    model_config = ConfigDict(extra="forbid")
    game: StrictStr
    rules: dict[str, Any] = Field(default_factory=dict)
    players: StrictInt
    rounds: list[RoundDoc]


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: the game object, its rules object and the rounds."""

    game: Game
    rules: Any
    players: int
    rounds: list[RoundDoc]


def _json_path(loc: Sequence[Any]) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or "(document)"


def load_scenario(document: Any) -> Scenario:
    """Check a parsed JSON document against the scenario format and the game.

    Raises ScenarioError naming the JSON path of the first problem, e.g.
    ``rounds[0].deal[3]: 11 cards, expected 12``.
    """
    try:
        doc = ScenarioDoc.model_validate(document)
    except ValidationError as err:
        first = err.errors()[0]
        raise ScenarioError(f"{_json_path(first['loc'])}: {first['msg']}") from None
    try:
        game = get_game(doc.game)
    except UnknownGame:
        raise ScenarioError(f"game: unknown game {doc.game!r}") from None
    if doc.players not in game.player_counts:
        counts = ", ".join(str(n) for n in game.player_counts)
        raise ScenarioError(f"players: {doc.players} players, expected one of {counts}")
    try:
        rules = game.make_rules(doc.rules)
    except RulesError as err:
        raise ScenarioError(f"rules.{err.path}: {err.message}" if err.path else f"rules: {err.message}") from None
    for index, round_doc in enumerate(doc.rounds):
        if not 0 <= round_doc.dealer < doc.players:
            raise ScenarioError(f"rounds[{index}].dealer: seat {round_doc.dealer} is not a seat of {doc.players} players")
        if len(round_doc.deal) != doc.players:
            raise ScenarioError(f"rounds[{index}].deal: {len(round_doc.deal)} hands, expected {doc.players}")
        try:
            game.check_deal(rules, doc.players, round_doc.deal, round_doc.deck)
        except DealError as err:
            raise ScenarioError(f"rounds[{index}].{err.path}: {err.message}") from None
        for a_index, action in enumerate(round_doc.actions):
            seat = action.get("seat")
            if type(seat) is not int or not 0 <= seat < doc.players:
                raise ScenarioError(f"rounds[{index}].actions[{a_index}].seat: expected a seat 0..{doc.players - 1}")
            if not isinstance(action.get("type"), str):
                raise ScenarioError(f"rounds[{index}].actions[{a_index}].type: expected an action type")
    return Scenario(game=game, rules=rules, players=doc.players, rounds=doc.rounds)


def play_round(scenario: Scenario, index: int, *, limit: int | None = None) -> tuple[Any, int]:
    """Replay round ``index`` up to ``limit`` actions; return the state and actions applied.

    Raises ScenarioError for an action the rules forbid:
    ``round 0, action 17 (seat 2 play QC): must follow suit clubs``.
    """
    game = scenario.game
    round_doc = scenario.rounds[index]
    state = game.new_round(scenario.rules, scenario.players, round_doc.deal, round_doc.deck, round_doc.dealer)
    actions = round_doc.actions if limit is None else round_doc.actions[:limit]
    for a_index, action in enumerate(actions):
        try:
            state, _events = game.apply(state, action)
        except IllegalAction as err:
            raise ScenarioError(f"round {index}, action {a_index} ({action_label(action)}): {err}") from None
    return state, len(actions)


def round_json(game: Game, state: Any, outcome: RoundOutcome) -> dict[str, Any]:
    """One entry of the outcome's ``rounds`` list."""
    entry: dict[str, Any] = {"finished": outcome.finished, "scores": list(outcome.scores)}
    if outcome.details or outcome.finished:
        entry["details"] = outcome.details
    if outcome.redeal:
        entry["redeal"] = True
    if not outcome.finished:
        entry["state"] = game.state_json(state)
    return entry


def replay(scenario: Scenario) -> dict[str, Any]:
    """Replay every round and return the outcome document of the scenario format."""
    game = scenario.game
    rounds_json = []
    outcomes: list[RoundOutcome] = []
    for index in range(len(scenario.rounds)):
        state, _ = play_round(scenario, index)
        outcome = game.outcome(state)
        outcomes.append(outcome)
        rounds_json.append(round_json(game, state, outcome))
    status = game.match_status(scenario.rules, scenario.players, outcomes)
    return {
        "game": game.name,
        "rounds": rounds_json,
        "totals": totals(outcomes, scenario.players),
        "game_over": status.game_over,
        "winners": list(status.winners),
    }


def replay_until(scenario: Scenario, count: int) -> dict[str, Any]:
    """Apply the first ``count`` actions of the file (counted over all rounds, in order).

    Returns ``{"game", "round", "actions_applied", "state", "outcome"}`` for the round in which
    the count ran out (or the last round): the whole state, hidden cards included.
    """
    game = scenario.game
    remaining = count
    state = None
    index = 0
    for index, round_doc in enumerate(scenario.rounds):
        take = min(remaining, len(round_doc.actions))
        state, applied = play_round(scenario, index, limit=take)
        remaining -= applied
        if remaining <= 0:
            break
    if state is None:
        raise ScenarioError("rounds: no round to replay")
    outcome = game.outcome(state)
    return {
        "game": game.name,
        "round": index,
        "actions_applied": count - max(remaining, 0),
        "state": game.state_json(state),
        "outcome": round_json(game, state, outcome),
    }


def load_file(path: str) -> Scenario:
    """Read and check a scenario file. Raises ScenarioError (also for unreadable JSON)."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as err:
        raise ScenarioError(f"{path}: cannot read: {err.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ScenarioError(f"(document): not valid JSON: {err}") from None
    return load_scenario(document)
