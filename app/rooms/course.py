"""The course of a table's match around its actions: the start, each deal, the pause between
deals, the match's end and the rematch.

The match starts once the table is full and marked playing. Each deal is stored before anyone
sees it. When a deal ends and the match goes on, the room pauses before the next one (the pause
and the rematch vote: app/rooms/intermission.py); when the match is over, its result is stored
before anyone is told, the lobby hears of it (``on_change``), and once every person present
accepted a rematch the lobby opens its table (``on_rematch``). After a restart the course goes
on where the event log ends: deal, finish the match, or let the turn in play go on.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from app.clock import Clock
from app.games.registry import get_game
from app.rooms.config import ActorConfig
from app.rooms.connection import Peer
from app.rooms.intermission import Intermission
from app.rooms.match import MatchProgress, RoundRecord, duplicate_rng
from app.rooms.parts import Actor
from app.rooms.store import MatchStore

log = logging.getLogger(__name__)

#: room commands between deals and after the match (app.rooms.intermission; not logged)
INTERMISSION_ACTIONS = ("next_deal", "rematch")


class MatchCourse:
    """Deals, pauses, the end and the rematch of table ``actor``'s match (whose task runs
    everything here). ``between``: the pause and the rematch vote."""

    def __init__(self, actor: Actor, store: MatchStore, clock: Clock, config: ActorConfig,
                 rng: random.Random, on_change: Callable[[int], Awaitable[None]] | None,
                 on_rematch: Callable[[int, list[int]], Awaitable[int]] | None) -> None:
        self._actor, self._store, self._clock, self._config = actor, store, clock, config
        self._rng = rng
        self._on_change = on_change
        #: awaited with (table id, seats of the people who accepted): opens the rematch's
        #: table and returns its id (app.lobby.service.Lobby.rematch)
        self._on_rematch = on_rematch
        self.between = Intermission()

    async def on_start(self) -> None:
        """The command ``start``: the table is full and marked playing; start the match."""
        actor = self._actor
        actor.table = table = await self._store.load_table(actor.table_id)
        if actor.progress is not None or table.status != "playing":
            return
        game = get_game(table.game)
        actor.match_id = await self._store.start_match(table)
        actor.progress = MatchProgress(game, game.make_rules(table.rules), table.players,
                                       table.deals)
        await self._deal_next()
        await self._changed()

    async def resume(self) -> None:
        """After a restart (or a start): deal, finish, or go on where the log ends."""
        actor = self._actor
        if actor.progress is None:
            await self.on_start()
        elif not actor.progress.rounds:
            await self._deal_next()
        elif actor.progress.round_over():
            await self.after_round()
        else:
            actor.window.resume()
            actor.clocks.schedule()

    async def on_deal(self, pause: int | None = None) -> None:
        """The command ``deal``: deal the next round (``pause``: the pause this wake-up ends; a
        stale one is ignored)."""
        progress = self._actor.progress
        if pause is not None and pause != self.between.number:
            return
        if progress is not None and progress.round_over() and not progress.match_over():
            await self._deal_next()

    async def _deal_next(self) -> None:
        actor = self._actor
        assert actor.progress is not None and actor.match_id is not None
        progress = actor.progress
        dealer = progress.next_dealer()
        seed = actor.table.deal_seed if actor.table is not None else None
        rng = self._rng if seed is None else duplicate_rng(seed, progress.next_deal_key())
        deal, deck = progress.game.deal(progress.rules, progress.players, rng)
        record = RoundRecord(number=len(progress.rounds), dealer=dealer, deal=deal, deck=deck)
        record.id = await self._store.add_round(actor.match_id, record)
        progress.begin_round(record)
        self.between.end()
        actor.clocks.turn += 1
        actor.window.reset()
        actor.clocks.schedule()
        actor.audiences.broadcast(None, [{"type": "deal", "number": record.number,
                                          "dealer": dealer}])

    async def store_result(self) -> None:
        """Store the match result once it is over (before anyone is told)."""
        actor = self._actor
        assert actor.progress is not None and actor.table is not None
        if actor.progress.match_over() and actor.table.status != "finished":
            assert actor.match_id is not None  # a progress is a stored match's
            await self._store.finish_match(actor.match_id, actor.table,
                                           actor.progress.score_sheet()["totals"],
                                           actor.progress.winners())
            actor.table = await self._store.load_table(actor.table_id)

    async def after_round(self) -> None:
        """After the end of a deal has been told: the match's end, or the pause before the
        next deal (or the deal, without a pause)."""
        actor = self._actor
        assert actor.progress is not None and actor.table is not None
        if actor.progress.match_over():
            await self.store_result()  # after a restart between the last action and here
            actor.audiences.broadcast(None, [{"type": "match_over"}])
            await self._changed()
            actor.unloading.schedule()
        else:
            if not self.between.running():  # e.g. after a restart between two deals
                self.begin_pause()
            if not self.between.running():
                await self._deal_next()
            else:
                until = self.between.until
                assert until is not None  # running
                left = until - self._clock.monotonic()
                actor.later(max(0.0, left), ("deal", self.between.number))

    async def _changed(self) -> None:
        if self._on_change is not None:
            await self._on_change(self._actor.table_id)

    # --- between deals and after the match (app.rooms.intermission) ----------------------------

    def _present_people(self) -> list[int]:
        """Seats of people connected to the table (computer seats and absent people do not
        hold the pause between deals or a rematch up)."""
        actor = self._actor
        assert actor.table is not None
        return [s.seat for s in actor.table.seats
                if s.bot_level is None and actor.audiences.seat_connected(s.seat)]

    def begin_pause(self) -> None:
        """A deal ended: start the pause before the next one (unless the match is over)."""
        progress = self._actor.progress
        if progress is None or progress.match_over():
            return
        self.between.begin(self._clock.monotonic(), self._config.round_pause)

    async def on_intermission(self, seat: int, action: dict[str, Any],
                              conn: Peer | None) -> None:
        """``next_deal`` (shortens the pause between deals) or ``rematch`` (after the match)."""
        actor = self._actor
        progress = actor.progress
        if action["type"] == "next_deal":
            if self.between.say_ready(seat, self._present_people()):
                actor.later(0, ("deal", self.between.number))
            if self.between.running():
                actor.audiences.broadcast(None, [{"type": "next_deal", "seat": seat}])
            return
        if progress is None or not progress.match_over():
            actor.audiences.error(conn, "illegal", "a rematch is offered once the match is over")
            return
        accept = action.get("accept", True)
        if not self._offers_rematch():  # "Back to lobby" declines quietly
            if accept:
                actor.audiences.error(conn, "illegal", "this table offers no rematch")
            return
        self.between.vote(seat, accept)
        actor.audiences.broadcast(None, [{"type": "rematch", "seat": seat, "accept": accept}])
        await self.presence_changed()

    def _offers_rematch(self) -> bool:
        """Whether this table offers a rematch (not a tournament's or a practice's table)."""
        table = self._actor.table
        return self._on_rematch is not None and table is not None and table.rematch

    async def presence_changed(self) -> None:
        """Someone voted or left: end the pause or open the rematch when everyone present agrees."""
        actor = self._actor
        present = self._present_people()
        if self.between.everyone_ready(present):
            actor.later(0, ("deal", self.between.number))
        seats = self.between.rematch_seats(present)
        on_rematch = self._on_rematch
        if seats is None or on_rematch is None or not self._offers_rematch():
            return
        self.between.rematch_started = True
        try:
            self.between.rematch_table = await on_rematch(actor.table_id, seats)
        except Exception:
            log.exception("table %s: the rematch could not be opened", actor.table_id)
            self.between.rematch_started = False
            return
        actor.audiences.broadcast(None, [{"type": "rematch_table",
                                          "table": self.between.rematch_table}])
