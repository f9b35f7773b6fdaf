"""The ``GAME`` object: Doppelganger Tricks behind the interface of app.games.base.Game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import (
    JSON,
    Action,
    DealError,
    Event,
    GameTraits,
    MatchStatus,
    RoundOutcome,
    Seat,
)
from app.games.doppelganger_tricks import flow, scoring
from app.games.doppelganger_tricks import view as views
from app.games.doppelganger_tricks.actions import apply_action
from app.games.doppelganger_tricks.cards import deck as full_deck
from app.games.doppelganger_tricks.cards import hand_size, parse_card
from app.games.doppelganger_tricks.options import PRESETS, Rules, make_rules, rules_json
from app.games.doppelganger_tricks.state import Phase, RoundState, new_state


class DoppelgangerTricks:
    """Doppelganger Tricks (Doppelgänger-Stiche) for 3 or 4 players.

    See docs/rules/doppelganger-tricks.md for every ruling and decision, and
    docs/scenarios/doppelganger-tricks.md for the actions.
    """

    name: str = "doppelganger_tricks"
    player_counts: tuple[int, ...] = (3, 4)
    presets: Mapping[str, Mapping[str, Any]] = PRESETS
    #: a live table keeps the turn with a seat that may take a bonus card (flow.live_refusal)
    traits = GameTraits(live_refusal=flow.live_refusal, round_word="round")
    #: no numeric options (also read from the game object by app/lobby/service.py, until the lobby reads ``traits``)
    option_ranges: Mapping[str, tuple[float, float]] = {}

    def make_rules(self, raw: Mapping[str, Any]) -> Rules:
        """Rules from ``{}`` or ``{"preset": "standard"}``; RulesError for anything else."""
        return make_rules(raw)

    def rules_json(self, rules: Rules) -> JSON:
        """``{}``: there are no options."""
        return rules_json(rules)

    def check_deal(
        self, rules: Rules, players: int, deal: Sequence[Sequence[str]], deck: Sequence[str]
    ) -> None:
        """Raise DealError unless ``deal`` splits the deck for ``players`` into equal hands
        (12 cards with three players, 10 with four) and the draw pile is empty.
        """
        check_deal(players, deal, deck)

    def deal(self, rules: Rules, players: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        """Shuffle with ``rng`` and deal every card; the draw pile is empty."""
        cards = [str(card) for card in full_deck(players)]
        rng.shuffle(cards)
        size = hand_size(players)
        return [cards[seat * size : (seat + 1) * size] for seat in range(players)], []

    def new_round(
        self, rules: Rules, players: int, deal: Sequence[Sequence[str]], deck: Sequence[str], dealer: Seat
    ) -> RoundState:
        """The round before any bid; seat (dealer + 1) mod n leads the first trick."""
        hands = [[parse_card(name) for name in hand] for hand in deal]
        return new_state(players, dealer, hands)

    def to_act(self, state: RoundState) -> tuple[Seat, ...]:
        """Bidding: seats without a bid. Playing: the seat that may take a bonus card (a live
        table waits for it), else the seat to play. Over: ``()``.
        """
        return flow.to_act(state)

    def legal_actions(self, state: RoundState, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now (see flow.legal_actions)."""
        return flow.legal_actions(state, seat)

    def apply(self, state: RoundState, action: Mapping[str, Any]) -> tuple[RoundState, list[Event]]:
        """Apply one action; IllegalAction for a malformed or forbidden one (state unchanged)."""
        return apply_action(state, action)

    def view(self, state: RoundState, seat: Seat | None) -> JSON:
        """Own hand and bid plus the public table (see view.view)."""
        return views.view(state, seat)

    def is_over(self, state: RoundState) -> bool:
        """Every card played and no bonus card waiting for the last seat."""
        return flow.phase(state) is Phase.OVER

    def outcome(self, state: RoundState) -> RoundOutcome:
        """Scores and details (bids, tricks_won, bonus, annihilations, void_tricks); an
        unfinished round scores 0 for everybody and shows its details so far.

        A round whose every card is played is finished, also while the last seat could still
        take a bonus card: a scenario file's chance closes with the end of the file, so the
        round scores as it stands, without that bonus (spec/scenario-format.md, ``take_bonus``).
        A live table waits for that seat's decision first (``is_over``).
        """
        details = scoring.outcome_details(state)
        if not flow.cards_done(state):
            return RoundOutcome(finished=False, scores=(0,) * state.players, details=details)
        return RoundOutcome(finished=True, scores=scoring.round_scores(state), details=details)

    def state_json(self, state: RoundState) -> JSON:
        """The omniscient dump: hands, bids, every trick. Never for a client."""
        return views.state_json(state)

    def match_status(self, rules: Rules, players: int, outcomes: Sequence[RoundOutcome]) -> MatchStatus:
        """Over after as many finished rounds as players; highest total wins, ties share."""
        return scoring.match_status(players, outcomes)


def check_deal(players: int, deal: Sequence[Sequence[str]], pile: Sequence[str]) -> None:
    """Raise DealError unless ``deal`` is the deck for ``players`` in equal hands, pile empty.

    Paths: ``deal`` for the wrong number of hands, ``deal[s]`` for a hand of the wrong size,
    ``deal[s][i]`` for an unknown, removed or repeated card, ``deck`` for a non-empty draw pile.
    Hands of the right sizes without unknown or repeated cards are the whole deck.
    """
    if pile:
        raise DealError("deck", f"expected no draw pile, got {len(pile)} card(s)")
    if len(deal) != players:
        raise DealError("deal", f"{len(deal)} hands, expected {players}")
    size = hand_size(players)
    wanted = {str(card) for card in full_deck(players)}
    seen: set[str] = set()
    for seat, hand in enumerate(deal):
        if len(hand) != size:
            raise DealError(f"deal[{seat}]", f"{len(hand)} cards, expected {size}")
        for index, name in enumerate(hand):
            _check_dealt_card(players, wanted, seen, name, f"deal[{seat}][{index}]")
            seen.add(name)


def _check_dealt_card(players: int, wanted: set[str], seen: set[str], name: str, path: str) -> None:
    try:
        parse_card(name)
    except ValueError as err:
        raise DealError(path, str(err)) from None
    if name not in wanted:
        raise DealError(path, f"{name} is not in the {players}-player deck (the 10s are removed)")
    if name in seen:
        raise DealError(path, f"{name} dealt twice")


GAME = DoppelgangerTricks()
