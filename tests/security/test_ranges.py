"""Issue 17 (5): every id, option and number from outside has a documented range, checked where
it enters (app/guard/fields.py, the games' option ranges): no route answers a huge or negative
number with a 500, no socket is dropped for one, no table can be opened with an option the
database or the JSON encoder cannot hold; and the room logs an action only if what it causes
can be stored and sent."""

from __future__ import annotations

import json

import pytest
from fastapi.routing import APIRoute
from starlette.testclient import TestClient

from app.games.base import RulesError
from app.games.registry import get_game
from tests.platform_helpers import make_app, settings_for
from tests.security.test_action_shapes import _errors, _mover, _table
from tests.test_attacks import ORIGIN, Person, csrf, post, register

HUGE = ["9223372036854775808", "100000000000000000000000000000", "-1", "0", "1e309", "NaN"]


def api_routes(routes, prefix: str = ""):
    """Every APIRoute of an app or router (FastAPI keeps included routers nested)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield prefix, route
        elif hasattr(route, "original_router"):
            yield from api_routes(route.original_router.routes,
                                  prefix + route.include_context.prefix)


def _int_params(route: APIRoute) -> tuple[list[str], list[str]]:
    def ints(params):
        return [p.name for p in params if p.field_info.annotation in (int, int | None)
                or "int" in str(p.field_info.annotation)]
    return ints(route.dependant.path_params), ints(route.dependant.query_params)


def test_every_route_answers_out_of_range_numbers_without_a_500(tmp_path):
    app = make_app(settings_for(tmp_path))
    with TestClient(app, raise_server_exceptions=False) as client:
        person = Person(client)
        register(person, "Rita")
        token = csrf(person)
        tried = 0
        for prefix, route in api_routes(app.routes):
            path_ints, query_ints = _int_params(route)
            if not path_ints and not query_ints:
                continue
            for value in HUGE:
                path = prefix + route.path
                for name in path_ints:
                    path = path.replace("{" + name + "}", value)
                path = path.replace("{name}", "Rita").replace("{game}", "doppelkopf")
                query = {name: value for name in query_ints}
                for method in route.methods:
                    response = person._call(method.lower(), path, params=query,
                                            **({"json": {}, "headers": {"X-CSRF-Token": token}}
                                               if method == "POST" else {}))
                    tried += 1
                    assert response.status_code < 500, (method, path, query,
                                                        response.status_code)
        assert tried > 40


def test_hello_with_an_out_of_range_table_id_is_refused_and_the_socket_stays(tmp_path):
    with TestClient(make_app(settings_for(tmp_path))) as client, \
            client.websocket_connect("/ws", headers=ORIGIN) as ws:
        for table in (2**63, 10**30, -1, 0):
            ws.send_text(json.dumps({"type": "hello", "table": table}))
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == "bad_message", answer
        ws.send_text(json.dumps({"type": "hello", "table": 5, "last_seq": 2**64}))
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json()["type"] == "pong"


def _numeric_options(game) -> set[str]:
    names = set()
    for preset in game.presets:
        rules = game.rules_json(game.make_rules({"preset": preset}))
        names |= {k for k, v in rules.items()
                  if isinstance(v, int | float) and not isinstance(v, bool)}
    return names


@pytest.mark.parametrize("game_name", ["doppelkopf", "doublehead_kids", "doppelganger_tricks",
                                       "doppio"])
def test_every_numeric_option_has_a_documented_range(game_name):
    game = get_game(game_name)
    ranges = getattr(game, "option_ranges", {})
    numeric = _numeric_options(game) | {"deals"} & set(ranges)
    assert _numeric_options(game) <= set(ranges), "an option without a documented range"
    for name in numeric:
        low, high = ranges[name]
        assert high <= 10**6 and low >= -(10**6)
        for preset in game.presets:
            game.make_rules({"preset": preset, name: low})
            game.make_rules({"preset": preset, name: high})
            for bad in (high + 1, low - 1, 10**30, -(10**30), 2**63, float("inf"), float("nan")):
                if isinstance(low, int) and isinstance(bad, float) and bad != bad:
                    pass
                with pytest.raises(RulesError):
                    game.make_rules({"preset": preset, name: bad})


def test_new_game_refuses_numbers_out_of_range(tmp_path):
    with TestClient(make_app(settings_for(tmp_path)), raise_server_exceptions=False) as client:
        person = Person(client)
        register(person, "Otto")
        bodies = [
            {"game": "doppio", "options": {"failure_penalty": 10**30}},
            {"game": "doppio", "options": {"game_end_total": 2**63}},
            {"game": "doppio", "options": {"doppio_max_value": -(10**30)}},
            {"game": "doublehead_kids", "options": {"target_coins": 10**30}},
            {"game": "doppelkopf", "options": {"deals": 10**30}},
            {"game": "doppelkopf", "deals": 10**30},
            {"game": "doppelkopf", "players": 2**63},
            {"game": "doppelkopf", "bots": 2**63},
            {"game": "doppelkopf", "options": {"nines": 10**30}},
            {"game": "doppelkopf", "options": {"x" * 5000: 1}},
            {"game": "doppelkopf", "options": {"solos": ["queens"] * 5000}},
        ]
        for body in bodies:
            response = post(person, "/api/tables", body)
            assert response.status_code in (400, 422), (body, response.status_code)
        raw = '{"game": "doppio", "options": {"catch_window_seconds": 1e400}}'
        response = person.post("/api/tables", content=raw, headers={
            "X-CSRF-Token": csrf(person), "Content-Type": "application/json"})
        assert response.status_code in (400, 422)
        form = {"csrf": csrf(person), "game": "doppio", "numbers": "failure_penalty",
                "opt_failure_penalty": "1e400"}
        assert person.post("/tables", data=form).status_code == 400
        form["opt_failure_penalty"] = "1" + "0" * 40
        assert person.post("/tables", data=form).status_code == 400
        assert post(person, "/api/tables", {"game": "doppio", "bots": 2}).status_code == 201


@pytest.mark.parametrize("game_name", ["doppelkopf", "doppio"])
async def test_an_action_whose_result_cannot_be_stored_or_sent_is_not_logged(game_name,
                                                                           monkeypatch):
    """Serialize before commit: an accepted action whose events hold a number no JSON
    encoder or database column takes is refused (server_error) and never logged; the table
    goes on."""
    game, actor, task, store, conns = await _table(game_name)
    seat, conn, move = _mover(game, actor, conns)
    conn.pending()
    real_apply = game.apply  # the game object's own (a staticmethod or a method)
    faults = {"left": 1}

    def huge_apply(state, action):
        new_state, events = real_apply(state, action)
        if faults["left"]:
            faults["left"] -= 1
            events = [*events, {"type": "note", "value": 10**30}]
        return new_state, events

    monkeypatch.setattr(game, "apply", huge_apply)
    seq = actor.seq
    actor.act(conn, move)
    await actor.idle()
    assert [e["code"] for e in _errors(conn)] == ["server_error"]
    assert store.logged == [] and actor.seq == seq
    actor.act(conn, move)
    await actor.idle()
    assert store.logged == [{**move, "seat": seat}] and actor.seq == seq + 1
    actor.stop()
    await task
