"""A bot receives only the view: plain JSON data that holds no reference to the game state.

Each bot of every game and level is given views from real rounds; each view must be made of
JSON values only (dict, list, str, int, float, bool, None), and the bot must choose the same
action from a JSON copy of the view (serialised and parsed again, so nothing can lead back to
a state object) as from the original.
"""

from __future__ import annotations

import json
import random

import pytest

from app.bots import LEVELS, UnknownBot, get_bot, legal_of
from app.games.registry import get_game

JSON_TYPES = (dict, list, str, int, float, bool, type(None))


def plain(value) -> bool:
    if not isinstance(value, JSON_TYPES):
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return True


def views_of_a_round(game_name: str, seed: int):
    """(seat, view) at each of the first decisions of a round played by intermediate bots."""
    game = get_game(game_name)
    rules = game.make_rules({})
    rng = random.Random(seed)
    deal, deck = game.deal(rules, 4, rng)
    state = game.new_round(rules, 4, deal, deck, 0)
    bot = get_bot(game_name, "intermediate")
    for _ in range(40):
        if game.is_over(state):
            return
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        yield seat, view
        state, _ = game.apply(state, bot.choose(view, rng))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", ["doppelkopf", "doublehead_kids", "doppelganger_tricks", "doppio"])
def test_bot_chooses_from_plain_json_view_alone(game, level):
    bot = get_bot(game, level, budget_ms=5, worlds=3)
    checked = 0
    for _seat, view in views_of_a_round(game, 3):
        assert plain(view), "the view holds a non-JSON object"
        copy = json.loads(json.dumps(view))
        first = bot.choose(view, random.Random(11))
        second = bot.choose(copy, random.Random(11))
        assert first == second
        assert first in legal_of(view)
        checked += 1
    assert checked >= 20


def test_view_never_shows_other_hands():
    game = get_game("doppelkopf")
    rules = game.make_rules({})
    deal, _ = game.deal(rules, 4, random.Random(5))
    state = game.new_round(rules, 4, deal, [], 0)
    view = game.view(state, 1)
    text = json.dumps(view)
    assert view["hand"] == sorted(deal[1], key=state.order.sort_key)
    assert '"hands"' not in text and '"deal"' not in text


def test_unknown_level_and_game_are_refused():
    with pytest.raises(UnknownBot):
        get_bot("doppelkopf", "grandmaster")
    with pytest.raises(UnknownBot):
        get_bot("skat", "beginner")

