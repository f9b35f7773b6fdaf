"""Table and lobby chat over the WebSocket (app/chat/service.py wired in app/api/ws.py):
members of the room get each line, late joiners the history; the author comes from the
session, never the message; anonymous watchers read but cannot post; length and rate limits,
personal mute and report."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from tests.test_attacks import ORIGIN, Person, csrf, new_app, post, register


def chat_lines(ws) -> list[dict]:
    while True:
        message = ws.receive_json()
        if message["type"] == "chat":
            return message["lines"]
        if message["type"] == "error":
            raise AssertionError(message)


def error_of(ws) -> dict:
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return message


def test_table_chat_reaches_the_table_with_the_session_author_and_raw_text(tmp_path):
    app = new_app(tmp_path)
    with TestClient(app) as client:
        alice, bob, anon = Person(client), Person(client), Person(client)
        register(alice, "alice")
        register(bob, "bob")
        table = post(alice, "/api/tables", {"game": "doppelkopf", "bots": 2, "deals": 1}).json()
        assert post(bob, f"/api/tables/{table['id']}/join").status_code == 200
        with alice.websocket_connect("/ws", headers=ORIGIN) as wa, \
                bob.websocket_connect("/ws", headers=ORIGIN) as wb:
            for ws in (wa, wb):
                ws.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            wa.send_text(json.dumps({"type": "chat", "text": " <script>x</script>\u202e "}))
            for ws in (wa, wb):
                [line] = chat_lines(ws)
                assert line["author"] == "alice" and line["text"] == "<script>x</script>"
            with anon.websocket_connect("/ws", headers=ORIGIN) as wc:  # a late watcher
                wc.send_text(json.dumps({"type": "hello", "table": table["id"]}))
                assert [x["text"] for x in chat_lines(wc)] == ["<script>x</script>"]
                wc.send_text(json.dumps({"type": "chat", "text": "hi"}))
                assert error_of(wc)["code"] == "forbidden"
            wb.send_text(json.dumps({"type": "chat", "text": "x" * 201}))
            assert error_of(wb)["message"].startswith("chat line refused")
            wb.send_text(json.dumps({"type": "chat", "text": "hi", "author": "alice"}))
            assert error_of(wb)["code"] == "bad_message"  # no forging the author
            # personal mute: bob no longer sees alice; alice still sees herself
            wb.send_text(json.dumps({"type": "mute", "name": "alice"}))
            wa.send_text(json.dumps({"type": "chat", "text": "second"}))
            assert [x["text"] for x in chat_lines(wa)] == ["second"]
            wb.send_text(json.dumps({"type": "chat", "text": "from bob"}))
            assert [x["author"] for x in chat_lines(wb)] == ["bob"]  # not alice's "second"
            [seen] = chat_lines(wa)
            # report alice's first line, once
            first_id = 1
            wb.send_text(json.dumps({"type": "report", "line": first_id, "reason": "script"}))
            wb.send_text(json.dumps({"type": "report", "line": first_id}))
            assert "cannot report" in error_of(wb)["message"]
            reports = app.state.services.chat.chat.sink.reports
            assert [(r.line.author, r.reporter) for r in reports] == [("alice", "bob")]
            assert seen["author"] == "bob"


def test_lobby_chat_and_the_chat_rate_limit(tmp_path):
    app = new_app(tmp_path, chat_line="3 per 10 seconds")
    with TestClient(app) as client:
        alice, bob = Person(client), Person(client)
        register(alice, "alice")
        register(bob, "bob")
        with alice.websocket_connect("/ws", headers=ORIGIN) as wa, \
                bob.websocket_connect("/ws", headers=ORIGIN) as wb:
            for ws in (wa, wb):
                ws.send_text(json.dumps({"type": "hello", "table": None}))
                assert ws.receive_json()["type"] == "lobby"
            for n in range(3):
                wa.send_text(json.dumps({"type": "chat", "text": f"line {n}"}))
                assert [x["text"] for x in chat_lines(wb)] == [f"line {n}"]
            wa.send_text(json.dumps({"type": "chat", "text": "one too many"}))
            refused = error_of(wa)
            assert refused["code"] == "rate_limited" and "wait" in refused["message"]
        assert csrf(alice)
