"""The injected clock: wall time for records, monotonic time and sleeping for timers.

Tests pass a :class:`ManualClock` so nothing waits on real time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol


class Timer(Protocol):
    """A pending ``call_later``: ``cancel()`` stops it (no effect once it has run)."""

    def cancel(self) -> None: ...


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

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` in the running loop after ``seconds``. One small handle and no
        task per timer: a server holds thousands of pending move clocks, and each task
        (coroutine, context, future) is several more objects for the collector to walk."""
        return asyncio.get_running_loop().call_later(seconds, callback)


class ManualClock(Clock):
    """A clock that only moves when told: ``advance(seconds)`` wakes the sleepers it passes."""

    def __init__(self, start: datetime | None = None) -> None:
        self._start = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._elapsed = 0.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self._timers: list[_ManualTimer] = []

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

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer(self._elapsed + seconds, callback)
        self._timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every sleeper whose time has come; the timers whose time
        has come run soon after (in the loop, in the order of their times), as a sleeper
        resumes."""
        self._elapsed += seconds
        due_timers = sorted((t for t in self._timers if t.at <= self._elapsed), key=lambda t: t.at)
        self._timers = [t for t in self._timers if t.at > self._elapsed]
        loop = asyncio.get_running_loop() if due_timers else None
        for timer in due_timers:
            if not timer.cancelled:
                loop.call_soon(timer.callback)  # type: ignore[union-attr]
        due = [(t, f) for t, f in self._sleepers if t <= self._elapsed]
        self._sleepers = [(t, f) for t, f in self._sleepers if t > self._elapsed]
        for _t, future in due:
            if not future.done():
                future.set_result(None)


class _ManualTimer:
    """A ``ManualClock.call_later``: due at ``at`` on the manual clock."""

    __slots__ = ("at", "callback", "cancelled")

    def __init__(self, at: float, callback: Callable[[], None]) -> None:
        self.at, self.callback, self.cancelled = at, callback, False

    def cancel(self) -> None:
        self.cancelled = True
