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

from tests.browser_table import READY, context, covering, move, new_table
from tests.conftest import artifacts_dir
from tests.platform_helpers import live_server, settings_for

pytestmark = pytest.mark.browser


def shot(page, what: str, size: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"tryout-{what}-{size}.png"))


@pytest.fixture
def quick_site(tmp_path):
    """A live server whose away grace is six seconds: a computer moves for a person gone
    (with one second, and again with three at a load average of 10, a run found the
    reservations already over when the page was ready: a computer had declared for the
    player before its page first connected)."""
    with live_server(settings_for(tmp_path, away_grace=6.0)) as url:
        yield url


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_coming_back_tells_what_the_computer_played_while_one_was_away(browser, quick_site, size):
    ctx = context(browser, size)
    page = ctx.new_page()
    table = new_table(page, quick_site, deals=1)
    page.wait_for_function(READY, timeout=20000)
    assert re.search(r"Deal 1 of 1 · Reservations$", page.text_content("#info")), page.text_content("#info")
    page.goto("about:blank")  # gone: after the grace a computer player moves for the seat
    time.sleep(9)
    page.goto(f"{quick_site}/tables/{table}")
    page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state", timeout=15000)
    missed = page.evaluate("window.doppelrunde.state.stood_in")
    assert missed and {m["reason"] for m in missed} == {"away"}, missed
    total = page.evaluate("window.doppelrunde.state.stood_in_total")
    assert total >= len(missed), (total, missed)
    notice = page.locator('[data-notice="stood_in"] .notice-text')
    notice.wait_for(timeout=5000)
    text = notice.text_content()
    if total == 1:
        assert re.fullmatch(r"The computer (played|chose) .+ for you: you were away\.", text), text
    elif total <= 4:
        assert text.startswith(f"The computer made {total} moves for you (you were away): "), text
        assert "Healthy" in text  # the reservation the computer said for the player
    else:  # a long absence: how many, and the last four
        assert text.startswith(f"The computer made {total} moves for you (you were away), the last 4: "), text
        assert text.split(", the last 4: ")[1].count(", ") == 3, text
    # the notice sits under the toolbar, not over it
    tools = page.locator("#table-tools").bounding_box()
    box = page.locator('[data-notice="stood_in"]').bounding_box()
    assert box["y"] >= tools["y"] + tools["height"] - 1, (box, tools)
    shot(page, "stood-in", size)
    ctx.close()


#: rectangles of things that must not be covered by the "why not" hint
COVERED = covering("document.getElementById('error')",
                   "#seats [data-seat], #trick [data-card], #hand [data-card], #choices button",
                   "n.dataset.seat != null ? `plate ${n.dataset.seat}` : n.dataset.card || n.textContent")


def play_until_a_card_may_not_be_played(page) -> bool:
    """Play the page's seat until it must follow (some cards not playable): True then."""
    for _ in range(400):
        if page.locator("[data-zone=prompt][data-my-turn=true]").count() and \
                page.evaluate("window.doppelrunde.state.view.phase") == "play" and \
                page.locator("#hand button.card[aria-disabled=true]").count():
            return True
        if move(page) == "over":
            return False
        time.sleep(0.03)
    return False


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_must_follow_hint_covers_no_plate_card_or_button(browser, site, size):
    ctx = context(browser, size)
    page = ctx.new_page()
    new_table(page, site, deals=4)
    assert play_until_a_card_may_not_be_played(page), "no deal where a card could not be played"
    hand = page.locator("#hand").bounding_box()
    page.locator("#hand button.card[aria-disabled=true]").first.click(force=True,
                                                                       position={"x": 8, "y": 24})
    page.wait_for_function("() => document.getElementById('error').textContent", timeout=5000)
    assert "must" in page.text_content("#error")
    assert page.evaluate(COVERED) == []
    assert page.locator("#error").is_visible()
    assert page.locator("#hand").bounding_box() == hand  # nothing moved
    shot(page, "must-follow", size)
    ctx.close()


def test_score_sheet_headers_break_only_between_words_and_its_link_stays_in_view(browser, site):
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    new_table(page, site, deals=4)
    page.wait_for_function(READY, timeout=20000)
    for _ in range(400):  # one deal played: a row with its game and scores
        if move(page) == "deal":
            break
        time.sleep(0.03)
    page.wait_for_selector("#scores tbody tr", timeout=20000)
    split = page.evaluate("""() => {
      const split = [];
      for (const th of document.querySelectorAll('#scores th[data-seat]')) {
        const text = (th.querySelector('.seat-head') || th).firstChild;
        if (!th.title.startsWith(text.textContent.replace('Comp.', 'Computer'))) split.push(`title ${th.title}`);
        for (const m of text.textContent.matchAll(/[^\\s-]+-?/g)) {  // each word (a hyphen ends one)
          const range = document.createRange();
          range.setStart(text, m.index);
          range.setEnd(text, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) split.push(m[0]);
        }
      }
      return split; }""")
    assert split == [], split
    # however long the sheet grows, "Score sheet page" stays in view, not under the chat
    page.evaluate("""() => { const body = document.querySelector('#scores tbody');
      for (let i = 0; i < 16; i++) body.append(body.rows[0].cloneNode(true)); }""")
    link = page.locator("#score-sheet-page")
    box = link.bounding_box()
    chat = page.locator("#side-panel .chat").bounding_box()
    assert box["y"] + box["height"] <= chat["y"], (box, chat)
    on_top = page.evaluate("""() => { const r = document.getElementById('score-sheet-page').getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.id; }""")
    assert on_top == "score-sheet-page"
    shot(page, "score-sheet", "desktop")
    ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_match_result_is_as_large_as_its_content(browser, site, size):
    from tests.browser_table import play_to_end

    ctx = context(browser, size)
    page = ctx.new_page()
    new_table(page, site, deals=1)
    play_to_end([page])
    page.wait_for_selector("#rematch", state="visible")
    gap = page.evaluate("""() => {
      const dialog = document.querySelector('[data-dialog=match-result]');
      const style = getComputedStyle(dialog);
      const inner = dialog.getBoundingClientRect().bottom - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth);
      const shown = [...dialog.querySelectorAll('.dialog-body > *')].filter((n) => n.getClientRects().length);
      return inner - Math.max(...shown.map((n) => n.getBoundingClientRect().bottom)); }""")
    assert 0 <= gap <= 4, gap  # no empty area under Rematch, Back to lobby and the links
    for selector in ("#rematch", "#back-to-lobby", "#score-sheet-link", "#replay-link"):
        assert page.locator(selector).is_visible(), selector
    shot(page, "match-result", size)
    ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_tool_is_named_and_the_site_menu_is_reachable(browser, site, size):
    ctx = context(browser, size)
    page = ctx.new_page()
    new_table(page, site, deals=1)
    page.wait_for_function(READY, timeout=20000)
    tools = page.evaluate("""() => [...document.querySelectorAll('#table-tools .tool')]
      .filter((n) => n.getClientRects().length)
      .map((n) => ({id: n.id, label: n.getAttribute('aria-label') || n.querySelector('input')?.getAttribute('aria-label'),
        title: n.title, shown: n.innerText.trim()}))""")
    assert len(tools) >= 5, tools
    for tool in tools:  # a name for screen readers and the pointer, and a word one can see
        assert tool["label"] and tool["title"] == tool["label"] and tool["shown"], tool
    if size == "phone":
        assert [t["shown"] for t in tools] == ["Last", "Sheet", "Chat", "Rules", "Settings", "Leave"], tools
        assert not page.locator("#nav-matches").is_visible()
        page.click("#site-menu")
        assert page.get_attribute("#site-menu", "aria-expanded") == "true"
        for link in ("#nav-lobby", "#nav-matches", "#nav-rules", "#nav-leaderboards"):
            box = page.locator(link).bounding_box()
            assert page.locator(link).is_visible() and box["y"] + box["height"] <= 844, link
        shot(page, "site-menu", size)
        page.keyboard.press("Escape")
        assert page.get_attribute("#site-menu", "aria-expanded") == "false"
        page.click("#site-menu")
        page.click("#nav-lobby")
        page.wait_for_url(f"{site}/")
    else:
        assert not page.locator("#site-menu").is_visible()
        assert page.locator("#nav-matches").is_visible()
        assert [t["shown"] for t in tools][:3] == ["Last trick", "Score sheet", "Chat"], tools
    ctx.close()


GERMAN_TOOLS = {
    "doppelkopf": ["Letzter", "Spielliste", "Chat", "Regeln", "Optionen", "Verlassen"],
    # the learning aid's switch: seven tools, so the game's name gets a row of its own
    "doublehead_kids": ["Letzter", "Spielliste", "Chat", "Regeln", "Lernhilfe", "Optionen", "Verlassen"],
    "doppelganger_tricks": ["Letzter", "Spielliste", "Chat", "Regeln", "Optionen", "Verlassen"],
    "doppio": ["Spielliste", "Chat", "Regeln", "Optionen", "Verlassen"],
}


@pytest.mark.parametrize("game", list(GERMAN_TOOLS))
def test_the_german_phone_toolbar_fits_with_its_words(browser, site, game):
    ctx = context(browser, "phone", locale="de-DE")
    page = ctx.new_page()
    players = 4 if game in ("doppelkopf", "doublehead_kids") else 3
    new_table(page, site, game, players=players, bots=players - 1, deals=1)
    page.wait_for_function(READY, timeout=20000)
    shown = page.evaluate("""() => [...document.querySelectorAll('#table-tools .tool')]
      .filter((n) => n.getClientRects().length).map((n) => n.innerText.trim())""")
    assert shown == GERMAN_TOOLS[game], shown
    beside = page.evaluate("""() => [...document.querySelectorAll('#table-tools .tool')].filter((n) => n.getClientRects().length)
      .filter((n) => n.querySelector('.icon').getBoundingClientRect().bottom > n.querySelector('.tool-short').getBoundingClientRect().top + 1)
      .map((n) => n.innerText.trim())""")
    assert beside == [], beside  # each tool's word under its icon, the learning aid's switch too
    fits = page.evaluate("""() => { const bar = document.querySelector('.table-bar');
      const tools = [...document.querySelectorAll('#table-tools .tool')].filter((n) => n.getClientRects().length);
      return {bar: bar.scrollWidth <= bar.clientWidth, page: document.documentElement.scrollWidth <= innerWidth,
        inside: tools.every((n) => n.getBoundingClientRect().right <= innerWidth)}; }""")
    assert fits == {"bar": True, "page": True, "inside": True}, fits
    title = page.evaluate("""() => { const h = document.querySelector(".table-title");
      const head = h.getBoundingClientRect(), tools = document.getElementById("table-tools").getBoundingClientRect();
      return [h.scrollWidth <= h.clientWidth, h.scrollHeight <= h.clientHeight,
        head.right <= tools.left || head.bottom <= tools.top]; }""")
    assert title == [True, True, True], title  # "Doppelkopf" whole, not "Dop pe…" nor "D… f…"
    shot(page, f"toolbar-de-{game}", "phone")
    ctx.close()
