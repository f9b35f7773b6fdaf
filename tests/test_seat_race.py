"""Seat race: 1,000 rounds of two clients taking the same last seat at once, on SQLite and on
PostgreSQL. Exactly one wins, the other gets 409, the table holds exactly its seats and starts
exactly once.

Runs at the service level (``Lobby.join`` against the real database) with the room actors
replaced by a counter, so 1,000 rounds take seconds: the seat is decided by the database's
unique constraints, which is what this test is about.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlalchemy import func, select

from app.clock import Clock
from app.db.models import GameTable, Seat, User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, LobbyError, NewTable, Viewer
from tests.platform_helpers import migrated_database

ROUNDS = 1000
BATCH = 5


class CountingRooms:
    """Stands in for the RoomManager: counts seat changes and match starts per table."""

    def __init__(self) -> None:
        self.started: Counter[int] = Counter()
        self._current = 0

    def actor(self, table_id: int):
        self._current = table_id
        return self

    def seats_changed(self) -> None:
        pass

    def start(self) -> None:
        self.started[self._current] += 1

    def close_table(self, table_id: int) -> None:
        pass


async def test_two_clients_racing_for_the_last_seat_exactly_one_wins(db_url):
    engine, sessions = await migrated_database(db_url)
    clock = Clock()
    rooms = CountingRooms()
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), max_open_tables=10**6,
                  any_deal_count=True)
    try:
        outcomes: Counter[str] = Counter()
        tables: list[int] = []

        async def race(round_no: int) -> None:
            # three people of their own per round: each ends up playing at the table (one
            # live seat per person)
            async with sessions() as db:
                users = [User(name=f"racer{round_no}-{i}",
                              password_hash=None, is_guest=True, created_at=clock.now())
                         for i in range(3)]
                db.add_all(users)
                await db.commit()
            owner, a, b = (Viewer(id=u.id, name=u.name) for u in users)
            table = await lobby.create_table(owner, NewTable(game="highcard", players=2))
            tables.append(table["id"])
            # even rounds: two people; odd rounds: two tabs of the same person
            second = b if round_no % 2 == 0 else a
            results = await asyncio.gather(lobby.join(a, table["id"]),
                                           lobby.join(second, table["id"]),
                                           return_exceptions=True)
            winners = [r for r in results if isinstance(r, int)]
            losers = [r for r in results if isinstance(r, LobbyError)]
            assert winners == [1] and len(losers) == 1, (round_no, results)
            assert losers[0].status == 409
            outcomes["first" if isinstance(results[0], int) else "second"] += 1

        for start in range(0, ROUNDS, BATCH):  # a few tables race side by side
            await asyncio.gather(*(race(n) for n in range(start, start + BATCH)))
        async with sessions() as db:
            per_table = dict((await db.execute(
                select(Seat.table_id, func.count()).group_by(Seat.table_id))).all())
            statuses = Counter((await db.execute(
                select(GameTable.status).where(GameTable.id.in_(tables)))).scalars())
        assert all(per_table[t] == 2 for t in tables)
        assert statuses == {"playing": ROUNDS}
        assert all(rooms.started[t] == 1 for t in tables) and len(rooms.started) == ROUNDS
        assert sum(outcomes.values()) == ROUNDS
    finally:
        await engine.dispose()
