"""Every game declares what it is in one record (app.games.base.GameTraits), and the rest of
the app reads that record rather than probing a game object for attributes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.games.base import GameTraits
from app.games.registry import available_games, get_game

APP = Path(__file__).resolve().parents[2] / "app"
#: files that may still probe a game object, with the reason (none)
STILL_PROBING: set[str] = set()


@pytest.mark.parametrize("name", available_games())
def test_every_game_declares_its_traits(name):
    game = get_game(name)
    traits = game.traits
    assert isinstance(traits, GameTraits)
    phases = {"doppelkopf": "declare", "doublehead_kids": "declare"}
    assert traits.reservation_phase == phases.get(name)
    assert traits.lower_scores_win == (name == "doppio")
    assert (traits.close_catch_window is not None) == (name == "doppio")
    assert (traits.live_refusal is not None) == (name == "doppelganger_tricks")
    assert (traits.computer_seats is not None) == (name == "doppelkopf")
    assert set(traits.fractional_options) <= set(traits.option_ranges)


def _probes_a_game(node: ast.Call) -> bool:
    if not (isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") and node.args):
        return False
    return "game" in ast.unparse(node.args[0]).lower()


def test_no_module_probes_a_game_object_for_an_attribute():
    found = []
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP).as_posix()
        if relative in STILL_PROBING:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _probes_a_game(node):
                found.append(f"{relative}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
