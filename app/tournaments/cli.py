"""``python -m app tournament create|list|show|cancel|schedule``: tournaments for operators,
on the site's database (DATABASE_URL; migrated first). Output is JSON with ``--json``, else
lines to read; a refusal is one line on stderr and exit status 2, never a traceback.

Examples::

    python -m app tournament create --name "Evening series" --start 2026-12-24T20:00+01:00 \\
        --rounds 3 --deals 8
    python -m app tournament create --name "Kids arena" --game doublehead_kids \\
        --format arena --duration 30 --deals 4 --start +15m
    python -m app tournament list --status upcoming
    python -m app tournament show 7
    python -m app tournament cancel 7 --reason "server maintenance"
    python -m app tournament schedule deploy/tournaments.toml
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from app.tournaments.spec import FORMATS, LEVELS, MAX_PLAYERS, MAX_ROUNDS, SCORINGS

RELATIVE = re.compile(r"^\+(\d{1,6})([mhd])$")


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``tournament`` and its commands."""
    parser = sub.add_parser("tournament", help="create, list, show and cancel tournaments",
                            description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="tournament_command", required=True)

    create = commands.add_parser("create", help="create a public tournament",
                                 description="Create a public tournament (registration opens "
                                             "at once; the server's director starts it).")
    create.add_argument("--name", required=True, help="its name (1-80 characters)")
    create.add_argument("--game", default="doppelkopf",
                        help="doppelkopf, doublehead_kids, doppelganger_tricks or doppio "
                             "(default doppelkopf)")
    create.add_argument("--preset", default=None,
                        help="the game's rules preset (default: its first, e.g. ddv)")
    create.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option, as on New Game (repeatable; VALUE as JSON, e.g. "
                             "swines=true, target_coins=5)")
    create.add_argument("--format", choices=FORMATS, default="series",
                        help="series (rounds drawn by standing), duplicate (every table of a "
                             "round the same cards) or arena (a time window); default series")
    create.add_argument("--table-size", type=int, default=None, dest="table_size",
                        help="seats per table (default: the game's largest)")
    create.add_argument("--rounds", type=int, default=3,
                        help=f"rounds of a series (1-{MAX_ROUNDS}; default 3)")
    create.add_argument("--deals", type=int, default=8,
                        help="deals per round (series) or match (arena): Doppelkopf a multiple "
                             "of the table size; the other games end by their own rule and a "
                             "number above 0 caps it (default 8)")
    create.add_argument("--max-players", type=int, default=64, dest="max_players",
                        help=f"most people registered (1-{MAX_PLAYERS}; default 64)")
    create.add_argument("--min-players", type=int, default=2, dest="min_players",
                        help="fewer registered at the start cancel it (default 2)")
    create.add_argument("--start", required=True,
                        help="when it starts: ISO 8601 with a time zone "
                             "(2026-12-24T20:00+01:00) or from now (+15m, +2h, +1d)")
    create.add_argument("--duration", type=int, default=0,
                        help="an arena's window in minutes (5-1440)")
    create.add_argument("--pause", type=int, default=60,
                        help="seconds between two rounds of a series (default 60)")
    create.add_argument("--fill-wait", type=int, default=30, dest="fill_wait",
                        help="arena: seconds a free player waits before computer players fill "
                             "the table (default 30)")
    create.add_argument("--bot-level", choices=LEVELS, default="intermediate", dest="bot_level",
                        help="the computer players in empty seats (default intermediate)")
    create.add_argument("--turn-seconds", type=int, default=30, dest="turn_seconds",
                        help="seconds per move before a computer player moves for a person "
                             "(5-600; 0: no move clock; default 30)")
    create.add_argument("--scoring", choices=SCORINGS, default="game",
                        help="game: the game's own score; won_bonus (Doppelkopf series): game "
                             "points plus 50 per deal won (default game)")
    create.add_argument("--json", action="store_true", help="print the tournament as JSON")
    create.set_defaults(func=_create)

    listing = commands.add_parser("list", help="list tournaments",
                                  description="List the tournaments by state.")
    listing.add_argument("--status", choices=("upcoming", "running", "finished", "all"),
                         default="all", help="which (default all)")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(func=_list)

    show = commands.add_parser("show", help="show one tournament and its standings",
                               description="Show a tournament: its fields, rounds and "
                                           "standings.")
    show.add_argument("id", type=int, help="the tournament's id")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=_show)

    cancel = commands.add_parser("cancel", help="cancel a tournament that has not finished",
                                 description="Cancel a tournament: no round starts any more; "
                                             "tables in play finish as ordinary tables.")
    cancel.add_argument("id", type=int, help="the tournament's id")
    cancel.add_argument("--reason", default=None, help="shown on its page (at most 200 characters)")
    cancel.set_defaults(func=_cancel)

    schedule = commands.add_parser(
        "schedule", help="check a recurring config and show (or create) its next tournaments",
        description="Check a TOML file of recurring tournaments (the server reads it from "
                    "TOURNAMENTS_CONFIG) and print the starts within each entry's window.")
    schedule.add_argument("file", type=Path, help="the TOML file")
    schedule.add_argument("--create", action="store_true",
                          help="create them now (the server's director does it by itself)")
    schedule.set_defaults(func=_schedule)


def parse_start(text: str, now: datetime) -> str:
    """``--start`` as ISO 8601 text: ``+15m``/``+2h``/``+1d`` from ``now``, else as given."""
    relative = RELATIVE.match(text.strip())
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2)
        delta = {"m": timedelta(minutes=amount), "h": timedelta(hours=amount),
                 "d": timedelta(days=amount)}[unit]
        return (now + delta).isoformat()
    return text.strip()


def parse_options(items: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs (VALUE as JSON, else as text). Raises ValueError."""
    options: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--option {item!r}: write NAME=VALUE")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    return options


async def _service():
    from app.clock import Clock
    from app.config import Settings
    from app.db.engine import make_engine, make_sessionmaker, upgrade
    from app.lobby.friends import Friends
    from app.tournaments.service import Tournaments

    settings = Settings()
    if settings.database_url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(upgrade, settings.database_url)
    engine = make_engine(settings.database_url)
    sessions = make_sessionmaker(engine)
    clock = Clock()
    return engine, Tournaments(sessions, clock, Friends(sessions, clock)), clock


def _run(work) -> int:
    from app.lobby.service import LobbyError
    from app.tournaments.recurring import ConfigError

    async def main() -> int:
        engine, service, clock = await _service()
        try:
            return await work(service, clock)
        finally:
            await engine.dispose()

    try:
        return asyncio.run(main())
    except (LobbyError, ConfigError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _rounds_of_deals(rounds: int, deals: int | None) -> str:
    """"1 round of 4 deals", "3 rounds of 1 deal", "2 rounds of the game's deals": the
    catalogue's plural forms (app/i18n ngettext), as the tournament page words them."""
    from app.i18n import gettext, ngettext

    of = ngettext("%(num)s deal", "%(num)s deals", deals) if deals else gettext("the game's deals")
    return gettext("%(rounds)s of %(deals)s",
                   rounds=ngettext("%(num)s round", "%(num)s rounds", rounds), deals=of)


def _print(tournament: dict[str, Any], as_json: bool) -> None:
    if as_json:
        json.dump(tournament, sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
        return
    shape = (f"{tournament['duration']} min" if tournament["format"] == "arena"
             else _rounds_of_deals(tournament["rounds"], tournament["deals"]))
    print(f"#{tournament['id']} {tournament['name']} · {tournament['game']} "
          f"{tournament['format']} · {shape} · starts {tournament['starts_at']} · "
          f"{tournament['status']} · {tournament['registered']}/{tournament['max_players']} players")


def _create(args: argparse.Namespace) -> int:
    from app.tournaments.spec import parse_spec

    async def work(service, clock) -> int:
        data = {"name": args.name, "game": args.game, "preset": args.preset,
                "options": parse_options(args.option), "format": args.format,
                "table_size": args.table_size, "rounds": args.rounds, "deals": args.deals,
                "max_players": args.max_players, "min_players": args.min_players,
                "starts_at": parse_start(args.start, clock.now()), "duration": args.duration,
                "pause": args.pause, "fill_wait": args.fill_wait, "bot_level": args.bot_level,
                "turn_seconds": args.turn_seconds or None, "scoring": args.scoring}
        made = await service.create(parse_spec(data))
        _print(made, args.json)
        return 0

    return _run(work)


def _list(args: argparse.Namespace) -> int:
    async def work(service, _clock) -> int:
        listing = await service.list(None, operator=True)
        kinds = ("upcoming", "running", "finished") if args.status == "all" else (args.status,)
        rows = [t for kind in kinds for t in listing[kind]]
        if args.json:
            json.dump(rows, sys.stdout, indent=2)
            sys.stdout.write("\n")
        for row in [] if args.json else rows:
            _print(row, False)
        return 0

    return _run(work)


def _show(args: argparse.Namespace) -> int:
    from app.i18n import ngettext

    async def work(service, _clock) -> int:
        tournament = await service.live(args.id)
        if args.json:
            _print(tournament, True)
            return 0
        _print(tournament, False)
        for row in tournament["players"]:
            won = ngettext("%(num)s table won", "%(num)s tables won", row["tables_won"])
            print(f"  {row['rank']:>3}. {row['name']:<20} {row['score']:>8}  "
                  f"({row['played']} played, {won}"
                  f"{', ' + row['status'] if row['status'] != 'active' else ''})")
        return 0

    return _run(work)


def _cancel(args: argparse.Namespace) -> int:
    async def work(service, _clock) -> int:
        await service.cancel(args.id, None, args.reason)
        print(f"#{args.id} cancelled")
        return 0

    return _run(work)


def _schedule(args: argparse.Namespace) -> int:
    from app.tournaments.recurring import Recurring, load_config

    async def work(service, clock) -> int:
        now = clock.now()
        for entry in load_config(args.file, now):
            starts = entry.starts(now)
            print(f"{entry.key}: {entry.fields.get('name')} · next "
                  f"{', '.join(s.isoformat() for s in starts[:5]) or 'none in its window'}")
        if args.create:
            made = await Recurring(args.file, service, clock).ensure(force=True)
            print(f"created or found: {', '.join(f'#{i}' for i in made) or 'none'}")
        return 0

    return _run(work)
