"""Doppelganger Tricks in the browser: a person who may take a bonus card still can after 5 s
(the table waits for them; the computer players move at once otherwise), and "No bonus card"
moves the game on. The deal is not shuffled (tests/test_bonus_turn.py), so the person holds the
ten pink cards and no navy card. Screenshots at both sizes go to the artifacts folder."""

from __future__ import annotations

import pytest

from tests.browser_table import CORNER, context, new_table
from tests.conftest import artifacts_dir
from tests.test_bonus_turn import Unshuffled


@pytest.fixture
def unshuffled_site(tmp_path):
    from tests.platform_helpers import live_server, settings_for

    with live_server(settings_for(tmp_path), rng_factory=lambda _table: Unshuffled(3)) as url:
        yield url


def trick_size(page) -> int:
    return page.evaluate("window.doppelrunde.state.view.trick.length")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_bonus_card_can_still_be_taken_after_five_seconds(browser, unshuffled_site, size):
    ctx = context(browser, size, locale="en-US")
    page = ctx.new_page()
    new_table(page, unshuffled_site, game="doppelganger_tricks", players=4, bots=3, deals=4)
    page.wait_for_selector('#choices button[data-bid="3"]', timeout=20000)
    page.click('#choices button[data-bid="3"]')
    page.wait_for_selector("#hand button.card.legal[data-card=P1]", timeout=20000)
    page.click("#hand button.card.legal[data-card=P1]", position=CORNER)  # cards overlap
    page.wait_for_selector("#choices button[data-type=take_bonus]", timeout=10000)
    page.wait_for_timeout(5000)  # the five seconds (the computer players move at once)
    assert page.locator("#choices button[data-type=take_bonus]").count() == 2
    assert page.get_attribute("[data-zone=prompt]", "data-my-turn") == "true"
    assert trick_size(page) == 1  # nobody played on
    page.screenshot(path=str(artifacts_dir() / f"bonus-waits-{size}.png"))
    page.click("#choices button[data-type=decline_bonus]")
    page.wait_for_function("() => window.doppelrunde.state.view.trick.length > 1"
                           " || window.doppelrunde.state.view.tricks_played > 0", timeout=15000)
    assert page.evaluate("window.doppelrunde.state.view.bonus") == {"star": None, "eye": None} \
        or page.evaluate("window.doppelrunde.state.view.bonus.star") != 0
    ctx.close()
