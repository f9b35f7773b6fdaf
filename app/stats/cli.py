"""``python -m app stats rebuild``: count every finished match again from its event log into
the statistics (DATABASE_URL, as the server; the migrations run first). Prints the figures as
JSON on stdout (matches, matches per second, skipped matches), progress on stderr."""

from __future__ import annotations

import argparse
import asyncio


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register the ``stats`` subcommand."""
    parser = sub.add_parser("stats", help="the players' statistics: rebuild them from the event logs")
    what = parser.add_subparsers(dest="stats_command", required=True)
    rebuild = what.add_parser("rebuild", help="count every finished match again (DATABASE_URL)")
    rebuild.add_argument("--quiet", action="store_true", help="no progress on stderr")
    rebuild.set_defaults(func=run)


async def rebuild(url: str, quiet: bool = False) -> dict:
    """Migrate ``url`` to head and rebuild its statistics; the figures as a dict."""
    from app.bots import runner
    from app.cli_output import progress
    from app.clock import Clock
    from app.db.engine import make_engine, make_sessionmaker, upgrade
    from app.stats.service import Stats

    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    try:
        done = await Stats(make_sessionmaker(engine), Clock()).rebuild(
            progress=None if quiet else progress("counted %(done)s/%(total)s matches"))
    finally:
        await engine.dispose()
        await asyncio.to_thread(runner.shutdown)
    return {"matches": done.matches, "seconds": round(done.seconds, 3),
            "matches_per_second": round(done.per_second, 1),
            "caught_up": done.caught_up,
            "skipped": [{"match": match, "reason": reason} for match, reason in done.skipped]}


def run(args: argparse.Namespace) -> int:
    """The subcommand; returns the exit status."""
    from app.cli_output import emit
    from app.config import Settings

    return emit(asyncio.run(rebuild(Settings().database_url, quiet=args.quiet)))
