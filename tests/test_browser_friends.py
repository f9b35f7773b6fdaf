"""Reaching a friend (issue 44), in headless Chromium at 390×844 and 1366×768, English and
German: an invitation is a card that stands out on every page (Join, Decline; the inviter hears
the answer; it goes when the table starts or closes), Challenge from the friends list and a
profile, who is here in the lobby (Play now waiting per game, friends online), the New Game
settings kept for the next one, a guest's name in the page's language and the guest's Log out a
real button. Screenshots go to the artifacts directory."""

from __future__ import annotations

import re

import pytest

from tests.browser_table import context, guest_page, play_to_end
from tests.conftest import artifacts_dir
from tests.test_browser import register

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "de": "de-DE"}
#: the words the tests look for, per language
WORDS = {
    "en": {"title": "Invitation from alice", "join": "Join", "decline": "Decline",
           "game": "Doppelkopf", "rules": "Rules: ", "declined": "bob declined your invitation",
           "accepted": "bob accepted your invitation", "log_out": "Log out", "guest": "Guest-",
           "waiting": "1 waiting", "online": "Friends online:"},
    "de": {"title": "Einladung von alice", "join": "Mitspielen", "decline": "Ablehnen",
           "game": "Doppelkopf", "rules": "Regeln: ", "declined": "bob hat deine Einladung",
           "accepted": "bob hat deine Einladung", "log_out": "Abmelden", "guest": "Gast-",
           "waiting": "1 wartet", "online": "Freunde online:"},
}


def shot(page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"friends-{name}.png"), full_page=False)


def api(page, path: str, body: dict | None = None, method: str = "POST") -> dict:
    """A JSON call of the page's session (with its CSRF token): {"status", "body"}."""
    return page.evaluate("""async ([path, body, method]) => {
      const csrf = document.querySelector('meta[name=csrf-token]').content;
      const r = await fetch(path, {method, headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
        body: method === 'GET' ? undefined : JSON.stringify(body || {})});
      return {status: r.status, body: await r.json().catch(() => null)};
    }""", [path, body, method])


def people(browser, site, lang: str, size: str, names=("alice", "bob")):
    """Registered people, each in a context of its own (the first on a desktop, the others at
    ``size``) speaking ``lang``; returns [(context, page)]."""
    out = []
    for i, name in enumerate(names):
        ctx = context(browser, "desktop" if i == 0 else size, locale=LOCALES[lang])
        page = ctx.new_page()
        register(page, site, name)
        out.append((ctx, page))
    return out


def befriend(a, b, name_b: str, name_a: str) -> None:
    added = api(a, "/api/friends", {"name": name_b})
    assert added["status"] == 200, added
    assert api(b, "/api/friends/accept", {"name": name_a})["status"] == 200


def invite_table(page, site, names: str, bots: int = 1) -> int:
    """From the lobby, an Invited table of four with ``names`` invited; its id."""
    page.goto(site + "/")
    page.select_option("#game", "doppelkopf")
    page.check("input[name=opponents][value=invited]")
    page.fill("#invite", names)
    page.select_option("#bots", str(bots))
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def card(page, table: int):
    return page.locator(f"[data-notice=invite][data-table='{table}']")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_invitation_is_a_card_on_every_page_until_declined_and_the_inviter_hears_it(
        browser, site, lang, size):
    words = WORDS[lang]
    (a_ctx, alice), (b_ctx, bob) = people(browser, site, lang, size)
    bob.goto(site + "/rules")  # not the lobby: the card comes to any page, live
    table = invite_table(alice, site, "bob")
    invitation = card(bob, table)
    invitation.wait_for(timeout=15000)
    assert invitation.get_attribute("role") == "alert"  # announced
    assert invitation.locator("h2").text_content() == words["title"]
    assert words["game"] in invitation.text_content() and words["rules"] in invitation.text_content()
    assert invitation.get_by_role("button", name=words["join"]).is_visible()
    assert invitation.get_by_role("button", name=words["decline"]).is_visible()
    shot(bob, f"invitation-rules-{size}-{lang}")
    # another page: still there, until answered
    bob.goto(site + "/leaderboards")
    card(bob, table).wait_for(timeout=10000)
    shot(bob, f"invitation-leaderboards-{size}-{lang}")
    card(bob, table).get_by_role("button", name=words["decline"]).click()
    card(bob, table).wait_for(state="detached", timeout=5000)
    answer = alice.locator("[data-notice=invite_answer][data-answer=declined]")
    answer.wait_for(timeout=15000)
    assert words["declined"] in answer.text_content()
    shot(alice, f"invitation-declined-desktop-{lang}")
    bob.goto(site + "/tournaments")
    bob.wait_for_timeout(800)
    assert card(bob, table).count() == 0  # declined: gone for good
    for ctx in (a_ctx, b_ctx):
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_join_on_the_card_seats_the_invited_and_the_card_goes_when_the_table_closes(browser, site, lang):
    words = WORDS[lang]
    (a_ctx, alice), (b_ctx, bob), (c_ctx, carol) = people(browser, site, lang, "phone",
                                                          ("alice", "bob", "carol"))
    table = invite_table(alice, site, "bob carol", bots=1)
    bob.goto(site + "/players/bob")
    card(bob, table).get_by_role("button", name=words["join"]).click()
    bob.wait_for_url(f"{site}/tables/{table}")
    answer = alice.locator("[data-notice=invite_answer][data-answer=accepted]")
    answer.wait_for(timeout=15000)
    assert words["accepted"] in answer.text_content()
    # carol has the card on her profile page; alice closes the table: it goes at once
    carol.goto(site + "/players/carol")
    card(carol, table).wait_for(timeout=10000)
    bob.goto(site + "/")
    assert api(bob, f"/api/tables/{table}/leave")["status"] == 200
    assert api(alice, f"/api/tables/{table}/leave")["body"]["how"] == "closed"
    card(carol, table).wait_for(state="detached", timeout=15000)
    for ctx in (a_ctx, b_ctx, c_ctx):
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_challenge_from_the_friends_list_and_a_profile_opens_new_game_with_the_friend_invited(
        browser, site, lang, size):
    (b_ctx, bob), (a_ctx, alice) = people(browser, site, lang, size, ("bob", "alice"))
    befriend(bob, alice, "alice", "bob")  # bob (desktop) and alice (size)
    alice.goto(site + "/")
    alice.locator("#friends li[data-friend=bob] a.challenge").click()
    alice.wait_for_url(re.compile(r".*/\?challenge=bob"))
    assert alice.input_value("#invite") == "bob"
    assert alice.is_checked("input[name=opponents][value=invited]")
    assert alice.locator("#invite-box").is_visible() and alice.locator("#challenge-note").is_visible()
    shot(alice, f"challenge-lobby-{size}-{lang}")
    alice.goto(site + "/players/bob")
    alice.click("#challenge")
    alice.wait_for_url(re.compile(r".*/\?challenge=bob"))
    assert alice.input_value("#invite") == "bob"
    alice.click("#create-table")
    alice.wait_for_url(re.compile(r".*/tables/\d+$"))
    table = int(alice.url.rsplit("/", 1)[1])
    card(bob, table).wait_for(timeout=15000)
    for ctx in (a_ctx, b_ctx):
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_lobby_shows_friends_online_and_who_waits_in_play_now(browser, site, lang, size):
    words = WORDS[lang]
    (a_ctx, bob), (b_ctx, alice) = people(browser, site, lang, size, ("bob", "alice"))
    befriend(bob, alice, "alice", "bob")
    assert api(bob, "/api/play-now", {"game": "doppio"})["status"] == 200
    alice.goto(site + "/")
    online = alice.locator("#friends-online")
    assert online.text_content().strip().startswith(words["online"])
    assert online.locator("[data-friend=bob] a.challenge").get_attribute("href").startswith("/?challenge=bob")
    doppio = alice.locator("#play-now-waiting li[data-game=doppio] .waiting-count")
    assert doppio.text_content() == words["waiting"]
    alice.locator("#play-now-panel").scroll_into_view_if_needed()
    shot(alice, f"who-is-here-{size}-{lang}")
    api(bob, "/api/play-now/leave")
    alice.wait_for_function("() => document.querySelector('#play-now-waiting li[data-game=doppio] .waiting-count').dataset.count === '0'",
                            timeout=15000)  # polled
    for ctx in (a_ctx, b_ctx):
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_guests_name_reads_in_the_pages_language(browser, site, lang):
    ctx, page = guest_page(browser, site, "phone", LOCALES[lang])
    me = page.text_content("#me").strip()
    assert re.fullmatch(WORDS[lang]["guest"] + r"\d{6}", me), me  # no "Guest-… (Gast)"
    page.select_option("#bots", "2")  # an open table: the lobby lists the guest's seat
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.goto(site + "/")
    seat = page.locator("#tables-body .seat-name").first
    seat.wait_for()
    assert seat.text_content().startswith(WORDS[lang]["guest"])
    stored = page.evaluate("async () => (await (await fetch('/api/me')).json()).user.name")
    assert stored.startswith("Guest-") and stored[len("Guest-"):] == me[len(WORDS[lang]["guest"]):]
    ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_back_to_the_lobby_keeps_the_new_game_settings_just_used(browser, site, size):
    ctx, page = guest_page(browser, site, size)
    page.select_option("#game", "doppelkopf")
    page.select_option("#skill", "expert")
    page.select_option("#turn-seconds", "60")
    page.fill("#deals", "1")  # not the 4 the form starts with (a test server's short match)
    page.click("#rule-options summary")
    page.uncheck("#opt-nines")  # a rule option changed too
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state", timeout=15000)
    play_to_end([page])
    page.click("[data-dialog=match-result] #back-to-lobby")
    page.wait_for_url(site + "/")
    page.wait_for_selector("#new-game")
    assert page.input_value("#deals") == "1"
    assert page.input_value("#skill") == "expert"
    assert page.input_value("#turn-seconds") == "60"
    assert not page.is_checked("#opt-nines")
    assert page.text_content("#rule-options-note") == "(1 changed)"
    shot(page, f"kept-settings-{size}")
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_guests_log_out_is_a_button_that_opens_the_warning(browser, site, lang, size):
    ctx, page = guest_page(browser, site, size, LOCALES[lang])
    if page.is_visible("#site-menu"):
        page.click("#site-menu")
    button = page.get_by_role("button", name=WORDS[lang]["log_out"], exact=True)
    assert button.count() == 1
    assert button.get_attribute("aria-expanded") == "false"
    button.click()
    page.locator("#guest-logout-box").wait_for(state="visible")
    assert button.get_attribute("aria-expanded") == "true"
    shot(page, f"guest-logout-{size}-{lang}")
    page.keyboard.press("Escape")
    page.locator("#guest-logout-box").wait_for(state="hidden")
    assert button.get_attribute("aria-expanded") == "false"
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_invitation_covers_no_control_and_later_puts_it_aside(browser, site, lang, size):
    """The card lies in the page's flow (a floating card lay over the replay's toolbar and the
    profile's corner): every visible control of the page is the topmost element at its own
    centre. "Later" puts the card aside for the tab's session; the lobby still lists the table."""
    (a_ctx, alice), (b_ctx, bob) = people(browser, site, lang, size)
    table = invite_table(alice, site, "bob")
    for path in ("/players/bob", "/leaderboards"):
        bob.goto(site + path)
        card(bob, table).wait_for(timeout=15000)
        covered = bob.evaluate("""() => [...document.querySelectorAll(
            'main a, main button, main select, main input, header a, header button')]
          .filter((el) => { const r = el.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight
              && getComputedStyle(el).visibility !== 'hidden'; })
          .filter((el) => { const r = el.getBoundingClientRect();
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return top && !el.contains(top) && !top.contains(el); })
          .map((el) => el.outerHTML.slice(0, 80))""")
        assert covered == [], (path, covered)
        shot(bob, f"invitation-in-flow-{path.strip('/').replace('/', '-')}-{size}-{lang}")
    later = {"en": "Later", "de": "Später"}[lang]
    card(bob, table).get_by_role("button", name=later).click()
    card(bob, table).wait_for(state="detached", timeout=5000)
    bob.goto(site + "/rules")
    bob.wait_for_timeout(1000)
    assert card(bob, table).count() == 0  # put aside for this session
    bob.goto(site + "/")
    bob.locator(f"[data-table='{table}']").first.wait_for(timeout=10000)  # still in the lobby
    for ctx in (a_ctx, b_ctx):
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_friend_request_answered_in_one_tab_goes_from_the_others(browser, site, size):
    """Accepted in one tab, the request's notice (with its accept) goes from the person's
    other open pages; a stale accept answers "friends already"."""
    (a_ctx, alice), (b_ctx, bob) = people(browser, site, "en", size, (f"fa{size}", f"fb{size}"))
    other = b_ctx.new_page()
    bob.goto(site + "/")
    other.goto(site + "/rules")
    for page in (bob, other):  # the sockets are up before the request
        page.wait_for_function("() => document.readyState === 'complete'")
    bob.wait_for_timeout(500)
    assert api(alice, "/api/friends", {"name": f"fb{size}"})["status"] == 200
    for page in (bob, other):
        page.locator('[data-notice="friend_request"] .notice-accept').wait_for()
    bob.locator('[data-notice="friend_request"] .notice-accept').click()
    other.locator('[data-notice="friend_request"]').wait_for(state="detached")
    shot(other, f"request-gone-{size}")
    refused = api(other, "/api/friends/accept", {"name": f"fa{size}"})
    assert refused["status"] >= 400 and "friends already" in refused["body"]["detail"]
    a_ctx.close()
    b_ctx.close()
