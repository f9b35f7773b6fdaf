"""JSON API of tournaments (app/tournaments/service.py): the lists, one tournament with its
standings, rounds and tables, and the POSTs (CSRF like every POST) to create a private one,
register, leave, come back and cancel. Refusals are LobbyErrors: ``{"detail"}`` with their
status (app/main.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from app.api.deps import Csrf, CurrentUser, MaybeUser, ServicesDep, viewer
from app.guard.fields import InviteKey, TableIdPath
from app.tournaments.spec import parse_spec

router = APIRouter(prefix="/api/tournaments")


class KeyBody(BaseModel):
    """The invitation link's key of a private tournament (optional)."""

    model_config = ConfigDict(extra="forbid")
    key: InviteKey | None = None


@router.get("")
async def tournaments(services: ServicesDep, user: MaybeUser) -> dict[str, Any]:
    """``{"upcoming", "running", "finished"}``: each tournament's fields (Tournaments.summary)."""
    return await services.tournaments.list(viewer(user))


@router.get("/{tournament_id}")
async def tournament(tournament_id: TableIdPath, services: ServicesDep, user: MaybeUser,
                     key: InviteKey | None = None) -> dict[str, Any]:
    """One tournament: its fields, ``players`` (standings), ``rounds``, ``tables`` (arena),
    ``boards`` (duplicate). 404 when there is none or it is private to others."""
    return await services.tournaments.show(viewer(user), tournament_id, key)


@router.post("", dependencies=[Csrf], status_code=201)
async def create(request: Request, services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    """A private tournament for friends or invited players (TournamentSpec's fields as JSON;
    ``visibility`` "friends" or "invited"). 400 naming the field for bad values."""
    try:
        data = await request.json()
    except ValueError:
        data = None  # refused by parse_spec: not an object
    spec = parse_spec(data)
    return await services.tournaments.create(spec, viewer(user))


@router.post("/{tournament_id}/register", dependencies=[Csrf])
async def register(tournament_id: TableIdPath, services: ServicesDep, user: CurrentUser,
                   body: KeyBody | None = None) -> dict[str, Any]:
    await services.tournaments.register(viewer(user), tournament_id, body.key if body else None)
    return {"registered": True}


@router.post("/{tournament_id}/unregister", dependencies=[Csrf])
async def unregister(tournament_id: TableIdPath, services: ServicesDep,
                     user: CurrentUser) -> dict[str, Any]:
    """Before the start: unregister; while it runs: leave (results so far stay)."""
    return {"result": await services.tournaments.unregister(viewer(user), tournament_id)}


@router.post("/{tournament_id}/resume", dependencies=[Csrf])
async def resume(tournament_id: TableIdPath, services: ServicesDep,
                 user: CurrentUser) -> dict[str, Any]:
    return {"result": await services.tournaments.resume(viewer(user), tournament_id)}


@router.post("/{tournament_id}/cancel", dependencies=[Csrf])
async def cancel(tournament_id: TableIdPath, services: ServicesDep,
                 user: CurrentUser) -> dict[str, Any]:
    """The owner cancels their private tournament."""
    await services.tournaments.cancel(tournament_id, viewer(user))
    return {"cancelled": True}
