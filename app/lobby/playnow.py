"""Public matchmaking ("Play now") wired to the database and the rooms.

The queues (a queue per game, preset and table size) live in this process
(:class:`~app.lobby.queue.LocalQueue`, a :class:`~app.lobby.matchmaking.Matchmaker`) or, with
REDIS_URL, in Redis, shared by every process (:class:`~app.lobby.queue.SharedQueue`). A task ticks it every ``tick_interval`` seconds (started with the first
join); each table it forms becomes a ``tables`` row in state ``playing`` with the people in join
order and computer players (of the level nearest the people's mean rating) in the empty seats,
with the public move clock (``PUBLIC_MOVE_SECONDS`` per move). The people are told over the lobby feed (``play_now``) and can also poll ``status``.

One place at a time: a person waiting in a queue cannot queue again (AlreadyQueued), nor open or
join a lobby table (``Lobby.busy``); a person holding a seat at an open or playing table cannot
queue (SeatTaken, the same refusal as New Game's and Join's). The database's seats are the truth for "seated", so the matchmaker's own
seated set is released as soon as the table row exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.db.models import GameTable, PlayerRating, Seat
from app.games.registry import UnknownGame, get_game
from app.i18n import N_
from app.lobby.hub import LobbyHub
from app.lobby.matchmaking import (
    FormedTable,
    MatchmakingError,
    QueueSettings,
)
from app.lobby.queue import LocalQueue, PlayQueue
from app.lobby.seating import live_table
from app.lobby.service import PUBLIC_MOVE_SECONDS, Lobby, SeatTaken
from app.ratings.model import Bot, BotLevel, Person, Rating, nearest_bot_level
from app.rooms.manager import Rooms
from app.rooms.match import table_deals

log = logging.getLogger(__name__)


class PlayNow:
    """The "Play now" service: ``queue`` is this process's (LocalQueue, the default) or the
    one shared by every process through Redis (app.lobby.queue.SharedQueue)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock,
                 rooms: Rooms, lobby: Lobby, hub: LobbyHub, *, fill_after: float = 30.0,
                 deals: int = 4, tick_interval: float | None = 1.0,
                 stale_after: float | None = 15.0,
                 now_fn: Callable[[], float] = time.monotonic,
                 queue: PlayQueue | None = None,
                 notify: Callable[[int, dict[str, Any]], Awaitable[Any]] | None = None) -> None:
        self._db, self._clock, self._rooms, self._lobby, self._hub = sessions, clock, rooms, lobby, hub
        self._deals = deals
        #: a ticket nobody asked about (``status``, polled by the lobby page) for this long is
        #: dropped, so a closed page does not leave its person seated at a table with bots
        self._stale_after = stale_after
        self._tick_interval = tick_interval
        #: computer players fill the free seats once the longest waiter waited this long
        self._fill_after = fill_after
        self.queue: PlayQueue = queue or LocalQueue(now_fn, QueueSettings(fill_after=fill_after))
        #: how a person is told that their table formed (default: this process's lobby feed)
        self._notify = notify or hub.notify
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    @property
    def matchmaker(self):
        """The Matchmaker of a LocalQueue (tests)."""
        return self.queue.matchmaker  # type: ignore[attr-defined]

    # --- people ----------------------------------------------------------------------------

    async def join(self, user_id: int, game: str, preset: str | None = None,
                   seats: int | None = None) -> dict[str, Any]:
        """Queue ``user_id`` for ``game``/``preset``/``seats`` with their rating in the game.

        Raises MatchmakingError (AlreadyQueued, unknown game, preset or size); SeatTaken (the
        lobby's refusal, 409 with the table to return to) while the person holds a seat at an
        open or running table (one live seat per person, app/lobby/seating.py).
        """
        try:
            rules = get_game(game)
        except UnknownGame:
            raise MatchmakingError(N_("no matchmaking for game '%(game)s'"), game=game) from None
        preset = preset or next(iter(rules.presets), "standard")
        if rules.presets and preset not in rules.presets:
            raise MatchmakingError(N_("%(game)s has no rules preset '%(preset)s'"), game=game,
                                   preset=preset)
        async with self._db() as db:
            seated = await live_table(db, user_id, statuses=("open", "playing"))
            stored = (await db.execute(select(PlayerRating).where(
                PlayerRating.user_id == user_id, PlayerRating.game == game))).scalar_one_or_none()
        if seated is not None and await self.queue.ticket(user_id) is None:
            raise SeatTaken(seated[0], running=seated[1] == "playing")
        rating = Rating(stored.mu, stored.sigma) if stored else Rating()
        async with self._lock:
            ticket = await self.queue.join(user_id, game, preset, rating, seats)
            await self.queue.set_formed(user_id, None)
        self._start()
        return {"queued": True, "game": game, "preset": preset, "seats": ticket.key.seats}

    async def leave(self, user_id: int) -> bool:
        """Leave the queue; whether the person was waiting."""
        return await self.queue.leave(user_id)

    async def busy(self, user_id: int) -> str | None:
        """Why ``user_id`` cannot take a lobby seat now (waiting in a queue), or None."""
        if await self.queue.ticket(user_id) is not None:
            return N_("you are waiting in Play now; leave the queue first")
        return None

    async def waiting_counts(self) -> dict[str, int]:
        """How many people wait in Play now per game (the lobby shows it, so a player sees
        that someone is there); games nobody waits for are left out."""
        counts: dict[str, int] = {}
        for ticket in await self.queue.waiting():
            counts[ticket.key.game] = counts.get(ticket.key.game, 0) + 1
        return counts

    async def status(self, user_id: int) -> dict[str, Any]:
        """``{"queued", "game"?, "waited"?, "fill_in"?, "table"}``: the table is set once one
        formed; ``fill_in``: at most how many seconds until computer players fill the free
        seats (app/lobby/matchmaking.py: ``fill_after`` after the longest waiter joined)."""
        ticket = await self.queue.ticket(user_id)
        if ticket is not None:
            await self.queue.seen(user_id)
        out: dict[str, Any] = {"queued": ticket is not None,
                               "table": await self.queue.formed_for(user_id)}
        if ticket is not None:
            out.update(game=ticket.key.game, preset=ticket.key.preset, seats=ticket.key.seats,
                       waited=round(self.queue.now() - ticket.joined_at, 1),
                       fill_in=max(0, math.ceil(self._fill_after - (self.queue.now() - ticket.joined_at))))
        return out

    # --- forming tables --------------------------------------------------------------------

    async def tick(self, now: float | None = None) -> list[int]:
        """Form every table that is due; returns the new table ids."""
        async with self._lock:
            at = self.queue.now() if now is None else now
            formed = await self.queue.tick(at, self._stale_after)
        ids = []
        for table in formed:
            try:
                ids.append(await self._open(table))
            except Exception:
                log.exception("play now: could not open a formed table %s", table)
            finally:
                for player in table.players:
                    await self.queue.release(player)  # the seats in the database hold them now
        if ids:
            await self._lobby._changed()
        return ids

    async def _open(self, formed: FormedTable) -> int:
        key = formed.key
        game = get_game(key.game)
        made = game.make_rules({"preset": key.preset} if game.presets else {})
        rules = game.rules_json(made)
        deals = table_deals(game, made, key.seats, self._deals)
        people = [s for s in formed.seats if isinstance(s, Person)]
        bots = [s for s in formed.seats if isinstance(s, Bot)]
        level = bots[0].level if bots else nearest_bot_level(
            sum(p.rating.mu for p in people) / len(people))
        async with self._db() as db:
            table = GameTable(game=key.game, preset=key.preset if game.presets else None,
                              rules=rules, players=key.seats, deals=deals,
                              opponents="any", skill=BotLevel(level).value,
                              secret=secrets.token_urlsafe(16), owner_id=people[0].player,
                              status="playing", seated=key.seats,
                              turn_seconds=PUBLIC_MOVE_SECONDS,
                              created_at=self._clock.now())
            db.add(table)
            await db.flush()
            for seat, holder in enumerate(formed.seats):
                if isinstance(holder, Person):
                    db.add(Seat(table_id=table.id, seat=seat, user_id=holder.player))
                else:
                    db.add(Seat(table_id=table.id, seat=seat, bot_level=holder.level.value))
            await db.commit()
            table_id = table.id
        self._rooms.actor(table_id).start()
        for person in people:
            await self.queue.set_formed(person.player, table_id)
            await self._notify(person.player, {"type": "play_now", "table": table_id})
        return table_id

    # --- the ticker ------------------------------------------------------------------------

    def _start(self) -> None:
        if self._tick_interval is None or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(self._run(), name="play-now")

    async def _run(self) -> None:
        assert self._tick_interval is not None
        while True:
            await asyncio.sleep(self._tick_interval)
            try:
                await self.tick()
            except Exception:
                log.exception("play now: tick failed")
            try:
                if not await self.queue.waiting():
                    return  # started again by the next join
            except Exception:
                log.exception("play now: cannot read the queue")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
