"""/healthz, /readyz and /metrics of a live server."""

from __future__ import annotations

import random
import re

import httpx

from tests.platform_helpers import Api, live_server, play_until_over, settings_for


def _sample(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert match, f"{name} missing from /metrics"
    return float(match.group(1))


async def test_healthz_and_readyz_answer_when_the_database_is_there(tmp_path):
    with live_server(settings_for(tmp_path)) as url:
        async with httpx.AsyncClient(base_url=url) as client:
            health = await client.get("/healthz")
            ready = await client.get("/readyz")
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "ok"}


async def test_readyz_is_503_and_names_redis_when_redis_is_unreachable(tmp_path):
    # nothing listens on port 1: the cluster services exist but Redis does not answer
    with live_server(settings_for(tmp_path, redis_url="redis://127.0.0.1:1/0")) as url:
        async with httpx.AsyncClient(base_url=url) as client:
            health = await client.get("/healthz")
            ready = await client.get("/readyz")
    assert health.status_code == 200
    assert ready.status_code == 503
    assert ready.json() == {"status": "not ready", "database": "ok", "redis": "unreachable"}


async def test_metrics_count_connections_tables_and_actions(tmp_path):
    import asyncio

    with live_server(settings_for(tmp_path)) as url:
        async with httpx.AsyncClient(base_url=url) as client:
            before = (await client.get("/metrics")).text
            players = [Api(httpx.AsyncClient(base_url=url)) for _ in range(4)]
            for api in players:
                assert (await api.post("/api/guest")).status_code == 201
            table = (await players[0].post("/api/tables", {"game": "doppelkopf", "deals": 1})).json()
            for api in players[1:]:
                assert (await api.post(f"/api/tables/{table['id']}/join")).status_code == 200
            await asyncio.gather(*(play_until_over(url, table["id"], api.cookie_header(),
                                                   random.Random(i))
                                   for i, api in enumerate(players)))
            after = (await client.get("/metrics")).text
            import websockets

            idle = _sample(after, "doppelrunde_connections")
            async with websockets.connect(url.replace("http", "ws", 1) + "/ws"):
                await asyncio.sleep(0.2)
                during = _sample((await client.get("/metrics")).text, "doppelrunde_connections")
            assert during == idle + 1
            for api in players:
                await api.client.aclose()
    actions = _sample(after, "doppelrunde_actions_total") - _sample(before, "doppelrunde_actions_total")
    observed = (_sample(after, "doppelrunde_action_seconds_count")
                - _sample(before, "doppelrunde_action_seconds_count"))
    assert actions >= 4 * 12  # at least one card per seat per trick of a whole deal
    assert observed == actions
    assert _sample(after, "doppelrunde_tables") >= 1
    assert "doppelrunde_action_seconds_bucket" in after
