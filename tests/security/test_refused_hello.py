"""Bad input changes nothing: a hello to a table that is not there (or is private) is refused
with an error, and the connection stays where it was — attached to its table, in that table's
chat room (it used to be detached from both)."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from tests.test_attacks import ORIGIN, Person, new_app, post, register
from tests.test_chat_ws import chat_lines, error_of


def test_a_refused_hello_leaves_the_connection_at_its_table(tmp_path):
    with TestClient(new_app(tmp_path)) as client:
        alice, bob, carol = Person(client), Person(client), Person(client)
        for person, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            register(person, name)
        table = post(alice, "/api/tables", {"game": "doppelkopf", "bots": 2, "deals": 1}).json()
        assert post(bob, f"/api/tables/{table['id']}/join").status_code == 200
        private = post(carol, "/api/tables", {"game": "doppio", "opponents": "invited",
                                              "players": 2, "bots": 0}).json()
        with alice.websocket_connect("/ws", headers=ORIGIN) as wa, \
                bob.websocket_connect("/ws", headers=ORIGIN) as wb:
            for ws in (wa, wb):
                ws.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            for refused, code in ((table["id"] + 1000, "not_found"), (private["id"], "forbidden")):
                wa.send_text(json.dumps({"type": "hello", "table": refused}))
                assert error_of(wa)["code"] == code
            # still in the table's chat room (a connection in none is told so: chat_lines
            # fails on the error): alice's line reaches her and bob, and bob's reaches her
            wa.send_text(json.dumps({"type": "chat", "text": "still there"}))
            assert [x["text"] for x in chat_lines(wa)] == ["still there"]
            assert [(x["author"], x["text"]) for x in chat_lines(wb)] == [("alice", "still there")]
            wb.send_text(json.dumps({"type": "chat", "text": "yes"}))
            assert [(x["author"], x["text"]) for x in chat_lines(wa)] == [("bob", "yes")]
            # still attached to the table's actor: a well-formed move is judged there (a move
            # out of turn: "illegal"), where a connection at no table is told "not_seated"
            move = json.dumps({"type": "action", "action": {"type": "play", "card": "AD"}})
            with carol.websocket_connect("/ws", headers=ORIGIN) as nowhere:
                nowhere.send_text(move)
                assert error_of(nowhere)["code"] == "not_seated"
            wa.send_text(move)
            assert error_of(wa)["code"] == "illegal"
