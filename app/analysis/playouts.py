"""The game-agnostic estimator: every legal action played out over sampled worlds.

For a view, each of ``worlds`` worlds (app.analysis.worlds: hidden cards that fit the view) is
played on by the game's rules core once per legal action of the seat: the action, then every
seat (the analysed one too) moves as the game's ``intermediate`` bot decides from its own view,
until the round ends. An action's value is its mean score for the seat (the round's
``outcome.scores``) over the same worlds, so actions are compared on common random numbers.
Works for any game with a world sampler and bots; used for the games whose expert has no
``evaluate()`` of its own.

Sampling stops at ``worlds`` worlds, at the time budget (after ``MIN_WORLDS``), or once the
choice is settled (from ``SETTLE_MIN_WORLDS``, as the expert's card search decides it:
app.bots.doppelkopf.search.settled, with the estimator's tolerance as the difference too small
to matter): the deals go to the close decisions, not the clear ones. Each playout leaves a
fact (app.analysis.facts) for the reasons.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.analysis.estimate import Estimate, action_key
from app.analysis.facts import READERS, Fact
from app.analysis.worlds import SAMPLERS, Sampler
from app.bots import Bot, get_bot, legal_of
from app.bots.doppelkopf.search import settled
from app.games.base import Game
from app.games.registry import get_game

MIN_WORLDS = 4
SETTLE_MIN_WORLDS = 12  # a decision may stop early (settled) from this many worlds
SETTLE_EVERY = 4  # ... and asks whether it is settled after every this many
PLAYOUT_LEVEL = "intermediate"
MAX_STEPS = 5000  # a playout that does not end is a bug in a rules core or bot


class PlayoutStuck(RuntimeError):
    """No seat would act in a playout (a rules core or bot that cannot go on)."""


def play_out(game: Game, state: Any, bot: Bot, rng: random.Random, players: int) -> Any:
    """Play ``state`` to the end of the round with ``bot`` for every seat; return the end state.

    The seats the game waits for are asked first, then any other seat with a legal action
    (bonus cards, catches); an open catch window nobody answers is closed as when its time
    runs out. Raises PlayoutStuck when nothing can move.
    """
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return state
        waiting = list(game.to_act(state))
        for seat in waiting + [s for s in range(players) if s not in waiting]:
            view = game.view(state, seat)
            if not legal_of(view):
                continue
            action = bot.choose(view, rng)
            if action is not None:
                state, _ = game.apply(state, action)
                break
        else:
            closer = game.traits.close_catch_window
            if closer is None:
                raise PlayoutStuck(game.name)
            state, _ = closer(state)
    raise PlayoutStuck(game.name)


@dataclass(frozen=True)
class PlayoutEstimator:
    """Playouts of every legal action over sampled worlds (see the module docstring)."""

    game: str
    unit: str
    lower_is_better: bool
    tolerance: float
    what: tuple[str, ...]
    sampler: Sampler
    method: str = "intermediate playouts"

    def values(self, view: Mapping[str, Any], rules: Any, *, budget_ms: float, worlds: int,
               rng: random.Random) -> dict[str, float]:
        """``{action_key: mean score}`` for every legal action of ``view``'s seat."""
        return self.estimate(view, rules, budget_ms=budget_ms, worlds=worlds, rng=rng).values

    def estimate(self, view: Mapping[str, Any], rules: Any, *, budget_ms: float, worlds: int,
                 rng: random.Random) -> Estimate:
        """The mean score of every legal action of ``view``'s seat, and each world's fact."""
        game = get_game(self.game)
        legal = legal_of(view)
        players = view.get("players") or len(view["hand_sizes"])
        bot = get_bot(self.game, PLAYOUT_LEVEL, rules=game.rules_json(rules))
        read = READERS[self.game]
        keys = [action_key(a) for a in legal]
        facts: dict[str, list[Fact]] = {key: [] for key in keys}
        samples: list[tuple[float, dict[str, float]]] = []
        sign = -1.0 if self.lower_is_better else 1.0
        deadline = time.perf_counter() + budget_ms / 1000.0
        done = 0
        while done < worlds and (done < MIN_WORLDS or time.perf_counter() < deadline):
            if done >= SETTLE_MIN_WORLDS and done % SETTLE_EVERY == 0 and settled(
                    samples, keys, {}, self.tolerance):
                break
            world = self.sampler(view, rules, rng)
            sample: dict[str, float] = {}
            for key, action in zip(keys, legal, strict=True):
                state, _ = game.apply(world, action)
                end = play_out(game, state, bot, rng, players)
                fact = read(view, end, game.outcome(end))
                facts[key].append(fact)
                sample[key] = sign * fact["score"]
            samples.append((1.0, sample))
            done += 1
        return Estimate({key: sum(f["score"] for f in found) / done for key, found in facts.items()},
                        facts)


def playout_estimator(game: str) -> PlayoutEstimator:
    """The playout estimator of ``game``. Raises KeyError for a game without a world sampler."""
    sampler = SAMPLERS[game]
    if game == "doppio":
        return PlayoutEstimator(game, "penalty points", True, 0.5, ("discards", "catches", "Doppio"), sampler)
    return PlayoutEstimator(game, "points", False, 0.25, ("bids", "cards", "bonus cards"), sampler)
