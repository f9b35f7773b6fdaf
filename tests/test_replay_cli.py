"""``python -m app replay``: outcomes on stdout, and bad input as one line on stderr, exit 2."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SCENARIOS

EXAMPLE = SCENARIOS / "doppelkopf" / "example_normal.json"


def run_replay(tmp_path: Path, document: object | str, *extra: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "scenario.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return subprocess.run([sys.executable, "-m", "app", "replay", *extra, str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def assert_refused(result: subprocess.CompletedProcess[str], line: str) -> None:
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [line]


@pytest.fixture
def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def test_replay_prints_the_outcome(tmp_path, example):
    result = run_replay(tmp_path, example)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["totals"] == [-7, 7, -7, 7]
    assert outcome["rounds"][0]["details"]["game_value"] == 7


def test_until_stops_after_n_actions_and_prints_the_state(tmp_path, example):
    result = run_replay(tmp_path, example, "--until", "6")
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed["actions_applied"] == 6
    assert printed["state"]["trick"] == [{"seat": 3, "card": "JD"}, {"seat": 0, "card": "JS"}]
    assert printed["outcome"]["finished"] is False


def test_a_round_cut_short_is_unfinished(tmp_path, example):
    example["rounds"][0]["actions"] = example["rounds"][0]["actions"][:10]
    outcome = json.loads(run_replay(tmp_path, example).stdout)
    assert outcome["rounds"][0]["finished"] is False
    assert outcome["rounds"][0]["scores"] == [0, 0, 0, 0]
    assert len(outcome["rounds"][0]["state"]["tricks"]) == 1


def test_an_illegal_action_names_round_index_seat_and_reason(tmp_path, example):
    actions = example["rounds"][0]["actions"]
    actions[5] = {"seat": 0, "type": "play", "card": "AC"}
    assert_refused(run_replay(tmp_path, example),
                   "round 0, action 5 (seat 0 play AC): must follow suit trump")


def test_invalid_json_is_one_line(tmp_path):
    result = run_replay(tmp_path, "{not json")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_short_hand_names_its_json_path(tmp_path, example):
    example["rounds"][0]["deal"][3].pop()
    assert_refused(run_replay(tmp_path, example), "rounds[0].deal[3]: 11 cards, expected 12")


def test_a_deal_that_is_not_a_permutation_is_refused(tmp_path, example):
    broken = copy.deepcopy(example)
    broken["rounds"][0]["deal"][0][0] = "QC"  # 9C replaced: three QC, one 9C
    assert_refused(run_replay(tmp_path, broken), "rounds[0].deal: 1 copies of 9C, expected 2")


def test_an_unknown_rule_option_is_an_error(tmp_path, example):
    example["rules"]["fast_mode"] = True
    assert_refused(run_replay(tmp_path, example), "rules.fast_mode: unknown option")


def test_a_missing_field_names_its_path(tmp_path, example):
    del example["rounds"][0]["dealer"]
    assert_refused(run_replay(tmp_path, example), "rounds[0].dealer: Field required")


def test_an_unknown_game_is_an_error(tmp_path, example):
    example["game"] = "skat"
    assert_refused(run_replay(tmp_path, example), "game: unknown game 'skat'")


def test_an_action_without_a_seat_is_an_error(tmp_path, example):
    del example["rounds"][0]["actions"][0]["seat"]
    assert_refused(run_replay(tmp_path, example), "rounds[0].actions[0].seat: expected a seat 0..3")


@pytest.mark.parametrize("name", ["normal", "wedding", "silent_solo", "solo_hearts", "solo_queens"])
def test_the_shared_examples_replay_to_their_outcomes(name):
    from app.scenario import load_scenario, replay

    document = json.loads((SCENARIOS / "doppelkopf" / f"example_{name}.json").read_text())
    expected = json.loads((SCENARIOS / "doppelkopf" / f"example_{name}.expected.json").read_text())
    result = replay(load_scenario(document))
    for key in ("totals", "game_over", "winners"):
        assert result[key] == expected[key]
    for got, want in zip(result["rounds"], expected["rounds"], strict=True):
        assert got["scores"] == want["scores"]
        for key in ("contract", "parties", "card_points", "tricks", "winner", "game_value", "announcements"):
            assert got["details"][key] == want["details"][key], key
        lines = sorted((x["reason"], x["party"], x["points"]) for x in got["details"]["score_lines"])
        assert lines == sorted((x["reason"], x["party"], x["points"]) for x in want["details"]["score_lines"])
