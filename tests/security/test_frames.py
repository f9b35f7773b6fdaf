"""Issue 17 (7): a frame over the app's limit (Settings.ws_max_message) reaches the app through
a real uvicorn server and is answered with the documented ``too_large`` error; the socket
stays open. Only frames over the transport's own cap (Settings.ws_max_frame, larger) are cut
by the server with 1009."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from app.config import Settings
from tests.platform_helpers import live_server, settings_for


@pytest.fixture
def site(tmp_path):
    with live_server(settings_for(tmp_path)) as url:
        yield url


async def _exchange(url: str, frames: list[str]) -> list[dict]:
    async with websockets.connect(url.replace("http", "ws", 1) + "/ws") as ws:
        answers = []
        for frame in frames:
            await ws.send(frame)
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        return answers


def test_an_oversized_frame_gets_too_large_and_the_socket_stays(site):
    limit = Settings().ws_max_message
    big = json.dumps({"type": "chat", "text": "x" * (limit + 100)})
    answers = asyncio.run(_exchange(site, [big, json.dumps({"type": "ping"})]))
    assert answers[0]["type"] == "error" and answers[0]["code"] == "too_large"
    assert answers[1]["type"] == "pong"


def test_the_transport_cap_is_larger_than_the_app_limit():
    settings = Settings()
    assert settings.ws_max_frame > settings.ws_max_message
    with pytest.raises(ValueError):
        Settings(ws_max_message=8192, ws_max_frame=8192)
