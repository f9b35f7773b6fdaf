"""Small Doppio rules pieces: hand value, shift and refill, rules options, deals, match end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.games.base import DealError, RoundOutcome, RulesError
from app.games.doppio import GAME
from app.games.doppio.cards import full_deck
from app.games.doppio.layout import discard, hand_value
from app.games.doppio.state import next_dealer


@pytest.mark.parametrize(("hand", "value"), [
    (("7", "5", "3", "3", "5", "7"), 0),     # three pairs of equal numbers
    (("B", "4", "9", "9", "4", "B"), 0),     # two bonus cards pair
    (("B", "4", "9", "9", "4", "3"), 1),     # unpaired bonus -2, unpaired 3
    (("13", "12", "11", "3", "4", "5"), 48), # nothing paired: the face values
    (("3", "3", "3", "4", "4", "4"), 21),    # equal neighbours on one side do not pair
])
def test_hand_value(hand, value):
    assert hand_value(hand) == value


@pytest.mark.parametrize(("position", "after", "card"), [
    ("L3", ("x", "b", "c", "d", "e", "f"), "a"),
    ("L2", ("x", "a", "c", "d", "e", "f"), "b"),
    ("L1", ("x", "a", "b", "d", "e", "f"), "c"),
    ("R1", ("a", "b", "c", "e", "f", "x"), "d"),
    ("R2", ("a", "b", "c", "d", "f", "x"), "e"),
    ("R3", ("a", "b", "c", "d", "e", "x"), "f"),
])
def test_discard_shifts_toward_the_divider_and_refills_the_outer_position(position, after, card):
    assert discard(("a", "b", "c", "d", "e", "f"), position, "x") == (after, card)


def test_rules_defaults_presets_and_errors():
    assert GAME.rules_json(GAME.make_rules({"preset": "standard"})) == {
        "catch_window_seconds": 3, "doppio_max_value": 10, "failure_penalty": 20, "game_end_total": 100}
    rules = GAME.make_rules({"catch_window_seconds": 1.5, "game_end_total": 50})
    assert GAME.make_rules(GAME.rules_json(rules)) == rules
    for raw, path in [({"preset": "pub"}, "preset"), ({"speed": 1}, "speed"),
                      ({"catch_window_seconds": 0}, "catch_window_seconds"),
                      ({"doppio_max_value": True}, "doppio_max_value")]:
        with pytest.raises(RulesError) as err:
            GAME.make_rules(raw)
        assert err.value.path == path


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_is_a_permutation_of_the_deck(players):
    hands, deck = GAME.deal(GAME.make_rules({}), players, random.Random(players))
    assert [len(hand) for hand in hands] == [6] * players
    assert sorted([card for hand in hands for card in hand] + deck) == sorted(full_deck())
    GAME.check_deal(GAME.make_rules({}), players, hands, deck)


def test_check_deal_names_the_first_problem():
    rules = GAME.make_rules({})
    hands, deck = GAME.deal(rules, 2, random.Random(1))
    with pytest.raises(DealError) as err:
        GAME.check_deal(rules, 2, hands, deck[:-1])
    assert (err.value.path, err.value.message) == ("deck", "35 cards, expected 36")
    with pytest.raises(DealError) as err:
        GAME.check_deal(rules, 2, [hands[0][:5] + ["14"], hands[1]], deck)
    assert err.value.path == "deal[0][5]"


def test_match_ends_after_the_round_that_reaches_100_and_ties_share():
    rules = GAME.make_rules({})
    rounds = [RoundOutcome(True, (60, 30, 30)), RoundOutcome(True, (39, 20, 20))]
    assert GAME.match_status(rules, 3, rounds).game_over is False
    status = GAME.match_status(rules, 3, rounds + [RoundOutcome(True, (1, 0, 0))])
    assert (status.game_over, status.winners) == (True, (1, 2))


def test_dealer_moves_one_seat_left():
    assert [next_dealer(dealer, 3) for dealer in range(3)] == [1, 2, 0]


def test_a_card_drawn_from_the_deck_stays_out_of_the_public_events():
    deal = [["3", "4", "5", "6", "7", "8"], ["9", "10", "11", "12", "13", "B"]]
    deck = ["13"] + sorted((Counter(full_deck()) - Counter(deal[0] + deal[1] + ["13"])).elements())
    state = GAME.new_round(GAME.make_rules({}), 2, deal, deck, dealer=1)
    state, events = GAME.apply(state, {"seat": 0, "type": "discard", "position": "R3"})
    assert state.hands[0][5] == "13"
    assert events[:2] == [{"type": "discard", "seat": 0, "position": "R3", "card": "8"},
                          {"type": "refill", "seat": 0, "position": "R3", "source": "deck"}]
