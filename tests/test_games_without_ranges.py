"""A game whose traits declare no ``option_ranges`` still gets a New Game form: the lobby's
games list reads the declared traits (app.games.base.GameTraits), whose default is none (CI
once found every lobby page answering 500 after a test had registered a game without them)."""

from __future__ import annotations

from dataclasses import replace

from app.lobby import service
from tests.platform_helpers import register_highcard


class WithoutRanges:
    """A game as it is, but with traits that declare no ``option_ranges``."""

    def __init__(self, game) -> None:
        self._game = game
        self.traits = replace(game.traits, option_ranges={}, fractional_options=frozenset())

    def __getattr__(self, name: str):
        return getattr(self._game, name)


def test_the_games_list_takes_a_game_without_option_ranges(monkeypatch):
    register_highcard()
    real = service.get_game
    monkeypatch.setattr(service, "get_game",
                        lambda name: WithoutRanges(real(name)) if name == "highcard" else real(name))
    games = {g["name"]: g for g in service.games_json()}
    assert all(ranges == {} for ranges in games["highcard"]["ranges"].values())
    assert games["doppio"]["ranges"]  # the games that declare them keep them
