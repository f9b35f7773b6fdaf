"""What a new player tripped over at a live table (headless Chromium, 390×844 and 1366×768): the
moves the computer made for them counted honestly, names and badges never broken inside a word,
the score sheet's Total row in view, notices that cover no seat plate or control, the
reservation clock explained, no unread chat of one's own, the next announcement offered first
with the deeper ones behind "More", counts in the singular and plural.
"""

from __future__ import annotations

import pytest

from tests.browser_table import READY, context, covering, move, new_table

pytestmark = pytest.mark.browser

#: the stood-in sentence of the page's language for a count (notices.js stoodInSummary)
SUMMARY = """async ([total, atLeast, kept]) => {
  const n = await import('/static/js/notices.js');
  const moves = Array.from({length: kept}, (_, i) => ({move: `M${i + 1}`, card: true, why: 'away'}));
  return n.stoodInSummary(moves, {total, atLeast});
}"""


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", {
        (52, False, 16): "The computer made 52 moves for you (you were away), the last 4: M13, M14, M15, M16.",
        (16, True, 16): "The computer made at least 16 moves for you (you were away), the last 4: M13, M14, M15, M16.",
        (3, False, 3): "The computer made 3 moves for you (you were away): M1, M2, M3.",
        (1, False, 1): "The computer played M1 for you: you were away."}),
    ("de-DE", {
        (52, False, 16): "Der Computer hat 52 Züge für dich gemacht (du warst nicht da), die letzten 4: M13, M14, M15, M16.",
        (16, True, 16): "Der Computer hat mindestens 16 Züge für dich gemacht (du warst nicht da), die letzten 4: M13, M14, M15, M16.",
        (3, False, 3): "Der Computer hat 3 Züge für dich gemacht (du warst nicht da): M1, M2, M3.",
        (1, False, 1): "Der Computer hat M1 für dich gespielt: du warst nicht da."}),
])
def test_the_stood_in_notice_counts_every_move_not_just_the_kept_ones(browser, site, locale, expected):
    ctx = context(browser, "desktop", locale=locale)
    page = ctx.new_page()
    page.goto(site + "/rules")
    for (total, at_least, kept), words in expected.items():
        assert page.evaluate(SUMMARY, [total, at_least, kept]) == words
    ctx.close()


#: every Doppelkopf score line's reason (app/games/doppelkopf/scoring.py), for both parties
REASONS = ["won", "no90", "no60", "no30", "black", "announced_re", "announced_kontra",
           "announced_no90", "announced_no60", "announced_no30", "announced_black",
           "against_no90", "against_no60", "against_no30", "against_black", "against_the_elders",
           "doppelkopf", "fox_caught", "charlie", "charlie_caught", "no_back_door"]

WORDS = """async (reasons) => {
  const w = await import('/static/js/words.js');
  const out = [];
  for (const reason of reasons) for (const party of ['re', 'kontra', null]) {
    out.push(w.partyReason(reason, party));
    out.push(w.scoreLine({reason, party, points: 2}));
  }
  return {lines: out, deal1: w.endText({kind: 'deals', target: 1}), deals8: w.endText({kind: 'deals', target: 8}),
    capped: w.endText({kind: 'coins', target: 1, cap: 1}), seat: w.seatCounts({hand_sizes: [1], tricks_won: [1], points_won: [1], phase: 'done'}, 0).map((c) => c.text)};
}"""


@pytest.mark.parametrize(("locale", "charlie", "singular"), [
    ("en-US", "Kontra: Charlie (last trick)",
     {"deal1": "1 deal", "deals8": "8 deals", "capped": "first to 1 golden coin, at most 1 deal",
      "seat": ["1 card", "1 trick", "1 point"]}),
    ("de-DE", "Kontra: Karlchen (letzter Stich)",
     {"deal1": "1 Spiel", "deals8": "8 Spiele", "capped": "wer zuerst 1 Goldmünze hat, höchstens 1 Spiel",
      "seat": ["1 Karte", "1 Stich", "1 Auge"]}),
])
def test_score_lines_never_stack_brackets_and_counts_take_the_singular(browser, site, locale, charlie, singular):
    ctx = context(browser, "desktop", locale=locale)
    page = ctx.new_page()
    page.goto(site + "/rules")
    words = page.evaluate(WORDS, REASONS)
    stacked = [line for line in words["lines"] if ") (" in line or "))" in line or "((" in line]
    assert stacked == [], stacked
    assert charlie in words["lines"]
    assert {k: words[k] for k in singular} == singular
    ctx.close()


def test_ones_own_chat_line_and_the_history_are_never_unread(browser, site):
    ctx = context(browser, "phone")
    page = ctx.new_page()
    new_table(page, site, deals=1)
    page.click("#show-chat")
    page.fill("#chat-input", "hello table")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-lines li[data-author] >> text=hello table")
    page.click("#side-close")
    page.evaluate("""() => window.doppelrunde.socket.send({type: 'chat', text: 'while closed'})""")
    page.wait_for_selector("#chat-lines li >> text=while closed", state="attached")
    assert page.locator("#chat-unread").is_hidden()  # one's own line
    page.reload()
    page.wait_for_selector("#chat-lines li >> text=while closed", state="attached", timeout=15000)
    page.wait_for_timeout(300)
    assert page.locator("#chat-unread").is_hidden()  # the history after a reload
    ctx.close()


@pytest.mark.parametrize(("locale", "title"), [
    ("en-US", r"Reservation: 2× the time per move; \d+ s left"),
    ("de-DE", r"Vorbehalt: doppelte Zeit pro Zug; noch \d+ s")])
def test_the_reservation_clock_says_why_it_has_double_the_time(browser, site, locale, title):
    import re

    ctx = context(browser, "phone", locale=locale)
    page = ctx.new_page()
    new_table(page, site, deals=1, turn_seconds="15")
    page.wait_for_function(READY, timeout=15000)
    you = page.evaluate("window.doppelrunde.state.you")
    clock = page.locator(f'#seats [data-seat="{you}"] [data-clock]')
    clock.wait_for(state="visible", timeout=5000)
    assert re.fullmatch(title, clock.get_attribute("title")), clock.get_attribute("title")
    assert clock.get_attribute("aria-label") == clock.get_attribute("title")
    assert int(re.match(r"\d+", clock.text_content()).group()) > 15  # 2 × 15 s
    assert clock.evaluate("n => getComputedStyle(n, '::after').content") == '" ×2"'  # marked on the plate
    ctx.close()


def test_the_next_announcement_is_offered_and_the_deeper_ones_wait_behind_more(browser, site):
    ctx = context(browser, "phone")
    page = ctx.new_page()
    new_table(page, site, deals=1)
    announce = page.locator("#choices button[data-type=announce]")
    for _ in range(400):  # to the first card turn with announcements on offer
        page.wait_for_function(READY, timeout=15000)
        if announce.count() > 1:
            break
        move(page)
    assert announce.count() > 1
    shown = [b.get_attribute("data-value") for b in announce.all() if b.is_visible()]
    assert shown in (["re"], ["kontra"], ["no90"], ["no60"], ["no30"]), shown
    toggle = page.locator("#more-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    row = page.evaluate("() => { const c = document.getElementById('choices'); return [c.scrollWidth, c.clientWidth]; }")
    assert row[0] <= row[1], row  # nothing cut off at 390 px
    toggle.focus()
    page.keyboard.press("Enter")  # reachable by keyboard
    assert toggle.get_attribute("aria-expanded") == "true"
    deeper = [b.get_attribute("data-value") for b in announce.all() if b.is_visible()]
    assert len(deeper) == announce.count() and "black" in deeper, deeper
    menu = page.locator("#choices .more-choices").bounding_box()
    plate = page.locator(f"#seats [data-seat='{page.evaluate('window.doppelrunde.state.you')}']").bounding_box()
    assert menu["y"] + menu["height"] <= plate["y"] + 1, (menu, plate)  # the own plate stays in view
    for value in deeper:
        box = page.locator(f"#choices button[data-type=announce][data-value={value}]").bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= 390, (value, box)
    ctx.close()


#: seat plates with long names and badges, drawn by the table's own component over the live
#: table's plates; returns the names and badges broken over lines or cut without a title
PLATES = """async () => {
  const {seatPlate, sideOf} = await import('/static/js/table/seats.js');
  const plugin = (await import('/static/js/games/doppelkopf.js')).default;
  const names = ['Guest-874812', null, 'Annemarie-Kunigunde', null];
  const state = {you: 0, table: {players: 4, seats: names.map((name, seat) => ({seat, name: name || `c${seat}`,
      bot: name ? null : 'intermediate', connected: true}))},
    view: {phase: 'declare', declarations: [null, 'reservation', 'reservation', 'healthy'], dealer: 1,
      hand_sizes: [12, 12, 12, 12], announcements: [], parties: null}, scores: {rounds: [], totals: [0, 0, 0, 0]}};
  const ctx = {state, plugin, seatName: (s) => String(s)};
  const seats = document.getElementById('seats');
  seats.replaceChildren(...[0, 1, 2, 3].map((seat) => seatPlate(ctx, seat, {side: sideOf(seat, 0, 4)})));
  const bad = [];
  for (const node of seats.querySelectorAll('.name, .badge')) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 1 && r.height > 1).map((r) => Math.round(r.top)));
    const seat = node.closest('[data-seat]').dataset.seat;
    if (tops.size > 1) bad.push(`seat ${seat}: "${node.innerText}" on ${tops.size} lines`);
    if (node.scrollWidth > node.clientWidth + 1 && !node.title) bad.push(`seat ${seat}: "${node.innerText}" cut without a title`);
    // a computer player's name (its short form on narrow plates) is never cut, the dealer's chip beside it or not
    if (node.matches('.name') && node.querySelector('.short') && node.scrollWidth > node.clientWidth) bad.push(`seat ${seat}: "${node.innerText}" cut`);
  }
  return bad;
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_names_and_badges_never_break_inside_a_word(browser, site, size):
    ctx = context(browser, size)
    page = ctx.new_page()
    new_table(page, site, deals=1)
    page.wait_for_function(READY, timeout=15000)
    assert page.evaluate(PLATES) == []
    if size == "phone":  # a computer player beside the table: "Comp. 2", whole in the title
        side = page.locator("#seats .side-left .name")
        assert side.locator(".short").is_visible() and side.locator(".short").inner_text() == "Comp. 2"
        assert side.get_attribute("title") == "Computer 2 (intermediate)"
    ctx.close()


def test_the_score_sheet_shows_its_total_row_and_whole_names_beside_the_table(browser, site):
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    new_table(page, site, deals=8)
    for _ in range(600):  # one deal played: a row with its game and scores
        if move(page) == "deal":
            break
        page.wait_for_timeout(20)
    page.wait_for_selector("#scores tbody tr", timeout=20000)
    for rows in (1, 4, 8):
        page.evaluate(f"""() => {{ const body = document.querySelector('#scores tbody');
          while (body.rows.length < {rows}) body.append(body.rows[0].cloneNode(true)); }}""")
        total = page.locator("#scores tfoot td").first.bounding_box()  # the sticky cells
        scroll = page.locator("#sheet-panel .sheet-scroll").bounding_box()
        assert total["y"] >= scroll["y"] and total["y"] + total["height"] <= scroll["y"] + scroll["height"] + 1, (rows, total, scroll)
        assert total["y"] + total["height"] <= 768
        on_top = page.evaluate("""() => { const r = document.querySelector('#scores tfoot td').getBoundingClientRect();
          return document.elementFromPoint(r.left + 4, r.top + r.height / 2)?.closest('tfoot') != null; }""")
        assert on_top, rows
    assert page.locator("#scores tbody tr").count() == 8
    you = page.evaluate("window.doppelrunde.state.you")
    head = page.locator(f'#scores th[data-seat="{you}"] .seat-head')
    cut = head.evaluate("n => n.scrollWidth > n.clientWidth || n.scrollHeight > n.clientHeight")
    assert not cut, head.inner_text()
    chat = page.locator("#side-panel .chat").bounding_box()
    assert chat["height"] >= 150  # the chat keeps a few lines
    ctx.close()


#: what the notice covers: seat plates, toolbar, buttons, the chat's header
COVERS = covering("document.querySelector('[data-notice=stood_in]')",
                  "#seats [data-seat], #table-tools .tool, #choices button, #hand [data-card], "
                  "#side-panel h2, #trick [data-card]",
                  "n.dataset.seat != null ? `plate ${n.dataset.seat}` : n.id || n.textContent.trim()")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_notice_covers_no_seat_plate_or_control(browser, site, size):
    ctx = context(browser, size)
    page = ctx.new_page()
    new_table(page, site, deals=1)
    page.wait_for_function(READY, timeout=15000)
    hand = page.locator("#hand").bounding_box()
    page.evaluate("""async () => { const n = await import('/static/js/notices.js');
      n.showStoodIn([{move: 'Ace of hearts', card: true, why: 'away'}], n.stoodInSummary, {total: 52}); }""")
    notice = page.locator("[data-notice=stood_in]")
    notice.wait_for()
    assert notice.inner_text().startswith("The computer made 52 moves for you")
    assert page.evaluate(COVERS) == []
    after = page.locator("#hand").bounding_box()
    assert after["y"] + after["height"] <= page.viewport_size["height"] + 1  # the whole hand in view
    page.click("[data-notice=stood_in] .notice-close")
    assert notice.count() == 0
    assert page.locator("#hand").bounding_box() == hand  # the table back as it was
    ctx.close()


#: per card of the hand: the widest run of points (2 px apart) on one line where a tap reaches it
TAP_STRIPS = """() => [...document.querySelectorAll('#hand .card')].map((card) => {
  const r = card.getBoundingClientRect();
  let best = 0;
  for (let y = r.top + 2; y < Math.min(r.bottom, innerHeight) - 1; y += 4) {
    let run = 0;
    for (let x = r.left + 1; x < r.right - 1; x += 2) {
      const hit = document.elementFromPoint(x, y);
      run = hit && hit.closest('.card') === card ? run + 2 : 0;
      best = Math.max(best, run);
    }
  }
  return [card.dataset.card, best, r.bottom <= innerHeight];
})"""


#: the prompt, the buttons and the own plate where a card of the hand lies on their centre
COVERED_BY_HAND = """() => [...document.querySelectorAll('#prompt, #choices button, #seats [data-seat]')]
  .filter((n) => n.getClientRects().length).filter((n) => {
    const r = n.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit && hit.closest('#hand'); }).map((n) => n.id || n.dataset.seat || n.textContent)"""


@pytest.mark.parametrize("width", [360, 390, 430])
@pytest.mark.parametrize("game", ["doppelkopf", "doublehead_kids"])
def test_on_a_phone_every_card_of_a_full_hand_leaves_a_finger_wide_strip(browser, site, game, width):
    ctx = context(browser, "phone", viewport={"width": width, "height": 844})
    page = ctx.new_page()
    new_table(page, site, game=game, deals=1)
    page.wait_for_function(READY, timeout=15000)
    strips = page.evaluate(TAP_STRIPS)
    assert len(strips) == 12, strips
    narrow = [(card, width) for card, width, _ in strips if width < 44]
    assert not narrow, narrow  # one overlapped row left about 25 px
    assert all(inside for _, _, inside in strips), strips
    tops = page.evaluate("() => [...document.querySelectorAll('#hand .card')].map((c) => Math.round(c.offsetTop))")
    assert len(set(tops)) == 2 and tops.count(tops[0]) == 6, tops  # two rows of six, at any width
    covered = page.evaluate(COVERED_BY_HAND)
    assert covered == [], covered
    ctx.close()
