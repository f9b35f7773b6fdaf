"""Match history, profiles and leaderboards: read-only queries over results and ratings.

A guest has no profile until they register; since registering keeps the same user row, their
games (results, ratings) are theirs from then on. A guest sees their own match history (and so
the replays of their matches); nobody else sees a guest's.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, or_, select, true
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.accounts.service import name_is
from app.clock import Clock
from app.db.models import (
    Departure,
    GameTable,
    Match,
    PlayerRating,
    RatingChange,
    Result,
    Seat,
    User,
)
from app.games.registry import available_games
from app.i18n import N_
from app.i18n.errors import LocalizedError
from app.lobby.seating import seat_left
from app.ratings.display import matches_left, shown
from app.ratings.model import Rating
from app.ratings.store import leaderboard
from app.rooms.match import table_end


class HistoryError(LocalizedError, LookupError):
    """No such player (or a guest, who has no profile); ``status`` for HTTP; ``message`` a
    catalogue msgid with ``%(name)s`` params (app/i18n/errors.py)."""

    def __init__(self, message: str, status: int = 404, **params: Any) -> None:
        super().__init__(message, **params)
        self.status = status


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


async def find_player(db: AsyncSession, name: str, *, own_for: int | None = None) -> User:
    """The registered player called ``name``; a guest only when ``own_for`` is that guest
    (their own history and statistics). Raises HistoryError (404) otherwise."""
    user = (await db.execute(select(User).where(name_is(name)))).scalar_one_or_none()
    if user is None:
        raise HistoryError(N_("there is no player called '%(name)s'"), name=name)
    if user.is_guest and (own_for is None or own_for != user.id):
        raise HistoryError(N_("guests have no profile until they register"))
    return user


def may_open(user_id: int, viewer_id: int | None) -> Any:
    """SQL: the ``Match`` in the query may be opened by ``viewer_id`` — the player's own
    history, a public match (Anyone, Play now), or a private one the viewer played in
    (app/lobby/service.py ``Lobby._may_view``)."""
    if viewer_id == user_id:
        return true()
    public = (select(GameTable.id).where(GameTable.id == Match.table_id,
                                         GameTable.opponents == "any")
              .correlate(Match).exists())
    if viewer_id is None:
        return public
    theirs = aliased(Result)  # the viewer's own result in that match
    played = (select(theirs.id).where(theirs.match_id == Match.id,
                                      theirs.user_id == viewer_id)
              .correlate(Match).exists())
    return or_(public, played)


class History:
    """The queries behind the profile, history and leaderboard pages."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], clock: Clock) -> None:
        self._db = sessions
        self._clock = clock


    async def matches(self, name: str, *, limit: int = 20, offset: int = 0,
                      viewer_id: int | None = None, count: bool = True) -> dict[str, Any]:
        """A player's finished matches, newest first: ``{"player", "matches": [{"table",
        "match", "game", "finished_at", "seat", "score", "winner", "left_early", "players":
        [{"seat", "name", "score", "winner"}], "rating": {"before", "after"} | None}],
        "total"}``. ``left_early``: a computer player finished this rated match for them
        (models.Departure without a return). Seen by someone else (``viewer_id``; None: a
        visitor), only the matches that viewer may open: a Friend or Invited match is listed
        to its players only. ``guest``: the player is a guest looking at their own matches
        (guests have no profile: app/history/service.py). ``running``: on the player's own
        page, the tables in play where they hold a seat (:meth:`_running`). ``count``
        False: no ``total`` (None; a profile's few recent matches need none)."""
        async with self._db() as db:
            user = await find_player(db, name, own_for=viewer_id)
            running = await self._running(db, user.id) if viewer_id == user.id else []
            visible = may_open(user.id, viewer_id)
            total = (await db.execute(
                select(func.count()).select_from(Result).join(Match, Match.id == Result.match_id)
                .where(Result.user_id == user.id, Match.finished_at.is_not(None), visible)
            )).scalar_one() if count else None
            newest = (Match.finished_at.desc(), Match.id.desc())
            # the page's ids first: sorting a long history's rows whole (with their rules)
            # took four times as long (benchmarks/stats.py, 10,000 matches)
            page = list((await db.execute(
                select(Match.id).join(Result, Result.match_id == Match.id)
                .where(Result.user_id == user.id, Match.finished_at.is_not(None), visible)
                .order_by(*newest).limit(limit).offset(offset))).scalars())
            mine = [(r, m) for r, m in (await db.execute(  # by the match's index, not the user's
                select(Result, Match).join(Match, Match.id == Result.match_id)
                .where(Result.match_id.in_(page)).order_by(*newest))).all()
                if r.user_id == user.id] if page else []
            match_ids = [m.id for _r, m in mine]
            left: set[int] = set()
            others: dict[int, list[dict[str, Any]]] = defaultdict(list)
            changes: dict[int, RatingChange] = {}
            if match_ids:
                rows = (await db.execute(
                    select(Result, User.name).outerjoin(User, User.id == Result.user_id)
                    .where(Result.match_id.in_(match_ids)).order_by(Result.seat))).all()
                for r, who in rows:
                    others[r.match_id].append({
                        "seat": r.seat, "score": r.score, "winner": r.winner,
                        "name": who or f"Computer ({r.bot_level})", "bot": r.bot_level})
                left = set((await db.execute(select(Departure.match_id).where(
                    Departure.user_id == user.id, Departure.match_id.in_(match_ids),
                    Departure.returned_at.is_(None)))).scalars())
                changes = {c.match_id: c for c in (await db.execute(
                    select(RatingChange).where(RatingChange.user_id == user.id,
                                               RatingChange.match_id.in_(match_ids)))).scalars()}
        out = []
        for result, match in mine:
            change = changes.get(match.id)
            out.append({
                "table": match.table_id, "match": match.id, "game": match.game,
                "finished_at": _iso(match.finished_at), "deals": match.deals,
                "end": table_end(match.game, match.rules, match.players, match.deals),
                "seat": result.seat, "score": result.score, "winner": result.winner,
                "left_early": match.id in left, "players": others[match.id],
                "rating": None if change is None else {
                    "before": Rating(change.mu_before, change.sigma_before).ordinal,
                    "after": Rating(change.mu, change.sigma).ordinal}})
        return {"player": user.name, "matches": out, "total": total, "guest": user.is_guest,
                "running": running}

    @staticmethod
    async def _running(db: AsyncSession, user_id: int) -> list[dict[str, Any]]:
        """The tables in play where ``user_id`` holds a seat they have not left, newest first:
        ``[{"table", "game", "end", "seat", "players": [{"seat", "name", "bot"}]}]`` (a running
        match has no result yet, so the finished list cannot show it)."""
        tables = (await db.execute(
            select(GameTable, Seat.seat).join(Seat, Seat.table_id == GameTable.id)
            .where(Seat.user_id == user_id, GameTable.status == "playing", ~seat_left())
            .order_by(GameTable.id.desc()))).all()
        if not tables:
            return []
        seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
        rows = (await db.execute(
            select(Seat, User.name).outerjoin(User, User.id == Seat.user_id)
            .where(Seat.table_id.in_([t.id for t, _seat in tables])).order_by(Seat.seat))).all()
        for seat, who in rows:
            seats[seat.table_id].append({"seat": seat.seat, "name": who or "", "bot": seat.bot_level})
        return [{"table": table.id, "game": table.game, "seat": mine,
                 "end": table_end(table.game, table.rules, table.players, table.deals),
                 "players": seats[table.id]} for table, mine in tables]

    async def profile(self, name: str, *, viewer_id: int | None = None) -> dict[str, Any]:
        """Per game: matches played, won, win rate, rated matches left early (``left_early``:
        a computer player finished them for this player) and the rating; and the ten most
        recent matches that ``viewer_id`` may open (see :meth:`matches`). The player sees all
        their matches counted, anybody else those at Anyone tables only (private Friends and
        Invited matches count for the player's own view: app/stats/projection.py). A guest
        sees their own profile (``guest``); nobody else does. The rating's history is the
        statistics' (app/stats/profile.py)."""
        async with self._db() as db:
            user = await find_player(db, name, own_for=viewer_id)
            counted = (true() if viewer_id == user.id else select(GameTable.id).where(
                GameTable.id == Match.table_id, GameTable.opponents == "any").correlate(Match).exists())
            counts = (await db.execute(
                select(Match.game, func.count(), func.sum(case((Result.winner.is_(True), 1), else_=0)))
                .join(Match, Match.id == Result.match_id)
                .where(Result.user_id == user.id, Match.finished_at.is_not(None), counted)
                .group_by(Match.game))).all()
            departures = dict((await db.execute(
                select(Match.game, func.count()).select_from(Departure)
                .join(Match, Match.id == Departure.match_id)
                .where(Departure.user_id == user.id, Departure.returned_at.is_(None),
                       Match.finished_at.is_not(None), counted)
                .group_by(Match.game))).all())
            ratings = {r.game: r for r in (await db.execute(
                select(PlayerRating).where(PlayerRating.user_id == user.id))).scalars()}
        played = {game: (n, int(won or 0)) for game, n, won in counts}
        games = []
        for game in available_games():
            if game not in played and game not in ratings:
                continue
            n, won = played.get(game, (0, 0))
            rating = ratings.get(game)
            games.append({
                "game": game, "played": n, "won": won, "left_early": departures.get(game, 0),
                "win_rate": round(won / n, 3) if n else None,
                "rating": None if rating is None else {
                    "mu": rating.mu, "sigma": rating.sigma,
                    "ordinal": Rating(rating.mu, rating.sigma).ordinal,
                    "shown": shown(Rating(rating.mu, rating.sigma)),
                    "settle_in": (matches_left(game, Rating(rating.mu, rating.sigma), rating.matches)
                                  if rating.provisional else 0),
                    "provisional": rating.provisional, "matches": rating.matches,
                    "last_active": _iso(rating.last_active)}})
        recent = await self.matches(name, limit=10, viewer_id=viewer_id, count=False)
        return {"player": user.name, "since": _iso(user.created_at), "games": games,
                "recent": recent["matches"], "guest": user.is_guest}

    async def leaderboard(self, game: str, viewer_id: int | None = None) -> dict[str, Any]:
        """The game's top 100 and the viewer's own rank (see app/ratings/store.py)."""
        if game not in available_games():
            raise HistoryError(N_("unknown game '%(game)s'"), game=game)
        async with self._db() as db:
            return await leaderboard(db, game, self._clock.now(), user_id=viewer_id)

