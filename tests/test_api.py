"""The JSON API over httpx's ASGI transport: accounts, guests, the lobby and who may join."""

from __future__ import annotations

import httpx
import pytest

from app.accounts.cookies import SESSION_COOKIE
from tests.platform_helpers import Api, make_app, settings_for


@pytest.fixture
async def app(tmp_path):
    app = make_app(settings_for(tmp_path))
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
def new_client(app):
    clients = []

    def make() -> Api:
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
        clients.append(client)
        return Api(client)

    yield make


async def registered(new_client, name: str) -> Api:
    api = new_client()
    response = await api.post("/api/register", {"name": name, "password": "long enough"})
    assert response.status_code == 201, response.text
    return api


async def test_register_login_logout(new_client):
    alice = await registered(new_client, "alice")
    me = (await alice.get("/api/me")).json()["user"]
    assert me["name"] == "alice" and me["guest"] is False
    assert (await new_client().post("/api/register", {"name": "alice", "password": "long enough"})).status_code == 400

    other = new_client()
    wrong = await other.post("/api/login", {"name": "alice", "password": "wrong password"})
    assert wrong.status_code == 400
    assert (await other.get("/api/me")).json()["user"] is None
    ok = await other.post("/api/login", {"name": "alice", "password": "long enough"})
    assert ok.status_code == 200
    first_cookie = other.client.cookies.get(SESSION_COOKIE)
    again = await other.post("/api/login", {"name": "alice", "password": "long enough"})
    assert again.status_code == 200
    assert other.client.cookies.get(SESSION_COOKIE) != first_cookie  # a new session per login

    assert (await other.post("/api/logout")).status_code == 200
    assert (await other.get("/api/me")).json()["user"] is None
    stale = new_client()
    stale.client.cookies.set(SESSION_COOKIE, first_cookie)
    assert (await stale.get("/api/me")).json()["user"] is None  # the old session is gone


async def test_session_cookie_is_httponly_and_lax(new_client):
    api = new_client()
    response = await api.post("/api/guest")
    cookie = next(v for k, v in response.headers.multi_items()
                  if k == "set-cookie" and v.startswith(SESSION_COOKIE))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie


async def test_post_without_csrf_token_is_refused(new_client):
    api = new_client()
    await api.csrf()
    response = await api.client.post("/api/guest", json={})
    assert response.status_code == 403
    forged = await api.client.post("/api/guest", json={}, headers={"X-CSRF-Token": "forged"})
    assert forged.status_code == 403


async def test_tampered_session_cookie_is_ignored(new_client):
    api = new_client()
    await api.post("/api/guest")
    value = api.client.cookies.get(SESSION_COOKIE)
    api.client.cookies.set(SESSION_COOKIE, value[:-2] + ("aa" if not value.endswith("aa") else "bb"))
    assert (await api.get("/api/me")).json()["user"] is None


async def test_guest_who_registers_keeps_their_games(new_client):
    guest = new_client()
    created = await guest.post("/api/guest")
    guest_user = created.json()["user"]
    assert guest_user["guest"] and guest_user["name"].startswith("Guest-")
    table = (await guest.post("/api/tables", {"game": "doppelkopf", "bots": 3, "deals": 1})).json()
    assert table["status"] == "playing"
    hidden = await guest.get(f"/api/tables/{table['id']}/scenario")
    assert hidden.status_code == 409  # it would show every hand while the match runs
    registered_user = (await guest.post("/api/register", {"name": "gustav", "password": "long enough"})).json()["user"]
    assert registered_user["id"] == guest_user["id"] and registered_user["guest"] is False
    # the running table is not among the open tables: /api/me names it (the lobby's banner)
    assert not [t for t in (await guest.get("/api/tables")).json() if t["mine"]]
    assert (await guest.get("/api/me")).json()["playing"] == table["id"]
    seats = (await guest.get(f"/api/tables/{table['id']}")).json()["seats"]
    assert seats[0]["name"] == "gustav"


async def test_invited_table_only_invitees_and_link_holders_join(new_client):
    alice, bob, carol, dave = [await registered(new_client, n) for n in ("alice", "bob", "carol", "dave")]
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "opponents": "invited",
                                              "invite": ["bob"], "bots": 1})).json()
    assert table["free"] == 2 and table["secret"]
    assert [t["id"] for t in (await carol.get("/api/tables")).json()] == []
    assert [t["id"] for t in (await bob.get("/api/tables")).json()] == [table["id"]]
    assert "secret" not in (await bob.get(f"/api/tables/{table['id']}")).json()

    refused = await carol.post(f"/api/tables/{table['id']}/join")
    assert refused.status_code == 403
    wrong_key = await carol.post(f"/api/tables/{table['id']}/join", {"key": "guess"})
    assert wrong_key.status_code == 403
    assert (await bob.post(f"/api/tables/{table['id']}/join")).json() == {"seat": 1}
    assert (await bob.post(f"/api/tables/{table['id']}/join")).status_code == 409
    by_link = await dave.post(f"/api/tables/{table['id']}/join", {"key": table["secret"]})
    assert by_link.json() == {"seat": 2}
    started = (await alice.get(f"/api/tables/{table['id']}")).json()
    assert started["status"] == "playing" and started["free"] == 0
    assert (await carol.post(f"/api/tables/{table['id']}/join", {"key": table["secret"]})).status_code == 409


async def test_friend_table_only_friends_join(new_client):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "opponents": "friend"})).json()
    assert (await bob.post(f"/api/tables/{table['id']}/join")).status_code == 403
    assert (await bob.get("/api/tables")).json() == []

    assert (await alice.post("/api/friends", {"name": "bob"})).json() == {"status": "requested"}
    assert (await bob.get("/api/friends")).json()["incoming"] == ["alice"]
    assert (await bob.post(f"/api/tables/{table['id']}/join")).status_code == 403  # not yet accepted
    assert (await bob.post("/api/friends/accept", {"name": "alice"})).status_code == 200
    assert (await alice.get("/api/friends")).json()["friends"] == ["bob"]
    assert [t["id"] for t in (await bob.get("/api/tables")).json()] == [table["id"]]
    assert (await bob.post(f"/api/tables/{table['id']}/join")).json() == {"seat": 1}

    await bob.post(f"/api/tables/{table['id']}/leave")
    await alice.post("/api/friends/remove", {"name": "bob"})
    assert (await bob.get("/api/friends")).json()["friends"] == []
    assert (await bob.post(f"/api/tables/{table['id']}/join")).status_code == 403


async def test_leave_before_start_and_owner_closes(new_client):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf"})).json()
    await bob.post(f"/api/tables/{table['id']}/join")
    assert (await bob.post(f"/api/tables/{table['id']}/leave")).status_code == 200
    assert (await alice.get(f"/api/tables/{table['id']}")).json()["free"] == 3
    assert (await bob.post(f"/api/tables/{table['id']}/leave")).status_code == 404
    assert (await alice.post(f"/api/tables/{table['id']}/leave")).status_code == 200
    assert (await alice.get(f"/api/tables/{table['id']}")).json()["status"] == "closed"
    assert (await bob.post(f"/api/tables/{table['id']}/join")).status_code == 409


async def test_new_game_rejects_unknown_game_preset_option_and_seats(new_client):
    alice = await registered(new_client, "alice")
    cases = [{"game": "chess"}, {"game": "doppelkopf", "preset": "nonsense"},
             {"game": "doppelkopf", "options": {"no_such_option": 1}},
             {"game": "doppelkopf", "players": 3}, {"game": "doppelkopf", "bots": 4},
             {"game": "doppelkopf", "deals": 0}, {"game": "doppelkopf", "opponents": "everyone"}]
    for body in cases:
        response = await alice.post("/api/tables", body)
        assert response.status_code in (400, 422), (body, response.status_code)
    assert (await alice.get("/api/tables")).json() == []


async def test_anonymous_cannot_open_a_table(new_client):
    api = new_client()
    assert (await api.post("/api/tables", {"game": "doppelkopf"})).status_code == 401


async def test_games_list_names_seat_counts_and_presets(new_client):
    games = {g["name"]: g for g in (await new_client().get("/api/games")).json()}
    assert games["doppelkopf"]["players"] == [4]
    assert "ddv" in games["doppelkopf"]["presets"]
