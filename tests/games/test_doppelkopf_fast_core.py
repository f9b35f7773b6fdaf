"""The rules core's fast representation against the plain rules it stands for: trick winners
from the strength tables, hands kept as card sets, shared read-only legal actions and events,
the standing shared between states, the announcement windows, the inline shuffle."""

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
from app.games.doppelkopf.modes import shuffle
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


def test_the_dealt_order_is_the_order_of_random_shuffle():
    """deal_hands shuffles with Random.shuffle's own algorithm written inline: the same cards
    in the same order from the same generator (a new Python whose shuffle differs fails here)."""
    for nines in (True, False):
        for seed in range(300):
            ours, theirs = deck(nines), deck(nines)
            shuffle(ours, random.Random(seed))
            random.Random(seed).shuffle(theirs)
            assert ours == theirs

    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    cards = deck(True)
    shuffle(cards, Counting(1))
    assert Counting.calls == 1  # another generator shuffles itself


def test_a_state_shares_its_standing_until_a_field_of_it_changes():
    states = _some_states(3)
    plays = [(before, after) for before, after in zip(states, states[1:], strict=False)
             if before.phase == after.phase == "play" and len(after.tricks) == len(before.tricks)
             and after.announcements == before.announcements]
    assert plays and all(after.standing is before.standing for before, after in plays)
    state = plays[0][1]
    before = json.dumps(GAME.state_json(plays[0][0]), sort_keys=True)
    state.contract = "solo_queens"  # a field of the standing, set from outside: a copy
    assert state.contract == "solo_queens" and plays[0][0].contract != "solo_queens"
    assert json.dumps(GAME.state_json(plays[0][0]), sort_keys=True) == before


def test_the_played_and_declared_events_are_shared_but_read_only():
    state = GAME.new_round(GAME.make_rules({}), 4, *GAME.deal(GAME.make_rules({}), 4, random.Random(3)), 0)
    state, (declared,) = GAME.apply(state, {"seat": 1, "type": "declare", "value": "healthy"})
    assert declared == {"type": "declared", "seat": 1, "value": "healthy"}
    for _ in range(3):
        state, _ = GAME.apply(state, {"seat": state.to_move, "type": "declare", "value": "healthy"})
    action = GAME.legal_actions(state, state.to_move)[0]
    _, events = GAME.apply(state, action)
    _, again = GAME.apply(state, dict(action))
    assert events[0] is again[0] and events[0] == {**action, "type": "played"}
    with pytest.raises(TypeError):
        events[0]["card"] = "QC"
    assert type(copy.copy(events[0])) is dict and json.loads(json.dumps(events[0])) == events[0]


RULE_SETS = [{}, {"preset": "gametwist_pub"}, {"preset": "gametwist", "table_mode": "duel"},
             {"wedding_clarification": "first_trump", "nines": False},
             {"wedding_clarification": "named"}, {"poverty": True, "swines": True}]


@pytest.mark.parametrize("raw", RULE_SETS)
def test_the_announcements_offered_are_the_levels_allowed(raw):
    """legal_actions offers announcements from each seat's window (State.windows, a bound kept
    on the state) and ann.lowest_on_time: the same as the rule, ann.allowed_levels, asked of
    every seat in every state."""
    from app.games.doppelkopf import announcements as ann

    rules = GAME.make_rules(raw)
    rng = random.Random(11)
    for _ in range(40):
        state = GAME.new_round(rules, 4, *GAME.deal(rules, 4, rng), rng.randrange(4))
        while state.to_move is not None:
            for seat in range(4):
                levels, _ = ann.allowed_levels(state, seat)
                if engine.is_computer_seat(rules, seat):  # duel mode: computers announce nothing
                    levels = []
                party = state.party_of(seat)
                expected = [ann.value_of(party, level) for level in levels]  # type: ignore[arg-type]
                offered = [a["value"] for a in GAME.legal_actions(state, seat) if a["type"] == "announce"]
                assert offered == expected
                if levels:
                    assert state.windows[seat] >= len(state.tricks)
            legal = GAME.legal_actions(state, state.to_move)
            state, _ = GAME.apply(state, rng.choice(legal))
