"""Helpers of the tournament tests: a site's services on a fresh database with a manual clock
(computer players think 0 s, an absent person's seat is taken over at once), people, and
waiting for the tables of a round to finish."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

from app.clock import ManualClock
from app.db.engine import upgrade
from app.db.models import User
from app.lobby.service import Viewer
from app.tournaments.spec import parse_spec
from tests.platform_helpers import make_services, settings_for


@asynccontextmanager
async def site(tmp_path, db_url: str | None = None, **overrides: Any):
    """The services of a site (no HTTP) with a ManualClock; the director is not started (the
    tests call ``director.tick()``)."""
    settings = settings_for(tmp_path, away_grace=0.0, **overrides)
    if db_url is not None:
        settings = settings.model_copy(update={"database_url": db_url})
    await asyncio.to_thread(upgrade, settings.database_url)
    clock = ManualClock()
    services = make_services(settings, clock=clock)
    try:
        yield services, clock
    finally:
        await services.close()


async def people(services, count: int, prefix: str = "P") -> list[Viewer]:
    """``count`` registered accounts (no password hashing: rows as the accounts service
    keeps them)."""
    out = []
    async with services.accounts._db() as db:  # noqa: SLF001 - test data
        for n in range(count):
            user = User(name=f"{prefix}{n:03d}", is_guest=False, password_hash=None,
                        created_at=services.clock.now())
            db.add(user)
            await db.flush()
            out.append(Viewer(user.id, user.name))
        await db.commit()
    return out


def spec(clock: ManualClock, **fields: Any):
    """A tournament starting in five minutes."""
    data = {"name": "Test series", "starts_at": (clock.now() + timedelta(minutes=5)).isoformat(),
            **fields}
    return parse_spec(data)


async def finish_tables(services, table_ids: list[int], timeout: float = 60) -> None:
    """Wait (bounded) until every table's match is over; computer players move at once."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status = await services.tournaments.table_status(table_ids)
        if all(status.get(t) == "finished" for t in table_ids):
            return
        if loop.time() > deadline:
            raise AssertionError(f"tables not finished: {status}")
        await asyncio.sleep(0.05)
