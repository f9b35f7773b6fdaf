"""JSON API of match history, profiles, leaderboards and the replay frames (read-only)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from app.api.deps import MaybeUser, ServicesDep
from app.guard.fields import TableIdPath
from app.history.replay import replay_frames

router = APIRouter(prefix="/api")


@router.get("/players/{name}")
async def player(name: str, services: ServicesDep) -> dict[str, Any]:
    """A registered player's profile: per game played/won/win rate/rating with history."""
    return await services.history.profile(name)


@router.get("/players/{name}/matches")
async def player_matches(name: str, services: ServicesDep, limit: int = Query(20, ge=1, le=100),
                         offset: int = Query(0, ge=0, le=100_000)) -> dict[str, Any]:
    """A registered player's finished matches, newest first."""
    return await services.history.matches(name, limit=limit, offset=offset)


@router.get("/leaderboards/{game}")
async def game_leaderboard(game: str, services: ServicesDep, user: MaybeUser) -> dict[str, Any]:
    """Top 100 of ``game`` by conservative rating, and the asking player's own rank."""
    return await services.history.leaderboard(game, user.id if user else None)


@router.get("/tables/{table_id}/replay")
async def table_replay(table_id: TableIdPath, services: ServicesDep) -> dict[str, Any]:
    """The replay frames of a finished match (every hand shown); 409 while it is played.
    ``seats``: the players' names by seat; ``seat_info``: {"seat", "name", "bot"} by seat (the
    browser names computer players in its language); ``end``: how the match ends
    (app.rooms.match.EndCondition), as the table stated it."""
    document = await services.lobby.scenario(table_id)
    table = await services.lobby.table(None, table_id)
    return {"table": table_id, "seats": [s["name"] for s in table["seats"]],
            "seat_info": [{"seat": s["seat"], "name": s["name"], "bot": s.get("bot")}
                        for s in table["seats"]], "end": table["end"],
            **replay_frames(document)}
