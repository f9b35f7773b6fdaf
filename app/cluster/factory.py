"""Build the cluster services: Redis-backed when a URL is given, in-process otherwise."""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from app.cluster.bus import InProcessRoomBus, RedisRoomBus, RoomBus
from app.cluster.claims import Claims, InProcessClaims, RedisClaims
from app.cluster.leases import InProcessLeases, LeaseManager, RedisLeases
from app.cluster.registry import InProcessRegistry, LobbyRegistry, RedisRegistry


def new_process_id() -> str:
    """A name for this process that no other process (now or later) shares."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass
class Cluster:
    """The four services of one process, plus the id it uses as lease owner."""

    process_id: str
    leases: LeaseManager
    bus: RoomBus
    registry: LobbyRegistry
    claims: Claims
    redis: Redis | None = field(default=None, repr=False)

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
    redis_options: passed to ``redis.asyncio.Redis.from_url`` (timeouts, pool size ...).
    Connections are opened lazily, on first use.
    """
    pid = process_id or new_process_id()
    if not redis_url:
        return Cluster(pid, InProcessLeases(clock), InProcessRoomBus(prefix),
                       InProcessRegistry(clock), InProcessClaims(clock))
    redis = Redis.from_url(redis_url, decode_responses=True, **redis_options)
    return Cluster(pid, RedisLeases(redis, prefix), RedisRoomBus(redis, prefix),
                   RedisRegistry(redis, prefix), RedisClaims(redis, prefix), redis)
