"""How much the first load of a table page transfers, in real Chromium: every HTTP response's
size on the wire (Chromium's DevTools protocol, Network.loadingFinished.encodedDataLength:
compressed body and headers) with an empty cache, plus the WebSocket frames received until the
player's view is on the page. The figure is printed and kept in test-artifacts/page-weight.json
with a line per response. Issue 16's target: at most 150 KB (a size, not a timing)."""

from __future__ import annotations

import json
import re
from urllib.parse import urlparse

import pytest

from tests.browser_table import play_as_guest
from tests.conftest import artifacts_dir
from tests.test_browser_tables import console_errors

pytestmark = pytest.mark.browser

LIMIT_BYTES = 150_000


#: when a table page is loaded: the player's view is on it
TABLE_READY = "() => window.doppelrunde && window.doppelrunde.state && window.doppelrunde.state.view"


def first_load(page, url: str, ready: str | None = TABLE_READY) -> dict:
    """Load ``url`` with an empty cache; the bytes of each response and of the WebSocket frames
    received until ``ready`` holds (a table: the player's view is shown; None: a page without
    a table, e.g. a profile) and the network is idle."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.clearBrowserCache")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    responses: dict[str, dict] = {}
    frames: list[int] = []

    def received(event):
        headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
        responses[event["requestId"]] = {"path": urlparse(event["response"]["url"]).path,
                                         "encoding": headers.get("content-encoding", ""),
                                         "decoded": 0, "bytes": 0}

    def data(event):
        if event["requestId"] in responses:
            responses[event["requestId"]]["decoded"] += event["dataLength"]

    def finished(event):
        if event["requestId"] in responses:
            responses[event["requestId"]]["bytes"] = int(event["encodedDataLength"])

    cdp.on("Network.responseReceived", received)
    cdp.on("Network.dataReceived", data)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.webSocketFrameReceived",
           lambda event: frames.append(len(event["response"]["payloadData"].encode())))
    page.goto(url)
    if ready is not None:
        page.wait_for_function(ready, timeout=30000)
    page.wait_for_load_state("networkidle")
    websocket = sum(frames[:])
    http = sum(r["bytes"] for r in responses.values())
    cdp.detach()
    return {"url": urlparse(url).path, "http_bytes": http, "websocket_bytes": websocket,
            "total_bytes": http + websocket,
            "decoded_bytes": sum(r["decoded"] for r in responses.values()),
            "responses": sorted(responses.values(), key=lambda r: -r["bytes"])}


def print_responses(weight: dict) -> None:
    """One line per response of a first load: bytes on the wire, uncompressed, encoding, path."""
    for response in weight["responses"]:
        print(f"  {response['bytes']:>7} {response['decoded']:>7} {response['encoding'] or '-':<5} {response['path']}")


@pytest.mark.parametrize(("game", "lang"), [("doppelkopf", "en"), ("doppelkopf", "de"),
                                          ("doublehead_kids", "de")])
def test_the_first_table_page_transfers_at_most_150_kb(browser, site, game, lang):
    """German pages carry the German catalogue; Doublehead Kids loads its own table module."""
    context = browser.new_context(viewport={"width": 1366, "height": 768},
                                  locale={"en": "en-GB", "de": "de-DE"}[lang])
    page = context.new_page()
    problems = console_errors(page)
    page.goto(site + "/")
    play_as_guest(page)
    page.select_option("#game", game)
    if page.is_visible("#deals"):  # Doppelkopf only: the others end by their own rule
        page.fill("#deals", "4")
    page.select_option("#bots", "3")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    weight = first_load(page, page.url)
    weight.update(game=game, lang=lang)
    (artifacts_dir() / f"page-weight-{game}-{lang}.json").write_text(json.dumps(weight, indent=2))
    print(f"\nfirst table page ({game}, {lang}): {weight['total_bytes']} bytes transferred "
          f"({weight['http_bytes']} HTTP in {len(weight['responses'])} responses, "
          f"{weight['websocket_bytes']} WebSocket; {weight['decoded_bytes']} bytes uncompressed)")
    print_responses(weight)
    scripts = [r for r in weight["responses"] if r["path"].endswith((".js", ".css"))]
    assert scripts and all(r["encoding"] in ("zstd", "br", "gzip") for r in scripts if r["decoded"] >= 500), scripts
    assert weight["total_bytes"] <= LIMIT_BYTES, weight["total_bytes"]
    assert problems == []
    context.close()
