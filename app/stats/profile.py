"""What a profile and ``GET /api/players/{name}/stats`` show: per game the figures (each with
what it rests on), the rating history, the analysis accuracy per match, and head to head.

Privacy (docs/statistics.md): the player sees every match of theirs counted; anybody else sees
the figures of public matches (Anyone tables) only, and the rating history's points of the
matches they may open (app.history.service.may_open). The analysis accuracy is the player's
own (an analysis is theirs to see, app/analysis/service.py). Head to head is between the two
people who played the matches: on the player's own profile against each friend, on another
player's profile against the viewer. A guest's statistics are the guest's own to see.

Charts never carry more than :data:`MOST_POINTS` points: a longer history is thinned evenly
(every k-th match, always the first and the last), so the page of a player with ten thousand
matches stays as small as one with a hundred.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Float, and_, cast, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Analysis, Friendship, Match, PlayerPair, PlayerStats, RatingChange, User
from app.games.registry import available_games
from app.history.service import find_player, may_open
from app.i18n import gettext
from app.ratings.display import shown
from app.ratings.model import Rating, is_provisional
from app.stats.facts import Counters, add, plugin_for
from app.stats.figures import GROUPS, game_figures
from app.stats.projection import PRIVATE, PUBLIC
from app.stats.source import aware

#: the most points a chart shows (a longer history is thinned evenly)
MOST_POINTS = 120
#: the head to head counters, in the order a table shows them
PAIR_COUNTERS = ("matches", "ahead", "level", "behind", "partner_deals", "partner_won",
                 "opponent_deals", "opponent_won", "opponent_lost")


async def player_stats(db: AsyncSession, name: str, *, viewer_id: int | None,
                       only: str | None = None, first: bool = False) -> dict[str, Any]:
    """``{"player", "own", "guest", "scope", "games": [{"game", "matches", "deals"}],
    "stats": {game: {"figures", "groups", "rating", "accuracy"}}, "head_to_head": [...]}``.

    ``scope``: ``all`` (the player's own view: private matches too) or ``public``. ``games``:
    every game with counted matches (most played first); ``stats`` holds every one of them, or
    only ``only``, or with ``first`` and no ``only`` only the first (``selected`` names the
    one shown). Raises HistoryError (404) for no such player, or another's guest.
    """
    user = await find_player(db, name, own_for=viewer_id)
    own = viewer_id == user.id
    scopes = (PUBLIC, PRIVATE) if own else (PUBLIC,)
    counts: dict[str, Counters] = {}
    for game, row_counts in (await db.execute(
            select(PlayerStats.game, PlayerStats.counts)
            .where(PlayerStats.user_id == user.id, PlayerStats.scope.in_(scopes)))).all():
        counts[game] = add(counts.get(game, {}), row_counts)
    order = available_games()
    games = sorted((g for g in counts if counts[g].get("matches") and g in order),
                   key=lambda g: (-counts[g]["matches"], order.index(g)))
    if only is None and first and games:
        only = games[0]
    stats = {}
    for game in games if only is None else [g for g in games if g == only]:
        figures = game_figures(plugin_for(game), counts[game])
        stats[game] = {
            "figures": figures,
            "groups": [{"group": group, "title": gettext(words),
                        "figures": [f for f in figures if f["group"] == group]}
                       for group, words in GROUPS.items() if any(f["group"] == group for f in figures)],
            "rating": await rating_history(db, user.id, game, viewer_id),
            "accuracy": await accuracy_history(db, user.id, game) if own else None,
        }
    return {"player": user.name, "own": own, "guest": user.is_guest,
            "scope": "all" if own else "public", "selected": only,
            "games": [{"game": g, "matches": counts[g]["matches"], "deals": counts[g].get("deals", 0)}
                      for g in games],
            "stats": stats,
            "head_to_head": await head_to_head(db, user.id, viewer_id, only)}


def _thinned(query: Any, order_by: Any) -> Any:
    """``query`` (a select) cut to at most MOST_POINTS rows, evenly: row n (from 1) of N is kept
    when (n - 1) is a multiple of ceil(N / MOST_POINTS), and the last row always. (N is counted
    by a subquery: ``count(*) over ()`` holds the whole history back, a third slower.)"""
    total = select(func.count()).select_from(query.subquery()).scalar_subquery()
    inner = query.add_columns(func.row_number().over(order_by=order_by).label("n"),
                              total.label("total")).subquery()
    step = (inner.c.total + MOST_POINTS - 1) // MOST_POINTS
    return select(inner).where(or_((inner.c.n - 1) % step == 0, inner.c.n == inner.c.total)
                               ).order_by(inner.c.n)


async def rating_history(db: AsyncSession, user_id: int, game: str,
                         viewer_id: int | None) -> dict[str, Any]:
    """The rating after the player's rated matches of ``game``, oldest first: ``{"total",
    "thinned", "points": [{"match", "table", "at", "t", "rating", "provisional", "replay",
    "label"}]}`` (``rating``: the number shown, 1500-based; ``t``: Unix seconds; ``label``: the replay
    link's words; ``total``: the player's rated matches of the game, as their rating says;
    ``thinned``: only some of them are points).

    The history is thinned evenly to at most MOST_POINTS matches (:func:`_thinned`, over the
    index on user, game and id alone); of those, ``viewer_id`` gets the points of the matches
    they may open (someone else does not see the points of private matches)."""
    history = (select(RatingChange.id)
               .where(RatingChange.user_id == user_id, RatingChange.game == game))
    kept = _thinned(history, RatingChange.id).subquery()
    rows = (await db.execute(
        select(RatingChange.match_id, RatingChange.created_at, RatingChange.mu,
               RatingChange.sigma, Match.table_id, kept.c.total)
        .join(kept, kept.c.id == RatingChange.id)
        .join(Match, Match.id == RatingChange.match_id)
        .where(may_open(user_id, viewer_id)).order_by(RatingChange.id))).all()
    words = gettext("Replay of match %(id)s", id="{id}")
    points = []
    for row in rows:
        at = aware(row.created_at)
        rating = Rating(row.mu, row.sigma)
        points.append({"match": row.match_id, "table": row.table_id, "at": at.isoformat(),
                       "t": int(at.timestamp()), "rating": shown(rating),
                       "provisional": is_provisional(rating),
                       "replay": f"/tables/{row.table_id}/replay",
                       "label": words.replace("{id}", str(row.match_id))})
    total = rows[0].total if rows else 0
    return {"total": total, "thinned": total > MOST_POINTS, "points": points}


async def accuracy_history(db: AsyncSession, user_id: int, game: str) -> dict[str, Any]:
    """The accuracy of each of the player's analysed matches of ``game`` (app/analysis:
    the share of decisions as good as the expert's, in %), oldest first: ``{"total",
    "points": [{"match", "table", "at", "t", "accuracy", "replay", "label"}]}`` (thinned in
    SQL, as analyses are few: they are asked for one by one)."""
    accuracy = cast(Analysis.result[("match", "accuracy")].as_float(), Float)
    query = (select(Analysis.match_id, Match.finished_at, Match.table_id,
                    accuracy.label("accuracy"))
             .join(Match, Match.id == Analysis.match_id)
             .where(Analysis.user_id == user_id, Analysis.status == "done", Match.game == game,
                    accuracy.is_not(None)))
    rows = (await db.execute(_thinned(query, (Match.finished_at, Match.id)))).all()
    words = gettext("Replay of match %(id)s", id="{id}")
    points = []
    for row in rows:
        at = aware(row.finished_at)
        points.append({"match": row.match_id, "table": row.table_id, "at": at.isoformat(),
                       "t": int(at.timestamp()), "accuracy": round(row.accuracy, 1),
                       "replay": f"/tables/{row.table_id}/replay",
                       "label": words.replace("{id}", str(row.match_id))})
    return {"total": rows[-1].total if rows else 0, "points": points}


async def head_to_head(db: AsyncSession, user_id: int, viewer_id: int | None,
                       only: str | None) -> list[dict[str, Any]]:
    """Head to head, always from the viewer's side: on the player's own profile the player
    against each friend, on another player's profile the viewer against that player (nobody
    sees a pair they are not part of). ``[{"player" (the other one), "game", "matches",
    "ahead", "level", "behind" (the viewer placed above, equal, below), "partner_deals",
    "partner_won", "opponent_deals", "opponent_won", "opponent_lost"}]``, most matches first;
    only pairs that played together (in game ``only`` if given)."""
    if viewer_id is None:
        return []
    if viewer_id == user_id:
        friend = select(func.coalesce(
            func.nullif(Friendship.requester_id, user_id), Friendship.addressee_id)).where(
            Friendship.accepted.is_(True),
            or_(Friendship.requester_id == user_id, Friendship.addressee_id == user_id))
        pairs = and_(PlayerPair.user_id == user_id, PlayerPair.other_id.in_(friend))
    else:
        pairs = and_(PlayerPair.user_id == viewer_id, PlayerPair.other_id == user_id)
    query = (select(PlayerPair.game, PlayerPair.counts, User.name)
             .join(User, User.id == PlayerPair.other_id).where(pairs))
    if only is not None:
        query = query.where(PlayerPair.game == only)
    rows = [(game, counts, name) for game, counts, name in (await db.execute(query)).all()
            if counts.get("matches")]
    rows.sort(key=lambda r: (-r[1]["matches"], r[2], r[0]))
    return [{"player": name, "game": game, **{c: counts.get(c, 0) for c in PAIR_COUNTERS}}
            for game, counts, name in rows]
