"""The JSON API under /api. Thin: each route translates HTTP to one service call and back.

Every POST/DELETE needs the CSRF echo (header X-CSRF-Token = the dr_csrf cookie).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from app.accounts.cookies import SESSION_COOKIE
from app.api.deps import (
    Csrf,
    CurrentUser,
    MaybeUser,
    ServicesDep,
    check_signup,
    check_table_creation,
    login_decision,
    login_succeeded,
    start_session,
    too_many,
    viewer,
)
from app.api.friends_routes import NameBody
from app.guard.fields import InviteKey, TableIdPath
from app.guard.ratelimit import Policy
from app.i18n.names import invitation_words
from app.lobby.service import NewTable

router = APIRouter(prefix="/api")


class Credentials(BaseModel):
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


class JoinBody(BaseModel):
    key: InviteKey | None = None


def user_json(user) -> dict[str, Any] | None:
    return None if user is None else {"id": user.id, "name": user.name, "guest": user.is_guest}


@router.get("/me")
async def me(request: Request, user: MaybeUser, services: ServicesDep) -> dict[str, Any]:
    """The logged-in user (or null), the CSRF token to echo and ``playing``: the running table
    where the user plays (one live seat per person), else null."""
    playing = await services.lobby.playing_at(user.id) if user is not None else None
    return {"user": user_json(user), "csrf": request.state.csrf, "playing": playing}


@router.post("/register", status_code=201, dependencies=[Csrf])
async def register(body: Credentials, request: Request, response: Response,
                   services: ServicesDep, user: MaybeUser) -> dict[str, Any]:
    """Create an account; a guest who registers keeps its games. At most
    Policy.REGISTER_ADDRESS per address (429)."""
    decision = check_signup(request, services, Policy.REGISTER_ADDRESS)
    if not decision.allowed:
        raise too_many(decision, "new accounts")
    guest_id = user.id if user is not None and user.is_guest else None
    created = await services.accounts.register(body.name, body.password, guest_id=guest_id)
    await start_session(response, request, services, created)
    return {"user": user_json(created)}


@router.post("/login", dependencies=[Csrf])
async def login(body: Credentials, request: Request, response: Response,
                services: ServicesDep) -> dict[str, Any]:
    decision = login_decision(request, services, body.name)
    if not decision.allowed:
        raise too_many(decision, "login attempts")
    user = await services.accounts.authenticate(body.name, body.password)
    login_succeeded(services, body.name)
    await start_session(response, request, services, user)
    return {"user": user_json(user)}


@router.post("/guest", status_code=201, dependencies=[Csrf])
async def guest(request: Request, response: Response, services: ServicesDep) -> dict[str, Any]:
    """A new guest. At most Policy.GUEST_ADDRESS per address (429)."""
    decision = check_signup(request, services, Policy.GUEST_ADDRESS)
    if not decision.allowed:
        raise too_many(decision, "new guests")
    user = await services.accounts.create_guest()
    await start_session(response, request, services, user)
    return {"user": user_json(user)}


@router.post("/logout", dependencies=[Csrf])
async def logout(request: Request, response: Response, services: ServicesDep) -> dict[str, Any]:
    sid = services.signer.unsign(request.cookies.get(SESSION_COOKIE))
    if sid is not None:
        await services.accounts.close_session(sid)
    response.delete_cookie(SESSION_COOKIE)
    return {"user": None}


@router.get("/games")
async def games(services: ServicesDep) -> list[dict[str, Any]]:
    return services.lobby.games()


@router.get("/tables")
async def tables(services: ServicesDep, user: MaybeUser) -> list[dict[str, Any]]:
    return await services.lobby.open_tables(viewer(user))


@router.post("/tables", status_code=201, dependencies=[Csrf])
async def create_table(body: NewTable, request: Request, services: ServicesDep,
                       user: CurrentUser) -> dict[str, Any]:
    """New Game; the creator takes seat 0. At most Policy.TABLE_CREATE per account and
    TABLE_CREATE_ADDRESS per address (429)."""
    decision = check_table_creation(services, user, request)
    if not decision.allowed:
        raise too_many(decision, "new tables")
    return await services.lobby.create_table(viewer(user), body)


@router.get("/tables/{table_id}")
async def table(table_id: TableIdPath, services: ServicesDep, user: MaybeUser,
                key: InviteKey | None = None) -> dict[str, Any]:
    """The table, if the asker may see it (a private match: its players only); else 404."""
    return await services.lobby.visible_table(viewer(user), table_id, key)


@router.post("/tables/{table_id}/join", dependencies=[Csrf])
async def join(table_id: TableIdPath, body: JoinBody, services: ServicesDep,
               user: CurrentUser) -> dict[str, Any]:
    return {"seat": await services.lobby.join(viewer(user), table_id, body.key)}


@router.post("/tables/{table_id}/leave", dependencies=[Csrf])
async def leave(table_id: TableIdPath, services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    """Leave the table: an open table's seat, or a running match (a computer player of the
    table's level takes the seat; ``how``: ``left``, ``closed`` or ``handed_over``)."""
    return {"left": True, "how": await services.lobby.leave(viewer(user), table_id)}


@router.post("/tables/{table_id}/computer", dependencies=[Csrf])
async def add_computer(table_id: TableIdPath, services: ServicesDep,
                       user: CurrentUser) -> dict[str, Any]:
    """The owner of an open table puts a computer player (the table's level) on a free seat."""
    return {"seat": await services.lobby.add_computer(viewer(user), table_id)}


@router.post("/tables/{table_id}/invite", dependencies=[Csrf])
async def invite(table_id: TableIdPath, body: NameBody, services: ServicesDep,
                 user: CurrentUser) -> dict[str, Any]:
    await services.lobby.invite(viewer(user), table_id, body.name)
    return {"invited": body.name}


@router.post("/tables/{table_id}/decline", dependencies=[Csrf])
async def decline(table_id: TableIdPath, services: ServicesDep, user: CurrentUser) -> dict[str, Any]:
    """Decline an invitation to the table (its owner is told: ``invite_answer``)."""
    await services.lobby.decline(viewer(user), table_id)
    return {"declined": table_id}


@router.get("/invitations")
async def invitations(services: ServicesDep, user: MaybeUser) -> dict[str, Any]:
    """The open tables the asker is invited to and has not answered (every page shows them,
    static/js/notices.js), each with ``words`` in the request's language: ``game``, ``rules``
    (preset, table mode, how the match ends) and ``seats`` ("2 of 4 seats free")."""
    if user is None:
        return {"invitations": []}
    found = await services.lobby.invitations(user.id)
    return {"invitations": [{**item, "words": invitation_words(item)} for item in found]}


@router.get("/tables/{table_id}/scenario")
async def scenario(table_id: TableIdPath, services: ServicesDep, user: MaybeUser) -> dict[str, Any]:
    """The table's match as a scenario document (replays with ``python -m app replay``); a
    private match's only to its players (404 for anyone else)."""
    return await services.lobby.scenario(table_id, viewer(user))


