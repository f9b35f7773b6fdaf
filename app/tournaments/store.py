"""Tournament reads that several parts share: the tables' results as scoring needs them
(:func:`load_tables`: a fixed number of queries, whatever the number of tables), the people
registered, and who met whom.

The results are the ordinary tables' own: their seats, their stored deals (``rounds`` with
outcomes, written by the room before anyone is told) and their match results. Nothing a
tournament counts is kept twice, so a standing can never disagree with the tables' records.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict, defaultdict
from typing import Any

from sqlalchemy import func, select
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

#: finished tables' results never change: kept per database (the newest FINISHED_KEPT), so
#: the standings of a big tournament load only the tables still in play
#: (benchmarks/tournament.py)
FINISHED_KEPT = 20_000
_finished: weakref.WeakKeyDictionary[Any, OrderedDict[int, TableResult]] = \
    weakref.WeakKeyDictionary()


def _kept(db: AsyncSession) -> OrderedDict[int, TableResult]:
    return _finished.setdefault(db.get_bind(), OrderedDict())


def _keep(kept: OrderedDict[int, TableResult], table: TableResult) -> None:
    kept[table.table_id] = table
    kept.move_to_end(table.table_id)
    while len(kept) > FINISHED_KEPT:
        kept.popitem(last=False)


def computer_name(seat: int, level: str | None) -> str:
    """A computer player's name as the tables show it (app/rooms/store.py)."""
    return f"Computer {seat + 1} ({level})"


async def load_tables(db: AsyncSession, tournament_id: int) -> list[TableResult]:
    """Every table of the tournament with its seats, deals so far and result, in the order
    they were seated. A finished table's result comes from memory once loaded (it never
    changes); the others from the database in a fixed number of queries."""
    placed = (await db.execute(
        select(TournamentSeat.table_id, TournamentSeat.number, TournamentRound.number,
               TournamentSeat.seat, TournamentSeat.absent, GameTable.status)
        .join(GameTable, GameTable.id == TournamentSeat.table_id)
        .outerjoin(TournamentRound, TournamentRound.id == TournamentSeat.round_id)
        .where(TournamentSeat.tournament_id == tournament_id))).all()
    where: dict[int, tuple[int, int | None]] = {}
    absent: set[tuple[int, int]] = set()
    status: dict[int, str] = {}
    for table_id, number, round_number, seat, was_absent, table_status in placed:
        where[table_id] = (number, round_number)
        status[table_id] = table_status
        if was_absent:
            absent.add((table_id, seat))
    cache = _kept(db)
    kept = {t: cache[t] for t in where if status[t] == "finished" and t in cache}
    wanted = [t for t in where if t not in kept]
    loaded = await _load(db, wanted, where, status, absent) if wanted else {}
    for table in loaded.values():
        if table.finished:
            _keep(cache, table)
    return [kept.get(t) or loaded[t] for t in sorted(where)]


async def _load(db: AsyncSession, ids: list[int], where: dict[int, tuple[int, int | None]],
                status: dict[int, str], absent: set[tuple[int, int]]) -> dict[int, TableResult]:
    seats: dict[int, list[SeatHolder]] = defaultdict(list)
    for seat, name in (await db.execute(
            select(Seat, User.name).outerjoin(User, User.id == Seat.user_id)
            .where(Seat.table_id.in_(ids)).order_by(Seat.table_id, Seat.seat))).all():
        seats[seat.table_id].append(SeatHolder(
            seat=seat.seat, user_id=seat.user_id,
            name=name or computer_name(seat.seat, seat.bot_level), bot_level=seat.bot_level,
            absent=(seat.table_id, seat.seat) in absent))
    match_of = dict((await db.execute(select(Match.id, Match.table_id)
                                      .where(Match.table_id.in_(ids)))).all())
    deals: dict[int, list[DealResult]] = defaultdict(list)
    winners: dict[int, list[int]] = defaultdict(list)
    if match_of:
        for match_id, outcome in (await db.execute(
                select(Round.match_id, Round.outcome).where(Round.match_id.in_(list(match_of)))
                .order_by(Round.match_id, Round.number))).all():
            if outcome is not None:
                deals[match_of[match_id]].append(DealResult(
                    scores=tuple(outcome["scores"]), redeal=bool(outcome.get("redeal")),
                    details=outcome.get("details") or {}))
        for match_id, seat in (await db.execute(
                select(Result.match_id, Result.seat).where(Result.match_id.in_(list(match_of)),
                                                           Result.winner.is_(True)))).all():
            winners[match_of[match_id]].append(seat)
    return {table_id: TableResult(
        table_id=table_id, number=where[table_id][0], round=where[table_id][1],
        seats=tuple(seats[table_id]), deals=tuple(deals[table_id]),
        finished=status.get(table_id) == "finished", winners=tuple(winners[table_id]))
        for table_id in ids}


async def progress(db: AsyncSession, tournament_id: int) -> tuple[int, int]:
    """(deals finished, tables finished) of the tournament's tables: what its watchers saw
    change, in two counting queries."""
    tables = select(TournamentSeat.table_id).where(
        TournamentSeat.tournament_id == tournament_id).distinct()
    deals = (await db.execute(
        select(func.count()).select_from(Round).join(Match, Match.id == Round.match_id)
        .where(Match.table_id.in_(tables), Round.outcome.is_not(None)))).scalar_one()
    finished = (await db.execute(select(func.count()).select_from(GameTable).where(
        GameTable.id.in_(tables), GameTable.status == "finished"))).scalar_one()
    return deals, finished


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
