"""Turn timers and takeover on SQLite and PostgreSQL, on an injected clock:

- every seat (and a spectator) sees the mover's seconds left;
- a restart resumes the timer from its stored start (wall clock), not a fresh full timer, and
  a person who does not come back to the restarted server is replaced after the grace;
- when the time runs out, or a person is gone past the grace period, a computer player of the
  table's level moves for the seat until the person is back;
- leaving a rated match early is recorded (``departures``) and shown in the profile; a person
  who comes back before the end is not counted; unrated matches record nothing.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import select

from app.clock import ManualClock
from app.db.models import Departure, User
from app.history.service import History
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from tests.platform_helpers import migrated_database

CONFIG = ActorConfig(bot_delay=0, round_pause=0, away_grace=None)


@pytest.fixture
async def world(db_url):
    engine, sessions = await migrated_database(db_url)
    clock = ManualClock()
    managers: list[RoomManager] = []

    def rooms(config: ActorConfig = CONFIG) -> RoomManager:
        made = RoomManager(MatchStore(sessions, clock), clock, config,
                           rng_factory=lambda table_id: random.Random(table_id))
        managers.append(made)
        return made

    async def people(*names: str) -> list[Viewer]:
        async with sessions() as db:
            users = [User(name=n, password_hash="x", is_guest=False, created_at=clock.now())
                     for n in names]
            db.add_all(users)
            await db.commit()
            return [Viewer(id=u.id, name=u.name) for u in users]

    yield {"sessions": sessions, "clock": clock, "rooms": rooms, "people": people}
    for manager in managers:
        await manager.shutdown()
    await engine.dispose()


async def open_table(world, manager: RoomManager, spec: NewTable, *names: str):
    """The first of ``names`` opens the table, the others join; returns (actor, viewers)."""
    viewers = await world["people"](*names)
    lobby = Lobby(world["sessions"], world["clock"], manager, Friends(world["sessions"],
                                                                        world["clock"]),
                  any_deal_count=True)
    table = await lobby.create_table(viewers[0], spec)
    for viewer in viewers[1:]:
        await lobby.join(viewer, table["id"])
    actor = manager.actor(table["id"])
    await actor.idle()
    return actor, viewers


async def settle(world, actor, seconds: float = 0.0) -> None:
    """Move the clock, then let the actor run every command that wakes (timers, moves)."""
    async def drain() -> None:
        for _ in range(3):
            for _ in range(5):
                await asyncio.sleep(0)  # timers start sleeping; woken ones queue commands
            await actor.idle()

    await drain()
    if seconds:
        world["clock"].advance(seconds)
        await drain()


def mover(actor) -> int:
    return actor.progress.game.to_act(actor.progress.state)[0]


def last_state(conn: Connection) -> dict:
    return [m for m in conn.pending() if m["type"] in ("event", "snapshot")][-1]["state"]


async def attach(actor, viewers) -> list[Connection]:
    conns = [Connection(v.id) for v in viewers]
    for conn in conns:
        actor.attach(conn)
    await actor.idle()
    return conns


async def test_every_seat_sees_the_movers_countdown(world):
    actor, viewers = await open_table(world, world["rooms"](), NewTable(
        game="highcard", players=2, deals=1, turn_seconds=30), "ann", "bob")
    conns = await attach(actor, viewers)
    spectator = Connection(None)
    actor.attach(spectator)
    await settle(world, actor, 12)
    seat = mover(actor)
    for conn in [*conns, spectator]:
        conn.pending()
    actor.seats_changed()  # any change: a new message to every seat
    await actor.idle()
    states = [last_state(c) for c in [*conns, spectator]]
    for state in states:
        assert state["timers"] == [{"seat": seat, "remaining": 18.0}]
        assert state["table"]["turn_seconds"] == 30
    assert states[seat]["deadline"] == 18.0 and states[1 - seat]["deadline"] is None


async def test_a_restart_resumes_the_turn_timer_from_its_stored_start(world):
    first = world["rooms"]()
    actor, viewers = await open_table(world, first, NewTable(
        game="highcard", players=2, deals=1, turn_seconds=30), "cat", "dan")
    conns = await attach(actor, viewers)
    seat = mover(actor)
    actor.act(conns[seat], {"type": "declare", "value": "healthy"})  # logged at t=0
    await actor.idle()
    seat = mover(actor)
    await settle(world, actor, 20)  # 20 of the next mover's 30 s pass, then the server stops
    await first.shutdown()
    second = world["rooms"]()
    again = second.actor(actor.table_id)
    await again.idle()
    assert mover(again) == seat
    watcher = Connection(viewers[1 - seat].id)
    again.attach(watcher)
    await again.idle()
    assert last_state(watcher)["timers"] == [{"seat": seat, "remaining": 10.0}]
    logged = len(again.progress.current.actions)
    await settle(world, again, 9)
    assert len(again.progress.current.actions) == logged  # not yet
    await settle(world, again, 1.5)  # the stored deadline: the computer moves for the seat
    assert again.progress.current.actions[logged]["seat"] == seat


async def test_when_the_time_runs_out_a_computer_plays_the_seat_until_the_person_is_back(world):
    actor, viewers = await open_table(world, world["rooms"](), NewTable(
        game="highcard", players=2, deals=3, turn_seconds=15), "eve", "fay")
    conns = await attach(actor, viewers)
    silent = mover(actor)
    other = 1 - silent
    await settle(world, actor, 15)  # silent's time runs out: the computer moves once
    assert actor.progress.current.actions[-1]["seat"] == silent and silent not in actor.clocks.taken_over
    while mover(actor) != silent:  # the other's turns, then silent's time runs out again
        legal = actor.progress.game.legal_actions(actor.progress.state, other)
        actor.act(conns[other], {k: v for k, v in legal[0].items() if k != "seat"})
        await settle(world, actor)
    await settle(world, actor, 15)  # in a row: the computer takes the seat over
    assert actor.progress.current.actions[-1]["seat"] == silent
    state = last_state(conns[other])
    assert state["table"]["seats"][silent]["autoplay"] is True
    # from now on the computer moves for silent at once, with no timer, on every turn
    for _ in range(6):
        if actor.table.status == "finished" or actor.progress.round_over():
            break
        if mover(actor) == other:
            legal = actor.progress.game.legal_actions(actor.progress.state, other)
            move = {k: v for k, v in legal[0].items() if k != "seat"}
            actor.act(conns[other], move)
        await settle(world, actor)
        assert silent not in {t["seat"] for t in last_state(conns[other])["timers"]}
    async with world["sessions"]() as db:
        row = (await db.execute(select(Departure))).scalar_one()
        assert (row.seat, row.reason, row.returned_at) == (silent, "timeout", None)
    actor.act(conns[silent], {"type": "back"})  # the person is back
    await actor.idle()
    assert last_state(conns[other])["table"]["seats"][silent]["autoplay"] is False
    async with world["sessions"]() as db:
        row = (await db.execute(select(Departure))).scalar_one()
        assert row.returned_at is not None


async def test_a_person_gone_past_the_grace_is_replaced_until_they_reconnect(world):
    manager = world["rooms"](ActorConfig(bot_delay=0, round_pause=0, away_grace=30))
    actor, viewers = await open_table(world, manager, NewTable(  # private: no move clock
        game="highcard", players=2, deals=3, opponents="invited", invite=["hal"]), "gil", "hal")
    conns = await attach(actor, viewers)
    gone = mover(actor)
    actor.detach(conns[gone])
    await settle(world, actor, 29)
    assert actor.progress.current.actions == []  # within the grace: the table waits
    await settle(world, actor, 1.5)
    assert [a["seat"] for a in actor.progress.current.actions] == [gone]
    assert last_state(conns[1 - gone])["table"]["seats"][gone]["autoplay"] is True
    back = Connection(viewers[gone].id)
    actor.attach(back)
    await actor.idle()
    state = last_state(back)
    assert state["table"]["seats"][gone]["autoplay"] is False


async def rated_match_with_a_leaver(world, *, comes_back: bool):
    """Doppelkopf (rated: two people, two computer players), one deal; the person at seat 1
    goes away at once. Returns (leaver's Viewer, History)."""
    manager = world["rooms"](ActorConfig(bot_delay=0, round_pause=0, away_grace=10))
    actor, viewers = await open_table(world, manager, NewTable(  # a clock slower than the grace
        game="doppelkopf", players=4, deals=1, bots=2, turn_seconds=600), "ivy", "jon")
    conns = await attach(actor, viewers)
    actor.detach(conns[1])
    rng = random.Random(5)
    returned = False
    for _ in range(400):
        if actor.table.status == "finished":
            break
        if comes_back and not returned and len(actor.progress.current.actions) > 20:
            conns[1] = Connection(viewers[1].id)
            actor.attach(conns[1])
            returned = True
        progress = actor.progress
        to_act = progress.game.to_act(progress.state) if not progress.round_over() else []
        if to_act and to_act[0] == 0:
            legal = [a for a in progress.game.legal_actions(progress.state, 0)
                     if a["type"] != "announce"]
            actor.act(conns[0], {k: v for k, v in rng.choice(legal).items() if k != "seat"})
        if returned and to_act and to_act[0] == 1:
            legal = [a for a in progress.game.legal_actions(progress.state, 1)
                     if a["type"] != "announce"]
            actor.act(conns[1], {k: v for k, v in rng.choice(legal).items() if k != "seat"})
        await settle(world, actor, 11)
    assert actor.table.status == "finished"
    return viewers[1], History(world["sessions"], world["clock"])


async def test_leaving_a_rated_match_early_is_recorded_and_shown_in_the_profile(world):
    leaver, history = await rated_match_with_a_leaver(world, comes_back=False)
    profile = await history.profile(leaver.name)
    assert [(g["game"], g["left_early"]) for g in profile["games"]] == [("doppelkopf", 1)]
    assert profile["recent"][0]["left_early"] is True
    stayed = await history.profile("ivy")
    assert stayed["games"][0]["left_early"] == 0 and stayed["recent"][0]["left_early"] is False


async def test_coming_back_before_the_end_is_not_leaving_early(world):
    leaver, history = await rated_match_with_a_leaver(world, comes_back=True)
    profile = await history.profile(leaver.name)
    assert profile["games"][0]["left_early"] == 0
    async with world["sessions"]() as db:
        row = (await db.execute(select(Departure))).scalar_one()
        assert row.returned_at is not None  # it was recorded, and the return with it


async def test_an_unrated_match_records_no_departure(world):
    manager = world["rooms"](ActorConfig(bot_delay=0, round_pause=0, away_grace=10))
    actor, viewers = await open_table(world, manager, NewTable(
        game="doppelkopf", players=4, deals=1, bots=3), "kim")
    conns = await attach(actor, viewers)
    actor.detach(conns[0])
    for _ in range(200):
        if actor.table.status == "finished":
            break
        await settle(world, actor, 11)
    assert actor.table.status == "finished"
    async with world["sessions"]() as db:
        assert (await db.execute(select(Departure))).scalars().all() == []


async def test_after_a_restart_a_person_who_does_not_return_is_replaced_after_the_grace(world):
    config = ActorConfig(bot_delay=0, round_pause=100, away_grace=30)
    first = world["rooms"](config)
    actor, viewers = await open_table(world, first, NewTable(  # private: no move clock
        game="highcard", players=2, deals=2, opponents="invited", invite=["max"]), "lea", "max")
    await attach(actor, viewers)
    seat = mover(actor)
    await first.shutdown()  # nobody reconnects to the restarted server
    again = world["rooms"](config).actor(actor.table_id)
    await settle(world, again, 29)
    assert again.progress.current.actions == []
    await settle(world, again, 1.5)  # both are gone: computer players play the first deal out
    assert again.progress.current.actions[0]["seat"] == seat
    async with world["sessions"]() as db:
        rows = (await db.execute(select(Departure).order_by(Departure.left_at))).scalars().all()
        assert [(r.seat, r.reason) for r in rows] == [(seat, "away"), (1 - seat, "away")]


async def test_the_new_game_form_sets_the_time_per_move(app, new_client):
    from tests.test_lobby_games import form_table, registered

    alice = await registered(new_client, "alice")
    page = (await alice.get("/")).text
    assert 'id="turn-seconds"' in page and '<option value="" selected' in page  # standard
    timed = await form_table(alice, game="doppelkopf", turn_seconds="60")
    untimed = await form_table(alice, game="doppelkopf", turn_seconds="", opponents="friend")
    public = await form_table(alice, game="doppelkopf", turn_seconds="")  # Anyone: a clock
    tables = {t["id"]: t for t in (await alice.get("/api/tables")).json()}
    assert tables[timed]["turn_seconds"] == 60 and tables[untimed]["turn_seconds"] is None
    assert tables[public]["turn_seconds"] == 30
    bad = await alice.client.post("/tables", data={
        "csrf": await alice.csrf(), "game": "doppelkopf", "deals": "1", "turn_seconds": "2"})
    assert bad.status_code == 400 and "Time per move: must be at least 5" in bad.text
