"""The WebSocket endpoint's own checks (Origin, size, schema) and the protocol models."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app import protocol
from tests.platform_helpers import make_app, settings_for


@pytest.mark.parametrize("text, reason", [
    ("{", "not valid JSON"),
    ('{"type": "shout"}', "type"),
    ('{"type": "hello", "table": "seven"}', "table"),
    ('{"type": "action", "action": "play QC"}', "action"),
    ('{"type": "hello", "table": 1, "extra": true}', "extra"),
])
def test_malformed_client_messages_are_refused_with_a_reason(text, reason):
    with pytest.raises(protocol.ProtocolError) as err:
        protocol.parse_client(text)
    assert reason in str(err.value)


def test_client_messages_parse_to_their_models():
    hello = protocol.parse_client('{"type": "hello", "table": 3, "last_seq": 9, "epoch": "e"}')
    assert (hello.table, hello.last_seq, hello.epoch) == (3, 9, "e")
    action = protocol.parse_client('{"type": "action", "action": {"type": "play", "card": "QC"}}')
    assert action.action == {"type": "play", "card": "QC"}


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(settings_for(tmp_path, ws_max_message=512))) as client:
        yield client


def guest(client: TestClient) -> None:
    csrf = client.get("/api/me").json()["csrf"]
    assert client.post("/api/guest", headers={"X-CSRF-Token": csrf}).status_code == 201


def test_foreign_origin_is_refused(client):
    """In the app the socket is closed before it is accepted (ASGI close, code 1008) ..."""
    with pytest.raises(WebSocketDisconnect) as err:
        with client.websocket_connect("/ws", headers={"Origin": "http://evil.example"}) as ws:
            ws.receive_json()
    assert err.value.code == 1008


def test_a_foreign_origin_gets_http_403_and_no_socket_from_the_real_server(tmp_path):
    """... which a real server (uvicorn) answers with HTTP 403 instead of the upgrade: the
    browser never has an open socket, so it sees no close code (docs/protocol.md)."""
    import asyncio

    import websockets

    from tests.platform_helpers import live_server

    async def connect(url: str, origin: str) -> int:
        try:
            async with websockets.connect(url, additional_headers={"Origin": origin}):
                return 101
        except websockets.InvalidStatus as err:
            return err.response.status_code

    with live_server(settings_for(tmp_path)) as site:
        ws_url = site.replace("http", "ws", 1) + "/ws"
        assert asyncio.run(connect(ws_url, "http://evil.example")) == 403
        assert asyncio.run(connect(ws_url, site)) == 101


def test_bad_frames_get_errors_and_the_socket_stays_usable(client):
    with client.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
        ws.send_text("not json")
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 600}))
        assert ws.receive_json()["code"] == "too_large"
        ws.send_text(json.dumps({"type": "action", "action": {"type": "play"}}))
        assert ws.receive_json()["code"] == "not_seated"
        ws.send_text(json.dumps({"type": "hello", "table": 999}))
        assert ws.receive_json()["code"] == "not_found"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json()["type"] == "pong"


def test_lobby_feed_lists_a_new_table_live(client):
    guest(client)
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "table": None}))
        first = ws.receive_json()
        assert first["type"] == "lobby" and first["tables"] == []
        csrf = client.get("/api/me").json()["csrf"]
        created = client.post("/api/tables", json={"game": "doppelkopf", "bots": 1},
                              headers={"X-CSRF-Token": csrf}).json()
        update = ws.receive_json()
        assert update["type"] == "lobby" and update["seq"] > first["seq"]
        assert [t["id"] for t in update["tables"]] == [created["id"]]


def test_table_snapshot_then_an_action_event_with_a_higher_seq(client):
    guest(client)
    csrf = client.get("/api/me").json()["csrf"]
    table = client.post("/api/tables", json={"game": "doppelkopf", "bots": 3, "deals": 1},
                        headers={"X-CSRF-Token": csrf}).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "table": table["id"]}))
        message = ws.receive_json()
        assert message["type"] == "snapshot" and message["state"]["you"] == 0
        while message["state"]["view"]["to_move"] != 0:
            message = ws.receive_json()
        legal = message["state"]["view"]["legal"]
        healthy = next(a for a in legal if a.get("value") == "healthy")
        ws.send_text(json.dumps({"type": "action", "action": {"type": "declare", "value": "healthy"}}))
        while True:
            reply = ws.receive_json()
            if reply["type"] == "event" and reply["action"] == healthy:
                break
        assert reply["seq"] > message["seq"]
        assert reply["state"]["view"]["declarations"][0] == "healthy"
