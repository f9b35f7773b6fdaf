"""Ratings in the database: applying a finished match, and the leaderboard in SQL.

``rate_finished_match`` runs inside the transaction that stores a match's result
(``MatchStore.finish_match``), so a match is rated exactly when its result is stored: the
unique (match_id, seat) of results and (match_id, user_id) of rating_history refuse a second
attempt, rolling the whole transaction back.

The leaderboard query applies the rules of :mod:`app.ratings.leaderboard` in SQL (eligible:
not provisional and active in the last 30 days; order by mu - 3 sigma; own rank = 1 + the
number of eligible players with a greater ordinal). Guests are not listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import String, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import PlayerRating, RatingChange, Round, User
from app.ratings.display import matches_left, matches_to_settle, shown
from app.ratings.leaderboard import ACTIVE_DAYS, TOP, Ineligible
from app.ratings.model import (
    ORDINAL_Z,
    PARTY_GAMES,
    RANK_GAMES,
    Bot,
    BotLevel,
    Participant,
    Person,
    Rating,
    is_provisional,
    is_rated,
    rate_match,
)


@dataclass(frozen=True)
class SeatHolder:
    """Who held a seat: a user id or a computer level (as stored in ``seats``)."""

    seat: int
    user_id: int | None
    bot_level: str | None


async def match_outcome(db: AsyncSession, match_id: int, players: int,
                        game_over: bool) -> dict[str, Any]:
    """The match outcome in the scenario format (rounds, totals, game_over) from the stored
    round outcomes."""
    rows = (await db.execute(select(Round.outcome).where(Round.match_id == match_id)
                             .order_by(Round.number))).scalars().all()
    rounds = []
    totals = [0] * players
    for outcome in rows:
        if outcome is None:
            rounds.append({"finished": False, "scores": [0] * players})
            continue
        rounds.append({"finished": bool(outcome.get("finished", True)),
                       "scores": list(outcome["scores"]), "details": outcome.get("details") or {},
                       "redeal": bool(outcome.get("redeal"))})
        for seat, score in enumerate(outcome["scores"]):
            totals[seat] += score
    return {"rounds": rounds, "totals": totals, "game_over": game_over}


async def rate_finished_match(db: AsyncSession, match_id: int, game: str,
                              seats: Sequence[SeatHolder], now: datetime) -> dict[int, Rating]:
    """Rate a finished match in ``db``'s transaction (the caller commits); returns the new
    ratings by user id, or ``{}`` when the match is not rated (fewer than two people)."""
    ordered = sorted(seats, key=lambda s: s.seat)
    if game not in PARTY_GAMES and game not in RANK_GAMES:
        return {}  # a game without rating rules (the test-only highcard)
    outcome = await match_outcome(db, match_id, len(ordered), game_over=True)
    placeholders = [Person(s.user_id) if s.user_id is not None
                    else Bot(BotLevel(s.bot_level or BotLevel.BEGINNER)) for s in ordered]
    if not is_rated(placeholders, outcome):
        return {}
    user_ids = [s.user_id for s in ordered if s.user_id is not None]
    # make sure every row exists, then lock them: two matches of one person finishing at once
    # update the rating one after the other (PostgreSQL row locks; SQLite has one writer)
    await _ensure_rows(db, game, user_ids, now)
    stored = {r.user_id: r for r in (await db.execute(
        select(PlayerRating).where(PlayerRating.game == game, PlayerRating.user_id.in_(user_ids))
        .with_for_update().execution_options(populate_existing=True))).scalars()}
    participants: list[Participant] = []
    for s, placeholder in zip(ordered, placeholders, strict=True):
        if s.user_id is None:
            participants.append(placeholder)
            continue
        row = stored[s.user_id]
        participants.append(Person(s.user_id, Rating(row.mu, row.sigma)))
    new = rate_match(game, participants, outcome)
    for person in participants:
        if not isinstance(person, Person):
            continue
        rating = new[person.player]
        row = stored[person.player]
        row.mu, row.sigma = rating.mu, rating.sigma
        row.provisional = is_provisional(rating)
        row.matches = (row.matches or 0) + 1
        row.last_active = now
        db.add(RatingChange(user_id=person.player, match_id=match_id, game=game,
                            mu_before=person.rating.mu, sigma_before=person.rating.sigma,
                            mu=rating.mu, sigma=rating.sigma, created_at=now))
    return new


async def _ensure_rows(db: AsyncSession, game: str, user_ids: list[int], now: datetime) -> None:
    """INSERT a new person's rating row (the default rating, 0 matches) unless it exists."""
    if not user_ids:
        return
    dialect = db.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # pragma: no cover - the site runs on SQLite or PostgreSQL
        raise RuntimeError(f"no upsert for {dialect}")
    fresh = Rating()
    rows = [{"user_id": user_id, "game": game, "mu": fresh.mu, "sigma": fresh.sigma,
             "provisional": True, "matches": 0, "last_active": now} for user_id in user_ids]
    await db.execute(insert(PlayerRating).values(rows).on_conflict_do_nothing(
        index_elements=["user_id", "game"]))


def _ordinal():
    return PlayerRating.mu - ORDINAL_Z * PlayerRating.sigma


def _eligible(game: str, now: datetime):
    return (PlayerRating.game == game, PlayerRating.provisional.is_(False),
            PlayerRating.last_active >= now - timedelta(days=ACTIVE_DAYS), User.is_guest.is_(False))


async def leaderboard(db: AsyncSession, game: str, now: datetime, *, user_id: int | None = None,
                      limit: int = TOP) -> dict[str, Any]:
    """``{"game", "entries": [{"rank", "name", "user_id", "ordinal", "shown", "mu", "sigma"}],
    "provisional": [{"name", "user_id", "shown", "settle_in"}], "eligible_after",
    "own": {"rank", "ordinal", "shown"} | {"rank": None, "reason"} | None}``.

    ``provisional``: the active players whose rating is not settled yet (best first, at most
    ``limit``), each with about how many more matches settle it (app/ratings/display.py);
    ``eligible_after``: about how many rated matches settle a new player's rating.

    Equal ordinals share a rank ("1224"); ties are listed by user id as text, as the
    pure core lists them (``str(player)``).
    """
    rows = (await db.execute(
        select(PlayerRating, User.name).join(User, User.id == PlayerRating.user_id)
        .where(*_eligible(game, now))
        .order_by(_ordinal().desc(), cast(PlayerRating.user_id, String))
        .limit(limit))).all()
    entries: list[dict[str, Any]] = []
    for index, (r, name) in enumerate(rows):
        ordinal = Rating(r.mu, r.sigma).ordinal
        if entries and entries[-1]["ordinal"] == ordinal:
            rank = entries[-1]["rank"]
        else:
            rank = index + 1
        entries.append({"rank": rank, "user_id": r.user_id, "name": name, "ordinal": ordinal,
                        "shown": shown(Rating(r.mu, r.sigma)), "mu": r.mu, "sigma": r.sigma})
    waiting = (await db.execute(
        select(PlayerRating, User.name).join(User, User.id == PlayerRating.user_id)
        .where(PlayerRating.game == game, PlayerRating.provisional.is_(True),
               PlayerRating.matches > 0, User.is_guest.is_(False),
               PlayerRating.last_active >= now - timedelta(days=ACTIVE_DAYS))
        .order_by(_ordinal().desc(), cast(PlayerRating.user_id, String))
        .limit(limit))).all()
    provisional = [{"user_id": r.user_id, "name": name, "shown": shown(Rating(r.mu, r.sigma)),
                    "settle_in": matches_left(game, Rating(r.mu, r.sigma), r.matches)}
                   for r, name in waiting]
    own = None
    if user_id is not None:
        own = await own_rank(db, game, now, user_id)
    return {"game": game, "entries": entries, "provisional": provisional,
            "eligible_after": matches_to_settle(game, Rating()), "own": own}


async def own_rank(db: AsyncSession, game: str, now: datetime, user_id: int) -> dict[str, Any]:
    """A player's rank wherever it falls, or why they are not ranked."""
    mine = (await db.execute(select(PlayerRating, User.is_guest)
                             .join(User, User.id == PlayerRating.user_id)
                             .where(PlayerRating.game == game,
                                    PlayerRating.user_id == user_id))).first()
    if mine is None or mine[1]:
        return {"rank": None, "reason": Ineligible.UNRATED.value}
    row = mine[0]
    if row.provisional:
        return {"rank": None, "reason": Ineligible.PROVISIONAL.value,
                "settle_in": matches_left(game, Rating(row.mu, row.sigma), row.matches)}
    last = row.last_active if row.last_active.tzinfo else row.last_active.replace(tzinfo=now.tzinfo)
    if now - last > timedelta(days=ACTIVE_DAYS):
        return {"rank": None, "reason": Ineligible.INACTIVE.value}
    # compare with the same float expression the database orders by
    mine_ordinal = (await db.execute(select(_ordinal()).where(PlayerRating.id == row.id))).scalar_one()
    better = (await db.execute(select(func.count()).select_from(PlayerRating)
                               .join(User, User.id == PlayerRating.user_id)
                               .where(*_eligible(game, now), _ordinal() > mine_ordinal))).scalar_one()
    return {"rank": better + 1, "ordinal": Rating(row.mu, row.sigma).ordinal,
            "shown": shown(Rating(row.mu, row.sigma)), "reason": None}
