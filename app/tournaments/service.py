"""The tournaments service: create, list, show, register, leave, cancel (routers and the
command line are thin on top; the director seats the rounds, app/tournaments/director.py).

Who may see a tournament (its page, JSON and live standings): a ``public`` one everyone; a
``friends`` one its owner's friends; an ``invited`` one whoever holds its invitation link
(``?key=``); and always its owner and the people registered. Who may register: whoever may
see it, while it has not started (an arena also while it runs), once, while places are left.
A registration is counted on the tournament row in the same transaction (``registered``,
conditional UPDATE), so a full tournament takes nobody more on any process.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.service import name_is
from app.clock import Clock
from app.db.models import (
    GameTable,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentSeat,
    User,
)
from app.games.registry import get_game
from app.guard.fields import same_key
from app.i18n import N_
from app.lobby.friends import Friends
from app.lobby.service import Viewer
from app.rooms.match import table_end
from app.tournaments import scoring, store
from app.tournaments.spec import CheckedSpec, TournamentError, TournamentSpec, check_spec

#: private tournaments (friends or invited) one person may have scheduled or running at once
MAX_PRIVATE_OPEN = 3
#: how many finished tournaments the list shows
FINISHED_LISTED = 20

Notify = Callable[[int, dict[str, Any]], Awaitable[Any]]


def aware(moment: datetime | None) -> datetime | None:
    """A stored time as timezone-aware UTC (SQLite gives naive UTC back)."""
    from datetime import UTC

    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def iso(moment: datetime | None) -> str | None:
    moment = aware(moment)
    return None if moment is None else moment.isoformat()


def lower_wins(game: str) -> bool:
    """Whether fewer points are better in ``game`` (Doppio's penalty points)."""
    return get_game(game).traits.lower_scores_win


def ends_at(tour: Tournament) -> datetime | None:
    """An arena's end of window (its start plus its duration); None for a series."""
    if tour.format != "arena":
        return None
    start = aware(tour.started_at or tour.starts_at)
    assert start is not None
    return start + timedelta(minutes=tour.duration)


#: an arena's matches a page shows: every one in play and the newest finished
ARENA_SHOWN = 40


def _arena_tables(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An arena's matches newest first: those in play, and the ARENA_SHOWN newest finished."""
    newest = tables[::-1]
    playing = [t for t in newest if not t["finished"]]
    return playing + [t for t in newest if t["finished"]][:ARENA_SHOWN]


class Tournaments:
    """Tournaments in the database. ``on_change(id)`` is awaited after every change a
    tournament's page shows (the live standings, app/tournaments/hub.py); ``notify`` sends a
    live notice to one person (app/lobby/notices.py)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock,
                 friends: Friends, *, max_private_open: int = MAX_PRIVATE_OPEN) -> None:
        self._db, self._clock, self._friends = sessions, clock, friends
        self._max_private = max_private_open
        self.on_change: Callable[[int], Awaitable[Any]] | None = None
        self.notify: Notify | None = None

    async def _changed(self, tournament_id: int) -> None:
        if self.on_change is not None:
            await self.on_change(tournament_id)

    # --- creating ----------------------------------------------------------------------------

    async def create(self, spec: TournamentSpec, owner: Viewer | None = None, *,
                     schedule_key: str | None = None) -> dict[str, Any]:
        """Create a tournament from ``spec``; ``owner`` None: an operator's (the command line,
        the recurring config), else a player's private tournament (friends or invited only).

        Raises TournamentError for a spec :func:`check_spec` refuses, a public tournament
        asked by a player (403), a guest's (403), more than MAX_PRIVATE_OPEN private
        tournaments open (409) and an invitee who is not there (404). With ``schedule_key``
        a second creation of the same recurring tournament returns the first.
        """
        checked = check_spec(spec, self._clock.now())
        if owner is not None:
            await self._check_private(owner, spec)
        async with self._db() as db:
            invitees = await self._invitees(db, spec)
            tour = self._row(checked, owner, schedule_key)
            db.add(tour)
            try:
                await db.commit()
            except IntegrityError:
                await db.rollback()
                if schedule_key is None:
                    raise
                tour = (await db.execute(select(Tournament).where(
                    Tournament.schedule_key == schedule_key))).scalar_one()
            tournament_id, secret = tour.id, tour.secret
        for user_id in invitees:
            if self.notify is not None and owner is not None:
                await self.notify(user_id, {"type": "tournament_invite",
                                            "tournament": tournament_id, "name": spec.name,
                                            "from": owner.name, "key": secret})
        return await self.show(owner, tournament_id, secret, standings=False)

    def _row(self, checked: CheckedSpec, owner: Viewer | None,
             schedule_key: str | None) -> Tournament:
        spec = checked.spec
        return Tournament(
            name=spec.name.strip(), game=spec.game, preset=checked.preset, rules=checked.rules,
            format=spec.format, table_size=checked.table_size,
            rounds=spec.rounds if spec.format != "arena" else 0, deals=checked.table_deals,
            max_players=spec.max_players, min_players=spec.min_players,
            starts_at=spec.starts_at, duration=spec.duration, pause=spec.pause,
            fill_wait=spec.fill_wait, bot_level=spec.bot_level, turn_seconds=spec.turn_seconds,
            scoring=spec.scoring, visibility=spec.visibility,
            secret=secrets.token_urlsafe(16), owner_id=owner.id if owner else None,
            status="scheduled", current_round=0, registered=0, seed=secrets.token_hex(16),
            schedule_key=schedule_key, created_at=self._clock.now())

    async def _check_private(self, owner: Viewer, spec: TournamentSpec) -> None:
        if spec.visibility == "public":
            raise TournamentError(N_("players create tournaments for friends or invited "
                                     "players; public ones are the site's"), 403,
                                  field="visibility")
        async with self._db() as db:
            user = await db.get(User, owner.id)
            if user is None or user.is_guest:
                raise TournamentError(N_("register to create a tournament"), 403)
            open_count = (await db.execute(select(func.count()).select_from(Tournament).where(
                Tournament.owner_id == owner.id,
                Tournament.status.in_(("scheduled", "running"))))).scalar_one()
        if open_count >= self._max_private:
            raise TournamentError(N_("you have %(count)s tournaments that have not finished; "
                                     "that is the most"), 409, count=self._max_private)

    @staticmethod
    async def _invitees(db: AsyncSession, spec: TournamentSpec) -> list[int]:
        found = []
        for name in dict.fromkeys(n.strip() for n in spec.invite if n.strip()):
            user = (await db.execute(select(User).where(name_is(name)))).scalar_one_or_none()
            if user is None:
                raise TournamentError(N_("there is no player called '%(name)s'"), 404,
                                      field="invite", name=name)
            found.append(user.id)
        return found

    # --- who may see -------------------------------------------------------------------------

    async def _get(self, db: AsyncSession, tournament_id: int) -> Tournament:
        tour = await db.get(Tournament, tournament_id)
        if tour is None:
            raise TournamentError(N_("no such tournament"), 404)
        return tour

    async def _may_see(self, db: AsyncSession, viewer: Viewer | None, tour: Tournament,
                       key: str | None) -> bool:
        if tour.visibility == "public" or same_key(key, tour.secret):
            return True
        if viewer is None:
            return False
        if viewer.id == tour.owner_id or await self._registered(db, tour.id, viewer.id):
            return True
        return (tour.visibility == "friends" and tour.owner_id is not None
                and await self._friends.are_friends(viewer.id, tour.owner_id))

    @staticmethod
    async def _registered(db: AsyncSession, tournament_id: int, user_id: int) -> bool:
        return (await db.execute(select(TournamentPlayer.id).where(
            TournamentPlayer.tournament_id == tournament_id,
            TournamentPlayer.user_id == user_id))).first() is not None

    async def visible(self, viewer: Viewer | None, tournament_id: int,
                      key: str | None = None) -> None:
        """Raise TournamentError 404 unless ``viewer`` may see the tournament (a private one
        is not even admitted to exist)."""
        async with self._db() as db:
            tour = await self._get(db, tournament_id)
            if not await self._may_see(db, viewer, tour, key):
                raise TournamentError(N_("no such tournament"), 404)

    # --- reading -----------------------------------------------------------------------------

    def summary(self, tour: Tournament, owner: str | None = None) -> dict[str, Any]:
        """A tournament's fields as the list and the page show them."""
        return {"id": tour.id, "name": tour.name, "game": tour.game, "preset": tour.preset,
                "format": tour.format, "table_size": tour.table_size, "rounds": tour.rounds,
                "deals": tour.deals, "max_players": tour.max_players, "min_players": tour.min_players,
                "registered": tour.registered, "starts_at": iso(tour.starts_at),
                "ends_at": iso(ends_at(tour)), "duration": tour.duration, "pause": tour.pause,
                "fill_wait": tour.fill_wait, "bot_level": tour.bot_level,
                "turn_seconds": tour.turn_seconds, "scoring": tour.scoring,
                "visibility": tour.visibility, "status": tour.status,
                "current_round": tour.current_round, "owner": owner, "note": tour.note,
                "started_at": iso(tour.started_at), "finished_at": iso(tour.finished_at),
                "lower_wins": lower_wins(tour.game),
                "end": table_end(tour.game, tour.rules, tour.table_size, tour.deals)}

    async def list(self, viewer: Viewer | None, *,
                   operator: bool = False) -> dict[str, list[dict[str, Any]]]:
        """``{"upcoming", "running", "finished"}``: the tournaments ``viewer`` may see (the
        newest FINISHED_LISTED finished ones), each a :meth:`summary` with ``mine`` (the
        viewer is registered); ``operator`` (the command line): every tournament."""
        async with self._db() as db:
            rows = (await db.execute(
                select(Tournament, User.name).outerjoin(User, User.id == Tournament.owner_id)
                .where(Tournament.status.in_(("scheduled", "running")))
                .order_by(Tournament.starts_at, Tournament.id))).all()
            done = (await db.execute(
                select(Tournament, User.name).outerjoin(User, User.id == Tournament.owner_id)
                .where(Tournament.status.in_(("finished", "cancelled")))
                .order_by(Tournament.starts_at.desc(), Tournament.id.desc())
                .limit(FINISHED_LISTED * 4))).all()
            mine = set() if viewer is None else set((await db.execute(
                select(TournamentPlayer.tournament_id).where(
                    TournamentPlayer.user_id == viewer.id))).scalars())
            out: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [],
                                                    "finished": []}
            for tour, owner in [*rows, *done]:
                if not operator and tour.visibility != "public" and tour.id not in mine and \
                        not await self._may_see(
                        db, viewer, tour, None):
                    continue
                kind = {"scheduled": "upcoming", "running": "running"}.get(tour.status, "finished")
                if kind == "finished" and len(out["finished"]) >= FINISHED_LISTED:
                    continue
                out[kind].append({**self.summary(tour, owner), "mine": tour.id in mine})
        return out

    async def show(self, viewer: Viewer | None, tournament_id: int, key: str | None = None,
                   *, standings: bool = True) -> dict[str, Any]:
        """The tournament's page: :meth:`summary` with ``players`` (the ranked standings:
        scoring.Standing.json), ``schedule`` (the rounds seated so far: number, status, times,
        tables with their seats and scores so far), ``tables`` (an arena's), ``boards`` (a duplicate series' deals by
        table), ``mine`` and, for its owner, ``secret`` (the invitation link's key).

        Raises TournamentError 404 (none, or not visible to ``viewer``)."""
        async with self._db() as db:
            tour = await self._get(db, tournament_id)
            if not await self._may_see(db, viewer, tour, key):
                raise TournamentError(N_("no such tournament"), 404)
            owner = (await db.get(User, tour.owner_id)).name if tour.owner_id else None
            out = self.summary(tour, owner)
            registered = await store.people(db, tour.id)
            out["mine"] = viewer is not None and any(u == viewer.id for u, _n, _s in registered)
            out["my_status"] = next((s for u, _n, s in registered
                                     if viewer is not None and u == viewer.id), None)
            if viewer is not None and viewer.id == tour.owner_id:
                out["secret"] = tour.secret
            if standings:
                out.update(await self._standings(db, tour, registered))
            else:
                out.update(players=[], schedule=[], tables=[], boards=[])
        return out

    async def live(self, tournament_id: int) -> dict[str, Any]:
        """What every watcher of the tournament page is sent (no viewer's own fields)."""
        async with self._db() as db:
            tour = await self._get(db, tournament_id)
            owner = (await db.get(User, tour.owner_id)).name if tour.owner_id else None
            out = self.summary(tour, owner)
            out.update(await self._standings(db, tour, await store.people(db, tour.id)))
        return out

    async def _standings(self, db: AsyncSession, tour: Tournament,
                         registered: list[tuple[int, str, str]]) -> dict[str, Any]:
        tables = await store.load_tables(db, tour.id)
        low = lower_wins(tour.game)
        ranked = scoring.standings(tour.format, tour.scoring, low, tables, registered)
        rounds = (await db.execute(select(TournamentRound).where(
            TournamentRound.tournament_id == tour.id).order_by(TournamentRound.number))
        ).scalars().all()
        by_round: dict[int | None, list[dict[str, Any]]] = {}
        for table in tables:
            totals = table.totals()
            by_round.setdefault(table.round, []).append({
                "id": table.table_id, "number": table.number, "finished": table.finished,
                "played": sum(1 for _k in table.keyed()),
                "seats": [{"seat": s.seat, "name": s.name, "user_id": s.user_id,
                           "bot": s.bot_level, "absent": s.absent, "score": totals[s.seat]}
                          for s in table.seats]})
        last = rounds[-1] if rounds else None
        next_at = (aware(last.finished_at) + timedelta(seconds=tour.pause)
                   if last is not None and last.status == "done" and tour.status == "running"
                   and last.number < tour.rounds else None)
        return {"players": [row.json() for row in ranked], "next_round_at": iso(next_at),
                "schedule": [{"number": r.number, "status": r.status,
                            "started_at": iso(r.started_at), "finished_at": iso(r.finished_at),
                            "tables": by_round.get(r.number, [])} for r in rounds],
                "tables": _arena_tables(by_round.get(None, [])) if tour.format == "arena" else [],
                "boards": scoring.boards(tables, low) if tour.format == "duplicate" else []}

    async def of_table(self, table_id: int) -> dict[str, Any] | None:
        """The tournament a table belongs to: ``{"id", "name", "round", "number"}``, or None
        for an ordinary table (the table page's link back)."""
        async with self._db() as db:
            row = (await db.execute(
                select(Tournament.id, Tournament.name, TournamentRound.number,
                       TournamentSeat.number)
                .join(TournamentSeat, TournamentSeat.tournament_id == Tournament.id)
                .outerjoin(TournamentRound, TournamentRound.id == TournamentSeat.round_id)
                .where(TournamentSeat.table_id == table_id).limit(1))).first()
        if row is None:
            return None
        return {"id": row[0], "name": row[1], "round": row[2], "number": row[3]}

    async def for_player(self, name: str, viewer: Viewer | None = None) -> list[dict[str, Any]]:
        """The tournaments the player ``name`` took part in (registered for one that
        started), newest first: ``{"id", "name", "game", "format", "status", "place", "of",
        "starts_at"}`` — ``place`` their rank (None before anything counted), ``of`` the people
        ranked. Private tournaments only for the player themself. [] for no such player."""
        async with self._db() as db:
            user = (await db.execute(select(User).where(name_is(name)))).scalar_one_or_none()
            if user is None:
                return []
            user_id = user.id
            shown = (Tournament.visibility == "public") if viewer is None or \
                viewer.id != user_id else Tournament.id.is_not(None)
            rows = (await db.execute(
                select(Tournament).join(TournamentPlayer,
                                        TournamentPlayer.tournament_id == Tournament.id)
                .where(TournamentPlayer.user_id == user_id, shown,
                       Tournament.status.in_(("running", "finished")))
                .order_by(Tournament.starts_at.desc()).limit(50))).scalars().all()
            out = []
            for tour in rows:
                registered = await store.people(db, tour.id)
                ranked = scoring.standings(tour.format, tour.scoring, lower_wins(tour.game),
                                           await store.load_tables(db, tour.id), registered)
                mine = next((r for r in ranked if r.user_id == user_id), None)
                out.append({"id": tour.id, "name": tour.name, "game": tour.game, "format": tour.format,
                            "status": tour.status, "starts_at": iso(tour.starts_at),
                            "visibility": tour.visibility,
                            "place": mine.rank if mine and mine.played else None,
                            "of": len(ranked)})
        return out

    # --- people ------------------------------------------------------------------------------

    async def register(self, viewer: Viewer, tournament_id: int, key: str | None = None) -> None:
        """Register ``viewer``. Raises TournamentError: 404 (none, or not visible), 409
        (started — an arena takes people while it runs —, finished, cancelled, full, or
        registered already)."""
        async with self._db() as db:
            tour = await self._get(db, tournament_id)
            if not await self._may_see(db, viewer, tour, key):
                raise TournamentError(N_("no such tournament"), 404)
            open_states = ("scheduled", "running") if tour.format == "arena" else ("scheduled",)
            if tour.status not in open_states:
                raise TournamentError(N_("registration is closed: the tournament has started")
                                      if tour.status == "running" else
                                      N_("registration is closed: the tournament is over"), 409)
            db.add(TournamentPlayer(tournament_id=tour.id, user_id=viewer.id,
                                    registered_at=self._clock.now(), status="active",
                                    absences=0,
                                    free_since=self._clock.now() if tour.status == "running"
                                    else None))
            try:
                await db.flush()
            except IntegrityError:
                await db.rollback()
                raise TournamentError(N_("you are registered already"), 409) from None
            counted = await db.execute(update(Tournament).where(
                Tournament.id == tour.id, Tournament.status.in_(open_states),
                Tournament.registered < Tournament.max_players)
                .values(registered=Tournament.registered + 1))
            if counted.rowcount != 1:
                await db.rollback()
                raise TournamentError(N_("the tournament is full"), 409)
            await db.commit()
        await self._changed(tournament_id)

    async def unregister(self, viewer: Viewer, tournament_id: int) -> str:
        """Before the start: take the registration back (``"unregistered"``). Once it runs:
        leave (``"left"``): not seated or paired again; the results so far stay. Raises
        TournamentError 404 (not registered), 409 (over)."""
        async with self._db() as db:
            tour = await self._get(db, tournament_id)
            if tour.status == "scheduled":
                gone = await db.execute(delete(TournamentPlayer).where(
                    TournamentPlayer.tournament_id == tour.id,
                    TournamentPlayer.user_id == viewer.id))
                if gone.rowcount != 1:
                    await db.rollback()
                    raise TournamentError(N_("you are not registered"), 404)
                counted = await db.execute(update(Tournament).where(
                    Tournament.id == tour.id, Tournament.status == "scheduled",
                    Tournament.registered > 0).values(registered=Tournament.registered - 1))
                if counted.rowcount != 1:
                    await db.rollback()
                    raise TournamentError(N_("registration is closed: the tournament has "
                                             "started"), 409)
                await db.commit()
                result = "unregistered"
            else:
                result = await self._set_status(db, tour, viewer, "paused")
        await self._changed(tournament_id)
        return result

    async def resume(self, viewer: Viewer, tournament_id: int) -> str:
        """Come back to a running tournament one left (or was withdrawn from for absence):
        seated again from the next round (paired again in an arena). Returns ``"resumed"``."""
        async with self._db() as db:
            tour = await self._get(db, tournament_id)
            result = await self._set_status(db, tour, viewer, "active")
        await self._changed(tournament_id)
        return result

    async def _set_status(self, db: AsyncSession, tour: Tournament, viewer: Viewer,
                          status: str) -> str:
        if tour.status != "running":
            raise TournamentError(N_("the tournament is over"), 409)
        values: dict[str, Any] = {"status": status}
        if status == "active":
            values["absences"] = 0
        changed = await db.execute(update(TournamentPlayer).where(
            TournamentPlayer.tournament_id == tour.id, TournamentPlayer.user_id == viewer.id)
            .values(**values))
        if changed.rowcount != 1:
            await db.rollback()
            raise TournamentError(N_("you are not registered"), 404)
        await db.commit()
        return "left" if status == "paused" else "resumed"

    async def cancel(self, tournament_id: int, by: Viewer | None = None,
                     reason: str | None = None) -> None:
        """Cancel a tournament that has not finished (``by`` None: an operator; else only its
        owner). Tables in play finish as ordinary tables; no round starts any more. Raises
        TournamentError 403 (not the owner), 404, 409 (finished or cancelled already)."""
        async with self._db() as db:
            tour = await self._get(db, tournament_id)
            if by is not None and by.id != tour.owner_id:
                raise TournamentError(N_("only the tournament's owner may cancel it"), 403)
            done = await db.execute(update(Tournament).where(
                Tournament.id == tour.id, Tournament.status.in_(("scheduled", "running")))
                .values(status="cancelled", finished_at=self._clock.now(),
                        note=(reason or "")[:200] or None))
            if done.rowcount != 1:
                raise TournamentError(N_("the tournament is over"), 409)
            await db.commit()
        await self._changed(tournament_id)

    async def table_status(self, table_ids: list[int]) -> dict[int, str]:
        """The status of tables (for tests and the director)."""
        async with self._db() as db:
            return dict((await db.execute(select(GameTable.id, GameTable.status)
                                          .where(GameTable.id.in_(table_ids)))).all())
