"""Play from here (app.lobby.practice), on SQLite and PostgreSQL: a private table that starts at
a moment of a finished match, for every game; the seat's view there is the replay's view at
that moment; the deal's result is compared with what happened; bad input creates nothing."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import func, select

from app.clock import Clock, ManualClock
from app.db.models import GameTable, Match, PracticeRow, RatingChange, Result, Round
from app.history.replay import replay_frames
from app.lobby.friends import Friends
from app.lobby.practice import Practice
from app.lobby.service import Lobby, LobbyError, NewTable, SeatTaken
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from app.scenario import load_scenario, play_round
from tests.platform_helpers import migrated_database
from tests.ratings.test_rating_store import make_users, play_out

GAMES = ["doppelkopf", "doublehead_kids", "doppelganger_tricks", "doppio"]


@pytest.fixture
async def world(db_url):
    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    rooms = RoomManager(MatchStore(sessions, clock), clock, ActorConfig(bot_delay=0, round_pause=0),
                        rng_factory=lambda table_id: random.Random(table_id))
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
    # a room for looking at a practice table as it was created: its computer players think
    # for a second of a clock that only the test moves
    still = ManualClock()
    paused = RoomManager(MatchStore(sessions, still), still, ActorConfig(bot_delay=1.0, round_pause=0),
                         rng_factory=lambda table_id: random.Random(table_id))
    practice = Practice(sessions, clock, lobby)
    yield {"sessions": sessions, "rooms": rooms, "lobby": lobby, "paused": paused,
           "practice": practice, "playing": practice}
    await paused.shutdown()
    await rooms.shutdown()
    await engine.dispose()


async def finished(world, game: str, *, deals: int = 2, opponents: str = "any"):
    """A finished match of ``game``: anna at seat 0, computer players elsewhere."""
    anna, = await make_users(world["sessions"], f"anna_{game[:6]}")
    table = await world["lobby"].create_table(anna, NewTable(game=game, deals=deals, bots=3,
                                                             opponents=opponents))
    await play_out(world, table["id"], [anna])
    return table["id"], anna


async def count(world, model) -> int:
    async with world["sessions"]() as db:
        return (await db.execute(select(func.count()).select_from(model))).scalar_one()


@pytest.mark.parametrize("game", GAMES)
async def test_the_seats_view_at_the_new_table_is_the_replays_at_that_moment(world, game):
    table_id, anna = await finished(world, game)
    document = await world["lobby"].scenario(table_id, anna)
    scenario = load_scenario(document)
    round_index = len(document["rounds"]) - 1  # the last deal: earlier ones are copied whole
    actions = document["rounds"][round_index]["actions"]
    index = len(actions) // 2
    seat = 2  # a computer player's seat: the player takes it over from here
    new_id = await world["practice"].start(anna, table_id, round_index=round_index, index=index,
                                           seat=seat, level="beginner")
    actor = world["paused"].actor(new_id)
    actor.attach(Connection(anna.id))  # the player opens the table
    await actor.idle()
    state = actor.audiences.state(seat)
    expected, _ = play_round(scenario, round_index, limit=index)
    core = scenario.game.view(expected, seat)
    assert scenario.game.view(actor.progress.state, seat) == core  # the rules' projection
    # what the player's browser gets: the same, but for what the room adds (the round's number)
    # and narrows while a Doppio catch window is open (only answers, its seconds left)
    sent = dict(state["view"])
    assert sent.pop("round") == round_index
    room = {"legal", "legal_actions", "catch_window"}
    assert {k: v for k, v in sent.items() if k not in room} == {k: v for k, v in core.items() if k not in room}
    frames = replay_frames(document)["rounds"][round_index]["frames"]
    assert sorted(map(str, state["view"]["hand"])) == sorted(map(str, frames[index]["hands"][seat]))
    # the earlier deals are there with their scores, as the score sheet showed them then
    assert [row["scores"] for row in state["scores"]["rounds"]] == [
        r["scores"] for r in replay_frames(document)["rounds"][:round_index]]
    seats = {s["seat"]: s for s in state["table"]["seats"]}
    assert seats[seat]["name"] == anna.name and seats[seat]["bot"] is None
    assert all(seats[s]["bot"] == "beginner" for s in seats if s != seat)
    async with world["sessions"]() as db:
        table = await db.get(GameTable, new_id)
        assert (table.status, table.opponents, table.owner_id, table.turn_seconds) == (
            "playing", "invited", anna.id, None)


async def test_the_deal_is_played_on_and_compared_with_what_happened(world):
    table_id, anna = await finished(world, "doppelkopf", deals=1)
    document = await world["lobby"].scenario(table_id, anna)
    happened = replay_frames(document)["rounds"][0]["scores"][0]
    new_id = await world["playing"].start(anna, table_id, round_index=0, index=20, seat=0,
                                          level="intermediate")
    before = await world["playing"].info(new_id)
    assert before == {"table": new_id, "source": table_id, "round": 0, "index": 20, "deal": 1,
                      "seat": 0, "level": "intermediate", "happened": happened, "played": None}
    await play_out(world, new_id, [anna])
    after = await world["playing"].info(new_id)
    async with world["sessions"]() as db:
        match_id = (await db.execute(select(Match.id).where(Match.table_id == new_id))).scalar_one()
        outcome = (await db.execute(select(Round.outcome).where(Round.match_id == match_id))).scalar_one()
        results = (await db.execute(select(func.count()).select_from(Result).where(
            Result.match_id == match_id))).scalar_one()
        rated = (await db.execute(select(func.count()).select_from(RatingChange).where(
            RatingChange.match_id == match_id))).scalar_one()
    assert after["played"] == outcome["scores"][0] and after["happened"] == happened
    assert results == 4 and rated == 0  # one person: never rated
    # the first 20 actions are those of the match it came from
    new_document = await world["lobby"].scenario(new_id, anna)
    assert new_document["rounds"][0]["actions"][:20] == document["rounds"][0]["actions"][:20]
    assert new_document["rounds"][0]["deal"] == document["rounds"][0]["deal"]


async def test_bad_requests_create_nothing(world):
    table_id, anna = await finished(world, "doppelkopf", deals=1, opponents="invited")
    carl, = await make_users(world["sessions"], "carl")
    practice = world["practice"]
    document = await world["lobby"].scenario(table_id, anna)
    last = len(document["rounds"][0]["actions"])
    tables = await count(world, GameTable)
    cases = [
        (carl, {"round_index": 0, "index": 3}, 404),  # a private match of others
        (anna, {"round_index": 1, "index": 0}, 404),  # no such round
        (anna, {"round_index": 0, "index": last + 1}, 404),  # no such moment
        (anna, {"round_index": 0, "index": last}, 409),  # the deal is over there
        (anna, {"round_index": 0, "index": 3, "seat": 4}, 400),
        (anna, {"round_index": 0, "index": 3, "level": "grandmaster"}, 400),
    ]
    for who, moment, status in cases:
        with pytest.raises(LobbyError) as refused:
            await practice.start(who, table_id, **{"seat": 0, "level": "expert", **moment})
        assert refused.value.status == status, moment
    open_table = await world["lobby"].create_table(carl, NewTable(game="doppelkopf", deals=1, bots=1))
    with pytest.raises(LobbyError) as early:
        await practice.start(carl, open_table["id"], round_index=0, index=0, seat=0, level="expert")
    assert early.value.status in (404, 409)
    assert await count(world, GameTable) == tables + 1  # only carl's own new table
    assert await count(world, PracticeRow) == 0
    # one live seat: a second practice while the first runs is refused
    await practice.start(anna, table_id, round_index=0, index=3, seat=0, level="expert")
    with pytest.raises(SeatTaken):
        await practice.start(anna, table_id, round_index=0, index=5, seat=0, level="expert")
    assert await count(world, PracticeRow) == 1
