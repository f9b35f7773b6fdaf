"""Fixtures: every cluster test runs against the in-process services and against real Redis.

``harness`` gives two "processes" ``a`` and ``b``. On Redis they are two independent
:func:`make_cluster` bundles (separate connection pools) under a key prefix of their own
(:data:`PREFIX`, new for every test session), whose keys are deleted before and after each
test; nothing else in the database is touched, so two checkouts testing side by side on one
Redis cannot delete each other's keys. In-process they are two views (different process
ids) of the same services, which is what one process sees. ``harness.advance(s)`` lets time
pass: the fake clock in-process, a real sleep on Redis.

Time on Redis is real, so the tests are written against :data:`TTL` with margins: a check
that a key is still held comes at most 0.6 TTL after the key was last written, and a check
that it expired at least 1.3 TTL after. A stall of 0.4 s between two commands (a loaded
2-core CI machine, a garbage collection) fails neither.
"""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from dataclasses import dataclass

import pytest
import redis
import redis.asyncio as aioredis

from app.cluster.factory import Cluster, make_cluster
from tests.conftest import redis_test_url, require

REDIS_URL = redis_test_url(2)
PREFIX = f"test:{uuid.uuid4().hex[:8]}:"
TTL = 1.0  # seconds: real time on Redis, fake time in-process (see the margins above)

_reachable: tuple[bool, str] | None = None


def redis_reachable() -> tuple[bool, str]:
    global _reachable
    if _reachable is None:
        try:
            client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
            client.ping()
            client.close()
            _reachable = (True, "")
        except Exception as exc:  # any failure means "not reachable" for the skip/fail switch
            _reachable = (False, f"{REDIS_URL}: {exc}")
    return _reachable


def require_redis() -> None:
    ok, why = redis_reachable()
    require("redis", ok, why)


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@dataclass
class Harness:
    kind: str
    a: Cluster
    b: Cluster
    clock: FakeClock | None
    admin: aioredis.Redis | None

    @property
    def redis(self) -> bool:
        return self.kind == "redis"

    async def advance(self, seconds: float) -> None:
        if self.clock is not None:
            self.clock.now += seconds
            await asyncio.sleep(0)
        else:
            await asyncio.sleep(seconds)


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
async def harness(request):
    if request.param == "memory":
        clock = FakeClock()
        a = make_cluster(None, prefix=PREFIX, process_id="p1", clock=clock)
        b = dataclasses.replace(a, process_id="p2")
        yield Harness("memory", a, b, clock, None)
        await a.close()
        return
    require_redis()
    admin = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    await clear(admin)
    a = make_cluster(REDIS_URL, prefix=PREFIX, process_id="p1")
    b = make_cluster(REDIS_URL, prefix=PREFIX, process_id="p2")
    try:
        yield Harness("redis", a, b, None, admin)
    finally:
        await a.close()
        await b.close()
        await clear(admin)
        await admin.aclose()


async def clear(redis: aioredis.Redis, prefix: str = PREFIX) -> None:
    """Delete every key under ``prefix`` (and nothing else in the database)."""
    keys = [key async for key in redis.scan_iter(f"{prefix}*")]
    if keys:
        await redis.delete(*keys)


async def eventually(predicate, timeout: float = 2.0, step: float = 0.01) -> None:
    """Wait until the async ``predicate()`` is true; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(step)
