"""In headless Chromium: two people press "Play now" for Doppelkopf within a second of each
other and land at the same table with two computer players after the (3 s) wait; after the
game both find it in their match history and on their profile, and step through its replay."""

from __future__ import annotations

import re
import time

import pytest

from tests import browser_table
from tests.browser_table import context
from tests.conftest import artifacts_dir
from tests.platform_helpers import live_server, settings_for
from tests.test_browser import register


def play_to_end(pages, limit_s: float = 120) -> None:
    """Play every page's seat until each page shows the match result (tests/browser_table.py)."""
    browser_table.play_to_end(pages, limit_s)


pytestmark = pytest.mark.browser


def wait_for_table_url(page, attempts: int = 3) -> None:
    """Wait until the page is at its table; a navigation the page aborted on the way (the lobby
    may be told twice) is waited through, not taken for a failure."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in range(attempts):
        try:
            page.wait_for_url(re.compile(r".*/tables/\d+$"), timeout=15000)
            return
        except PlaywrightError:
            if attempt == attempts - 1:
                raise


def test_two_people_play_now_land_together_with_two_bots_and_see_history(browser, tmp_path):
    settings = settings_for(tmp_path, play_now_fill_after=3.0, play_now_deals=1)
    with live_server(settings) as site:
        contexts = [context(browser), context(browser)]
        alice, bob = (ctx.new_page() for ctx in contexts)
        register(alice, site, "alice")
        register(bob, site, "bob")
        for page in (alice, bob):
            page.select_option("#play-now-game", "doppelkopf")
        pressed = time.monotonic()
        alice.click("#play-now")
        bob.click("#play-now")
        assert time.monotonic() - pressed < 1.0
        for page in (alice, bob):
            wait_for_table_url(page)
        waited = time.monotonic() - pressed
        assert alice.url == bob.url
        assert waited >= 2.5  # the queue waited for more people before filling with bots
        for page in (alice, bob):
            page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view",
                                   timeout=15000)
        seats = alice.evaluate("window.doppelrunde.state.table.seats")
        assert sorted(s["name"] for s in seats if not s["bot"]) == ["alice", "bob"]
        assert len([s for s in seats if s["bot"]]) == 2
        alice.screenshot(path=str(artifacts_dir() / "play-now-table.png"), full_page=True)
        table_path = alice.url[len(site):]
        table_id = int(table_path.rsplit("/", 1)[1])

        play_to_end([alice, bob])
        for page, name in ((alice, "alice"), (bob, "bob")):
            page.goto(f"{site}/players/{name}/matches")
            assert page.locator(f"#matches tr[data-table='{table_id}']").count() == 1
            page.goto(f"{site}/players/{name}")
            assert page.text_content("#profile-games tr[data-game=doppelkopf] .played") == "1"
            assert "provisional" in page.text_content("#profile-games tr[data-game=doppelkopf] .rating")
            assert page.locator(f"#matches tr[data-table='{table_id}']").count() == 1
        bob.screenshot(path=str(artifacts_dir() / "profile.png"), full_page=True)

        # the replay viewer: the table drawn from the recorded frames, every hand dealt, one
        # step forwards and back, to a trick, to the end
        alice.click(f"#matches tr[data-table='{table_id}'] a.replay-link")
        alice.wait_for_url(f"{site}/tables/{table_id}/replay")
        alice.wait_for_function("() => window.doppelrunde?.replay?.ready === true")
        assert alice.locator("#hand [data-card]").count() == 12  # alice's own seat at the bottom
        for seat in (1, 2, 3):
            assert alice.locator(f"#seats [data-seat='{seat}'] .replay-hand [data-card]").count() == 12
        assert alice.text_content("#prompt") == "Cards dealt."
        alice.click("#next")
        assert "action 1 of" in alice.text_content("#position")
        alice.click("#prev")
        assert "action 0 of" in alice.text_content("#position")
        alice.select_option("#trick-select", index=3)
        assert alice.evaluate("window.doppelrunde.replay.tricks") == 3
        # after trick 3: that trick, all four cards, stays in the middle with its winner
        assert alice.locator("#trick.held [data-card][data-played-by]").count() == 4
        assert alice.locator("#trick .winner").count() == 1
        alice.click("#next")  # the lead of trick 4: one card, in front of its player
        assert alice.locator("#trick [data-card][data-played-by]").count() == 1
        alice.click("#last")
        assert alice.locator("#hand [data-card]").count() == 0
        assert alice.text_content("#round-scores").startswith("Deal scores:")
        alice.screenshot(path=str(artifacts_dir() / "replay.png"))
        for ctx in contexts:
            ctx.close()
