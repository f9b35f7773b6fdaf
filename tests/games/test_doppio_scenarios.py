"""Replay every Doppio scenario under tests/scenarios/doppio/ against its expected outcome.

The expected outcomes were reasoned from the rules (tests/scenarios/doppio/README.md), not
copied from the engine; ``shared_example`` is the shared spec's worked example.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "scenarios" / "doppio"
NAMES = sorted(path.name.removesuffix(".expected.json") for path in SCENARIO_DIR.glob("*.expected.json"))

REQUIRED = {
    "shift_six_positions", "refill_from_caught_card", "catch_priority_two", "catch_priority_three",
    "doppio_with_held_card", "doppio_success", "doppio_failure_tie", "deck_runs_out",
    "shared_victory", "shared_example",
}


def test_every_required_scenario_is_present():
    assert REQUIRED <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_scenario_replays_to_its_expected_outcome(name, replay_file):
    expected = json.loads((SCENARIO_DIR / f"{name}.expected.json").read_text())
    assert replay_file(f"doppio/{name}.json") == expected
