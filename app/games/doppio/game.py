"""The Doppio rules core behind the ``Game`` interface of app/games/base.py: ``GAME``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import JSON, Action, Event, GameTraits, MatchStatus, RoundOutcome, Seat
from app.games.doppio.actions import apply_action, legal_actions, to_act
from app.games.doppio.catch import close_catch_window
from app.games.doppio.deal import check_deal, deal
from app.games.doppio.rules import (
    FRACTIONAL_OPTIONS,
    OPTION_RANGES,
    PRESETS,
    DoppioRules,
    make_rules,
    rules_json,
)
from app.games.doppio.scoring import match_status, round_outcome
from app.games.doppio.state import DoppioState, new_round
from app.games.doppio.view import state_json, view


class DoppioGame:
    """Doppio for 2 to 4 players (docs/rules/doppio.md). Every method is pure.

    Beyond the ``Game`` protocol (declared in ``traits``): :meth:`close_catch_window`, which the
    room calls when a catch window's time (``rules.catch_window_seconds``, on the room's
    injected clock) runs out; penalty scores (the lowest total wins); secret catch answers.
    """

    name = "doppio"
    player_counts: tuple[int, ...] = (2, 3, 4)
    presets: Mapping[str, Mapping[str, Any]] = PRESETS
    #: scores are penalties: when a table's number of deals ends the match before some total
    #: reaches 100, the room's fallback verdict is the lowest total too. A catch answer is
    #: secret until the window closes (the close event names the catchers): the other seats
    #: and spectators learn only that the seat answered
    traits = GameTraits(lower_scores_win=True, round_word="round", secret_actions={"catch": "answer", "pass": "answer"},
                        option_ranges=OPTION_RANGES, fractional_options=FRACTIONAL_OPTIONS,
                        close_catch_window=close_catch_window)
    #: every numeric option's documented range (app.games.doppio.rules) (also read from the game object by app/lobby/service.py, until the lobby reads ``traits``)
    option_ranges: Mapping[str, tuple[float, float]] = OPTION_RANGES
    #: the number options that take a fraction (New Game's input step "any"; the rest step 1)
    fractional_options: frozenset[str] = FRACTIONAL_OPTIONS

    def make_rules(self, raw: Mapping[str, Any]) -> DoppioRules:
        """Build the rules; raises RulesError (see app.games.doppio.rules)."""
        return make_rules(raw)

    def rules_json(self, rules: DoppioRules) -> JSON:
        """Every option as JSON."""
        return rules_json(rules)

    def check_deal(self, rules: DoppioRules, players: int, deal: Sequence[Sequence[str]],
                   deck: Sequence[str]) -> None:
        """Raise DealError unless the hands (six cards each) and deck are the 48 cards."""
        check_deal(players, deal, deck)

    def deal(self, rules: DoppioRules, players: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        """Shuffle with ``rng``; six cards each, the rest the deck (top first)."""
        return deal(players, rng)

    def new_round(self, rules: DoppioRules, players: int, deal: Sequence[Sequence[str]],
                  deck: Sequence[str], dealer: Seat) -> DoppioState:
        """The round's first state; seat dealer+1 moves first."""
        return new_round(rules, players, deal, deck, dealer)

    def to_act(self, state: DoppioState) -> tuple[Seat, ...]:
        """Eligible seats still to answer an open catch window, else the seat to move."""
        return to_act(state)

    def legal_actions(self, state: DoppioState, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now."""
        return legal_actions(state, seat)

    def apply(self, state: DoppioState, action: Mapping[str, Any]) -> tuple[DoppioState, list[Event]]:
        """Apply one action; raises IllegalAction with a readable reason."""
        return apply_action(state, action)

    def close_catch_window(self, state: DoppioState) -> tuple[DoppioState, list[Event]]:
        """Close the open catch window (a no-op without one); see app.games.doppio.catch."""
        return close_catch_window(state)

    def view(self, state: DoppioState, seat: Seat | None) -> JSON:
        """What ``seat`` may see; never another seat's cards."""
        return view(state, seat)

    def is_over(self, state: DoppioState) -> bool:
        """Whether the round has ended (Doppio declared or the deck ran out)."""
        return state.over

    def outcome(self, state: DoppioState) -> RoundOutcome:
        """Penalties and details ``{"hands", "hand_values", "doppio", "end"}``."""
        return round_outcome(state)

    def state_json(self, state: DoppioState) -> JSON:
        """The omniscient dump, never for a client."""
        return state_json(state)

    def match_status(self, rules: DoppioRules, players: int, outcomes: Sequence[RoundOutcome]) -> MatchStatus:
        """Over after a round in which some total reaches 100; lowest total wins, ties share."""
        return match_status(rules, players, outcomes)


GAME = DoppioGame()
