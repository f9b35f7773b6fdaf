"""Doppelkopf: the rules core (DDV tournament rules with house-rule options and the GameTwist
presets). ``GAME`` implements app.games.base.Game; see docs/rules/doppelkopf.md."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.base import DealError, GameTraits, MatchStatus, RoundOutcome, best_seats, totals
from app.games.doppelkopf import engine
from app.games.doppelkopf.cards import ALL_CARDS, deck
from app.games.doppelkopf.modes import deal_hands, table_layout
from app.games.doppelkopf.rules import (
    OPTION_RANGES,
    PRESETS,
    Rules,
    make_rules,
    option_choices,
    rules_json,
)
from app.games.doppelkopf.scoring import score
from app.games.doppelkopf.state import State
from app.games.doppelkopf.view import view


def check_hands(rules: Rules, deal: Sequence[Sequence[str]], deck_cards: Sequence[str]) -> None:
    """Raise DealError unless ``deal`` is the deck of ``rules`` dealt evenly to four seats."""
    if deck_cards:
        raise DealError("deck", f"{len(deck_cards)} cards, expected no draw pile")
    size = rules.hand_size
    valid = set(deck(rules.nines))
    for seat, hand in enumerate(deal):
        if len(hand) != size:
            raise DealError(f"deal[{seat}]", f"{len(hand)} cards, expected {size}")
        for index, card in enumerate(hand):
            if card not in valid:
                known = "without nines" if card in ALL_CARDS else "in this game"
                raise DealError(f"deal[{seat}][{index}]", f"no card {card!r} {known}")
    counts = Counter(card for hand in deal for card in hand)
    for card, count in sorted(counts.items()):
        if count != 2:
            raise DealError("deal", f"{count} copies of {card}, expected 2")


class Doppelkopf:
    """The Doppelkopf rules core behind app.games.base.Game (four players, one deal a round)."""

    name = "doppelkopf"
    player_counts = (4,)
    presets: Mapping[str, Mapping[str, Any]] = PRESETS
    #: the reservation decision (gesund / Vorbehalt) is phase ``declare``; options with named
    #: values; duel mode seats the computer players itself
    traits = GameTraits(reservation_phase="declare", option_ranges=OPTION_RANGES,
                        option_choices=option_choices, computer_seats=table_layout)
    #: every numeric option's documented range (inclusive) (also read from the game object by app/lobby/service.py, until the lobby reads ``traits``)
    option_ranges: Mapping[str, tuple[float, float]] = OPTION_RANGES

    def make_rules(self, raw: Mapping[str, Any]) -> Rules:
        return make_rules(raw)

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        return rules_json(rules)

    def option_choices(self, preset: str) -> dict[str, tuple[str, ...]]:
        """Options with named values (New Game shows them as a choice)."""
        return option_choices(preset)

    def computer_seats(self, rules: Rules, players: int, bots: int, deals: int) -> tuple[int, ...]:
        """Where a new table's computer players sit (duel mode: 1 and 3); RulesError if the
        table mode does not allow this many computer players or deals."""
        return table_layout(rules, players, bots, deals)

    def check_deal(self, rules: Rules, players: int, deal: Sequence[Sequence[str]],
                   deck: Sequence[str]) -> None:
        check_hands(rules, deal, deck)

    def deal(self, rules: Rules, players: int, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        return deal_hands(rules, rng), []

    def new_round(self, rules: Rules, players: int, deal: Sequence[Sequence[str]],
                  deck: Sequence[str], dealer: int) -> State:
        return State(rules, dealer, deal)

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.to_move is None else (state.to_move,)

    # the engine's functions themselves (no wrapper call: these are the hot path of a search)
    legal_actions = staticmethod(engine.legal_actions)
    apply = staticmethod(engine.apply)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "done"

    def outcome(self, state: State) -> RoundOutcome:
        if state.phase != "done":
            return RoundOutcome(False, (0,) * 4, {})
        return score(state)

    def state_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def match_status(self, rules: Rules, players: int, outcomes: Sequence[RoundOutcome]) -> MatchStatus:
        played = sum(1 for outcome in outcomes if outcome.finished and not outcome.redeal)
        if rules.deals is None or played < rules.deals:
            return MatchStatus(False)
        return MatchStatus(True, best_seats(totals(outcomes, players)))


GAME = Doppelkopf()
