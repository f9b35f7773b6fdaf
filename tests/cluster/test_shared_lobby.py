"""Presence and the Play now queue shared through Redis: two app instances with their own
in-memory state (two ``build_services`` on one database, one Redis) see the same online users,
and one queue pairs two people who joined at different instances — at either instance's tick,
exactly once. Without REDIS_URL the same interfaces work in one process."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio as aioredis
from sqlalchemy import func, select

from app.db.engine import make_sessionmaker, upgrade
from app.db.models import GameTable, Seat
from app.lobby.matchmaking import AlreadyQueued
from tests.cluster.conftest import REDIS_URL, eventually, require_redis
from tests.platform_helpers import settings_for


@pytest.fixture
async def two_instances(tmp_path):
    require_redis()
    prefix = f"test-lobby-{uuid.uuid4().hex[:8]}:"
    made = []
    for _ in range(2):
        settings = settings_for(tmp_path, redis_url=REDIS_URL, redis_prefix=prefix)
        from tests.platform_helpers import make_services

        made.append(make_services(settings))
    await asyncio.to_thread(upgrade, made[0].settings.database_url)
    for services in made:
        await services.start()
    yield made
    for services in made:
        await services.close()
    admin = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    keys = [k async for k in admin.scan_iter(f"{prefix}*")]
    if keys:
        await admin.delete(*keys)
    await admin.aclose()


async def test_a_user_connected_to_one_instance_is_online_at_the_other(two_instances):
    a, b = two_instances
    anna = await a.accounts.create_guest()
    assert anna.id not in await b.presence.online()
    await a.presence.connected(anna.id)
    assert anna.id in await b.presence.online()
    await a.presence.connected(anna.id)  # a second tab
    await a.presence.disconnected(anna.id)
    assert anna.id in await b.presence.online()  # one tab still open
    await a.presence.disconnected(anna.id)
    assert anna.id not in await b.presence.online()


async def test_one_queue_pairs_people_who_joined_at_different_instances(two_instances):
    a, b = two_instances
    anna, ben = await a.accounts.create_guest(), await b.accounts.create_guest()
    await a.play_now.join(anna.id, "doppio", seats=2)
    await b.play_now.join(ben.id, "doppio", seats=2)
    with pytest.raises(AlreadyQueued):
        await b.play_now.join(anna.id, "doppio", seats=2)  # one ticket across instances
    assert (await b.play_now.busy(anna.id)) is not None  # the other instance knows she waits
    formed = await asyncio.gather(a.play_now.tick(), b.play_now.tick())
    tables = [t for ids in formed for t in ids]
    assert len(tables) == 1  # one instance formed it, under the shared lock
    (table,) = tables
    sessions = make_sessionmaker(a.engine)
    async with sessions() as db:
        seated = set((await db.execute(
            select(Seat.user_id).where(Seat.table_id == table))).scalars())
        count = (await db.execute(select(func.count()).select_from(GameTable))).scalar_one()
    assert seated == {anna.id, ben.id} and count == 1
    for services, user in ((a, ben), (b, anna)):  # either instance answers the status poll
        status = await services.play_now.status(user.id)
        assert status == {"queued": False, "table": table}
    assert await a.play_now.queue.waiting() == []


async def test_a_formed_table_is_announced_on_the_instance_holding_the_lobby_socket(two_instances):
    from app.lobby.service import Viewer
    from app.rooms.connection import Connection

    a, b = two_instances
    anna, ben = await a.accounts.create_guest(), await b.accounts.create_guest()
    feed = Connection(anna.id)
    await b.hub.subscribe(feed, Viewer(anna.id, anna.name))  # anna's lobby page is on b
    await a.play_now.join(anna.id, "doppio", seats=2)
    await a.play_now.join(ben.id, "doppio", seats=2)
    (table,) = await a.play_now.tick()
    notices: list[dict] = []

    async def told() -> bool:
        notices.extend(m for m in feed.pending() if m["type"] == "play_now")
        return bool(notices)

    await eventually(told, timeout=5)
    assert notices[0]["table"] == table
