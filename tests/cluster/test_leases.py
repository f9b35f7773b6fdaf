"""Table leases: one owner at a time, renewal only by the owner, takeover after expiry."""

from __future__ import annotations

import asyncio

import pytest

from app.cluster.leases import InProcessLeases, LeaseRenewer
from tests.cluster.conftest import TTL, FakeClock, Harness

LONG = 30 * TTL  # for checks that are not about expiry


async def test_one_of_two_owners_wins(harness: Harness):
    assert await harness.a.leases.acquire("t1", "p1", LONG)
    assert not await harness.b.leases.acquire("t1", "p2", LONG)
    assert await harness.a.leases.owner_of("t1") == "p1"
    assert await harness.b.leases.owner_of("t1") == "p1"
    assert await harness.b.leases.owner_of("t2") is None
    assert await harness.b.leases.owners(["t2", "t1", "t2"]) == [None, "p1", None]


async def test_concurrent_acquire_has_exactly_one_winner(harness: Harness):
    attempts = [
        (harness.a if i % 2 else harness.b).leases.acquire("t1", f"owner-{i}", 5.0)
        for i in range(40)
    ]
    results = await asyncio.gather(*attempts)
    winners = [f"owner-{i}" for i, won in enumerate(results) if won]
    assert len(winners) == 1
    assert await harness.a.leases.owner_of("t1") == winners[0]


async def test_acquire_again_by_the_owner_extends(harness: Harness):
    assert await harness.a.leases.acquire("t1", "p1", TTL)
    await harness.advance(TTL * 0.8)
    assert await harness.a.leases.acquire("t1", "p1", TTL)
    await harness.advance(TTL * 0.5)  # 1.3 TTL after the first acquire
    assert await harness.b.leases.owner_of("t1") == "p1"


async def test_only_the_owner_renews_and_releases(harness: Harness):
    assert await harness.a.leases.acquire("t1", "p1", LONG)
    assert not await harness.b.leases.renew("t1", "p2", LONG)
    assert not await harness.b.leases.release("t1", "p2")
    assert await harness.b.leases.owner_of("t1") == "p1"
    assert await harness.a.leases.renew("t1", "p1", LONG)
    assert await harness.a.leases.release("t1", "p1")
    assert await harness.b.leases.owner_of("t1") is None
    assert not await harness.a.leases.renew("t1", "p1", LONG)  # released: nothing to renew
    assert await harness.b.leases.acquire("t1", "p2", LONG)


async def test_renewal_keeps_the_lease_past_its_ttl(harness: Harness):
    assert await harness.a.leases.acquire("t1", "p1", TTL)
    for _ in range(2):
        await harness.advance(TTL * 0.45)
        assert await harness.a.leases.renew("t1", "p1", TTL)
    await harness.advance(TTL * 0.45)  # 1.35 TTL after the acquire
    assert await harness.b.leases.owner_of("t1") == "p1"
    assert not await harness.b.leases.acquire("t1", "p2", TTL)


async def test_expiry_lets_another_owner_take_over(harness: Harness):
    assert await harness.a.leases.acquire("t1", "p1", TTL)
    await harness.advance(TTL * 1.5)
    assert await harness.b.leases.owner_of("t1") is None
    assert await harness.b.leases.acquire("t1", "p2", TTL)
    # The old owner comes back: it can neither renew nor release the new owner's lease.
    assert not await harness.a.leases.renew("t1", "p1", TTL)
    assert not await harness.a.leases.release("t1", "p1")
    assert not await harness.a.leases.acquire("t1", "p1", TTL)
    assert await harness.a.leases.owner_of("t1") == "p2"


async def test_ttl_must_be_positive(harness: Harness):
    with pytest.raises(ValueError):
        await harness.a.leases.acquire("t1", "p1", 0)


# The renewer --------------------------------------------------------------------------------


def _drive(harness: Harness) -> dict:
    """Renewer options: in-process, its sleep advances the fake clock."""
    if harness.clock is None:
        return {}
    clock = harness.clock

    async def fake_sleep(seconds: float) -> None:
        clock.now += seconds
        await asyncio.sleep(0)

    return {"clock": clock, "sleep": fake_sleep}


async def _let_time_pass(harness: Harness, seconds: float) -> None:
    if harness.clock is None:
        await asyncio.sleep(seconds)
        return
    target = harness.clock.now + seconds
    for _ in range(10_000):  # the renewer's fake sleep moves the clock
        if harness.clock.now >= target:
            return
        await asyncio.sleep(0)
    raise AssertionError("the renewer stopped moving the clock")


async def test_renewer_keeps_the_lease_and_releases_on_stop(harness: Harness):
    lost: list[str] = []
    assert await harness.a.leases.acquire("t1", "p1", TTL)
    renewer = LeaseRenewer(harness.a.leases, "p1", TTL, lost.append, **_drive(harness))
    renewer.add("t1")
    await _let_time_pass(harness, TTL * 1.5)
    assert renewer.running and renewer.holds("t1")
    assert await harness.b.leases.owner_of("t1") == "p1"
    assert not await harness.b.leases.acquire("t1", "p2", TTL)
    await renewer.stop()
    assert lost == []
    assert await harness.b.leases.owner_of("t1") is None


async def test_one_renewer_keeps_many_leases_with_one_call_each_time(harness: Harness):
    """A process owning many tables renews them all at once: one renew_many per interval."""
    calls: list[int] = []
    leases = harness.a.leases
    original = leases.renew_many

    async def counted(table_ids, owner, ttl_s):
        calls.append(len(table_ids))
        return await original(table_ids, owner, ttl_s)

    leases.renew_many = counted  # type: ignore[method-assign]
    tables = [f"t{i}" for i in range(50)]
    renewer = LeaseRenewer(leases, "p1", TTL, lambda _t: None, **_drive(harness))
    for table in tables:
        assert await leases.acquire(table, "p1", TTL)
        renewer.add(table)
    await _let_time_pass(harness, TTL * 1.5)
    assert [await harness.b.leases.owner_of(t) for t in tables] == ["p1"] * 50
    assert calls and set(calls) == {50}  # every renewal: all fifty in one call
    await renewer.remove("t0")  # released at once
    assert await harness.b.leases.owner_of("t0") is None
    assert not renewer.holds("t0") and renewer.holds("t1")
    await renewer.stop()
    assert [await harness.b.leases.owner_of(t) for t in tables] == [None] * 50


async def test_renewer_reports_a_lost_lease(harness: Harness):
    lost: list[str] = []
    seen = asyncio.Event()

    async def on_lost(table_id: str) -> None:
        lost.append(table_id)
        seen.set()

    assert await harness.a.leases.acquire("t1", "p1", TTL)
    assert await harness.a.leases.acquire("t2", "p1", TTL)
    renewer = LeaseRenewer(harness.a.leases, "p1", TTL, on_lost, **_drive(harness))
    renewer.add("t1")
    renewer.add("t2")
    # Another process takes the table behind the renewer's back.
    assert await harness.a.leases.release("t1", "p1")
    assert await harness.b.leases.acquire("t1", "p2", 10 * TTL)
    await asyncio.wait_for(seen.wait(), 2.0)
    assert lost == ["t1"]
    assert renewer.lost == {"t1"} and not renewer.holds("t1")
    assert renewer.running and renewer.holds("t2")  # the others are kept
    await renewer.stop()  # must not release the new owner's lease
    assert await harness.a.leases.owner_of("t1") == "p2"
    assert await harness.a.leases.owner_of("t2") is None


class _Unreachable:
    """A lease store whose renewals fail like a dead Redis."""

    def __init__(self) -> None:
        self.calls = 0

    async def renew_many(self, table_ids, owner: str, ttl_s: float) -> list[str]:
        self.calls += 1
        raise ConnectionError("redis is down")

    async def release(self, table_id: str, owner: str) -> bool:
        raise ConnectionError("redis is down")


async def test_renewer_gives_up_when_no_renewal_succeeds_for_a_ttl():
    clock = FakeClock()

    async def fake_sleep(seconds: float) -> None:
        clock.now += seconds
        await asyncio.sleep(0)

    lost: list[str] = []
    store = _Unreachable()
    renewer = LeaseRenewer(store, "p1", 3.0, lost.append,  # type: ignore[arg-type]
                           clock=clock, sleep=fake_sleep)
    renewer.add("t1")
    for _ in range(100):
        if lost:
            break
        await asyncio.sleep(0)
    assert lost == ["t1"]
    # Renewals every second (TTL/3): the failures at t=1 and t=2 are retried, the one at t=3
    # finds a whole TTL without success.
    assert store.calls == 3
    await renewer.stop()  # lost: no release attempted (it would raise here)


async def test_in_process_leases_follow_the_injected_clock():
    clock = FakeClock()
    leases = InProcessLeases(clock)
    assert await leases.acquire("t1", "p1", 10.0)
    clock.now += 9.999
    assert await leases.owner_of("t1") == "p1"
    clock.now += 0.001
    assert await leases.owner_of("t1") is None


async def test_a_failing_callback_or_release_does_not_escape_the_renewer():
    clock = FakeClock()

    async def fake_sleep(seconds: float) -> None:
        clock.now += seconds
        await asyncio.sleep(0)

    def on_lost(table_id: str) -> None:
        raise RuntimeError("the room actor is already gone")

    renewer = LeaseRenewer(_Unreachable(), "p1", 3.0, on_lost,  # type: ignore[arg-type]
                           clock=clock, sleep=fake_sleep)
    renewer.add("t1")
    for _ in range(100):
        if not renewer.holds("t1"):
            break
        await asyncio.sleep(0)
    assert renewer.lost == {"t1"} and renewer.running  # the renewer itself goes on
    await renewer.stop()

    # Stopping before any loss tries to release; with Redis away that is logged, not raised.
    renewer = LeaseRenewer(_Unreachable(), "p1", 3.0, on_lost,  # type: ignore[arg-type]
                           clock=clock, sleep=asyncio.sleep)
    renewer.add("t1")
    await renewer.stop()
    assert not renewer.lost
