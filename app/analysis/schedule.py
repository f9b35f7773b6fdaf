"""How a whole match's analysis is run in time: its time plan and its jobs.

Targets (docs/analysis.md, "Speed"): the analysis of one seat finishes within ``ALLOWANCE``
(2) times the match's thinking budget, and the first result — the first deal's decisions, its
costliest ones among them — is there within ``FIRST_RESULT_S`` (10 s) of asking. The match's
thinking budget is what computer experts would think to play it: ``thinking_ms`` (the site's
``BOT_BUDGET_MS``, 300 ms) for every action of any seat that had a choice.

The time plan (:class:`TimePlan`) gives each decision its time cap: the configured budget
(``ANALYSIS_BUDGET_MS``), lowered so that the first deal's decisions share
``FIRST_SHARE`` of the first-result time and the others share what is left of the allowance.
The estimators stop earlier at ``worlds`` sampled deals or once the choice is settled.

:func:`analyse_match` runs the decisions as jobs (``run``: app.bots.runner.run_job on the
site, a process pool of its own in the benchmark), ``parallel`` at a time, in the order they
were made, reports progress after each, and hands over the first deal's document as soon as
its decisions are valued.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.analysis import jobs
from app.analysis.report import document

FIRST_RESULT_S = 10.0
#: the share of FIRST_RESULT_S the first deal's decisions may use (the rest: the plan's own
#: job, a slow worker, the page asking)
FIRST_SHARE = 0.7
ALLOWANCE = 2.0
#: the least time cap of a decision (an estimator still samples its MIN_WORLDS deals)
MIN_BUDGET_MS = 50.0

Run = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class TimePlan:
    """The time caps of one analysis (milliseconds per decision; see the module docstring).

    budget_ms: the configured cap; allowance_s: ALLOWANCE times the match's thinking budget;
    first: the number of decisions of the first deal; parallel: decisions valued at once.
    """

    budget_ms: float
    allowance_s: float
    first: int
    parallel: int

    @classmethod
    def of(cls, budget_ms: float, thinking_ms: float, choices: int, first: int,
           parallel: int) -> TimePlan:
        """The plan of a match whose seats had ``choices`` decisions with a choice (all seats)."""
        return cls(budget_ms, ALLOWANCE * thinking_ms * choices / 1000.0, first, max(1, parallel))

    def first_ms(self) -> float:
        """The cap of a decision of the first deal."""
        share = FIRST_SHARE * FIRST_RESULT_S * 1000.0 * self.parallel / max(1, self.first)
        return max(MIN_BUDGET_MS, min(self.budget_ms, share))

    def later_ms(self, elapsed_s: float, left: int) -> float:
        """The cap of a later decision when ``elapsed_s`` have passed and ``left`` decisions
        (this one included) are still to start."""
        spare = max(0.0, self.allowance_s - elapsed_s) * 1000.0 * self.parallel / max(1, left)
        return max(MIN_BUDGET_MS, min(self.budget_ms, spare))


async def analyse_match(scenario: dict[str, Any], seat: int, *, seed: int, budget_ms: float,
                        worlds: int, thinking_ms: float, parallel: int, run: Run,
                        progress: Callable[[int, int], Awaitable[None]] | None = None,
                        first: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
                        ) -> dict[str, Any]:
    """The analysis document of ``seat`` in ``scenario`` (a match's download), valued as jobs
    by ``run(fn, *args)``, ``parallel`` at a time under the time plan. ``progress(done,
    total)`` is awaited after each decision (and once with the total before any);
    ``first(doc)`` once with the first deal's document (``partial``: true) as soon as the
    first deal's decisions are valued. Raises what a job raises (app.scenario.ScenarioError
    for a bad document)."""
    started = time.perf_counter()
    decisions, choices = await run(jobs.plan_match, scenario, seat)
    total = len(decisions)
    first_round = sum(1 for d in decisions if d.round == decisions[0].round) if decisions else 0
    plan = TimePlan.of(budget_ms, thinking_ms, choices, first_round, parallel)
    if progress is not None:
        await progress(0, total)
    rules_raw = json.dumps(scenario["rules"], sort_keys=True)
    rounds = len(scenario["rounds"])
    entries: list[dict[str, Any] | None] = [None] * total
    gate = asyncio.Semaphore(plan.parallel)
    telling = asyncio.Lock()  # progress is told in order, never an older count after a newer
    done = 0
    told = False

    async def one(index: int) -> None:
        nonlocal done, told
        async with gate:
            cap = plan.first_ms() if index < first_round else plan.later_ms(
                time.perf_counter() - started, total - index)
            entries[index] = await run(jobs.value, scenario["game"], rules_raw, decisions[index],
                                       seed, cap, worlds)
        done += 1
        async with telling:
            if progress is not None:
                await progress(done, total)
        if first is not None and not told and all(e is not None for e in entries[:first_round]) \
                and first_round < total:
            told = True
            doc = document(scenario["game"], rounds, [e for e in entries[:first_round] if e],
                           seed=seed, budget_ms=budget_ms, worlds=worlds)
            await first({**doc, "seat": seat, "partial": True})

    tasks = [asyncio.ensure_future(one(index)) for index in range(total)]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    result = document(scenario["game"], rounds, [e for e in entries if e is not None], seed=seed,
                      budget_ms=budget_ms, worlds=worlds)
    result["seat"] = seat
    return result
