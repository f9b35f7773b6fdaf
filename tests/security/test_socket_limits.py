"""Issue 17 (4): WebSocket connections are limited per address and per session before any
database work: 800 sockets from one address get at most WS_PER_ADDRESS served and every other
one a clear ``closed``/``too_many_connections`` (code 1008); meanwhile a person from another
address is served at once and the database pool is never exhausted. Real uvicorn server,
SQLite and PostgreSQL (a small pool: 3 + 2 connections)."""

from __future__ import annotations

import asyncio
import json
import logging

import httpx
import pytest
import websockets

from app.config import Settings
from tests.platform_helpers import live_server, settings_for

SOCKETS = 800


async def _one_socket(url: str, headers: dict[str, str]) -> str:
    """'served' (the lobby list came), or the reason the server closed it."""
    try:
        async with websockets.connect(url, additional_headers=headers, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "table": None}))
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message["type"] == "closed":
                return message["reason"]
            await asyncio.sleep(1.0)  # hold it while the others connect
            return "served" if message["type"] == "lobby" else message["type"]
    except websockets.ConnectionClosed as closed:  # the close frame says why (1008, reason)
        if closed.rcvd is not None and closed.rcvd.code == 1008 and closed.rcvd.reason:
            return closed.rcvd.reason
        return f"closed {closed.rcvd.code if closed.rcvd else None}"


async def _flood_and_live(base: str, cookie_of_other: str) -> tuple[list[str], list[int]]:
    ws_url = base.replace("http", "ws", 1) + "/ws"
    flood = [asyncio.create_task(_one_socket(ws_url, {})) for _ in range(SOCKETS)]
    statuses = []
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=base.replace("127.0.0.1", "127.0.0.1"),
                                 transport=transport, timeout=30) as other:
        for _ in range(10):
            answer = await other.get("/api/tables", headers={"Cookie": cookie_of_other})
            statuses.append(answer.status_code)
            await asyncio.sleep(0.1)
    return await asyncio.gather(*flood), statuses


@pytest.mark.slow
def test_sockets_from_one_address_are_limited_and_others_are_served(tmp_path, db_url, caplog):
    settings = settings_for(tmp_path, database_url=db_url, db_pool_size=3, db_max_overflow=2)
    caplog.set_level(logging.ERROR)
    with live_server(settings) as base:
        guest = httpx.post(base + "/api/guest", headers={"X-CSRF-Token": "t",
                                                         "Cookie": "dr_csrf=t"})
        assert guest.status_code == 201
        cookie = "; ".join(f"{k}={v}" for k, v in guest.cookies.items()) + "; dr_csrf=t"
        results, statuses = asyncio.run(_flood_and_live(base, cookie))
    served = results.count("served")
    refused = results.count("too_many_connections")
    assert served <= Settings().ws_per_address and served > 0, (served, set(results))
    assert served + refused == SOCKETS, {r: results.count(r) for r in set(results)}
    assert statuses == [200] * 10
    assert "QueuePool limit" not in caplog.text and "TimeoutError" not in caplog.text


def test_sockets_of_one_session_are_limited(tmp_path):
    with live_server(settings_for(tmp_path)) as base:
        guest = httpx.post(base + "/api/guest", headers={"X-CSRF-Token": "t",
                                                         "Cookie": "dr_csrf=t"})
        cookie = "; ".join(f"{k}={v}" for k, v in guest.cookies.items())

        async def tabs() -> list[str]:
            url = base.replace("http", "ws", 1) + "/ws"
            return await asyncio.gather(*(_one_socket(url, {"Cookie": cookie})
                                          for _ in range(Settings().ws_per_session + 5)))

        results = asyncio.run(tabs())
    assert results.count("served") == Settings().ws_per_session
    assert results.count("too_many_connections") == 5
