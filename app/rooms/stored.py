"""Finished tables served from the stored log, without an actor.

Watching a finished table (a hello, a reconnect, a link opened long after) must not start a
table actor: one hostile client said hello to every table id and started 700 actors that were
never released (issue 17). :class:`StoredTables` builds the snapshot a seat (or a spectator)
would get from the event log — the same projection as a running actor's
(TableActor.stored_snapshot) — and keeps the last ``size`` of them: a finished table never
changes, so the cache is always right.
"""

from __future__ import annotations

from collections import OrderedDict

from app.clock import Clock
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.store import MatchStore


class StoredTables:
    """Snapshots of finished tables, by (table, user), least recently used dropped first."""

    def __init__(self, store: MatchStore, clock: Clock, config: ActorConfig,
                 size: int = 256) -> None:
        self._store, self._clock, self._config, self._size = store, clock, config, size
        self._cache: OrderedDict[tuple[int, int | None], str] = OrderedDict()

    async def snapshot(self, table_id: int, user_id: int | None) -> str:
        """The encoded ``snapshot`` message of a finished table for ``user_id``."""
        key = (table_id, user_id)
        text = self._cache.get(key)
        if text is None:
            reader = TableActor(table_id, self._store, self._clock, self._config)
            text = await reader.stored_snapshot(user_id)
            self._cache[key] = text
            while len(self._cache) > self._size:
                self._cache.popitem(last=False)
        self._cache.move_to_end(key)
        return text
