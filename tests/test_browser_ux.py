"""How the table feels, in headless Chromium: a guest plays a whole Doppelkopf deal against
three computer players by KEYBOARD ONLY, on a 390×844 phone and a 1366×768 desktop, in English
and German; no horizontal scrolling on the phone; cards are named buttons at least 44 px
large; screenshots of lobby, table and score sheet per language and size; axe-core (from its
npm package) finds no serious or critical accessibility violation on the lobby, the table in the
middle of a deal and the score sheet.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.browser_table import context, play_as_guest
from tests.conftest import artifacts_dir
from tests.test_browser_tables import console_errors

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
def axe_violations(page, script: str) -> list[str]:
    """Serious and critical axe-core violations on the page, as 'rule: target' lines."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # evaluated over the DevTools protocol, not as an inline <script>: the site's
        # Content-Security-Policy refuses inline script (app/web/headers.py), as it should
        page.evaluate(f"{script}\n;undefined")
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {n['target']} {n.get('failureSummary', '')[:160]}"
            for v in result["violations"] if v["impact"] in ("serious", "critical")
            for n in v["nodes"]]


def held_order(hand: list[str], trumps: list[str]) -> list[str]:
    """How players hold a Doppelkopf hand: trumps in the view's order (highest first), then
    clubs, spades, hearts, diamonds, each from the ace down."""
    def key(card: str) -> tuple[int, int, int]:
        if card in trumps:
            return (0, trumps.index(card), 0)
        return (1, "CSHD".index(card[-1]), "ATKQJ9".index(card[:-1]))
    return sorted(hand, key=key)


def no_horizontal_scroll(page) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide}px"


MY_TURN = """() => Boolean(document.querySelector('[data-dialog=match-result][open]') ||
  document.querySelector('[data-zone=prompt][data-my-turn=true]'))"""


def over(page) -> bool:
    return page.locator("[data-dialog=match-result][open]").count() == 1


def card_name(button) -> str:
    """A card button's accessible name: its own aria-label or its picture's (role img)."""
    return button.evaluate("""b => b.getAttribute('aria-label') ||
        b.querySelector('svg[role=img]').getAttribute('aria-label')""")


def focused(page) -> dict:
    return page.evaluate("""() => { const a = document.activeElement; return {
        card: a.matches('#hand button.card') ? a.dataset.card : null,
        legal: a.matches('#hand button.card.legal'),
        label: a.getAttribute('aria-label') || a.querySelector('svg[role=img]')?.getAttribute('aria-label'), type: a.dataset.type || null}; }""")


def keyboard_move(page) -> None:
    """Make one move with keys only: the healthy declaration by its number key, other buttons
    by their number keys, a card by arrows to a legal card and Enter."""
    healthy = page.locator("#choices button[data-type=declare][data-value=healthy]")
    buttons = page.locator("#choices button[data-key]:not([data-type=announce])")
    if healthy.count():
        page.keyboard.press(healthy.first.get_attribute("data-key"))
        return
    if page.locator("#hand button.card.legal").count() == 0 and buttons.count():
        page.keyboard.press(buttons.first.get_attribute("data-key"))
        return
    page.keyboard.press("ArrowDown")  # into the hand (or stay there)
    for _ in range(14):
        now = focused(page)
        if now["legal"]:
            assert now["label"] and re.search(r"\w+ \w+ \w+|\w+-\w+", now["label"]), now
            page.keyboard.press("Enter")
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError("the arrow keys reached no legal card")


def play_by_keyboard(page, limit_s: float = 240) -> int:
    """Play our seat by keyboard until the match is over; return the moves made."""
    deadline = time.monotonic() + limit_s
    moves = 0
    while not over(page):
        assert time.monotonic() < deadline, "the match did not end in time"
        page.wait_for_function(MY_TURN, timeout=30000)
        if over(page):
            break
        seq = page.evaluate("window.doppelrunde.seq")
        keyboard_move(page)
        moves += 1
        page.wait_for_function(
            f"() => window.doppelrunde.seq > {seq} || document.getElementById('error').textContent",
            timeout=30000)
    return moves


def set_language(page, site: str, lang: str) -> None:
    """Choose the language with the header's switch (/lang/<de|en>, remembered in a cookie)."""
    page.goto(f"{site}/lang/{lang}?next=/")
    assert page.evaluate("document.documentElement.lang") == lang


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_deal_by_keyboard_only(browser, site, axe_script, size, lang):
    ctx = context(browser, size)
    page = ctx.new_page()
    problems = console_errors(page)
    shots = artifacts_dir()
    page.goto(site + "/")
    play_as_guest(page)
    set_language(page, site, lang)
    page.wait_for_selector("#me")
    no_horizontal_scroll(page)
    page.screenshot(path=str(shots / f"ux-lobby-{lang}-{size}.png"), full_page=True)
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    page.fill("#deals", "1")
    page.select_option("#bots", "3")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function(MY_TURN, timeout=30000)

    # the first moves by keyboard, then look at the table in the middle of the deal
    while page.evaluate("(window.doppelrunde.state.view || {}).phase") != "play" or \
            page.locator("#hand button.card").count() > 9:
        page.wait_for_function(MY_TURN, timeout=30000)
        seq = page.evaluate("window.doppelrunde.seq")
        keyboard_move(page)
        page.wait_for_function(f"() => window.doppelrunde.seq > {seq}", timeout=30000)
    page.wait_for_function(MY_TURN, timeout=30000)
    no_horizontal_scroll(page)
    cards = page.locator("#hand button.card")
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert re.fullmatch(r"[A-Z]\w+ of \w+|\w+-\w+", card_name(cards.nth(i))), card_name(cards.nth(i))
    view = page.evaluate("window.doppelrunde.state.view")
    shown = page.locator("#hand button.card").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
    assert shown == held_order(view["hand"], view["trumps"])
    unplayable = page.locator("#hand button.card[aria-disabled=true]").count()
    legal = page.locator("#hand button.card.legal").count()
    assert legal >= 1 and legal + unplayable == cards.count()
    page.screenshot(path=str(shots / f"ux-table-{lang}-{size}.png"))
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    # the last trick on demand (key L), closed with Escape
    page.keyboard.press("l")
    page.wait_for_selector("#last-trick-dialog[open]")
    assert page.locator("#last-trick-dialog figure[data-card][data-played-by]").count() == 4
    assert page.text_content("#last-trick-winner")
    page.screenshot(path=str(shots / f"ux-last-trick-{lang}-{size}.png"))
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    page.keyboard.press("Escape")
    page.wait_for_selector("#last-trick-dialog:not([open])", state="attached")
    page.wait_for_function(MY_TURN, timeout=30000)
    assert page.title() == {"en": "Your turn – Doppelrunde", "de": "Du bist dran – Doppelrunde"}[lang]

    play_by_keyboard(page)
    assert page.text_content("#match-result")
    no_horizontal_scroll(page)
    rows = page.locator("#scores tbody tr")
    assert rows.count() == 1
    totals = [int(t) for t in page.locator("#scores tfoot td").all_text_contents()[1:]]
    assert len(totals) == 4 and sum(totals) == 0
    value = page.text_content("#scores tbody tr .value")  # beside the table: under the game type
    lines = page.locator("#match-result-dialog ol.score-lines li .points").all_text_contents()
    assert lines and sum(int(n) for n in lines) == int(value)
    page.screenshot(path=str(shots / f"ux-match-over-{lang}-{size}.png"))
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    page.click("#show-score-sheet")  # beside the table on a wide screen, a drawer on a phone
    page.wait_for_selector("#scores", state="visible")
    page.screenshot(path=str(shots / f"ux-score-sheet-{lang}-{size}.png"))
    page.click("#score-sheet-link", force=True)  # the score sheet page of the finished match
    page.wait_for_selector("#scores tfoot")
    no_horizontal_scroll(page)
    page.screenshot(path=str(shots / f"ux-score-page-{lang}-{size}.png"), full_page=True)
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    assert problems == []
    ctx.close()


def test_new_game_offers_duel_and_tournament_modes(browser, site):
    ctx = context(browser, "phone")
    page = ctx.new_page()
    page.goto(site + "/")
    play_as_guest(page)
    assert page.locator("#opt-table_mode").count() == 0  # DDV rules have no GameTwist modes
    page.select_option("#preset", "gametwist")
    assert page.input_value("#opt-table_mode") == "standard"
    page.select_option("#opt-table_mode", "duel")
    assert page.input_value("#deals") == "4" and page.input_value("#bots") == "2"
    assert "Duel mode" in page.text_content("#mode-note")
    no_horizontal_scroll(page)
    page.screenshot(path=str(artifacts_dir() / "ux-new-game-duel-phone.png"), full_page=True)
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    table_id = page.url.rsplit("/", 1)[1]
    seats = page.evaluate(f"async () => (await (await fetch('/api/tables/{table_id}')).json()).seats")
    assert [(s["seat"], s["bot"] is not None) for s in seats] == [(0, False), (1, True), (3, True)]
    page.goto(site + "/")  # the last New Game's settings come back (the duel's 2 computers)
    assert page.input_value("#opt-table_mode") == "duel" and page.input_value("#bots") == "2"
    page.select_option("#opt-table_mode", "tournament")
    page.select_option("#bots", "3")
    assert "revealed at the end" in page.text_content("#mode-note")
    page.fill("#deals", "1")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view", timeout=30000)
    assert page.evaluate("window.doppelrunde.state.table.status") == "playing"
    assert page.evaluate("window.doppelrunde.state.view.points_won") is None
    # an announcement is heard as it is made, but no standing list is shown
    announce = page.locator("#choices button[data-type=announce][data-value=re], "
                            "#choices button[data-type=announce][data-value=kontra]")
    while not announce.count():
        page.wait_for_function(MY_TURN, timeout=30000)
        if announce.count():
            break
        seq = page.evaluate("window.doppelrunde.seq")
        keyboard_move(page)
        page.wait_for_function(f"() => window.doppelrunde.seq > {seq}", timeout=30000)
    value = announce.first.get_attribute("data-value")
    page.keyboard.press(announce.first.get_attribute("data-key"))
    page.wait_for_function("() => document.getElementById('table-news').textContent", timeout=30000)
    assert "announces " + {"re": "Re", "kontra": "Kontra"}[value] in page.text_content("#table-news")
    assert page.evaluate("window.doppelrunde.state.view.announcements") == []
    assert "points" not in page.text_content("#seats")
    ctx.close()


@pytest.mark.parametrize("game,players", [("doppio", 2), ("doppelganger_tricks", 3), ("doublehead_kids", 4)])
def test_every_game_table_is_keyboard_reachable_and_passes_axe(browser, site, axe_script, game, players):
    ctx = context(browser, "phone")
    page = ctx.new_page()
    page.goto(site + "/")
    play_as_guest(page)
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    page.select_option("#bots", str(players - 1))  # the game's own end: no Deals field
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state && window.doppelrunde.state.view "
                           "&& document.querySelectorAll('#hand button.card').length", timeout=30000)
    no_horizontal_scroll(page)
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.matches('#hand button.card, #choices button')")
    names = page.locator("#hand button.card").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label') || n.querySelector('svg[role=img]')?.getAttribute('aria-label'))")
    assert names and all(names), names
    page.screenshot(path=str(artifacts_dir() / f"ux-table-{game}-phone.png"))
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    ctx.close()


COUNT_ANIMATIONS = """Element.prototype.animate = ((original) => function (...args) {
  window.animations = (window.animations || 0) + 1; return original.apply(this, args); })(Element.prototype.animate);
AudioContext.prototype.createOscillator = ((original) => function (...args) {
  window.tones = (window.tones || 0) + 1; return original.apply(this, args); })(AudioContext.prototype.createOscillator);"""


#: sets window.sawHeld once a completed trick has been in the trick zone
SEE_HELD = """() => new MutationObserver(() => {
  if (document.querySelector('#trick.held')) window.sawHeld = true;
}).observe(document.body, {subtree: true, childList: true, attributes: true})"""


def test_motion_and_sound_settings_hold_the_trick_reduced_motion_and_silence(browser, site):
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})  # the real pacing
    ctx.add_init_script(COUNT_ANIMATIONS)
    page = ctx.new_page()
    page.goto(site + "/")
    play_as_guest(page)
    page.fill("#deals", "1")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function(MY_TURN, timeout=30000)
    page.keyboard.press("s")
    page.wait_for_selector("#settings-dialog[open]")
    page.check("#set-speed-slow")
    assert not page.is_checked("#set-reduced-motion")  # the system asks for no reduced motion
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings-dialog:not([open])", state="attached")
    stored = page.evaluate("JSON.parse(localStorage.getItem('doppelrunde.settings'))")
    assert stored == {"speed": "slow", "reducedMotion": False, "sound": True}
    # play until a trick is complete: it stays in the middle with its winner, then goes
    while not page.locator("#trick.held").count():
        page.wait_for_function(MY_TURN[:-1] + " || document.querySelector('#trick.held'))", timeout=30000)
        if page.locator("#trick.held").count():
            break
        seq = page.evaluate("window.doppelrunde.seq")
        keyboard_move(page)
        page.wait_for_function(f"() => window.doppelrunde.seq > {seq}", timeout=30000)
    assert page.locator("#trick.held .trick-card[data-played-by]").count() == 4
    assert "wins the trick" in page.text_content("#trick .trick-note")
    page.wait_for_selector("#trick.held", state="detached", timeout=30000)
    assert page.evaluate("window.animations") > 0  # cards flew in and the trick went to its winner
    assert page.evaluate("window.tones") > 0  # sound effects (card played, trick won, your turn)
    # reduced motion and no sound: nothing moves or sounds any more (kept over a reload)
    page.keyboard.press("s")
    page.check("#set-reduced-motion")
    page.uncheck("#set-sound")
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_function(MY_TURN, timeout=30000)
    assert page.evaluate("document.documentElement.classList.contains('reduced-motion')")
    page.evaluate(SEE_HELD)
    for _ in range(12):  # the whole deal: no pause, a completed trick stays until the next card
        page.wait_for_function(MY_TURN, timeout=30000)
        if over(page):
            break
        cards = page.locator("#trick .trick-card").count()
        assert cards or not page.evaluate("window.sawHeld"), "the completed trick left with no pause"
        seq = page.evaluate("window.doppelrunde.seq")
        keyboard_move(page)
        page.wait_for_function(f"() => window.doppelrunde.seq > {seq}", timeout=30000)
    assert page.evaluate("window.animations || 0") == 0
    assert page.evaluate("window.tones || 0") == 0
    ctx.close()


SOLO_HAND = ["AC", "AC", "TC", "KC", "9C", "QS", "JD", "AS", "TH", "KH", "9H", "9D"]


def test_the_hand_is_resorted_when_the_player_declares_a_clubs_solo(browser, tmp_path, monkeypatch):
    """Seat 0 is dealt a clubs-heavy hand; the computer players are scripted to say healthy.
    Before the contract the clubs are plain cards at the end of the trumps; after the clubs
    solo is declared (by keyboard) they are trumps, and the hand is sorted again."""
    from app.bots import runner
    from tests.platform_helpers import ScriptedRandom, live_server, settings_for

    async def scripted(_game, _level, view, seed, *_args, **_kwargs):
        legal = [a for a in view["legal"] if a["type"] != "announce"]
        return ScriptedRandom([], prefer=("healthy",), seed=seed).choice(legal)

    monkeypatch.setattr(runner, "decide", scripted)
    with live_server(settings_for(tmp_path),
                     rng_factory=lambda _table: ScriptedRandom(SOLO_HAND, prefer=("healthy",))) as url:
        ctx = context(browser, "phone")
        page = ctx.new_page()
        page.goto(url + "/")
        play_as_guest(page)
        page.fill("#deals", "1")
        page.click("#create-table")
        page.wait_for_url(re.compile(r".*/tables/\d+$"))
        page.wait_for_selector("#choices button[data-value=solo_clubs]")
        shown = lambda: page.locator("#hand button.card").evaluate_all("ns => ns.map(n => n.dataset.card)")  # noqa: E731
        before = page.evaluate("window.doppelrunde.state.view")
        assert sorted(before["hand"]) == sorted(SOLO_HAND)
        assert shown() == held_order(before["hand"], before["trumps"])
        assert shown() == ["TH", "QS", "JD", "9D", "AC", "AC", "TC", "KC", "9C", "AS", "KH", "9H"]
        # reach the clubs solo button with the arrow keys and press Enter
        page.keyboard.press("ArrowUp")
        for _ in range(20):
            if page.evaluate("document.activeElement.dataset.value") == "solo_clubs":
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.value") == "solo_clubs"
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.doppelrunde.state.view.contract === 'solo_clubs'", timeout=30000)
        after = page.evaluate("window.doppelrunde.state.view")
        assert shown() == held_order(after["hand"], after["trumps"])
        # the clubs are trumps now (after the jacks), the nine of diamonds a plain card
        assert shown() == ["TH", "QS", "JD", "AC", "AC", "TC", "KC", "9C", "AS", "KH", "9H", "9D"]
        ctx.close()
