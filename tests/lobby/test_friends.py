"""The friend state machine (requests, accept, decline, remove, block, unblock), online status,
inviting a friend from the lobby with a live notification, and Friend tables for friends only."""

from __future__ import annotations

import pytest

from app.lobby.friends import FriendError
from app.lobby.service import Viewer
from app.rooms.connection import Connection
from tests.platform_helpers import Api


async def registered(new_client, name: str) -> tuple[Api, int]:
    api = new_client()
    response = await api.post("/api/register", {"name": name, "password": "long enough"})
    assert response.status_code == 201
    return api, response.json()["user"]["id"]


async def state(friends, user_id: int) -> dict[str, list[str]]:
    listing = await friends.listing(user_id)
    return {k: v for k, v in listing.items() if v and k != "online"}


async def test_transitions(app, new_client):
    friends = app.state.services.friends
    (_, a), (_, b), (_, c) = [await registered(new_client, n) for n in ("ann", "ben", "cid")]

    # none -> requested -> declined (none)
    assert await friends.add(a, "ben") == "requested"
    assert await friends.add(a, "ben") == "requested"  # asking again changes nothing
    assert await state(friends, a) == {"outgoing": ["ben"]}
    assert await state(friends, b) == {"incoming": ["ann"]}
    with pytest.raises(FriendError):
        await friends.accept(a, "ben")  # only the one asked accepts
    with pytest.raises(FriendError):
        await friends.decline(a, "ben")
    await friends.decline(b, "ann")
    assert await state(friends, a) == {} and await state(friends, b) == {}
    with pytest.raises(FriendError):
        await friends.decline(b, "ann")  # nothing left to decline

    # requested -> withdrawn; requested -> accepted; asking back accepts
    await friends.add(a, "ben")
    await friends.remove(a, "ben")
    assert await state(friends, b) == {}
    await friends.add(a, "ben")
    await friends.accept(b, "ann")
    assert await friends.are_friends(a, b) and await friends.are_friends(b, a)
    with pytest.raises(FriendError):
        await friends.add(b, "ann")  # already friends
    with pytest.raises(FriendError):
        await friends.accept(b, "ann")  # no open request
    await friends.add(c, "ann")
    assert await friends.add(a, "cid") == "accepted"
    assert (await state(friends, a))["friends"] == ["ben", "cid"]

    # friends -> removed by either
    await friends.remove(b, "ann")
    assert not await friends.are_friends(a, b)

    # block ends the friendship and refuses requests either way until unblocked
    await friends.block(a, "cid")
    assert not await friends.are_friends(a, c)
    assert await state(friends, a) == {"blocked": ["cid"]}
    assert await state(friends, c) == {}
    for who, name in ((c, "ann"), (a, "cid")):
        with pytest.raises(FriendError):
            await friends.add(who, name)
    await friends.block(a, "cid")  # blocking twice is one block
    with pytest.raises(FriendError):
        await friends.unblock(c, "ann")  # only the blocker lifts it
    await friends.unblock(a, "cid")
    assert await state(friends, a) == {}
    assert await friends.add(c, "ann") == "requested"

    for bad in ("ann", "nobody"):
        with pytest.raises(FriendError):
            await friends.add(a, bad)  # oneself, unknown


async def test_guests_have_no_friends(app, new_client):
    friends = app.state.services.friends
    _, a = await registered(new_client, "ann")
    guest = new_client()
    g = (await guest.post("/api/guest")).json()["user"]
    with pytest.raises(FriendError):
        await friends.add(a, g["name"])
    with pytest.raises(FriendError):
        await friends.add(g["id"], "ann")


async def test_online_status_and_live_invitation_to_a_friends_table(app, new_client):
    services = app.state.services
    (ann, a), (ben, b), (cid, c) = [await registered(new_client, n) for n in ("ann", "ben", "cid")]
    await ann.post("/api/friends", {"name": "ben"})
    await ben.post("/api/friends/accept", {"name": "ann"})
    assert (await ann.get("/api/friends")).json()["online"] == []

    ben_lobby = Connection(b)  # ben has the lobby open (what /ws does on connect and hello)
    await services.presence.connected(b)
    await services.hub.subscribe(ben_lobby, Viewer(b, "ben"))
    assert (await ann.get("/api/friends")).json()["online"] == ["ben"]

    table = (await ann.post("/api/tables", {"game": "doppelkopf", "opponents": "friend"})).json()
    # friend tables: listed to ben (a friend), not to cid
    assert [t["id"] for t in (await ben.get("/api/tables")).json()] == [table["id"]]
    assert (await cid.get("/api/tables")).json() == []
    cid_lobby = Connection(c)
    await services.hub.subscribe(cid_lobby, Viewer(c, "cid"))
    assert [m["tables"] for m in cid_lobby.pending() if m["type"] == "lobby"][-1] == []

    ok = await ann.post("/api/friends/invite", {"name": "ben", "table": table["id"]})
    assert ok.status_code == 200, ok.text
    notices = [m for m in ben_lobby.pending() if m["type"] == "invite"]
    assert notices == [{"type": "invite", "table": table["id"], "game": "doppelkopf",
                        "from": "ann", "seq": notices[0]["seq"]}]
    assert not [m for m in cid_lobby.pending() if m["type"] == "invite"]
    refused = await ann.post("/api/friends/invite", {"name": "cid", "table": table["id"]})
    assert refused.status_code == 400  # not a friend
    assert (await ben.post(f"/api/tables/{table['id']}/join")).json() == {"seat": 1}

    # a blocked player cannot be invited, not even to an Invited table by name
    await cid.post("/api/friends/block", {"name": "ann"})
    invited = (await ann.post("/api/tables", {"game": "doppelkopf", "opponents": "invited"})).json()
    assert (await ann.post(f"/api/tables/{invited['id']}/invite", {"name": "cid"})).status_code == 403
    assert (await ann.post("/api/friends", {"name": "cid"})).status_code == 400

    # the lobby page shows presence and the invite form
    page = (await ann.get("/")).text
    assert 'data-friend="ben"' in page and "presence online" in page
    services.hub.unsubscribe(ben_lobby)  # ben's socket closes
    await services.presence.disconnected(b)
    assert (await ann.get("/api/friends")).json()["online"] == []


async def test_friend_forms_decline_and_block(app, new_client):
    (ann, _), (ben, _) = [await registered(new_client, n) for n in ("ann", "ben")]
    await ann.post("/api/friends", {"name": "ben"})
    csrf = await ben.csrf()
    response = await ben.client.post("/friends/decline", data={"csrf": csrf, "name": "ann"})
    assert response.status_code == 303
    assert (await ben.get("/api/friends")).json()["incoming"] == []
    response = await ben.client.post("/friends/block", data={"csrf": csrf, "name": "ann"})
    assert response.status_code == 303
    assert (await ben.get("/api/friends")).json()["blocked"] == ["ann"]
