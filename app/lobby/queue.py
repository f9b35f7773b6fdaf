"""Where the "Play now" queue lives: in this process, or shared by all processes through Redis.

:class:`PlayQueue` is what :class:`app.lobby.playnow.PlayNow` uses; two implementations:

- :class:`LocalQueue` (no REDIS_URL): the pure :class:`~app.lobby.matchmaking.Matchmaker` of
  this process, on the injected monotonic clock.
- :class:`SharedQueue` (REDIS_URL set): the tickets in the cluster's
  :class:`~app.lobby.registry.LobbyRegistry` (one ticket per player across all processes),
  joined on wall-clock time (shared by the processes). Any process may tick: the tick runs
  under the registry's ``matchmaking`` lock (skipped when another process holds it), plans
  every queue with :func:`~app.lobby.matchmaking.plan_queue` and removes the tickets of each
  table it forms; a table whose tickets were not all still there is not formed (the others
  go back). "Last seen" (the page polling its status) and "the table formed for a player"
  are Redis hashes too, so any process answers a status poll.

All methods are coroutines; ``now`` values are on the queue's own clock (``now()``).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from typing import Protocol

from redis.asyncio import Redis

from app.cluster.locks import LockLost, LockNotAcquired
from app.lobby.matchmaking import (
    FormedTable,
    Matchmaker,
    QueueKey,
    QueueSettings,
    Ticket,
    check_queue,
    form_table,
    plan_queue,
)
from app.lobby.registry import LobbyRegistry
from app.ratings.model import PlayerId, Rating


class PlayQueue(Protocol):
    def now(self) -> float: ...
    async def join(self, player: PlayerId, game: str, preset: str, rating: Rating,
                   seats: int | None = None) -> Ticket: ...
    async def leave(self, player: PlayerId) -> bool: ...
    async def ticket(self, player: PlayerId) -> Ticket | None: ...
    async def waiting(self) -> list[Ticket]: ...
    async def seen(self, player: PlayerId) -> None: ...
    async def formed_for(self, player: PlayerId) -> int | None: ...
    async def set_formed(self, player: PlayerId, table_id: int | None) -> None: ...
    async def release(self, player: PlayerId) -> None: ...
    async def tick(self, now: float, stale_after: float | None) -> list[FormedTable]: ...


class LocalQueue:
    """The queue of this process (the Matchmaker, ``matchmaker``)."""

    def __init__(self, now_fn: Callable[[], float], settings: QueueSettings) -> None:
        self.now = now_fn
        self.matchmaker = Matchmaker(now_fn, default=settings)
        self._seen: dict[PlayerId, float] = {}
        self._formed: dict[PlayerId, int] = {}

    async def join(self, player, game, preset, rating, seats=None) -> Ticket:
        ticket = self.matchmaker.join(player, game, preset, rating, seats)
        self._seen[player] = self.now()
        return ticket

    async def leave(self, player) -> bool:
        self._seen.pop(player, None)
        return self.matchmaker.leave(player) is not None

    async def ticket(self, player) -> Ticket | None:
        return next((t for t in self.matchmaker.waiting() if t.player == player), None)

    async def waiting(self) -> list[Ticket]:
        return self.matchmaker.waiting()

    async def seen(self, player) -> None:
        self._seen[player] = self.now()

    async def formed_for(self, player) -> int | None:
        return self._formed.get(player)

    async def set_formed(self, player, table_id) -> None:
        if table_id is None:
            self._formed.pop(player, None)
        else:
            self._formed[player] = table_id

    async def release(self, player) -> None:
        self.matchmaker.release(player)

    async def tick(self, now: float, stale_after: float | None) -> list[FormedTable]:
        if stale_after is not None:
            for ticket in self.matchmaker.waiting():
                if now - self._seen.get(ticket.player, ticket.joined_at) > stale_after:
                    self.matchmaker.leave(ticket.player)  # the page is gone
        return self.matchmaker.tick(now)


class SharedQueue:
    """The queue shared by every process through the cluster's registry and Redis."""

    LOCK = "matchmaking"

    def __init__(self, registry: LobbyRegistry, redis: Redis, prefix: str,
                 settings: QueueSettings, *, now_fn: Callable[[], float] = time.time,
                 lock_ttl_s: float = 5.0) -> None:
        self.now = now_fn
        self._registry, self._redis = registry, redis
        self._settings = settings
        self._seen_key, self._formed_key = f"{prefix}mm:seen", f"{prefix}mm:formed"
        self._lock_ttl_s = lock_ttl_s
        self._numbers = itertools.count(1)

    async def join(self, player, game, preset, rating, seats=None) -> Ticket:
        size = check_queue(game, seats)
        at = self.now()
        ticket = await self._registry.add_ticket(player, QueueKey(game, preset, size), rating, at)
        await self._redis.hset(self._seen_key, json.dumps(player), at)
        return ticket

    async def leave(self, player) -> bool:
        await self._redis.hdel(self._seen_key, json.dumps(player))
        return await self._registry.remove_ticket(player) is not None

    async def ticket(self, player) -> Ticket | None:
        return await self._registry.ticket(player)

    async def waiting(self) -> list[Ticket]:
        return await self._registry.tickets()

    async def seen(self, player) -> None:
        await self._redis.hset(self._seen_key, json.dumps(player), self.now())

    async def formed_for(self, player) -> int | None:
        value = await self._redis.hget(self._formed_key, json.dumps(player))
        return None if value is None else int(value)

    async def set_formed(self, player, table_id) -> None:
        if table_id is None:
            await self._redis.hdel(self._formed_key, json.dumps(player))
        else:
            await self._redis.hset(self._formed_key, json.dumps(player), table_id)

    async def release(self, player) -> None:
        """Seated is the database's seats here: nothing to release."""

    async def tick(self, now: float, stale_after: float | None) -> list[FormedTable]:
        """Form the due tables, if no other process is ticking right now."""
        try:
            async with self._registry.lock(self.LOCK, self._lock_ttl_s, wait_s=0):
                return await self._tick(now, stale_after)
        except LockNotAcquired:
            return []
        except LockLost:  # the tick overran its lock; what it removed is formed regardless
            return []

    async def _tick(self, now: float, stale_after: float | None) -> list[FormedTable]:
        tickets = await self._registry.tickets()
        if stale_after is not None and tickets:
            seen = await self._redis.hgetall(self._seen_key)
            stale = [t.player for t in tickets
                     if now - float(seen.get(json.dumps(t.player), t.joined_at)) > stale_after]
            if stale:
                await self._registry.remove_tickets(stale)
                tickets = [t for t in tickets if t.player not in stale]
        by_queue: dict[QueueKey, list[Ticket]] = {}
        for ticket in tickets:
            by_queue.setdefault(ticket.key, []).append(ticket)
        formed = []
        for key in sorted(by_queue, key=lambda k: (k.game, k.preset, k.seats)):
            for people, bots in plan_queue(by_queue[key], key.seats, now, self._settings):
                taken = await self._registry.remove_tickets([t.player for t in people])
                if len(taken) != len(people):  # someone left meanwhile: the rest wait on
                    for ticket in taken:
                        await self._registry.add_ticket(ticket.player, ticket.key,
                                                        ticket.rating, ticket.joined_at)
                    continue
                formed.append(form_table(next(self._numbers), key, people, bots, now))
        return formed
