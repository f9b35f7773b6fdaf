"""SQLite's WAL is checkpointed in the background, never in a commit (app/db/checkpoint.py)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from app.db.engine import make_engine
from app.services import sqlite_checkpointer


async def _write(engine, rows: int) -> None:
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE IF NOT EXISTS t (x TEXT)"))
    for i in range(rows):
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO t VALUES (:x)"), {"x": "x" * 2000 + str(i)})


async def _autocheckpoint(engine) -> int:
    async with engine.connect() as conn:
        return (await conn.execute(text("PRAGMA wal_autocheckpoint"))).scalar_one()


def test_commits_do_not_checkpoint_and_the_checkpointer_does(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/wal.db"
    checkpointer = sqlite_checkpointer(url, 1.0)
    assert checkpointer is not None

    async def run():
        engine = make_engine(url, background_checkpoint=True)
        try:
            assert await _autocheckpoint(engine) == 0
            await _write(engine, 1200)  # past SQLite's default of 1,000 log pages
            busy, pages, done = checkpointer.checkpoint()
            assert busy == 0 and pages > 1000 and done == pages  # nothing was checkpointed yet
            await _write(engine, 5)  # the log is reused from its start
            assert checkpointer.checkpoint()[1] < 100
        finally:
            await checkpointer.stop()
            await engine.dispose()

    asyncio.run(run())


def test_without_the_background_checkpointer_sqlite_checkpoints_in_commits(tmp_path):
    async def run():
        engine = make_engine(f"sqlite+aiosqlite:///{tmp_path}/plain.db")
        try:
            assert await _autocheckpoint(engine) == 1000
        finally:
            await engine.dispose()

    asyncio.run(run())


def test_only_a_sqlite_file_gets_a_checkpointer():
    assert sqlite_checkpointer("postgresql+asyncpg://x@localhost/test", 1.0) is None
    assert sqlite_checkpointer("sqlite+aiosqlite:///:memory:", 1.0) is None
    assert sqlite_checkpointer("sqlite+aiosqlite:///./data/x.db", 0) is None
