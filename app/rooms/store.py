"""The event log of matches in the database, as the table actor needs it.

Every write is one short transaction committed before the call returns, so an action the actor
reports to anyone is already durable. Reads rebuild a table after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.db.models import ActionRow, GameTable, Match, Result, Round, Seat, User
from app.games.base import RoundOutcome
from app.rooms.match import RoundRecord, outcome_json


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


class TableNotFound(LookupError):
    """No table with that id."""


class MatchStore:
    """Reads and writes tables, matches, rounds and the action log."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self._db = sessions
        self._clock = clock

    async def load_table(self, table_id: int) -> TableInfo:
        """The table with its seats. Raises TableNotFound."""
        async with self._db() as db:
            table = await db.get(GameTable, table_id)
            if table is None:
                raise TableNotFound(table_id)
            rows = (await db.execute(
                select(Seat, User.name).outerjoin(User, User.id == Seat.user_id)
                .where(Seat.table_id == table_id).order_by(Seat.seat))).all()
        seats = tuple(
            SeatInfo(seat=s.seat, user_id=s.user_id,
                     name=name if name else f"Computer {s.seat + 1} ({s.bot_level})", bot_level=s.bot_level)
            for s, name in rows)
        return TableInfo(id=table.id, game=table.game, preset=table.preset, rules=table.rules,
                         players=table.players, deals=table.deals, status=table.status,
                         skill=table.skill, seats=seats)

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
                        deal=record.deal, deck=record.deck, outcome=None)
            db.add(row)
            await db.commit()
            return row.id

    async def append_action(self, round_id: int, idx: int, action: dict[str, Any]) -> None:
        """Append one accepted action to the log (one INSERT, committed).

        Raises IntegrityError if position ``idx`` of the round is taken (a second writer).
        """
        async with self._db() as db:
            db.add(ActionRow(round_id=round_id, idx=idx, action=action,
                             created_at=self._clock.now()))
            await db.commit()

    async def finish_round(self, round_id: int, outcome: RoundOutcome) -> None:
        """Store a round's outcome."""
        async with self._db() as db:
            await db.execute(update(Round).where(Round.id == round_id)
                             .values(outcome=outcome_json(outcome)))
            await db.commit()

    async def finish_match(self, match_id: int, table: TableInfo, totals: list[int],
                           winners: list[int]) -> None:
        """Store the result of every seat and mark the match and table finished."""
        async with self._db() as db:
            for info in table.seats:
                db.add(Result(match_id=match_id, seat=info.seat, user_id=info.user_id,
                              bot_level=info.bot_level, score=totals[info.seat],
                              winner=info.seat in winners))
            await db.execute(update(Match).where(Match.id == match_id)
                             .values(finished_at=self._clock.now()))
            await db.execute(update(GameTable).where(GameTable.id == table.id)
                             .values(status="finished"))
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
