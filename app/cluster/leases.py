"""Table leases: each table runs in exactly one process, the holder of its lease.

A lease is a key per table whose value is the owner (a process id) and which expires after
``ttl_s`` unless the owner renews it. Acquiring is atomic (Redis ``SET NX PX``); renewing and
releasing check the owner atomically (a Lua script), so a process that lost its lease cannot
extend or delete the lease of the process that took over.

A lease is advisory timing, not a proof: a process that was paused longer than the TTL may
still believe it owns the table for a moment. The event log's unique ``(match, seq)``
constraint in the database is the fence — the stale owner's next append fails and it must
drop the table (docs/scaling.md, "What guarantees what").

:class:`LeaseRenewer` keeps every lease of one process alive from one background task (one
``renew_many`` call every ttl/3, however many tables the process owns) and reports each
loss through a callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
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

    async def renew_many(self, table_ids: Sequence[str], owner: str, ttl_s: float) -> list[str]:
        """Renew each of ``table_ids`` as :meth:`renew` does, in one call; returns those not
        renewed (held by another owner now, or expired)."""
        ...

    async def release(self, table_id: str, owner: str) -> bool:
        """Give the lease up, only if ``owner`` holds it. True when it was released."""
        ...

    async def owner_of(self, table_id: str) -> str | None:
        """The current holder, or None when the lease is free (never taken, or expired)."""
        ...

    async def owners(self, table_ids: Sequence[str]) -> list[str | None]:
        """:meth:`owner_of` of each, in one call (the sweeper asks for every table in play)."""
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

    async def renew_many(self, table_ids: Sequence[str], owner: str, ttl_s: float) -> list[str]:
        return [table_id for table_id in table_ids
                if not await self.renew(table_id, owner, ttl_s)]

    async def release(self, table_id: str, owner: str) -> bool:
        if self._current(table_id) != owner:
            return False
        del self._leases[table_id]
        return True

    async def owner_of(self, table_id: str) -> str | None:
        return self._current(table_id)

    async def owners(self, table_ids: Sequence[str]) -> list[str | None]:
        return [self._current(table_id) for table_id in table_ids]


_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

#: renews every key of KEYS that ARGV[1] holds; returns the 0-based positions of the others
_RENEW_MANY = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    lost[#lost + 1] = i - 1
  end
end
return lost
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


#: keys per ``renew_many`` script call (a process owning thousands of tables renews them in a
#: few calls, none blocking Redis for long)
RENEW_BATCH = 1000


class RedisLeases:
    """Leases as Redis keys ``{prefix}lease:{table_id}`` holding the owner, with a PX expiry.

    Expiry runs on the Redis server's clock, so the processes' clocks do not matter.
    ``redis`` must be a client created with ``decode_responses=True``.
    """

    def __init__(self, redis: Redis, prefix: str = "dr:") -> None:
        self._redis = redis
        self._prefix = prefix
        self._renew = redis.register_script(_RENEW)
        self._renew_many = redis.register_script(_RENEW_MANY)
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

    async def renew_many(self, table_ids: Sequence[str], owner: str, ttl_s: float) -> list[str]:
        """One script call for all of them (one Redis server: the keys need not share a
        cluster slot)."""
        ms = _ms(ttl_s)
        lost: list[int] = []
        for start in range(0, len(table_ids), RENEW_BATCH):
            batch = table_ids[start:start + RENEW_BATCH]
            positions = await self._renew_many(keys=[self._key(t) for t in batch],
                                               args=[owner, ms])
            lost.extend(start + int(i) for i in positions)
        return [table_ids[i] for i in lost]

    async def release(self, table_id: str, owner: str) -> bool:
        return bool(await self._release(keys=[self._key(table_id)], args=[owner]))

    async def owner_of(self, table_id: str) -> str | None:
        return await self._redis.get(self._key(table_id))

    async def owners(self, table_ids: Sequence[str]) -> list[str | None]:
        found: list[str | None] = []
        for start in range(0, len(table_ids), RENEW_BATCH):
            batch = table_ids[start:start + RENEW_BATCH]
            found.extend(await self._redis.mget([self._key(t) for t in batch]))
        return found


LostCallback = Callable[[str], Awaitable[None] | None]


class LeaseRenewer:
    """Keeps the leases of one owner (a process) alive from one background task, and reports
    each one lost.

    :meth:`add` a lease after a successful :meth:`LeaseManager.acquire`. Every ``ttl_s / 3``
    every lease held is renewed in one :meth:`LeaseManager.renew_many` call. A lease counts
    as lost, and ``on_lost(table_id)`` is called once for it, when its renewal is refused
    (someone else holds it, or it expired), or when no renewal has succeeded for ``ttl_s``
    since it was added or last renewed (Redis unreachable: it may have expired meanwhile, so
    the table must stop accepting commands). The owner then drops the table from memory; it
    must not write to the event log again for that table.

    ``sleep`` and ``clock`` are injectable for tests; ``clock`` must be monotonic.
    """

    def __init__(
        self,
        leases: LeaseManager,
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
        self.owner = owner
        self.ttl_s = ttl_s
        self.interval_s = ttl_s / 3 if interval_s is None else interval_s
        self._on_lost = on_lost
        self._clock = clock
        self._sleep = sleep
        #: each lease held: the time (``clock``) from which it runs at least ``ttl_s``
        self._held: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None
        #: the leases this renewer found lost
        self.lost: set[str] = set()

    def add(self, table_id: str) -> None:
        """Keep ``table_id``'s lease (just acquired) alive; starts the task if needed."""
        self._held[table_id] = self._clock()
        self.lost.discard(table_id)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name=f"lease-renewer:{self.owner}")

    def holds(self, table_id: str) -> bool:
        """Whether the lease is being renewed (added, not lost, not removed)."""
        return table_id in self._held

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def remove(self, table_id: str, *, release: bool = True) -> None:
        """Stop renewing one lease; release it too unless ``release`` is False (or it was
        lost). A failing release is logged, not raised: the lease then expires after its TTL."""
        held = self._held.pop(table_id, None) is not None
        if release and held:
            try:
                await self.leases.release(table_id, self.owner)
            except Exception:  # Redis away: the lease simply expires
                log.warning("releasing the lease of table %s failed", table_id, exc_info=True)

    async def stop(self, *, release: bool = True) -> None:
        """Stop renewing every lease; release them too unless ``release`` is False."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for table_id in list(self._held):
            await self.remove(table_id, release=release)

    async def _run(self) -> None:
        while True:
            await self._sleep(self.interval_s)
            if not self._held:
                continue
            held = list(self._held)
            sent_at = self._clock()  # a successful renewal runs from (at least) here
            try:
                refused = set(await self.leases.renew_many(held, self.owner, self.ttl_s))
            except Exception:  # Redis down or a network error: retry until the TTL runs out
                log.warning("renewing %d leases failed", len(held), exc_info=True)
                refused = {table_id for table_id in held
                           if table_id in self._held
                           and self._clock() - self._held[table_id] >= self.ttl_s}
            else:
                for table_id in held:
                    if table_id not in refused and table_id in self._held:
                        self._held[table_id] = sent_at
            for table_id in refused:
                if self._held.pop(table_id, None) is not None:
                    self.lost.add(table_id)
                    await self._report(table_id)

    async def _report(self, table_id: str) -> None:
        try:
            result = self._on_lost(table_id)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("the lost-lease callback of table %s failed", table_id)
