"""The rules core's fast representation against the plain rules it stands for: trick winners
from the strength tables, hands kept in one int, shared read-only legal actions."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.doppelkopf import GAME, engine
from app.games.doppelkopf.cards import deck
from app.games.doppelkopf.contracts import TRUMP, CardOrder, card_order
from app.games.doppelkopf.rules import EXTRA_SOLOS, STANDARD_SOLOS, Rules
from app.games.doppelkopf.state import Play, State
from app.games.doppelkopf.tricks import trick_winner

ORDERS = ["normal", *STANDARD_SOLOS, *EXTRA_SOLOS]


def plain_winner(plays: list[Play], order: CardOrder, rules: Rules, last_trick: bool) -> int:
    """The rule as written (DDV 2.x and the heart-ten house rules), card by card."""
    second_ten_wins = rules.heart_ten_second_beats_first and not (
        last_trick and rules.heart_ten_first_wins_last_trick)
    best = plays[0]
    for play in plays[1:]:
        suit, best_suit = order.suit_of[play.card], order.suit_of[best.card]
        if suit == best_suit:
            if order.power[play.card] > order.power[best.card] or (
                    second_ten_wins and play.card == best.card == "TH" and suit == TRUMP):
                best = play
        elif suit == TRUMP:
            best = play
    return best.seat


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.sampled_from(ORDERS), st.booleans(), st.booleans(), st.booleans(), st.booleans(),
       st.booleans(), st.integers(0, 2**32 - 1))
def test_the_strength_tables_pick_the_winner_the_rules_pick(name, nines, swines, second, first_last,
                                                            last, seed):
    order = card_order(name, nines, swines and name == "normal")
    rules = Rules(nines=nines, heart_ten_second_beats_first=second,
                  heart_ten_first_wins_last_trick=first_last)
    cards = deck(nines)
    rng = random.Random(seed)
    leader = rng.randrange(4)
    # tricks with both heart tens now and then, the case of the house rule
    picked = rng.sample(cards, 4) if rng.random() < 0.7 else ["TH", "TH", *rng.sample(cards, 2)]
    rng.shuffle(picked)
    plays = [Play((leader + i) % 4, card) for i, card in enumerate(picked)]
    assert trick_winner(plays, order, rules, last_trick=last) == plain_winner(plays, order, rules, last)


def _some_states(count: int) -> list[State]:
    rules = GAME.make_rules({"preset": "ddv", "poverty": True})
    rng = random.Random(7)
    states = []
    for _ in range(count):
        deal, deck_cards = GAME.deal(rules, 4, rng)
        for hand in deal:
            rng.shuffle(hand)  # a dealt hand in any order
        state = GAME.new_round(rules, 4, deal, deck_cards, rng.randrange(4))
        while state.to_move is not None:
            states.append(state)
            legal = GAME.legal_actions(state, state.to_move)
            state, _ = GAME.apply(state, rng.choice(legal))
        states.append(state)
    return states


def test_the_hands_read_as_if_each_played_card_were_removed_where_it_stands():
    for before in _some_states(20):
        if before.phase != "play" or before.to_move is None:
            continue
        seat = before.to_move
        card = engine.playable(before, seat)[0]
        after, _ = GAME.apply(before, {"seat": seat, "type": "play", "card": card})
        hand = list(before.hands[seat])
        hand.remove(card)
        assert after.hands[seat] == tuple(hand)
        assert [after.hands[other] for other in range(4) if other != seat] == [
            before.hands[other] for other in range(4) if other != seat]


def test_a_state_is_not_changed_by_what_is_made_from_it():
    states = _some_states(5)
    frozen = [json.dumps(GAME.state_json(state), sort_keys=True) for state in states]
    for state in states:  # apply every legal action of every seat again
        for seat in range(4):
            for action in GAME.legal_actions(state, seat):
                GAME.apply(state, action)
    assert [json.dumps(GAME.state_json(state), sort_keys=True) for state in states] == frozen


def test_legal_actions_are_shared_but_read_only_and_copies_are_plain_dicts():
    state = next(s for s in _some_states(1) if s.phase == "play")
    seat = state.to_move
    first = GAME.legal_actions(state, seat)
    again = GAME.legal_actions(state, seat)
    assert first == again and first is not again
    action = first[0]
    for change in (lambda a: a.__setitem__("card", "QC"), lambda a: a.update(card="QC"),
                   lambda a: a.pop("card"), lambda a: a.clear(), lambda a: a.setdefault("x", 1),
                   lambda a: a.popitem(), lambda a: a.__delitem__("card")):
        with pytest.raises(TypeError):
            change(action)
    assert GAME.legal_actions(state, seat) == first
    for plain in (dict(action), {**action}, copy.copy(action), copy.deepcopy(action),
                  pickle.loads(pickle.dumps(action))):
        assert type(plain) is dict and plain == action
        plain["card"] = "changed"
    assert json.loads(json.dumps(action)) == action
