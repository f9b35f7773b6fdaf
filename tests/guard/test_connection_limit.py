"""A WebSocket's own message limit (ConnectionLimit): leaky buckets per window, on the event
loop's clock, which these tests move by hand."""

from __future__ import annotations

import asyncio

import pytest

from app.guard.ratelimit import Decision, Policy, RateLimits


class ManualLoop(asyncio.SelectorEventLoop):
    """An event loop whose ``time()`` is what the test says (aiolimiter reads it)."""

    now = 1000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def loop():
    manual = ManualLoop()
    yield manual
    manual.close()


def checks(loop: ManualLoop, limit, n: int) -> list[bool]:
    async def run() -> list[bool]:
        return [(await limit.check()).allowed for _ in range(n)]

    return loop.run_until_complete(run())


def check(loop: ManualLoop, limit) -> Decision:
    return loop.run_until_complete(limit.check())


def test_a_burst_of_twenty_then_the_rate(loop):
    limits = RateLimits()
    one = limits.connection_limit(Policy.WS_MESSAGE)
    assert checks(loop, one, 20) == [True] * 20
    assert check(loop, one) == Decision(False, 0.05, Policy.WS_MESSAGE)  # one drains in 1/20 s
    other = limits.connection_limit(Policy.WS_MESSAGE)  # another connection: its own buckets
    assert check(loop, other).allowed
    loop.now += 0.04
    assert not check(loop, one).allowed
    loop.now += 0.011
    assert checks(loop, one, 2) == [True, False]
    loop.now += 1.0  # a second drains the burst bucket
    assert checks(loop, one, 20) == [True] * 20


def test_the_minute_bucket_stops_a_client_that_keeps_sending_twenty_a_second(loop):
    """20 a second fills the 300-a-minute bucket by 15 a second (it drains 5): after 20 s it is
    full and the client gets what drains, 5 a second."""
    limit = RateLimits().connection_limit(Policy.WS_MESSAGE)
    for _ in range(19):
        assert checks(loop, limit, 20) == [True] * 20
        loop.now += 1.0
    allowed = checks(loop, limit, 20)
    assert allowed.count(True) < 20
    refused = check(loop, limit)
    assert not refused.allowed and refused.retry_after_s == pytest.approx(0.2)  # 60 s / 300
    loop.now += 10.0  # 10 s of quiet drain 50 of the minute's bucket
    assert checks(loop, limit, 20) == [True] * 20


def test_refused_messages_are_not_counted(loop):
    limit = RateLimits({Policy.WS_MESSAGE: "2/second"}).connection_limit(Policy.WS_MESSAGE)
    assert checks(loop, limit, 50) == [True, True] + [False] * 48
    loop.now += 0.5  # one drained: 48 refusals did not fill the bucket further
    assert checks(loop, limit, 2) == [True, False]
