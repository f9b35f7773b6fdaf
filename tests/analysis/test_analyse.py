"""Post-game analysis of a scenario (app.analysis, ``python -m app analyse``)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from app.analysis import estimators, report
from app.analysis.decisions import decisions_of
from app.analysis.report import analyse, value_decision
from app.analysis.worlds import SAMPLERS
from app.bots import legal_of
from app.scenario import ScenarioError, load_file, play_round
from tests.bots.test_view_only import plain
from tests.conftest import ROOT, SCENARIOS

THROWN_AWAY = SCENARIOS / "analysis" / "thrown_away.json"
# tests/analysis/build_blunder.py: seat 0 wins this normal game (+10) when it plays the king of
# clubs in trick 10 (round 0, action 44); with the king of diamonds it loses (-8)
BLUNDER = (0, 44)
SMALL = {"budget_ms": 60_000, "worlds": 16}


@pytest.fixture(scope="module")
def thrown_away():
    return analyse(load_file(str(THROWN_AWAY)), 0, seed=1, **SMALL)


def test_a_thrown_away_deal_is_the_costliest_decision(thrown_away):
    doc = thrown_away
    worst = doc["costliest"][0]
    assert (worst["round"], worst["index"]) == BLUNDER
    entry = next(e for e in doc["decisions"] if (e["round"], e["index"]) == BLUNDER)
    assert entry["taken"] == "play:KD" and entry["best"] != "play:KD"
    assert entry["trick"] == 10
    assert doc["rounds"][0]["accuracy"] < 100.0
    assert doc["match"]["cost"] >= entry["cost"] > 1.0


def test_every_decision_of_the_seat_is_listed_with_values(thrown_away):
    doc = thrown_away
    scenario = load_file(str(THROWN_AWAY))
    own = [i for i, a in enumerate(scenario.rounds[0].actions) if a["seat"] == 0]
    assert [e["index"] for e in doc["decisions"]] == own
    for entry in doc["decisions"]:
        if entry["analysed"]:
            values = entry["values"]
            assert entry["taken"] in values and entry["best"] in values
            assert entry["cost"] == pytest.approx(values[entry["best"]] - values[entry["taken"]], abs=2e-3)
            assert values[entry["best"]] == max(values.values())
        else:
            assert entry["reason"] in ("forced", "out_of_turn", "not_simulated")
    assert doc["what"] == ["reservations", "announcements", "cards"]


@pytest.mark.parametrize("path, seat", [
    ("analysis/thrown_away.json", 2),
    ("doublehead_kids/advanced_lone_doubled.json", 1),
    ("doppelganger_tricks/zero_bid_made.json", 2),
    ("doppio/catch_priority_three.json", 0),
])
def test_the_estimator_sees_only_the_seats_own_view(monkeypatch, path, seat):
    """Every view handed to the estimator is plain JSON, is exactly Game.view for the analysed
    seat at that moment, and holds no other hand (the bots' view checks)."""
    scenario = load_file(str(SCENARIOS / path))
    seen = []
    real = estimators.estimator_for(scenario.game.name)

    class Recording:
        def __getattr__(self, name):
            return getattr(real, name)

        def estimate(self, view, rules, **kwargs):
            assert plain(view)
            seen.append(json.loads(json.dumps(view)))
            return real.estimate(view, rules, **kwargs)

    monkeypatch.setattr(report, "estimator_for", lambda _game: Recording())
    analyse(scenario, seat, seed=1, budget_ms=60_000, worlds=2)
    expected = []
    for round_index, round_doc in enumerate(scenario.rounds):
        for index, action in enumerate(round_doc.actions):
            if action["seat"] == seat:
                state, _ = play_round(scenario, round_index, limit=index)
                view = scenario.game.view(state, seat)
                if len(legal_of(view)) > 1:
                    expected.append(json.loads(json.dumps(view)))
    assert seen == expected and seen
    for view in seen:
        assert view["seat"] == seat
        text = json.dumps(view)
        assert '"hands"' not in text and '"deal"' not in text and '"deck"' not in text


@pytest.mark.parametrize("path, seat", [
    ("analysis/thrown_away.json", 1),
    ("doppelganger_tricks/shared_example.json", 0),
    ("doppio/deck_runs_out.json", 1),
])
def test_a_json_copy_of_the_view_gives_the_same_values(path, seat):
    scenario = load_file(str(SCENARIOS / path))
    estimator = estimators.estimator_for(scenario.game.name)
    checked = 0
    for decision in decisions_of(scenario, seat):
        if decision.options < 2 or checked >= 3:
            continue
        copy = type(decision)(decision.round, decision.index, decision.trick,
                              json.loads(json.dumps(decision.view)), decision.action)
        first = value_decision(estimator, scenario.rules, decision, seed=3, budget_ms=60_000, worlds=3)
        second = value_decision(estimator, scenario.rules, copy, seed=3, budget_ms=60_000, worlds=3)
        assert first == second
        checked += 1
    assert checked == 3


@pytest.mark.parametrize("path, seat", [
    ("doppelganger_tricks/shared_example.json", 1),
    ("doppelganger_tricks/both_bonus_cards.json", 2),
    ("doppio/deck_runs_out.json", 0),
    ("doppio/catch_priority_three.json", 2),
])
def test_sampled_worlds_fit_the_view(path, seat):
    """The world sampler keeps what the seat sees: its hand, the table and its legal actions."""
    scenario = load_file(str(SCENARIOS / path))
    sampler = SAMPLERS[scenario.game.name]
    game = scenario.game
    checked = 0
    for decision in decisions_of(scenario, seat):
        world = sampler(decision.view, scenario.rules, random.Random(decision.index))
        again = game.view(world, seat)
        public = ("hand", "legal_actions", "trick", "last_trick", "tricks_won", "bids", "held",
                  "dead", "deck_size", "turn", "to_act", "catch_window", "hand_sizes", "bonus")
        for key in public:
            if key in decision.view:
                assert again[key] == decision.view[key], key
        checked += 1
    assert checked > 0


def test_playout_games_are_analysed_in_their_own_units():
    doc = analyse(load_file(str(SCENARIOS / "doppio" / "catch_priority_three.json")), 2, seed=1,
                  budget_ms=60_000, worlds=4)
    assert doc["lower_is_better"] is True and doc["unit"] == "penalty points"
    # Doppio's turns: seat 2 catches the first discard, then makes the third
    assert [(e["taken"], e["trick"]) for e in doc["decisions"]] == [("catch", 1), ("discard:R3", 3)]
    assert doc["method"] == "intermediate playouts"
    for entry in doc["decisions"]:
        if entry["analysed"]:
            assert entry["values"][entry["best"]] == min(entry["values"].values())


def test_the_same_seed_gives_the_same_analysis():
    scenario = load_file(str(SCENARIOS / "doppelganger_tricks" / "zero_bid_made.json"))
    first = analyse(scenario, 1, seed=5, budget_ms=60_000, worlds=3)
    second = analyse(scenario, 1, seed=5, budget_ms=60_000, worlds=3)
    assert first == second


def test_a_seat_the_scenario_lacks_is_refused():
    with pytest.raises(ScenarioError, match="seat: 4 is not a seat of 4 players"):
        analyse(load_file(str(THROWN_AWAY)), 4)


def test_command_line_prints_json_and_progress():
    run = subprocess.run(
        [sys.executable, "-m", "app", "analyse", str(THROWN_AWAY), "--seat", "0", "--seed", "1",
         "--worlds", "4", "--budget-ms", "60000"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["seat"] == 0 and doc["seed"] == 1 and doc["worlds"] == 4
    assert "analysed 14/14 decisions" in run.stderr


def test_command_line_bad_seat_is_one_line_and_status_2():
    run = subprocess.run([sys.executable, "-m", "app", "analyse", str(THROWN_AWAY), "--seat", "7"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip() == "seat: 7 is not a seat of 4 players"


def _swapped(document: dict, seat: int, cut: int):
    """A copy of round 0 of ``document``, cut after ``cut`` actions, in which two other seats
    hold two different cards each other had, such that the replay stays legal and ``seat``'s
    views at its decisions stay the same; None if no such swap exists."""
    from app.scenario import load_scenario

    base = {**document, "rounds": [{**document["rounds"][0],
                                    "actions": document["rounds"][0]["actions"][:cut]}]}
    original = load_scenario(base)
    views = [d.view for d in decisions_of(original, seat)]
    others = [s for s in range(document["players"]) if s != seat]
    deal = document["rounds"][0]["deal"]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for i, card_a in enumerate(deal[a]):
                for j, card_b in enumerate(deal[b]):
                    if card_a == card_b:
                        continue
                    hands = [list(h) for h in deal]
                    hands[a][i], hands[b][j] = card_b, card_a
                    variant = {**base, "rounds": [{**base["rounds"][0], "deal": hands}]}
                    try:
                        scenario = load_scenario(variant)
                        if [d.view for d in decisions_of(scenario, seat)] == views:
                            return original, scenario
                    except ScenarioError:
                        continue
    return None


@pytest.mark.parametrize("path, seat, cut", [
    ("analysis/thrown_away.json", 0, 14),
    ("doppelganger_tricks/zero_bid_made.json", 1, 10),
    ("doppio/deck_runs_out.json", 1, 6),
])
def test_other_seats_hidden_cards_do_not_change_the_analysis(path, seat, cut):
    """Two other seats swap cards they still hold unseen: the analysed seat saw exactly the same,
    and its analysis is exactly the same."""
    document = json.loads((SCENARIOS / path).read_text())
    found = _swapped(document, seat, cut)
    assert found is not None, "no swap of hidden cards keeps this scenario legal"
    original, variant = found
    assert original.rounds[0].deal != variant.rounds[0].deal
    first = analyse(original, seat, seed=4, budget_ms=60_000, worlds=3)
    second = analyse(variant, seat, seed=4, budget_ms=60_000, worlds=3)
    assert first["match"]["analysed"] > 0
    assert first == second


def test_command_line_unreadable_file_is_one_line_and_status_2(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    run = subprocess.run([sys.executable, "-m", "app", "analyse", str(broken), "--seat", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("(document): not valid JSON") and run.stderr.count("\n") == 1
