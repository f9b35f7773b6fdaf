"""The arena: measure two bot levels against each other by duplicate play.

    python -m app arena --game doppelkopf --levels expert,intermediate --deals 2000 --seed 1

Each deal is played twice with the same cards: first level A in the even seats (0, 2) and
level B in the odd seats (1, 3), then the other way round, so both levels hold every hand.
A level's result for a deal is the mean score of its seats over both plays (the game's own
unit: Doppelkopf game points, Doublehead Kids coins, Doppelganger Tricks points, Doppio penalty
points, where lower is better). The report gives each level's mean per deal with a 95%
confidence interval (normal approximation over deals), and the time each decision took
(p50/p95 over every decision the level made at its own turn), and the difference A - B per
deal with its own 95% CI (the figure to read when a game is not zero-sum). The last line is
one JSON object.

Deals and bot randomness come from ``--seed`` only, so a run is reproducible; an expert with
a time budget is reproducible as long as its world cap (``--worlds``), not the clock, ends its
search (the arena's default budget is generous for that reason). Deals are spread over
``--workers`` processes.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from app.bots import LEVELS, UnknownBot, get_bot, legal_of
from app.games.registry import UnknownGame, get_game

#: players at the arena's table, per game
PLAYERS = {"doppelkopf": 4, "doublehead_kids": 4, "doppelganger_tricks": 4, "doppio": 4}
#: games whose score is a penalty (lower is better)
PENALTY_GAMES = {"doppio"}
MAX_ACTIONS = 5000


@dataclass
class DealResult:
    """One deal played twice: per level the mean score of its seats, and decision times (ms)."""

    index: int
    means: tuple[float, float]
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))


@dataclass(frozen=True)
class Setup:
    game: str
    levels: tuple[str, str]
    seed: int
    rules: dict[str, Any]
    budget_ms: int | None
    worlds: int | None


def _play(setup: Setup, index: int, swap: bool, deal: Any, deck: Any, dealer: int,
          times: tuple[list[float], list[float]]) -> list[float]:
    """Play one deal with level A in the even seats (odd seats when ``swap``); seat scores."""
    game = get_game(setup.game)
    rules = game.make_rules(setup.rules)
    players = PLAYERS[setup.game]
    side = [(seat % 2) ^ int(swap) for seat in range(players)]
    bots = [get_bot(setup.game, setup.levels[side[seat]], rules=setup.rules,
                    budget_ms=setup.budget_ms, worlds=setup.worlds) for seat in range(players)]
    rng = random.Random(f"{setup.seed}:{index}:{int(swap)}:bots")
    state = game.new_round(rules, players, deal, deck, dealer)
    out_of_turn = any(getattr(bot, "acts_out_of_turn", False) for bot in bots)
    for _ in range(MAX_ACTIONS):
        if game.is_over(state):
            break
        action = None
        if out_of_turn:
            movers = set(game.to_act(state))
            for seat in range(players):
                if seat in movers or not getattr(bots[seat], "acts_out_of_turn", False):
                    continue
                view = game.view(state, seat)
                if legal_of(view):
                    action = bots[seat].choose(view, rng)
                    if action is not None:
                        break
        if action is None:
            movers = game.to_act(state)
            seat = movers[0]
            view = game.view(state, seat)
            started = time.perf_counter()
            action = bots[seat].choose(view, rng)
            times[side[seat]].append((time.perf_counter() - started) * 1000.0)
            if action is None:
                raise RuntimeError(f"{setup.levels[side[seat]]} bot passed at its own turn")
        if action not in legal_of(game.view(state, action["seat"])):
            raise RuntimeError(f"bot chose an illegal action {action}")
        state, _ = game.apply(state, action)
    else:
        raise RuntimeError("deal did not end")
    return list(game.outcome(state).scores)


def play_deal(setup: Setup, index: int) -> DealResult:
    """Deal ``index`` of the run, played both ways round."""
    game = get_game(setup.game)
    rules = game.make_rules(setup.rules)
    players = PLAYERS[setup.game]
    deal, deck = game.deal(rules, players, random.Random(f"{setup.seed}:{index}:deal"))
    dealer = index % players
    totals = [0.0, 0.0]
    counts = [0, 0]
    times: tuple[list[float], list[float]] = ([], [])
    for swap in (False, True):
        scores = _play(setup, index, swap, deal, deck, dealer, times)
        for seat, value in enumerate(scores):
            level = (seat % 2) ^ int(swap)
            totals[level] += value
            counts[level] += 1
    return DealResult(index, (totals[0] / counts[0], totals[1] / counts[1]), times)


def _worker(job: tuple[Setup, int]) -> DealResult:
    return play_deal(*job)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% confidence interval (normal)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def summarize(levels: Sequence[str], results: Sequence[DealResult]) -> dict[str, Any]:
    """``levels``: per level mean per deal, 95% CI, decision time p50/p95 (ms);
    ``difference``: the mean of A - B per deal with its 95% CI."""
    summary: dict[str, Any] = {}
    for which, level in enumerate(levels):
        mean, half = mean_ci([r.means[which] for r in results])
        times = sorted(t for r in results for t in r.times[which])
        summary[level if level not in summary else f"{level}#2"] = {
            "mean": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "p50_ms": round(_percentile(times, 0.50), 2),
            "p95_ms": round(_percentile(times, 0.95), 2),
        }
    mean, half = mean_ci([r.means[0] - r.means[1] for r in results])
    return {"levels": summary,
            "difference": {"levels": f"{levels[0]}-{levels[1]}", "mean": round(mean, 4),
                           "ci95": [round(mean - half, 4), round(mean + half, 4)]}}


def deal_line(result: DealResult) -> str:
    """One line of ``--per-deal``: ``{"index": i, "means": [A, B]}``."""
    return json.dumps({"index": result.index, "means": list(result.means)})


def paired(results: Sequence[DealResult], lines: Sequence[str]) -> dict[str, Any]:
    """This run against an earlier one on the same deals (``--per-deal`` lines of a run with the
    same game and seed): the mean over the deals both played of (A - B here) - (A - B there),
    with its 95% CI. Pairing removes most of the cards' luck, so a change to a bot shows in a
    few hundred deals where two unpaired runs need thousands. Raises ValueError when no deal
    is common."""
    there = {}
    for line in lines:
        if line.strip():
            item = json.loads(line)
            there[int(item["index"])] = item["means"][0] - item["means"][1]
    diffs = [r.means[0] - r.means[1] - there[r.index] for r in results if r.index in there]
    if not diffs:
        raise ValueError("no deal of this run is in the other run's file")
    mean, half = mean_ci(diffs)
    return {"deals": len(diffs), "mean": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)]}


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(q * len(values)))]


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    elapsed = time.monotonic() - started
    eta = elapsed / done * (total - done) if done else 0.0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals "
                     f"{elapsed:6.0f}s elapsed, {eta:5.0f}s left")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(setup: Setup, deals: int, workers: int, progress: bool = True,
        per_deal: TextIO | None = None, against: Sequence[str] | None = None,
        first: int = 0, numbers: Sequence[int] | None = None) -> dict[str, Any]:
    """Play ``deals`` duplicate deals (numbers ``first`` to ``first + deals - 1`` of the seed:
    a long run can be played in parts and its ``per_deal`` files joined; or, with ``numbers``,
    those deals of the seed, ``deals`` being their count) and return the summary document.
    ``per_deal``: each deal's
    ``deal_line`` is written there as it finishes; ``against``: the lines of an earlier run's
    ``per_deal`` file, compared deal by deal (``paired``: the document's ``paired``).

    Interrupted (SIGINT, or SIGTERM through ``main``) after at least two deals, it stops and
    summarises the deals finished so far: ``deals`` is then their number and ``planned`` the
    number asked for.
    """
    chosen = list(numbers) if numbers is not None else range(first, first + deals)
    jobs = [(setup, index) for index in chosen]
    results: list[DealResult] = []
    started = time.monotonic()

    def finished(result: DealResult) -> None:
        results.append(result)
        if per_deal is not None:
            per_deal.write(deal_line(result) + "\n")
            per_deal.flush()
        if progress:
            _progress(len(results), deals, started)

    try:
        if workers <= 1:
            for job in jobs:
                finished(_worker(job))
        else:
            context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
            with context.Pool(workers) as pool:
                for result in pool.imap_unordered(_worker, jobs, chunksize=4):
                    finished(result)
    except KeyboardInterrupt:
        if len(results) < 2:
            raise
        sys.stderr.write(f"\nstopped: {len(results)} of {deals} deals played\n")
    results.sort(key=lambda r: r.index)
    document = {"game": setup.game, "deals": len(results), **summarize(setup.levels, results)}
    if len(results) < deals:
        document["planned"] = deals
    if against is not None:
        document["paired"] = paired(results, against)
    return document


def read_deal_list(path: str) -> list[int]:
    """The deal numbers in the file at ``path`` (``--deal-list``): one per line, blank lines
    and ``#`` comments skipped, each a number 0 or more, no repeats, at least two. Raises
    ValueError saying what is wrong with the file (or that it cannot be read)."""
    try:
        with open(path, encoding="utf-8") as listed:
            lines = listed.read().splitlines()
    except OSError as err:
        raise ValueError(str(err)) from err
    numbers: list[int] = []
    for count, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if not text.isdecimal():  # int() reads every such text ("²" is a digit, not a number)
            raise ValueError(f"line {count}: {text!r} is not a deal number")
        numbers.append(int(text))
    if len(set(numbers)) != len(numbers):
        raise ValueError("a deal number is listed twice")
    if len(numbers) < 2:
        raise ValueError("at least two deal numbers")
    return numbers


def _interrupt_on_term() -> None:
    """SIGTERM stops a run like Ctrl-C (it then reports the deals finished so far)."""
    main_pid = os.getpid()

    def handler(signum: int, frame: Any) -> None:
        if os.getpid() != main_pid:  # a pool worker being terminated: just end
            os._exit(128 + signum)
        raise KeyboardInterrupt

    if sys.platform != "win32":
        signal.signal(signal.SIGTERM, handler)


def main(args: argparse.Namespace) -> int:
    """``python -m app arena``: print per level mean, CI and times; last line JSON."""
    levels = tuple(part.strip() for part in args.levels.split(","))
    if len(levels) != 2 or any(level not in LEVELS for level in levels):
        print(f"--levels: two of {', '.join(LEVELS)}, comma-separated", file=sys.stderr)
        return 2
    try:
        get_game(args.game)
        get_bot(args.game, levels[0])
    except (UnknownGame, UnknownBot):
        print(f"--game: no game with bots named {args.game!r}", file=sys.stderr)
        return 2
    if args.game not in PLAYERS:
        print(f"--game: the arena does not know {args.game!r}", file=sys.stderr)
        return 2
    if args.deals < 2:
        print("--deals: at least 2", file=sys.stderr)
        return 2
    first = getattr(args, "first", 0) or 0
    if first < 0:
        print("--first: a deal number, 0 or more", file=sys.stderr)
        return 2
    numbers: list[int] | None = None
    if getattr(args, "deal_list", None):
        if first:
            print("--first and --deal-list: one or the other", file=sys.stderr)
            return 2
        try:
            numbers = read_deal_list(args.deal_list)
        except ValueError as err:
            print(f"--deal-list: {err}", file=sys.stderr)
            return 2
        args.deals = len(numbers)
    rules: dict[str, Any] = {"preset": args.preset} if args.preset else {}
    try:
        get_game(args.game).make_rules(rules)
    except ValueError as err:
        print(f"--preset: {err}", file=sys.stderr)
        return 2
    setup = Setup(args.game, levels, args.seed, rules, args.budget_ms, getattr(args, "worlds", None))
    workers = getattr(args, "workers", None) or 2
    against = None
    if getattr(args, "paired_with", None):
        try:
            with open(args.paired_with, encoding="utf-8") as earlier:
                against = earlier.read().splitlines()
        except OSError as err:
            print(f"--paired-with: {err}", file=sys.stderr)
            return 2
    _interrupt_on_term()
    per_deal = open(args.per_deal, "w", encoding="utf-8") if getattr(args, "per_deal", None) else None
    try:
        summary = run(setup, args.deals, workers, progress=not getattr(args, "quiet", False),
                      per_deal=per_deal, against=against, first=first, numbers=numbers)
    except ValueError as err:
        print(f"--paired-with: {err}", file=sys.stderr)
        return 2
    finally:
        if per_deal is not None:
            per_deal.close()
    penalty = " (penalty points: lower is better)" if args.game in PENALTY_GAMES else ""
    stopped = f" (stopped early: {args.deals} planned)" if "planned" in summary else ""
    which = (f" (deals listed in {args.deal_list})" if numbers is not None
             else f" (deals {first} to {first + args.deals - 1})" if first else "")
    print(f"{args.game}: {summary['deals']} duplicate deals, seed {args.seed}{which}{penalty}{stopped}")
    for level, item in summary["levels"].items():
        lo, hi = item["ci95"]
        print(f"  {level:<13} mean {item['mean']:+.3f} per deal  95% CI [{lo:+.3f}, {hi:+.3f}]  "
              f"decision p50 {item['p50_ms']:.1f} ms  p95 {item['p95_ms']:.1f} ms")
    diff = summary["difference"]
    lo, hi = diff["ci95"]
    print(f"  {diff['levels']}: {diff['mean']:+.3f} per deal  95% CI [{lo:+.3f}, {hi:+.3f}]")
    if "paired" in summary:
        pair = summary["paired"]
        lo, hi = pair["ci95"]
        print(f"  paired with {args.paired_with}: {diff['levels']} here minus there "
              f"{pair['mean']:+.3f} per deal  95% CI [{lo:+.3f}, {hi:+.3f}] over {pair['deals']} deals")
    print(json.dumps(summary))
    return 0
