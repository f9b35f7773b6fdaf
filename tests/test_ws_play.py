"""Four protocol clients play a whole Doppelkopf deal over the WebSocket of a live server."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from app.scenario import load_scenario, replay
from tests.platform_helpers import Api, live_server, play_until_over, settings_for


@pytest.fixture
def server(tmp_path):
    with live_server(settings_for(tmp_path)) as url:
        yield url


async def _guest(url: str) -> Api:
    api = Api(httpx.AsyncClient(base_url=url))
    response = await api.post("/api/guest")
    assert response.status_code == 201
    return api


async def test_four_clients_play_a_whole_doppelkopf_deal(server):
    players = [await _guest(server) for _ in range(4)]
    created = await players[0].post("/api/tables", {"game": "doppelkopf", "preset": "ddv",
                                                    "deals": 1, "opponents": "any"})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    for api in players[1:]:
        joined = await api.post(f"/api/tables/{table_id}/join")
        assert joined.status_code == 200, joined.text
    finals = await asyncio.gather(*(
        play_until_over(server, table_id, api.cookie_header(), random.Random(i))
        for i, api in enumerate(players)))
    assert [state["you"] for state in finals] == [0, 1, 2, 3]
    sheet = finals[0]["scores"]
    assert sheet["played"] == 1
    assert sum(sheet["totals"]) == 0  # Doppelkopf scores are zero-sum over the four seats
    assert all(state["scores"] == sheet for state in finals)
    for state in finals:  # each seat saw only its own (now empty) hand; the deal is over
        assert state["view"]["hand"] == []
        assert state["view"]["phase"] == "done"
    exported = (await players[0].get(f"/api/tables/{table_id}/scenario")).json()
    outcome = replay(load_scenario(exported))
    assert outcome["totals"] == sheet["totals"]
    counted = [r for r in outcome["rounds"] if not r.get("redeal")]
    assert len(counted) == 1
    for api in players:
        await api.client.aclose()


async def _until(ws, predicate):
    import json

    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if predicate(message):
            return message


async def test_a_restarted_server_rebuilds_the_table_and_the_client_resumes(tmp_path):
    import json

    import websockets

    settings = settings_for(tmp_path)
    with live_server(settings) as url:
        api = await _guest(url)
        table = (await api.post("/api/tables", {"game": "doppelkopf", "bots": 3, "deals": 1})).json()
        cookie = api.cookie_header()
        await api.client.aclose()
        async with websockets.connect(url.replace("http", "ws") + "/ws",
                                      additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({"type": "hello", "table": table["id"]}))
            await _until(ws, lambda m: m.get("state", {}).get("view", {}).get("to_move") == 0)
            await ws.send(json.dumps({"type": "action",
                                      "action": {"type": "declare", "value": "healthy"}}))
            before = await _until(ws, lambda m: m.get("action") == {
                "type": "declare", "value": "healthy", "seat": 0})
            url.stop()  # the server shuts down, as for a restart
            closing = await _until(ws, lambda m: m["type"] == "closed")
            assert closing["reason"] == "shutdown" and closing["reconnect"] is True
    with live_server(settings) as url:  # a new process on the same database
        async with websockets.connect(url.replace("http", "ws") + "/ws",
                                      additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({"type": "hello", "table": table["id"],
                                      "last_seq": before["seq"], "epoch": before["epoch"]}))
            after = json.loads(await asyncio.wait_for(ws.recv(), 30))
        assert after["type"] == "snapshot" and after["epoch"] != before["epoch"]
        assert after["state"]["view"]["declarations"][0] == "healthy"
        # seat 0 leads the first trick, so its hand is as it was (order aside)
        assert sorted(after["state"]["view"]["hand"]) == sorted(before["state"]["view"]["hand"])
        final = await play_until_over(url, table["id"], cookie, random.Random(5))
        assert final["scores"]["played"] == 1
