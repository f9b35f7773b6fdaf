"""Tournament reads that several parts share: the tables' results as scoring needs them
(:func:`load_tables`: a fixed number of queries, whatever the number of tables), the people
registered, and who met whom.

The results are the ordinary tables' own: their seats, their stored deals (``rounds`` with
outcomes, written by the room before anyone is told) and their match results. Nothing a
tournament counts is kept twice, so a standing can never disagree with the tables' records.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import (
    GameTable,
    Match,
    Result,
    Round,
    Seat,
    TournamentPlayer,
    TournamentRound,
    TournamentSeat,
    User,
)
from app.tournaments.scoring import DealResult, SeatHolder, TableResult


def computer_name(seat: int, level: str | None) -> str:
    """A computer player's name as the tables show it (app/rooms/store.py)."""
    return f"Computer {seat + 1} ({level})"


async def load_tables(db: AsyncSession, tournament_id: int) -> list[TableResult]:
    """Every table of the tournament with its seats, deals so far and result, in the order
    they were seated."""
    mine = select(TournamentSeat.table_id).where(
        TournamentSeat.tournament_id == tournament_id).distinct()
    placed = (await db.execute(
        select(TournamentSeat.table_id, TournamentSeat.number, TournamentRound.number,
               TournamentSeat.seat, TournamentSeat.absent)
        .outerjoin(TournamentRound, TournamentRound.id == TournamentSeat.round_id)
        .where(TournamentSeat.tournament_id == tournament_id))).all()
    where: dict[int, tuple[int, int | None]] = {}
    absent: set[tuple[int, int]] = set()
    for table_id, number, round_number, seat, was_absent in placed:
        where[table_id] = (number, round_number)
        if was_absent:
            absent.add((table_id, seat))
    seats: dict[int, list[SeatHolder]] = defaultdict(list)
    for seat, name in (await db.execute(
            select(Seat, User.name).outerjoin(User, User.id == Seat.user_id)
            .where(Seat.table_id.in_(mine)).order_by(Seat.table_id, Seat.seat))).all():
        seats[seat.table_id].append(SeatHolder(
            seat=seat.seat, user_id=seat.user_id,
            name=name or computer_name(seat.seat, seat.bot_level), bot_level=seat.bot_level,
            absent=(seat.table_id, seat.seat) in absent))
    status = dict((await db.execute(select(GameTable.id, GameTable.status)
                                    .where(GameTable.id.in_(mine)))).all())
    match_of = dict((await db.execute(select(Match.id, Match.table_id)
                                      .where(Match.table_id.in_(mine)))).all())
    matches = select(Match.id).where(Match.table_id.in_(mine))
    deals: dict[int, list[DealResult]] = defaultdict(list)
    for match_id, outcome in (await db.execute(
            select(Round.match_id, Round.outcome).where(Round.match_id.in_(matches))
            .order_by(Round.match_id, Round.number))).all():
        if outcome is not None:
            deals[match_of[match_id]].append(DealResult(
                scores=tuple(outcome["scores"]), redeal=bool(outcome.get("redeal")),
                details=outcome.get("details") or {}))
    winners: dict[int, list[int]] = defaultdict(list)
    for match_id, seat in (await db.execute(
            select(Result.match_id, Result.seat).where(Result.match_id.in_(matches),
                                                       Result.winner.is_(True)))).all():
        winners[match_of[match_id]].append(seat)
    return [TableResult(table_id=table_id, number=where[table_id][0], round=where[table_id][1],
                        seats=tuple(seats[table_id]), deals=tuple(deals[table_id]),
                        finished=status.get(table_id) == "finished",
                        winners=tuple(winners[table_id]))
            for table_id in sorted(where)]


async def people(db: AsyncSession, tournament_id: int) -> list[tuple[int, str, str]]:
    """(user id, name, status) of everyone registered, in the order they registered."""
    rows = await db.execute(
        select(TournamentPlayer.user_id, User.name, TournamentPlayer.status)
        .join(User, User.id == TournamentPlayer.user_id)
        .where(TournamentPlayer.tournament_id == tournament_id)
        .order_by(TournamentPlayer.id))
    return [(uid, name, status) for uid, name, status in rows]


async def met(db: AsyncSession, tournament_id: int, *, last_only: bool = False
              ) -> dict[int, set[int]]:
    """Whom each person shared a table with in the tournament (``last_only``: at their last
    table only — the arena's rule)."""
    rows = (await db.execute(select(TournamentSeat.table_id, TournamentSeat.user_id)
                             .where(TournamentSeat.tournament_id == tournament_id)
                             .order_by(TournamentSeat.table_id))).all()
    by_table: dict[int, list[int]] = defaultdict(list)
    for table_id, user_id in rows:
        by_table[table_id].append(user_id)
    out: dict[int, set[int]] = defaultdict(set)
    for table_id in sorted(by_table):
        group = by_table[table_id]
        for person in group:
            mates = set(group) - {person}
            out[person] = mates if last_only else out[person] | mates
    return dict(out)
