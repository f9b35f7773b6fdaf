"""A German browser gets a German table: the declare prompt (gesund oder Vorbehalt), German
buttons, cards with German ARIA labels (Kreuz-Dame), German score lines; DE | EN switches
the table to English and the choice is remembered."""

from __future__ import annotations

import re

import pytest

from tests.browser_table import context, guest_page, play_as_guest
from tests.conftest import artifacts_dir
from tests.test_browser import play_to_end
from tests.test_browser_tables import console_errors

pytestmark = pytest.mark.browser

GERMAN_CARD = re.compile(r"^(Kreuz|Pik|Herz|Karo)-(Ass|Zehn|König|Dame|Bube|Neun)$")
ENGLISH_CARD = re.compile(r"^(Ace|Ten|King|Queen|Jack|Nine) of (clubs|spades|hearts|diamonds)$")
MY_DECLARATION = "() => document.querySelector('#choices button[data-type=declare][data-value=healthy]')"


def _labels(page) -> list[str]:
    return page.locator("#hand button.card").evaluate_all(
        "nodes => nodes.map(n => n.querySelector('svg').getAttribute('aria-label'))")


def test_a_german_browser_plays_at_a_german_table(browser, site):
    ctx = context(browser, "desktop", locale="de-DE")
    page = ctx.new_page()
    problems = console_errors(page)
    page.goto(site + "/")
    assert page.get_attribute("html", "lang") == "de"
    play_as_guest(page)
    assert page.text_content("#me").strip().startswith("Gast-")  # the guest name in German
    page.fill("#deals", "1")
    page.select_option("#bots", "3")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function(MY_DECLARATION, timeout=30000)
    assert page.text_content("#prompt") == "Du bist dran: gesund oder Vorbehalt?"
    assert page.text_content("#choices button[data-value=healthy] .label") == "Gesund"
    labels = _labels(page)
    assert len(labels) == 12 and all(GERMAN_CARD.match(label) for label in labels), labels
    assert "Spiel 1 von 1" in page.text_content("#info")
    page.screenshot(path=str(artifacts_dir() / "table-de.png"), full_page=True)

    play_to_end([page])
    assert page.text_content("#match-result").startswith("Gewinner:")
    lines = page.locator("#match-result-dialog ol.score-lines li").all_text_contents()
    assert any(re.fullmatch(r"(Re|Kontra): Gewonnen[+-]\d+", line) for line in lines), lines
    assert page.text_content("#match-result-dialog [data-key=card_points]").startswith("Augen: Re ")
    assert page.text_content("#scores tfoot td") == "Summe"
    assert page.text_content("[data-dialog=match-result] #rematch") == "Revanche"
    assert page.text_content("[data-dialog=match-result] #back-to-lobby") == "Zurück zur Lobby"
    # the replay speaks German too: the deal, then the first declaration in words
    table_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{site}/tables/{table_id}/replay")
    page.wait_for_function("() => window.doppelrunde?.replay?.ready === true", timeout=30000)
    assert page.text_content("#prompt") == "Karten gegeben."
    page.click("#next")
    first = page.text_content("#prompt")
    assert re.fullmatch(r".+: (Gesund|Hochzeit|Armut|.*solo|Fleischloser|Schmeißen)", first), first
    # the caption too (its "action 1 of N" was never extracted into the catalogue)
    position = page.text_content("#position")
    assert re.fullmatch(r"Spiel 1 von 1 · Zug 1 von \d+", position), position
    assert page.get_attribute("#seats [data-seat='1']", "aria-label") == "Computer 2 (Anfänger)"
    assert problems == []
    ctx.close()


def test_the_header_switch_turns_the_table_english_and_is_remembered(browser, site):
    ctx, page = guest_page(browser, site, locale="de-DE")
    page.fill("#deals", "1")
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function(MY_DECLARATION, timeout=30000)
    table_url = page.url
    page.click("#lang-en")
    page.wait_for_url(table_url)
    page.wait_for_function(MY_DECLARATION, timeout=30000)
    assert page.get_attribute("html", "lang") == "en"
    assert page.text_content("#choices button[data-value=healthy] .label") == "Healthy"
    labels = _labels(page)
    assert labels and all(ENGLISH_CARD.match(label) for label in labels), labels
    page.goto(site + "/")  # the browser still asks for German; the choice wins
    assert page.get_attribute("html", "lang") == "en"
    assert page.text_content("#nav-leaderboards") == "Leaderboards"
    ctx.close()


@pytest.mark.parametrize(("locale", "words"), [
    ("de-DE", ["1 Karte", "1 Stich", "1 Auge", "1 Aug.", "2 Karten", "0 Stiche", "3 Augen", "3 Aug."]),
    ("en-GB", ["1 card", "1 trick", "1 point", "1 pt", "2 cards", "0 tricks", "3 points", "3 pts"]),
])
def test_seat_counts_say_one_card_one_trick_in_the_singular(browser, site, locale, words):
    """A seat with one card left reads "1 Karte" / "1 card", not "1 Karten" / "1 cards" (the
    card points' short form of a narrow plate too)."""
    ctx = browser.new_context(locale=locale)
    page = ctx.new_page()
    page.goto(site + "/")
    said = page.evaluate("""async () => {
      const {seatCounts} = await import('/static/js/words.js');
      const view = {hand_sizes: [1, 2], tricks_won: [1, 0], points_won: [1, 3], phase: "done"};
      return [...seatCounts(view, 0), ...seatCounts(view, 1)].flatMap((c) => c.short ? [c.text, c.short] : [c.text]);
    }""")
    assert said == words
    ctx.close()


def test_doppio_card_positions_name_their_pair_in_german(browser, site):
    """On each Doppio card its place (L3 … R3), and in German its pair: "L1 · Paar 1"."""
    from tests.test_browser_tables import new_table
    ctx = context(browser, "desktop", locale="de-DE")
    page = ctx.new_page()
    new_table(page, site, "doppio", players=2, bots=1)
    page.wait_for_function("() => document.querySelectorAll('#hand .card-label').length === 6", timeout=30000)
    labels = page.locator("#hand .card-label").all_text_contents()
    assert labels == ["L3", "L2", "L1", "R1", "R2", "R3"], labels
    titles = page.locator("#hand button.card").evaluate_all("nodes => nodes.map(n => n.title)")
    assert titles == [f"{side}{n} · Paar {n}" for side, n in
                      (("L", 3), ("L", 2), ("L", 1), ("R", 1), ("R", 2), ("R", 3))], titles
    assert page.locator("#pairs li").first.text_content().startswith("Paar 1 (L1+R1): ")
    ctx.close()


def test_the_score_sheet_first_column_is_not_broken_mid_word_on_a_phone(browser, site):
    """On a phone the German "Spiel" and "Summe" of the score sheet (its drawer) stay on one
    line (they were split into "Spi el", "Su mm e")."""
    from tests.test_browser_tables import new_table
    ctx = context(browser, "phone", locale="de-DE")
    page = ctx.new_page()
    new_table(page, site, "doppelkopf", players=4, bots=3)
    page.click("#show-score-sheet")
    page.wait_for_selector("#scores tfoot td", state="visible", timeout=30000)
    lines = page.evaluate("""() => ['#scores thead th', '#scores tfoot td'].map(sel => {
      const cell = document.querySelector(sel);
      const range = document.createRange();
      range.selectNodeContents(cell);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      return [cell.textContent.trim(), tops.size];
    })""")
    assert lines == [["Spiel", 1], ["Summe", 1]], lines
    page.screenshot(path=str(artifacts_dir() / "score-sheet-drawer-de-phone.png"))
    ctx.close()


def test_german_numbers_on_the_table_two_comma_eight_seconds(browser, site):
    """Times with tenths read the German way on a German page ("2,8 s"): the Doppio countdown."""
    ctx = context(browser, "desktop", locale="de-DE")
    page = ctx.new_page()
    page.goto(site + "/")
    said = page.evaluate("""async () => {
      const {seconds} = await import('/static/js/table/seats.js');
      return [seconds(2.8, 1), seconds(12, 0)]; }""")
    assert said == ["2,8", "12"]
    ctx.close()
