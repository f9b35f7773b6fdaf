"""The tournament director: starts tournaments on time, seats every round and the arena's
tables, and finishes them — in exactly one process of the site at a time.

Exactly once: the director acts only while it holds the lease ``tournament-director`` (the
same lease mechanism as the tables, app/cluster/leases.py: Redis ``SET NX PX`` with several
processes, in-process otherwise), renewed by a LeaseRenewer; a process that loses it stops
directing. The lease is timing, not proof, so every step is also fenced in the database:

- a round is seated in one transaction that inserts its ``tournament_rounds`` row (unique per
  tournament and number) and moves ``tournaments.current_round`` on from the number before
  (a conditional UPDATE): a second director's attempt changes nothing;
- a person is seated once per round (``tournament_seats`` unique per round and person), and an
  arena table takes only people who are free (``free_since`` set, cleared in the same UPDATE);
- a start, a finish or a cancellation is a conditional UPDATE of the tournament's status.

All state is in the database; the director keeps none that matters between ticks. After a
SIGKILL or a restart the next holder of the lease carries on where the rows say: a round
whose tables all finished is closed, the next one seated after the pause, and the tables in
play were restarted by the rooms themselves (RoomManager.rebuild, or the cluster's sweep).
No result is kept by the director: standings are computed from the tables' own stored deals
and results (app/tournaments/store.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.cluster.leases import LeaseManager, LeaseRenewer
from app.db.models import (
    GameTable,
    Seat,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentSeat,
)
from app.games.registry import get_game
from app.rooms.match import table_deals
from app.tournaments import pairing, scoring, store
from app.tournaments.service import aware, ends_at, lower_wins

log = logging.getLogger(__name__)
#: the lease that makes one process the director
LEASE = "tournament-director"
#: consecutive rounds absent at the start after which a person is withdrawn (paused)
ABSENT_WITHDRAW = 2


@dataclass
class Hooks:
    """What the director calls outside the database: start a table's room (``start``),
    send a person a live notice (``notify``), tell the tournament's watchers (``changed``)
    and the lobby (``tables_changed``), and who is online (``online``)."""

    start: Callable[[int], None]
    notify: Callable[[int, dict[str, Any]], Awaitable[Any]]
    changed: Callable[[int], Awaitable[Any]]
    online: Callable[[], Awaitable[set[int]]]
    tables_changed: Callable[[], Awaitable[Any]] | None = None


class Director:
    """Ticks every ``tick`` seconds (sooner when :meth:`poke`d: a table started or finished)
    while this process holds the director's lease."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock, hooks: Hooks,
                 leases: LeaseManager, owner: str, *, tick: float = 1.0,
                 lease_ttl: float = 10.0, recurring: Any = None) -> None:
        self._db, self._clock, self._hooks = sessions, clock, hooks
        self._leases, self._owner, self._ttl = leases, owner, lease_ttl
        self._tick = tick
        self._recurring = recurring
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._renewer: LeaseRenewer | None = None
        #: per running tournament: what the watchers last saw (deals finished, tables finished)
        self._seen: dict[int, tuple[int, int]] = {}
        #: seconds of CPU each seating took (benchmarks/tournament.py)
        self.seat_cpu: list[float] = []
        #: perf_counter time at which each round's tables were all started, and each table
        #: (benchmarks/tournament.py)
        self.seated_at: dict[tuple[int, int], float] = {}
        self.seated_tables: dict[int, float] = {}

    @property
    def holding(self) -> bool:
        return self._renewer is not None and self._renewer.holds(LEASE)

    # --- the loop ----------------------------------------------------------------------------

    def start(self) -> None:
        """Run the director's loop in the background (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="director")

    def poke(self, _table_id: int | None = None) -> None:
        """Something happened (a table started or finished): tick soon. Never waits."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                if await self._hold():
                    await self.tick()
            except Exception:
                log.exception("the tournament director's tick failed; it tries again")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._tick)
            self._wake.clear()

    async def _hold(self) -> bool:
        if self.holding:
            return True
        if self._renewer is not None:
            await self._renewer.stop(release=False)
            self._renewer = None
        if not await self._leases.acquire(LEASE, self._owner, self._ttl):
            return False
        self._renewer = LeaseRenewer(self._leases, self._owner, self._ttl,
                                     lambda _key: log.warning("lost the director's lease"))
        self._renewer.add(LEASE)
        log.info("this process directs the tournaments")
        return True

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._renewer is not None:
            await self._renewer.stop()

    # --- one tick ----------------------------------------------------------------------------

    async def tick(self) -> None:
        """Do everything that is due now: create the recurring tournaments, start those whose
        time has come, close finished rounds and seat the next, pair the arenas, finish."""
        if self._recurring is not None:
            await self._recurring.ensure()
        now = self._clock.now()
        async with self._db() as db:
            due = (await db.execute(select(Tournament.id).where(
                Tournament.status == "scheduled", Tournament.starts_at <= now))).scalars().all()
            running = (await db.execute(select(Tournament.id).where(
                Tournament.status == "running"))).scalars().all()
        for tournament_id in due:
            await self._start(tournament_id)
        for tournament_id in running:
            await self._advance(tournament_id)

    async def _start(self, tournament_id: int) -> None:
        now = self._clock.now()
        async with self._db() as db:
            tour = await db.get(Tournament, tournament_id)
            if tour is None or tour.status != "scheduled":
                return
            active = (await db.execute(select(func.count()).select_from(TournamentPlayer).where(
                TournamentPlayer.tournament_id == tour.id,
                TournamentPlayer.status == "active"))).scalar_one()
            too_few = active < tour.min_players
            moved = await db.execute(update(Tournament).where(
                Tournament.id == tour.id, Tournament.status == "scheduled").values(
                status="cancelled" if too_few else "running",
                started_at=now, finished_at=now if too_few else None,
                note="too_few_players" if too_few else None))
            if moved.rowcount != 1:
                return
            if not too_few and tour.format == "arena":
                await db.execute(update(TournamentPlayer).where(
                    TournamentPlayer.tournament_id == tour.id).values(free_since=now))
            await db.commit()
            players = (await db.execute(select(TournamentPlayer.user_id).where(
                TournamentPlayer.tournament_id == tournament_id))).scalars().all()
        if too_few:
            for user_id in players:
                await self._hooks.notify(user_id, {"type": "tournament_cancelled",
                                                   "tournament": tournament_id})
        await self._hooks.changed(tournament_id)
        if not too_few:
            await self._advance(tournament_id)

    async def _advance(self, tournament_id: int) -> None:
        async with self._db() as db:
            tour = await db.get(Tournament, tournament_id)
        if tour is None or tour.status != "running":
            return
        if tour.format == "arena":
            await self._arena(tour)
        else:
            await self._series(tour)
        await self._watch(tournament_id)

    async def _watch(self, tournament_id: int) -> None:
        """Tell the watchers when a deal or a table finished since they were last told."""
        async with self._db() as db:
            seen = await store.progress(db, tournament_id)
        if self._seen.get(tournament_id) != seen:
            self._seen[tournament_id] = seen
            await self._hooks.changed(tournament_id)

    # --- series ------------------------------------------------------------------------------

    async def _series(self, tour: Tournament) -> None:
        now = self._clock.now()
        if tour.current_round == 0:
            await self._seat_round(tour, 1)
            return
        async with self._db() as db:
            current = (await db.execute(select(TournamentRound).where(
                TournamentRound.tournament_id == tour.id,
                TournamentRound.number == tour.current_round))).scalar_one()
            if current.status == "playing":
                if not await self._round_over(db, current.id):
                    return
                await db.execute(update(TournamentRound).where(
                    TournamentRound.id == current.id, TournamentRound.status == "playing")
                    .values(status="done", finished_at=now))
                await db.commit()
                await self._hooks.changed(tour.id)
                finished_at = now
            else:
                finished_at = aware(current.finished_at) or now
        if tour.current_round >= tour.rounds:
            await self._finish(tour)
        elif now >= finished_at + timedelta(seconds=tour.pause):
            await self._seat_round(tour, tour.current_round + 1)

    @staticmethod
    async def _round_over(db: AsyncSession, round_id: int) -> bool:
        playing = (await db.execute(
            select(func.count()).select_from(GameTable)
            .where(GameTable.id.in_(select(TournamentSeat.table_id).where(
                TournamentSeat.round_id == round_id)), GameTable.status != "finished"))
        ).scalar_one()
        return playing == 0

    async def _seat_round(self, tour: Tournament, number: int) -> None:
        """Draw and seat round ``number`` (one transaction; see the module's fencing)."""
        started = time.process_time()
        online = await self._hooks.online()
        async with self._db() as db:
            active = (await db.execute(select(TournamentPlayer.user_id).where(
                TournamentPlayer.tournament_id == tour.id, TournamentPlayer.status == "active")
                .order_by(TournamentPlayer.id))).scalars().all()
            if not active:
                finish = True
            else:
                finish = False
        if finish:
            await self._finish(tour)
            return
        async with self._db() as db:
            rng = random.Random(f"{tour.seed}:{number}")
            if number == 1:
                tables = pairing.first_round(active, tour.table_size, rng)
            else:
                ranked = await self._ranked(db, tour, set(active))
                tables = pairing.by_standing(ranked, tour.table_size,
                                             await store.met(db, tour.id), rng)
            seed = f"{tour.seed}:{number}" if tour.format == "duplicate" else None
            row = TournamentRound(tournament_id=tour.id, number=number, status="playing",
                                  deal_seed=seed, started_at=self._clock.now())
            db.add(row)
            try:
                await db.flush()
            except IntegrityError:
                await db.rollback()
                return  # seated already (another director)
            moved = await db.execute(update(Tournament).where(
                Tournament.id == tour.id, Tournament.status == "running",
                Tournament.current_round == number - 1).values(current_round=number))
            if moved.rowcount != 1:
                await db.rollback()
                return
            ids = [await self._table(db, tour, seats, n + 1, row.id, seed, online)
                   for n, seats in enumerate(tables)]
            await self._absences(db, tour, active, online)
            await db.commit()
        self.seat_cpu.append(time.process_time() - started)
        await self._opened(tour, number, tables, ids)

    async def _ranked(self, db: AsyncSession, tour: Tournament, active: set[int]) -> list[int]:
        tables = await store.load_tables(db, tour.id)
        rows = scoring.standings(tour.format, tour.scoring, lower_wins(tour.game), tables,
                                 await store.people(db, tour.id))
        return [r.user_id for r in rows if r.user_id in active]

    async def _absences(self, db: AsyncSession, tour: Tournament, seated: list[int],
                        online: set[int]) -> None:
        """Count each seated person's rounds absent at the start in a row; withdraw (pause)
        those absent ABSENT_WITHDRAW rounds in a row: they are not seated again until they
        come back (the page's Rejoin)."""
        away = [u for u in seated if u not in online]
        here = [u for u in seated if u in online]
        if here:
            await db.execute(update(TournamentPlayer).where(
                TournamentPlayer.tournament_id == tour.id, TournamentPlayer.user_id.in_(here))
                .values(absences=0))
        if away:
            await db.execute(update(TournamentPlayer).where(
                TournamentPlayer.tournament_id == tour.id, TournamentPlayer.user_id.in_(away))
                .values(absences=TournamentPlayer.absences + 1))
            await db.execute(update(TournamentPlayer).where(
                TournamentPlayer.tournament_id == tour.id,
                TournamentPlayer.absences >= ABSENT_WITHDRAW).values(status="paused"))

    async def _table(self, db: AsyncSession, tour: Tournament, seats: list[int | None],
                     number: int, round_id: int | None, seed: str | None,
                     online: set[int]) -> int:
        """One tournament table: an ordinary ``tables`` row, full and playing, with its seats
        (computer players of the tournament's level in the empty ones)."""
        game = get_game(tour.game)
        people = [p for p in seats if p is not None]
        deals = tour.deals or table_deals(game, game.make_rules(tour.rules), tour.table_size, 0)
        table = GameTable(game=tour.game, preset=tour.preset, rules=tour.rules, players=tour.table_size,
                          deals=deals, opponents="any" if tour.visibility == "public" else "invited",
                          skill=tour.bot_level, secret=secrets.token_urlsafe(16),
                          owner_id=people[0], turn_seconds=tour.turn_seconds, status="playing",
                          created_at=self._clock.now(), seated=tour.table_size, deal_seed=seed)
        db.add(table)
        await db.flush()
        for seat, person in enumerate(seats):
            if person is None:
                db.add(Seat(table_id=table.id, seat=seat, bot_level=tour.bot_level))
            else:
                db.add(Seat(table_id=table.id, seat=seat, user_id=person))
                db.add(TournamentSeat(tournament_id=tour.id, round_id=round_id, table_id=table.id,
                                      number=number, seat=seat, user_id=person,
                                      absent=person not in online))
        await db.flush()
        return table.id

    async def _opened(self, tour: Tournament, number: int | None,
                      tables: list[list[int | None]], ids: list[int]) -> None:
        """After the commit: start the tables' rooms, tell each person where to sit."""
        for table_id in ids:
            self._hooks.start(table_id)
            self.seated_tables[table_id] = time.perf_counter()
        if number is not None:
            self.seated_at[(tour.id, number)] = time.perf_counter()
        for seats, table_id in zip(tables, ids, strict=True):
            for person in seats:
                if person is not None:
                    await self._hooks.notify(person, {
                        "type": "tournament_start", "tournament": tour.id, "name": tour.name,
                        "round": number, "rounds": tour.rounds or None, "table": table_id})
        if self._hooks.tables_changed is not None:
            await self._hooks.tables_changed()
        await self._hooks.changed(tour.id)

    async def _finish(self, tour: Tournament) -> None:
        async with self._db() as db:
            done = await db.execute(update(Tournament).where(
                Tournament.id == tour.id, Tournament.status == "running")
                .values(status="finished", finished_at=self._clock.now()))
            await db.commit()
            if done.rowcount != 1:
                return
            ranked = scoring.standings(tour.format, tour.scoring, lower_wins(tour.game),
                                       await store.load_tables(db, tour.id),
                                       await store.people(db, tour.id))
        for row in ranked:
            await self._hooks.notify(row.user_id, {"type": "tournament_over",
                                                   "tournament": tour.id, "name": tour.name,
                                                   "place": row.rank, "of": len(ranked)})
        await self._hooks.changed(tour.id)

    # --- arena -------------------------------------------------------------------------------

    async def _arena(self, tour: Tournament) -> None:
        now = self._clock.now()
        end = ends_at(tour)
        assert end is not None
        async with self._db() as db:
            busy = set((await db.execute(
                select(TournamentSeat.user_id).join(GameTable, GameTable.id == TournamentSeat.table_id)
                .where(TournamentSeat.tournament_id == tour.id, GameTable.status != "finished"))
            ).scalars())
            freed = await db.execute(update(TournamentPlayer).where(
                TournamentPlayer.tournament_id == tour.id, TournamentPlayer.free_since.is_(None),
                TournamentPlayer.user_id.not_in(busy) if busy else true())
                .values(free_since=now))
            await db.commit()
            if freed.rowcount:
                await self._hooks.changed(tour.id)
        if now >= end:
            if not busy:
                await self._finish(tour)
            return
        await self._pair(tour, now)

    async def _pair(self, tour: Tournament, now: datetime) -> None:
        online = await self._hooks.online()
        started = time.process_time()
        async with self._db() as db:
            free = (await db.execute(select(TournamentPlayer.user_id, TournamentPlayer.free_since)
                                     .where(TournamentPlayer.tournament_id == tour.id,
                                            TournamentPlayer.status == "active",
                                            TournamentPlayer.free_since.is_not(None)))).all()
            waiting = {u: (now - aware(since)).total_seconds() for u, since in free
                       if u in online}
            if not waiting:
                return
            ranked = [u for u in await self._ranked(db, tour, set(waiting))]
            groups = pairing.arena_groups(ranked, tour.table_size, waiting, tour.fill_wait,
                                          await store.met(db, tour.id, last_only=True))
            if not groups:
                return
            rng = random.Random(f"{tour.seed}:arena:{now.timestamp()}")
            base = (await db.execute(select(func.count(func.distinct(TournamentSeat.table_id)))
                                     .where(TournamentSeat.tournament_id == tour.id))).scalar_one()
            tables, ids = [], []
            for group in groups:
                taken = await db.execute(update(TournamentPlayer).where(
                    TournamentPlayer.tournament_id == tour.id, TournamentPlayer.user_id.in_(group),
                    TournamentPlayer.free_since.is_not(None)).values(free_since=None))
                if taken.rowcount != len(group):
                    await db.rollback()
                    return  # someone was paired meanwhile (another director): next tick
                seats: list[int | None] = [*group, *([None] * (tour.table_size - len(group)))]
                rng.shuffle(seats)
                tables.append(seats)
                ids.append(await self._table(db, tour, seats, base + len(ids) + 1, None, None,
                                             online))
            await db.commit()
        self.seat_cpu.append(time.process_time() - started)
        await self._opened(tour, None, tables, ids)
