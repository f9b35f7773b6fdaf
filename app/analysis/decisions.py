"""The decisions of one seat in a scenario, each with the view the seat had when it decided.

A decision is an action of the analysed seat in the scenario's action list. Its ``view`` is
``Game.view(state, seat)`` just before the action: exactly what a person in that seat saw,
never another seat's hidden cards. Nothing else of the state leaves this module.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from app.bots import legal_of
from app.games.base import Seat
from app.scenario import Scenario, ScenarioError, play_round


@dataclass(frozen=True)
class Decision:
    """One action of the analysed seat.

    round: the round's index in the scenario (0-based); index: the action's index in that
    round; trick: the trick (1-based) or turn the decision belongs to, None before the play;
    view: the seat's view just before it acted; action: what it did.
    """

    round: int
    index: int
    trick: int | None
    view: dict[str, Any]
    action: dict[str, Any]

    @property
    def options(self) -> int:
        """How many legal actions the seat had."""
        return len(legal_of(self.view))


def moment(view: Mapping[str, Any], action: Mapping[str, Any], discards: int = 0) -> int | None:
    """The trick (1-based) ``action`` belongs to; in Doppio, which has no tricks, the turn:
    ``discards`` made before it, plus one (a catch or pass: the turn of the discard it
    answers); None before the card play (reservations, bids)."""
    if view.get("game") == "doppio":
        return discards + (0 if action.get("type") in ("catch", "pass") else 1)
    phase = view.get("phase")
    if phase not in ("play", "playing"):
        return None
    if "tricks_played" in view:
        return int(view["tricks_played"]) + 1
    return len(view.get("tricks", [])) + 1


def decisions_of(scenario: Scenario, seat: Seat) -> Iterator[Decision]:
    """Every decision of ``seat``, round by round, in the order they were made.

    Raises ScenarioError for a seat the scenario does not have, or an illegal action.
    """
    if not 0 <= seat < scenario.players:
        raise ScenarioError(f"seat: {seat} is not a seat of {scenario.players} players")
    game = scenario.game
    for round_index, round_doc in enumerate(scenario.rounds):
        state, _ = play_round(scenario, round_index, limit=0)
        discards = 0
        for index, action in enumerate(round_doc.actions):
            if action.get("seat") == seat:
                view = game.view(state, seat)
                yield Decision(round_index, index, moment(view, action, discards), view, dict(action))
            state, _ = play_round_step(scenario, state, round_index, index, action)
            discards += action.get("type") == "discard"


def choices_in(scenario: Scenario) -> int:
    """How many actions of the scenario (any seat) were made with more than one legal action.
    Raises ScenarioError for an illegal action."""
    game = scenario.game
    count = 0
    for round_index, round_doc in enumerate(scenario.rounds):
        state, _ = play_round(scenario, round_index, limit=0)
        for index, action in enumerate(round_doc.actions):
            count += len(game.legal_actions(state, action["seat"])) > 1
            state, _ = play_round_step(scenario, state, round_index, index, action)
    return count


def play_round_step(scenario: Scenario, state: Any, round_index: int, index: int,
                    action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """Apply one action of round ``round_index``; an illegal one is a ScenarioError."""
    from app.games.base import IllegalAction, action_label

    try:
        return scenario.game.apply(state, action)
    except IllegalAction as err:
        raise ScenarioError(f"round {round_index}, action {index} ({action_label(action)}): {err}") from None
