"""Doublehead Kids scenarios: every file in tests/scenarios/doublehead_kids replays to the
outcome worked out by hand in its ``.expected.json`` (README.md there shows the arithmetic)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.scenario import load_scenario, play_round, replay
from tests.conftest import SCENARIOS

FOLDER = SCENARIOS / "doublehead_kids"
NAMES = sorted(p.name.removesuffix(".json") for p in FOLDER.glob("*.json")
               if not p.name.endswith(".expected.json"))


def _load(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    document = json.loads((FOLDER / f"{name}.json").read_text())
    expected = json.loads((FOLDER / f"{name}.expected.json").read_text())
    return document, expected


def _lines(lines: list[dict[str, Any]]) -> Counter[tuple[str, str, int]]:
    return Counter((line["reason"], line["party"], line["coins"]) for line in lines)


def test_the_folder_holds_every_required_scenario():
    required = {"rulebook_duels", "wedding_named", "lone_wins", "lone_loses", "tie_120",
                "advanced_over_120", "advanced_over_150", "advanced_over_180",
                "karlchen_wins_last_duel", "karlchen_captured", "game_end_5_shared",
                "game_end_10_shared", "shared_example"}
    assert required <= set(NAMES)
    for name in NAMES:
        assert Path(FOLDER / f"{name}.expected.json").exists(), name


@pytest.mark.parametrize("name", NAMES)
def test_scenario_replays_to_the_expected_outcome(name):
    document, expected = _load(name)
    result = replay(load_scenario(document))
    assert result["game"] == "doublehead_kids"
    for key in ("totals", "game_over", "winners"):
        assert result[key] == expected[key], key
    assert len(result["rounds"]) == len(expected["rounds"])
    for got, want in zip(result["rounds"], expected["rounds"], strict=True):
        assert got["finished"] == want["finished"]
        assert got["scores"] == want["scores"]
        details = got["details"]
        assert details["golden_coins"] == got["scores"]
        for key, value in want.get("details", {}).items():
            if key == "coin_lines":
                assert _lines(details[key]) == _lines(value)
            else:
                assert details[key] == value, key


@pytest.mark.parametrize("name", [n for n in NAMES if "duels" in _load(n)[1]])
def test_the_rulebook_duels_have_their_winners_and_silver_coins(name):
    document, expected = _load(name)
    state, _ = play_round(load_scenario(document), 0)
    for duel in expected["duels"]:
        trick = state.tricks[duel["index"]]
        assert (trick.winner, trick.points) == (duel["winner"], duel["points"])


def test_the_rulebook_duels_are_the_rulebooks_cards():
    """Duel 1: Castle, Soldier, Earl Ernst August, Castle; 2: Castle, Soldier, a trump, an
    Earl; 3: Castle, two Earls Georg, Prince/Princess; 4: Castle, two trumps, a discarded
    Castle; 5: Prince/Princess, King Friedrich, a trump, a discarded Soldier."""
    from app.games.doublehead_kids.names import CARD_NAMES, family_of

    document, _ = _load("rulebook_duels")
    state, _ = play_round(load_scenario(document), 0)
    names = [[CARD_NAMES[p.card] for p in trick.plays] for trick in state.tricks[:5]]
    assert names[0] == ["Castle", "Soldier", "Earl Ernst August", "Castle"]
    assert names[1][:2] == ["Castle", "Soldier"] and names[1][3] == "Earl Ernst August"
    assert family_of(state.tricks[1].plays[2].card) == "royal"
    assert names[2] == ["Castle", "Earl Georg", "Earl Georg", "Prince / Princess"]
    assert names[3][0] == "Castle" and names[3][3] == "Castle"
    assert [family_of(p.card) for p in state.tricks[3].plays[1:3]] == ["royal", "royal"]
    assert names[4][:2] == ["Prince / Princess", "King Friedrich"]
    assert family_of(state.tricks[4].plays[3].card) != "royal"
    # Stacy (seat 2) has no trump left at duel 5; George (seat 0) has no castle's crest in duel 4
    assert not any(family_of(c) == "royal" for c in state.deal[2]
                   if c not in ("9D", "QH"))
