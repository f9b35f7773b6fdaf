"""The two rulings of spec/scenario-format.md that issue 19 names, replayed through the CLI.

- ``take_bonus``: the bonus chance closes with the next action or the end of the file; a
  Doppelganger Tricks file that ends right after the last card is finished with no bonus, the
  same file with a ``take_bonus`` after the last card scores it, ``decline_bonus`` is accepted
  but never required.
- "The outcome": a redeal round's ``details`` carry the keys of every Doppelkopf round.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TRICKS = ROOT / "tests" / "scenarios" / "doppelganger_tricks"
DOKO = ROOT / "tests" / "scenarios" / "doppelkopf"


def replay_cli(path: Path) -> dict[str, Any]:
    """``python -m app replay PATH``: the outcome JSON (exit 0 required)."""
    proc = subprocess.run([sys.executable, "-m", "app", "replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_file_ending_after_the_last_card_is_finished_without_a_bonus() -> None:
    document = json.loads((TRICKS / "ends_after_last_card.json").read_text())
    last = document["rounds"][-1]["actions"][-1]
    assert last["type"] == "play"  # nothing after the round's last card
    outcome = replay_cli(TRICKS / "ends_after_last_card.json")
    (round_,) = outcome["rounds"]
    assert round_["finished"] is True
    assert round_["details"]["bonus"] == {"star": None, "eye": None}
    assert round_["scores"] == [3, 3, 7, 3]
    assert "state" not in round_


def test_take_bonus_after_the_last_card_counts() -> None:
    without = json.loads((TRICKS / "ends_after_last_card.json").read_text())
    with_bonus = json.loads((TRICKS / "bonus_after_last_card.json").read_text())
    extra = with_bonus["rounds"][0]["actions"][len(without["rounds"][0]["actions"]):]
    assert with_bonus["rounds"][0]["actions"][:-1] == without["rounds"][0]["actions"]
    assert extra == [{"seat": 0, "type": "take_bonus", "value": "star"}]
    outcome = replay_cli(TRICKS / "bonus_after_last_card.json")
    assert outcome["rounds"][0]["finished"] is True
    assert outcome["rounds"][0]["details"]["bonus"] == {"star": 0, "eye": None}
    assert outcome["rounds"][0]["scores"] == [4, 3, 7, 3]


def test_decline_bonus_is_accepted_mid_round_and_closes_the_chance() -> None:
    outcome = replay_cli(TRICKS / "no_bonus_mid_round.json")
    assert outcome["rounds"][0]["details"]["bonus"] == {"star": None, "eye": None}
    assert outcome["rounds"][0]["details"]["tricks_won"] == [0, 1, 0, 1]


def test_redeal_round_details_have_every_key_of_a_doppelkopf_round() -> None:
    normal = replay_cli(DOKO / "poverty_declined.json")["rounds"][1]["details"]
    for name, reason in (("throw_in", "throw_in"), ("poverty_declined", "poverty_declined")):
        round_ = replay_cli(DOKO / f"{name}.json")["rounds"][0]
        assert round_["finished"] is True and round_["redeal"] is True
        assert round_["scores"] == [0, 0, 0, 0]
        details = round_["details"]
        assert set(normal) <= set(details)
        assert details["contract"] == "redeal" and details["reason"] == reason
        assert details["parties"] == {"re": [], "kontra": []}
        assert details["card_points"] == {"re": 0, "kontra": 0}
        assert details["tricks"] == {"re": 0, "kontra": 0}
        assert details["announcements"] == [] and details["score_lines"] == []
        assert details["winner"] is None and details["game_value"] == 0
