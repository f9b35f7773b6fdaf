"""In headless Chromium, the flow between tables (issue 18): one live seat per person (the
lobby's "return" banner, New Game and Play now offering Return / Leave it), and leaving a
running rated match (a computer takes the seat; the departure shows in the history).
Screenshots at 390×844 and 1366×768 go to the artifacts directory."""

from __future__ import annotations

import re

import pytest

from tests import browser_table
from tests.browser_table import context, guest_page, new_table
from tests.conftest import artifacts_dir
from tests.test_browser import register

pytestmark = pytest.mark.browser


def shot(page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"{name}.png"), full_page=False)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_seated_person_is_offered_return_or_leave_by_new_game_and_play_now(browser, site, size):
    ctx = context(browser, size)
    page = ctx.new_page()
    table = new_table(page, site)  # a guest against three computer players: running
    page.goto(site + "/")
    banner = page.locator("#playing-banner")
    banner.wait_for(state="visible")
    assert banner.text_content().strip() == f"You are playing at table {table} — return"
    assert page.locator(f"#tables-body tr[data-table='{table}']").count() == 0
    shot(page, f"sessions-banner-{size}")
    # New Game while seated: refused, with Return to table N and Leave it
    page.click("#create-table")
    page.wait_for_selector("#seat-taken")
    assert f"You are playing at table {table}." in page.text_content("#page-error")
    shot(page, f"sessions-new-game-refused-{size}")
    page.click("#seat-taken-return")
    page.wait_for_url(f"{site}/tables/{table}")
    # Play now while seated: the same offer; Leave it hands the seat over and queues
    page.goto(site + "/")
    page.click("#play-now")
    page.wait_for_selector("#play-now-status #seat-taken-leave")
    assert page.get_attribute("#play-now-status #seat-taken-return", "href") == f"/tables/{table}"
    shot(page, f"sessions-play-now-refused-{size}")
    page.click("#play-now-status #seat-taken-leave")
    page.wait_for_function("() => document.getElementById('play-now-status').textContent.startsWith('Waiting for players')")
    assert page.locator("#playing-banner").is_hidden()
    page.click("#play-now-leave")
    ctx.close()


@pytest.mark.parametrize("size,lang", [("phone", "de"), ("desktop", "en")])
def test_a_running_seat_is_offered_back_on_every_page(browser, site, size, lang):
    """Back button mid-deal to another page: every page of the site (not only the lobby) says
    "You are playing at table N — return" with the link; the table's own page does not."""
    ctx = context(browser, size, locale={"de": "de-DE", "en": "en-US"}[lang])
    page = ctx.new_page()
    table = new_table(page, site)
    words = {"en": f"You are playing at table {table} — return",
             "de": f"Du spielst an Tisch {table} — zurück zum Tisch"}[lang]
    for path in ("/rules/doppio", "/tournaments", "/leaderboards", "/puzzles"):
        page.goto(site + path)
        banner = page.locator("#site-playing")
        banner.wait_for(state="visible")
        assert banner.text_content().strip() == words
        assert page.get_attribute("#site-playing-return", "href") == f"/tables/{table}"
        if path == "/rules/doppio":
            shot(page, f"sessions-banner-rules-{size}-{lang}")
    page.click("#site-playing-return")
    page.wait_for_url(f"{site}/tables/{table}")
    page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view")
    assert page.locator("#site-playing").count() == 0
    ctx.close()


def test_leaving_a_rated_match_hands_the_seat_to_a_computer_and_counts_as_left_early(browser, site):
    alice_ctx, bob_ctx = context(browser, "desktop"), context(browser, "phone")
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    register(alice, site, "alice")
    register(bob, site, "bob")
    alice.select_option("#game", "doppelkopf")
    alice.select_option("#players", "4")
    alice.select_option("#bots", "2")
    alice.fill("#deals", "1")
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r".*/tables/\d+$"))
    table = int(alice.url.rsplit("/", 1)[1])
    bob.goto(f"{site}/tables/{table}")
    bob.click("#join")
    for page in (alice, bob):
        page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view",
                               timeout=15000)
    assert alice.locator("#leave-table").is_visible()
    alice.click("#leave-table")
    dialog = alice.locator("[role=dialog][data-dialog=leave]")
    dialog.wait_for(state="visible")
    assert alice.text_content("#leave-what").startswith("A computer player (beginner) takes your seat")
    assert "counts as left early" in alice.text_content("#leave-rated")
    shot(alice, "sessions-leave-dialog-desktop")
    bob.click("#leave-table")
    bob.locator("[role=dialog][data-dialog=leave]").wait_for(state="visible")
    shot(bob, "sessions-leave-dialog-phone")
    bob.click("#leave-cancel")
    alice.click("#leave-confirm")
    alice.wait_for_url(site + "/")
    assert alice.locator("#playing-banner").is_hidden()
    bob.wait_for_function("() => window.doppelrunde.state.table.seats[0].autoplay === true",
                          timeout=15000)
    browser_table.play_to_end([bob])
    bob_seats = bob.evaluate("window.doppelrunde.state.table.seats")
    assert bob_seats[0]["name"] == "alice" and bob_seats[0]["autoplay"] is True
    alice.goto(f"{site}/players/alice/matches")
    row = alice.locator(f"#matches tr[data-table='{table}']")
    assert row.locator(".left-early").text_content() == "(left early)"
    shot(alice, "sessions-left-early-history")
    alice.goto(f"{site}/players/alice")
    assert alice.text_content("#profile-games tr[data-game=doppelkopf] .left-early") == "1"
    rating = alice.text_content("#profile-games tr[data-game=doppelkopf] .rating")
    assert re.fullmatch(r"\d{3,4} provisional — \d+ more matches?", rating.strip()), rating
    shot(alice, "sessions-profile-rating")
    # the leaderboard: nobody settled yet, the provisional players listed apart
    for page, size in ((alice, "desktop"), (bob, "phone")):
        page.goto(f"{site}/leaderboards/doppelkopf")
        assert "rated matches for a new player" in page.text_content("#eligibility")
        assert sorted(page.locator("#provisional tbody td:first-child").all_text_contents()) == ["alice", "bob"]
        shot(page, f"sessions-leaderboard-{size}")
    for ctx in (alice_ctx, bob_ctx):
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_move_clock_runs_out_and_a_computer_moves_once(browser, site, size):
    ctx, page = guest_page(browser, site, size)
    created = page.evaluate("""async () => {
      const csrf = document.querySelector('meta[name=csrf-token]').content;
      const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json',
        'X-CSRF-Token': csrf}, body: JSON.stringify({game: 'doppelkopf', bots: 3, deals: 1, turn_seconds: 5})});
      return r.json();
    }""")
    page.goto(f"{site}/tables/{created['id']}")
    page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view "
                           "&& window.doppelrunde.state.timers.length === 1", timeout=15000)
    seat = page.evaluate("window.doppelrunde.state.timers[0].seat")
    clock = page.locator(f"#seats [data-seat='{seat}'] [data-clock]")
    assert clock.is_visible() and clock.text_content().endswith(" s")
    shot(page, f"sessions-move-clock-{size}")
    mine = page.evaluate("window.doppelrunde.state.you") == seat
    if mine:  # a notice says what the computer played for the player, and why
        notice = page.locator('[data-notice="stood_in"] .notice-text')
        notice.wait_for(timeout=30000)
        played = page.evaluate("window.doppelrunde.state.stood_in")
        assert len(played) == 1 and played[0]["reason"] == "timeout"
        assert re.fullmatch(r"The computer (played|chose) .+ for you: your time ran out\.",
                            notice.text_content()), notice.text_content()
        shot(page, f"sessions-stood-in-{size}")
    else:
        page.wait_for_function("() => document.getElementById('table-news').textContent.includes('time ran out')",
                               timeout=30000)
    state = page.evaluate("window.doppelrunde.state")
    assert state["table"]["seats"][seat]["autoplay"] is False  # once, not a takeover
    ctx.close()


def test_friend_request_acceptance_and_invitation_appear_live_and_join_in_one_click(browser, site):
    alice_ctx, bob_ctx = context(browser, "desktop"), context(browser, "phone")
    carol_ctx = context(browser, "desktop")
    alice_ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    alice, bob, carol = alice_ctx.new_page(), bob_ctx.new_page(), carol_ctx.new_page()
    for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        register(page, site, name)
    bob.wait_for_function("() => document.getElementById('lobby-status').textContent === ''")
    alice.fill(".add-friend input[name=name]", "bob")
    alice.click(".add-friend button")
    request = bob.locator("#notices [data-notice=friend_request]")
    request.wait_for(timeout=15000)  # bob did not reload
    assert request.locator(".notice-text").text_content() == "alice asks to be your friend"
    shot(bob, "sessions-notice-friend-request-phone")
    request.locator(".notice-accept").click()
    accepted = alice.locator("#notices [data-notice=friend_accepted]")
    accepted.wait_for(timeout=15000)
    assert accepted.text_content().startswith("bob accepted your friend request.")
    # an Invited table: bob hears of it at once and joins with one click
    alice.select_option("#game", "doppelkopf")
    alice.check("input[name=opponents][value=invited]")
    alice.fill("#invite", "bob carol")
    alice.select_option("#bots", "1")
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r".*/tables/\d+$"))
    table = int(alice.url.rsplit("/", 1)[1])
    invite = bob.locator(f"#notices [data-notice=invite][data-table='{table}']")
    invite.wait_for(timeout=15000)
    shot(bob, "sessions-notice-invite-phone")
    invite.locator(".notice-join").click()
    bob.wait_for_url(f"{site}/tables/{table}")
    bob.wait_for_function("() => window.doppelrunde && window.doppelrunde.state && window.doppelrunde.state.you === 1")
    # the copied link: absolute; opening it, carol joins with one click
    link = alice.text_content("#secret-link")
    assert link.startswith(f"{site}/tables/{table}?key=")
    alice.click("#copy-link")
    assert alice.evaluate("navigator.clipboard.readText()") == link
    shot(alice, "sessions-invite-link-desktop")
    carol.goto(link)
    carol.click("#join")
    carol.wait_for_function("() => window.doppelrunde && window.doppelrunde.state && window.doppelrunde.state.you === 2")
    for ctx in (alice_ctx, bob_ctx, carol_ctx):
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_guest_is_warned_before_logging_out(browser, site, size):
    ctx, page = guest_page(browser, site, size)
    page.click("#guest-logout-button")
    box = page.locator("#guest-logout .guest-logout-box")
    box.wait_for(state="visible")
    assert "lost on logging out, unless you register" in box.text_content()
    assert page.get_attribute("#guest-logout-register", "href") == "/register"
    shot(page, f"sessions-guest-logout-{size}")
    page.click("#logout-anyway")
    page.wait_for_selector("#play-guest")
    ctx.close()


@pytest.mark.parametrize("size,lang", [("phone", "de"), ("desktop", "en")])
def test_the_owner_of_a_waiting_table_adds_computer_players(browser, site, size, lang):
    """Nobody comes (an invitation declined): the owner's "Add a computer player" fills the
    free seats one by one and the last one starts the match."""
    ctx = context(browser, size, locale={"de": "de-DE", "en": "en-US"}[lang])
    page = ctx.new_page()
    register(page, site, f"owner{size}")
    page.select_option("#game", "doppelkopf")
    page.select_option("#players", "4")
    page.select_option("#bots", "1")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    button = page.locator("#add-computer")
    assert button.inner_text() == {"en": "Add a computer player (2 seats free)",
                                   "de": "Computerspieler hinzufügen (2 Plätze frei)"}[lang]
    shot(page, f"sessions-add-computer-{size}-{lang}")
    button.click()
    page.locator("#add-computer").wait_for()
    assert "(1 " in page.locator("#add-computer").inner_text()
    page.click("#add-computer")
    page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view",
                           timeout=15000)
    assert page.locator("#seating").count() == 0
    ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_join_refused_for_a_running_seat_offers_return_and_leave_everywhere(browser, site, size):
    """An invitation card's Join while the person plays at another running table: the card
    says why and offers "Return to table N" (a link) and "Leave it" (then the join goes
    through); the lobby's New Game refusal shows the offer once and the address is the
    lobby's again (it stayed at /tables)."""
    from tests.test_browser_friends import invite_table
    alice_ctx, bob_ctx = context(browser, "desktop"), context(browser, size)
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    register(alice, site, f"ja{size}")
    register(bob, site, f"jb{size}")
    running = new_table(bob, site, guest=False)  # bob plays against three computers
    invited = invite_table(alice, site, f"jb{size}")
    bob.goto(site + "/rules")
    card = bob.locator(f'[data-notice="invite"][data-table="{invited}"]')
    card.wait_for()
    card.locator(".notice-join").click()
    back = card.locator("#seat-taken-return")
    back.wait_for()
    assert back.get_attribute("href") == f"/tables/{running}"
    assert f"table {running}" in card.locator(".notice-text").inner_text()
    assert card.locator(".notice-join").is_hidden()
    shot(bob, f"sessions-invitation-refused-{size}")
    # the New Game form's refusal: one offer, the lobby's address
    bob.goto(site + "/")
    bob.click("#create-table")
    bob.wait_for_selector("#seat-taken")
    assert bob.url == site + "/"
    offers = bob.locator(f'a[href="/tables/{running}"]:visible')
    assert offers.count() == 1, offers.all_inner_texts()
    shot(bob, f"sessions-new-game-refused-once-{size}")
    # Leave it on the card: the seat is handed over and the join goes through
    bob.goto(site + "/rules")
    card.wait_for()
    card.locator(".notice-join").click()
    card.locator("#seat-taken-leave").click()
    bob.wait_for_url(f"{site}/tables/{invited}")
    alice_ctx.close()
    bob_ctx.close()


BROKEN_WORDS = """(selector) => {
  // the words of the table's visible text that a line break cuts in two (two boxes)
  const out = [];
  const walker = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.offsetParent) continue;
    for (const match of node.textContent.matchAll(/[\\p{L}\\p{N}]+/gu)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(match[0]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_german_profile_breaks_no_word(browser, site, size):
    """The profile's games table in German on a phone broke "Doppelk|opf", "Gewon|nen",
    "Vorzeit|ig verlass|en": now no word is cut by a line (a stacked table on phones)."""
    ctx = context(browser, size, locale="de-DE")
    page = ctx.new_page()
    new_table(page, site)
    browser_table.play_to_end([page])
    page.goto(site + page.get_attribute("#nav-matches", "href").rsplit("/", 1)[0])
    page.locator("#profile-games tr[data-game=doppelkopf]").wait_for()
    assert page.evaluate(BROKEN_WORDS, "#profile-games") == []
    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0
    page.locator("#profile-games").screenshot(path=str(artifacts_dir() / f"profile-games-de-{size}.png"))
    ctx.close()


@pytest.mark.parametrize("size,lang", [("desktop", "en"), ("phone", "de")])
def test_registration_shows_the_name_rule_and_readable_inputs(browser, site, size, lang):
    """The name rule under the field before submitting (capital first letter, both languages),
    inputs of a readable size, a 300-character name (past maxlength) answered with the name rule
    and the password field saying it must be typed again."""
    ctx = context(browser, size, locale={"de": "de-DE", "en": "en-US"}[lang])
    page = ctx.new_page()
    page.goto(site + "/register")
    rule = {"en": "A name has 3 to 20 letters, digits, _ or -.",
            "de": "Ein Name hat 3 bis 20 Buchstaben, Ziffern, _ oder -."}[lang]
    assert page.text_content("#name-rule").strip() == rule
    box = page.locator("#auth-name").bounding_box()
    assert box["height"] >= 36 and box["width"] >= 250, box
    assert page.evaluate("() => parseFloat(getComputedStyle(document.getElementById('auth-name')).fontSize)") >= 16
    shot(page, f"register-{size}-{lang}")
    page.evaluate("() => document.getElementById('auth-name').removeAttribute('maxlength')")
    page.fill("#auth-name", "x" * 300)
    page.fill("#auth-password", "a-good-password")
    page.click("#submit-register")
    page.wait_for_selector("p.error")
    assert rule[:-1].lower()[1:] in page.text_content("p.error").lower()
    assert page.locator("#password-again").is_visible()
    shot(page, f"register-refused-{size}-{lang}")
    ctx.close()
