"""Clock.call_later: one handle per timer (no task); ManualClock runs due timers in time order
when advanced, and a cancelled timer never runs."""

from __future__ import annotations

import asyncio

from app.clock import Clock, ManualClock


async def test_manual_timers_run_in_time_order_once_due_and_not_when_cancelled():
    clock = ManualClock()
    fired: list[str] = []
    clock.call_later(2.0, lambda: fired.append("b"))
    clock.call_later(1.0, lambda: fired.append("a"))
    cancelled = clock.call_later(1.5, lambda: fired.append("never"))
    cancelled.cancel()
    clock.call_later(5.0, lambda: fired.append("late"))
    clock.advance(1.9)
    await asyncio.sleep(0)
    assert fired == ["a"]
    clock.advance(0.2)
    await asyncio.sleep(0)
    assert fired == ["a", "b"]
    clock.advance(10)
    await asyncio.sleep(0)
    assert fired == ["a", "b", "late"]


async def test_real_timer_runs_after_its_time_and_cancel_stops_it():
    clock = Clock()
    done = asyncio.Event()
    fired: list[str] = []
    clock.call_later(0.01, done.set)
    clock.call_later(0.005, lambda: fired.append("x")).cancel()
    await asyncio.wait_for(done.wait(), 2)
    assert fired == []
