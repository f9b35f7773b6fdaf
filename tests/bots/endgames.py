"""Endgame positions for the solver tests: random deals played to the last tricks, and a
position read from a real engine state (the tests may look at every hand; the bots never do)."""

from __future__ import annotations

import random
from typing import Any

from app.bots.doppelkopf.endgame import make_position
from app.bots.doppelkopf.solver import Position
from app.games.doppelkopf import GAME
from app.games.doppelkopf.rules import STANDARD_SOLOS
from app.games.doppelkopf.state import KONTRA, RE, State


def random_endgame(rules: Any, rng: random.Random, tricks_left: int, game: Any = GAME) -> State:
    """A deal (normal game or a random solo, random announcements) played at random until
    ``tricks_left`` tricks are left and a random number of cards of the current trick."""
    deal, deck = game.deal(rules, 4, rng)
    state = game.new_round(rules, 4, deal, deck, rng.randrange(4))
    solo = rng.choice(STANDARD_SOLOS) if rng.random() < 0.3 else None
    while state.phase == "declare":
        seat = state.to_move
        legal = [a["value"] for a in game.legal_actions(state, seat)]
        value = solo if solo in legal and seat == state.first_seat else "healthy"
        state, _ = game.apply(state, {"seat": seat, "type": "declare", "value": value})
    if state.phase != "play":
        return random_endgame(rules, rng, tricks_left, game)
    stop = rules.hand_size - tricks_left
    cards_now = rng.randrange(4) if tricks_left else 0
    while len(state.tricks) < stop or len(state.trick) < cards_now:
        if state.phase != "play":
            return random_endgame(rules, rng, tricks_left, game)
        legal = game.legal_actions(state, state.to_move)
        if rng.random() < 0.04:
            for seat in range(4):
                offered = [a for a in game.legal_actions(state, seat) if a["type"] == "announce"]
                if offered:
                    state, _ = game.apply(state, rng.choice(offered))
                    break
        legal = [a for a in game.legal_actions(state, state.to_move) if a["type"] == "play"]
        state, _ = game.apply(state, rng.choice(legal))
    return state


def position_of(state: State) -> Position:
    """The solver position of an engine state in the play (every hand known)."""
    assert state.re_party is not None
    party = [RE if p else KONTRA for p in state.re_party]
    return make_position(state.rules, state.order, state.contract or "normal", party, state.hands,
                         [(p.seat, p.card) for p in state.trick], state.leader, state.tricks,
                         state.levels, state.announcements)
