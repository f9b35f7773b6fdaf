"""The per-game parts of the table in headless Chromium (static/js/games/*.js): Doppio with a real
catch in a real countdown, Doppelganger Tricks and Doublehead Kids played to the end against
computer players. Same live server as tests/test_browser.py (computer players think 0 seconds,
no pause between deals; the table's pacing shortened, tests/browser_table.py). Screenshots go
to artifacts_dir().
"""

from __future__ import annotations

import re
import time

import pytest

from app.i18n import translate
from tests import browser_table
from tests.browser_table import CORNER, READY, context, cut_badges, match_dialog_open
from tests.conftest import artifacts_dir

pytestmark = pytest.mark.browser



def console_errors(page) -> list[str]:
    """Collect the page's console errors, uncaught exceptions and failed requests (but the
    favicon); checked at the end."""
    found: list[str] = []
    page.on("console", lambda msg: found.append(msg.text) if msg.type == "error"
            and not msg.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda err: found.append(str(err)))
    page.on("response", lambda r: found.append(f"{r.status} {r.url}") if r.status >= 400
            and not r.url.endswith("/favicon.ico") else None)
    return found


def new_table(page, url: str, game: str, players: int, bots: int, deals: int = 1,
              numbers: dict[str, str] | None = None) -> None:
    """As a guest, start a New Game of ``game`` from the lobby form."""
    browser_table.new_table(page, url, game, players, bots, deals, numbers)
    page.wait_for_function("() => window.doppelrunde.state.view", timeout=15000)


def wait_after(page, seq: int) -> None:
    page.wait_for_function(
        f"() => window.doppelrunde.seq > {seq} || document.getElementById('error').textContent",
        timeout=15000)


def view(page) -> dict:
    return page.evaluate("window.doppelrunde.state.view")


# --- Doppio ---------------------------------------------------------------------------------

def test_doppio_two_players_a_real_catch_within_the_countdown(browser, site):
    ctx = context(browser, "phone")  # on a phone
    page = ctx.new_page()
    problems = console_errors(page)
    new_table(page, site, "doppio", players=2, bots=1, numbers={"catch_window_seconds": "8"})
    page.wait_for_function(READY, timeout=15000)
    assert page.locator("#catch-button").count() == 0
    first = view(page)
    assert first["turn"] == 0 and len(first["hand"]) == 6
    # the divider: three cards each side, the pairs, the hand value of the owner
    assert page.locator("#hand button.card").count() == 6
    assert page.locator("#hand .hand-divider").count() == 1
    positions = page.locator("#hand > *").evaluate_all("nodes => nodes.map(n => n.dataset.position || '|')")
    assert positions == ["L3", "L2", "L1", "|", "R1", "R2", "R3"]
    pair_values = [int(t.split("→")[1].split()[0]) for t in page.locator("#pairs li").all_text_contents()]
    assert page.text_content("#hand-value") == f"Your hand value: {first['hand_value']}"
    assert sum(pair_values) == first["hand_value"]
    assert (page.get_attribute("#doppio-button", "aria-disabled") == "true") == (first["hand_value"] > 10)
    assert page.locator("#show-last-trick").count() == 0  # Doppio has no tricks
    page.screenshot(path=str(artifacts_dir() / "doppio-start.png"))

    caught = None
    deadline = time.monotonic() + 120
    while not match_dialog_open(page):
        assert time.monotonic() < deadline, "the Doppio match did not end in time"
        page.wait_for_function(READY, timeout=20000)
        if match_dialog_open(page):
            break
        seq = page.evaluate("window.doppelrunde.seq")
        if page.locator("#choices button[data-type=catch]:not([aria-disabled=true])").count():
            card = page.get_attribute("#trick [data-played-by]", "data-card")
            if caught is None:
                # a real countdown, ticking in the page, and a real click within it
                first_read = float(page.text_content("#countdown").split()[0].replace(",", "."))
                page.wait_for_timeout(400)
                second_read = float(page.text_content("#countdown").split()[0].replace(",", "."))
                assert 0 < second_read < first_read <= 8
                discarder = view(page)["catch_window"]["discarder"]
                assert page.get_attribute("#trick [data-card]", "data-played-by") == str(discarder)
                page.screenshot(path=str(artifacts_dir() / "doppio-catch-window.png"))
                page.click("#catch-button")
                wait_after(page, seq)
                page.wait_for_function("() => !window.doppelrunde.state.view.catch_window", timeout=15000)
                assert view(page)["held"][0] == card, "the catch within the countdown failed"
                page.wait_for_function(READY, timeout=15000)
                held = page.locator("#seats [data-seat='0'] figure.held")
                assert held.get_attribute("data-card") == card
                assert page.text_content("#held-note").startswith("You hold the caught ")
                page.screenshot(path=str(artifacts_dir() / "doppio-held-card.png"))
                caught = card
            else:
                page.click("#pass-button")
                wait_after(page, seq)
            continue
        if page.locator("[data-dialog=deal-result][open]").count():
            page.click("#next-deal")
            continue
        current = view(page)
        if current.get("catch_window") is None and current["turn"] == 0:
            assert (page.get_attribute("#doppio-button", "aria-disabled") == "true") == (current["hand_value"] > 10)
            assert page.text_content("#hand-value") == f"Your hand value: {current['hand_value']}"
        page.locator("#hand button.card.legal").first.click(position=CORNER)
        wait_after(page, seq)
    assert caught is not None, "no catch window was offered to the person"
    result = page.evaluate("window.doppelrunde.state.result")
    lowest = min(result["totals"])
    assert result["winners"] == [s for s, t in enumerate(result["totals"]) if t == lowest]
    names = ", ".join(page.evaluate(f"window.doppelrunde.state.table.seats[{s}].name")
                      for s in result["winners"])
    assert page.text_content("#match-result") == f"Winner: {names}"
    page.click("#match-result-dialog details.last-deal summary")
    rows = page.locator("#penalties tbody tr")
    assert rows.count() == 2
    final = page.evaluate("window.doppelrunde.state.scores")
    for seat in range(2):
        cells = rows.nth(seat).locator("td").all_text_contents()
        assert int(cells[3]) == final["rounds"][-1]["scores"][seat]
        assert rows.nth(seat).locator(".revealed [data-card]").count() == 6  # the hand, drawn
    standings = page.locator("#standings tbody tr")
    assert sorted(int(standings.nth(i).locator("td").nth(2).text_content()) for i in range(2)) == sorted(final["totals"])
    page.screenshot(path=str(artifacts_dir() / "doppio-penalties.png"))
    assert problems == []
    ctx.close()


# --- Doppelganger Tricks --------------------------------------------------------------------

def test_doppelganger_tricks_whole_three_player_game(browser, site):
    ctx = context(browser, "desktop")
    page = ctx.new_page()
    problems = console_errors(page)
    new_table(page, site, "doppelganger_tricks", players=3, bots=2, deals=3)
    seen = {"bids_hidden": 0, "bids_shown": 0, "navy_lead": 0, "bonus": 0, "annihilated": 0, "bid_keys": 0}
    # annihilated cards are marked in the trick before they leave it: count what was shown
    page.evaluate("""() => { window.annihilatedShown = 0; new MutationObserver(() => {
        if (document.querySelector('#trick.held .trick-card.annihilated')) window.annihilatedShown += 1; })
      .observe(document.getElementById('trick'), {childList: true}); }""")
    deadline = time.monotonic() + 240
    while not match_dialog_open(page):
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_function(READY, timeout=20000)
        if match_dialog_open(page):
            break
        if page.locator("[data-dialog=deal-result][open]").count():
            assert page.locator("#scoring-lines li").count() == 3
            page.click("#next-deal")
            continue
        seq = page.evaluate("window.doppelrunde.seq")
        current = view(page)
        if page.locator("#choices button[data-bid]").count():
            # before our bid: the others' bids are secret, on screen and in the view
            assert current["bids"] is None
            for seat in (1, 2):
                text = page.text_content(f"#seats [data-seat='{seat}'] .badge.bid .long")
                assert text in ("has bid (secret)", "bidding…"), text
            seen["bids_hidden"] += 1
            assert page.locator("#choices button[data-bid]").count() == 13  # 0 … 12
            if seen["bid_keys"] == 0:
                # two digits: 1 then 2 is 12 (the key shown on the button is the key that works)
                assert page.text_content("#choices button[data-bid='12'] kbd") == "12"
                page.keyboard.press("1")
                page.keyboard.press("2")
                bid = 12
                seen["bid_keys"] += 1
            else:
                page.keyboard.press("1")  # one digit alone: after a moment, or Enter
                page.keyboard.press("Enter")
                bid = 1
            page.wait_for_function("() => window.doppelrunde.state.view.bids", timeout=15000)
            assert view(page)["bids"][0] == bid
            page.wait_for_function(READY, timeout=15000)
            bids = view(page)["bids"]
            for seat in range(3):
                text = page.text_content(f"#seats [data-seat='{seat}'] .badge.bid .long")
                assert text.startswith(f"bid {bids[seat]} · won "), text
            seen["bids_shown"] += 1
            continue
        take = page.locator("#choices button[data-type=take_bonus]")
        if take.count():
            name = take.first.get_attribute("data-bonus")
            played = len(page.evaluate("window.doppelrunde.state.scores.rounds"))
            take.first.click()
            page.wait_for_function(  # ours now, or it ended the round (the last play's bonus)
                f"() => window.doppelrunde.state.view.bonus['{name}'] === 0 || "
                f"window.doppelrunde.state.scores.rounds.length > {played}", timeout=15000)
            rounds = page.evaluate("window.doppelrunde.state.scores.rounds")
            if len(rounds) > played:
                assert rounds[-1]["details"]["bonus"][name] == 0
            else:
                page.wait_for_function(READY, timeout=15000)
                assert page.locator(f"#seats [data-seat='0'] [data-bonus='{name}']").count() == 1
            seen["bonus"] += 1
            continue
        if page.locator("#choices button[data-type=decline_bonus]").count():
            page.click("#choices button[data-type=decline_bonus]")
            wait_after(page, seq)
            continue
        card = page.locator("#hand button.card.legal").first
        navy = page.locator("#hand button.card.legal[data-card^='N']")
        if not current["trick"] and navy.count():
            card = navy.first  # lead navy when we can: the suit choice
        code = card.get_attribute("data-card")
        card.click(position=CORNER)
        if page.locator("#choices button[data-suit]").count():
            assert code.startswith("N") and not current["trick"]
            assert page.locator("#choices button[data-suit]").count() == 3
            seen["navy_lead"] += 1
            page.keyboard.press(page.get_attribute("#choices button[data-suit]", "data-key"))
        wait_after(page, seq)
        last = view(page)["last_trick"]
        if last and last["annihilated"] and not seen.get("last_trick_view"):
            # the Last trick view shows the annihilated cards as such
            page.wait_for_function(READY, timeout=20000)
            if page.locator("[data-dialog][open]").count() == 0:
                page.keyboard.press("l")
                page.wait_for_selector("#last-trick-dialog[open]")
                shown = page.evaluate("window.doppelrunde.state.view.last_trick")
                marked = page.locator("#last-trick-dialog .trick-card.annihilated").evaluate_all(
                    "ns => ns.map(n => n.dataset.card)")
                assert sorted(marked) == sorted(shown["annihilated"]), (marked, shown)
                assert "Annihilated:" in page.text_content("#last-trick-winner")
                page.screenshot(path=str(artifacts_dir() / "dgt-annihilated.png"))
                page.keyboard.press("Escape")
                seen["last_trick_view"] = 1
    seen["annihilated"] = page.evaluate("window.annihilatedShown")
    assert page.text_content("#match-result").startswith("Winner:")
    scores = page.evaluate("window.doppelrunde.state.scores")
    assert len(scores["rounds"]) == 3
    page.click("#match-result-dialog details.last-deal summary")
    lines = page.locator("#match-result-dialog #scoring-lines li").all_text_contents()
    assert len(lines) == 3
    last = scores["rounds"][-1]
    for seat, line in enumerate(lines):
        score = last['scores'][seat]
        assert line.endswith(f"{score} point" if score == 1 else f"{score} points"), line
        assert f"bid {last['details']['bids'][seat]}" in line
    page.screenshot(path=str(artifacts_dir() / "dgt-scoring.png"))
    print("doppelganger tricks, seen:", seen)
    assert seen["bids_hidden"] == 3 and seen["bids_shown"] == 3
    assert seen["navy_lead"] >= 1 and seen["annihilated"] >= 1 and seen["bonus"] >= 1, seen
    assert seen.get("last_trick_view") == 1, seen
    assert problems == []
    ctx.close()


# --- Doublehead Kids ------------------------------------------------------------------------

def test_doublehead_kids_basic_round_with_kid_names_and_the_learning_aid(browser, site):
    ctx = context(browser, "phone")  # on a phone
    page = ctx.new_page()
    problems = console_errors(page)
    new_table(page, site, "doublehead_kids", players=4, bots=3, deals=1)
    page.wait_for_function(READY, timeout=15000)
    names = page.evaluate("window.doppelrunde.state.view.card_names")
    hand = view(page)["hand"]
    # the first choice says what it is about: ready to play, or a wedding against playing alone
    legal = view(page)["legal"]
    assert {a["type"] for a in legal} == {"declare"}, legal
    prompt = page.text_content("#prompt")
    assert ("both Prince/Princess cards" in prompt) == (hand.count("QC") == 2), prompt
    assert ("press “Ready to play”" in prompt) == (len(legal) == 1), prompt
    shown = page.locator("#hand button.card").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.card, n.querySelector('svg').getAttribute('aria-label')])")
    assert len(shown) == len(hand) == 12
    for card, text in shown:
        # the view names a card by its catalogue id; the page says it in its language (English)
        assert text.startswith(translate(names[card], "en")), (card, text)
        # one naming scheme: a name, and the family of an earl card in brackets
        assert re.fullmatch(r"[A-Z][\w\-/ ]+( \((cross|spade|heart)\))?", text), text
    # the picture names are written on the cards, legible: at least 8 px on a phone
    sizes = page.locator("#hand svg.kids text.name").evaluate_all(
        "nodes => nodes.map(n => n.getBoundingClientRect().height)")
    assert sizes and min(sizes) >= 8, sizes
    assert "golden coin" in page.text_content("#seats [data-seat='0'] .badge.golden")
    page.check("#learning-aid")
    assert page.is_checked("#learning-aid")
    page.screenshot(path=str(artifacts_dir() / "kids-start-phone.png"))

    seen = {"reason": 0, "duel": 0}
    page.evaluate("""() => { window.duelsExplained = []; new MutationObserver(() => {
        const why = document.getElementById('aid-duel'); if (why) window.duelsExplained.push(why.textContent); })
      .observe(document.getElementById('trick'), {childList: true}); }""")
    deadline = time.monotonic() + 120
    while not match_dialog_open(page):
        assert time.monotonic() < deadline, "the round did not end in time"
        page.wait_for_function(READY, timeout=20000)
        if match_dialog_open(page):
            break
        seq = page.evaluate("window.doppelrunde.seq")
        buttons = page.locator("#choices button[data-type]:not([data-type=announce])")
        if buttons.count():
            healthy = page.locator("#choices button[data-type=declare][data-value=healthy]")
            (healthy if healthy.count() else buttons).first.click()
            wait_after(page, seq)
            continue
        blocked = page.locator("#hand button.card.unplayable")
        if blocked.count():
            # a card that is not allowed says why, in one line, and nothing is sent
            blocked.first.click(position=CORNER, force=True)
            reason = page.text_content("#error")
            assert "you must play" in reason, reason
            assert page.evaluate("window.doppelrunde.seq") == seq
            assert page.text_content("#prompt").startswith("Follow the ")  # the aid's rule of the duel
            if not seen["reason"]:
                page.screenshot(path=str(artifacts_dir() / "kids-learning-aid.png"))
            seen["reason"] += 1
        page.locator("#hand button.card.legal").first.click(position=CORNER)
        wait_after(page, seq)
    # every badge reads whole on a phone's narrow plates: the teams ("♚ Team", "No crown") and the
    # round's silver coins ("● 138")
    assert page.locator("#seats .badge.party").count() >= 2 and page.locator("#seats .badge.silver").count() == 4
    assert cut_badges(page) == []
    explained = page.evaluate("window.duelsExplained")
    assert any(" won the duel with " in text and "silver coins." in text for text in explained), explained[:3]
    assert page.text_content("#match-result").startswith("Winner:")
    assert seen["reason"] >= 1, seen
    page.click("#match-result-dialog details.last-deal summary")
    lines = page.locator("#match-result-dialog #kids-result li").all_text_contents()
    silver = [int(re.search(r": (\d+) silver coins", line).group(1)) for line in lines[:2]]
    assert sum(silver) == 240, lines
    scores = page.evaluate("window.doppelrunde.state.scores")
    for seat in range(4):
        coins = scores["totals"][seat]
        text = page.text_content(f"#seats [data-seat='{seat}'] .badge.golden .long")
        assert text == f"● {coins} golden coin{'' if coins == 1 else 's'}", text
    assert "duel" in page.text_content("#seats")
    # the score sheet in Kids words: round, game (team game or lone player) with the winner under
    # it beside the table, golden coins; every computer player's name whole ("Comp. 2")
    header = page.locator("#scores thead th").all_text_contents()
    assert header[:2] == ["Round", "Game"], header
    assert sorted(name for name in header[2:] if name.startswith("Comp.")) == ["Comp. 2", "Comp. 3", "Comp. 4"], header
    game = page.locator("#scores tbody tr td:nth-child(2)")
    winner = game.locator("small.winner").text_content()
    assert re.fullmatch(r"(♚ Team|Without) \(\d+\)", winner), winner
    assert game.text_content().removesuffix(winner) in ("Team game", "Lone player", "Wedding")
    cut = page.evaluate("""() => [...document.querySelectorAll('#scores th[data-seat] .seat-head')]
      .filter((n) => n.scrollWidth > n.clientWidth || n.scrollHeight > n.clientHeight).map((n) => n.textContent)""")
    assert not [name for name in cut if name.startswith("Comp.")], cut
    page.screenshot(path=str(artifacts_dir() / "kids-result-phone.png"))
    assert problems == []
    ctx.close()
