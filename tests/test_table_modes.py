"""GameTwist table modes at the platform level: New Game seats a duel-mode table's computer
players at 1 and 3, and a tournament-mode deal played over the WebSocket sends no seat any
running card points, other seats' parties or standing list of announcements before the result.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import pytest

from app.lobby.service import games_json
from tests.platform_helpers import Api, live_server, settings_for


@pytest.fixture
def server(tmp_path):
    with live_server(settings_for(tmp_path)) as url:
        yield url


async def _guest(url: str) -> Api:
    api = Api(httpx.AsyncClient(base_url=url))
    assert (await api.post("/api/guest")).status_code == 201
    return api


def test_new_game_offers_table_modes_only_with_the_gametwist_presets():
    doppelkopf = next(g for g in games_json() if g["name"] == "doppelkopf")
    for preset in ("gametwist", "gametwist_pub"):
        mode = doppelkopf["choices"][preset]["table_mode"]
        assert mode == {"value": "standard", "values": ["standard", "duel", "tournament"]}
    assert "table_mode" not in doppelkopf["choices"]["ddv"]


async def test_duel_table_seats_people_opposite_and_computers_at_one_and_three(server):
    alice, bob = await _guest(server), await _guest(server)
    refused = await alice.post("/api/tables", {"game": "doppelkopf", "preset": "gametwist",
                                               "options": {"table_mode": "duel"}, "bots": 3})
    assert refused.status_code == 400 and "two computer players" in refused.text
    refused = await alice.post("/api/tables", {"game": "doppelkopf", "preset": "gametwist", "deals": 2,
                                               "options": {"table_mode": "duel"}, "bots": 2})
    assert refused.status_code == 400 and "4 deals" in refused.text
    created = await alice.post("/api/tables", {"game": "doppelkopf", "preset": "gametwist", "deals": 4,
                                               "options": {"table_mode": "duel"}, "bots": 2})
    assert created.status_code == 201, created.text
    table = created.json()
    assert [(s["seat"], s["bot"] is not None) for s in table["seats"]] == [(0, False), (1, True), (3, True)]
    joined = await bob.post(f"/api/tables/{table['id']}/join")
    assert joined.status_code == 200, joined.text
    seats = (await bob.get(f"/api/tables/{table['id']}")).json()["seats"]
    assert [(s["seat"], s["bot"] is not None) for s in seats] == [(0, False), (1, True), (2, False), (3, True)]
    for api in (alice, bob):
        await api.client.aclose()


async def test_a_duel_or_tournament_table_says_its_mode_in_the_lobby_and_its_title(server):
    alice = await _guest(server)
    ids = {}
    for mode, extra in (("duel", {"deals": 4, "bots": 2}), ("tournament", {"bots": 1}),
                        ("standard", {"bots": 1})):
        created = await alice.post("/api/tables", {"game": "doppelkopf", "preset": "gametwist",
                                                   "options": {"table_mode": mode}, **extra})
        assert created.status_code == 201, created.text
        ids[mode] = created.json()["id"]
        assert created.json()["mode"] == (None if mode == "standard" else mode)
    for lang, words in (("de", {"duel": "Duellmodus", "tournament": "Turniermodus"}),
                        ("en", {"duel": "duel mode", "tournament": "tournament mode"})):
        for mode, table_id in ids.items():
            page = await alice.client.get(f"/tables/{table_id}", headers={"Accept-Language": lang})
            title = re.search(r"<h1[^>]*>(.*?)</h1>", page.text, re.DOTALL).group(1)
            if mode == "standard":
                assert not any(w in title for w in words.values()), title
            else:
                assert words[mode] in title, title
    await alice.client.aclose()


def _move(state: dict[str, Any], announced: set[int]) -> dict[str, Any] | None:
    """Say healthy, announce Re/Kontra once when allowed, else play the first legal card."""
    view = state.get("view")
    if not view or state.get("result") or view.get("to_move") != state["you"]:
        return None
    legal = view["legal"]
    for action in legal:
        if action["type"] == "declare" and action["value"] == "healthy":
            return {"type": "declare", "value": "healthy"}
    if state["you"] not in announced:
        for action in legal:
            if action["type"] == "announce" and action["value"] in ("re", "kontra"):
                announced.add(state["you"])
                return {"type": "announce", "value": action["value"]}
    for action in legal:
        if action["type"] != "announce":
            return {k: v for k, v in action.items() if k != "seat"}
    return None


async def _play_and_record(url: str, table_id: int, cookie: str,
                           announced: set[int]) -> list[dict[str, Any]]:
    """Play one seat until the match result; return every message the seat received."""
    import websockets

    received = []
    async with websockets.connect(url.replace("http", "ws", 1) + "/ws",
                                  additional_headers={"Cookie": cookie}) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table_id}))
        acted_at = -1
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            received.append(message)
            if message["type"] not in ("snapshot", "event"):
                continue
            state = message["state"]
            if state["result"] is not None:
                return received
            move = _move(state, announced)
            if move is not None and message["seq"] > acted_at:
                acted_at = message["seq"]
                await ws.send(json.dumps({"type": "action", "action": move}))


def _running_points(node: Any, path: str = "") -> list[str]:
    """Every place in a message that carries card points (a non-null ``points``/``points_won``)."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("points", "points_won", "card_points") and value is not None:
                found.append(f"{path}.{key}")
            found += _running_points(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _running_points(value, f"{path}[{index}]")
    return found


async def test_tournament_mode_deal_over_the_websocket_sends_no_running_points_or_parties(server):
    players = [await _guest(server) for _ in range(4)]
    created = await players[0].post("/api/tables", {
        "game": "doppelkopf", "preset": "gametwist", "deals": 1,
        "options": {"table_mode": "tournament"}})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    for api in players[1:]:
        assert (await api.post(f"/api/tables/{table_id}/join")).status_code == 200
    announced: set[int] = set()
    logs = await asyncio.gather(*(_play_and_record(server, table_id, api.cookie_header(), announced)
                                  for api in players))
    announcement_events = 0
    for seat, log in enumerate(logs):
        during = [m for m in log if m["type"] in ("snapshot", "event")
                  and m["state"]["view"] is not None and m["state"]["view"]["phase"] != "done"]
        assert len(during) > 48  # every card of the deal was a message to every seat
        for message in during:
            view = message["state"]["view"]
            assert _running_points(message) == [], (seat, message["seq"])
            assert set(view["parties"]) <= {str(seat)}, (seat, view["parties"])
            assert view["announcements"] == []
            assert message["state"]["scores"]["rounds"] == []
            announcement_events += sum(e.get("type") == "announced" for e in message.get("events", []))
        final = log[-1]["state"]["view"]
        assert final["phase"] == "done"  # everything is revealed at the end
        assert sum(final["points_won"]) == 240
        assert sorted(final["parties"]) == ["0", "1", "2", "3"]
        assert len(final["announcements"]) == len(announced)
    assert announced and announcement_events >= len(announced)
    for api in players:
        await api.client.aclose()
