"""Bot decisions off the event loop: ``await decide(game, level, view, seed, budget_ms)``.

A thinking bot (the expert searches for tens of milliseconds) must never delay another table,
so each decision runs in a ``concurrent.futures.ProcessPoolExecutor`` shared by the process
(created on first use, one worker per core unless ``configure`` says otherwise). The bot gets
only the view, a ``random.Random(seed)`` and its budget; the answer is an action of the view's
legal actions, or None when the bot does not act out of turn.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from app.bots import get_bot

_pool: Executor | None = None
_workers: int | None = None


def configure(workers: int | None = None, executor: Executor | None = None) -> None:
    """Set the pool size (or an executor to use, e.g. in tests); shuts an existing pool down."""
    global _pool, _workers
    if _pool is not None and executor is not _pool:
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool, _workers = executor, workers


def _executor() -> Executor:
    global _pool
    if _pool is None:
        # forkserver: safe to start from a process that already runs threads (uvicorn, asyncio)
        _pool = ProcessPoolExecutor(max_workers=_workers or os.cpu_count() or 1,
                                    mp_context=multiprocessing.get_context("forkserver"))
    return _pool


def choose_now(game: str, level: str, view: Mapping[str, Any], seed: int,
               budget_ms: int | None = None, rules: Mapping[str, Any] | None = None,
               worlds: int | None = None) -> dict[str, Any] | None:
    """The decision itself, in the calling process (what a pool worker runs)."""
    bot = get_bot(game, level, rules=rules, budget_ms=budget_ms, worlds=worlds)
    return bot.choose(view, random.Random(seed))


async def decide(game: str, level: str, view: Mapping[str, Any], seed: int,
                 budget_ms: int | None = None, *, rules: Mapping[str, Any] | None = None,
                 worlds: int | None = None) -> dict[str, Any] | None:
    """Ask the bot of ``game`` at ``level`` for its action in ``view``, in the process pool.

    ``seed`` makes the choice reproducible; ``budget_ms`` caps the expert's thinking time.
    Raises app.bots.UnknownBot for an unknown game or level.
    """
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor(), choose_now, game, level, dict(view), seed,
                                      budget_ms, rules, worlds)
