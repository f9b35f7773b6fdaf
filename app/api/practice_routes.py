"""JSON API of "Play from here" (app.lobby.practice): a private table that starts at a moment
of a finished match."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import (
    Csrf,
    CurrentUser,
    MaybeUser,
    ServicesDep,
    check_table_creation,
    too_many,
    viewer,
)
from app.guard.fields import TableIdPath
from app.i18n import N_
from app.lobby.service import LobbyError

router = APIRouter(prefix="/api")


class PlayFromHere(BaseModel):
    """The moment (``round``, ``index``: the replay's round and frame, 0-based), the seat the
    player takes and the level of the computer players."""

    model_config = ConfigDict(extra="forbid", strict=True)
    round: int = Field(ge=0, le=10_000)
    index: int = Field(ge=0, le=100_000)
    seat: int = Field(ge=0, le=7)
    level: Literal["beginner", "intermediate", "expert"] = "expert"


@router.post("/tables/{table_id}/practice", status_code=201, dependencies=[Csrf])
async def play_from_here(table_id: TableIdPath, body: PlayFromHere, request: Request,
                         services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    """Open a private table at a moment of table ``table_id``'s finished match: ``{"table":
    new id}``. 404 no table, not visible or no such moment; 409 not finished, the deal over
    at that moment, or playing elsewhere; 429 too many new tables (as New Game)."""
    decision = check_table_creation(services, user, request)
    if not decision.allowed:
        raise too_many(decision, "new tables")
    new_id = await services.practice.start(viewer(user), table_id, round_index=body.round,
                                           index=body.index, seat=body.seat, level=body.level)
    return {"table": new_id}


@router.get("/tables/{table_id}/practice")
async def practice_info(table_id: TableIdPath, services: ServicesDep,
                        user: MaybeUser) -> dict[str, Any]:
    """Where a practice table came from and both results of its deal (app.lobby.practice
    ``info``); 404 for a table that is not one, or that the asker may not see."""
    await services.lobby.visible_table(viewer(user), table_id)
    info = await services.practice.info(table_id)
    if info is None:
        raise LobbyError(N_("this table is not a practice table"), 404)
    return info
