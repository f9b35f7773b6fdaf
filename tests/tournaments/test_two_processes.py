"""The director across two real server processes sharing PostgreSQL and Redis: exactly one
process directs (the lease ``tournament-director``); SIGKILL of that process in the middle of
round 1 hands the director to the other one after the lease's TTL, which carries on from the
rows: round 1's tables are taken over and finish, round 2 is seated once, nobody is seated
twice in a round, and every table's result is there."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
import uuid
from collections import Counter
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import func, select

from app.clock import Clock
from app.db.engine import make_engine, make_sessionmaker, upgrade
from app.db.models import GameTable, Match, Result, Tournament, TournamentRound, TournamentSeat
from app.lobby.friends import Friends
from app.tournaments.service import Tournaments
from app.tournaments.spec import parse_spec
from tests.conftest import redis_test_url, require
from tests.platform_helpers import create_pg_database, drop_pg_database, postgres_available
from tests.test_two_processes import Node, User, redis_available

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]
PEOPLE = 8


@pytest.fixture
async def nodes(tmp_path):
    require("postgres", postgres_available(), "nothing listens on 127.0.0.1:5432")
    require("redis", redis_available(), "nothing listens on 127.0.0.1:6379")
    name = f"doppelrunde_tourney_{os.getpid()}_{random.randrange(10**6)}"
    url = await create_pg_database(name)
    await asyncio.to_thread(upgrade, url)
    prefix = f"test2t:{uuid.uuid4().hex[:8]}:"
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_test_url(1),
           "REDIS_PREFIX": prefix, "SECRET_KEY": "two-processes", "DATA_DIR": str(tmp_path),
           "BOT_DELAY": "0.03", "ROUND_PAUSE": "0", "AWAY_GRACE": "0", "LEASE_TTL": "2",
           "SWEEP_INTERVAL": "1", "TOURNAMENT_TICK": "0.3", "PYTHONPATH": os.getcwd(),
           "RATE_LIMITS": '{"guest_address": "1000/minute"}'}
    both = [Node(env, tmp_path / f"node{i}.log") for i in range(2)]
    from redis.asyncio import Redis

    redis = Redis.from_url(redis_test_url(1), decode_responses=True)
    try:
        await asyncio.gather(*(n.ready() for n in both))
        yield both, redis, prefix, url
    finally:
        for n in both:
            n.stop()
        keys = [k async for k in redis.scan_iter(match=prefix + "*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
        await drop_pg_database(name)


async def _until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


async def test_sigkill_of_the_directing_process_loses_and_repeats_nothing(nodes):
    both, redis, prefix, url = nodes
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    clock = Clock()
    service = Tournaments(sessions, clock, Friends(sessions, clock))
    made = await service.create(parse_spec({
        "name": "Crash cup", "rounds": 2, "deals": 4, "pause": 1, "min_players": 1,
        "starts_at": (clock.now() + timedelta(seconds=4)).isoformat()}))
    tid = made["id"]
    guests = [await User.guest(both[i % 2].url) for i in range(PEOPLE)]
    for i, guest in enumerate(guests):
        answer = await guest.post(both[i % 2].url, f"/api/tournaments/{tid}/register")
        assert answer.status_code == 200, answer.text
    owner = await _until(lambda: redis.get(f"{prefix}lease:tournament-director"), 20,
                         "a director")
    directing = next(n for n in both if f":{n.proc.pid}:" in owner)
    other = next(n for n in both if n is not directing)

    async def current_round():
        async with sessions() as db:
            return (await db.get(Tournament, tid, populate_existing=True)).current_round

    await _until(current_round, 30, "round 1")
    async with sessions() as db:
        playing = (await db.execute(select(func.count()).select_from(GameTable).where(
            GameTable.id.in_(select(TournamentSeat.table_id).where(
                TournamentSeat.tournament_id == tid)), GameTable.status == "playing"))
        ).scalar_one()
    assert playing == 2  # both tables of round 1 are in play (computer players: 0.03 s a move)
    directing.proc.send_signal(signal.SIGKILL)
    directing.proc.wait()

    async def finished():
        async with httpx.AsyncClient() as client:
            data = (await client.get(f"{other.url}/api/tournaments/{tid}")).json()
        return data if data["status"] == "finished" else None

    data = await _until(finished, 120, "the end after the takeover")
    taken = await redis.get(f"{prefix}lease:tournament-director")
    assert taken and f":{other.proc.pid}:" in taken
    async with sessions() as db:
        rounds = (await db.execute(select(TournamentRound.number).where(
            TournamentRound.tournament_id == tid).order_by(TournamentRound.number))).scalars().all()
        seats = (await db.execute(select(TournamentSeat.round_id, TournamentSeat.user_id,
                                         TournamentSeat.table_id).where(
            TournamentSeat.tournament_id == tid))).all()
        tables = {t for _r, _u, t in seats}
        unfinished = (await db.execute(select(func.count()).select_from(GameTable).where(
            GameTable.id.in_(tables), GameTable.status != "finished"))).scalar_one()
        results = (await db.execute(select(func.count()).select_from(Result).join(
            Match, Match.id == Result.match_id).where(Match.table_id.in_(tables)))).scalar_one()
    await engine.dispose()
    assert rounds == [1, 2]  # each round seated once
    assert max(Counter((r, u) for r, u, _t in seats).values()) == 1
    assert Counter(r for r, _u, _t in seats).most_common()[0][1] == PEOPLE
    assert len(seats) == 2 * PEOPLE and unfinished == 0
    assert results == 4 * len(tables)  # every seat's result of every table
    assert all(p["played"] == 2 for p in data["players"])
