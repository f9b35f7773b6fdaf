"""Chat fixtures: a fake clock for the service, the frozen wall clock for the rate limits."""

from __future__ import annotations

import pytest

from app.chat.service import ChatService, InMemoryReportQueue
from app.guard.ratelimit import Policy, RateLimits
from tests.guard.conftest import START, wall_clock  # noqa: F401  (re-exported fixture)


class FakeClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def queue() -> InMemoryReportQueue:
    return InMemoryReportQueue()


@pytest.fixture
def chat(clock, queue) -> ChatService:
    """A chat whose rate limit never bites (tests of other rules post freely)."""
    return ChatService(RateLimits({Policy.CHAT_LINE: "100000/second"}), now_fn=clock, sink=queue)
