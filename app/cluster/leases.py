"""Table leases: each table runs in exactly one process, the holder of its lease.

A lease is a key per table whose value is the owner (a process id) and which expires after
``ttl_s`` unless the owner renews it. Acquiring is atomic (Redis ``SET NX PX``); renewing and
releasing check the owner atomically (a Lua script), so a process that lost its lease cannot
extend or delete the lease of the process that took over.

A lease is advisory timing, not a proof: a process that was paused longer than the TTL may
still believe it owns the table for a moment. The event log's unique ``(match, seq)``
constraint in the database is the fence — the stale owner's next append fails and it must
drop the table (docs/scaling.md, "What guarantees what").

:class:`LeaseRenewer` keeps one lease alive from a background task (renewing every ttl/3) and
reports its loss through a callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

from redis.asyncio import Redis

log = logging.getLogger(__name__)

Clock = Callable[[], float]


@runtime_checkable
class LeaseManager(Protocol):
    """Who owns which table. Every method is atomic with respect to all processes."""

    async def acquire(self, table_id: str, owner: str, ttl_s: float) -> bool:
        """Take the lease when nobody holds it (or ``owner`` already does: then it is renewed).
        True when ``owner`` holds the lease for the next ``ttl_s`` seconds."""
        ...

    async def renew(self, table_id: str, owner: str, ttl_s: float) -> bool:
        """Extend the lease to ``ttl_s`` from now, only while ``owner`` still holds it."""
        ...

    async def release(self, table_id: str, owner: str) -> bool:
        """Give the lease up, only if ``owner`` holds it. True when it was released."""
        ...

    async def owner_of(self, table_id: str) -> str | None:
        """The current holder, or None when the lease is free (never taken, or expired)."""
        ...


def _ms(ttl_s: float) -> int:
    if ttl_s <= 0:
        raise ValueError(f"a lease TTL must be positive, not {ttl_s!r}")
    return max(1, round(ttl_s * 1000))


class InProcessLeases:
    """Leases in a dict, expiring on an injected clock (``time.monotonic`` by default)."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._leases: dict[str, tuple[str, float]] = {}

    def _current(self, table_id: str) -> str | None:
        held = self._leases.get(table_id)
        if held is None:
            return None
        owner, expires_at = held
        if self._clock() >= expires_at:
            del self._leases[table_id]
            return None
        return owner

    async def acquire(self, table_id: str, owner: str, ttl_s: float) -> bool:
        _ms(ttl_s)
        current = self._current(table_id)
        if current is not None and current != owner:
            return False
        self._leases[table_id] = (owner, self._clock() + ttl_s)
        return True

    async def renew(self, table_id: str, owner: str, ttl_s: float) -> bool:
        _ms(ttl_s)
        if self._current(table_id) != owner:
            return False
        self._leases[table_id] = (owner, self._clock() + ttl_s)
        return True

    async def release(self, table_id: str, owner: str) -> bool:
        if self._current(table_id) != owner:
            return False
        del self._leases[table_id]
        return True

    async def owner_of(self, table_id: str) -> str | None:
        return self._current(table_id)


_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisLeases:
    """Leases as Redis keys ``{prefix}lease:{table_id}`` holding the owner, with a PX expiry.

    Expiry runs on the Redis server's clock, so the processes' clocks do not matter.
    ``redis`` must be a client created with ``decode_responses=True``.
    """

    def __init__(self, redis: Redis, prefix: str = "dr:") -> None:
        self._redis = redis
        self._prefix = prefix
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def _key(self, table_id: str) -> str:
        return f"{self._prefix}lease:{table_id}"

    async def acquire(self, table_id: str, owner: str, ttl_s: float) -> bool:
        ms = _ms(ttl_s)
        if await self._redis.set(self._key(table_id), owner, nx=True, px=ms):
            return True
        # Held already: ours (a repeated acquire extends it) or someone else's. The renew
        # script checks the owner atomically, so an expiry in between cannot be misread.
        return bool(await self._renew(keys=[self._key(table_id)], args=[owner, ms]))

    async def renew(self, table_id: str, owner: str, ttl_s: float) -> bool:
        ms = _ms(ttl_s)
        return bool(await self._renew(keys=[self._key(table_id)], args=[owner, ms]))

    async def release(self, table_id: str, owner: str) -> bool:
        return bool(await self._release(keys=[self._key(table_id)], args=[owner]))

    async def owner_of(self, table_id: str) -> str | None:
        return await self._redis.get(self._key(table_id))


LostCallback = Callable[[str], Awaitable[None] | None]


class LeaseRenewer:
    """Keeps one lease alive from a background task and reports when it is lost.

    Renews every ``ttl_s / 3``. The lease counts as lost, and ``on_lost(table_id)`` is called
    once, when a renewal is refused (someone else holds it, or it expired) or when no renewal
    has succeeded for ``ttl_s`` (Redis unreachable: the lease may have expired meanwhile, so
    the table must stop accepting commands). The owner then drops the table from memory; it
    must not write to the event log again for that table.

    ``sleep`` and ``clock`` are injectable for tests; ``clock`` must be monotonic.
    """

    def __init__(
        self,
        leases: LeaseManager,
        table_id: str,
        owner: str,
        ttl_s: float,
        on_lost: LostCallback,
        *,
        interval_s: float | None = None,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        _ms(ttl_s)
        self.leases = leases
        self.table_id = table_id
        self.owner = owner
        self.ttl_s = ttl_s
        self.interval_s = ttl_s / 3 if interval_s is None else interval_s
        self._on_lost = on_lost
        self._clock = clock
        self._sleep = sleep
        self._task: asyncio.Task[None] | None = None
        self.lost = False

    def start(self) -> None:
        """Start renewing (call after a successful :meth:`LeaseManager.acquire`)."""
        if self._task is not None:
            raise RuntimeError("renewer already started")
        self._task = asyncio.create_task(self._run(), name=f"lease-renewer:{self.table_id}")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def stop(self, *, release: bool = True) -> None:
        """Stop renewing; release the lease too unless ``release`` is False (or it was lost).
        A failing release is logged, not raised: the lease then expires after its TTL."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if release and not self.lost:
            try:
                await self.leases.release(self.table_id, self.owner)
            except Exception:  # shutting down with Redis away: the lease simply expires
                log.warning("releasing the lease of table %s failed", self.table_id,
                            exc_info=True)

    async def _run(self) -> None:
        last_ok = self._clock()
        while True:
            await self._sleep(self.interval_s)
            sent_at = self._clock()  # a successful renewal runs from (at least) here
            try:
                ok = await self.leases.renew(self.table_id, self.owner, self.ttl_s)
            except Exception:  # Redis down or a network error: retry until the TTL runs out
                log.warning("renewing the lease of table %s failed", self.table_id,
                            exc_info=True)
                if self._clock() - last_ok < self.ttl_s:
                    continue
                ok = False
            if ok:
                last_ok = sent_at
                continue
            self.lost = True
            try:
                result = self._on_lost(self.table_id)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("the lost-lease callback of table %s failed", self.table_id)
            return
