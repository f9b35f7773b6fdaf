"""Responses are compressed when the browser asks (starlette-compress: zstd, brotli, gzip):
static JavaScript and CSS, pages and JSON; small bodies, ranges and WebSockets are left alone."""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

import brotli
import httpx
import pytest

from tests.platform_helpers import live_server, settings_for

ROOT = Path(__file__).resolve().parent.parent


class Raw:
    """A response as it was sent: status, headers and the body bytes not decoded."""

    def __init__(self, response: httpx.Response, body: bytes) -> None:
        self.status_code, self.headers, self.content = response.status_code, response.headers, body


async def raw(client, path: str, encoding: str | None, **headers) -> Raw:
    if encoding is not None:
        headers["Accept-Encoding"] = encoding
    request = client.build_request("GET", path, headers=headers)
    response = await client.send(request, stream=True)
    body = b"".join([chunk async for chunk in response.aiter_raw()])
    await response.aclose()
    return Raw(response, body)


@pytest.mark.parametrize("path", ["/static/js/table.js", "/static/css/site.css", "/static/js/lobby.js"])
async def test_static_javascript_and_css_are_gzipped_when_asked(client, path):
    original = (ROOT / path.lstrip("/")).read_bytes()
    response = await raw(client, path, "gzip")
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in response.headers["vary"].lower()
    body = response.content
    assert len(body) < len(original) / 2
    assert response.headers.get("content-length") in (None, str(len(body)))  # sent in chunks
    assert gzip.decompress(body) == original


async def test_brotli_is_preferred_when_the_browser_takes_it(client):
    original = (ROOT / "static/js/table.js").read_bytes()
    response = await raw(client, "/static/js/table.js", "gzip, deflate, br")
    assert response.headers["content-encoding"] == "br"
    assert brotli.decompress(response.content) == original


async def test_nothing_is_compressed_for_a_client_that_does_not_ask(client):
    original = (ROOT / "static/js/table.js").read_bytes()
    response = await raw(client, "/static/js/table.js", "identity")
    assert "content-encoding" not in response.headers
    assert response.content == original


async def test_pages_and_json_are_compressed_too(client):
    page = await raw(client, "/rules/doppelkopf", "gzip")
    assert page.headers["content-encoding"] == "gzip"
    assert b"Rules of Doppelkopf" in gzip.decompress(page.content)
    games = await raw(client, "/api/games", "gzip")
    assert games.headers["content-encoding"] == "gzip"
    # the language middleware's Vary stays, the compressor adds its own
    assert {"accept-language", "cookie", "accept-encoding"} <= {
        v.strip().lower() for v in page.headers["vary"].split(",")}


async def test_a_range_request_is_answered_uncompressed(client):
    original = (ROOT / "static/js/table.js").read_bytes()
    response = await raw(client, "/static/js/table.js", "gzip", Range="bytes=0-99")
    assert response.status_code == 206
    assert "content-encoding" not in response.headers
    assert response.content == original[:100]


async def test_the_websocket_works_behind_the_compressor(tmp_path):
    """A real server and a client that asks for every encoding, as Chromium does."""
    import json

    import websockets

    with live_server(settings_for(tmp_path)) as url:
        headers = {"Accept-Encoding": "gzip, deflate, br, zstd"}
        async with websockets.connect(url.replace("http", "ws", 1) + "/ws",
                                      additional_headers=headers) as socket:
            await socket.send(json.dumps({"type": "hello", "table": None}))
            first = json.loads(await asyncio.wait_for(socket.recv(), 10))
    assert first["type"] == "lobby" and first["tables"] == []
