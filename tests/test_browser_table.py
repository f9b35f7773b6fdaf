"""The card table of issue 16 in headless Chromium, for every game at 1366×768 and 390×844.

- the hand, the prompt and the trick inside the viewport at scroll 0, nothing scrolls;
- every seat on its side (the player at the bottom, the others clockwise: left, across, right);
- each card of the trick in front of the player who played it;
- over whole deals the prompt never says "your turn" (data-my-turn) before the trick zone shows
  every card of the trick the server reported, and every completed trick was shown whole;
- on a phone the hand does not move (within 4 px) over two deals;
- the result between deals in a dialog (Next deal), the match result with Rematch;
- the replay of each game drawn with cards (no card codes as text);
- axe-core: no serious or critical violation at the table in the middle of a deal, nor on a
  replay.

Screenshots of every game and phase at both sizes go to artifacts_dir(): table-<game>-<size>-
<phase>.png. The live server's computer players think 0 s; the table's pacing is scaled by
``PACE`` (the same queue and steps, shorter).
"""

from __future__ import annotations

import re
import time

import pytest

from tests import browser_table
from tests.browser_table import MEET_JS, MOVE, context, guest_page, match_dialog_open
from tests.conftest import artifacts_dir
from tests.test_browser_tables import console_errors
from tests.test_browser_ux import axe_violations

pytestmark = pytest.mark.browser

#: the pacing scale of these tests: real animations and pauses, ten times shorter
PACE = 0.1

GAMES = {"doppelkopf": 4, "doublehead_kids": 4, "doppelganger_tricks": 3, "doppio": 2}
#: the fixed keys of the announcements (static/js/games/doppelkopf.js KEYS)
ANNOUNCEMENT_KEYS = {"re": "1", "kontra": "1", "no90": "2", "no60": "3", "no30": "4", "black": "5"}
LAYOUTS = {2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"]}

# Watches the table from the first moment (an init script): whenever the prompt turns to "your
# turn", the trick zone must show every card of the newest state's trick; completed tricks in
# the server's messages are counted, and so are the completed tricks the table showed whole;
# the hand zone's place is sampled at every change.
WATCH = ("""
window.watch = {violations: [], overlaps: [], noteOnCard: [], notes: 0, turns: 0, completed: 0, held: 0, heldCards: [], hand: []};
(() => {
  let lastTrick = null;
  window.addEventListener('dr-message', (event) => {
    const view = event.detail.state && event.detail.state.view;
    const key = view && view.last_trick ? JSON.stringify(view.last_trick) : null;
    if (event.detail.type === 'event' && key && key !== lastTrick) window.watch.completed += 1;
    if (view) lastTrick = key;
  });
  function serverTrick() {
    const view = window.doppelrunde.state && window.doppelrunde.state.view;
    if (!view) return [];
    if (view.catch_window) return [`${view.catch_window.discarder}:${view.catch_window.card}`];
    return (view.trick || []).map((p) => `${p.seat}:${p.card}`);
  }
  // things that must not cover each other: two seat plates; the trick's note and a plate; the
  // decision panel (reservations) and a plate's name or dealer chip
  function overlaps(still) {
    const box = (n) => n.getBoundingClientRect();
    const meet = MEET;
    const plates = [...document.querySelectorAll('#seats [data-seat]')];
    const found = [];
    plates.forEach((a, i) => plates.slice(i + 1).forEach((b) => {
      if (meet(box(a), box(b))) found.push(`plates ${a.dataset.seat} ${b.dataset.seat}`);
    }));
    const note = document.getElementById('trick-note');
    for (const plate of plates) {
      if (note && meet(box(note), box(plate))) found.push(`note ${plate.dataset.seat}: ${note.textContent}`);
    }
    const panel = document.querySelector('#choices.decision');
    for (const mark of panel ? document.querySelectorAll('#seats .name, #seats .chip.dealer') : []) {
      if (meet(box(panel), box(mark))) found.push(`decision ${mark.closest('[data-seat]').dataset.seat}`);
    }
    // Doppelganger Tricks' bonus cards beside the trick, not on a card of it (once nothing flies)
    for (const tile of still ? document.querySelectorAll('#bonus-pile .bonus-card') : []) {
      for (const card of document.querySelectorAll('#trick .trick-card')) {
        if (meet(box(tile), box(card))) found.push(`bonus ${tile.dataset.bonus} on ${card.dataset.card}`);
      }
    }
    if (found.length) window.watch.overlaps.push(...found);
  }
  // the winner's note goes under the held trick as far as the room allows, once the cards lie
  // still: never over a card's middle, and over no card at all where the room between the
  // lowest card and the centre's bottom (less 4px) holds it (noteOnCard)
  function noteOnCards(trick) {
    const note = document.getElementById('trick-note');
    if (!note || !trick.classList.contains('held')) return;
    window.watch.notes += 1;
    const box = (n) => n.getBoundingClientRect();
    const meet = MEET;
    const cards = [...trick.querySelectorAll('.trick-card')];
    const n = box(note);
    const room = box(trick.closest('.centre')).bottom - 4 - Math.max(...cards.map((c) => box(c).bottom));
    for (const card of cards) {
      const r = box(card), middle = (r.top + r.bottom) / 2;
      if (n.top < middle && n.bottom > middle && n.left < r.right && n.right > r.left) {
        window.watch.overlaps.push(`note on the middle of ${card.dataset.card}`);
      } else if (n.height <= room && meet(n, r)) {
        window.watch.noteOnCard.push(`${card.dataset.card}: note ${Math.round(n.height)}px, room ${Math.round(room)}px`);
      }
    }
  }
  function sampleHand() {
    const hand = document.querySelector('[data-zone=hand]');
    if (hand && hand.children.length) {
      const r = hand.getBoundingClientRect();
      window.watch.hand.push([Math.round(r.top), Math.round(r.bottom)]);
    }
  }
  document.addEventListener('DOMContentLoaded', () => {
    const prompt = document.querySelector('[data-zone=prompt]');
    const trick = document.querySelector('[data-zone=trick]');
    if (!prompt || !trick) return;
    new MutationObserver(() => {
      sampleHand();
      if (prompt.dataset.myTurn !== 'true') return;
      overlaps(true);
      window.watch.turns += 1;
      const shown = new Set([...trick.querySelectorAll('[data-played-by]')]
        .map((f) => `${f.dataset.playedBy}:${f.dataset.card}`));
      const missing = serverTrick().filter((k) => !shown.has(k));
      if (missing.length) window.watch.violations.push({missing, seq: window.doppelrunde.seq});
    }).observe(prompt, {attributes: true, attributeFilter: ['data-my-turn']});
    let held = false;
    new MutationObserver(() => {
      sampleHand();
      const now = trick.classList.contains('held');
      if (now && !held) {
        overlaps(false);
        Promise.allSettled(trick.getAnimations({subtree: true}).map((a) => a.finished))
          .then(() => noteOnCards(trick));
        window.watch.held += 1;
        window.watch.heldCards.push(trick.querySelectorAll('[data-played-by]').length);
      }
      held = now;
    }).observe(trick, {attributes: true, attributeFilter: ['class'], childList: true});
  });
})();
""").replace("MEET", MEET_JS)


def shot(page, game: str, size: str, phase: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"table-{game}-{size}-{phase}.png"))


def rect(page, selector: str) -> dict:
    return page.evaluate("""(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                x: r.left + r.width / 2, y: r.top + r.height / 2}; }""", selector)


def check_in_view(page) -> None:
    """Hand, prompt and trick inside the viewport at scroll 0, and nothing to scroll."""
    size = page.evaluate("""() => ({w: innerWidth, h: innerHeight, y: scrollY,
        sh: document.documentElement.scrollHeight, sw: document.documentElement.scrollWidth})""")
    assert size["y"] == 0 and size["sh"] <= size["h"] and size["sw"] <= size["w"], size
    for zone in ("hand", "prompt", "trick"):
        box = rect(page, f"[data-zone={zone}]")
        assert box["top"] >= 0 and box["bottom"] <= size["h"] + 0.5, (zone, box, size)
        assert box["left"] >= 0 and box["right"] <= size["w"] + 0.5, (zone, box, size)
    cards = page.locator("[data-zone=hand] [data-card]").evaluate_all(
        "ns => ns.map(n => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    for left, top, right, bottom in cards:
        assert left >= 0 and right <= size["w"] + 0.5 and top >= 0 and bottom <= size["h"] + 0.5, cards


def trick_cards(page) -> list[list[float]]:
    """The cards on the table now, read at one moment: [seat, centre x, centre y] each (a later
    read may find the trick already taken)."""
    return page.locator("[data-zone=trick] [data-played-by]").evaluate_all(
        "ns => ns.map(n => { const r = n.getBoundingClientRect(); "
        "return [Number(n.dataset.playedBy), r.left + r.width / 2, r.top + r.height / 2]; })")


def check_sides(page, players: int, cards: list[list[float]], you: int = 0) -> None:
    """The player at the bottom, the others clockwise; each trick card (``trick_cards``) on
    its player's side."""
    felt = rect(page, "[data-zone=table]")
    layout = LAYOUTS[players]
    for seat in range(players):
        side = layout[(seat - you) % players]
        plate = rect(page, f"#seats [data-seat='{seat}']")
        assert {"bottom": plate["y"] > felt["y"], "top": plate["y"] < felt["y"],
                "left": plate["x"] < felt["x"], "right": plate["x"] > felt["x"]}[side], (seat, side, plate, felt)
    centre = rect(page, "[data-zone=trick]")
    assert cards, "no card on the table"
    for seat, x, y in cards:
        side = layout[(seat - you) % players]
        assert {"bottom": y > centre["y"], "top": y < centre["y"], "left": x < centre["x"],
                "right": x > centre["x"]}[side], (seat, side, x, y, centre)


#: the cards of the trick whose centre something other than a card of the trick covers
TRICK_CARDS_COVERED = """() => [...document.querySelectorAll('#trick .trick-card')].filter((card) => {
  const r = card.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(top && top.closest('#trick .trick-card'));
}).map((card) => card.dataset.card)"""


def check_replay_held_trick(page, game) -> None:
    """Step the replay from its start to its first completed trick: the trick stays with all its
    cards uncovered (nothing lies on a card's centre), its winner's note in the caption."""
    if game == "doppio":
        return  # no tricks
    page.click("#first")
    for _ in range(GAMES[game] * 3):
        page.click("#next")
        if page.locator("#trick.held").count():
            break
    assert page.locator("#trick.held [data-card][data-played-by]").count() == GAMES[game]
    assert page.evaluate(TRICK_CARDS_COVERED) == []
    note = page.locator("#trick-note")
    if note.count():
        assert page.locator("#prompt .replay-trick-note").is_visible()
        assert page.inner_text("#prompt .replay-trick-note") == note.text_content()


def plate_overlaps(page) -> list[str]:
    """The seat plates that overlap each other or the centre's texts (#info, #prompt)."""
    return page.evaluate("""() => {
        const meet = """ + MEET_JS + """;
        const plates = [...document.querySelectorAll('#seats [data-seat]')];
        const texts = ['info', 'prompt'].map((id) => document.getElementById(id)).filter((n) => n && n.textContent);
        const found = [];
        plates.forEach((a, i) => {
          for (const b of [...plates.slice(i + 1), ...texts]) {
            if (meet(a.getBoundingClientRect(), b.getBoundingClientRect())) found.push(`${a.dataset.seat} ${b.dataset.seat || b.id}`);
          }
        });
        return found; }""")


def check_sheet_fits(page) -> None:
    """The side panel's score sheet shows every player's column whole (no horizontal scroll)."""
    found = page.evaluate("""() => {
        const box = document.querySelector('#sheet-panel .sheet-scroll').getBoundingClientRect();
        return [...document.querySelectorAll('#scores th[data-seat]')].map((th) => {
            const r = th.getBoundingClientRect(); return [th.textContent, r.left, r.right, box.left, box.right]; }); }""")
    assert found, "no player column in the score sheet"
    for name, left, right, box_left, box_right in found:
        assert left >= box_left - 0.5 and right <= box_right + 0.5, (name, left, right, box_left, box_right)


def check_corner_indices(page) -> None:
    """Each card of an overlapped hand shows its corner index (Kids: ``.index``; the family, the
    short mark, the silver coins): no card drawn over it (the next in its row, the row in front
    on a phone) covers it."""
    found = page.locator("[data-zone=hand] [data-card]").evaluate_all("""ns => ns.map((n, i) => {
        const index = n.querySelector('.index');
        if (!index) return [n.dataset.card, 'no index'];
        const r = index.getBoundingClientRect();
        const over = ns.slice(i + 1).filter((m) => { const o = m.getBoundingClientRect();
          return o.left < r.right - 0.5 && o.right > r.left + 0.5 && o.top < r.bottom - 0.5 && o.bottom > r.top + 0.5; });
        return [n.dataset.card, over.map((m) => m.dataset.card)]; })""")
    assert len(found) >= 10, found
    for card, over in found:
        assert over == [], (card, over)


def play_and_watch(page, game: str, size: str, axe: str | None) -> dict:
    """Play the match to its end; check the table in the middle of a deal, the deal results;
    returns what was seen."""
    players = GAMES[game]
    seen = {"mid": False, "deal_results": 0}
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        page.wait_for_function(browser_table.READY, timeout=20000)
        if match_dialog_open(page):
            break
        if page.locator("[data-dialog=deal-result][open]").count():
            dialog = page.locator("[role=dialog][data-dialog=deal-result][open]")
            assert dialog.count() == 1 and dialog.locator("#next-deal").is_visible()
            assert dialog.locator("#deal-totals tbody tr").count() == players
            if not seen["deal_results"]:
                if size == "desktop":
                    check_sheet_fits(page)
                shot(page, game, size, "deal-result")
            seen["deal_results"] += 1
            page.click("#next-deal")
            page.wait_for_selector("[data-dialog=deal-result]:not([open])", state="attached")
            continue
        on_table = trick_cards(page)
        if not seen["mid"] and len(on_table) >= (1 if game == "doppio" else 2):
            check_in_view(page)
            check_sides(page, players, on_table)
            shot(page, game, size, "mid-deal")
            if axe:
                found = axe_violations(page, axe)
                assert not found, "\n".join(found)
            seen["mid"] = True
        # an announcement keeps its key for the whole deal (no renumbering after "Re")
        keys = page.locator("#choices button[data-type=announce]").evaluate_all(
            "ns => ns.map(n => [n.dataset.value, n.dataset.key])")
        for value, key in keys:
            assert key == ANNOUNCEMENT_KEYS[value], keys
        seen["announce_keys"] = seen.get("announce_keys", 0) + len(keys)
        page.evaluate(MOVE, {"bid": 2})
        time.sleep(0.02)
    return seen


@pytest.mark.parametrize("game", list(GAMES))
def test_desktop_two_deals_the_prompt_never_runs_ahead_of_the_cards(browser, site, axe_script, game):
    ctx = context(browser, "desktop", pace=PACE)
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    problems = console_errors(page)
    table = browser_table.new_table(page, site, game, GAMES[game], GAMES[game] - 1, deals=2)
    page.wait_for_function(browser_table.READY, timeout=20000)
    check_in_view(page)
    if game == "doublehead_kids":  # the twelve cards side by side: no name under the next card
        cards = page.locator("#hand .card").evaluate_all("""ns => ns.map((n, i) => [n.dataset.card,
          !ns[i + 1] || n.getBoundingClientRect().right <= ns[i + 1].getBoundingClientRect().left + 0.5])""")
        assert len(cards) == 12 and all(apart for _, apart in cards), cards
    shot(page, game, "desktop", "start")
    seen = play_and_watch(page, game, "desktop", axe_script)
    watch = page.evaluate("window.watch")
    assert seen["mid"] and seen["deal_results"] == 1, seen
    assert watch["turns"] > 5 and watch["violations"] == [], watch["violations"][:5]
    assert watch["overlaps"] == [], watch["overlaps"][:5]
    if game != "doppio":  # every completed trick was shown whole before it went to its winner
        assert watch["completed"] >= 2 * 8 and watch["held"] == watch["completed"], watch
        assert set(watch["heldCards"]) == {GAMES[game]}, watch["heldCards"]
    if game in ("doppelkopf", "doublehead_kids"):  # the parties are known at the end: none cut
        assert page.locator("#seats .badge.party").count() >= 2
        assert browser_table.cut_badges(page) == []
    shot(page, game, "desktop", "match-result")
    dialog = page.locator("[role=dialog][data-dialog=match-result][open]")
    assert dialog.locator("button", has_text="Rematch").count() == 1
    assert dialog.locator("button", has_text="Back to lobby").count() == 1

    # the replay: the same table, drawn from the recorded frames, cards drawn everywhere
    page.goto(f"{site}/tables/{table}/replay")
    page.wait_for_function("() => window.doppelrunde?.replay?.ready === true", timeout=20000)
    for _ in range(12):  # to a moment with cards in the middle
        page.click("#next")
        if page.locator("[data-zone=trick] [data-card][data-played-by]").count() >= (1 if game == "doppio" else 2):
            break
    assert page.locator("[data-zone=trick] [data-card][data-played-by] svg").count() >= 1
    assert page.locator("[data-zone=hand] [data-card] svg").count() >= 1
    assert page.locator("#seats [data-seat] .replay-hand [data-card] svg").count() >= 5
    text = page.inner_text("[data-zone=table]")
    assert not re.search(r"\b([PGYN](10|[1-9])|[AKQJT9][CSHD])\b", text), text
    shot(page, game, "desktop", "replay")
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    check_replay_held_trick(page, game)
    page.click("#last")
    assert page.locator("#replay-result [data-card], #replay-result li, #replay-result p").count() >= 1
    shot(page, game, "desktop", "replay-end")
    assert problems == []
    ctx.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_phone_two_deals_hand_steady_and_everything_in_view(browser, site, game):
    ctx = context(browser, "phone", pace=PACE)
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    problems = console_errors(page)
    table = browser_table.new_table(page, site, game, GAMES[game], GAMES[game] - 1, deals=2)
    page.wait_for_function(browser_table.READY, timeout=20000)
    check_in_view(page)
    if game == "doublehead_kids":
        check_corner_indices(page)
    shot(page, game, "phone", "start")
    seen = play_and_watch(page, game, "phone", None)
    assert seen["mid"], seen
    watch = page.evaluate("window.watch")
    assert watch["violations"] == [], watch["violations"][:5]
    assert watch["overlaps"] == [], watch["overlaps"][:5]
    assert (watch["notes"] or game == "doppio") and watch["noteOnCard"] == [], (watch["notes"], watch["noteOnCard"][:5])
    tops = [top for top, _bottom in watch["hand"]]
    bottoms = [bottom for _top, bottom in watch["hand"]]
    assert len(tops) > 20 and max(tops) - min(tops) <= 4 and max(bottoms) - min(bottoms) <= 4, \
        (min(tops), max(tops), min(bottoms), max(bottoms))
    shot(page, game, "phone", "match-result")
    # the plates under the result read whole: the counts at the end ("157 pts", "● 138"), the parties
    assert browser_table.cut_badges(page) == []

    # the replay with every hand shown: the plates apart, off the centre's texts
    page.goto(f"{site}/tables/{table}/replay")
    page.wait_for_function("() => window.doppelrunde?.replay?.ready === true", timeout=20000)
    for _ in range(GAMES[game] + 2):
        page.click("#next")
    assert page.locator("#seats [data-seat] .replay-hand [data-card]").count() >= 5
    shot(page, game, "phone", "replay")
    assert plate_overlaps(page) == []
    check_replay_held_trick(page, game)
    assert problems == []
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_rematch_of_two_people_opens_a_new_match_with_the_same_seats(browser, site, lang):
    """Two people finish a Doppio match; both accept the rematch and land at a new table with
    the same people in the same seats; "Back to lobby" there leads to the lobby."""
    locale = {"en": "en-GB", "de": "de-DE"}[lang]
    words = {"en": ("Rematch", "Back to lobby"), "de": ("Revanche", "Zurück zur Lobby")}[lang]
    anna_ctx = context(browser, "desktop", locale=locale)
    bert_ctx = context(browser, "phone", locale=locale)
    anna, bert = anna_ctx.new_page(), bert_ctx.new_page()
    table = browser_table.new_table(anna, site, "doppio", 2, 0, deals=1)
    bert.goto(f"{site}/")
    browser_table.play_as_guest(bert)
    bert.goto(f"{site}/tables/{table}")
    bert.click("#join")
    bert.wait_for_url(f"{site}/tables/{table}")
    for page in (anna, bert):
        page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state && "
                               "window.doppelrunde.state.view", timeout=20000)
    seats = anna.evaluate("window.doppelrunde.state.table.seats.map(s => [s.seat, s.name, s.bot])")
    browser_table.play_to_end([anna, bert], limit_s=240)
    for page, name in ((anna, "anna"), (bert, "bert")):
        dialog = page.locator("[role=dialog][data-dialog=match-result][open]")
        assert dialog.locator("button", has_text=words[0]).count() == 1
        assert dialog.locator("button", has_text=words[1]).count() == 1
        page.screenshot(path=str(artifacts_dir() / f"rematch-{lang}-{name}.png"))
    # a reload at the end of the match: the match's room is still there (rematch and chat)
    anna.reload()
    anna.wait_for_selector("[data-dialog=match-result][open] #rematch:not([hidden])", timeout=15000)
    anna.wait_for_function("() => window.doppelrunde.socket.send({type: 'chat', text: 'gg'})")
    bert.wait_for_selector("#chat-lines li .chat-text:text-is('gg')", state="attached", timeout=15000)
    anna.click("#rematch")
    anna.wait_for_function("() => window.doppelrunde.state.rematch.accepted.length === 1", timeout=15000)
    assert anna.url.endswith(f"/tables/{table}")  # waiting for bert
    # each reads "you" for themselves, never their own name
    bert.wait_for_function("() => window.doppelrunde.state.rematch?.accepted.length === 1", timeout=15000)
    you = {"en": ("Rematch accepted by you.", "Waiting for you…"),
           "de": ("Revanche von dir angenommen.", "Warten auf dich…")}[lang]
    bert_name = bert.evaluate("window.doppelrunde.state.table.seats[1].name")
    assert anna.text_content("#rematch-status").startswith(you[0])
    assert you[1] not in anna.text_content("#rematch-status")
    assert bert.text_content("#rematch-status").endswith(you[1])
    assert you[0] not in bert.text_content("#rematch-status")
    assert bert_name not in bert.text_content("#rematch-status")
    bert.click("#rematch")
    for page in (anna, bert):
        # "commit": the new table's address is what counts (a load superseded by the page's own
        # next navigation aborted the wait once); the page's state is waited for next
        page.wait_for_url(re.compile(rf".*/tables/(?!{table}$)\d+$"), timeout=15000,
                          wait_until="commit")
        page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state && "
                               "window.doppelrunde.state.view", timeout=20000)
    assert anna.url == bert.url
    again = anna.evaluate("window.doppelrunde.state.table.seats.map(s => [s.seat, s.name, s.bot])")
    assert again == seats
    assert anna.evaluate("window.doppelrunde.state.table.status") == "playing"
    # the match result's other way: back to the lobby (here from the old table's dialog)
    bert.goto(f"{site}/tables/{table}")
    bert.wait_for_selector("[data-dialog=match-result][open]", timeout=15000)
    bert.locator("[data-dialog=match-result] button", has_text=words[1]).click()
    bert.wait_for_url(f"{site}/", timeout=15000)
    for ctx in (anna_ctx, bert_ctx):
        ctx.close()


def test_im_back_is_on_the_board_where_the_prompt_is(browser, site):
    """When the time per move runs out, a computer player moves for the person; the prompt
    zone says so and holds "I'm back", which gives the seat back."""
    ctx, page = guest_page(browser, site, "phone")
    table = page.evaluate("""async () => {
      const me = await (await fetch('/api/me')).json();
      const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json',
        'X-CSRF-Token': me.csrf}, body: JSON.stringify({game: 'doppelkopf', bots: 3, deals: 1, turn_seconds: 5})});
      return (await r.json()).id; }""")
    page.goto(f"{site}/tables/{table}")
    page.wait_for_selector("[data-zone=prompt] #take-back", timeout=20000)
    assert page.text_content("#prompt") == "A computer player is playing for you."
    assert page.locator("#seats [data-seat='0'] .badge.auto").count() == 1
    page.screenshot(path=str(artifacts_dir() / "table-im-back-phone.png"))
    page.click("#take-back")
    page.wait_for_function("() => !window.doppelrunde.state.table.seats[0].autoplay", timeout=15000)
    page.wait_for_selector("[data-zone=prompt] #take-back", state="detached", timeout=15000)
    ctx.close()


def first_deal_over(browser, url: str):
    """(context, page) of a guest at a two-deal Doppelkopf table against three computer
    players, its first deal played out: the deal's result is up."""
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    browser_table.new_table(page, url, "doppelkopf", 4, 3, deals=2)
    while page.evaluate(MOVE, {"bid": 1, "stay": True}) != "deal":
        page.wait_for_function(browser_table.READY, timeout=20000)
    return ctx, page


def test_the_deal_result_stays_for_its_countdown_and_next_deal_shortens_the_servers_pause(
        browser, tmp_path):
    """With the server's pause between deals (30 s here) the result shows its countdown; the
    only person at the table says Next deal and the next deal starts at once. Without a press
    the result stays at least 3 s even when the server deals at once (the test server of the
    other tests)."""
    from tests.platform_helpers import live_server, settings_for

    with live_server(settings_for(tmp_path), round_pause=30.0) as url:
        ctx, page = first_deal_over(browser, url)
        assert page.evaluate("window.doppelrunde.state.pause.remaining") > 20
        note = page.text_content("#next-deal-countdown")
        assert re.fullmatch(r"Next deal in (2\d|30) s", note), note
        rounds = page.evaluate("window.doppelrunde.state.scores.rounds.length")
        pressed = time.monotonic()
        page.click("#next-deal")
        page.wait_for_function(f"() => window.doppelrunde.state.view.round === {rounds}", timeout=10000)
        assert time.monotonic() - pressed < 5  # not the server's 30 s
        ctx.close()


def test_the_deal_result_stays_at_least_three_seconds_without_a_press(browser, site):
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    browser_table.new_table(page, site, "doppelkopf", 4, 3, deals=2)
    while page.evaluate(MOVE, {"bid": 1, "stay": True}) != "deal":
        page.wait_for_function(browser_table.READY, timeout=20000)
    shown = time.monotonic()
    page.wait_for_function("() => window.doppelrunde.state.view.round === 1", timeout=10000)  # dealt
    page.wait_for_selector("[data-dialog=deal-result]:not([open])", state="attached", timeout=10000)
    assert time.monotonic() - shown >= 2.8
    page.wait_for_function(browser_table.READY, timeout=20000)
    ctx.close()


def test_the_deal_result_names_the_party_that_scores_the_game_value(browser, site):
    """The result's game value says whose it is: the party whose players gain it this deal
    (which may be the other party than the one that won the card points, when special points
    outweigh), and the score lines add up to it from that party's side."""
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    browser_table.new_table(page, site, "doppelkopf", 4, 3, deals=2)
    while page.evaluate(MOVE, {"bid": 1, "stay": True}) != "deal":
        page.wait_for_function(browser_table.READY, timeout=20000)
    page.wait_for_selector("[data-dialog=deal-result][open] .game-value", timeout=10000)
    row = page.evaluate("window.doppelrunde.state.scores.rounds[0]")
    details, scores = row["details"], row["scores"]
    shown = page.locator("[data-dialog=deal-result] .game-value")
    text, party = shown.text_content(), shown.get_attribute("data-party")
    assert sum(line["points"] for line in details["score_lines"]) == details["game_value"]
    if details["game_value"] == 0:
        assert party == "" and text == "Game value: 0", text
    else:
        gainers = {seat for seat, score in enumerate(scores) if score > 0}
        assert gainers == set(details["parties"][party]), (party, scores, details["parties"])
        assert text == f"Game value for {party.capitalize()}: {details['game_value']}", text
    ctx.close()


def test_a_result_reopened_on_reload_hides_the_next_deal_until_it_closes(browser, tmp_path):
    """Reloaded in the pause after a deal, the result shows again (at least 3 s); the next deal
    that arrives meanwhile is not drawn beside it: its cards show once the result closes."""
    from tests.platform_helpers import live_server, settings_for

    with live_server(settings_for(tmp_path), round_pause=5.0) as url:
        ctx, page = first_deal_over(browser, url)
        page.wait_for_timeout(2700)  # the server's pause has about 2 s left
        page.reload()
        page.wait_for_selector("[data-dialog=deal-result][open]", timeout=5000)
        seen = page.wait_for_function("""() => {
          const s = window.doppelrunde.state;
          if (!s || !s.view || s.view.round !== 1) return null;  // the next deal has arrived
          return {open: Boolean(document.querySelector('[data-dialog=deal-result][open]')),
                  hand: getComputedStyle(document.getElementById('hand')).visibility};
        }""", timeout=10000).json_value()
        assert seen == {"open": True, "hand": "hidden"}, seen
        page.wait_for_selector("[data-dialog=deal-result]:not([open])", state="attached", timeout=10000)
        page.wait_for_function("() => getComputedStyle(document.getElementById('hand')).visibility === 'visible'"
                               " && document.querySelectorAll('#hand [data-card]').length === 12", timeout=5000)
        ctx.close()
