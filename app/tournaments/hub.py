"""Live standings: every socket on a tournament's page gets its standings, rounds and tables
whenever they change (a registration, a round seated, a deal or a table finished, the end).

Like the lobby feed (app/lobby/hub.py): :meth:`TournamentHub.changed` only marks a tournament
stale and returns; the hub's own task loads it once (``Tournaments.live``) and sends the same
encoded text to every watcher of it in this process. With REDIS_URL every process hears of a
change over the lobby's bus channel (Services._follow) and refreshes its own watchers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict

from app import protocol
from app.rooms.connection import Connection
from app.tournaments.service import Tournaments

log = logging.getLogger(__name__)


class TournamentHub:
    """Watchers per tournament and the task that sends them the changes."""

    def __init__(self, tournaments: Tournaments, *, max_watchers: int = 5000) -> None:
        self._tournaments = tournaments
        self._watchers: dict[int, dict[int, Connection]] = defaultdict(dict)
        self._where: dict[int, int] = {}  # connection id → tournament
        self.max_watchers = max_watchers
        self.seq = 0
        self._stale: set[int] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: tournament → perf_counter of the last change not yet sent (benchmarks)
        self.pending_since: dict[int, float] = {}
        #: seconds from a change to its standings being sent (benchmarks/tournament.py)
        self.latencies: list[float] = []

    async def watch(self, conn: Connection, tournament_id: int) -> bool:
        """Add a watcher (its tournament checked visible by the caller) and send it the
        tournament now; False (an ``error`` sent) when the hub is full."""
        self.unwatch(conn)
        if len(self._where) >= self.max_watchers:
            conn.send(protocol.dump(protocol.ErrorMessage(
                seq=self.seq, code="busy", message="too many watchers; try again soon")))
            return False
        self._watchers[tournament_id][conn.id] = conn
        self._where[conn.id] = tournament_id
        data = await self._tournaments.live(tournament_id)
        conn.send(protocol.dump(protocol.TournamentMessage(seq=self.seq, tournament=data)))
        return True

    def unwatch(self, conn: Connection) -> None:
        tournament_id = self._where.pop(conn.id, None)
        if tournament_id is not None:
            self._watchers[tournament_id].pop(conn.id, None)
            if not self._watchers[tournament_id]:
                del self._watchers[tournament_id]

    def changed(self, tournament_id: int) -> None:
        """The tournament changed: its watchers here will be sent it. Never waits."""
        if tournament_id not in self._watchers:
            return
        self._stale.add(tournament_id)
        self.pending_since.setdefault(tournament_id, time.perf_counter())
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._feed(),
                                                                name="tournament-feed")

    async def publish(self, tournament_id: int) -> None:
        """:meth:`changed` as an awaitable callback."""
        self.changed(tournament_id)

    async def _feed(self) -> None:
        while self._stale:
            self._wake.clear()
            stale, self._stale = self._stale, set()
            for tournament_id in stale:
                try:
                    await self._send(tournament_id)
                except Exception:
                    log.exception("sending tournament %s failed", tournament_id)

    async def _send(self, tournament_id: int) -> None:
        watchers = self._watchers.get(tournament_id)
        if not watchers:
            return
        data = await self._tournaments.live(tournament_id)
        self.seq += 1
        text = protocol.encode(protocol.dump(protocol.TournamentMessage(seq=self.seq,
                                                                        tournament=data)))
        for conn_id, conn in list(watchers.items()):
            if conn.closed:
                watchers.pop(conn_id, None)
                self._where.pop(conn_id, None)
                continue
            conn.send(text)
        since = self.pending_since.pop(tournament_id, None)
        if since is not None:
            self.latencies.append(time.perf_counter() - since)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
