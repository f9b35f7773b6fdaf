"""The site in headless Chromium: a guest plays a whole deal against three computer players,
and two registered users play an Invited table that a third user cannot join.

The server is a real uvicorn in a thread on a free port with a temporary SQLite database;
computer players think 0 seconds. Screenshots go to artifacts_dir().
"""

from __future__ import annotations

import re
import time

import pytest

from tests import browser_table
from tests.browser_table import CORNER, READY, context, match_dialog_open, play_as_guest
from tests.conftest import artifacts_dir
from tests.platform_helpers import ScriptedRandom, live_server, settings_for

pytestmark = pytest.mark.browser

def play_to_end(pages, limit_s: float = 180) -> None:
    """Play every page's seat until each page shows the match result (tests/browser_table.py)."""
    browser_table.play_to_end(pages, limit_s)


def contrast(color: str, background: str) -> float:
    """WCAG contrast ratio (1 to 21) of two CSS "rgb(r, g, b)" colours."""
    def luminance(css: str) -> float:
        channels = [int(n) / 255 for n in re.findall(r"\d+", css)[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, dark = sorted((luminance(color), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def register(page, url: str, name: str) -> None:
    page.goto(url + "/register")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "correct horse")
    page.click("#submit-register")
    page.wait_for_url(url + "/")
    assert name in page.text_content("#me")


def test_guest_plays_a_whole_deal_against_three_computer_players(browser, site):
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    page.goto(site + "/")
    play_as_guest(page)
    assert page.text_content("#me").strip().startswith("Guest-")  # the name, no "(guest)"
    page.fill("#deals", "1")
    page.select_option("#bots", "3")
    page.screenshot(path=str(artifacts_dir() / "lobby.png"), full_page=True)
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function(READY, timeout=15000)
    page.screenshot(path=str(artifacts_dir() / "table-start.png"))
    play_to_end([page])
    assert page.text_content("#match-result").startswith("Winner:")
    rows = page.locator("#scores tbody tr")
    assert rows.count() == 1
    totals = [int(t) for t in page.locator("#scores tfoot td").all_text_contents()[1:]]
    assert len(totals) == 4 and sum(totals) == 0
    assert page.locator("#hand [data-card]").count() == 0
    page.click("#match-result-dialog details.last-deal summary")
    points = page.text_content("#match-result-dialog [data-key=card_points]")
    assert re.fullmatch(r"Card points: Re \d+ · Kontra \d+", points), points
    assert sum(int(n) for n in re.findall(r"\d+", points)) == 240
    page.screenshot(path=str(artifacts_dir() / "table-match-over.png"))
    page.click("#score-sheet-link")
    assert [int(t) for t in page.locator("#scores tfoot td").all_text_contents()[2:]] == totals
    assert page.text_content("#winners").startswith("Winner:")
    ctx.close()


def test_invited_table_two_people_two_computers_and_a_stranger_refused(browser, site):
    alice_ctx, carol_ctx = context(browser), context(browser)
    bob_ctx = context(browser, "phone")  # bob plays on a phone
    alice, bob, carol = alice_ctx.new_page(), bob_ctx.new_page(), carol_ctx.new_page()
    register(alice, site, "alice")
    register(bob, site, "bob")
    register(carol, site, "carol")

    alice.fill("#deals", "1")
    alice.check("input[name=opponents][value=invited]")
    alice.fill("#invite", "bob")
    alice.select_option("#bots", "2")
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r".*/tables/\d+$"))
    table_url = alice.url
    assert "/tables/" in alice.text_content("#secret-link")

    carol.goto(site + "/")
    assert carol.locator(f"#tables-body a[href='{table_url[len(site):]}']").count() == 0
    carol.goto(table_url)
    assert carol.locator("#join").count() == 0  # no Join button that would only fail
    assert "Only invited players" in carol.text_content("#not-invited")
    refused = carol.evaluate(
        """async (url) => {
            const me = await (await fetch('/api/me')).json();
            const id = url.split('/').pop();
            const r = await fetch('/api/tables/' + id + '/join', {method: 'POST',
                headers: {'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf}, body: '{}'});
            return r.status;
        }""", table_url)
    assert refused == 403  # the server refuses a hand-made join all the same

    bob.goto(site + "/")
    bob.click(f"#tables-body a[href='{table_url[len(site):]}']")
    bob.click("#join")
    bob.wait_for_url(table_url)
    bob.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view",
                          timeout=15000)
    bob.screenshot(path=str(artifacts_dir() / "invited-table-phone.png"), full_page=True)
    play_to_end([alice, bob])
    for page in (alice, bob):
        assert page.text_content("#match-result").startswith("Winner:")
    names = alice.locator("#scores thead th[data-seat]").all_text_contents()
    assert names[0:2] == ["alice", "bob"]
    for ctx in (alice_ctx, bob_ctx, carol_ctx):
        ctx.close()


NO_TRUMPS = ["AC", "AC", "TC", "TC", "KC", "KC", "9C", "9C", "AS", "AS", "TS", "TS"]


def test_guest_declares_poverty_and_gives_three_chosen_cards(browser, tmp_path, monkeypatch):
    """Seat 0 is dealt no trumps; the computer players are scripted to say healthy and take the
    poverty (this test is about the person's side of it, not about the bots' judgement)."""
    from app.bots import runner

    def rng(_table_id: int) -> ScriptedRandom:
        return ScriptedRandom(NO_TRUMPS, prefer=("healthy", "accept"))

    async def scripted(_game, _level, view, seed, *_args, **_kwargs):
        legal = [a for a in view["legal"] if a["type"] != "announce"]
        return ScriptedRandom([], prefer=("healthy", "accept"), seed=seed).choice(legal)

    monkeypatch.setattr(runner, "decide", scripted)
    with live_server(settings_for(tmp_path), rng_factory=rng) as url:
        ctx = context(browser)
        page = ctx.new_page()
        page.goto(url + "/")
        play_as_guest(page)
        page.fill("#deals", "1")
        page.click("#rule-options summary")  # the rule options are folded
        assert not page.is_checked("#opt-poverty")  # off in the DDV preset
        page.check("#opt-poverty")
        page.click("#create-table")
        page.wait_for_url(re.compile(r".*/tables/\d+$"))
        page.click("#choices button[data-type=declare][data-value=poverty]")
        page.wait_for_selector("#hand button.card.selectable")
        assert page.get_attribute("#submit-cards", "aria-disabled") == "true"
        page.click("#submit-cards", force=True)  # too early: it says why and sends nothing
        assert "three cards" in page.text_content("#error")
        for card in ("9C", "9C", "KC"):
            page.locator(f"#hand button.card.selectable[data-card='{card}']:not(.selected)").first.click(position=CORNER)
        assert page.locator("#hand button.card.selected").count() == 3
        page.screenshot(path=str(artifacts_dir() / "poverty-give.png"))
        page.click("#submit-cards")
        page.wait_for_function("() => window.doppelrunde.state.view.phase === 'play'", timeout=15000)
        view = page.evaluate("window.doppelrunde.state.view")
        assert view["poverty"]["poor"] == 0 and view["poverty"]["taker"] in (1, 2, 3)
        assert len(view["hand"]) == 12
        play_to_end([page])
        assert page.text_content("#match-result-dialog .summary-game").startswith("Poverty")
        ctx.close()


def test_reconnects_by_itself_and_a_second_tab_takes_the_seat_over(browser, site):
    ctx = context(browser)
    first = ctx.new_page()
    first.goto(site + "/")
    play_as_guest(first)
    first.fill("#deals", "1")
    first.click("#create-table")
    first.wait_for_url(re.compile(r".*/tables/\d+$"))
    first.wait_for_function("() => document.getElementById('conn').textContent === 'connected'")
    seq = first.evaluate("window.doppelrunde.seq")
    first.evaluate("window.doppelrunde.socket.ws.close()")  # the network drops
    first.wait_for_function("() => document.getElementById('conn').textContent === 'reconnecting…'")
    first.wait_for_function("() => document.getElementById('conn').textContent === 'connected'",
                            timeout=15000)
    first.wait_for_function(f"() => window.doppelrunde.seq > {seq}")  # resumed, seat shown again

    second = ctx.new_page()
    second.goto(first.url)
    second.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.you === 0")
    first.wait_for_function(
        "() => document.getElementById('conn').textContent.includes('another tab')")
    assert "bad" in first.get_attribute("#conn", "class")
    first.wait_for_selector("#taken-over", state="visible")  # said over the board, not only in a corner
    text, back = first.evaluate("""() => [getComputedStyle(document.querySelector('#taken-over p')).color,
                                       getComputedStyle(document.getElementById('taken-over')).backgroundColor]""")
    assert contrast(text, back) >= 4.5, (text, back)  # readable (WCAG AA), not white on cream
    assert "inactive" in first.get_attribute("#board", "class")
    first.click("#play-here")  # take the seat back in the first tab
    first.wait_for_function("() => document.getElementById('conn').textContent === 'connected'")
    second.wait_for_function(
        "() => document.getElementById('conn').textContent.includes('another tab')")
    assert "inactive" not in first.get_attribute("#board", "class")
    ctx.close()


def test_a_double_click_on_a_card_plays_it_once_without_an_error(browser, site):
    """The second click of a double click reaches the page before the server's answer: it is
    not sent (it would be refused as "not allowed" while the first one was played)."""
    ctx = context(browser)
    page = ctx.new_page()
    page.goto(site + "/")
    play_as_guest(page)
    page.fill("#deals", "1")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    while not page.locator("#hand button.card.legal").count():
        page.wait_for_function(READY, timeout=15000)
        if not page.locator("#hand button.card.legal").count():
            browser_table.move(page)
    cards = page.locator("#hand button.card").count()
    seq = page.evaluate("window.doppelrunde.seq")
    page.locator("#hand button.card.legal").first.dblclick(position=CORNER)
    page.wait_for_function(f"() => window.doppelrunde.seq > {seq}", timeout=15000)
    page.wait_for_function(READY, timeout=15000)  # the computer players moved after it
    assert page.text_content("#error") == ""
    assert page.locator("#hand button.card").count() == cards - 1
    ctx.close()


def test_a_click_on_a_card_that_may_not_be_played_says_why(browser, site):
    """A card that must not be played (a suit to follow, or not the player's turn) says why
    when clicked, and nothing is sent."""
    ctx = context(browser, "phone")
    page = ctx.new_page()
    # two deals: in one, a run of the player's own turns could leave no moment to ask (CI flake)
    browser_table.new_table(page, site, deals=2)
    reasons: dict[str, str] = {}
    deadline = time.monotonic() + 120
    while len(reasons) < 2 and not match_dialog_open(page):
        assert time.monotonic() < deadline, reasons
        page.wait_for_function(READY, timeout=15000)
        view = page.evaluate("window.doppelrunde.state.view")
        blocked = page.locator("#hand button.card.unplayable")
        mine = page.get_attribute("[data-zone=prompt]", "data-my-turn") == "true"
        if "follow" not in reasons and mine and view["phase"] == "play" and view["trick"] and blocked.count():
            seq = page.evaluate("window.doppelrunde.seq")
            blocked.first.click(position=CORNER, force=True)
            reasons["follow"] = page.text_content("#error")
            assert page.evaluate("window.doppelrunde.seq") == seq  # nothing was sent
            page.screenshot(path=str(artifacts_dir() / "why-not-phone.png"))
        result = browser_table.move(page)
        view = page.evaluate("window.doppelrunde.state.view")
        if result == "moved" and "turn" not in reasons and view["phase"] == "play" and view["to_move"] != 0:
            said = page.evaluate("""() => {  // at once, in one step: a card that cannot be played now
              const card = document.querySelector('#hand button.card:not(.legal)');
              if (!card) return null;
              card.click();
              return document.getElementById('error').textContent; }""")
            if said:
                reasons["turn"] = said
                # the hint is about that moment: when the table comes to the player's turn
                # (computer players move at once, well within the hint's own 5 s), it is gone
                shown = page.wait_for_function("""() => {
                  const mine = document.querySelector('[data-zone=prompt][data-my-turn=true]');
                  const dialog = document.querySelector('[data-dialog$=result][open]');
                  return mine || dialog ? {mine: Boolean(mine), hint: document.getElementById('error').textContent} : null;
                }""", timeout=15000).json_value()
                assert not shown["mine"] or shown["hint"] == "", shown
    assert re.fullmatch(r"You must follow (clubs|spades|hearts|diamonds)[.:].*|A trump was led: you must play a trump\.",
                        reasons["follow"]), reasons
    # computer players move at once here: by the newest state it may be the player's turn
    # again while the table still shows the moves before it
    assert re.fullmatch(r"Not your turn: Computer \d \(beginner\) plays now\.|One moment: the table is still "
                        r"showing the last moves\.", reasons["turn"]), reasons
    ctx.close()
