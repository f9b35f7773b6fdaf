"""The injected clock: wall time for records, monotonic time and sleeping for timers.

Tests pass a :class:`ManualClock` so nothing waits on real time.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime


class Clock:
    """The real clock."""

    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (for deadlines)."""
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (returns at once for 0 or less)."""
        if seconds > 0:
            await asyncio.sleep(seconds)


class ManualClock(Clock):
    """A clock that only moves when told: ``advance(seconds)`` wakes the sleepers it passes."""

    def __init__(self, start: datetime | None = None) -> None:
        self._start = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._elapsed = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> datetime:
        from datetime import timedelta

        return self._start + timedelta(seconds=self._elapsed)

    def monotonic(self) -> float:
        return self._elapsed

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self._elapsed + seconds, future))
        await future

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every sleeper whose time has come."""
        self._elapsed += seconds
        due = [(t, f) for t, f in self._sleepers if t <= self._elapsed]
        self._sleepers = [(t, f) for t, f in self._sleepers if t > self._elapsed]
        for _t, future in due:
            if not future.done():
                future.set_result(None)
