"""Alembic environment (async): runs migrations on DATABASE_URL or alembic.ini's url."""

from __future__ import annotations

import asyncio
import os
import warnings

from alembic import context
from sqlalchemy.exc import SAWarning
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.models import Base

config = context.config
target_metadata = Base.metadata

# SQLite batch migrations reflect the users table, whose unique index on lower(name) (0003_i18n)
# SQLAlchemy cannot reflect; the batch copy of another table does not need it, so say nothing.
warnings.filterwarnings("ignore", message="Skipped unsupported reflection of expression-based",
                        category=SAWarning)


def _url() -> str:
    explicit = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    if config.cmd_opts is not None and os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]  # the `alembic` command line honours DATABASE_URL
    return explicit


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _run_sync(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


async def run_migrations_online() -> None:
    engine = create_async_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_run_sync)
    await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(run_migrations_online())
