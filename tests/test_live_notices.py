"""Live notices (app/lobby/notices.py): a friend request, its acceptance, an invitation and a
friend coming online reach every open page of the person — the lobby and a table — in one
process, and across two processes sharing Redis (the person's socket on the other one)."""

from __future__ import annotations

import asyncio
import json

import httpx

from app.lobby.notices import Notices
from app.rooms.connection import Connection
from tests.test_history import registered
from tests.test_two_processes import User, cluster  # noqa: F401


def notices_of(conn: Connection) -> list[dict]:
    return [m for m in conn.pending() if m.get("type", "").startswith(("friend_", "invite"))]


async def test_notices_reach_the_lobby_and_the_table_of_the_person(app, new_client):
    services = app.state.services
    ann, ben = await registered(new_client, "ann"), await registered(new_client, "ben")
    ben_id = (await ben.get("/api/me")).json()["user"]["id"]
    ann_id = (await ann.get("/api/me")).json()["user"]["id"]
    lobby_page, table_page = Connection(ben_id), Connection(ben_id)
    services.hub.track(lobby_page)
    services.hub.track(table_page)
    ann_page = Connection(ann_id)
    services.hub.track(ann_page)
    await ann.post("/api/friends", {"name": "ben"})
    for page in (lobby_page, table_page):
        assert [(n["type"], n["from"]) for n in notices_of(page)] == [("friend_request", "ann")]
    assert (await ben.post("/api/friends/accept", {"name": "ann"})).status_code == 200
    assert [(n["type"], n["from"]) for n in notices_of(ann_page)] == [("friend_accepted", "ben")]
    table = (await ann.post("/api/tables", {"game": "doppelkopf", "opponents": "invited",
                                            "invite": ["ben"], "bots": 2})).json()
    for page in (lobby_page, table_page):
        # the request answered (from every page of ben's: friend_request_over), then the invitation
        over, invite = notices_of(page)
        assert (over["type"], over["from"]) == ("friend_request_over", "ann")
        assert (invite["type"], invite["table"], invite["from"]) == ("invite", table["id"], "ann")
    services.hub.untrack(table_page)  # the table page closed
    await services.notices.send(ben_id, {"type": "friend_online", "name": "ann"})
    assert notices_of(table_page) == [] and len(notices_of(lobby_page)) == 1


async def test_an_invitation_is_listed_until_answered_and_the_owner_hears_the_answer(app, new_client):
    """GET /api/invitations lists the open tables one is invited to with their words; Decline
    withdraws it and tells the owner; Join tells the owner too; a table that closes tells
    those still invited (``invite_over``)."""
    services = app.state.services
    ann, ben, cid = [await registered(new_client, name) for name in ("ann", "ben", "cid")]
    ids = {name: (await client.get("/api/me")).json()["user"]["id"]
           for name, client in (("ann", ann), ("ben", ben), ("cid", cid))}
    pages = {name: Connection(user_id) for name, user_id in ids.items()}
    for page in pages.values():
        services.hub.track(page)
    table = (await ann.post("/api/tables", {"game": "doppelkopf", "opponents": "invited",
                                            "invite": ["ben", "cid"], "bots": 1})).json()
    (listed,) = (await ben.get("/api/invitations")).json()["invitations"]
    assert (listed["table"], listed["from"], listed["free"]) == (table["id"], "ann", 2)
    assert listed["words"]["game"] == "Doppelkopf" and listed["words"]["seats"] == "2 of 4 seats free"
    notices_of(pages["ann"])
    assert (await ben.post(f"/api/tables/{table['id']}/decline", {})).status_code == 200
    assert (await ben.get("/api/invitations")).json()["invitations"] == []
    assert [(n["type"], n["from"], n["answer"]) for n in notices_of(pages["ann"])] == [
        ("invite_answer", "ben", "declined")]
    assert (await ben.post(f"/api/tables/{table['id']}/decline", {})).status_code == 404
    assert (await ben.post(f"/api/tables/{table['id']}/join", {})).status_code == 403  # withdrawn
    assert (await cid.post(f"/api/tables/{table['id']}/join", {})).status_code == 200
    assert [(n["type"], n["answer"]) for n in notices_of(pages["ann"])] == [("invite_answer", "accepted")]
    assert (await cid.get("/api/invitations")).json()["invitations"] == []  # seated
    other = (await ann.post("/api/tables", {"game": "doppelkopf", "opponents": "invited",
                                            "invite": ["ben"], "bots": 1})).json()
    notices_of(pages["ben"])
    assert (await ann.post(f"/api/tables/{other['id']}/leave", {})).json()["how"] == "closed"
    assert [(n["type"], n["table"]) for n in notices_of(pages["ben"])] == [("invite_over", other["id"])]
    assert (await ben.get("/api/invitations")).json()["invitations"] == []


async def test_a_friend_coming_online_is_told_once_per_quiet_time(app):
    now = [0.0]
    sent: list[tuple[int, dict]] = []

    class Friends:
        async def friend_ids(self, user_id):
            return {7, 8}

    async def publish(user_id, notice):
        sent.append((user_id, notice))

    notices = Notices(None, Friends(), publish, online_quiet=600, now_fn=lambda: now[0])
    await notices.came_online(1, "ann")
    now[0] = 30  # a page change: no second notice
    await notices.came_online(1, "ann")
    assert sorted(u for u, _ in sent) == [7, 8]
    assert {n["type"] for _, n in sent} == {"friend_online"}
    now[0] = 700
    await notices.came_online(1, "ann")
    assert len(sent) == 4


async def test_a_friend_request_reaches_a_person_on_the_other_process(cluster):  # noqa: F811
    import websockets

    nodes, _redis, _prefix = cluster
    bases = [n.url for n in nodes]
    ann, ben = User(httpx.AsyncClient(timeout=30)), User(httpx.AsyncClient(timeout=30))
    for user, name, base in ((ann, "ann", bases[0]), (ben, "ben", bases[1])):
        made = await user.post(base, "/api/register", {"name": name, "password": "long enough"})
        assert made.status_code == 201, made.text
    ws_url = bases[1].replace("http", "ws", 1) + "/ws"
    async with websockets.connect(ws_url, additional_headers={"Cookie": ben.cookie()}) as ws:
        await ws.send(json.dumps({"type": "hello", "table": None}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "lobby"
        assert (await ann.post(bases[0], "/api/friends", {"name": "ben"})).status_code == 200
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if message["type"] == "friend_request":
                assert message["from"] == "ann"
                break
    for user in (ann, ben):
        await user.client.aclose()
