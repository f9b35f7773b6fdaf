"""Fixtures: every cluster test runs against the in-process services and against real Redis.

``harness`` gives two "processes" ``a`` and ``b``. On Redis they are two independent
:func:`make_cluster` bundles (separate connection pools) on database 15, flushed before and
after each test. In-process they are two views (different process ids) of the same
services, which is what one process sees. ``harness.advance(s)`` lets time pass: the fake
clock in-process, a real sleep on Redis (so Redis tests use TTLs of a few hundred ms).
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass

import pytest
import redis
import redis.asyncio as aioredis

from app.cluster.factory import Cluster, make_cluster
from tests.conftest import redis_test_url, require

REDIS_URL = redis_test_url(2)
PREFIX = "test:"

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
    await admin.flushdb()
    a = make_cluster(REDIS_URL, prefix=PREFIX, process_id="p1")
    b = make_cluster(REDIS_URL, prefix=PREFIX, process_id="p2")
    try:
        yield Harness("redis", a, b, None, admin)
    finally:
        await a.close()
        await b.close()
        await admin.flushdb()
        await admin.aclose()


async def eventually(predicate, timeout: float = 2.0, step: float = 0.01) -> None:
    """Wait until the async ``predicate()`` is true; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(step)
