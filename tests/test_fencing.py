"""A stale owner is fenced by the event log: its append at a position another owner already
wrote fails on the unique (round, idx) constraint, and its actor drops the table silently."""

from __future__ import annotations

import asyncio

from app.clock import Clock
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from tests.platform_helpers import (
    migrated_database,
)

CONFIG = ActorConfig(bot_delay=0, round_pause=0)


async def test_the_stale_owner_is_fenced_and_says_nothing(db_url):
    from app.db.models import User

    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    store = MatchStore(sessions, clock)
    rooms = RoomManager(store, clock, CONFIG)
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
    try:
        async with sessions() as db:
            users = [User(name=n, is_guest=True, created_at=clock.now()) for n in ("a", "b")]
            db.add_all(users)
            await db.commit()
        viewers = [Viewer(u.id, u.name) for u in users]
        table = await lobby.create_table(viewers[0], NewTable(game="highcard", players=2))
        await lobby.join(viewers[1], table["id"])
        stale = rooms.actor(table["id"])  # the old owner
        await stale.idle()
        stale_conns = [Connection(v.id) for v in viewers]
        for conn in stale_conns:
            stale.attach(conn)
        await stale.idle()
        # the new owner rebuilds the same table from the log
        new = TableActor(table["id"], store, clock, CONFIG)
        task = asyncio.create_task(new.run())
        new_conns = [Connection(v.id) for v in viewers]
        for conn in new_conns:
            new.attach(conn)
        await new.idle()
        assert new.progress.state == stale.progress.state
        progress = new.progress
        seat = progress.game.to_act(progress.state)[0]
        move = {k: v for k, v in progress.game.legal_actions(progress.state, seat)[0].items()
                if k != "seat"}
        new.act(new_conns[seat], move)
        await new.idle()
        assert [m["type"] for m in new_conns[seat].pending()][-1] == "event"
        for conn in stale_conns:
            conn.pending()
        stale.act(stale_conns[seat], move)  # the same position of the log: already written
        await asyncio.wait_for(stale.stopped.wait(), 5)
        assert stale.fenced
        assert [c.pending() for c in stale_conns] == [[], []]  # nobody hears of it
        stored = await store.load_match(table["id"])
        assert len(stored[1][-1].actions) == 1  # the new owner's action, once
        new.stop()
        await task
    finally:
        await rooms.shutdown()
        await engine.dispose()


async def test_group_commit_fails_only_the_append_whose_position_is_taken(db_url):
    from sqlalchemy.exc import IntegrityError

    from app.db.models import User

    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    store = MatchStore(sessions, clock)
    rooms = RoomManager(store, clock, CONFIG)
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
    try:
        async with sessions() as db:
            users = [User(name=n, is_guest=True, created_at=clock.now()) for n in ("a", "b")]
            db.add_all(users)
            await db.commit()
        table = await lobby.create_table(Viewer(users[0].id, "a"),
                                         NewTable(game="highcard", players=2))
        await lobby.join(Viewer(users[1].id, "b"), table["id"])
        await rooms.actor(table["id"]).idle()
        round_id = (await store.load_match(table["id"]))[1][0].id
        # 40 appends at once (one batch), position 7 twice
        positions = [*range(40), 7]
        results = await asyncio.gather(
            *(store.append_action(round_id, i, {"type": "play", "n": n})
              for n, i in enumerate(positions)), return_exceptions=True)
        failed = [p for p, r in zip(positions, results, strict=True) if r is not None]
        assert failed == [7]
        assert isinstance(results[-1], IntegrityError)
        stored = (await store.load_match(table["id"]))[1][0].actions
        assert [a["n"] for a in stored] == list(range(40))  # the first writer of 7 won
    finally:
        await rooms.shutdown()
        await engine.dispose()
