"""The profile's statistics in Chromium at 390×844 (and 360 wide) and 1366×768, German and
English: the game tabs, the rating chart drawn by uPlot only once it comes into view (the
provisional period shaded, a point showing its match and replay), the chart's table, the
figures, head to head; nothing wider than the screen; axe-core finds nothing serious; the bytes
of the first load (docs/performance.md). Screenshots go to test-artifacts/."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest

from tests.conftest import artifacts_dir
from tests.platform_helpers import live_server, settings_for
from tests.stats.history import seed_profiles
from tests.test_browser_tables import console_errors
from tests.test_browser_ux import axe_violations
from tests.test_page_weight import first_load, print_responses

pytestmark = pytest.mark.browser

UPLOT = "/static/vendor/uplot/uPlot.esm.js"


@pytest.fixture(scope="module")
def history_site(tmp_path_factory):
    """A live site whose database holds anna's history (tests/stats/history.py)."""
    settings = settings_for(tmp_path_factory.mktemp("stats-site"))
    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this thread
        thread.submit(asyncio.run, seed_profiles(settings.database_url, datetime.now(UTC))).result()
    with live_server(settings) as url:
        yield url


def logged_in(browser, url, width, height, lang, name="anna"):
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 500,
                                  locale={"en": "en-GB", "de": "de-DE"}[lang])
    page = context.new_page()
    page.goto(url + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "long enough")
    page.click("form button[type=submit]")
    page.wait_for_load_state("networkidle")
    return context, page


def nothing_wider_than_the_screen(page) -> None:
    wide = page.evaluate("""() => [...document.querySelectorAll('#stats *')]
        .filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map(el => el.tagName + '.' + el.className)""")
    assert wide == [], wide
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_profile_shows_the_statistics_and_the_rating_chart(browser, history_site, lang, width, height):
    context, page = logged_in(browser, history_site, width, height, lang)
    problems = console_errors(page)
    page.goto(history_site + "/players/anna")
    words = {"en": ("Statistics", "Rating history", "Won as Re"),
             "de": ("Statistik", "Verlauf der Wertung", "Als Re gewonnen")}[lang]
    assert page.text_content("#stats-title") == words[0]
    assert words[1] in page.text_content("#rating-box figcaption")
    assert page.text_content("#figures [data-key=won_as_re] th").startswith(words[2])
    assert page.get_attribute("#stats-games a[aria-current=page]", "data-game") == "doppelkopf"
    rows = page.locator("#rating-table tbody tr")
    assert rows.count() >= 30  # every rated match of anna's (a few had no second person)
    assert rows.first.get_attribute("data-provisional") == "1"
    page.locator("#rating-chart").scroll_into_view_if_needed()
    page.wait_for_selector("#rating-chart[data-drawn='1'] canvas")
    over = page.locator("#rating-chart .u-over")
    box = over.bounding_box()
    if width < 500:
        over.tap(position={"x": box["width"] * 0.7, "y": box["height"] / 2})
    else:
        page.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] / 2)
    link = page.locator("#rating-readout a")
    link.wait_for()
    assert link.get_attribute("href").startswith("/tables/") and link.get_attribute("href").endswith("/replay")
    assert page.text_content("#head-to-head").count("bert") >= 1
    nothing_wider_than_the_screen(page)
    page.screenshot(path=str(artifacts_dir() / f"stats-profile-{lang}-{width}x{height}.png"), full_page=True)
    page.locator("#rating-box").screenshot(path=str(artifacts_dir() / f"stats-rating-{lang}-{width}x{height}.png"))
    # another game's tab: its own figures
    page.click("#stats-games a[data-game=doppio]")
    page.wait_for_selector("#figures [data-key=doppio]")
    assert page.get_attribute("#stats-games a[aria-current=page]", "data-game") == "doppio"
    nothing_wider_than_the_screen(page)
    assert problems == []
    context.close()


def test_nothing_is_cut_at_360_pixels_and_another_player_sees_public_matches_only(browser, history_site):
    context, page = logged_in(browser, history_site, 360, 740, "de", name="dora")
    page.goto(history_site + "/players/anna")
    assert "Tischen für alle" in page.text_content("#privacy-note")
    assert page.query_selector("#accuracy-box") is None  # the accuracy is anna's own
    assert page.locator("#head-to-head tbody tr").count() == 1  # dora and anna
    page.locator("#rating-chart").scroll_into_view_if_needed()
    page.wait_for_selector("#rating-chart[data-drawn='1'] canvas")
    nothing_wider_than_the_screen(page)
    page.screenshot(path=str(artifacts_dir() / "stats-profile-other-de-360x740.png"), full_page=True)
    context.close()


def test_axe_finds_nothing_serious_on_the_profile_and_the_leaderboards(browser, history_site, axe_script):
    context, page = logged_in(browser, history_site, 1366, 768, "en")
    for path in ("/players/anna", "/leaderboards/doppelkopf?board=week", "/leaderboards/doppelkopf?board=new"):
        page.goto(history_site + path)
        if path.startswith("/players"):
            page.locator("#rating-chart").scroll_into_view_if_needed()
            page.wait_for_selector("#rating-chart[data-drawn='1'] canvas")
            page.evaluate("document.querySelectorAll('details.chart-numbers').forEach(d => d.open = true)")
        assert axe_violations(page, axe_script) == [], path
    for width, height in ((390, 844), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(history_site + "/leaderboards/doppelkopf?board=all")
        assert page.locator("#leaderboard tbody tr:not(.empty)").count() >= 3
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(artifacts_dir() / f"stats-leaderboard-all-{width}x{height}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_first_profile_load_states_its_bytes_and_uplot_comes_only_with_a_chart(
        browser, history_site, width, height):
    """The bytes of a first profile load with an empty cache (printed; docs/performance.md):
    the page, and uPlot, which comes only once a chart is on the screen."""
    context, page = logged_in(browser, history_site, width, height, "en")
    weight = first_load(page, history_site + "/players/anna", ready=None)
    chart = [r for r in weight["responses"] if "/uplot/" in r["path"] or r["path"].endswith("/charts.js")]
    page_bytes = weight["http_bytes"] - sum(r["bytes"] for r in chart)
    weight.update(page_bytes=page_bytes, chart_bytes=sum(r["bytes"] for r in chart))
    (artifacts_dir() / f"page-weight-profile-{width}x{height}.json").write_text(json.dumps(weight, indent=2))
    print(f"\nfirst profile load ({width}x{height}, en): {weight['http_bytes']} bytes in "
          f"{len(weight['responses'])} responses ({weight['decoded_bytes']} uncompressed): "
          f"{page_bytes} the page, {weight['chart_bytes']} the chart (uPlot and charts.js)")
    print_responses(weight)
    if width > 1000:  # a desktop has the rating chart on its first screen, so uPlot comes at once
        assert any(r["path"].endswith("uPlot.esm.js") for r in chart)
    assert page_bytes <= 40_000, page_bytes
    context.close()


def test_uplot_is_loaded_only_once_a_chart_is_on_the_screen(browser, history_site):
    """A short phone screen (390×600): the chart is below it, so uPlot is not fetched until the
    chart is scrolled to; a profile without statistics never fetches it."""
    context, page = logged_in(browser, history_site, 390, 600, "en")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(history_site + "/players/anna")
    page.wait_for_load_state("networkidle")
    assert page.locator("#rating-chart").bounding_box()["y"] > 600
    assert not any(UPLOT in url for url in requested)
    page.locator("#rating-chart").scroll_into_view_if_needed()
    page.wait_for_selector("#rating-chart[data-drawn='1'] canvas")
    assert sum(UPLOT in url for url in requested) == 1
    requested.clear()
    page.goto(history_site + "/players/carl?game=doppio")  # carl played no Doppio: no chart
    page.wait_for_load_state("networkidle")
    assert page.query_selector("[data-chart]") is None
    assert not any("/uplot/" in url or "charts.js" in url for url in requested)
    context.close()
