"""A fresh player's tryout at 390×844 and 1366×768 (headless Chromium): what a computer player
moved for them is told when they come back; nothing important is covered or clipped (the
"must follow" hint, the score sheet's seat headers, its page link); the toolbar's icons have
names and the site's menu is reachable on a phone; the match result is as large as its content;
the header's phase reads capitalised.

Screenshots: artifacts_dir() / tryout-<what>-<size>.png.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser_table import READY, context, move, new_table
from tests.conftest import artifacts_dir
from tests.platform_helpers import live_server, settings_for

pytestmark = pytest.mark.browser


def shot(page, what: str, size: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"tryout-{what}-{size}.png"))


@pytest.fixture
def quick_site(tmp_path):
    """A live server whose away grace is one second: a computer moves for a person gone."""
    with live_server(settings_for(tmp_path, away_grace=1.0)) as url:
        yield url


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_coming_back_tells_what_the_computer_played_while_one_was_away(browser, quick_site, size):
    ctx = context(browser, size)
    page = ctx.new_page()
    table = new_table(page, quick_site, deals=1)
    page.wait_for_function(READY, timeout=20000)
    assert re.search(r"Deal 1 of 1 · Reservations$", page.text_content("#info")), page.text_content("#info")
    page.goto("about:blank")  # gone: after the grace a computer player moves for the seat
    time.sleep(3)
    page.goto(f"{quick_site}/tables/{table}")
    page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state", timeout=15000)
    missed = page.evaluate("window.doppelrunde.state.stood_in")
    assert missed and {m["reason"] for m in missed} == {"away"}, missed
    notice = page.locator('[data-notice="stood_in"] .notice-text')
    notice.wait_for(timeout=5000)
    text = notice.text_content()
    if len(missed) == 1:
        assert re.fullmatch(r"The computer (played|chose) .+ for you: you were away\.", text), text
    elif len(missed) <= 4:
        assert text.startswith(f"The computer made {len(missed)} moves for you (you were away): "), text
        assert "Healthy" in text  # the reservation the computer said for the player
    else:  # a long absence: how many, and the last four
        assert text.startswith(f"The computer made {len(missed)} moves for you (you were away), the last: "), text
        assert text.split(", the last: ")[1].count(", ") == 3, text
    # the notice sits under the toolbar, not over it
    tools = page.locator("#table-tools").bounding_box()
    box = page.locator('[data-notice="stood_in"]').bounding_box()
    assert box["y"] >= tools["y"] + tools["height"] - 1, (box, tools)
    shot(page, "stood-in", size)
    ctx.close()
