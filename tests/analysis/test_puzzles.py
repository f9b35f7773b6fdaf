"""Puzzles from the analysis' costliest decisions (app.analysis.puzzles), on SQLite and
PostgreSQL: only decisions with the same clear answer in every valuation become puzzles; a
puzzle is its player's (the daily puzzle everyone's); answers are checked and kept once."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from sqlalchemy import func, select

from app.analysis import jobs, puzzles
from app.analysis.estimators import action_key
from app.analysis.puzzles import PuzzleError, Puzzles, good_answers, stable
from app.analysis.service import Analyses
from app.clock import ManualClock
from app.db.models import ActionRow, GameTable, Match, Puzzle, PuzzleAnswer, Result, Round, Seat
from app.games.registry import get_game
from app.lobby.friends import Friends
from app.lobby.service import Lobby
from app.rooms.actor import ActorConfig
from app.rooms.manager import RoomManager
from app.rooms.match import outcome_json
from app.rooms.store import MatchStore
from app.scenario import load_scenario, play_round
from tests.analysis.test_analyse import BLUNDER, THROWN_AWAY
from tests.platform_helpers import migrated_database
from tests.ratings.test_rating_store import make_users

TOLERANCE = 0.25


def entry(values, taken="play:A", analysed=True):
    best = max(values, key=values.get)
    return {"analysed": analysed, "taken": taken, "best": best, "values": values,
            "cost": values[best] - values[taken]}


def test_good_answers_are_the_best_and_those_within_the_tolerance():
    assert good_answers({"a": 1.0, "b": 3.0, "c": 2.8}, TOLERANCE, False) == {"b", "c"}
    assert good_answers({"a": 1.0, "b": 3.0, "c": 2.8}, TOLERANCE, True) == {"a"}


@pytest.mark.parametrize("again, made", [
    ({"play:A": -1.0, "play:B": 2.0, "play:C": 0.0, "play:D": 0.0}, True),  # the same answer
    ({"play:A": -1.0, "play:B": 2.0, "play:C": 1.9, "play:D": 0.0}, True),  # and one as good
    ({"play:A": -1.0, "play:B": 0.0, "play:C": 2.0, "play:D": 0.0}, False),  # another best card
    ({"play:A": -1.0, "play:B": 2.0, "play:C": 1.9, "play:D": 1.8}, False),  # three good of four
    ({"play:A": 1.6, "play:B": 2.0, "play:C": 0.0, "play:D": 0.0}, False),  # the card played is nearly as good
])
def test_only_a_decision_whose_best_answer_holds_in_every_valuation_is_stable(again, made):
    first = entry({"play:A": -1.0, "play:B": 2.5, "play:C": 0.0, "play:D": 0.0})
    assert stable(first, [entry(again), entry(again)], TOLERANCE, False) is made
    assert stable(first, [entry(again, analysed=False)], TOLERANCE, False) is False


@pytest.fixture
async def world(db_url):
    engine, sessions = await migrated_database(db_url)
    clock = ManualClock(datetime(2025, 3, 1, 12, tzinfo=UTC))
    rooms = RoomManager(MatchStore(sessions, clock), clock, ActorConfig(bot_delay=0, round_pause=0))
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock))
    analyses = Analyses(sessions, clock, partial(lobby.scenario, check=False), budget_ms=60_000,
                        worlds=32)
    made = Puzzles(sessions, clock, lobby.table)
    analyses.on_done = made.make
    yield {"sessions": sessions, "lobby": lobby, "analyses": analyses, "puzzles": made,
           "clock": clock}
    await analyses.close()
    await rooms.shutdown()
    await engine.dispose()


async def stored_match(world, document, owner, *, opponents="any") -> int:
    """A finished match of ``document`` in the database: ``owner`` at seat 0, computer players
    elsewhere (as a table's room would have stored it); returns the table id."""
    scenario = load_scenario(document)
    game = get_game(document["game"])
    now = world["clock"].now()
    async with world["sessions"]() as db:
        table = GameTable(game=document["game"], preset="ddv", rules=game.rules_json(scenario.rules),
                          players=4, deals=1, opponents=opponents, skill="expert", secret="s" * 16,
                          owner_id=owner.id, status="finished", created_at=now, seated=4)
        db.add(table)
        await db.flush()
        for seat in range(4):
            db.add(Seat(table_id=table.id, seat=seat, user_id=owner.id if seat == 0 else None,
                        bot_level=None if seat == 0 else "expert"))
        match = Match(table_id=table.id, game=table.game, rules=table.rules, players=4, deals=1,
                      started_at=now, finished_at=now)
        db.add(match)
        await db.flush()
        state, _ = play_round(scenario, 0)
        outcome = game.outcome(state)
        stored = document["rounds"][0]
        row = Round(match_id=match.id, number=0, dealer=stored["dealer"], deal=stored["deal"],
                    deck=stored.get("deck", []), outcome=outcome_json(outcome), dealt_at=now)
        db.add(row)
        await db.flush()
        db.add_all(ActionRow(round_id=row.id, idx=i, action=a, created_at=now)
                   for i, a in enumerate(stored["actions"]))
        for seat in range(4):
            db.add(Result(match_id=match.id, seat=seat, user_id=owner.id if seat == 0 else None,
                          bot_level=None if seat == 0 else "expert", score=outcome.scores[seat],
                          winner=outcome.scores[seat] > 0))
        await db.commit()
        return table.id


async def analysed(world, owner, **options) -> int:
    table_id = await stored_match(world, json.loads(THROWN_AWAY.read_text()), owner, **options)
    await world["analyses"].request(owner.id, table_id)
    await world["analyses"].idle()
    assert (await world["analyses"].status(owner.id, table_id))["status"] == "done"
    return table_id


async def rows(world, model):
    async with world["sessions"]() as db:
        return (await db.execute(select(model))).scalars().all()


async def test_the_thrown_away_deal_becomes_a_puzzle_of_its_player(world):
    anna, = await make_users(world["sessions"], "anna")
    table_id = await analysed(world, anna)
    made = await rows(world, Puzzle)
    doc = (await world["analyses"].status(anna.id, table_id))["result"]
    assert made, "the blunder of thrown_away.json makes a puzzle"
    for puzzle in made:  # each from a candidate of the analysis, in its player's view
        mark = next(e for e in doc["decisions"] if (e["round"], e["index"]) == (puzzle.round, puzzle.index))
        assert mark in puzzles.candidates(doc)
        assert puzzle.user_id == anna.id and puzzle.seat == 0 and puzzle.public is True
        assert puzzle.action_values == mark["values"] and puzzle.best == mark["best"]
        assert puzzle.best in puzzle.good and mark["taken"] not in puzzle.good
        assert puzzle.view["seat"] == 0 and "hands" not in json.dumps(puzzle.view)
    assert BLUNDER in {(p.round, p.index) for p in made}
    mine = await world["puzzles"].mine(anna.id)
    assert [p["id"] for p in mine] == sorted((p.id for p in made), reverse=True)


async def test_a_decision_whose_answer_changes_with_the_seed_makes_no_puzzle(world, monkeypatch):
    real = jobs.value

    def unsteady(game, rules, decision, seed, budget_ms, worlds):
        """The analysis' own valuation, but another seed's finds the opposite order."""
        found = real(game, rules, decision, seed, budget_ms, worlds)
        if seed == decision_seed[0] or not found.get("analysed"):
            return found
        values = dict(found["values"])
        order = sorted(values, key=values.get)
        values[order[-1]], values[order[0]] = values[order[0]], values[order[-1]]
        return {**found, "values": values}

    decision_seed = [None]
    monkeypatch.setattr(jobs, "value", unsteady)
    anna, = await make_users(world["sessions"], "anna")
    async with world["sessions"]() as db:
        decision_seed[0] = ((await db.execute(select(func.max(Match.id)))).scalar_one() or 0) + 1
    await analysed(world, anna)
    assert await rows(world, Puzzle) == []


async def test_answers_are_checked_kept_once_and_only_for_the_puzzles_player(world):
    anna, bert = await make_users(world["sessions"], "anna", "bert")
    await analysed(world, anna, opponents="invited")
    puzzle = (await rows(world, Puzzle))[0]
    service = world["puzzles"]
    assert puzzle.public is False
    shown = await service.puzzle(anna.id, puzzle.id, "en")
    assert shown["mine"] and shown["answered"] is None and shown["view"] == puzzle.view
    for who in (bert.id, None):  # another player's puzzle: not shown, not answered
        with pytest.raises(PuzzleError) as refused:
            await service.puzzle(who, puzzle.id, "en")
        assert refused.value.status == 403
    with pytest.raises(PuzzleError) as other:
        await service.answer(bert.id, puzzle.id, puzzle.best_action, "en")
    assert other.value.status == 403
    with pytest.raises(PuzzleError) as bad:
        await service.answer(anna.id, puzzle.id, {"type": "play", "card": "XX"}, "en")
    assert bad.value.status == 400
    with pytest.raises(PuzzleError) as missing:
        await service.answer(anna.id, 999_999, puzzle.best_action, "en")
    assert missing.value.status == 404
    assert await rows(world, PuzzleAnswer) == []
    wrong = {k: v for k, v in puzzle.taken.items() if k != "seat"}
    first = await service.answer(anna.id, puzzle.id, wrong, "de")
    assert first["correct"] is False and first["answer"] == action_key(puzzle.taken)
    assert first["best"] == puzzle.best and first["source"] == {
        "table": puzzle.table_id, "round": puzzle.round, "index": puzzle.index}
    assert first["why"] and any(ch.isdigit() for ch in first["why"])
    again = await service.answer(anna.id, puzzle.id, puzzle.best_action, "en")
    assert again["correct"] is False and again["chosen"] == puzzle.best  # the first answer stays
    kept = await rows(world, PuzzleAnswer)
    assert [(a.user_id, a.correct) for a in kept] == [(anna.id, False)]


async def test_the_daily_puzzle_comes_from_public_matches_of_earlier_days(world):
    anna, bert = await make_users(world["sessions"], "anna", "bert")
    await analysed(world, anna)
    service = world["puzzles"]
    assert await service.daily_id() is None  # made today: from tomorrow on
    world["clock"].advance(timedelta(days=1).total_seconds())
    daily = await service.daily_id()
    made = await rows(world, Puzzle)
    assert daily in {p.id for p in made}
    puzzle = next(p for p in made if p.id == daily)
    assert (await service.puzzle(bert.id, daily, "en"))["daily"] is True
    assert (await service.puzzle(None, daily, "en"))["mine"] is False
    solved = await service.answer(bert.id, daily, puzzle.best_action, "en")
    assert solved["correct"] is True and puzzle.best in solved["good"]
    world["clock"].advance(timedelta(hours=11).total_seconds())
    assert await service.daily_id() == daily  # the same all day
