"""Illegal actions and bad files through ``python -m app replay``: exit 2, one stderr line
naming round, action index, seat and reason, nothing on stdout, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
ILLEGAL = ROOT / "tests" / "scenarios" / "doppio" / "illegal"

CASES = {
    "not_your_turn": "round 1, action 0 (seat 1 discard L1): not your turn",
    "doppio_above_10": "round 0, action 0 (seat 1 doppio): hand value 14 is above 10",
    "catch_after_close": "round 0, action 3 (seat 2 catch): the catch window is closed",
    "catch_while_holding": "round 0, action 3 (seat 3 catch): you hold a caught card",
    "catch_own_discard": "round 0, action 1 (seat 1 catch): you cannot catch your own discard",
    "answer_twice": "round 0, action 2 (seat 1 catch): you already answered this catch window",
    "after_round_end": "round 0, action 1 (seat 1 discard L1): the round is over",
    "bad_position": (
        "round 0, action 0 (seat 0 discard L4): unknown position 'L4', expected one of L3 L2 L1 R1 R2 R3"
    ),
}


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", "replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def assert_refused(result: subprocess.CompletedProcess[str], line: str) -> None:
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == line + "\n"


def test_every_illegal_file_has_a_case():
    assert {path.stem for path in ILLEGAL.glob("*.json")} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_illegal_action_is_refused_with_one_line(name):
    assert_refused(run_replay(ILLEGAL / f"{name}.json"), CASES[name])


def _edited_example(tmp_path: Path, edit) -> Path:
    document = json.loads((ROOT / "tests/scenarios/doppio/shared_example.json").read_text())
    edit(document)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    return path


def test_fifth_copy_of_a_card_names_its_place(tmp_path):
    def duplicate(document):
        document["rounds"][0]["deck"][0] = "7"  # deck[0] was a 4; 7 is already four times elsewhere

    result = run_replay(_edited_example(tmp_path, duplicate))
    assert result.returncode == 2
    assert result.stderr.startswith("rounds[0].")
    assert "a fifth card '7'" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_hand_of_five_cards_is_refused(tmp_path):
    def shorten(document):
        document["rounds"][1]["deal"][2].pop()

    assert_refused(run_replay(_edited_example(tmp_path, shorten)), "rounds[1].deal[2]: 5 cards, expected 6")


def test_unknown_rules_option_is_refused(tmp_path):
    def add_option(document):
        document["rules"] = {"catch_speed": 1}

    assert_refused(run_replay(_edited_example(tmp_path, add_option)), "rules.catch_speed: unknown option")
