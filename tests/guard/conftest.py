"""The wall clock, frozen and moved by hand (the ``limits`` package reads ``time.time()``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import time_machine

#: An arbitrary fixed instant (2025-01-01 00:00:00 UTC) for reproducible windows.
START = 1_735_689_600.0


@pytest.fixture
def wall_clock() -> Iterator[time_machine.Traveller]:
    """Freeze ``time.time()`` at START; ``wall_clock.shift(seconds)`` moves it forward."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller
