"""Doppelganger Tricks scenarios: every file under tests/scenarios/doppelganger_tricks/.

``NAME.json`` replays to ``NAME.expected.json``: the same ``scores``, ``totals``, ``game_over``,
``winners`` and ``details`` (bids, tricks_won, bonus, annihilations, void_tricks), and for an
unfinished round the keys of ``state`` that the expected file lists. ``notes`` in an expected
file is the hand-written reasoning behind it and is not compared.

``illegal/NAME.json`` must make ``python -m app replay`` exit with status 2, print nothing on
stdout and exactly the expected line on stderr.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.scenario import load_scenario, replay

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "scenarios" / "doppelganger_tricks"
SCENARIOS = sorted(path.name.removesuffix(".json") for path in FOLDER.glob("*.json")
                   if not path.name.endswith(".expected.json"))
ILLEGAL = sorted(path.name.removesuffix(".json") for path in (FOLDER / "illegal").glob("*.json")
                 if not path.name.endswith(".expected.json"))

#: The winning card each rulebook example names ("The Pink 4 wins the trick"); None: nobody.
RULEBOOK_WINNING_CARD = {1: "P4", 2: "N8", 3: "G9", 4: "P5", 5: "P3", 6: None, 7: "P7"}

REQUIRED = {
    "shared_example", "zero_bid_made", "zero_bid_missed", "off_by_one", "both_bonus_cards",
    "bonus_after_last_navy", "void_trick_same_leader", "three_players_shared_victory",
    *(f"rulebook_example_{number}" for number in RULEBOOK_WINNING_CARD),
}


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def run(name: str) -> dict[str, Any]:
    return replay(load_scenario(load(FOLDER / f"{name}.json")))


def test_every_required_scenario_is_there() -> None:
    assert REQUIRED <= set(SCENARIOS)
    assert len(ILLEGAL) >= 10


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_replays_to_expected_outcome(name: str) -> None:
    expected = load(FOLDER / f"{name}.expected.json")
    actual = run(name)
    for key in ("game", "totals", "game_over", "winners"):
        assert actual[key] == expected[key], key
    assert len(actual["rounds"]) == len(expected["rounds"])
    for index, (got, want) in enumerate(zip(actual["rounds"], expected["rounds"], strict=True)):
        assert got["finished"] == want["finished"], f"round {index}"
        assert got["scores"] == want["scores"], f"round {index}"
        assert got["details"] == want["details"], f"round {index}"
        for key, value in want.get("state", {}).items():
            assert got["state"][key] == value, f"round {index} state.{key}"


@pytest.mark.parametrize("number", sorted(RULEBOOK_WINNING_CARD))
def test_rulebook_example_winner(number: int) -> None:
    state = run(f"rulebook_example_{number}")["rounds"][0]["state"]
    trick = state["tricks"][0]
    card = RULEBOOK_WINNING_CARD[number]
    if card is None:
        assert trick["winner"] is None
        assert state["leader"] == trick["leader"]
        assert state["void_tricks"] == 1
        return
    winning = [play["card"] for play in trick["plays"] if play["seat"] == trick["winner"]]
    assert winning == [card]
    assert state["leader"] == trick["winner"]


def test_void_trick_leader_leads_again() -> None:
    state = run("void_trick_same_leader")["rounds"][0]["state"]
    first, second = state["tricks"]
    assert first["winner"] is None
    assert second["leader"] == first["leader"]


@pytest.mark.parametrize("name", ILLEGAL)
def test_illegal_action_stops_replay_with_one_line(name: str) -> None:
    expected = load(FOLDER / "illegal" / f"{name}.expected.json")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(FOLDER / "illegal" / f"{name}.json")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == expected["exit_code"] == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [expected["stderr"]]


def test_scenario_files_match_their_build_script() -> None:
    """The inputs come from build_scenarios.py; a file edited by hand would drift from it."""
    spec = importlib.util.spec_from_file_location("build_scenarios", FOLDER / "build_scenarios.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it runs
    try:
        spec.loader.exec_module(module)
        built = module.documents()
    finally:
        del sys.modules[spec.name]
    on_disk = {path for path in FOLDER.rglob("*.json") if not path.name.endswith(".expected.json")}
    assert set(built) == on_disk - {FOLDER / "shared_example.json"}
    for path, text in built.items():
        assert path.read_text() == text, path.name
