"""Fuzz the WebSocket (hypothesis): malformed, oversized, out-of-turn and forged messages from a
seated player and from an anonymous watcher. Every frame gets exactly one ``error`` answer, the
socket stays usable, the server does not crash and the table does not change (same seq, same
logged actions, same view).

The table: doppelkopf, the player at seat 0 and three computer players, waiting for seat 0 to
declare (computer players think 0 s, so the table stands still at seat 0's turn).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from app.guard.ratelimit import Policy, RateLimits
from tests.platform_helpers import make_app, settings_for

ORIGIN = {"Origin": "http://testserver"}
CARDS = ["QC", "JD", "AH", "10H", "KS", "9D", "XX", "", "QC QC"]
TYPES = ["play", "declare", "announce", "bid", "pass", "reveal", "hello", "action", "", "PLAY"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)

actions = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES) | st.text(max_size=10)},
    optional={"card": st.sampled_from(CARDS) | json_values,
              "value": st.sampled_from(["healthy", "reservation", "re", "contra", "solo"])
              | json_values,
              "seat": st.integers(-2, 6) | st.text(max_size=3) | st.none(),
              "cards": st.lists(st.sampled_from(CARDS), max_size=3),
              "extra": json_values})

frames = st.one_of(
    st.text(max_size=200),                                         # not JSON, mostly
    json_values.map(json.dumps),                                   # JSON that is no message
    actions.map(lambda a: json.dumps({"type": "action", "action": a})),  # refused actions
    json_values.map(lambda v: json.dumps({"type": "action", "action": v})),
    st.fixed_dictionaries({"type": st.just("hello"),
                           "table": st.text(max_size=5) | st.floats(allow_nan=False),
                           "last_seq": st.integers(max_value=-1)}).map(json.dumps),
    st.integers(4097, 6000).map(lambda n: json.dumps({"type": "ping", "pad": "x" * n})),
    st.just(json.dumps({"type": "ping", "extra": 1})),
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    # nobody may move while the fuzzer runs: no computer player takes over a seat whose socket
    # the flood closed (away_grace), however long hypothesis takes
    app = make_app(settings_for(tmp, away_grace=None),
                   limits=RateLimits({Policy.WS_MESSAGE: "100000/second"}))
    with TestClient(app) as client:
        csrf = client.get("/api/me").json()["csrf"]
        assert client.post("/api/guest", headers={"X-CSRF-Token": csrf}).status_code == 201
        table = client.post("/api/tables", json={"game": "doppelkopf", "bots": 3, "deals": 1},
                            headers={"X-CSRF-Token": csrf}).json()
        cookies = dict(client.cookies)
        with client.websocket_connect("/ws", headers=ORIGIN) as player:
            player.send_text(json.dumps({"type": "hello", "table": table["id"]}))
            message = player.receive_json()
            actor = app.state.services.rooms.actor(table["id"])
            # until seat 0 must act and every message so far (its own arrival too) is read
            while not ((message.get("state", {}).get("view") or {}).get("to_move") == 0
                       and message["seq"] == actor.seq):
                message = player.receive_json()
            client.cookies.clear()  # the watcher is anonymous
            with client.websocket_connect("/ws", headers=ORIGIN) as watcher:
                watcher.send_text(json.dumps({"type": "hello", "table": table["id"]}))
                assert watcher.receive_json()["type"] == "snapshot"
                client.cookies.update(cookies)
                yield {"player": player, "watcher": watcher, "actor": actor,
                       "seq": actor.seq, "actions": list(actor.progress.current.actions),
                       "view": message["state"]["view"], "legal": message["state"]["view"]["legal"]}


def one_reply(ws) -> dict:
    return ws.receive_json()


def is_legal(frame: str, legal: list[dict]) -> bool:
    try:
        data = json.loads(frame)
    except ValueError:
        return False
    if not isinstance(data, dict) or data.get("type") != "action":
        return False
    action = data.get("action")
    if not isinstance(action, dict):
        return False
    bare = {k: v for k, v in action.items() if k != "seat"}
    return any(bare == {k: v for k, v in a.items() if k != "seat"} for a in legal)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(batch=st.lists(st.tuples(st.booleans(), frames), min_size=1, max_size=8))
def test_hostile_frames_get_errors_and_change_nothing(site, batch):
    actor = site["actor"]
    for _as_player, frame in batch:
        assume(not is_legal(frame, site["legal"]))
    before_seq = actor.seq
    before_actions = list(actor.progress.current.actions)
    for as_player, frame in batch:
        ws = site["player"] if as_player else site["watcher"]
        ws.send_text(frame)
        reply = one_reply(ws)
        assert reply["type"] == "error", (frame, reply)
        assert reply["code"] in {"bad_message", "too_large", "illegal", "not_seated"}, reply
        assert len(reply["message"]) <= 200
    for ws in (site["player"], site["watcher"]):  # still answering, nothing else queued
        ws.send_text(json.dumps({"type": "ping"}))
        assert one_reply(ws)["type"] == "pong"
    assert actor.seq == before_seq
    assert actor.progress.current.actions == before_actions
    assert not actor.stopped.is_set()


def test_the_table_is_unchanged_after_the_fuzzing(site):
    """Runs after the fuzz test (same module fixture): the table is where it was."""
    actor = site["actor"]
    assert actor.seq == site["seq"]
    assert actor.progress.current.actions == site["actions"]
    view = actor.audiences.seat_view(0)
    view["round"] = site["view"]["round"]
    assert view == site["view"]
    site["player"].send_text(json.dumps({"type": "ping"}))
    assert one_reply(site["player"])["type"] == "pong"
