"""Bot decisions off the event loop: ``await decide(game, level, view, seed, budget_ms)``.

A thinking bot (the expert searches for tens of milliseconds) must never delay another table,
so each decision runs in a ``concurrent.futures.ProcessPoolExecutor`` shared by the process
(created on first use, one worker per core unless ``configure`` says otherwise). The bot gets
only the view, a ``random.Random(seed)`` and its budget; the answer is an action of the view's
legal actions, or None when the bot does not act out of turn.

A room never waits on a slow decision: when the pool has not answered within ``timeout_s``
(default :func:`timeout_for`: three times the budget, at least ``MIN_TIMEOUT_S``), the
decision is made at once in the calling process by the ``intermediate`` level (rules of thumb,
well under a millisecond), and the pool's late answer is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from app.bots import get_bot

T = TypeVar("T")

_pool: Executor | None = None
_own_pool = False  # _pool is the ProcessPoolExecutor made here (not one given to configure)
_workers: int | None = None
log = logging.getLogger(__name__)

MIN_TIMEOUT_S = 1.0  # a decision may take this long before the quick fallback answers
FALLBACK_LEVEL = "intermediate"


def timeout_for(budget_ms: int | None) -> float:
    """How long a room waits for a decision of ``budget_ms`` (None: the bot's default)."""
    return max(MIN_TIMEOUT_S, 3 * (budget_ms or 0) / 1000.0)


def configure(workers: int | None = None, executor: Executor | None = None) -> None:
    """Set the pool size (or an executor to use, e.g. in tests); shuts an existing pool down."""
    global _pool, _own_pool, _workers
    if _pool is not None and executor is not _pool:
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool, _own_pool, _workers = executor, False, workers


def shutdown() -> None:
    """End the pool and the helpers multiprocessing started for it: its workers (waited for;
    queued decisions are cancelled), the forkserver and the resource tracker. Without this a
    server stopped by SIGTERM left them running (the tracker needed a kill -9). Blocking: call
    it off the event loop. The next decision starts a new pool. An executor given to
    :func:`configure` (tests: a thread pool) is its owner's to shut down: left as it is."""
    global _pool, _own_pool
    if not _own_pool or _pool is None:
        return
    pool, _pool, _own_pool = _pool, None, False
    pool.shutdown(wait=True, cancel_futures=True)
    # both stop once their "alive" pipe closes; _stop closes it and reaps the process (the
    # same calls CPython's own tests use; no public API stops them before interpreter exit)
    from multiprocessing import forkserver, resource_tracker

    for helper in (forkserver._forkserver, resource_tracker._resource_tracker):
        try:
            helper._stop()
        except (AttributeError, OSError, ChildProcessError):
            log.warning("could not stop %s", type(helper).__name__, exc_info=True)


def _executor() -> Executor:
    global _pool, _own_pool
    if _pool is None:
        _own_pool = True
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


async def run_job(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` in the bots' process pool (e.g. one decision of a post-game analysis,
    app.analysis.service) and return its result. ``fn`` and its arguments must pickle. Keep
    each job as short as one bot decision: the pool is shared with every table's bots, and a
    job queued before a bot's decision delays it."""
    return await asyncio.get_running_loop().run_in_executor(_executor(), fn, *args)


async def decide(game: str, level: str, view: Mapping[str, Any], seed: int,
                 budget_ms: int | None = None, *, rules: Mapping[str, Any] | None = None,
                 worlds: int | None = None, timeout_s: float | None = None) -> dict[str, Any] | None:
    """Ask the bot of ``game`` at ``level`` for its action in ``view``, in the process pool.

    ``seed`` makes the choice reproducible; ``budget_ms`` caps the expert's thinking time.
    After ``timeout_s`` seconds (default ``timeout_for(budget_ms)``) the quick fallback level
    decides instead (same view, same seed). Raises app.bots.UnknownBot for an unknown game or
    level.
    """
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(_executor(), choose_now, game, level, dict(view), seed,
                                  budget_ms, rules, worlds)
    wait = timeout_for(budget_ms) if timeout_s is None else timeout_s
    try:
        return await asyncio.wait_for(future, wait)
    except TimeoutError:
        log.warning("%s %s bot took over %.1f s: the %s level decides", game, level, wait,
                    FALLBACK_LEVEL)
        return choose_now(game, FALLBACK_LEVEL, view, seed, budget_ms, rules, worlds)
