"""Properties of random legal Doppio rounds for 2, 3 and 4 players (hypothesis).

A random round picks, at every step, one action among every seat's legal actions, or (while a
catch window is open) the room's deadline close. At every step: the 48 cards are conserved, the
hand values agree with an independent formula, no view changes when other seats' hidden cards
and the deck are shuffled, and an action outside legal_actions is refused without a change.
At the end, replaying the actions gives the same outcome, also through the scenario format.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.base import IllegalAction
from app.games.doppio import GAME
from app.games.doppio.cards import face_value, full_deck
from app.games.doppio.layout import POSITIONS
from app.scenario import load_scenario, replay

CLOSE = {"type": "close_catch_window"}  # marks the room's deadline close in an action log
FULL_DECK = Counter(full_deck())
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def every_action(players):
    """Every action any seat could ever send, plus malformed ones."""
    kinds = [{"type": "discard", "position": position} for position in POSITIONS]
    kinds += [{"type": "doppio"}, {"type": "catch"}, {"type": "pass"}, {"type": "discard", "position": "L4"},
              {"type": "shuffle"}]
    return [{"seat": seat, **kind} for seat in range(players) for kind in kinds]


def cards_on_table(state):
    cards = list(state.deck) + list(state.dead) + [card for card in state.held if card is not None]
    cards += [card for hand in state.hands for card in hand]
    if state.window is not None:
        cards.append(state.window.card)
    return Counter(cards)


def value_by_face_sum(hand):
    """Hand value as: every face value, minus both cards of each equal pair."""
    pairs = [(hand[2], hand[3]), (hand[1], hand[4]), (hand[0], hand[5])]
    return sum(face_value(card) for card in hand) - sum(2 * face_value(a) for a, b in pairs if a == b)


def shuffled_hidden(state, seat, rng):
    """The same table as ``seat`` sees it, with every other hand and the deck reshuffled."""
    others = [other for other in range(state.players) if other != seat]
    hidden = list(state.deck) + [card for other in others for card in state.hands[other]]
    rng.shuffle(hidden)
    hands = list(state.hands)
    for index, other in enumerate(others):
        hands[other] = tuple(hidden[6 * index : 6 * index + 6])
    return replace(state, hands=tuple(hands), deck=tuple(hidden[6 * len(others) :]))


def check_step(state, rng):
    assert cards_on_table(state) == FULL_DECK
    assert [GAME.view(state, seat)["hand_value"] for seat in range(state.players)] == [
        value_by_face_sum(hand) for hand in state.hands]
    if state.window is not None:
        assert state.window.waiting()
    if not state.over:
        assert state.deck
        for seat in [*range(state.players), None]:
            assert GAME.view(shuffled_hidden(state, seat, rng), seat) == GAME.view(state, seat)
    legal = [action for seat in range(state.players) for action in GAME.legal_actions(state, seat)]
    before = GAME.state_json(state)
    for action in every_action(state.players):
        if action not in legal:
            with pytest.raises(IllegalAction):
                GAME.apply(state, action)
    assert GAME.state_json(state) == before


def sensible_discard(state, legal):
    """The turn seat's discard of its costliest unpaired card (a plausible player's move)."""
    hand = state.hands[state.turn]
    mirror = {index: 5 - index for index in range(6)}
    costs = [(face_value(hand[i]) if hand[i] != hand[mirror[i]] else -99, POSITIONS[i]) for i in range(6)]
    position = max(costs)[1]
    return next(action for action in legal if action.get("position") == position and action["seat"] == state.turn)


def choose(state, rng):
    """A random legal action, a deadline close, or (often) a sensible discard or Doppio."""
    legal = [action for seat in range(state.players) for action in GAME.legal_actions(state, seat)]
    doppio = [action for action in legal if action["type"] == "doppio"]
    if doppio and rng.random() < 0.3:
        return rng.choice(doppio)
    if state.window is not None and rng.random() < 0.15:
        return CLOSE
    if rng.random() < 0.5:
        return sensible_discard(state, legal)
    return rng.choice(legal)


def step(state, action):
    if action is CLOSE:
        return GAME.close_catch_window(state)[0]
    return GAME.apply(state, action)[0]


def play(players, rng, *, check):
    """Play one random round to its end; return the deal, deck, dealer, action log and state."""
    deal, deck = GAME.deal(GAME.make_rules({}), players, rng)
    dealer = rng.randrange(players)
    state = GAME.new_round(GAME.make_rules({}), players, deal, deck, dealer)
    log = []
    while not state.over:
        if check:
            check_step(state, rng)
        action = choose(state, rng)
        log.append(action)
        state = step(state, action)
    if check:
        check_step(state, rng)
    return deal, deck, dealer, log, state


@pytest.mark.parametrize("players", [2, 3, 4])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_rounds_keep_every_invariant(players, seed):
    *_, state = play(players, random.Random(seed), check=True)
    assert GAME.outcome(state).finished


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_replaying_the_actions_gives_the_same_outcome(players, seed):
    deal, deck, dealer, log, state = play(players, random.Random(seed), check=False)
    again = GAME.new_round(GAME.make_rules({}), players, deal, deck, dealer)
    for action in log:
        again = step(again, action)
    assert again == state
    document = {"game": "doppio", "players": players,
                "rounds": [{"dealer": dealer, "deal": deal, "deck": deck,
                            "actions": [action for action in log if action is not CLOSE]}]}
    round_json = replay(load_scenario(document))["rounds"][0]
    outcome = GAME.outcome(state)
    assert round_json == {"finished": True, "scores": list(outcome.scores), "details": outcome.details}
