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
