"""The intermediate Doppelkopf bot in three situations a club player gets right.

Each situation is a real deal: a scenario prefix (tests/scenarios/bots/) replayed with
app.scenario up to the bot's decision; the bot gets only that seat's view.
"""

from __future__ import annotations

import json
import random

from app.bots import get_bot
from app.bots.doppelkopf.table import Table
from app.games.doppelkopf import GAME
from app.scenario import load_scenario, play_round
from tests.conftest import SCENARIOS


def situation(name: str):
    """The state after the scenario's actions, the seat to move and its view."""
    document = json.loads((SCENARIOS / "bots" / f"doppelkopf_{name}.json").read_text())
    scenario = load_scenario(document)
    state, _ = play_round(scenario, 0)
    seat = GAME.to_act(state)[0]
    return scenario, state, seat, GAME.view(state, seat)


def choose(view):
    return get_bot("doppelkopf", "intermediate").choose(view, random.Random(0))


def _table(scenario, view) -> Table:
    return Table.from_view(view, scenario.rules)


def test_takes_a_trick_holding_an_opponents_fox_when_it_can():
    scenario, state, seat, view = situation("fox")
    table = _table(scenario, view)
    best = table.current_best()
    assert len(view["trick"]) == 3 and "AD" in [p["card"] for p in view["trick"]]
    fox_seat = next(p["seat"] for p in view["trick"] if p["card"] == "AD")
    assert view["parties"].get(str(fox_seat)) != view["parties"][str(seat)]
    plays = [a["card"] for a in view["legal"] if a["type"] == "play"]
    assert any(not table.beats(card, best[1], False) for card in plays)  # it could duck
    action = choose(view)
    assert action["type"] == "play" and table.beats(action["card"], best[1], False)
    after, _ = GAME.apply(state, action)
    assert after.tricks[-1].winner == seat


def test_does_not_trump_over_its_known_partners_winning_trick():
    scenario, state, seat, view = situation("partner")
    table = _table(scenario, view)
    best = table.current_best()
    assert view["parties"][str(best[0])] == view["parties"][str(seat)]  # a known partner
    plays = [a["card"] for a in view["legal"] if a["type"] == "play"]
    assert any(table.beats(card, best[1], False) for card in plays)  # it could over-trump
    action = choose(view)
    assert action["type"] == "play" and not table.beats(action["card"], best[1], False)
    after, _ = GAME.apply(state, action)
    assert after.tricks[-1].winner == best[0]


def test_keeps_charlie_for_the_last_trick_and_wins_it():
    scenario, state, seat, view = situation("charlie")
    assert sorted(view["hand"]) != ["JC"] and "JC" in view["hand"] and len(view["hand"]) == 2
    action = choose(view)
    assert action["card"] != "JC"
    state, _ = GAME.apply(state, action)
    bots = [get_bot("doppelkopf", "intermediate") for _ in range(4)]
    rng = random.Random(1)
    while not GAME.is_over(state):
        mover = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, bots[mover].choose(GAME.view(state, mover), rng))
    last = state.tricks[-1]
    assert last.winner == seat
    assert next(p.card for p in last.plays if p.seat == seat) == "JC"
    reasons = [line["reason"] for line in GAME.outcome(state).details["score_lines"]]
    assert "charlie" in reasons
