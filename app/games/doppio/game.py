"""The Doppio rules core behind the ``Game`` interface of app/games/base.py: ``GAME``."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import JSON, Action, Event, MatchStatus, RoundOutcome, Seat
from app.games.doppio import actions, catch, deal, rules, scoring, state, view
from app.games.doppio.rules import DoppioRules
from app.games.doppio.state import DoppioState


class DoppioGame:
    """Doppio for 2 to 4 players (docs/rules/doppio.md). Every method is pure.

    Beyond the ``Game`` protocol: :meth:`close_catch_window`, which the room calls when a catch
    window's time (``rules.catch_window_seconds``, on the room's injected clock) runs out.
    """

    name = "doppio"
    player_counts: tuple[int, ...] = (2, 3, 4)
    presets: Mapping[str, Mapping[str, Any]] = rules.PRESETS

    def make_rules(self, raw: Mapping[str, Any]) -> DoppioRules:
        """Build the rules; raises RulesError (see app.games.doppio.rules)."""
        return rules.make_rules(raw)

    def rules_json(self, rules_: DoppioRules) -> JSON:
        """Every option as JSON."""
        return rules.rules_json(rules_)

    def check_deal(self, rules_: DoppioRules, players: int, deal_: Sequence[Sequence[str]], deck: Sequence[str]) -> None:
        """Raise DealError unless the hands (six cards each) and deck are the 48 cards."""
        deal.check_deal(players, deal_, deck)

    def deal(self, rules_: DoppioRules, players: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        """Shuffle with ``rng``; six cards each, the rest the deck (top first)."""
        return deal.deal(players, rng)

    def new_round(self, rules_: DoppioRules, players: int, deal_: Sequence[Sequence[str]], deck: Sequence[str],
                  dealer: Seat) -> DoppioState:
        """The round's first state; seat dealer+1 moves first."""
        return state.new_round(rules_, players, deal_, deck, dealer)

    def to_act(self, state_: DoppioState) -> tuple[Seat, ...]:
        """Eligible seats still to answer an open catch window, else the seat to move."""
        return actions.to_act(state_)

    def legal_actions(self, state_: DoppioState, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now."""
        return actions.legal_actions(state_, seat)

    def apply(self, state_: DoppioState, action: Mapping[str, Any]) -> tuple[DoppioState, list[Event]]:
        """Apply one action; raises IllegalAction with a readable reason."""
        return actions.apply_action(state_, action)

    def close_catch_window(self, state_: DoppioState) -> tuple[DoppioState, list[Event]]:
        """Close the open catch window (a no-op without one); see app.games.doppio.catch."""
        return catch.close_catch_window(state_)

    def view(self, state_: DoppioState, seat: Seat | None) -> JSON:
        """What ``seat`` may see; never another seat's cards."""
        return view.view(state_, seat)

    def is_over(self, state_: DoppioState) -> bool:
        """Whether the round has ended (Doppio declared or the deck ran out)."""
        return state_.over

    def outcome(self, state_: DoppioState) -> RoundOutcome:
        """Penalties and details ``{"hands", "hand_values", "doppio", "end"}``."""
        return scoring.round_outcome(state_)

    def state_json(self, state_: DoppioState) -> JSON:
        """The omniscient dump, never for a client."""
        return view.state_json(state_)

    def match_status(self, rules_: DoppioRules, players: int, outcomes: Sequence[RoundOutcome]) -> MatchStatus:
        """Over after a round in which some total reaches 100; lowest total wins, ties share."""
        return scoring.match_status(rules_, players, outcomes)


GAME = DoppioGame()
