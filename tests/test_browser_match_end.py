"""The end condition in the browser: the New Game form, the table's header (its statement and
its progress line), the score sheet beside the table and the score sheet page say the same,
per game, on a site with the production rule (``any_deal_count`` off). Screenshots of the
form and the table go to the artifacts folder."""

from __future__ import annotations

import re

import pytest

from tests.browser_table import context, play_as_guest
from tests.conftest import artifacts_dir


@pytest.fixture
def strict_site(tmp_path):
    from tests.platform_helpers import live_server, settings_for

    with live_server(settings_for(tmp_path, any_deal_count=False)) as url:
        yield url


GAMES = [
    # game, players, deals typed (Doppelkopf only), the statement, the status line's start and
    # end (a goal that no count of deals states comes last: a phone's two lines cut it first)
    ("doppelkopf", 4, 8, "8 deals", ("Deal 1 of 8 · ", "")),
    ("doublehead_kids", 4, None, "first to 5 golden coins", ("Round 1 · ", " · first to 5 golden coins")),
    ("doppelganger_tricks", 3, None, "3 rounds, one per player", ("Round 1 of 3 · ", "")),
    ("doppio", 3, None, "up to 100 points", ("Round 1 · Deck: ", " · up to 100 points")),
]


@pytest.mark.parametrize(("game", "players", "deals", "statement", "progress"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_form_header_and_score_sheet_state_the_same_end(browser, strict_site, game, players,
                                                         deals, statement, progress):
    ctx = context(browser, "desktop", locale="en-US")
    page = ctx.new_page()
    page.goto(strict_site + "/")
    play_as_guest(page)
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    page.select_option("#bots", str(players - 1))
    assert page.is_visible("#deals") == (deals is not None)  # only Doppelkopf asks
    if deals is not None:
        page.fill("#deals", str(deals))
    note = page.locator("#match-end-note")
    assert note.text_content() == f"Match: {statement}."
    if game == "doppelkopf":
        page.screenshot(path=str(artifacts_dir() / "match-end-form.png"))
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state"
                           " && window.doppelrunde.state.view", timeout=20000)
    assert page.locator(".table-title #match-end").text_content() == statement
    # the heading whole in its title, where a desktop bar full of tools cuts it with "…"
    heading = page.evaluate("""() => { const h = document.querySelector('.table-title');
      return [h.title, h.textContent.replace(/\\s+/g, ' ').trim()]; }""")
    assert heading[0] == heading[1] and heading[0].endswith(statement), heading
    page.wait_for_function("([start, end]) => { const info = document.getElementById('info').textContent;"
                           " return info.startsWith(start) && info.endsWith(end); }",
                           arg=list(progress), timeout=10000)
    assert page.locator("#sheet-end").text_content() == f"Match: {statement}."
    page.screenshot(path=str(artifacts_dir() / f"match-end-{game}.png"))
    table = page.url.rsplit("/", 1)[1]
    page.goto(f"{strict_site}/tables/{table}/scores")
    assert page.locator("#match-end").text_content() == f"Match: {statement}."
    ctx.close()
