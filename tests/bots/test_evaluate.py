"""evaluate(view, rules, budget): the expert's expected score of every legal action."""

from __future__ import annotations

import random

from app.bots.doppelkopf.evaluate import action_key, evaluate
from app.games.doppelkopf import GAME
from app.games.doublehead_kids import GAME as KIDS
from tests.bots.endgames import random_endgame


def _own_turn_view(game, rules, seed: int, tricks_left: int):
    state = random_endgame(rules, random.Random(seed), tricks_left, game)
    return state, game.view(state, state.to_move)


def test_every_playable_card_gets_a_value_from_the_view_alone():
    rules = GAME.make_rules({})
    for seed in range(6):
        state, view = _own_turn_view(GAME, rules, seed, 5)
        values = evaluate(view, rules, 2000, worlds=8, rng=random.Random(1))
        legal = [action_key(a) for a in view["legal"]]
        assert set(values) == set(legal)
        assert all(-30 <= v <= 30 for v in values.values())
        # the same view (and rng) gives the same values: nothing but the view is read
        assert evaluate(dict(view), rules, 2000, worlds=8, rng=random.Random(1)) == values


def test_a_solved_endgame_has_one_exact_value_per_card():
    """With one world's uncertainty gone (the last trick: every card is forced), the value of
    the only card is the deal's real score for the seat."""
    rules = GAME.make_rules({})
    state, view = _own_turn_view(GAME, rules, 3, 1)
    while len(state.trick) < 3:
        card = next(a for a in GAME.legal_actions(state, state.to_move) if a["type"] == "play")
        state, _ = GAME.apply(state, card)
    view = GAME.view(state, state.to_move)
    values = evaluate(view, rules, 1000, worlds=4)
    (key,) = values
    final, _ = GAME.apply(state, {"seat": state.to_move, "type": "play", "card": key.split(":")[1]})
    assert values[key] == GAME.outcome(final).scores[state.to_move]


def test_declarations_and_kids_coins():
    rules = GAME.make_rules({})
    deal, _ = GAME.deal(rules, 4, random.Random(4))
    state = GAME.new_round(rules, 4, deal, [], 0)
    view = GAME.view(state, 1)
    values = evaluate(view, rules, 3000, worlds=4)
    assert "declare:healthy" in values and "declare:solo_queens" in values
    kids = KIDS.make_rules({})
    state, view = _own_turn_view(KIDS, kids, 2, 4)
    values = evaluate(view, kids, 2000, worlds=6)
    assert values and all(-6 <= v <= 6 for v in values.values())


def test_not_at_its_turn_there_is_nothing_to_evaluate():
    rules = GAME.make_rules({})
    state, _ = _own_turn_view(GAME, rules, 5, 6)
    other = (state.to_move + 1) % 4
    assert evaluate(GAME.view(state, other), rules, 100, worlds=4) == {}
