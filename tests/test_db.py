"""The database on SQLite and PostgreSQL: migrations, atomic seats, the event log and rebuild.

The PostgreSQL runs use a fresh database per test (created and dropped here), so they never
touch data of other suites.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import func, inspect, select, text
from sqlalchemy.exc import IntegrityError

from app.clock import Clock
from app.db.engine import upgrade
from app.db.models import ActionRow, GameTable, Match, Seat, User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, LobbyError, NewTable, Viewer
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from tests.platform_helpers import (
    migrated_database,
)

EXPECTED_TABLES = {"users", "sessions", "friendships", "tables", "seats", "invitations",
                   "matches", "rounds", "actions", "results", "ratings", "rating_history",
                   "blocks", "departures", "alembic_version"}


@pytest.fixture
async def world(db_url):
    """Migrated database, services with computer players thinking 0 s, no pause between deals."""
    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    store = MatchStore(sessions, clock)
    rooms = RoomManager(store, clock, ActorConfig(bot_delay=0, round_pause=0),
                        rng_factory=lambda table_id: random.Random(table_id))
    friends = Friends(sessions, clock)
    lobby = Lobby(sessions, clock, rooms, friends, any_deal_count=True)
    world = {"engine": engine, "sessions": sessions, "store": store, "rooms": rooms,
             "lobby": lobby, "clock": clock, "url": db_url}
    yield world
    await world["rooms"].shutdown()
    await engine.dispose()


async def make_users(sessions, *names: str) -> list[Viewer]:
    async with sessions() as db:
        users = [User(name=n, password_hash=None, is_guest=True, created_at=Clock().now())
                 for n in names]
        db.add_all(users)
        await db.commit()
        return [Viewer(id=u.id, name=u.name) for u in users]


async def test_migrations_upgrade_to_head_twice(world):
    await asyncio.to_thread(upgrade, world["url"])  # a second run changes nothing
    async with world["engine"].connect() as conn:
        names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
    assert EXPECTED_TABLES <= names
    from alembic.script import ScriptDirectory

    from app.db.engine import alembic_config

    assert version == ScriptDirectory.from_config(alembic_config(world["url"])).get_current_head()
    assert version != "0001"


async def test_two_concurrent_takes_of_one_seat_exactly_one_wins(world):
    sessions = world["sessions"]
    owner, a, b = await make_users(sessions, "owner", "anna", "bert")
    table = await world["lobby"].create_table(owner, NewTable(game="highcard", players=3))

    async def take(user: Viewer) -> bool:
        async with sessions() as db:
            db.add(Seat(table_id=table["id"], seat=1, user_id=user.id))
            try:
                await db.commit()
                return True
            except IntegrityError:
                return False

    results = await asyncio.gather(take(a), take(b))
    assert sorted(results) == [False, True]
    async with sessions() as db:
        holders = (await db.execute(select(Seat.user_id).where(
            Seat.table_id == table["id"], Seat.seat == 1))).scalars().all()
    assert len(holders) == 1


async def test_a_user_cannot_hold_two_seats_of_one_table(world):
    sessions = world["sessions"]
    (owner,) = await make_users(sessions, "owner")
    table = await world["lobby"].create_table(owner, NewTable(game="highcard", players=3))
    async with sessions() as db:
        db.add(Seat(table_id=table["id"], seat=2, user_id=owner.id))
        with pytest.raises(IntegrityError):
            await db.commit()


async def test_racing_joins_for_the_last_seat_start_the_match_once(world):
    sessions = world["sessions"]
    owner, a, b = await make_users(sessions, "owner", "anna", "bert")
    table = await world["lobby"].create_table(owner, NewTable(game="highcard", players=2))

    async def join(user: Viewer) -> int | str:
        try:
            return await world["lobby"].join(user, table["id"])
        except LobbyError as err:
            return err.status

    results = await asyncio.gather(join(a), join(b))
    assert sorted(results, key=str) == [1, 409]
    actor = world["rooms"].actor(table["id"])
    await actor.idle()
    async with sessions() as db:
        matches = (await db.execute(select(func.count()).select_from(Match))).scalar_one()
        seats = (await db.execute(select(func.count()).select_from(Seat)
                                  .where(Seat.table_id == table["id"]))).scalar_one()
    assert (matches, seats) == (1, 2)


async def test_event_log_appends_and_a_new_process_rebuilds_the_same_state(world):
    sessions, lobby = world["sessions"], world["lobby"]
    owner, guest = await make_users(sessions, "owner", "guest")
    table = await lobby.create_table(owner, NewTable(game="highcard", players=2, deals=3))
    await lobby.join(guest, table["id"])
    rooms = world["rooms"]
    actor = rooms.actor(table["id"])
    conns = {0: Connection(owner.id), 1: Connection(guest.id)}
    for conn in conns.values():
        actor.attach(conn)
    await actor.idle()
    for _ in range(5):  # declare twice, then three cards
        seat = actor.progress.game.to_act(actor.progress.state)[0]
        legal = actor.progress.game.legal_actions(actor.progress.state, seat)
        action = next(a for a in legal if a["type"] != "announce")
        actor.act(conns[seat], {k: v for k, v in action.items() if k != "seat"})
        await actor.idle()
    before = actor.progress.game.state_json(actor.progress.state)
    logged = actor.progress.current.actions
    async with sessions() as db:
        stored = (await db.execute(select(ActionRow.action).order_by(ActionRow.id))).scalars().all()
    assert stored == logged and len(stored) == 5
    await rooms.shutdown()
    assert [m["type"] for m in conns[0].pending()][-1] == "closed"

    reborn = RoomManager(world["store"], world["clock"], ActorConfig(bot_delay=0, round_pause=0))
    world["rooms"] = reborn
    assert await reborn.rebuild() == [table["id"]]
    rebuilt = reborn.actor(table["id"])
    await rebuilt.idle()
    assert rebuilt.progress.game.state_json(rebuilt.progress.state) == before
    assert rebuilt.progress.current.actions == logged

    async with sessions() as db:  # a second writer at a taken position is refused
        db.add(ActionRow(round_id=rebuilt.progress.current.id, idx=0, action={"x": 1},
                         created_at=Clock().now()))
        with pytest.raises(IntegrityError):
            await db.commit()


async def test_finished_match_stores_results_and_finishes_the_table(world):
    sessions, lobby = world["sessions"], world["lobby"]
    (owner,) = await make_users(sessions, "owner")
    table = await lobby.create_table(owner, NewTable(game="highcard", players=2, deals=2, bots=1))
    actor = world["rooms"].actor(table["id"])
    conn = Connection(owner.id)
    actor.attach(conn)
    await actor.idle()
    while actor.table.status != "finished":
        view = actor.progress.game.view(actor.progress.state, 0)
        move = next(a for a in view["legal"] if a["type"] != "announce")
        actor.act(conn, {k: v for k, v in move.items() if k != "seat"})
        await actor.idle()
    assert actor.progress.counted() == 2
    async with sessions() as db:
        status = (await db.execute(select(GameTable.status))).scalar_one()
        rows = (await db.execute(text("SELECT seat, score, winner FROM results ORDER BY seat"))).all()
    assert status == "finished"
    totals = actor.progress.score_sheet()["totals"]
    assert [r[1] for r in rows] == totals
    assert [bool(r[2]) for r in rows] == [t == max(totals) for t in totals]
