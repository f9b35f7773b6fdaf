"""The tournament in a browser (headless Chromium) at 390×844 and 1366×768, in German and
English: a guest registers on the Tournaments page, waits on the tournament's page, gets the
start notice, which takes the player to the seat by itself (and its "Go to my table" in one
click), and back on the tournament's page the standings change without a reload when the
table's match ends. Screenshots go to test-artifacts/."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from app.clock import Clock
from app.db.engine import make_engine, make_sessionmaker
from app.lobby.friends import Friends
from app.tournaments.service import Tournaments
from app.tournaments.spec import parse_spec
from tests.browser_table import context, play_as_guest, play_to_end
from tests.conftest import artifacts_dir
from tests.platform_helpers import live_server, settings_for

pytestmark = pytest.mark.browser

WORDS = {"en-US": {"register": "Sign up", "notice": "starts: go to table",
                   "go": "Go to my table", "finished": "Finished"},
         "de-DE": {"register": "Anmelden", "notice": "beginnt: zu Tisch",
                   "go": "Zu meinem Tisch", "finished": "Beendet"}}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tournament-site")
    # computer players take 0.05 s a move: the table plays for some seconds, long enough to
    # see "Go to my table" while it runs
    settings = settings_for(tmp, away_grace=0.0, tournament_tick=0.2, bot_delay=0.05)
    with live_server(settings) as url:
        yield url, settings.database_url


def create(database_url: str, name: str, seconds: float) -> int:
    """An operator's tournament (1 round of 4 deals, one person enough) starting soon."""
    async def run() -> int:
        engine = make_engine(database_url)
        sessions = make_sessionmaker(engine)
        clock = Clock()
        service = Tournaments(sessions, clock, Friends(sessions, clock))
        made = await service.create(parse_spec({
            "name": name, "rounds": 1, "deals": 4, "min_players": 1,
            "starts_at": (clock.now() + timedelta(seconds=seconds)).isoformat()}))
        await engine.dispose()
        return made["id"]

    with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        return pool.submit(asyncio.run, run()).result()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_register_the_start_notice_and_live_standings(browser, server, size, locale):
    url, database_url = server
    words = WORDS[locale]
    name = f"Cup {size} {locale}"
    tid = create(database_url, name, 12)
    ctx = context(browser, size, locale=locale)
    page = ctx.new_page()
    page.goto(url + "/")
    play_as_guest(page)
    page.goto(url + "/tournaments")
    row = page.locator(f'li.tourney[data-tournament="{tid}"]')
    assert row.is_visible()
    row.get_by_role("button", name=words["register"]).click()
    page.wait_for_url(f"**/tournaments/{tid}")
    assert page.locator("#standings-body tr").count() == 1
    shot = artifacts_dir() / f"tournament-{size}-{locale[:2]}"
    page.screenshot(path=f"{shot}-registered.png", full_page=True)
    notice = page.locator('[data-notice="tournament_start"]')
    notice.wait_for(timeout=30000)
    assert words["notice"] in notice.inner_text()
    table = int(notice.get_attribute("data-table"))
    page.screenshot(path=f"{shot}-started.png", full_page=False)
    # away from any table the notice takes the player to the seat by itself
    page.wait_for_url(f"**/tables/{table}", timeout=10000)
    page.goto(url + f"/tournaments/{tid}")
    page.evaluate("() => { window.stillHere = true; }")  # a reload would lose this
    # the table plays on (the computer moves for the seat); the standings follow live
    page.wait_for_function("() => document.getElementById('tournament-status').textContent"
                           f" === {words['finished']!r}", timeout=60000)
    assert page.evaluate("() => window.stillHere === true")
    score = page.locator("#standings-body tr td.score").inner_text()
    assert score.lstrip("-").replace(".", "").isdigit()
    page.screenshot(path=f"{shot}-finished.png", full_page=True)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0  # nothing wider than the screen
    # the notice's button: one click to the seat
    page.goto(url + f"/tournaments/{tid}")
    assert page.locator("#my-table").is_hidden()  # the table is over
    page.evaluate("""(table) => import('/static/js/notices.js').then((n) => n.showNotice(
        {type: 'tournament_start', tournament: 1, name: 'x', round: 1, table}))""", table)
    page.locator('[data-notice="tournament_start"] .notice-join').click()
    page.wait_for_url(f"**/tables/{table}")
    assert page.locator("#table-tournament").get_attribute("href") == f"/tournaments/{tid}"
    ctx.close()


def contrast(page, selector: str) -> float:
    """The WCAG contrast of the element's text colour against the first opaque background
    among it and its ancestors."""
    return page.evaluate("""(selector) => {
      const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
      const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
      let node = document.querySelector(selector);
      const fg = rgb(getComputedStyle(node).color);
      let bg = null;
      while (node && !bg) { const c = rgb(getComputedStyle(node).backgroundColor);
        if (c.length < 4 || c[3] > 0) bg = c; node = node.parentElement; }
      bg = bg || [255, 255, 255];
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    }""", selector)


@pytest.mark.parametrize("size,locale", [("desktop", "en-US"), ("phone", "de-DE")])
def test_a_tournament_table_leads_back_to_the_tournament(browser, server, size, locale):
    """At a tournament's table: the header's link to the tournament is readable (contrast at
    least 4.5:1), the match-end dialog offers "Back to the tournament"; the tournament's page
    names the table by its own number (the table page's "Table N"), linked, and the countdown
    never reads "starts in 0:00" once the tournament runs."""
    url, database_url = server
    tid = create(database_url, f"Back {size} {locale}", 4)
    ctx = context(browser, size, locale=locale)
    page = ctx.new_page()
    page.goto(url + "/")
    play_as_guest(page)
    page.goto(url + f"/tournaments/{tid}")
    page.locator("#register").click()
    page.wait_for_url(f"**/tournaments/{tid}")
    page.wait_for_url("**/tables/*", timeout=30000)  # the start notice takes the player there
    table = int(page.url.rsplit("/", 1)[1])
    if size == "desktop":  # the phone's header shows no tournament line
        assert contrast(page, "#table-tournament") >= 4.5
    page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view",
                           timeout=15000)
    play_to_end([page])
    back = page.locator("#back-to-tournament")
    back.wait_for(state="visible", timeout=30000)
    assert back.get_attribute("href") == f"/tournaments/{tid}"
    assert back.inner_text() == {"en-US": "Back to the tournament",
                                 "de-DE": "Zurück zum Turnier"}[locale]
    page.screenshot(path=str(artifacts_dir() / f"tournament-back-{size}-{locale[:2]}.png"))
    back.click()
    page.wait_for_url(f"**/tournaments/{tid}")
    label = page.locator(f'#rounds li[data-table="{table}"] .table-no a')
    assert label.inner_text() == {"en-US": f"Table {table}", "de-DE": f"Tisch {table}"}[locale]
    assert label.get_attribute("href") == f"/tables/{table}"
    start = page.locator("#tournament-start").inner_text()
    assert "0:00" not in start and "starts in" not in start and "beginnt in" not in start
    page.screenshot(path=str(artifacts_dir() / f"tournament-back-page-{size}-{locale[:2]}.png"),
                    full_page=True)
    ctx.close()
