"""The New Game idempotency key is unique per owner in the database (migration 0003_perf), on
SQLite and PostgreSQL: a double submit that gets past the Redis claim (the claim lost, e.g. a
flushed Redis) still opens one table, and both requests answer with it."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app.clock import Clock
from app.db.engine import make_engine, make_sessionmaker, upgrade
from app.db.models import GameTable, User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from tests.test_seat_race import CountingRooms


class ForgetfulClaims:
    """Claims as after a Redis flush: every claim of a key is granted (the database decides)."""

    async def claim_table_key(self, key: str, value: str) -> bool:
        return True

    async def release_table_key(self, key: str, value: str) -> bool:
        return True

    async def table_key_value(self, key: str) -> str | None:
        return None


@pytest.fixture
async def lobby(db_url):
    await asyncio.to_thread(upgrade, db_url)
    engine = make_engine(db_url)
    sessions = make_sessionmaker(engine)
    clock = Clock()
    lobby = Lobby(sessions, clock, CountingRooms(), Friends(sessions, clock),
                  max_open_tables=100, claims=ForgetfulClaims(), any_deal_count=True)
    async with sessions() as db:
        users = [User(name=f"keyed{i}", password_hash=None, is_guest=True,
                      created_at=clock.now()) for i in range(2)]
        db.add_all(users)
        await db.commit()
    yield lobby, sessions, [Viewer(u.id, u.name) for u in users]
    await engine.dispose()


async def count(sessions, **where) -> int:
    async with sessions() as db:
        query = select(func.count()).select_from(GameTable)
        for column, value in where.items():
            query = query.where(getattr(GameTable, column) == value)
        return (await db.execute(query)).scalar_one()


async def test_ten_submits_of_one_key_open_one_table(lobby):
    service, sessions, (owner, _other) = lobby
    spec = NewTable(game="doppio", players=2, key="form-1")
    answers = await asyncio.gather(*[service.create_table(owner, spec) for _ in range(10)])
    assert len({a["id"] for a in answers}) == 1
    assert await count(sessions, owner_id=owner.id, create_key="form-1") == 1
    assert await count(sessions) == 1


async def test_the_key_is_per_owner_and_tables_without_a_key_are_not_limited(lobby):
    service, sessions, (owner, other) = lobby
    mine = await service.create_table(owner, NewTable(game="doppio", players=2, key="k"))
    theirs = await service.create_table(other, NewTable(game="doppio", players=2, key="k"))
    assert mine["id"] != theirs["id"]
    for _ in range(3):
        await service.create_table(owner, NewTable(game="doppio", players=2))
    assert await count(sessions, owner_id=owner.id) == 4


async def test_the_database_refuses_a_second_row_with_the_same_owner_and_key(lobby):
    service, sessions, (owner, _other) = lobby
    await service.create_table(owner, NewTable(game="doppio", players=2, key="dup"))
    async with sessions() as db:
        row = (await db.execute(select(GameTable))).scalars().one()
        db.add(GameTable(game=row.game, preset=row.preset, rules=row.rules, players=2, deals=1,
                         opponents="any", skill="beginner", secret="another", owner_id=owner.id,
                         status="open", created_at=row.created_at, create_key="dup"))
        with pytest.raises(IntegrityError):
            await db.commit()
