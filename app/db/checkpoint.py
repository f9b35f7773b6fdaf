"""Background WAL checkpoints for a SQLite database.

In WAL mode SQLite copies the log back into the database file (a checkpoint) by default in
the commit that takes the log past 1,000 pages: that commit then also writes and syncs the
database file, and every action waiting for the next group commit (app/rooms/store.py) waits
for it. The server instead turns that off (``PRAGMA wal_autocheckpoint=0``,
app.db.engine.make_engine) and runs a PASSIVE checkpoint every ``every`` seconds on a
connection of its own, in a worker thread: a passive checkpoint neither blocks nor waits for
the writers, and the log is reused from its start once it is fully checkpointed
(https://www.sqlite.org/wal.html#checkpointing). A commit never checkpoints.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading

log = logging.getLogger(__name__)


class WalCheckpointer:
    """Checkpoints the SQLite file ``path`` every ``every`` seconds while started."""

    def __init__(self, path: str, every: float) -> None:
        self._path, self._every = path, every
        self._task: asyncio.Task[None] | None = None
        self._db: sqlite3.Connection | None = None
        #: the connection is used by one thread at a time: a checkpoint whose awaiting task was
        #: cancelled runs on in its thread, and closing under it crashed the process
        self._lock = threading.Lock()
        #: the last checkpoint's (busy, pages in the log, pages checkpointed)
        self.last: tuple[int, int, int] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="wal-checkpoint")

    async def stop(self) -> None:
        """Stop the timer and checkpoint once more (the last commits go into the file)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
            await self._checkpoint_logged()
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            await self._checkpoint_logged()

    async def _checkpoint_logged(self) -> None:
        try:
            self.last = await asyncio.to_thread(self.checkpoint)
        except sqlite3.Error:
            log.warning("WAL checkpoint of %s failed", self._path, exc_info=True)

    def checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint (blocking): (busy, pages in the log, pages checkpointed)."""
        with self._lock:
            if self._db is None:
                self._db = sqlite3.connect(self._path, timeout=30, check_same_thread=False,
                                           isolation_level=None)
            busy, pages, done = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return busy, pages, done
