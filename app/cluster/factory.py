"""Build the cluster services: Redis-backed when a URL is given, in-process otherwise."""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis

from app.cluster.bus import InProcessRoomBus, RedisRoomBus, RoomBus
from app.cluster.claims import Claims, InProcessClaims, RedisClaims
from app.cluster.leases import InProcessLeases, LeaseManager, RedisLeases
from app.cluster.locks import InProcessLocks, Locks, RedisLocks

#: Redis connections one process keeps at most (the bus holds two of them for good)
POOL_SIZE = 32


def new_process_id() -> str:
    """A name for this process that no other process (now or later) shares."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass
class Cluster:
    """The four services of one process, plus the id it uses as lease owner, and what a
    service of a higher layer needs to build its own shared state over them (the lobby's
    registry, app.lobby.registry.make_registry): the Redis client, the key prefix and the
    in-process implementations' clock."""

    process_id: str
    leases: LeaseManager
    bus: RoomBus
    locks: Locks
    claims: Claims
    redis: Redis | None = field(default=None, repr=False)
    prefix: str = "dr:"
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    @property
    def distributed(self) -> bool:
        """True when the services are shared with other processes through Redis."""
        return self.redis is not None

    async def close(self) -> None:
        """Close the bus (its subscriptions end) and the Redis connections."""
        await self.bus.close()
        if self.redis is not None:
            await self.redis.aclose()


def make_cluster(
    redis_url: str | None,
    *,
    prefix: str = "dr:",
    process_id: str | None = None,
    clock: Callable[[], float] = time.monotonic,
    **redis_options: Any,
) -> Cluster:
    """The cluster services for ``redis_url`` (e.g. settings.REDIS_URL), or in-process ones
    when it is None or empty.

    prefix: namespaces every Redis key and channel (several sites may share one Redis).
    clock: the in-process implementations' time source (tests pass a fake clock); the Redis
    ones use the Redis server's clock.
    redis_options: passed to the connection pool (timeouts ...). The pool is a
    ``BlockingConnectionPool`` of at most ``max_connections`` (default :data:`POOL_SIZE`): a
    burst of calls (a process taking a thousand tables over at start) waits up to
    ``pool_timeout`` seconds (default 20) for a connection instead of failing at the pool's
    limit (redis-py's default pool raises MaxConnectionsError beyond 100). Connections are
    opened lazily, on first use.
    """
    pid = process_id or new_process_id()
    if not redis_url:
        return Cluster(pid, InProcessLeases(clock), InProcessRoomBus(prefix),
                       InProcessLocks(clock), InProcessClaims(clock), None, prefix, clock)
    options = {"max_connections": POOL_SIZE, "timeout": 20.0, **redis_options}
    options["timeout"] = options.pop("pool_timeout", options["timeout"])
    pool = BlockingConnectionPool.from_url(redis_url, decode_responses=True, **options)
    redis = Redis.from_pool(pool)
    return Cluster(pid, RedisLeases(redis, prefix), RedisRoomBus(redis, prefix),
                   RedisLocks(redis, prefix), RedisClaims(redis, prefix), redis, prefix, clock)
