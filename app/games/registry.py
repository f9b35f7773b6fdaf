"""The games Doppelrunde offers: name → rules core, seat counts, presets and options.

Games are imported on first use, so a tool that needs one game does not load the others.
"""

from __future__ import annotations

import importlib
from functools import cache

from app.games.base import Game

#: game name → module that defines ``GAME`` (an object implementing app.games.base.Game)
GAME_MODULES: dict[str, str] = {
    "doppelkopf": "app.games.doppelkopf",
    "doublehead_kids": "app.games.doublehead_kids",
    "doppelganger_tricks": "app.games.doppelganger_tricks",
    "doppio": "app.games.doppio",
}


class UnknownGame(KeyError):
    """A game name that is not in GAME_MODULES (or whose module is not there yet)."""


@cache
def get_game(name: str) -> Game:
    """Return the rules core of game ``name``. Raises UnknownGame."""
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        raise UnknownGame(name)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name and module_name.startswith(err.name):
            raise UnknownGame(name) from err
        raise
    return module.GAME


def available_games() -> list[str]:
    """The names of the games whose rules core is installed, in menu order."""
    names = []
    for name in GAME_MODULES:
        try:
            get_game(name)
        except UnknownGame:
            continue
        names.append(name)
    return names
