"""Benchmark of the post-game analysis as the site runs it: per game, a whole match of one seat.

For each game a match is played by computer players (``--level``, seeded), then seat 0's
analysis runs exactly as the site runs it (app.analysis.schedule.analyse_match: the time plan,
the jobs in a process pool of ``--workers`` forkserver workers, the site's default budget and
sampled deals). Printed per game: the seat's decisions, decisions valued per second, the time
to the first result (the first deal's decisions, with its costliest ones), the whole time, the
match's thinking budget (``BOT_BUDGET_MS`` per action of any seat that had a choice) and the
whole time as a share of twice that budget (the target: at most 1.0), and the first result's
target (10 s).

    .venv/bin/python benchmarks/analysis.py [--games doppio,doppelkopf] [--seed 1]

The last line is one JSON object with the same figures per game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.analysis.schedule import ALLOWANCE, FIRST_RESULT_S, analyse_match  # noqa: E402
from app.bots import get_bot, legal_of  # noqa: E402
from app.config import Settings  # noqa: E402
from app.games.registry import get_game  # noqa: E402
from app.rooms.match import MatchProgress, RoundRecord  # noqa: E402

#: the games and their table sizes and deals (0: the game's own end)
GAMES = {"doppelkopf": (4, 4), "doublehead_kids": (4, 0), "doppelganger_tricks": (4, 0),
         "doppio": (4, 0)}


def play_match(name: str, players: int, deals: int, seed: int, level: str) -> dict[str, Any]:
    """A whole match of ``name`` played by computer players of ``level``, as a scenario
    document (the site's match download)."""
    game = get_game(name)
    rules = game.make_rules({})
    rng = random.Random(seed)
    bot = get_bot(name, level, rules=game.rules_json(rules))
    progress = MatchProgress(game, rules, players, deals)
    while not progress.match_over():
        deal, deck = game.deal(rules, players, rng)
        progress.begin_round(RoundRecord(len(progress.rounds), progress.next_dealer(), deal, deck))
        while not progress.round_over():
            state = progress.state
            waiting = list(game.to_act(state))
            for seat in waiting + [s for s in range(players) if s not in waiting]:
                view = game.view(state, seat)
                action = bot.choose(view, rng) if legal_of(view) else None
                if action is not None:
                    new_state, _ = game.apply(state, action)
                    progress.commit_action(action, new_state)
                    break
            else:  # a catch window nobody answers closes (not logged, as at a table)
                progress.state, _ = game.close_catch_window(state)
    return progress.scenario()


async def measure(name: str, seed: int, level: str, pool: ProcessPoolExecutor,
                  settings: Settings) -> dict[str, Any]:
    players, deals = GAMES[name]
    scenario = play_match(name, players, deals, seed, level)
    loop = asyncio.get_running_loop()
    marks: dict[str, float] = {}
    started = time.perf_counter()

    async def run(fn, *args):
        return await loop.run_in_executor(pool, fn, *args)

    async def first(_doc: dict[str, Any]) -> None:
        marks["first"] = time.perf_counter() - started

    doc = await analyse_match(scenario, 0, seed=seed, budget_ms=settings.analysis_budget_ms,
                              worlds=settings.analysis_worlds, thinking_ms=settings.bot_budget_ms,
                              parallel=pool._max_workers, run=run, first=first)
    whole = time.perf_counter() - started
    from app.analysis.decisions import choices_in
    from app.scenario import load_scenario

    choices = choices_in(load_scenario(scenario))
    thinking = choices * settings.bot_budget_ms / 1000.0
    decisions = len(doc["decisions"])
    return {"game": name, "rounds": len(scenario["rounds"]), "decisions": decisions,
            "decisions_per_s": round(decisions / whole, 2),
            "first_result_s": round(marks.get("first", whole), 2), "whole_s": round(whole, 2),
            "thinking_budget_s": round(thinking, 1),
            "share_of_allowance": round(whole / (ALLOWANCE * thinking), 3)}


async def main(args: argparse.Namespace) -> int:
    settings = Settings()
    pool = ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("forkserver"))
    try:
        # the workers start (and import the games) before anything is timed, as on a site
        # that has been serving tables for a while
        list(pool.map(get_game, list(GAMES) * args.workers))
        results = []
        for name in args.games.split(","):
            result = await measure(name, args.seed, args.level, pool, settings)
            results.append(result)
            print(f"{name:20} {result['decisions']:4} decisions  {result['decisions_per_s']:6.2f}/s  "
                  f"first result {result['first_result_s']:5.1f} s (target {FIRST_RESULT_S:.0f})  "
                  f"whole {result['whole_s']:6.1f} s  thinking budget {result['thinking_budget_s']:6.1f} s  "
                  f"share of {ALLOWANCE:.0f}x budget {result['share_of_allowance']:.2f}", flush=True)
    finally:
        pool.shutdown()
    print(json.dumps({"workers": args.workers, "budget_ms": settings.analysis_budget_ms,
                      "worlds": settings.analysis_worlds, "results": results}))
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="intermediate", help="the computer players of the match")
    parser.add_argument("--workers", type=int, default=2, help="the pool's workers (the site: one per core)")
    sys.exit(asyncio.run(main(parser.parse_args())))
