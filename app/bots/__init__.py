"""Computer opponents (DESIGN.md layer 2): three skill levels for every game.

A bot sees exactly what a person in its seat sees: the ``view`` JSON of that seat
(``Game.view(state, seat)``), never the state. It answers with one of the action objects in
``view["legal"]`` (``view["legal_actions"]`` in some games: see :func:`legal_of`), or ``None`` when it is offered an out-of-turn action (a Doppelkopf
announcement, a Doppio catch) and prefers not to act. Levels are strategies, not delays:

- ``beginner``: a random legal move; never a random announcement, solo or poverty.
- ``intermediate``: rules of thumb of a decent club player.
- ``expert``: search over hidden hands sampled to fit everything the seat has seen, with the
  intermediate policy for the playouts and a time budget per decision.

Usage::

    bot = get_bot("doppelkopf", "expert", budget_ms=50)
    action = bot.choose(view, random.Random(7))

Bots are pure given (view, rng, budget): no I/O, no global state. ``app.bots.runner.decide``
runs a choice in a process pool, off the event loop. ``python -m app arena`` measures levels.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from typing import Any, Protocol

LEVELS = ("beginner", "intermediate", "expert")

#: game name → module whose ``make_bot(level, rules, budget_ms, worlds)`` builds its bots
BOT_MODULES: dict[str, str] = {
    "doppelkopf": "app.bots.doppelkopf",
    "doublehead_kids": "app.bots.doublehead_kids",
    "doppelganger_tricks": "app.bots.doppelganger_tricks",
    "doppio": "app.bots.doppio",
}


class Bot(Protocol):
    """A computer player of one game and level."""

    game: str
    level: str

    def choose(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        """One action of ``view["legal"]`` (the same object), or None to not act out of turn.

        Returns None only when the seat is not the one the game waits for.
        """
        ...


def legal_of(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The seat's legal actions in a view (``legal`` or ``legal_actions``, by game)."""
    legal = view.get("legal")
    if legal is None:
        legal = view.get("legal_actions") or []
    return legal


class UnknownBot(KeyError):
    """No bot for that game (not installed yet) or an unknown level."""


def get_bot(game: str, level: str, *, rules: Mapping[str, Any] | None = None,
            budget_ms: int | None = None, worlds: int | None = None) -> Bot:
    """The bot of ``game`` at ``level`` (one of LEVELS).

    rules: the table's rules object as in a scenario (``{"preset": ...}``); public knowledge a
        person at the table has too. Omitted: the game's default preset, with what the view
        shows (e.g. the deck size) taken into account.
    budget_ms: the expert's thinking time per decision (default: the game's own, about 50 ms).
    worlds: the expert's number of sampled deals per decision (a cap; the time budget is the
        other). Fixing it and giving a generous budget makes a run reproducible by seed.
    Raises UnknownBot.
    """
    if level not in LEVELS:
        raise UnknownBot(f"unknown level {level!r} (expected one of {', '.join(LEVELS)})")
    module_name = BOT_MODULES.get(game)
    if module_name is None:
        raise UnknownBot(f"no bots for game {game!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name and module_name.startswith(err.name):
            raise UnknownBot(f"no bots for game {game!r}") from err
        raise
    return module.make_bot(level, rules=rules, budget_ms=budget_ms, worlds=worlds)


def available_bot_games() -> list[str]:
    """The games that have bots and whose rules core is installed."""
    from app.games.registry import available_games

    names = []
    for name in available_games():
        try:
            get_bot(name, "beginner")
        except UnknownBot:
            continue
        names.append(name)
    return names
