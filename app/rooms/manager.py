"""The registry of table actors in this process: create on demand, rebuild at start, stop all.

``on_change(table_id)`` (optional) is awaited by actors when a table starts or finishes, so the
lobby can refresh its lists.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from app.clock import Clock
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.store import MatchStore


class RoomManager:
    """Owns every TableActor of this process."""

    def __init__(self, store: MatchStore, clock: Clock, config: ActorConfig,
                 rng_factory: Callable[[int], random.Random] | None = None,
                 on_change: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.store, self._clock, self._config = store, clock, config
        self._rng_factory = rng_factory
        self.on_change = on_change
        self._actors: dict[int, TableActor] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def actor(self, table_id: int) -> TableActor:
        """The running actor of a table, started (and loaded from the DB) if needed."""
        actor = self._actors.get(table_id)
        if actor is not None and not actor.stopped.is_set():
            return actor
        rng = self._rng_factory(table_id) if self._rng_factory else None
        actor = TableActor(table_id, self.store, self._clock, self._config, rng,
                           on_change=self._changed)
        self._actors[table_id] = actor
        self._tasks[table_id] = asyncio.get_running_loop().create_task(
            actor.run(), name=f"table-{table_id}")
        return actor

    async def _changed(self, table_id: int) -> None:
        if self.on_change is not None:
            await self.on_change(table_id)

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
        """Tell every client to reconnect later, and end every actor."""
        for actor in self._actors.values():
            actor.stop("shutdown")
        tasks = list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks, timeout=5)
        for task in tasks:
            task.cancel()
        self._actors.clear()
        self._tasks.clear()
