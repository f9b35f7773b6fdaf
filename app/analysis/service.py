"""Analyses of finished matches on the site: asked for by a player, for their own seat.

    analyses = Analyses(sessions, clock, scenario_of=lobby.scenario, budget_ms=1000, worlds=32)
    await analyses.request(user_id, table_id)   # starts it (once per match and seat)
    await analyses.status(user_id, table_id)    # {"status": "running", "done": 3, "total": 14}

Only a person who held a seat of the finished match may ask, and only for that seat; the
analysis is theirs to see. It is computed once and stored in ``analyses`` (one row per match
and seat; the INSERT decides which request starts it). The work runs in the background on the
bots' process pool (app.bots.runner.run_job), one decision per job, never in a table's actor
or the request; one analysis at a time per process, and the row's ``done``/``total`` show the
progress. An analysis that failed, or whose process went away while it ran (no progress for
``STALE_S``), starts again when asked for again.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.analysis.report import with_words
from app.analysis.schedule import analyse_match
from app.bots import runner
from app.clock import Clock
from app.db.models import Analysis, GameTable, Match, Result
from app.history.service import HistoryError
from app.i18n import N_

log = logging.getLogger(__name__)
STALE_S = 300.0  # a running analysis without progress this long belongs to a process now gone
#: decisions of one analysis valued at once: the bots' pool has a worker per core, and a
#: table's computer player then waits behind at most one decision of an analysis
PARALLEL = max(1, min(2, os.cpu_count() or 1))


class AnalysisError(HistoryError):
    """An analysis that cannot be asked for or shown (``status`` for HTTP)."""


def analysis_json(row: Analysis | None, *, stale: bool = False, lang: str | None = None) -> dict[str, Any]:
    """``{"status": "none"}`` or ``{"status", "seat", "done", "total", "result"}`` (result: the
    analysis document once ``done``; while ``running``, the first deal's document once it is
    valued, marked ``partial``), its reasons written in ``lang`` (None: as stored, no words).
    A ``stale`` running analysis (its process went away) shows as ``failed``: asking again
    starts it again."""
    if row is None:
        return {"status": "none"}
    status = "failed" if stale and row.status == "running" else row.status
    result = row.result if status in ("done", "running") else None
    if result is not None and lang is not None:
        result = with_words(result, lang)
    return {"status": status, "seat": row.seat, "done": row.done, "total": row.total,
            "result": result}


class Analyses:
    """The site's analyses (see the module docstring)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock,
                 scenario_of: Callable[[int], Awaitable[dict[str, Any]]], *,
                 budget_ms: float = 1000, worlds: int = 32, thinking_ms: float = 300,
                 parallel: int = PARALLEL) -> None:
        self._db = sessions
        self._clock = clock
        self._scenario_of = scenario_of
        self.budget_ms = budget_ms
        self.worlds = worlds
        #: the site's thinking time per decision (BOT_BUDGET_MS): the measure of a match's
        #: thinking budget (app.analysis.schedule)
        self.thinking_ms = thinking_ms
        #: decisions valued at once on the bots' pool
        self.parallel = parallel
        #: awaited with (analysis id, scenario, document) when an analysis is done (puzzles)
        self.on_done: Callable[[int, dict[str, Any], dict[str, Any]], Awaitable[None]] | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._one_at_a_time = asyncio.Semaphore(1)

    async def _own_seat(self, db: AsyncSession, user_id: int, table_id: int) -> tuple[int, int]:
        """(match id, seat) of ``user_id`` at the finished match of ``table_id``."""
        table = await db.get(GameTable, table_id)
        if table is not None and table.status != "finished":
            raise AnalysisError(N_("the match is not over; its analysis can be asked for then"), 409)
        match = (await db.execute(select(Match).where(Match.table_id == table_id))).scalar_one_or_none()
        if table is None or match is None:
            raise AnalysisError(N_("this table has no match"), 404)
        seat = (await db.execute(select(Result.seat).where(
            Result.match_id == match.id, Result.user_id == user_id))).scalar_one_or_none()
        if seat is None:
            raise AnalysisError(N_("only the players of a match can have their own play analysed"), 403)
        return match.id, seat

    async def _row(self, db: AsyncSession, match_id: int, seat: int) -> Analysis | None:
        return (await db.execute(select(Analysis).where(
            Analysis.match_id == match_id, Analysis.seat == seat))).scalar_one_or_none()

    async def status(self, user_id: int, table_id: int, lang: str | None = None) -> dict[str, Any]:
        """The analysis of the asking player's own seat (``{"status": "none"}`` before any),
        its reasons in ``lang``. Raises AnalysisError 404/409/403 as :meth:`request`."""
        async with self._db() as db:
            match_id, seat = await self._own_seat(db, user_id, table_id)
            row = await self._row(db, match_id, seat)
            return analysis_json(row, stale=row is not None and self._abandoned(row), lang=lang)

    def _abandoned(self, row: Analysis) -> bool:
        """A running analysis this process does not run and nobody advanced for STALE_S."""
        return (row.status == "running" and row.id not in self._tasks
                and _aware(row.updated_at) < self._clock.now() - timedelta(seconds=STALE_S))

    async def request(self, user_id: int, table_id: int, lang: str | None = None) -> dict[str, Any]:
        """Start the analysis of the asking player's own seat, unless it exists (then this is
        :meth:`status`). Returns at once; the work goes on in the background.

        Raises AnalysisError: 404 no match at that table, 409 the match is not over, 403 the
        person did not play it.
        """
        async with self._db() as db:
            match_id, seat = await self._own_seat(db, user_id, table_id)
            row = await self._row(db, match_id, seat)
            now = self._clock.now()
            if row is None:
                row = Analysis(match_id=match_id, seat=seat, user_id=user_id, status="running",
                               done=0, total=0, created_at=now, updated_at=now)
                db.add(row)
                try:
                    await db.commit()
                except IntegrityError:  # another request started it first
                    await db.rollback()
                    return analysis_json(await self._row(db, match_id, seat), lang=lang)
            elif not await self._restart(db, row):
                return analysis_json(row, lang=lang)
            self._start(row.id, table_id, seat, seed=match_id)
            return analysis_json(row, lang=lang)

    async def _restart(self, db: AsyncSession, row: Analysis) -> bool:
        """Take over a failed or abandoned analysis (one conditional UPDATE decides races)."""
        now = self._clock.now()
        if row.status != "failed" and not self._abandoned(row):
            return False
        taken = await db.execute(update(Analysis).where(
            Analysis.id == row.id, Analysis.status == row.status,
            Analysis.updated_at == row.updated_at).values(status="running", done=0, result=None,
                                                          updated_at=now))
        await db.commit()
        if taken.rowcount != 1:
            return False
        await db.refresh(row)
        return True

    def _start(self, analysis_id: int, table_id: int, seat: int, *, seed: int) -> None:
        task = asyncio.get_running_loop().create_task(
            self._run(analysis_id, table_id, seat, seed), name=f"analysis-{analysis_id}")
        self._tasks[analysis_id] = task
        task.add_done_callback(lambda _t: self._tasks.pop(analysis_id, None))

    async def _set(self, analysis_id: int, **values: Any) -> None:
        async with self._db() as db:
            await db.execute(update(Analysis).where(Analysis.id == analysis_id)
                             .values(updated_at=self._clock.now(), **values))
            await db.commit()

    async def _run(self, analysis_id: int, table_id: int, seat: int, seed: int) -> None:
        try:
            async with self._one_at_a_time:
                scenario = await self._scenario_of(table_id)

                async def progress(done: int, total: int) -> None:
                    await self._set(analysis_id, done=done, total=total)

                async def first(partial: dict[str, Any]) -> None:
                    await self._set(analysis_id, result=partial)

                result = await analyse_match(
                    scenario, seat, seed=seed, budget_ms=self.budget_ms, worlds=self.worlds,
                    thinking_ms=self.thinking_ms, parallel=self.parallel, run=runner.run_job,
                    progress=progress, first=first)
                total = len(result["decisions"])
                await self._set(analysis_id, status="done", result=result, done=total, total=total)
                if self.on_done is not None:  # puzzles: their failure leaves the analysis done
                    try:
                        await self.on_done(analysis_id, scenario, result)
                    except Exception:
                        log.exception("after the analysis %s (table %s)", analysis_id, table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the analysis %s (table %s, seat %s) failed", analysis_id, table_id, seat)
            await self._set(analysis_id, status="failed")

    async def idle(self) -> None:
        """Wait until every analysis this process runs has ended (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        """Stop the analyses of this process (a row left ``running`` is taken over later)."""
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)


def _aware(moment):
    """SQLite returns naive datetimes (stored as UTC); PostgreSQL aware ones."""
    from datetime import UTC

    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
