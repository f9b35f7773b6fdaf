"""Build tests/scenarios/analysis/thrown_away.json: a Doppelkopf deal that seat 0 throws away.

Four expert bots (exact in the last three tricks) play deals from fixed seeds. Then, for each
of seat 0's cards in the last three tricks, every other card it could have played is tried,
the deal played on by the same bots; the scenario keeps the one change, over all seeds, that
costs seat 0 the most of a won normal game (a won deal lost), with the bots' continuation. Run from the repository root:

    .venv/bin/python -m tests.analysis.build_blunder
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.bots import get_bot
from app.games.registry import get_game

OUT = Path(__file__).parents[1] / "scenarios" / "analysis" / "thrown_away.json"
SEAT = 0
RULES = {"preset": "ddv"}


def play_on(game, rules, state, actions, bot, rng):
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = bot.choose(game.view(state, seat), rng)
        state, _ = game.apply(state, action)
        actions.append(action)
    return state


def build(seed: int):
    game = get_game("doppelkopf")
    rules = game.make_rules(RULES)
    deal, _ = game.deal(rules, 4, random.Random(seed))
    bot = get_bot("doppelkopf", "expert", rules=RULES, budget_ms=10_000, worlds=12)
    start = game.new_round(rules, 4, deal, [], 3)
    actions: list[dict] = []
    end = play_on(game, rules, start, actions, bot, random.Random(seed))
    base = game.outcome(end).scores[SEAT]
    if base <= 0 or game.outcome(end).details["contract"] != "normal":
        return None
    best = None
    for cut, action in enumerate(actions):
        if action["seat"] != SEAT or action["type"] != "play":
            continue
        state = start
        for done in actions[:cut]:
            state, _ = game.apply(state, done)
        if len(state.tricks) < 9:
            continue
        for other in game.legal_actions(state, SEAT):
            if other["type"] != "play" or other == action:
                continue
            tail = [other]
            after, _ = game.apply(state, other)
            end = play_on(game, rules, after, tail, bot, random.Random(seed))
            score = game.outcome(end).scores[SEAT]
            if score < 0 and (best is None or score < best[0]):
                best = (score, actions[:cut] + tail, cut)
    return None if best is None else (base, *best)


def main() -> None:
    found_best = None
    for seed in range(1, 25):
        found = build(seed)
        if found is not None and (found_best is None or found[0] - found[1] > found_best[1][0] - found_best[1][1]):
            found_best = (seed, found)
    if found_best is not None:
        seed, (base, score, actions, cut) = found_best
        game = get_game("doppelkopf")
        deal, _ = game.deal(game.make_rules(RULES), 4, random.Random(seed))
        doc = {"game": "doppelkopf", "rules": RULES, "players": 4,
               "rounds": [{"dealer": 3, "deal": deal, "actions": actions}]}
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"seed {seed}: seat {SEAT} scores {base} as played, {score} after action {cut}")
        return


if __name__ == "__main__":
    main()
