"""A game without the optional ``option_ranges`` (tests/highcard_game.py's High Card) still
gets a New Game form: the lobby's games list treats the attribute as optional, as the other
optional parts of app.games.base.Game (CI found the lobby answering 500 once a test had
registered High Card)."""

from __future__ import annotations

from app.lobby.service import games_json
from tests.platform_helpers import register_highcard


def test_the_games_list_takes_a_game_without_option_ranges():
    register_highcard()
    games = {g["name"]: g for g in games_json()}
    assert "highcard" in games
    assert all(ranges == {} for ranges in games["highcard"]["ranges"].values())
    assert games["doppio"]["ranges"]  # the games that declare them keep them
