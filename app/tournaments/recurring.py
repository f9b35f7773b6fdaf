"""Recurring tournaments from a TOML file (``TOURNAMENTS_CONFIG``): "every day at 20:00 a
Doppelkopf series, 3 rounds of 8 deals". docs/tournaments.md, "Recurring tournaments".

Each ``[[tournament]]`` entry has a ``key`` (its name in the schedule, unique in the file),
``cron`` (when it starts: a cron expression, minute hour day month weekday, read by
croniter), ``timezone`` (an IANA name, default UTC), ``announce_hours`` (how long before its
start it is created and open for registration, default 24) and the fields of a tournament
(app.tournaments.spec.TournamentSpec, without ``starts_at``)::

    [[tournament]]
    key = "evening-series"
    cron = "0 20 * * *"
    timezone = "Europe/Berlin"
    name = "Evening series"
    game = "doppelkopf"
    format = "series"
    rounds = 3
    deals = 8

The director calls :meth:`Recurring.ensure` on its ticks (at most once a minute): every
start within the announce window is created once — its ``schedule_key`` (entry key and start)
is unique in the database, so two processes or a restart never create it twice.
"""

from __future__ import annotations

import logging
import time
import tomllib
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import croniter

from app.clock import Clock
from app.tournaments.spec import TournamentError, TournamentSpec, check_spec, parse_spec

log = logging.getLogger(__name__)
#: seconds between two looks at the schedule
EVERY = 60.0
#: the fields of an entry that are the schedule's, not the tournament's
SCHEDULE_FIELDS = ("key", "cron", "timezone", "announce_hours")


class ConfigError(ValueError):
    """A recurring config that cannot be used; the message names the entry and the field."""


@dataclass(frozen=True)
class Entry:
    """One recurring tournament: its schedule and the tournament's fields."""

    key: str
    cron: str
    zone: ZoneInfo
    announce: timedelta
    fields: dict[str, Any]

    def starts(self, now: datetime) -> list[datetime]:
        """The starts after ``now`` within the announce window (timezone-aware)."""
        out: list[datetime] = []
        it = croniter(self.cron, now.astimezone(self.zone))
        while len(out) < 100:
            start = it.get_next(datetime)
            if start > now + self.announce:
                break
            out.append(start)
        return out

    def spec(self, start: datetime) -> TournamentSpec:
        return parse_spec({**self.fields, "starts_at": start.isoformat()})


def load_config(path: Path, now: datetime) -> list[Entry]:
    """Read and check the config (each entry's tournament checked as if it started at its
    next start). Raises ConfigError naming the entry and what is wrong."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read it: {err}") from None
    entries, keys = [], set()
    for index, raw in enumerate(document.get("tournament", [])):
        where = f"{path}: tournament {index + 1}"
        if not isinstance(raw, dict):
            raise ConfigError(f"{where}: not a table")
        key = raw.get("key")
        if not isinstance(key, str) or not key or len(key) > 100:
            raise ConfigError(f"{where}: key: a name of 1 to 100 characters")
        if key in keys:
            raise ConfigError(f"{where}: key {key!r} is there twice")
        keys.add(key)
        cron = raw.get("cron")
        if not isinstance(cron, str) or not croniter.is_valid(cron):
            raise ConfigError(f"{where} ({key}): cron: not a cron expression "
                              "(minute hour day month weekday, e.g. '0 20 * * *')")
        try:
            zone = ZoneInfo(str(raw.get("timezone", "UTC")))
        except (ZoneInfoNotFoundError, ValueError):
            raise ConfigError(f"{where} ({key}): timezone: not a time zone name "
                              "(e.g. 'Europe/Berlin')") from None
        hours = raw.get("announce_hours", 24)
        if not isinstance(hours, int | float) or isinstance(hours, bool) or not 0 < hours <= 24 * 30:
            raise ConfigError(f"{where} ({key}): announce_hours: a number of hours from 0 to 720")
        fields = {k: v for k, v in raw.items() if k not in SCHEDULE_FIELDS}
        entry = Entry(key, cron, zone, timedelta(hours=hours), fields)
        first = croniter(cron, now.astimezone(zone)).get_next(datetime)
        try:
            check_spec(entry.spec(first), now)
        except TournamentError as err:
            raise ConfigError(f"{where} ({key}): {err}") from None
        entries.append(entry)
    return entries


class Recurring:
    """Creates the recurring tournaments of ``path`` ahead of their starts."""

    def __init__(self, path: Path, tournaments: Any, clock: Clock, *,
                 now_fn: Any = time.monotonic) -> None:
        self._path, self._tournaments, self._clock = path, tournaments, clock
        self._now = now_fn
        self._last: float | None = None
        self._entries: list[Entry] | None = None

    async def ensure(self, *, force: bool = False) -> list[int]:
        """Create every start within its window not created yet; the ids created or found.
        A broken config is logged (once a minute) and creates nothing."""
        if not force and self._last is not None and self._now() - self._last < EVERY:
            return []
        self._last = self._now()
        now = self._clock.now()
        try:
            entries = load_config(self._path, now)
        except ConfigError as err:
            log.error("recurring tournaments: %s", err)
            return []
        ids = []
        for entry in entries:
            for start in entry.starts(now):
                key = f"{entry.key}@{start.isoformat()}"
                try:
                    made = await self._tournaments.create(entry.spec(start), schedule_key=key)
                except TournamentError as err:
                    log.error("recurring tournament %s: %s", key, err)
                    continue
                ids.append(made["id"])
        return ids
