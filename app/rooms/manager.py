"""The registry of table actors in this process: create on demand, rebuild at start, stop all.

``on_change(table_id)`` (optional) is awaited by actors when a table starts or finishes, so the
lobby can refresh its lists.

:class:`Rooms` is the interface the gateway (app/api/ws.py) and the lobby use. Two
implementations: :class:`RoomManager` (this module: every table in this process, no Redis)
and :class:`app.rooms.cluster.ClusterRooms` (REDIS_URL set: a table lives in the process
holding its lease; commands and events travel over the room bus).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app import protocol
from app.clock import Clock
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.connection import Peer
from app.rooms.store import MatchStore


class TableHandle(Protocol):
    """What the gateway and the lobby hold of a table: a TableActor, or a proxy to its owner."""

    seq: int

    def attach(self, conn: Any, last_seq: int | None = None,
               epoch: str | None = None) -> None: ...
    def detach(self, conn: Any) -> None: ...
    def act(self, conn: Any, action: dict[str, Any]) -> None: ...
    def seats_changed(self) -> None: ...
    def start(self) -> None: ...
    def stop(self, reason: str = "shutdown") -> None: ...


class Rooms(Protocol):
    """Where the tables are: ``actor(id)`` gives a handle to talk to a table."""

    store: MatchStore
    on_change: Callable[[int], Awaitable[None]] | None
    #: opens a finished table's rematch: (table id, seats of the people who accepted) → new id
    on_rematch: Callable[[int, list[int]], Awaitable[int]] | None
    #: how many tables this process ran when its shutdown began (None: not shut down)
    stopped_at_shutdown: int | None

    def actor(self, table_id: int) -> TableHandle: ...
    def running(self, table_id: int) -> TableHandle | None: ...
    async def rebuild(self) -> list[int]: ...
    def close_table(self, table_id: int) -> None: ...
    async def shutdown(self) -> None: ...
    def count(self) -> int: ...


class StoppedTable:
    """The handle of a table while the server shuts down: a client that attaches (e.g. one
    reconnecting at once after ``closed``/``shutdown``) is told the same again; nothing else
    happens, so no table starts again in a process that is stopping."""

    seq = 0

    def attach(self, conn: Peer, last_seq: int | None = None,
               epoch: str | None = None) -> None:
        conn.close(protocol.dump(protocol.Closed(seq=0, reason="shutdown", reconnect=True)))

    def detach(self, conn: Any) -> None: ...
    def act(self, conn: Any, action: dict[str, Any]) -> None: ...
    def seats_changed(self) -> None: ...
    def start(self) -> None: ...
    def stop(self, reason: str = "shutdown") -> None: ...


class RoomManager:
    """Owns every TableActor of this process."""

    def __init__(self, store: MatchStore, clock: Clock, config: ActorConfig,
                 rng_factory: Callable[[int], random.Random] | None = None,
                 on_change: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.store, self._clock, self._config = store, clock, config
        self._rng_factory = rng_factory
        self.on_change = on_change
        self.on_rematch: Callable[[int, list[int]], Awaitable[int]] | None = None
        self._actors: dict[int, TableActor] = {}
        #: how many tables were running when the shutdown began (None: not shut down)
        self.stopped_at_shutdown: int | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closing = False

    def actor(self, table_id: int) -> TableActor | StoppedTable:
        """The running actor of a table, started (and loaded from the DB) if needed; once
        :meth:`shutdown` has begun, a :class:`StoppedTable`."""
        if self._closing:
            return StoppedTable()
        actor = self._actors.get(table_id)
        if actor is not None and not actor.stopped.is_set():
            return actor
        rng = self._rng_factory(table_id) if self._rng_factory else None
        actor = TableActor(table_id, self.store, self._clock, self._config, rng,
                           on_change=self._changed, on_rematch=self._rematch)
        self._actors[table_id] = actor
        task = asyncio.get_running_loop().create_task(actor.run(), name=f"table-{table_id}")
        self._tasks[table_id] = task
        task.add_done_callback(lambda _t: self._forget(table_id, actor))
        return actor

    def running(self, table_id: int) -> TableActor | None:
        """The table's actor if it runs now (a finished match's actor stays until it unloads:
        the rematch is decided there), else None; never starts one."""
        actor = self._actors.get(table_id)
        return actor if actor is not None and not actor.stopped.is_set() else None

    def _forget(self, table_id: int, actor: TableActor) -> None:
        """An actor ended (unloaded, closed, fenced): drop it, so its memory goes back."""
        if self._actors.get(table_id) is actor:
            del self._actors[table_id]
            self._tasks.pop(table_id, None)

    def count(self) -> int:
        """Actors running in this process."""
        return sum(1 for a in self._actors.values() if not a.stopped.is_set())

    async def _changed(self, table_id: int) -> None:
        if self.on_change is not None:
            await self.on_change(table_id)

    async def _rematch(self, table_id: int, seats: list[int]) -> int:
        if self.on_rematch is None:
            raise RuntimeError("no lobby to open a rematch")
        return await self.on_rematch(table_id, seats)

    async def rebuild(self) -> list[int]:
        """Start the actors of every table in play (they rebuild from the event log)."""
        ids = await self.store.playing_tables()
        for table_id in ids:
            self.actor(table_id)
        return ids

    def close_table(self, table_id: int) -> None:
        """Stop a table's actor (the table was closed before it started)."""
        actor = self._actors.pop(table_id, None)
        if actor is not None:
            actor.stop("table_closed")

    async def shutdown(self) -> None:
        """Tell every client to reconnect later, and end every actor (each finishes the
        commands queued before the stop: an action already received is stored and announced).
        ``stopped_at_shutdown`` keeps how many were running (the first call's count)."""
        if not self._closing:
            self.stopped_at_shutdown = self.count()
        self._closing = True
        for actor in self._actors.values():
            actor.stop("shutdown")
        tasks = list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        for task in tasks:
            task.cancel()
        self._actors.clear()
        self._tasks.clear()
