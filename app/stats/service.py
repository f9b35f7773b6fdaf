"""The statistics of the running site: counting each match as it finishes, catching up, the
rebuild, and what the profile, the API and the leaderboards read.

    stats = Stats(sessions, clock)
    store.on_finished = stats.match_finished   # app/rooms/store.py calls it after the commit
    stats.start()                              # counts what finished while no process counted
    await stats.player("anna", viewer_id=...)  # the profile's and the API's numbers
    await stats.rebuild()                      # python -m app stats rebuild

Counting a match replays its event log in the bots' process pool (app/stats/jobs.py, the
mechanism of the analyses: app.bots.runner.run_job), never in a table's actor or a request,
and adds the result to the projection in one transaction (app/stats/projection.py). One
background task per process counts the finished matches one at a time, in the order they
finished. A match counted twice is refused by the database (stats_matches' unique key), so
two processes catching up at once, or a rebuild meeting a match as it finishes, count it
once. A match whose process went away before counting it is counted at the next start.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bots import runner
from app.clock import Clock
from app.scenario import ScenarioError
from app.stats import boards, jobs, profile, source
from app.stats.facts import MatchFacts
from app.stats.projection import Contribution, add_match, contribution, replace_all

log = logging.getLogger(__name__)

#: matches per job of a rebuild, and jobs in the pool at once
REBUILD_BATCH = 50
REBUILD_JOBS = 4
#: tries of counting one match before it is left for the next start's catching up
TRIES = 3

RunJob = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild did: matches counted, those that did not replay (match id, reason), the
    seconds it took, and the matches that finished meanwhile, counted after it."""

    matches: int
    skipped: list[tuple[int, str]]
    seconds: float
    caught_up: int

    @property
    def per_second(self) -> float:
        return self.matches / self.seconds if self.seconds > 0 else 0.0


class Stats:
    """The site's statistics (see the module docstring). ``run_job``: how pool jobs run (the
    bots' process pool; tests may run them in the event loop's threads)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, *,
                 run_job: RunJob = runner.run_job) -> None:
        self._db = sessions
        self._clock = clock
        self._run_job = run_job
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._pending = 0

    # --- counting -------------------------------------------------------------------------

    def match_finished(self, match_id: int) -> None:
        """A match's result was stored (app/rooms/store.py ``MatchStore.on_finished``): count
        it in the background. Never raises, never waits."""
        self._queue.put_nowait(match_id)
        self._pending += 1
        self._ensure_worker()

    def start(self) -> None:
        """Count, in the background, the finished matches not counted yet (see
        :meth:`catch_up`)."""
        self._ensure_worker()
        self._queue.put_nowait(0)  # 0: catch up
        self._pending += 1

    def _ensure_worker(self) -> None:
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work(), name="stats")

    async def _work(self) -> None:
        while True:
            match_id = await self._queue.get()
            try:
                if match_id == 0:
                    await self.catch_up()
                else:
                    await self._count_with_retries(match_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the statistics could not count %s",
                              f"match {match_id}" if match_id else "the matches not counted yet")
            finally:
                self._pending -= 1
                self._queue.task_done()

    async def _count_with_retries(self, match_id: int) -> None:
        for attempt in range(1, TRIES + 1):
            try:
                await self.count(match_id)
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                if attempt == TRIES:
                    raise
                log.warning("counting match %s failed (try %s of %s)", match_id, attempt, TRIES,
                            exc_info=True)

    async def count(self, match_id: int) -> bool:
        """Count the finished match ``match_id`` now; False when it was counted before (or it
        is not finished, or nobody but computer players sat at it)."""
        async with self._db() as db:
            sources = await source.load(db, [match_id])
        if not sources or all(user is None for user in sources[0].holders):
            return False
        try:
            facts: MatchFacts = await self._run_job(jobs.facts, sources[0].document)
        except ScenarioError as err:  # e.g. a match played without an event log (EVENT_LOG=off)
            log.warning("match %s cannot be counted: %s", match_id, err)
            return False
        async with self._db() as db:
            if not await add_match(db, contribution(sources[0], facts)):
                return False
            await db.commit()
        return True

    async def catch_up(self) -> int:
        """Count every finished match not counted yet, oldest first; returns how many."""
        async with self._db() as db:
            waiting = await source.uncounted_ids(db)
        counted = 0
        for match_id in waiting:
            counted += await self.count(match_id)
        if counted:
            log.info("the statistics counted %d matches that were not counted yet", counted)
        return counted

    async def idle(self) -> None:
        """Wait until everything queued is counted (tests, benchmarks)."""
        while self._pending:
            await self._queue.join()

    async def close(self) -> None:
        """Stop counting (a match not counted yet is counted at the next start)."""
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None

    async def rebuild(self, progress: Callable[[int, int], None] | None = None) -> Rebuilt:
        """Count every finished match again from its event log and replace the projection
        with the result in one transaction; then count the matches that finished meanwhile.
        ``progress(done, total)`` after each batch."""
        started = time.perf_counter()
        async with self._db() as db:
            ids = await source.counted_ids(db)
        everything = Contribution()
        skipped: list[tuple[int, str]] = []
        running: set[asyncio.Task[None]] = set()
        done = 0

        async def one_batch(batch: list[source.MatchSource]) -> None:
            nonlocal done
            results = await self._run_job(jobs.facts_of, [s.document for s in batch])
            for match, facts in zip(batch, results, strict=True):
                if isinstance(facts, str):
                    skipped.append((match.match_id, facts))
                else:
                    everything.merge(contribution(match, facts))
            done += len(batch)
            if progress is not None:
                progress(done, len(ids))

        for start in range(0, len(ids), REBUILD_BATCH):
            async with self._db() as db:
                batch = await source.load(db, ids[start:start + REBUILD_BATCH])
            if len(running) >= REBUILD_JOBS:
                finished, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in finished:
                    task.result()
            running.add(asyncio.get_running_loop().create_task(one_batch(batch)))
        for task in asyncio.as_completed(running):
            await task
        async with self._db() as db:
            await replace_all(db, everything)
            await db.commit()
        seconds = time.perf_counter() - started
        caught_up = await self.catch_up()
        for match_id, reason in skipped:
            log.warning("match %s was not counted: %s", match_id, reason)
        return Rebuilt(matches=len(ids) - len(skipped), skipped=skipped, seconds=seconds,
                       caught_up=caught_up)

    # --- reading --------------------------------------------------------------------------

    async def player(self, name: str, *, viewer_id: int | None = None,
                     game: str | None = None, first: bool = False) -> dict[str, Any]:
        """A player's statistics as ``viewer_id`` may see them (app/stats/profile.py): every
        game's, or only ``game``'s figures and charts (``first``: only the most played game's
        when no game is named). Raises HistoryError (404)."""
        async with self._db() as db:
            return await profile.player_stats(db, name, viewer_id=viewer_id, only=game,
                                              first=first)

    async def board(self, game: str, period: str, *, viewer_id: int | None = None,
                    now: datetime | None = None) -> dict[str, Any]:
        """The leaderboard of ``game`` for ``period`` (app/stats/boards.py). Raises
        HistoryError (404) for an unknown game or period."""
        async with self._db() as db:
            return await boards.board(db, game, period, now or self._clock.now(),
                                      viewer_id=viewer_id)
