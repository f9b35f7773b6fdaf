"""Online status: a user is online while they have an open WebSocket (to the lobby feed or to a
table) on any process.

:class:`Presence` counts this process's sockets per user (the WebSocket endpoint calls
``connected``/``disconnected``). Without Redis that count is the answer. With REDIS_URL it also
heartbeats every locally connected user into the cluster's registry (``heartbeat(user, ttl)``
every ttl/3, and at once on connect) and clears a user when their last local socket closes
(``set_offline``; a tab on another process puts them back within one heartbeat; the
heartbeats of all of a process's users are one call), and
``online()`` is this process's users plus every unexpired heartbeat (docs/scaling.md,
"Presence").
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from app.lobby.registry import LobbyRegistry

log = logging.getLogger(__name__)


class Presence:
    """Who is online. ``registry`` None: this process only."""

    def __init__(self, registry: LobbyRegistry | None = None, *, ttl_s: float = 30.0) -> None:
        self._registry = registry
        self._ttl_s = ttl_s
        self._local: Counter[int] = Counter()
        self._task: asyncio.Task[None] | None = None

    def local(self) -> set[int]:
        """Users with an open socket in this process."""
        return set(self._local)

    async def connected(self, user_id: int) -> None:
        self._local[user_id] += 1
        if self._registry is not None and self._local[user_id] == 1:
            await self._shared(self._registry.heartbeat(str(user_id), self._ttl_s))

    async def disconnected(self, user_id: int) -> None:
        self._local[user_id] -= 1
        if self._local[user_id] > 0:
            return
        del self._local[user_id]
        if self._registry is not None:
            await self._shared(self._registry.set_offline(str(user_id)))

    async def is_online(self, user_id: int) -> bool:
        """Whether ``user_id`` is online anywhere (one look-up, not the whole set: a socket
        that opens asks this, and thousands open at once)."""
        if self._local[user_id] > 0:
            return True
        if self._registry is None:
            return False
        try:
            return await self._registry.is_online(str(user_id))
        except Exception:
            log.warning("presence: the registry is unreachable; showing this process only")
            return False

    async def online(self) -> set[int]:
        """Ids of the users online anywhere (this process's, and with Redis every process's)."""
        online = self.local()
        if self._registry is not None:
            try:
                online |= {int(u) for u in await self._registry.online_users()}
            except Exception:
                log.warning("presence: the registry is unreachable; showing this process only")
        return online

    def start(self) -> None:
        """Heartbeat the local users every ttl/3 (only with a registry)."""
        if self._registry is not None and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._beat(), name="presence")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _beat(self) -> None:
        assert self._registry is not None
        while True:
            await asyncio.sleep(self._ttl_s / 3)
            users = [str(user_id) for user_id in self.local()]
            if users:  # one call for every local user
                await self._shared(self._registry.heartbeat_many(users, self._ttl_s))

    @staticmethod
    async def _shared(call) -> None:
        try:
            await call
        except Exception:  # Redis away: presence is best effort, never a failed request
            log.warning("presence: registry call failed", exc_info=True)
