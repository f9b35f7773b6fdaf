"""A named mutual-exclusion lock with a TTL across processes, for short critical sections
(the lobby's matchmaking tick): in this process on an injected clock, or redis-py's ``Lock``.

``async with locks.lock(name, ttl_s, wait_s=...)``: the lock frees itself after ``ttl_s`` if
its holder dies. Raises LockNotAcquired after ``wait_s`` (None: wait for ever; 0: try once)
and LockLost on exit when the TTL ran out inside the section.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol, runtime_checkable

from redis.asyncio import Redis
from redis.exceptions import LockError, LockNotOwnedError

Clock = Callable[[], float]


class LockNotAcquired(TimeoutError):
    """The lock was not acquired within ``wait_s``."""


class LockLost(RuntimeError):
    """The lock expired (its TTL ran out) before the critical section released it, so
    another process may have run the same section concurrently."""


@asynccontextmanager
async def _section(name: str, release: Callable[[], Awaitable[bool]]) -> AsyncIterator[None]:
    """The critical section of lock ``name``: on the way out ``release()`` frees the lock and
    says whether it was still held; LockLost if it was not (unless the section raised)."""
    failed = False
    try:
        yield
    except BaseException:
        failed = True
        raise
    finally:
        if not await release() and not failed:
            raise LockLost(f"lock {name!r} expired before it was released")


@runtime_checkable
class Locks(Protocol):
    def lock(self, name: str, ttl_s: float, *, wait_s: float | None = None) -> Any:
        """``async with locks.lock(name, ttl_s, wait_s=...)`` (see the module docstring)."""
        ...


class InProcessLocks:
    """Locks in a dict; the TTL on an injected clock."""

    def __init__(self, clock: Clock = time.monotonic, *, lock_poll_s: float = 0.005) -> None:
        self._clock = clock
        self._locks: dict[str, tuple[str, float]] = {}
        self._lock_poll_s = lock_poll_s

    @asynccontextmanager
    async def lock(self, name: str, ttl_s: float, *,
                   wait_s: float | None = None) -> AsyncIterator[None]:
        token = uuid.uuid4().hex
        loop = asyncio.get_running_loop()
        deadline = None if wait_s is None else loop.time() + wait_s
        while True:
            held = self._locks.get(name)
            if held is None or held[1] <= self._clock():
                self._locks[name] = (token, self._clock() + ttl_s)
                break
            if deadline is not None and loop.time() >= deadline:
                raise LockNotAcquired(f"lock {name!r} is held")
            await asyncio.sleep(self._lock_poll_s)
        async def release() -> bool:
            held = self._locks.get(name)
            if held is None or held[0] != token:
                return False
            del self._locks[name]
            return held[1] > self._clock()

        async with _section(name, release):
            yield


class RedisLocks:
    """Locks in Redis (keys ``{prefix}lock:{name}``); ``redis`` must use
    ``decode_responses=True``."""

    def __init__(self, redis: Redis, prefix: str = "dr:", *, lock_poll_s: float = 0.01) -> None:
        self._redis = redis
        self._p = prefix
        self._lock_poll_s = lock_poll_s

    @asynccontextmanager
    async def lock(self, name: str, ttl_s: float, *,
                   wait_s: float | None = None) -> AsyncIterator[None]:
        lock = self._redis.lock(f"{self._p}lock:{name}", timeout=ttl_s,
                                sleep=self._lock_poll_s, blocking=wait_s != 0,
                                blocking_timeout=wait_s or None)
        if not await lock.acquire():
            raise LockNotAcquired(f"lock {name!r} is held")
        async def release() -> bool:
            try:
                await lock.release()
            except (LockNotOwnedError, LockError):
                return False
            return True

        async with _section(name, release):
            yield
