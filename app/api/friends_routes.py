"""JSON API of friends under /api/friends: the listing (with who is online), add, accept,
remove, decline, block, unblock, and inviting a friend to one's table (a live notification in
the friend's lobby)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.deps import Csrf, CurrentUser, ServicesDep, viewer
from app.guard.fields import DbId
from app.i18n import N_
from app.lobby.friends import FriendError

router = APIRouter(prefix="/api/friends")


class NameBody(BaseModel):
    name: str = Field(max_length=64)


class InviteBody(BaseModel):
    name: str = Field(max_length=64)
    table: DbId


@router.get("")
async def friends(services: ServicesDep, user: CurrentUser) -> dict[str, list[str]]:
    return await services.friends.listing(user.id, await services.presence.online())


@router.post("", dependencies=[Csrf])
async def add_friend(body: NameBody, services: ServicesDep, user: CurrentUser) -> dict[str, str]:
    return {"status": await services.friends.add(user.id, body.name)}


#: The answers to a name that only change the relation: path (and Friends method) → status.
NAME_ACTIONS = {"accept": "accepted", "remove": "removed", "decline": "declined",
                "block": "blocked", "unblock": "unblocked"}


def _name_action(action: str, status: str):
    """POST /api/friends/<action> {name}: ``Friends.<action>(user, name)``, then ``status``."""

    async def answer(body: NameBody, services: ServicesDep, user: CurrentUser) -> dict[str, str]:
        await getattr(services.friends, action)(user.id, body.name)
        return {"status": status}

    answer.__name__ = f"{action}_friend"
    return answer


for _action, _status in NAME_ACTIONS.items():
    router.post(f"/{_action}", dependencies=[Csrf])(_name_action(_action, _status))


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
