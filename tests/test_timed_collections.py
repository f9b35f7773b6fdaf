"""The server's timed garbage collections (app.server.TimedCollections): generation 0 on every
tick, generation 1 on every ``older_every``-th, a full one every ``full_every`` seconds, and
full collections left to the timer alone when tune_gc is told so."""

from __future__ import annotations

import asyncio
import gc

from app.server import TimedCollections, tune_gc


async def test_the_ticks_collect_the_young_generations_and_a_full_one_on_their_timer():
    seen: list[int] = []

    def record(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    timed = TimedCollections(0.01, older_every=3, full_every=0.06)
    gc.callbacks.append(record)
    try:
        timed.start()
        while len(seen) < 6:
            await asyncio.sleep(0.01)
        timed.stop()
        ticks = len(seen)
        await asyncio.sleep(0.05)
    finally:
        gc.callbacks.remove(record)
    assert seen[:6] == [0, 0, 1, 0, 0, 2]
    assert len(seen) == ticks  # stopped: no more collections


def test_tune_gc_puts_full_collections_out_of_the_collectors_reach_when_timed():
    before = gc.get_threshold()
    try:
        tune_gc((10_000, 10, 100), timed_full=True)
        assert gc.get_threshold()[:2] == (10_000, 10) and gc.get_threshold()[2] >= 10**9
        tune_gc((10_000, 10, 100))
        assert gc.get_threshold() == (10_000, 10, 100)
    finally:
        gc.set_threshold(*before)
