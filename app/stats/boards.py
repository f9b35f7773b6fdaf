"""Leaderboards beside the one by rating (app/ratings/store.py): by period, and new players.

- ``week``, ``month``, ``all``: the players with the most won matches (first places; a shared
  first place counts) of the game since Monday 00:00 UTC, since the 1st of the month 00:00
  UTC, or ever; equal wins are ordered by the share of matches won, then share a rank
  ("1224"). Only rated matches count (two people or more: a win against computer players
  alone is no win over anybody) and only public ones (Anyone tables: a leaderboard is for
  everybody to see); guests are not listed.
- ``new``: the players who registered in the last :data:`NEW_DAYS` days and have a rating in
  the game, by rating (provisional ones marked), so a young site's boards are not empty.

Every entry carries the player's current rating and whether it is provisional.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Float, Integer, String, and_, case, cast, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import PlayerRating, StatsMatch, User
from app.games.registry import available_games
from app.history.service import HistoryError
from app.i18n import N_
from app.ratings.display import matches_left, shown
from app.ratings.leaderboard import TOP
from app.ratings.model import ORDINAL_Z, Rating

PERIODS = ("week", "month", "all")
#: every board, as the leaderboard page's tabs list them (``rating``: app/ratings/store.py)
BOARDS = ("rating", *PERIODS, "new")
#: a player counts as new this many days after registering
NEW_DAYS = 30


def period_start(period: str, now: datetime) -> datetime | None:
    """Where ``period`` begins for ``now`` (UTC): this week's Monday 00:00, this month's 1st
    00:00; None for ``all``. Raises ValueError for another period."""
    now = now.astimezone(UTC)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return midnight - timedelta(days=now.weekday())
    if period == "month":
        return midnight.replace(day=1)
    if period == "all":
        return None
    raise ValueError(f"no period {period!r}")


async def board(db: AsyncSession, game: str, period: str, now: datetime, *,
                viewer_id: int | None = None) -> dict[str, Any]:
    """``{"game", "board", "since", "entries": [...], "own": {...} | None}`` (see
    :func:`by_wins` and :func:`new_players`). Raises HistoryError (404) for an unknown game
    or board."""
    if game not in available_games():
        raise HistoryError(N_("unknown game '%(game)s'"), game=game)
    if period in PERIODS:
        return await by_wins(db, game, period, now, viewer_id=viewer_id)
    if period == "new":
        return await new_players(db, game, now)
    raise HistoryError(N_("there is no such leaderboard"))


def _rating_columns() -> tuple[Any, ...]:
    return PlayerRating.mu, PlayerRating.sigma, PlayerRating.provisional


def _rating(mu: float | None, sigma: float | None, provisional: bool | None) -> dict[str, Any]:
    if mu is None or sigma is None:
        return {"rating": None, "provisional": None}
    return {"rating": shown(Rating(mu, sigma)), "provisional": bool(provisional)}


async def by_wins(db: AsyncSession, game: str, period: str, now: datetime, *,
                  viewer_id: int | None = None, limit: int = TOP) -> dict[str, Any]:
    """The period's board: entries ``{"rank", "user_id", "name", "wins", "matches", "share",
    "rating", "provisional"}``, best first, at most ``limit``; ``own``: the viewer's entry
    wherever it falls (None when the viewer won or played nothing that counts)."""
    since = period_start(period, now)
    counted = [StatsMatch.game == game, StatsMatch.public.is_(True), StatsMatch.rated.is_(True),
               User.is_guest.is_(False)]
    if since is not None:
        counted.append(StatsMatch.finished_at >= since)
    wins = func.sum(case((StatsMatch.placing == 1, 1), else_=0))
    grouped = (select(StatsMatch.user_id, cast(wins, Integer).label("wins"),
                      func.count().label("matches"))
               .join(User, User.id == StatsMatch.user_id).where(*counted)
               .group_by(StatsMatch.user_id).subquery())
    ratings = and_(PlayerRating.user_id == grouped.c.user_id, PlayerRating.game == game)
    rows = (await db.execute(
        select(grouped, User.name, *_rating_columns())
        .join(User, User.id == grouped.c.user_id).outerjoin(PlayerRating, ratings)
        .order_by(grouped.c.wins.desc(),
                  (cast(grouped.c.wins, Float) / grouped.c.matches).desc(),
                  cast(grouped.c.user_id, String))
        .limit(limit))).all()
    entries: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        same = entries and (entries[-1]["wins"], entries[-1]["matches"] * row.wins) == (
            row.wins, row.matches * entries[-1]["wins"])
        entries.append({"rank": entries[-1]["rank"] if same else index + 1,
                        "user_id": row.user_id, "name": row.name, "wins": row.wins,
                        "matches": row.matches, "share": round(row.wins / row.matches, 3),
                        **_rating(row.mu, row.sigma, row.provisional)})
    own = None
    if viewer_id is not None:
        own = next((e for e in entries if e["user_id"] == viewer_id), None)
        if own is None:
            own = await _own_by_wins(db, grouped, viewer_id)
    return {"game": game, "board": period, "since": since.isoformat() if since else None,
            "entries": entries, "own": own}


async def _own_by_wins(db: AsyncSession, grouped: Any, viewer_id: int) -> dict[str, Any] | None:
    mine = (await db.execute(select(grouped).where(grouped.c.user_id == viewer_id))).first()
    if mine is None:
        return None
    better = (await db.execute(select(func.count()).select_from(grouped).where(or_(
        grouped.c.wins > mine.wins,
        and_(grouped.c.wins == mine.wins,
             grouped.c.wins * mine.matches > mine.wins * grouped.c.matches))))).scalar_one()
    return {"rank": better + 1, "user_id": viewer_id, "wins": mine.wins, "matches": mine.matches,
            "share": round(mine.wins / mine.matches, 3)}


async def new_players(db: AsyncSession, game: str, now: datetime, *,
                      limit: int = TOP) -> dict[str, Any]:
    """The players registered in the last NEW_DAYS days with a rating in ``game``, by rating:
    entries ``{"rank", "user_id", "name", "rating", "provisional", "matches", "settle_in"}``."""
    since = now - timedelta(days=NEW_DAYS)
    ordinal = PlayerRating.mu - ORDINAL_Z * PlayerRating.sigma
    rows = (await db.execute(
        select(PlayerRating, User.name).join(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.game == game, PlayerRating.matches > 0, User.is_guest.is_(False),
               User.created_at >= since)
        .order_by(ordinal.desc(), cast(PlayerRating.user_id, String)).limit(limit))).all()
    entries: list[dict[str, Any]] = []
    for index, (row, name) in enumerate(rows):
        rating = Rating(row.mu, row.sigma)
        same = entries and entries[-1]["ordinal"] == rating.ordinal
        entries.append({"rank": entries[-1]["rank"] if same else index + 1, "user_id": row.user_id,
                        "name": name, "ordinal": rating.ordinal, "matches": row.matches,
                        **_rating(row.mu, row.sigma, row.provisional),
                        "settle_in": matches_left(game, rating, row.matches) if row.provisional else 0})
    return {"game": game, "board": "new", "since": since.isoformat(), "entries": entries,
            "own": None}
