"""The arena's report and reproducibility, and the process-pool runner."""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from app.__main__ import main
from app.bots import arena, legal_of, runner
from app.bots.arena import Setup, run
from app.games.registry import get_game


def test_arena_prints_levels_and_last_line_json(capsys):
    status = main(["arena", "--game", "doppelkopf", "--levels", "intermediate,beginner",
                   "--deals", "6", "--seed", "3", "--workers", "1", "--quiet"])
    assert status == 0
    lines = capsys.readouterr().out.strip().splitlines()
    report = json.loads(lines[-1])
    assert report["game"] == "doppelkopf" and report["deals"] == 6
    assert set(report["levels"]) == {"intermediate", "beginner"}
    item = report["levels"]["intermediate"]
    assert item["ci95"][0] <= item["mean"] <= item["ci95"][1]
    # Doppelkopf is zero-sum and both levels hold every hand: the means are opposite.
    assert abs(item["mean"] + report["levels"]["beginner"]["mean"]) < 1e-9
    assert abs(report["difference"]["mean"] - 2 * item["mean"]) < 1e-3


def test_arena_is_reproducible_by_seed():
    setup = Setup("doppelganger_tricks", ("intermediate", "beginner"), 9, {}, None, None)
    first = run(setup, 5, workers=1, progress=False)
    second = run(setup, 5, workers=1, progress=False)
    assert first["levels"]["intermediate"]["mean"] == second["levels"]["intermediate"]["mean"]
    assert first["difference"] == second["difference"]


def test_an_interrupted_run_reports_the_deals_it_finished(monkeypatch):
    """Ctrl-C or SIGTERM during a long run: the summary of the deals played so far."""
    played = []
    real = arena._worker

    def worker(job):
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(job[1])
        return real(job)

    monkeypatch.setattr(arena, "_worker", worker)
    setup = Setup("doppelkopf", ("intermediate", "beginner"), 4, {}, None, None)
    report = run(setup, 50, workers=1, progress=False)
    assert report["deals"] == 3 and report["planned"] == 50


def test_a_run_paired_with_an_earlier_one_compares_deal_by_deal(tmp_path, capsys):
    """--per-deal writes each deal's means; --paired-with reads them back and reports, over the
    deals both runs played, this run's A - B minus the earlier run's, deal by deal."""
    first = tmp_path / "first.jsonl"
    common = ["arena", "--game", "doppelkopf", "--seed", "5", "--workers", "1", "--quiet"]
    assert main([*common, "--levels", "intermediate,beginner", "--deals", "6",
                 "--per-deal", str(first)]) == 0
    lines = first.read_text().splitlines()
    assert sorted(json.loads(line)["index"] for line in lines) == list(range(6))
    capsys.readouterr()
    # the same levels on the same deals: every deal's difference is the same, paired 0 exactly
    assert main([*common, "--levels", "intermediate,beginner", "--deals", "4",
                 "--paired-with", str(first)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["paired"] == {"deals": 4, "mean": 0.0, "ci95": [0.0, 0.0]}
    # an earlier run whose A scored one more per deal: this run is 1 behind it on every deal
    shifted = tmp_path / "shifted.jsonl"
    shifted.write_text("".join(
        json.dumps({"index": item["index"], "means": [item["means"][0] + 1, item["means"][1]]}) + "\n"
        for item in map(json.loads, lines[:5])))
    assert main([*common, "--levels", "intermediate,beginner", "--deals", "6",
                 "--paired-with", str(shifted)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert json.loads(out[-1])["paired"] == {"deals": 5, "mean": -1.0, "ci95": [-1.0, -1.0]}
    assert "here minus there -1.000 per deal" in out[-2]
    # a missing file is a clear error
    assert main([*common, "--deals", "2", "--paired-with", str(tmp_path / "none.jsonl")]) == 2


def test_a_run_in_parts_plays_the_same_deals_as_one_run(tmp_path, capsys):
    """--first N plays the seed's deals N, N+1, ...: two parts give, deal by deal, what one
    run of them all gives, so a long run can be split and its --per-deal files joined."""
    common = ["arena", "--game", "doppelkopf", "--seed", "5", "--workers", "1", "--quiet",
              "--levels", "intermediate,beginner"]
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    assert main([*common, "--deals", "5", "--per-deal", str(whole)]) == 0
    assert main([*common, "--first", "3", "--deals", "2", "--per-deal", str(part)]) == 0
    out = capsys.readouterr().out
    assert "2 duplicate deals, seed 5 (deals 3 to 4)" in out
    by_index = {item["index"]: item for item in map(json.loads, whole.read_text().splitlines())}
    parts = [json.loads(line) for line in part.read_text().splitlines()]
    assert sorted(item["index"] for item in parts) == [3, 4]
    assert all(item == by_index[item["index"]] for item in parts)
    assert main([*common, "--first", "-1", "--deals", "2"]) == 2


def test_arena_refuses_bad_levels(capsys):
    assert main(["arena", "--levels", "expert", "--deals", "4"]) == 2
    assert main(["arena", "--levels", "expert,wizard", "--deals", "4"]) == 2


def doppelkopf_view(seed: int) -> dict:
    """Seat 1's view at the start of a Doppelkopf deal (its declaration)."""
    game = get_game("doppelkopf")
    rules = game.make_rules({})
    deal, _ = game.deal(rules, 4, random.Random(seed))
    return game.view(game.new_round(rules, 4, deal, [], 0), 1)


async def test_runner_decides_off_the_loop():
    view = doppelkopf_view(2)
    runner.configure(executor=ThreadPoolExecutor(max_workers=1))
    try:
        action = await runner.decide("doppelkopf", "intermediate", view, seed=4, budget_ms=10)
    finally:
        runner.configure()
    assert action in legal_of(view)
    assert action == runner.choose_now("doppelkopf", "intermediate", view, 4, 10)


async def test_runner_uses_a_process_pool():
    game = get_game("doppio")
    rules = game.make_rules({})
    deal, deck = game.deal(rules, 4, random.Random(2))
    state = game.new_round(rules, 4, deal, deck, 0)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    runner.configure(workers=1)
    try:
        action = await runner.decide("doppio", "expert", view, seed=1, budget_ms=20)
    finally:
        runner.configure()
    assert action in legal_of(view)


async def test_a_slow_decision_falls_back_to_the_quick_level():
    """A pool that does not answer in time never holds the room: the intermediate decides."""
    view = doppelkopf_view(5)
    gate = threading.Event()

    def stuck(*args):
        gate.wait(5)
        return None

    pool = ThreadPoolExecutor(max_workers=1)
    runner.configure(executor=pool)
    original = runner.choose_now
    try:
        runner.choose_now = lambda *a: stuck() if a[1] == "expert" else original(*a)  # type: ignore[assignment]
        started = time.perf_counter()
        action = await runner.decide("doppelkopf", "expert", view, seed=3, budget_ms=10, timeout_s=0.2)
        waited = time.perf_counter() - started
    finally:
        runner.choose_now = original  # type: ignore[assignment]
        gate.set()
        runner.configure()
    assert action in legal_of(view)
    assert action == original("doppelkopf", "intermediate", view, 3, 10)
    assert waited < 4.0  # it did not wait for the stuck worker (5 s)
    assert runner.timeout_for(60) == runner.MIN_TIMEOUT_S and runner.timeout_for(2000) == 6.0


def _counting_deals():
    """benchmarks/kids_counting_deals.py's counting_deals (a script, not a package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "kids_counting_deals.py"
    spec = importlib.util.spec_from_file_location("kids_counting_deals", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.counting_deals


def test_a_deal_list_plays_those_deals_and_only_counting_kids_deals_can_differ(tmp_path, capsys):
    """--deal-list plays the listed deals of the seed, as a whole run plays them; in Doublehead
    Kids a deal whose two queens of clubs sit at seats of different parity gives both levels
    the same coins whatever they play (each team holds one of each level at both tables)."""
    common = ["arena", "--game", "doublehead_kids", "--seed", "1", "--workers", "1", "--quiet",
              "--levels", "intermediate,beginner"]
    whole, listed, numbers = tmp_path / "whole.jsonl", tmp_path / "listed.jsonl", tmp_path / "deals.txt"
    assert main([*common, "--deals", "12", "--per-deal", str(whole)]) == 0
    counting = list(_counting_deals()(1, 12))
    assert 2 <= len(counting) < 12
    numbers.write_text("# the deals that count\n" + "\n".join(map(str, counting)) + "\n")
    assert main([*common, "--deal-list", str(numbers), "--per-deal", str(listed)]) == 0
    assert f"{len(counting)} duplicate deals, seed 1 (deals listed in {numbers})" in capsys.readouterr().out
    by_index = {item["index"]: item for item in map(json.loads, whole.read_text().splitlines())}
    played = [json.loads(line) for line in listed.read_text().splitlines()]
    assert sorted(item["index"] for item in played) == counting
    assert all(item == by_index[item["index"]] for item in played)
    for index, item in by_index.items():
        if index not in counting:
            assert item["means"][0] == item["means"][1], item


def test_a_bad_deal_list_is_refused(tmp_path, capsys):
    common = ["arena", "--game", "doublehead_kids", "--workers", "1", "--quiet", "--deal-list"]
    for text, why in [("1\n1\n", "listed twice"), ("1\nseven\n", "line 2: 'seven'"), ("3\n", "at least two"),
                      ("-1\n2\n", "'-1' is not a deal number"), ("1\n²\n", "'²' is not a deal number")]:
        path = tmp_path / "deals.txt"
        path.write_text(text)
        assert main([*common, str(path)]) == 2
        assert why in capsys.readouterr().err
    assert main([*common, str(tmp_path / "missing.txt")]) == 2
    assert "No such file" in capsys.readouterr().err
    path.write_text("1\n2\n")
    assert main([*common, str(path), "--first", "3"]) == 2
    assert "one or the other" in capsys.readouterr().err
