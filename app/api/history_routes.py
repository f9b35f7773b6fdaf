"""JSON API of match history, profiles, leaderboards and the replay frames (read-only)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from app.api.deps import MaybeUser, ServicesDep, viewer
from app.guard.fields import TableIdPath
from app.history.replay import replay_frames

router = APIRouter(prefix="/api")


@router.get("/players/{name}")
async def player(name: str, services: ServicesDep, user: MaybeUser) -> dict[str, Any]:
    """A registered player's profile: per game played/won/win rate/rating with history; its
    recent matches only those the asker may open."""
    return await services.history.profile(name, viewer_id=user.id if user else None)


@router.get("/players/{name}/stats")
async def player_stats(name: str, services: ServicesDep, user: MaybeUser) -> dict[str, Any]:
    """A player's statistics per game (app/stats/profile.py): each figure with the matches or
    deals it rests on, the rating history, head to head; the player sees their private matches
    counted too, anybody else those at Anyone tables only; a guest's are the guest's own."""
    return await services.stats.player(name, viewer_id=user.id if user else None)


@router.get("/players/{name}/matches")
async def player_matches(name: str, services: ServicesDep, user: MaybeUser,
                         limit: int = Query(20, ge=1, le=100),
                         offset: int = Query(0, ge=0, le=100_000)) -> dict[str, Any]:
    """A registered player's finished matches that the asker may open, newest first."""
    return await services.history.matches(name, limit=limit, offset=offset,
                                          viewer_id=user.id if user else None)


@router.get("/leaderboards/{game}")
async def game_leaderboard(game: str, services: ServicesDep, user: MaybeUser,
                           board: str = Query("rating", max_length=16)) -> dict[str, Any]:
    """Top 100 of ``game`` by conservative rating, and the asking player's own rank; or with
    ``board`` ``week``, ``month``, ``all`` the most matches won in that period, ``new`` the new
    players by rating (app/stats/boards.py)."""
    if board == "rating":
        return await services.history.leaderboard(game, user.id if user else None)
    return await services.stats.board(game, board, viewer_id=user.id if user else None)


@router.get("/tables/{table_id}/replay")
async def table_replay(table_id: TableIdPath, services: ServicesDep,
                       user: MaybeUser) -> dict[str, Any]:
    """The replay frames of a finished match (every hand shown); 409 while it is played; a
    private match's only to its players (404 for anyone else).
    ``seats``: the players' names by seat; ``seat_info``: {"seat", "name", "bot"} by seat (the
    browser names computer players in its language); ``end``: how the match ends
    (app.rooms.match.EndCondition), as the table stated it."""
    table = await services.lobby.visible_table(viewer(user), table_id)
    document = await services.lobby.scenario(table_id, check=False)
    return {"table": table_id, "seats": [s["name"] for s in table["seats"]],
            "seat_info": [{"seat": s["seat"], "name": s["name"], "bot": s.get("bot")}
                        for s in table["seats"]], "end": table["end"],
            **replay_frames(document)}
