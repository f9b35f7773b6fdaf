"""The attack table of docs/security.md, wired rows: each attack through the real app (HTTP
routes, form posts, the WebSocket endpoint) and the defence that stops it."""

from __future__ import annotations

import json

import httpx
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.accounts.cookies import CSRF_COOKIE, SESSION_COOKIE
from app.guard.ratelimit import Policy, RateLimits
from tests.platform_helpers import make_app, settings_for

ORIGIN = {"Origin": "http://testserver"}


def new_app(tmp_path, **limits: str):
    policies = {Policy(k): v for k, v in limits.items()}
    return make_app(settings_for(tmp_path), limits=RateLimits(policies))


class Person:
    """One browser (its own cookie jar) on the one TestClient of the app: two TestClients
    would run two lifespans on two event loops."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar = httpx.Cookies()

    def _call(self, method: str, *args, **kwargs):
        self.client.cookies = self.jar
        try:
            return getattr(self.client, method)(*args, **kwargs)
        finally:
            self.jar = httpx.Cookies(self.client.cookies)

    def get(self, *args, **kwargs):
        return self._call("get", *args, **kwargs)

    def post(self, *args, **kwargs):
        return self._call("post", *args, **kwargs)

    def websocket_connect(self, *args, **kwargs):
        self.client.cookies = self.jar
        return self.client.websocket_connect(*args, **kwargs)

    @property
    def cookies(self) -> httpx.Cookies:
        return self.jar


@pytest.fixture
def app(tmp_path):
    return new_app(tmp_path)


@pytest.fixture
def people(app):
    with TestClient(app) as client:
        yield lambda: Person(client)


def csrf(client) -> str:
    return client.get("/api/me").json()["csrf"]


def post(client, path: str, body: dict | None = None):
    return client.post(path, json=body or {}, headers={"X-CSRF-Token": csrf(client)})


def register(client, name: str, password: str = "long enough") -> None:
    response = post(client, "/api/register", {"name": name, "password": password})
    assert response.status_code == 201, response.text


def until(ws, predicate, limit: int = 200) -> dict:
    for _ in range(limit):
        message = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("no such message")


# --- acting for another seat -------------------------------------------------------------------


def test_a_player_cannot_act_for_another_seat_over_the_websocket(people):
    alice, bob = people(), people()
    if True:
        register(alice, "alice")
        register(bob, "bob")
        table = post(alice, "/api/tables", {"game": "doppelkopf", "bots": 2, "deals": 1}).json()
        assert post(bob, f"/api/tables/{table['id']}/join").json() == {"seat": 1}
        with alice.websocket_connect("/ws", headers=ORIGIN) as wa, \
                bob.websocket_connect("/ws", headers=ORIGIN) as wb:
            wa.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            wb.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            # wait until it is alice's (seat 0's) turn, seen by bob
            seen = until(wb, lambda m: m.get("state", {}).get("view") is not None
                         and m["state"]["view"].get("to_move") == 0)
            assert seen["state"]["you"] == 1
            legal_for_0 = next(a for a in until(
                wa, lambda m: m.get("state", {}).get("view") is not None
                and m["state"]["view"].get("to_move") == 0)["state"]["view"]["legal"]
                if a["type"] != "announce")
            forged = {k: v for k, v in legal_for_0.items()}
            forged["seat"] = 0
            wb.send_text(json.dumps({"type": "action", "action": forged}))
            refused = until(wb, lambda m: m["type"] == "error")
            assert refused["code"] == "illegal" and "not your seat" in refused["message"]
            # without a seat field the action is bob's own, and it is not bob's turn
            wb.send_text(json.dumps({"type": "action", "action": {
                k: v for k, v in legal_for_0.items() if k != "seat"}}))
            refused = until(wb, lambda m: m["type"] == "error")
            assert refused["code"] == "illegal"
            # alice's own move with the same action is accepted
            wa.send_text(json.dumps({"type": "action", "action": {
                k: v for k, v in legal_for_0.items() if k != "seat"}}))
            accepted = until(wa, lambda m: m["type"] == "event" and m["action"] is not None)
            assert accepted["action"]["seat"] == 0
            assert accepted["seq"] == refused["seq"] + 1  # the refusals changed nothing


# --- joining a private table -------------------------------------------------------------------


def test_a_stranger_cannot_join_or_watch_an_invited_table(people):
    alice, bob, carol = people(), people(), people()
    if True:
        register(alice, "alice")
        register(bob, "bob")
        register(carol, "carol")
        table = post(alice, "/api/tables", {"game": "doppelkopf", "opponents": "invited",
                                            "invite": ["bob"], "bots": 1}).json()
        assert post(carol, f"/api/tables/{table['id']}/join").status_code == 403
        assert post(carol, f"/api/tables/{table['id']}/join", {"key": "guess"}).status_code == 403
        form = carol.post(f"/tables/{table['id']}/join", data={"csrf": csrf(carol), "key": ""})
        assert form.status_code in (403, 400) or "invited" in form.text
        after = alice.get(f"/api/tables/{table['id']}").json()
        assert [s["name"] for s in after["seats"]] == ["alice", "Computer 2 (beginner)"] or \
            after["free"] == 2
        with carol.websocket_connect("/ws", headers=ORIGIN) as ws:
            ws.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            assert ws.receive_json()["code"] == "forbidden"
            ws.send_text(json.dumps({"type": "hello", "table": table["id"], "key": table["secret"]}))
            assert ws.receive_json()["type"] == "snapshot"  # a link holder may look
        with bob.websocket_connect("/ws", headers=ORIGIN) as ws:  # invited: may look
            ws.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            assert ws.receive_json()["type"] == "snapshot"


def test_a_stranger_cannot_watch_a_friend_table(people):
    alice, carol = people(), people()
    if True:
        register(alice, "alice")
        register(carol, "carol")
        table = post(alice, "/api/tables", {"game": "doppelkopf", "opponents": "friend",
                                            "bots": 1}).json()
        assert post(carol, f"/api/tables/{table['id']}/join").status_code == 403
        with carol.websocket_connect("/ws", headers=ORIGIN) as ws:
            ws.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            assert ws.receive_json()["code"] == "forbidden"


# --- session cookies ---------------------------------------------------------------------------


def test_forged_session_cookie_is_ignored_over_http_and_websocket(app):
    with TestClient(app) as client:
        register(client, "alice")
        table = post(client, "/api/tables", {"game": "doppelkopf", "bots": 3, "deals": 1}).json()
        value = client.cookies.get(SESSION_COOKIE)
        sid, _, signature = value.rpartition(".")
        for forged in (sid[:-1] + ("A" if sid[-1] != "A" else "B") + "." + signature,
                       "1." + signature, "", "garbage"):
            client.cookies.set(SESSION_COOKIE, forged)
            assert client.get("/api/me").json()["user"] is None
            assert post(client, "/api/tables", {"game": "doppelkopf"}).status_code == 401
            with client.websocket_connect("/ws", headers=ORIGIN) as ws:
                ws.send_text(json.dumps({"type": "hello", "table": table["id"]}))
                snapshot = ws.receive_json()
                assert snapshot["type"] == "snapshot" and snapshot["state"]["you"] is None
                assert snapshot["state"]["view"]["hand"] == []


def test_replayed_session_cookie_is_dead_after_logout_and_after_login(app):
    with TestClient(app) as client:
        register(client, "alice")
        before_login = client.cookies.get(SESSION_COOKIE)
        assert post(client, "/api/logout").status_code == 200
        client.cookies.set(SESSION_COOKIE, before_login)  # replay the logged-out cookie
        assert client.get("/api/me").json()["user"] is None
        # session fixation: a cookie planted before the login does not become the session
        client.cookies.clear()
        post(client, "/api/guest")
        planted = client.cookies.get(SESSION_COOKIE)
        assert client.get("/api/me").json()["user"]["guest"] is True
        assert post(client, "/api/login", {"name": "alice", "password": "long enough"}).status_code == 200
        fresh = client.cookies.get(SESSION_COOKIE)
        assert fresh != planted and client.get("/api/me").json()["user"]["name"] == "alice"
        client.cookies.set(SESSION_COOKIE, planted)
        assert client.get("/api/me").json()["user"] is None


# --- cross-site form posts ---------------------------------------------------------------------


def test_cross_site_form_post_without_the_csrf_echo_is_refused(app):
    with TestClient(app) as victim:
        register(victim, "alice")
        evil = {"Origin": "http://evil.example", "Referer": "http://evil.example/x"}
        # the browser sends the victim's cookies, but the attacker cannot read the CSRF cookie
        for data in ({"game": "doppelkopf", "bots": "3"},
                     {"game": "doppelkopf", "bots": "3", "csrf": "attacker-own-token"}):
            response = victim.post("/tables", data=data, headers=evil, follow_redirects=False)
            assert response.status_code == 403
        for path, data in (("/logout", {}), ("/friends/add", {"name": "mallory"})):
            assert victim.post(path, data=data, headers=evil).status_code == 403
        assert victim.get("/api/me").json()["user"]["name"] == "alice"
        assert [t for t in victim.get("/api/tables").json() if t["mine"]] == []
        # the same form with the echo of the victim's own cookie works (the page's own form)
        ok = victim.post("/tables", data={"game": "doppelkopf", "bots": "3",
                                          "csrf": victim.cookies.get(CSRF_COOKIE)},
                         follow_redirects=False)
        assert ok.status_code == 303


# --- script in a name --------------------------------------------------------------------------


def test_script_in_a_name_is_refused_and_escaped_where_it_is_echoed(app):
    with TestClient(app) as client:
        response = post(client, "/api/register", {"name": "<script>x</script>",
                                                  "password": "long enough"})
        assert response.status_code == 400 and response.json()["field"] == "name"
        page = client.post("/register", data={"name": "<img src=x onerror=alert(1)>",
                                              "password": "long enough",
                                              "csrf": csrf(client)})
        assert page.status_code == 400
        assert "<img src=x" not in page.text and "&lt;img src=x" in page.text
        register(client, "alice")
        lobby = client.post("/tables", data={"game": "doppelkopf", "opponents": "invited",
                                             "invite": "<script>alert(1)</script>",
                                             "csrf": csrf(client)})
        assert lobby.status_code == 400
        assert "<script>alert(1)" not in lobby.text and "&lt;script&gt;alert(1)" in lobby.text


# --- brute force and floods --------------------------------------------------------------------


def test_login_brute_force_on_one_name_gets_429_before_the_password_is_checked(people):
    owner, attacker = people(), people()
    if True:
        register(owner, "alice", "the right one")
        for _ in range(5):
            wrong = post(attacker, "/api/login", {"name": "alice", "password": "guess"})
            assert wrong.status_code == 400
        locked = post(attacker, "/api/login", {"name": "alice", "password": "the right one"})
        assert locked.status_code == 429 and int(locked.headers["Retry-After"]) >= 1
        form = attacker.post("/login", data={"name": "alice", "password": "the right one",
                                             "csrf": csrf(attacker)})
        assert form.status_code == 429 and "Retry-After" in form.headers
        assert attacker.get("/api/me").json()["user"] is None


def test_login_spray_over_many_names_from_one_address_is_blocked(app):
    with TestClient(app) as attacker:
        codes = [post(attacker, "/api/login", {"name": f"user{i}", "password": "guess"}).status_code
                 for i in range(12)]
        assert codes == [400] * 10 + [429] * 2


def test_good_login_resets_the_name_count(tmp_path):
    app = new_app(tmp_path, login_name="3/minute")
    with TestClient(app) as client:
        register(client, "alice")
        for _ in range(2):
            assert post(client, "/api/login", {"name": "alice", "password": "nope"}).status_code == 400
        assert post(client, "/api/login", {"name": "alice", "password": "long enough"}).status_code == 200
        for _ in range(3):
            assert post(client, "/api/login", {"name": "alice", "password": "nope"}).status_code == 400
        assert post(client, "/api/login", {"name": "alice", "password": "nope"}).status_code == 429


def test_table_creation_spam_is_refused_per_account(tmp_path):
    app = new_app(tmp_path, table_create="2/hour")
    with TestClient(app) as client:
        register(client, "alice")
        made = [post(client, "/api/tables", {"game": "doppelkopf", "deals": 1})
                for _ in range(3)]  # open tables (one may play at one running table only)
        assert [r.status_code for r in made] == [201, 201, 429]
        assert int(made[2].headers["Retry-After"]) > 60
        form = client.post("/tables", data={"game": "doppelkopf", "csrf": csrf(client)})
        assert form.status_code == 429
        assert len([t for t in client.get("/api/tables").json() if t["mine"]]) == 2


def test_a_flood_of_websocket_messages_is_refused_then_the_socket_is_closed(tmp_path):
    app = new_app(tmp_path, ws_message="20/minute")
    with TestClient(app) as client:
        with client.websocket_connect("/ws", headers=ORIGIN) as ws:
            replies = []
            for _ in range(20):
                ws.send_text(json.dumps({"type": "ping"}))
                replies.append(ws.receive_json()["type"])
            assert replies == ["pong"] * 20
            ws.send_text(json.dumps({"type": "ping"}))
            refused = ws.receive_json()
            assert refused["code"] == "rate_limited" and "wait" in refused["message"]
            codes = []
            with pytest.raises(WebSocketDisconnect):
                for _ in range(200):
                    ws.send_text(json.dumps({"type": "ping"}))
                    codes.append(ws.receive_json())
            assert codes[-1] == {"type": "closed", "seq": codes[-1]["seq"], "reason": "flood",
                                 "reconnect": False}
            assert all(m.get("code") == "rate_limited" for m in codes[:-1])
        with client.websocket_connect("/ws", headers=ORIGIN) as ws:  # a new socket, a new count
            ws.send_text(json.dumps({"type": "ping"}))
            assert ws.receive_json()["type"] == "pong"


def test_oversized_and_malformed_frames_get_short_errors_without_echo(app):
    with TestClient(app) as client, client.websocket_connect("/ws", headers=ORIGIN) as ws:
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
        big = ws.receive_json()
        assert big["code"] == "too_large" and len(big["message"]) < 80
        marker = "<script>EVIL" * 5
        for text in (json.dumps({"type": "hello", "table": marker}),
                     json.dumps({"type": marker}), json.dumps({"type": "hello", "epoch": marker * 9}),
                     "[" * 3000, marker):
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["code"] == "bad_message", reply
            assert "EVIL" not in reply["message"] and len(reply["message"]) <= 200
        ws.send_text(json.dumps({marker * 9: 1, "type": "ping"}))  # a field name is cut short
        reply = ws.receive_json()
        assert reply["code"] == "bad_message" and len(reply["message"]) <= 200
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json()["type"] == "pong"
