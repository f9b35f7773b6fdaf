"""JSON API of "Play now" (app/lobby/playnow.py): queue, leave, and where one was seated."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from app.api.deps import Csrf, CurrentUser, ServicesDep
from app.i18n.errors import localized
from app.lobby.matchmaking import AlreadyQueued, AlreadySeated, MatchmakingError

router = APIRouter(prefix="/api/play-now")


class PlayNowBody(BaseModel):
    game: str = Field(default="doppelkopf", max_length=32)
    preset: str | None = Field(default=None, max_length=32)
    seats: int | None = Field(default=None, ge=2, le=4)


@router.post("", dependencies=[Csrf])
async def play_now(body: PlayNowBody, services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    """Wait for a table of ``game``; 409 when already waiting or seated, 400 for a bad game."""
    try:
        return await services.play_now.join(user.id, body.game, body.preset, body.seats)
    except (AlreadyQueued, AlreadySeated) as err:
        raise HTTPException(409, localized(err)) from None
    except MatchmakingError as err:
        raise HTTPException(400, localized(err)) from None


@router.post("/leave", dependencies=[Csrf])
async def leave(services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    return {"left": await services.play_now.leave(user.id)}


@router.get("/waiting")
async def waiting(services: ServicesDep) -> dict[str, Any]:
    """``{"waiting": {game: people}}``: how many wait in Play now per game (the lobby)."""
    return {"waiting": await services.play_now.waiting_counts()}


@router.get("")
async def status(services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    """``{"queued", "table", ...}``: ``table`` is set once the queue seated the user."""
    return await services.play_now.status(user.id)
