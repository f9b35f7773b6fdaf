"""One live seat per person: a person plays at one running table at a time.

A *live seat* is a seat held by a person at a table in play (``status = "playing"``) that the
person has not left: leaving a running match (app/lobby/service.py ``Lobby.leave``) hands the
seat to a computer player and stores a departure with reason ``"left"`` (models.Departure,
``returned_at`` empty), after which the seat no longer counts. New Game, Join and Play now ask
:func:`live_table` before they give a person another seat, and refuse with the table to return
to (``SeatTaken`` in app/lobby/service.py).
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Departure, GameTable, Match, Seat
from app.rooms.store import LEFT

__all__ = ["LEFT", "live_table", "seat_left"]


def seat_left() -> ColumnElement[bool]:
    """SQL: the person of the ``Seat`` row in the query has left that table's match (a
    departure ``"left"`` with no return). Correlates with ``Seat``."""
    return (select(Departure.id).join(Match, Match.id == Departure.match_id)
            .where(Match.table_id == Seat.table_id, Departure.seat == Seat.seat,
                   Departure.reason == LEFT, Departure.returned_at.is_(None))
            .exists())


async def live_table(db: AsyncSession, user_id: int, *,
                     statuses: tuple[str, ...] = ("playing",)) -> tuple[int, str] | None:
    """The table (id, status) where ``user_id`` holds a seat they have not left, among tables
    in ``statuses`` (default: in play), the newest first; None when there is none."""
    row = (await db.execute(
        select(Seat.table_id, GameTable.status).join(GameTable, GameTable.id == Seat.table_id)
        .where(and_(Seat.user_id == user_id, GameTable.status.in_(statuses), ~seat_left()))
        .order_by(GameTable.status.desc(), Seat.table_id.desc()).limit(1))).first()
    return None if row is None else (row[0], row[1])
