"""Between deals and after the match (app/rooms/intermission.py), with the test game on SQLite and
an injected clock: the pause before the next deal lasts ``round_pause`` unless every person
present says "Next deal"; an absent person does not hold it up; a stale wake-up does not deal
twice. After the match, everyone present accepting a rematch opens a new table with the same
seats (a person who declined or left is replaced by a computer player) and tells every client.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import select

from app.clock import ManualClock
from app.db.engine import make_engine, make_sessionmaker, upgrade
from app.db.models import GameTable, PracticeRow, Seat, Tournament, TournamentSeat, User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from tests.platform_helpers import register_highcard


@pytest.fixture
async def world(tmp_path):
    register_highcard()
    url = f"sqlite+aiosqlite:///{tmp_path}/between.db"
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    clock = ManualClock()
    managers: list[RoomManager] = []

    async def table(round_pause: float, deals: int = 2, bots: int = 0, mark=None):
        rooms = RoomManager(MatchStore(sessions, clock), clock,
                            ActorConfig(bot_delay=0, round_pause=round_pause, away_grace=None),
                            rng_factory=lambda _table: random.Random(3))
        managers.append(rooms)
        lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
        rooms.on_rematch = lobby.rematch
        async with sessions() as db:
            users = [User(name=f"u{len(managers)}{i}", password_hash=None, is_guest=True,
                          created_at=clock.now()) for i in range(2)]
            db.add_all(users)
            await db.commit()
        viewers = [Viewer(id=u.id, name=u.name) for u in users]
        created = await lobby.create_table(viewers[0], NewTable(
            game="highcard", players=2 + bots, deals=deals, bots=bots))
        if mark is not None:  # e.g. make it a tournament's table before anyone plays
            async with sessions() as db:
                db.add_all(mark(created["id"], [u.id for u in users], clock.now()))
                await db.commit()
        await lobby.join(viewers[1], created["id"])
        actor = rooms.actor(created["id"])
        await actor.idle()
        conns = [Connection(v.id) for v in viewers]
        for conn in conns:
            actor.attach(conn)
        await actor.idle()
        return actor, conns

    yield {"table": table, "clock": clock, "sessions": sessions}
    for rooms in managers:
        await rooms.shutdown()
    await engine.dispose()


async def play_round(actor, conns) -> None:
    """Everyone moves (people through their connections, computer players by themselves)
    until the current deal is over."""
    number = actor.progress.current.number
    for _ in range(200):
        if actor.progress.current.number != number or actor.progress.round_over():
            return
        seat = actor.progress.game.to_act(actor.progress.state)[0]
        if seat < len(conns) and actor.table.seats[seat].bot_level is None:
            view = actor.progress.game.view(actor.progress.state, seat)
            move = next(a for a in view["legal"] if a["type"] != "announce")
            actor.act(conns[seat], {k: v for k, v in move.items() if k != "seat"})
        await actor.idle()
        await asyncio.sleep(0)
    raise AssertionError("the deal did not end")


def last_state(conn: Connection) -> dict:
    return [m for m in conn.pending() if "state" in m][-1]["state"]


async def test_the_pause_ends_at_round_pause_when_nobody_says_next_deal(world):
    actor, conns = await world["table"](round_pause=20)
    await play_round(actor, conns)
    assert actor.progress.round_over()
    state = last_state(conns[0])
    assert state["pause"] == {"remaining": 20.0, "ready": []}
    world["clock"].advance(19)
    await asyncio.sleep(0)
    await actor.idle()
    assert actor.progress.round_over()  # still the pause
    world["clock"].advance(1.5)
    for _ in range(5):
        await asyncio.sleep(0)
        await actor.idle()
    assert len(actor.progress.rounds) == 2 and not actor.progress.round_over()
    assert last_state(conns[0])["pause"] is None


async def test_next_deal_of_everyone_present_starts_it_at_once(world):
    actor, conns = await world["table"](round_pause=20)
    await play_round(actor, conns)
    actor.act(conns[0], {"type": "next_deal"})
    await actor.idle()
    assert actor.progress.round_over()  # the other person has not said it yet
    assert last_state(conns[1])["pause"]["ready"] == [0]
    actor.act(conns[1], {"type": "next_deal"})
    await actor.idle()
    assert len(actor.progress.rounds) == 2 and not actor.progress.round_over()
    # the pause's own wake-up later does not deal a third time
    world["clock"].advance(25)
    for _ in range(5):
        await asyncio.sleep(0)
        await actor.idle()
    assert len(actor.progress.rounds) == 2


async def test_an_absent_person_does_not_hold_the_next_deal_up(world):
    actor, conns = await world["table"](round_pause=20)
    await play_round(actor, conns)
    actor.detach(conns[1])
    await actor.idle()
    actor.act(conns[0], {"type": "next_deal"})
    await actor.idle()
    assert len(actor.progress.rounds) == 2 and not actor.progress.round_over()


async def test_next_deal_without_a_pause_is_ignored_quietly(world):
    actor, conns = await world["table"](round_pause=0)
    conns[0].pending()
    actor.act(conns[0], {"type": "next_deal"})
    await actor.idle()
    assert [m for m in conns[0].pending() if m["type"] == "error"] == []


async def test_rematch_when_everyone_present_accepts_same_seats_new_table(world):
    actor, conns = await world["table"](round_pause=0, deals=1, bots=1)
    actor.act(conns[0], {"type": "rematch"})  # not over yet: refused
    await actor.idle()
    assert [m["code"] for m in conns[0].pending() if m["type"] == "error"] == ["illegal"]
    await play_round(actor, conns)
    assert actor.progress.match_over()
    assert last_state(conns[0])["rematch"] == {"accepted": [], "declined": [], "table": None}
    actor.act(conns[0], {"type": "rematch"})
    await actor.idle()
    assert last_state(conns[1])["rematch"] == {"accepted": [0], "declined": [], "table": None}
    actor.act(conns[1], {"type": "rematch"})
    await actor.idle()
    table = last_state(conns[0])["rematch"]["table"]
    assert isinstance(table, int) and table != actor.table_id
    assert last_state(conns[1])["rematch"]["table"] == table
    async with world["sessions"]() as db:
        new = await db.get(GameTable, table)
        old = await db.get(GameTable, actor.table_id)
        assert (new.game, new.rules, new.players, new.deals, new.status) == \
            (old.game, old.rules, old.players, old.deals, "playing")
        seats = {s.seat: (s.user_id, s.bot_level) for s in (await db.execute(
            select(Seat).where(Seat.table_id == table))).scalars()}
        olds = {s.seat: (s.user_id, s.bot_level) for s in (await db.execute(
            select(Seat).where(Seat.table_id == actor.table_id))).scalars()}
    assert seats == olds  # the same people and computer players in the same seats


async def test_a_person_who_declined_and_left_is_replaced_by_a_computer_player(world):
    actor, conns = await world["table"](round_pause=0, deals=1, bots=1)
    await play_round(actor, conns)
    actor.act(conns[1], {"type": "rematch", "accept": False})
    actor.act(conns[0], {"type": "rematch"})
    await actor.idle()
    assert last_state(conns[0])["rematch"]["table"] is None  # seat 1 is present and declined
    actor.detach(conns[1])  # "Back to lobby"
    await actor.idle()
    table = last_state(conns[0])["rematch"]["table"]
    assert isinstance(table, int)
    async with world["sessions"]() as db:
        seats = {s.seat: (s.user_id, s.bot_level) for s in (await db.execute(
            select(Seat).where(Seat.table_id == table))).scalars()}
    assert seats[0] == (conns[0].user_id, None)
    assert seats[1] == (None, "beginner")


def _tournament_table(table_id: int, users: list[int], now) -> list:
    tournament = Tournament(
        id=1, name="Cup", game="highcard", preset=None, rules={}, format="series", table_size=2,
        rounds=1, deals=1, max_players=8, min_players=2, starts_at=now, pause=0, fill_wait=0,
        bot_level="beginner", turn_seconds=None, scoring="sum", visibility="public",
        secret="s", owner_id=None, status="running", seed="x", created_at=now)
    return [tournament, *(TournamentSeat(tournament_id=1, table_id=table_id, number=1, seat=seat,
                                         user_id=user) for seat, user in enumerate(users))]


def _practice_table(table_id: int, users: list[int], now) -> list:
    return [PracticeRow(table_id=table_id, source_table_id=table_id, round=1, index=0, deal=1,
                        seat=0, user_id=users[0], level="beginner", created_at=now)]


@pytest.mark.parametrize("mark", [_tournament_table, _practice_table],
                         ids=["tournament", "practice"])
async def test_a_tournament_or_practice_table_offers_no_rematch(world, mark):
    """The tournament seats its next round and a practice is begun again from its replay: no
    rematch in the state, a vote for one refused, "Back to lobby" (a decline) quiet."""
    actor, conns = await world["table"](round_pause=0, deals=1, bots=1, mark=mark)
    await play_round(actor, conns)
    assert actor.progress.match_over()
    assert last_state(conns[0])["rematch"] is None
    actor.act(conns[0], {"type": "rematch"})
    actor.act(conns[1], {"type": "rematch", "accept": False})
    await actor.idle()
    assert [m["message"] for m in conns[0].pending() if m["type"] == "error"] == \
        ["this table offers no rematch"]
    assert not [m for m in conns[1].pending() if m["type"] == "error"]
    async with world["sessions"]() as db:
        tables = (await db.execute(select(GameTable.id))).scalars().all()
    assert tables == [actor.table_id]  # nothing opened
