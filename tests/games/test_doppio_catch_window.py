"""The catch window at rules level: early close, the room's deadline close, priority, secrecy,
and refusals after the close."""

from __future__ import annotations

import pytest

from app.games.base import IllegalAction
from app.games.doppio import GAME

# Three seats, dealer 2: seat 0 moves first. Seat 0's L1 is a 5; the deck's top cards are 12, 11.
DEAL = [["3", "4", "5", "6", "7", "8"], ["9", "9", "10", "11", "12", "13"], ["4", "6", "8", "8", "6", "5"]]
DECK = ["12", "11", "10", "13", "3", "3", "3", "4", "4", "5", "5", "6", "7", "7", "7", "8", "9", "9",
        "10", "10", "11", "11", "12", "12", "13", "13", "B", "B", "B", "B"]


def act(state, seat, kind, position=None):
    action = {"seat": seat, "type": kind}
    if position:
        action["position"] = position
    return GAME.apply(state, action)[0]


@pytest.fixture
def after_discard():
    """Seat 0 has discarded its L1 (a 5); the window is open for seats 1 and 2."""
    state = GAME.new_round(GAME.make_rules({}), 3, DEAL, DECK, dealer=2)
    return act(state, 0, "discard", "L1")


def test_window_waits_for_every_eligible_seat(after_discard):
    state = after_discard
    assert state.window.card == "5"
    assert GAME.to_act(state) == (1, 2)
    state = act(state, 1, "pass")
    assert state.window is not None
    assert GAME.to_act(state) == (2,)


def test_window_closes_early_once_every_eligible_seat_answered(after_discard):
    state = act(act(after_discard, 1, "pass"), 2, "catch")
    assert state.window is None
    assert state.held == (None, None, "5")
    assert GAME.to_act(state) == (1,)


def test_close_catch_window_gives_the_card_to_the_farthest_catcher(after_discard):
    state = act(act(after_discard, 2, "catch"), 1, "catch")  # window closes: both answered
    assert state.held == (None, None, "5")
    state = act(after_discard, 1, "catch")
    closed, events = GAME.close_catch_window(state)
    assert closed.held == (None, "5", None)
    assert events == [{"type": "catch_window_closed", "card": "5", "discarder": 0, "catchers": [1],
                       "caught_by": 1}]


def test_close_catch_window_with_no_catch_makes_the_card_dead(after_discard):
    closed, events = GAME.close_catch_window(after_discard)
    assert closed.window is None
    assert closed.dead == ("5",)
    assert closed.held == (None, None, None)
    assert events[0]["caught_by"] is None


def test_close_catch_window_without_a_window_changes_nothing(after_discard):
    closed, _ = GAME.close_catch_window(after_discard)
    again, events = GAME.close_catch_window(closed)
    assert again is closed
    assert events == []


def test_catch_after_close_is_refused_and_the_state_kept(after_discard):
    closed, _ = GAME.close_catch_window(after_discard)
    with pytest.raises(IllegalAction, match="^the catch window is closed$"):
        GAME.apply(closed, {"seat": 2, "type": "catch"})
    assert closed.window is None and closed.held == (None, None, None)
    assert GAME.legal_actions(closed, 2) == []


def test_next_discard_closes_the_window_and_opens_its_own(after_discard):
    state = act(after_discard, 1, "discard", "R3")
    assert state.dead == ("5",)
    assert (state.window.card, state.window.eligible) == ("13", (2, 0))
    with pytest.raises(IllegalAction, match="^you cannot catch your own discard$"):
        GAME.apply(state, {"seat": 1, "type": "catch"})


def test_next_seat_may_act_during_the_window_and_uses_its_catch_at_once(after_discard):
    state = act(after_discard, 1, "catch")
    assert {"seat": 1, "type": "discard", "position": "L3"} in GAME.legal_actions(state, 1)
    state = act(state, 1, "discard", "L3")  # closes the window: seat 1 holds the 5, refills L3 with it
    assert state.hands[1][0] == "5"
    assert state.held == (None, None, None)
    assert state.deck[0] == "11"  # not drawn


def test_answers_are_secret_until_the_close(after_discard):
    state = act(after_discard, 1, "catch")
    seen_by_2 = GAME.view(state, 2)["catch_window"]
    seen_by_1 = GAME.view(state, 1)["catch_window"]
    assert seen_by_2["answered"] == [1] and seen_by_2["my_answer"] is None
    assert seen_by_1["my_answer"] == "catch"
    passed = act(after_discard, 1, "pass")
    assert GAME.view(passed, 2) == GAME.view(state, 2)
    _, events = GAME.apply(after_discard, {"seat": 1, "type": "catch"})
    assert events == [{"type": "catch_answered", "seat": 1}]


def test_illegal_action_during_the_window_keeps_it_open(after_discard):
    with pytest.raises(IllegalAction, match="^not your turn$"):
        GAME.apply(after_discard, {"seat": 2, "type": "discard", "position": "L1"})
    with pytest.raises(IllegalAction, match="^hand value 64 is above 10$"):
        GAME.apply(after_discard, {"seat": 1, "type": "doppio"})
    assert after_discard.window.card == "5"
