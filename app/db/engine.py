"""The async engine and session factory, and running migrations to head.

``make_engine(url)`` → AsyncEngine (SQLite: WAL and a busy timeout, so several writers wait
instead of failing). ``upgrade(url)`` runs Alembic to head (blocking; call it in a thread from
async code).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

ROOT = Path(__file__).resolve().parent.parent.parent


def make_engine(url: str, *, pool_size: int = 5, max_overflow: int = 10,
                background_checkpoint: bool = False) -> AsyncEngine:
    """Create the engine for ``url`` (sqlite+aiosqlite:// or postgresql+asyncpg://);
    ``pool_size``/``max_overflow``: PostgreSQL connections kept / opened beyond them.
    ``background_checkpoint``: SQLite's commits never checkpoint the WAL (the caller runs
    app.db.checkpoint.WalCheckpointer)."""
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            if background_checkpoint:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    return create_async_engine(url, pool_pre_ping=True, pool_size=pool_size,
                               max_overflow=max_overflow)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str):
    """The Alembic config of alembic.ini with ``url`` as sqlalchemy.url."""
    from alembic.config import Config

    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Run the migrations to head on ``url``. Creates a SQLite file's directory."""
    from alembic import command

    if url.startswith("sqlite") and ":///" in url:
        path = url.split(":///", 1)[1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(url), "head")
