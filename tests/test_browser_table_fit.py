"""The table items of issue 44 ("what a newcomer and a friend still trip over") in headless
Chromium: what a phone cut or covered, what a dialog covered on a desktop, words a newcomer or
a child does not understand. Each test drives a table to the state where the thing showed, for
every game it concerns, at 390×844 (360 px where a phone is narrower) and 1366×768, in English
and German; screenshots go to artifacts_dir() as fit-<item>-….png.
"""

from __future__ import annotations

import re
import time

import pytest

from tests import browser_table
from tests.browser_table import MEET_JS, MOVE, READY, context, cut_badges
from tests.conftest import artifacts_dir

pytestmark = pytest.mark.browser

GAMES = {"doppelkopf": 4, "doublehead_kids": 4, "doppelganger_tricks": 3, "doppio": 2}
LOCALES = {"en": "en-GB", "de": "de-DE"}


def page_at(browser, size: str, lang: str, width: int | None = None, pace: float = browser_table.FAST):
    """(context, page) at ``size`` ("phone" or "desktop"), ``width`` px wide if given."""
    extra = {}
    if width:
        extra["viewport"] = {"width": width, "height": browser_table.SIZES[size]["viewport"]["height"]}
    ctx = context(browser, size, locale=LOCALES[lang], pace=pace, **extra)
    return ctx, ctx.new_page()


def shot(page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"fit-{name}.png"))


def play_until(page, condition: str, limit_s: float = 120, bid: int = 2) -> None:
    """Make this page's moves (never pressing Next deal) until the page function ``condition``
    holds."""
    deadline = time.monotonic() + limit_s
    while not page.evaluate(condition):
        assert time.monotonic() < deadline, f"never came to {condition}"
        if page.evaluate(MOVE, {"bid": bid, "stay": True}) == "over":
            assert page.evaluate(condition), f"the match ended before {condition}"
            return
        time.sleep(0.03)


DEAL_RESULT = "() => Boolean(document.querySelector('[data-dialog=deal-result][open]'))"
MATCH_RESULT = "() => Boolean(document.querySelector('[data-dialog=match-result][open]'))"


# --- 5: Doppelganger Tricks' side plates keep bid and total whole ------------------------------

#: every badge of a side plate: [seat, shown text, whole text for screen readers]
SIDE_BADGES = """() => [...document.querySelectorAll('#seats .seat.side-left .badge, #seats .seat.side-right .badge')]
  .map((b) => [b.closest('[data-seat]').dataset.seat, b.querySelector('.short')?.checkVisibility() ?
    b.querySelector('.short').innerText : b.innerText, (b.querySelector('.long') || b).textContent])"""


@pytest.mark.parametrize("size,width,lang,players", [
    ("phone", 360, "de", 3), ("phone", 360, "en", 4), ("phone", None, "de", 4), ("desktop", None, "de", 3)])
def test_doppelganger_side_plates_show_bid_and_total_whole(browser, site, size, width, lang, players):
    """Every seat beside the table shows its bid, tricks won and total whole (no "…"), on a
    phone of 360 px too; a short form keeps the whole words for screen readers."""
    ctx, page = page_at(browser, size, lang, width)
    browser_table.new_table(page, site, "doppelganger_tricks", players, players - 1, deals=1)
    play_until(page, "() => { const v = window.doppelrunde.state.view; return Boolean(v.bids) && v.tricks_played >= 1; }")
    page.wait_for_function(READY, timeout=20000)
    badges = page.evaluate(SIDE_BADGES)
    shot(page, f"5-dg-side-plates-{size}{width or ''}-{lang}-{players}")
    assert cut_badges(page) == []
    words = {"en": ("bid ", "total "), "de": ("geboten ", "gesamt ")}[lang]
    for seat in {b[0] for b in badges}:
        whole = [b[2] for b in badges if b[0] == seat]
        assert any(w.startswith(words[0]) for w in whole) and any(w.startswith(words[1]) for w in whole), badges
    # the shown bid reads as a bid and tricks, never "Gebot 1: 3" (two numbers like a score)
    shown = {"en": r"bid \d+ · (won \d+|\d+ tricks?)", "de": r"(Gebot \d+ · \d+ Stiche?|geboten \d+ · gewonnen \d+)"}
    for _, text, whole in badges:
        if whole.startswith(words[0]):
            assert re.fullmatch(shown[lang], " ".join(text.split())), text
    ctx.close()


# --- 6, 9: the status line whole on a phone; Doppio's discard under it --------------------------

#: what lies on the status line or the round's info in the middle: [what, card]
ON_THE_INFO = """() => {
  const meet = """ + MEET_JS + """;
  const box = (n) => n.getBoundingClientRect();
  const found = [];
  const texts = ['#info', '#centre-extra .pairs-box', '#centre-extra .doppio-piles', '#centre-extra .countdown-box'];
  for (const card of document.querySelectorAll('#trick [data-card]')) {
    for (const sel of texts) {
      const node = document.querySelector(sel);
      if (node && node.textContent && meet(box(node), box(card))) found.push([sel, card.dataset.card]);
    }
  }
  return found;
}"""


#: whether the status line shows its whole text (a clamped box scrolls: its text is higher)
INFO_WHOLE = """() => { const i = document.getElementById('info');
  return [i.textContent, i.scrollHeight <= i.clientHeight + 1 && i.scrollWidth <= i.clientWidth + 1]; }"""


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("width,lang", [(360, "de"), (390, "en")])
def test_the_status_line_is_whole_on_a_phone(browser, site, game, width, lang):
    """The status line ("Round 1 · Deck: 34 cards · Lowest total wins · up to 100 points, at
    most 2 deals") shows whole on a phone: the match's length is never cut."""
    ctx, page = page_at(browser, "phone", lang, width)
    players = GAMES[game]
    browser_table.new_table(page, site, game, players, players - 1, deals=2)
    for _ in range(3):
        page.wait_for_function(READY, timeout=20000)
        text, whole = page.evaluate(INFO_WHOLE)
        assert whole, text
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
        found = page.evaluate(ON_THE_INFO)  # three lines, and still clear of the trick
        assert [f for f in found if f[0] == "#info"] == [], found
        page.evaluate(MOVE, {"bid": 2, "stay": True})
    shot(page, f"6-status-{game}-{width}-{lang}")
    ctx.close()


@pytest.mark.parametrize("size,lang", [("phone", "en"), ("phone", "de"), ("desktop", "en")])
def test_doppio_discard_lies_clear_of_the_round_info_in_the_catch_window(browser, site, size, lang):
    """While a discard may be caught, the discarded card lies in the middle clear of the status
    line, the piles, the countdown and the pairs."""
    ctx, page = page_at(browser, size, lang)
    browser_table.new_table(page, site, "doppio", 2, 1, deals=2)
    seen = 0
    deadline = time.monotonic() + 120
    while seen < 3:
        assert time.monotonic() < deadline, f"only {seen} catch windows"
        if page.evaluate("() => Boolean(window.doppelrunde.state.view.catch_window) && "
                         "Boolean(document.querySelector('#trick [data-card]'))"):
            page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
            found = page.evaluate(ON_THE_INFO)
            if not seen:
                shot(page, f"9-doppio-catch-{size}-{lang}")
            assert found == [], found
            seen += 1
            page.wait_for_function("() => !window.doppelrunde.state.view.catch_window", timeout=15000)
        elif page.evaluate(MOVE, {"bid": 2, "stay": True}) == "over":
            break
        time.sleep(0.03)
    ctx.close()


# --- 7: Doublehead Kids: every card's name readable where it lies -------------------------------

#: the hand's cards whose name (at the card's foot) is cut by the card's edge or covered:
#: [card, why]
NAMES_HIDDEN = """() => {
  const found = [];
  for (const card of document.querySelectorAll('#hand [data-card]')) {
    const c = card.getBoundingClientRect();
    const names = card.querySelectorAll('text.name');
    if (!names.length) found.push([card.dataset.card, 'no name']);
    for (const name of names) {
      const r = name.getBoundingClientRect();
      if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.bottom > c.bottom + 0.5) found.push([card.dataset.card, 'cut']);
      for (const [x, y] of [[r.left + 1, r.top + r.height / 2], [r.right - 1, r.top + r.height / 2], [r.left + r.width / 2, r.top + r.height / 2]]) {
        const top = document.elementFromPoint(x, y);
        if (!top || top.closest('[data-card]') !== card) {
          found.push([card.dataset.card, `covered by ${top && top.closest('[data-card]') ? top.closest('[data-card]').dataset.card : top && top.tagName}`]);
          break;
        }
      }
    }
  }
  return found;
}"""


@pytest.mark.parametrize("size,width,lang", [
    ("phone", None, "de"), ("phone", None, "en"), ("phone", 360, "de"), ("desktop", None, "de"), ("desktop", None, "en")])
def test_kids_hand_shows_every_cards_name_where_it_lies(browser, site, size, width, lang):
    """Doublehead Kids: each card of the hand shows its name whole and uncovered, also in the
    back row of a phone's two-row hand, before and after cards have been played."""
    ctx, page = page_at(browser, size, lang, width)
    browser_table.new_table(page, site, "doublehead_kids", 4, 3, deals=1)
    for moves in range(3):
        page.wait_for_function(READY, timeout=20000)
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
        if not moves:
            shot(page, f"7-kids-hand-{size}{width or ''}-{lang}")
        found = page.evaluate(NAMES_HIDDEN)
        assert found == [], found
        page.evaluate(MOVE, {"bid": 2, "stay": True})
    ctx.close()


# --- 8: Doppelganger Tricks: a navy lead's suit choice and "leads yellow" cover nothing ----------

NAVY_LEAD = """() => { const v = window.doppelrunde.state.view;
  return Boolean(document.querySelector('[data-zone=prompt][data-my-turn=true]')) && v.phase === 'playing' &&
    !v.trick.length && (v.hand || []).some((c) => c[0] === 'N') &&
    !(v.legal || []).some((a) => a.type === 'decline_bonus'); }"""

#: the star and eye, the trick's cards (lying still), the prompt's buttons that ``cover`` meets
COVERED_BY = """(cover) => {
  const meet = """ + MEET_JS + """;
  const c = document.querySelector(cover);
  if (!c) return ['nothing to check: ' + cover];
  const things = [...document.querySelectorAll('#bonus-pile .bonus-card, #trick .trick-card, #choices button')]
    .filter((n) => !c.contains(n) && !n.contains(c) && !n.getAnimations().length);
  return things.filter((n) => meet(c.getBoundingClientRect(), n.getBoundingClientRect()))
    .map((n) => n.dataset.bonus || n.dataset.card || n.textContent);
}"""


@pytest.mark.parametrize("size,width,lang", [
    ("phone", None, "en"), ("phone", 360, "de"), ("desktop", None, "de"), ("desktop", None, "en")])
def test_doppelganger_navy_lead_choice_and_note_cover_nothing(browser, site, size, width, lang):
    """Leading a navy card: the suit choice covers neither the star and the eye nor the
    trick; the card's "leads yellow" lies beside it, on no card, bonus card or button."""
    ctx, page = page_at(browser, size, lang, width)
    browser_table.new_table(page, site, "doppelganger_tricks", 3, 2, deals=2)
    play_until(page, NAVY_LEAD, limit_s=180)
    card = page.evaluate("() => window.doppelrunde.state.view.hand.find((c) => c[0] === 'N')")
    page.click(f"#hand [data-card='{card}']", position=browser_table.CORNER)
    page.wait_for_selector("#choices button[data-suit]")
    shot(page, f"8-dg-suit-choice-{size}{width or ''}-{lang}")
    for button in page.locator("#choices button").all():
        covered = page.evaluate(COVERED_BY, f"#choices button[data-value='{button.get_attribute('data-value')}']"
                                if button.get_attribute("data-suit") else "#suit-cancel")
        assert [c for c in covered if c in ("star", "eye") or re.fullmatch(r"[PGYN]\d+", c)] == [], covered
    page.evaluate("localStorage.setItem('doppelrunde.pace', '1')")  # the lead stays long enough
    page.click("#choices button[data-suit]")
    page.wait_for_selector("#trick .play-note", timeout=10000)
    page.wait_for_function("() => !document.querySelector('#trick .play-note')?.closest('.trick-card').getAnimations().length",
                           timeout=5000)
    covered = page.evaluate(COVERED_BY, "#trick .play-note")
    shot(page, f"8-dg-leads-note-{size}{width or ''}-{lang}")
    assert covered == [], covered
    ctx.close()


# --- 10: the winner's note beside the trick on a desktop ----------------------------------------

# every completed trick shown: whether its notes (winner, the learning aid's why) lie on a card
NOTES_WATCH = ("""
window.notesSeen = {checked: 0, on: []};
document.addEventListener('DOMContentLoaded', () => {
  const trick = document.querySelector('[data-zone=trick]');
  if (!trick) return;
  const meet = MEET;
  new MutationObserver(() => {
    if (!trick.classList.contains('held') || !document.getElementById('trick-note')) return;
    Promise.allSettled(trick.getAnimations({subtree: true}).map((a) => a.finished)).then(() => {
      const notes = [...trick.querySelectorAll('.trick-note, .trick-why')];
      if (!notes.length) return;
      window.notesSeen.checked += 1;
      for (const note of notes) for (const card of trick.querySelectorAll('.trick-card')) {
        if (meet(note.getBoundingClientRect(), card.getBoundingClientRect())) window.notesSeen.on.push(`${card.dataset.card}: ${note.textContent}`);
      }
    });
  }).observe(trick, {attributes: true, attributeFilter: ['class'], childList: true});
});
""").replace("MEET", MEET_JS)


@pytest.mark.parametrize("game,lang", [("doppelkopf", "en"), ("doublehead_kids", "de"), ("doppelganger_tricks", "de"),
                                       ("doppelkopf", "de")])
def test_the_winners_note_covers_no_card_of_the_trick_on_a_desktop(browser, site, game, lang):
    """On a desktop "Anna wins the trick (27 points)" lies beside the completed trick (right of
    its bottom card), over none of its cards, for a whole deal."""
    ctx, page = page_at(browser, "desktop", lang, pace=0.1)
    ctx.add_init_script(NOTES_WATCH)
    players = GAMES[game]
    browser_table.new_table(page, site, game, players, players - 1, deals=1)
    play_until(page, MATCH_RESULT, limit_s=180)
    seen = page.evaluate("window.notesSeen")
    assert seen["checked"] >= 5, seen
    assert seen["on"] == [], seen["on"][:5]
    ctx.close()


def test_the_winners_note_screenshot_on_a_desktop(browser, site):
    """(A picture for the eye: the note beside a held trick at the normal pace.)"""
    ctx, page = page_at(browser, "desktop", "en", pace=1)
    browser_table.new_table(page, site, "doppelkopf", 4, 3, deals=1)
    play_until(page, "() => Boolean(document.querySelector('#trick.held #trick-note'))")
    page.wait_for_timeout(350)
    shot(page, "10-trick-note-desktop")
    assert page.evaluate(COVERED_BY, "#trick-note") == []
    ctx.close()


# --- 11, 15, 16: the result dialogs over the felt; the round's lines; the sheet's "Summe" --------

#: where a result dialog lies: its centre against the felt's, and the side plates it covers
OVER_THE_FELT = """(which) => {
  const meet = """ + MEET_JS + """;
  const d = document.querySelector(`[data-dialog=${which}][open]`).getBoundingClientRect();
  const f = document.getElementById('board').getBoundingClientRect();
  const covered = [...document.querySelectorAll('#seats .side-left, #seats .side-right')]
    .filter((p) => meet(d, p.getBoundingClientRect())).map((p) => p.dataset.seat);
  return {dx: Math.abs((d.left + d.right) / 2 - (f.left + f.right) / 2), covered,
          inside: d.left >= 0 && d.right <= innerWidth && d.top >= 0 && d.bottom <= innerHeight};
}"""

#: the score sheet's first column and Total row, cut ("Su…"): their texts
SHEET_CUT = """() => [...document.querySelectorAll('#scores thead th:first-child, #scores tfoot td:first-child, #scores tbody td:first-child')]
  .filter((c) => c.getClientRects().length && c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent)"""


def check_over_the_felt(page, which: str, size: str) -> None:
    where = page.evaluate(OVER_THE_FELT, which)
    assert where["inside"], where
    assert where["dx"] <= 2, where
    if size == "desktop":
        assert where["covered"] == [], where


@pytest.mark.parametrize("game,size,lang", [
    ("doppelkopf", "desktop", "de"), ("doppelganger_tricks", "desktop", "en"), ("doppelganger_tricks", "phone", "de"),
    ("doublehead_kids", "desktop", "en"), ("doppio", "desktop", "de")])
def test_results_centred_over_the_felt_with_whole_words(browser, site, game, size, lang):
    """The deal result and the match result lie centred over the felt (not over the window:
    on a desktop the side panel pushed them onto the right-hand seat). Doppelganger Tricks'
    round lines say each score once ("bid 2, won 2: exact, +3 = 3 points"), and the score
    sheet's first column and "Total"/"Summe" are whole (side panel; phone: the drawer)."""
    ctx, page = page_at(browser, size, lang)
    players = GAMES[game]
    browser_table.new_table(page, site, game, players, players - 1, deals=1 if game == "doppio" else 2)
    play_until(page, "() => " + DEAL_RESULT[6:] + " || " + MATCH_RESULT[6:], limit_s=180)
    which = "deal-result" if page.evaluate(DEAL_RESULT) else "match-result"
    shot(page, f"11-{which}-{game}-{size}-{lang}")
    check_over_the_felt(page, which, size)
    if game == "doppelganger_tricks":
        lines = page.locator(f"[data-dialog={which}] #scoring-lines li").all_inner_texts()
        assert len(lines) == players, lines
        point = {"en": "point", "de": "Punkt"}[lang]
        for line in lines:
            assert line.count(point) == 1 and re.search(r"[+]\d+( ·|;|\s)", line) and re.search(r"\S = -?\d+ ", line), line
    if size == "phone":  # the drawer over the dialog
        page.click("#show-score-sheet")
        page.wait_for_selector("#side-panel.open")
        shot(page, f"16-sheet-drawer-{game}-{lang}")
    assert page.evaluate(SHEET_CUT) == [], page.evaluate(SHEET_CUT)
    if size == "desktop" and which == "deal-result":
        page.click("#next-deal")
        play_until(page, MATCH_RESULT, limit_s=180)
        page.wait_for_timeout(100)
        shot(page, f"11-match-result-{game}-{size}-{lang}")
        check_over_the_felt(page, "match-result", size)
    ctx.close()


# --- 12: replays: the other seats' hands readable ---------------------------------------------

#: the other seats' cards in a replay that are too small to read or covered: [card, why]
REPLAY_HANDS_HIDDEN = """() => {
  const found = [];
  const cards = [...document.querySelectorAll('#seats .replay-hand [data-card]')];
  for (const card of cards) {
    const r = card.getBoundingClientRect();
    const plate = card.closest('[data-seat]').getBoundingClientRect();
    // the corner's rank (its tallest text) as high as a small print: 10 px (a whole card of 30 px drew it 7 px)
    const text = Math.max(...[...card.querySelectorAll('text')].map((t) => t.getBoundingClientRect().height));
    if (text < 10) found.push([card.dataset.card, `small: its text ${Math.round(text)} px high`]);
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || top.closest('[data-card]') !== card) found.push([card.dataset.card, 'covered']);
    if (r.left < plate.left - 0.5 || r.right > plate.right + 0.5) found.push([card.dataset.card, 'outside its plate']);
  }
  return [cards.length, found];
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_replays_show_the_other_hands_readable(browser, site, game):
    """In a replay every other seat's card shows its corner (rank and suit) large enough to
    read (text 10 px high or more), uncovered and inside its plate, on a desktop and on a
    phone."""
    ctx, page = page_at(browser, "desktop", "en" if game in ("doppelkopf", "doppio") else "de")
    players = GAMES[game]
    table = browser_table.new_table(page, site, game, players, players - 1, deals=1)
    play_until(page, MATCH_RESULT, limit_s=180)
    page.goto(f"{site}/tables/{table}/replay")
    page.wait_for_selector("#next")
    page.click("#next")
    for size, viewport in (("desktop", (1366, 768)), ("phone", (390, 844))):
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        page.wait_for_timeout(100)
        page.evaluate("window.scrollTo(0, 0)")
        count, found = page.evaluate(REPLAY_HANDS_HIDDEN)
        shot(page, f"12-replay-{game}-{size}")
        assert count >= (players - 1) * 5, count
        assert found == [], found
    ctx.close()


# --- 13: Doppelganger Tricks with four players: why bids go to 12 -------------------------------

@pytest.mark.parametrize("players,lang", [(4, "en"), (4, "de"), (3, "en")])
def test_doppelganger_bid_says_why_bids_go_past_the_hand(browser, site, players, lang):
    """Four players hold 10 cards, the bids go to 12 (the rulebook's cards, docs/rules/
    doppelganger-tricks.md): the bid panel says so; three players (12 cards) need no word."""
    ctx, page = page_at(browser, "phone", lang)
    browser_table.new_table(page, site, "doppelganger_tricks", players, players - 1, deals=1)
    page.wait_for_selector("#choices button[data-bid='12']", timeout=20000)
    note = page.locator("#choices #choices-note")
    shot(page, f"13-dg-bid-{players}-{lang}")
    if players == 3:
        assert note.count() == 0
    else:
        text = note.inner_text()
        assert {"en": "10 cards each: at most 10 tricks", "de": "10 Karten für jeden: höchstens 10 Stiche"}[lang] in text
        assert "12" in text
        # whole inside the bid panel, which needs no scrolling and leaves the plates' names free
        whole = page.evaluate("""() => { const n = document.getElementById('choices-note').getBoundingClientRect();
          const p = document.getElementById('choices'); const r = p.getBoundingClientRect();
          const meet = """ + MEET_JS + """;
          return [n.top >= r.top && n.bottom <= r.bottom && p.scrollHeight <= p.clientHeight + 1,
            [...document.querySelectorAll('#seats .name')].filter((m) => meet(m.getBoundingClientRect(), r)).map((m) => m.textContent)]; }""")
        assert whole == [True, []], whole
    ctx.close()


# --- 14: Doublehead Kids: the team without a Prince/Princess card -------------------------------

@pytest.mark.parametrize("lang", ["en", "de"])
def test_kids_teams_have_names_a_child_understands(browser, site, lang):
    """The team without a Prince/Princess card is "Team No Crown" / "Team ohne Krone"
    (short "No crown" / "Ohne Krone"), never "Without"/"Ohne" alone, on the plates and in the
    round's result."""
    ctx, page = page_at(browser, "phone", lang)
    browser_table.new_table(page, site, "doublehead_kids", 4, 3, deals=1)
    play_until(page, MATCH_RESULT, limit_s=180)
    page.click("#match-result-dialog details.last-deal summary")
    page.wait_for_timeout(100)  # grown: still inside the window (11)
    assert page.evaluate(OVER_THE_FELT, "match-result")["inside"], page.evaluate(OVER_THE_FELT, "match-result")
    text = page.inner_text("#match-result-dialog")
    team = {"en": "Team No Crown", "de": "Team ohne Krone"}[lang]
    shot(page, f"14-kids-teams-{lang}")
    assert team in text, text
    assert not re.search(r"\b(Without|Ohne)\b", text), text
    badges = page.evaluate("() => [...document.querySelectorAll('#seats .badge.party')].map((b) => b.textContent)")
    assert badges and not any(re.fullmatch(r"(Without|Ohne)", b.strip()) for b in badges), badges
    ctx.close()


# --- 18: after "Leave the table" the seat shows the computer player ----------------------------

@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seat_left_shows_the_computer_player(browser, site, lang):
    """Anna leaves a running match: the others see the computer player that has her seat
    ("Computer 1", its level, "for Anna"), not her name with "away · computer playing"."""
    anna_ctx, anna = page_at(browser, "desktop", "en")
    bert_ctx, bert = page_at(browser, "phone", lang)
    table = browser_table.new_table(anna, site, "doppelkopf", 4, 2, deals=1)
    name = anna.evaluate("window.doppelrunde.state.table.seats[0].name")
    bert.goto(f"{site}/")
    browser_table.play_as_guest(bert)
    bert.goto(f"{site}/tables/{table}")
    bert.click("#join")
    for page in (anna, bert):
        page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view", timeout=20000)
    anna.click("#leave-table")
    anna.locator("[role=dialog][data-dialog=leave]").wait_for(state="visible")
    anna.click("#leave-confirm")
    anna.wait_for_url(site + "/")
    bert.wait_for_function("() => window.doppelrunde.state.table.seats[0].left === true", timeout=15000)
    bert.wait_for_function(READY, timeout=20000)
    plate = bert.locator("#seats [data-seat='0']")
    shot(bert, f"18-left-seat-{lang}")
    words = {"en": ("Computer 1", "Comp. 1", "for "), "de": ("Computer 1", "Comp. 1", "für ")}[lang]
    label = plate.get_attribute("aria-label")
    assert label.startswith(words[0]), label
    assert plate.locator(".avatar.bot").count() == 1
    shown = plate.inner_text()
    assert words[1] in shown or words[0] in shown, shown
    assert f"{words[2]}{name}" in shown, shown
    assert plate.locator(".badge.auto").count() == 0 and "away" not in shown and "abwesend" not in shown, shown
    for ctx in (anna_ctx, bert_ctx):
        ctx.close()


# --- 21: the deal result stays 3 s from the moment it opens -------------------------------------

# when each deal result opened and closed (performance.now())
RESULT_WATCH = """
window.resultTimes = [];
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    const d = document.querySelector('[data-dialog=deal-result]');
    if (!d) return;
    const last = window.resultTimes[window.resultTimes.length - 1];
    if (d.open && (!last || last.closed)) window.resultTimes.push({opened: performance.now(), closed: null});
    if (!d.open && last && !last.closed) last.closed = performance.now();
  }).observe(document.body, {attributes: true, subtree: true, attributeFilter: ['open']});
});
"""


def test_the_deal_result_stays_three_seconds_from_its_opening(browser, tmp_path):
    """With a server pause of 4 s and the last trick shown at the normal pace (it takes more
    than a second before the result opens), the result stays at least 3 s once open."""
    from tests.platform_helpers import live_server, settings_for

    with live_server(settings_for(tmp_path), round_pause=4.0) as url:
        ctx, page = page_at(browser, "desktop", "en")
        ctx.add_init_script(RESULT_WATCH)
        browser_table.new_table(page, url, "doppelkopf", 4, 3, deals=2)
        play_until(page, "() => (window.doppelrunde.state.view.hand || []).length === 1 && "
                   "Boolean(document.querySelector('[data-zone=prompt][data-my-turn=true]'))")
        page.evaluate("localStorage.setItem('doppelrunde.pace', '1')")
        page.evaluate(MOVE, {"bid": 1, "stay": True})
        page.wait_for_function("() => window.resultTimes.length && window.resultTimes[0].closed", timeout=20000)
        times = page.evaluate("window.resultTimes[0]")
        assert times["closed"] - times["opened"] >= 2950, times
        ctx.close()


# --- the score sheets head their rows with the game's own word ----------------------------------

ROW_WORDS = {"en": {"deal": "Deal", "round": "Round"}, "de": {"deal": "Spiel", "round": "Runde"}}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_score_sheets_say_the_games_word_for_a_row(browser, site, game, lang):
    """The live score sheet and the score sheet page (and the replay's chooser, the same
    filter) head their first column "Round" in the games that play rounds (Doppio, Doppelganger
    Tricks, Doublehead Kids), "Deal" in Doppelkopf: the word the table says everywhere else."""
    ctx, page = page_at(browser, "desktop", lang)
    players = GAMES[game]
    table = browser_table.new_table(page, site, game, players, players - 1, deals=2)
    want = ROW_WORDS[lang]["deal" if game == "doppelkopf" else "round"]
    assert page.text_content("#scores thead th") == want
    page.goto(f"{site}/tables/{table}/scores")
    assert page.text_content("#scores thead th") == want
    ctx.close()


# --- Doublehead Kids: every card's name in the page's language ----------------------------------

#: words of the other language that must not name a Kids card (persons' names and the titles)
FOREIGN = {"en": r"\b(Friedrich|Georg|Elisabeth|Ernst|Wilhelmine|Kunz|August|König|Graf|Burg|Kreuz|Pik|Herz)\b",
           "de": r"\b(Frederick|George|Elizabeth|Ernest|Augustus|Wilhelmina|Conrad|King|Earl|Castle|Soldier|"
                 r"Knight|Jester|Bishop|cross|spade|heart|royal)\b"}
KID_CARDS = [r + s for s in "CSHD" for r in "AKQJT9"]


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_kids_card_is_named_in_the_pages_language(browser, site, lang):
    """Every Doublehead Kids card (its picture name, its family, its corner mark and the cards
    of the hand as a screen reader hears them) reads in the page's language: no "Earl Georg"
    on an English table."""
    ctx, page = page_at(browser, "desktop", lang)
    browser_table.new_table(page, site, "doublehead_kids", 4, 3, deals=1)
    page.wait_for_selector("#hand [data-card]")
    names = page.evaluate("""async (cards) => {
      const kids = await import('/static/js/games/kids.js');
      return cards.map((c) => kids.kidName(c)); }""", KID_CARDS)
    hand = page.evaluate("() => [...document.querySelectorAll('#hand [data-card]')]"
                         ".map((c) => c.getAttribute('aria-label') + ' ' + c.textContent)")
    assert len(set(names)) > 10
    for text in names + hand:
        assert not re.search(FOREIGN[lang], text), text
    ctx.close()

