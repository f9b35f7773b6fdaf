"""The event log of matches in the database, as the table actor needs it.

Every write is one short transaction committed before the call returns, so an action the actor
reports to anyone is already durable. Reads rebuild a table after a restart.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, exists, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.db.models import (
    ActionRow,
    Departure,
    GameTable,
    Match,
    PracticeRow,
    Result,
    Round,
    Seat,
    TournamentSeat,
    User,
)
from app.games.base import RoundOutcome
from app.ratings.store import SeatHolder, rate_finished_match
from app.rooms.match import RoundRecord, outcome_json

log = logging.getLogger(__name__)

#: the departure reason of a person who left a running match for good (Leave — Verlassen):
#: a computer player plays the seat to the end (app/lobby/seating.py)
LEFT = "left"


@dataclass(frozen=True)
class SeatInfo:
    """A taken seat: a user's (user_id, name) or a computer player's (bot_level)."""

    seat: int
    user_id: int | None
    name: str
    bot_level: str | None


@dataclass(frozen=True)
class TableInfo:
    """A table as the actor needs it."""

    id: int
    game: str
    preset: str | None
    rules: dict[str, Any]
    players: int
    deals: int
    status: str
    skill: str
    seats: tuple[SeatInfo, ...]
    #: seconds a person has per move (the table's setting; None: no turn timer)
    turn_seconds: int | None = None
    #: duplicate deals: tables with one seed are dealt the same cards (match.duplicate_rng)
    deal_seed: str | None = None
    #: a rematch is offered when the match is over: not at a tournament's table (the
    #: tournament seats the next round) nor at a practice (app.rooms.intermission)
    rematch: bool = True


class TableNotFound(LookupError):
    """No table with that id."""


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class MatchStore:
    """Reads and writes tables, matches, rounds and the action log."""

    #: most actions written in one group commit
    MAX_BATCH = 256
    #: least time (s) between the starts of two group commits: under load the appends of a
    #: few milliseconds share one transaction (each costs the log's thread several round trips
    #: whatever its size); an append after a quiet spell is written at once
    BATCH_INTERVAL = 0.005

    #: called with a match's id once its result is committed (:meth:`finish_match`): the
    #: statistics count it (app.stats.service.Stats.match_finished); must not raise or wait
    on_finished: Callable[[int], None] | None = None

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self._db = sessions
        self._clock = clock
        self._engine = sessions.kw["bind"]
        self._insert_action = insert(ActionRow)
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._batch_started = -math.inf  # event loop time of the last group commit's start

    async def load_table(self, table_id: int) -> TableInfo:
        """The table with its seats. Raises TableNotFound."""
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is None:
                raise TableNotFound(table_id)
            elsewhere = await db.scalar(select(
                exists().where(TournamentSeat.table_id == table_id)
                | exists().where(PracticeRow.table_id == table_id)))
            rows = (await db.execute(
                select(Seat, User.name).outerjoin(User, User.id == Seat.user_id)
                .where(Seat.table_id == table_id).order_by(Seat.seat))).all()
        seats = tuple(
            SeatInfo(seat=s.seat, user_id=s.user_id,
                     name=name if name else f"Computer {s.seat + 1} ({s.bot_level})", bot_level=s.bot_level)
            for s, name in rows)
        return TableInfo(id=table.id, game=table.game, preset=table.preset, rules=table.rules,
                         players=table.players, deals=table.deals, status=table.status,
                         skill=table.skill, seats=seats, turn_seconds=table.turn_seconds,
                         deal_seed=table.deal_seed, rematch=not elsewhere)

    async def playing_tables(self) -> list[int]:
        """Ids of tables whose match has started and not finished (to rebuild at start)."""
        async with self._db() as db:
            rows = await db.execute(select(GameTable.id).where(GameTable.status == "playing"))
            return [r for (r,) in rows]

    async def start_match(self, table: TableInfo) -> int:
        """Create the table's match (or return the one already there); returns its id."""
        async with self._db() as db:
            existing = (await db.execute(
                select(Match.id).where(Match.table_id == table.id))).scalar_one_or_none()
            if existing is not None:
                return existing
            match = Match(table_id=table.id, game=table.game, rules=table.rules,
                          players=table.players, deals=table.deals,
                          started_at=self._clock.now())
            db.add(match)
            await db.commit()
            return match.id

    async def add_round(self, match_id: int, record: RoundRecord) -> int:
        """Store a new round's dealer and cards; returns the round id."""
        async with self._db() as db:
            row = Round(match_id=match_id, number=record.number, dealer=record.dealer,
                        deal=record.deal, deck=record.deck, outcome=None,
                        dealt_at=self._clock.now())
            db.add(row)
            await db.commit()
            return row.id

    async def append_action(self, round_id: int, idx: int, action: dict[str, Any]) -> None:
        """Append one accepted action to the log; returns once it is committed.

        Raises IntegrityError if position ``idx`` of the round is taken (a second writer).

        Group commit: the appends of all tables that arrive while a commit is running, or
        within ``BATCH_INTERVAL`` of the last one's start, are written together in the next
        transaction (one INSERT ... VALUES per row, one COMMIT, so one fsync for many tables).
        If that transaction fails, each of its rows is retried alone, so only the offending
        append sees the error.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(({"round_id": round_id, "idx": idx, "action": action,
                               "created_at": self._clock.now()}, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_pending(),
                                                                  name="event-log-writer")
        await future

    async def _write_pending(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            # (at most the interval: a store used again under another event loop, whose clock
            # may count from elsewhere, never waits longer)
            wait = min(self.BATCH_INTERVAL, self._batch_started + self.BATCH_INTERVAL - loop.time())
            if wait > 0:
                await asyncio.sleep(wait)
            self._batch_started = loop.time()
            batch, self._pending = self._pending[:self.MAX_BATCH], self._pending[self.MAX_BATCH:]
            try:
                async with self._engine.begin() as conn:
                    await conn.execute(self._insert_action, [row for row, _f in batch])
            except Exception:
                if len(batch) == 1:
                    _settle(batch[0][1], sys.exc_info()[1])
                    continue
                for row, future in batch:  # find the offending row(s): one by one
                    try:
                        async with self._engine.begin() as conn:
                            await conn.execute(self._insert_action, [row])
                    except Exception as err:
                        _settle(future, err)
                    else:
                        _settle(future, None)
                continue
            for _row, future in batch:
                _settle(future, None)

    async def finish_round(self, round_id: int, outcome: RoundOutcome) -> None:
        """Store a round's outcome."""
        async with self._db() as db:
            await db.execute(update(Round).where(Round.id == round_id)
                             .values(outcome=outcome_json(outcome)))
            await db.commit()

    async def finish_match(self, match_id: int, table: TableInfo, totals: list[int],
                           winners: list[int]) -> None:
        """Store the result of every seat, mark the match and table finished, and rate the
        match (app/ratings/store.py) — all in one transaction, so a match is rated once."""
        async with self._db() as db:
            now = self._clock.now()
            for info in table.seats:
                db.add(Result(match_id=match_id, seat=info.seat, user_id=info.user_id,
                              bot_level=info.bot_level, score=totals[info.seat],
                              winner=info.seat in winners))
            await db.execute(update(Match).where(Match.id == match_id)
                             .values(finished_at=now))
            await db.execute(update(GameTable).where(GameTable.id == table.id)
                             .values(status="finished"))
            await db.flush()  # a second finish fails here (unique results), before rating
            rated = await rate_finished_match(
                db, match_id, table.game,
                [SeatHolder(s.seat, s.user_id, s.bot_level) for s in table.seats], now)
            if not rated:  # leaving an unrated match early is not held against anyone
                await db.execute(delete(Departure).where(Departure.match_id == match_id))
            await db.commit()
        if self.on_finished is not None:
            try:
                self.on_finished(match_id)
            except Exception:  # the result is stored; the statistics catch up at the next start
                log.exception("telling the statistics of match %s failed", match_id)

    async def turn_started_at(self, round_id: int) -> Any:
        """When the current turn of round ``round_id`` began (wall clock, timezone-aware): the
        time its last logged action was stored, else when it was dealt; None if unknown (a
        round stored before migration 0003). A restarted table's turn timer runs from here."""
        async with self._db() as db:
            last = (await db.execute(select(func.max(ActionRow.created_at))
                                     .where(ActionRow.round_id == round_id))).scalar_one()
            if last is None:
                last = (await db.execute(select(Round.dealt_at)
                                         .where(Round.id == round_id))).scalar_one_or_none()
        if last is not None and last.tzinfo is None:  # SQLite gives naive UTC back
            last = last.replace(tzinfo=self._clock.now().tzinfo)
        return last

    async def record_departure(self, match_id: int, seat: int, user_id: int,
                               reason: str) -> None:
        """A computer player took over ``seat`` (reason "timeout", "away" or LEFT): the person has
        left the match until :meth:`record_return`. One row per (match, seat), reused."""
        async with self._db() as db:
            row = (await db.execute(select(Departure).where(
                Departure.match_id == match_id, Departure.seat == seat))).scalar_one_or_none()
            if row is None:
                db.add(Departure(match_id=match_id, seat=seat, user_id=user_id, reason=reason,
                                 left_at=self._clock.now(), returned_at=None))
            else:
                row.user_id, row.reason = user_id, reason
                row.left_at, row.returned_at = self._clock.now(), None
            await db.commit()

    async def open_departures(self, match_id: int) -> dict[int, str]:
        """The seats of ``match_id`` a computer player still moves for: seat → reason."""
        async with self._db() as db:
            rows = await db.execute(select(Departure.seat, Departure.reason).where(
                Departure.match_id == match_id, Departure.returned_at.is_(None)))
            return {seat: reason for seat, reason in rows}

    async def record_return(self, match_id: int, seat: int) -> None:
        """The person of ``seat`` is back: their departure no longer counts."""
        async with self._db() as db:
            await db.execute(update(Departure).where(
                Departure.match_id == match_id, Departure.seat == seat,
                Departure.returned_at.is_(None)).values(returned_at=self._clock.now()))
            await db.commit()

    async def load_match(self, table_id: int) -> tuple[int, list[RoundRecord]] | None:
        """The table's match id and its rounds with their actions, or None before the start."""
        async with self._db() as db:
            match_id = (await db.execute(
                select(Match.id).where(Match.table_id == table_id))).scalar_one_or_none()
            if match_id is None:
                return None
            rounds = (await db.execute(select(Round).where(Round.match_id == match_id)
                                       .order_by(Round.number))).scalars().all()
            records = []
            for r in rounds:
                actions = (await db.execute(select(ActionRow.action)
                                            .where(ActionRow.round_id == r.id)
                                            .order_by(ActionRow.idx))).scalars().all()
                records.append(RoundRecord(number=r.number, dealer=r.dealer, deal=r.deal,
                                           deck=r.deck, actions=list(actions), id=r.id))
            return match_id, records


class UnloggedMatchStore(MatchStore):
    """A MatchStore that does not write actions (EVENT_LOG=off): only for measuring what the
    durable log costs (benchmarks/load.py). Nothing played can be rebuilt after a restart."""

    async def append_action(self, round_id: int, idx: int, action: dict[str, Any]) -> None:
        return None
