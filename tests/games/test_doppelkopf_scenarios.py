"""Replays every Doppelkopf scenario under tests/scenarios/doppelkopf/ against its expected file.

The expected files are written from the rulings (../shared/rules/doppelkopf.md), not from the
engine: see tests/scenarios/doppelkopf/README.md for each scenario's arithmetic. An expected
file ``{"error": LINE}`` is a scenario the replay CLI must refuse with exit 2 and that one line.
Scenarios where the engine departs from the rulings are listed in ENGINE_DISAGREES (strict
xfail: the test fails loudly once the engine is fixed, so the entry must then be removed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.scenario import load_scenario, replay

FOLDER = Path(__file__).resolve().parents[1] / "scenarios" / "doppelkopf"
ROOT = FOLDER.parents[2]
NAMES = sorted(p.name[: -len(".expected.json")] for p in FOLDER.glob("*.expected.json"))

#: scenario name -> why the engine disagrees with the rulings (see the README's findings)
ENGINE_DISAGREES: dict[str, str] = {}

DETAIL_KEYS = ("contract", "parties", "card_points", "tricks", "winner", "game_value", "announcements")


def _lines(details: dict) -> Counter:
    return Counter((line["reason"], line["party"], line["points"]) for line in details["score_lines"])


def _params() -> list:
    params = []
    for name in NAMES:
        marks = []
        if name in ENGINE_DISAGREES:
            marks.append(pytest.mark.xfail(strict=True, reason=ENGINE_DISAGREES[name]))
        params.append(pytest.param(name, marks=marks, id=name))
    return params


def test_every_scenario_has_an_expected_file_and_is_listed():
    scenario_files = {p.name[: -len(".json")] for p in FOLDER.glob("*.json")
                      if not p.name.endswith(".expected.json")}
    assert scenario_files == set(NAMES)
    assert len(NAMES) >= 40
    assert set(ENGINE_DISAGREES) <= set(NAMES)


@pytest.mark.parametrize("name", _params())
def test_scenario(name: str) -> None:
    expected = json.loads((FOLDER / f"{name}.expected.json").read_text())
    if "error" in expected:
        proc = subprocess.run(
            [sys.executable, "-m", "app", "replay", str(FOLDER / f"{name}.json")],
            cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert "Traceback" not in proc.stderr
        assert proc.returncode == 2, proc.stdout[:300]
        assert proc.stdout == ""
        assert proc.stderr.splitlines() == [expected["error"]]
        return
    document = json.loads((FOLDER / f"{name}.json").read_text())
    outcome = replay(load_scenario(document))
    assert len(outcome["rounds"]) == len(expected["rounds"])
    for index, (got, want) in enumerate(zip(outcome["rounds"], expected["rounds"], strict=True)):
        where = f"round {index}"
        assert got["finished"] is True, where
        assert got["scores"] == want["scores"], where
        if want.get("redeal"):
            assert got.get("redeal") is True, where
            assert got["details"]["reason"] == want["details"]["reason"], where
        else:
            assert not got.get("redeal"), where
        for key in DETAIL_KEYS:
            assert got["details"][key] == want["details"][key], f"{where}: {key}"
        assert _lines(got["details"]) == _lines(want["details"]), f"{where}: score_lines"
    assert outcome["totals"] == expected["totals"]
    assert outcome["game_over"] == expected["game_over"]
    assert outcome["winners"] == expected["winners"]
