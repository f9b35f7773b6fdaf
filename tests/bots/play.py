"""Playing whole rounds with bots at every seat (shared by the bot tests)."""

from __future__ import annotations

import json
import random
from typing import Any

from app.bots import get_bot, legal_of
from app.games.registry import get_game

PLAYERS = 4


def play_round(game_name: str, level: str, seed: int, rules: dict[str, Any] | None = None,
               **options: Any) -> tuple[Any, int]:
    """Deal with ``seed`` and play one round with ``level`` bots at every seat.

    Every action a bot returns is checked against its view's legal actions (AssertionError
    otherwise); out-of-turn actions are offered to every seat after each action. Returns the
    final state and the number of bot decisions.
    """
    game = get_game(game_name)
    raw = rules or {}
    parsed = game.make_rules(raw)
    rng = random.Random(seed)
    deal, deck = game.deal(parsed, PLAYERS, rng)
    state = game.new_round(parsed, PLAYERS, deal, deck, seed % PLAYERS)
    bots = [get_bot(game_name, level, rules=raw, **options) for _ in range(PLAYERS)]
    decisions = 0
    for _ in range(3000):
        if game.is_over(state):
            return state, decisions
        action = None
        movers = game.to_act(state)
        for seat in [s for s in range(PLAYERS) if s not in movers] + list(movers):
            view = game.view(state, seat)
            legal = legal_of(view)
            if not legal:
                continue
            action = bots[seat].choose(view, rng)
            decisions += 1
            if action is None:
                assert seat not in movers, f"{level} bot passed at its own turn"
                continue
            assert action in legal, (level, action, legal)
            json.dumps(action)
            break
        assert action is not None, "nobody acted"
        state, _ = game.apply(state, action)
    raise AssertionError("round did not end")
