"""JSON API of the friend states beyond add/accept/remove (app/api/routes.py): decline, block,
unblock, and inviting a friend to one's table (a live notification in the friend's lobby)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.deps import Csrf, CurrentUser, ServicesDep, viewer
from app.i18n import N_
from app.lobby.friends import FriendError

router = APIRouter(prefix="/api/friends")


class NameBody(BaseModel):
    name: str = Field(max_length=64)


class InviteBody(BaseModel):
    name: str = Field(max_length=64)
    table: int


@router.post("/decline", dependencies=[Csrf])
async def decline(body: NameBody, services: ServicesDep, user: CurrentUser) -> dict[str, str]:
    await services.friends.decline(user.id, body.name)
    return {"status": "declined"}


@router.post("/block", dependencies=[Csrf])
async def block(body: NameBody, services: ServicesDep, user: CurrentUser) -> dict[str, str]:
    await services.friends.block(user.id, body.name)
    return {"status": "blocked"}


@router.post("/unblock", dependencies=[Csrf])
async def unblock(body: NameBody, services: ServicesDep, user: CurrentUser) -> dict[str, str]:
    await services.friends.unblock(user.id, body.name)
    return {"status": "unblocked"}


async def invite_friend(services, user, name: str, table_id: int) -> None:
    """Invite an accepted friend to the user's own table (FriendError / LobbyError)."""
    friend = await services.accounts.user_by_name(name.strip())
    if friend is None or not await services.friends.are_friends(user.id, friend.id):
        raise FriendError(N_("%(name)s is not your friend"), name=name.strip())
    await services.lobby.invite(viewer(user), table_id, friend.name)


@router.post("/invite", dependencies=[Csrf])
async def invite(body: InviteBody, services: ServicesDep, user: CurrentUser) -> dict[str, str]:
    await invite_friend(services, user, body.name, body.table)
    return {"status": "invited"}
