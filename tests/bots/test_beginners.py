"""Beginner computer players play like beginners, not like broken ones (issue 19): a
Doppelganger Tricks beginner bids within reason, a Doppio beginner declares with a low hand."""

from __future__ import annotations

import random

import pytest

from app.bots import get_bot, legal_of
from app.bots.doppelganger_tricks import intermediate_bid
from app.bots.doppio import BEGINNER_DOPPIO
from app.games.registry import get_game


@pytest.mark.parametrize("players", [3, 4])
def test_a_doppelganger_tricks_beginner_bids_within_reason(players: int) -> None:
    game = get_game("doppelganger_tricks")
    rules = game.make_rules({})
    bot = get_bot("doppelganger_tricks", "beginner")
    bids = []
    for seed in range(300):
        deal, deck = game.deal(rules, players, random.Random(seed))
        state = game.new_round(rules, players, deal, deck, players - 1)
        view = game.view(state, 0)
        action = bot.choose(view, random.Random(seed))
        assert action["type"] == "bid" and action in view["legal_actions"]
        hand = view["hand"]
        assert 0 <= action["value"] <= len(hand) // 2  # never 9 or 12 of 10 tricks
        assert abs(action["value"] - intermediate_bid(hand, players)) <= 1
        bids.append(action["value"])
    assert len(set(bids)) >= 3  # still a beginner: its bids vary


def test_a_doppio_beginner_declares_when_its_hand_value_is_low() -> None:
    """Beginners play whole 2-player rounds; at each turn where Doppio is offered it declares
    exactly when its hand value is at most BEGINNER_DOPPIO."""
    game = get_game("doppio")
    rules = game.make_rules({})
    bot = get_bot("doppio", "beginner")
    low = high = 0
    for seed in range(100):
        rng = random.Random(seed)
        deal, deck = game.deal(rules, 2, rng)
        state = game.new_round(rules, 2, deal, deck, 1)
        for _ in range(400):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            view = game.view(state, seat)
            action = bot.choose(view, rng)
            kinds = {a["type"] for a in legal_of(view)}
            if {"doppio", "discard"} <= kinds and "catch" not in kinds:  # its turn, no window
                if view["hand_value"] <= BEGINNER_DOPPIO:
                    low += 1
                    assert action["type"] == "doppio", view["hand"]
                else:
                    high += 1
                    assert action["type"] != "doppio"
            state, _ = game.apply(state, action)
    assert low > 0 and high > 0
