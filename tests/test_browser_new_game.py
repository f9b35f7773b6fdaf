"""New Game tells the truth before it is sent: a number of deals the lobby would refuse is
marked at once, in the lobby's own words, and not stated as the match."""

from __future__ import annotations

import pytest

from tests.browser_table import context, guest_page, play_as_guest
from tests.platform_helpers import live_server, settings_for

pytestmark = pytest.mark.browser

MULTIPLE = "a multiple of 4, so that everyone deals equally often"  # app.lobby.service's words


@pytest.fixture
def strict_site(tmp_path):
    """A live server with the production rule on deals (a multiple of the players)."""
    with live_server(settings_for(tmp_path, any_deal_count=False)) as url:
        yield url


def test_two_ddv_deals_show_the_lobbys_refusal_inline(browser, strict_site):
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    page.goto(strict_site + "/")
    play_as_guest(page)
    page.select_option("#game", "doppelkopf")
    page.select_option("#preset", "ddv")
    deals = page.locator("#deals")
    assert (deals.get_attribute("min"), deals.get_attribute("step"), deals.get_attribute("max")) == ("4", "4", "48")
    assert page.text_content("#deals-hint") == "(a multiple of 4)"

    deals.fill("2")
    assert page.text_content("#match-end-note") == MULTIPLE
    assert deals.get_attribute("aria-invalid") == "true"
    assert deals.evaluate("input => input.validity.valid") is False
    page.click("#create-table")  # the browser keeps the form: nothing is sent
    assert page.url.rstrip("/") == strict_site.rstrip("/")
    assert page.locator("#page-error").count() == 0

    deals.fill("52")
    assert page.text_content("#match-end-note") == "at most 48 deals"
    deals.fill("6")
    assert page.text_content("#match-end-note") == MULTIPLE
    deals.fill("8")
    assert page.text_content("#match-end-note") == "Match: 8 deals."
    assert deals.get_attribute("aria-invalid") is None
    assert deals.evaluate("input => input.validity.valid") is True
    ctx.close()


def test_the_refusal_is_german_in_a_german_browser(browser, strict_site):
    ctx, page = guest_page(browser, strict_site, locale="de-DE")
    page.select_option("#preset", "ddv")
    page.fill("#deals", "2")
    assert page.text_content("#match-end-note").startswith("ein Vielfaches von 4")
    ctx.close()
