"""The per-game tables in headless Chromium (static/js/games/*.js): Doppio with a real catch in a
real countdown, Doppelganger Tricks and Doublehead Kids played to the end against computer
players. Same live server as tests/test_browser.py (computer players think 0 seconds, no pause
between deals). Screenshots go to artifacts_dir().
"""

from __future__ import annotations

import re
import time

import pytest

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
    page.goto(url + "/")
    page.click("#play-guest")
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    page.select_option("#bots", str(bots))
    page.fill("#deals", str(deals))
    if numbers:
        page.click("#rule-options summary")  # the rule options are folded
    for name, value in (numbers or {}).items():
        page.fill(f"#opt-{name}", value)
    page.click("#create-table")
    page.wait_for_url(re.compile(r".*/tables/\d+$"))
    page.wait_for_function(
        "() => window.doppelrunde && window.doppelrunde.state && window.doppelrunde.state.view",
                           timeout=15000)


def wait_after(page, seq: int) -> None:
    page.wait_for_function(
        f"() => window.doppelrunde.seq > {seq} || document.getElementById('error').textContent",
        timeout=15000)


def view(page) -> dict:
    return page.evaluate("window.doppelrunde.state.view")


# --- Doppio ---------------------------------------------------------------------------------

DOPPIO_READY = """() => document.getElementById('match-result').textContent ||
  document.querySelector('#choices button[data-type=catch]:not([disabled])') ||
  document.querySelector('#hand button.card.legal')"""


def test_doppio_two_players_a_real_catch_within_the_countdown(browser, site):
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True)  # on a phone
    problems = console_errors(page)
    new_table(page, site, "doppio", players=2, bots=1,
              numbers={"catch_window_seconds": "8"})
    assert page.locator("#catch-button").count() == 0
    first = view(page)
    assert first["turn"] == 0 and len(first["hand"]) == 6
    # the divider: three cards each side, the pairs, the hand value of the owner
    assert page.locator(".doppio-hand > button.card").count() == 6
    assert page.locator(".doppio-hand > .divider").count() == 1
    positions = page.locator(".doppio-hand > *").evaluate_all(
        "nodes => nodes.map(n => n.dataset.position || '|')")
    assert positions == ["L3", "L2", "L1", "|", "R1", "R2", "R3"]
    pair_values = [int(t.split("→")[1].split()[0]) for t in
                   page.locator("#pairs li").all_text_contents()]
    assert page.text_content("#hand-value") == f"Your hand value: {first['hand_value']}"
    assert sum(pair_values) == first["hand_value"]
    assert page.is_disabled("#doppio-button") == (first["hand_value"] > 10)
    page.screenshot(path=str(artifacts_dir() / "doppio-start.png"), full_page=True)

    caught = None
    deadline = time.monotonic() + 120
    while not page.text_content("#match-result"):
        assert time.monotonic() < deadline, "the Doppio match did not end in time"
        page.wait_for_function(DOPPIO_READY, timeout=20000)
        if page.text_content("#match-result"):
            break
        seq = page.evaluate("window.doppelrunde.seq")
        if page.locator("#choices button[data-type=catch]:not([disabled])").count():
            card = page.get_attribute("#window-card", "data-card")
            if caught is None:
                # a real countdown, ticking in the page, and a real click within it
                first_read = float(page.text_content("#countdown").split()[0])
                page.wait_for_timeout(400)
                second_read = float(page.text_content("#countdown").split()[0])
                assert 0 < second_read < first_read <= 8
                assert "fly" in page.get_attribute("#window-card", "class")
                page.screenshot(path=str(artifacts_dir() / "doppio-catch-window.png"),
                                full_page=True)
                page.click("#catch-button")
                wait_after(page, seq)
                page.wait_for_function("() => !window.doppelrunde.state.view.catch_window",
                                       timeout=15000)
                assert view(page)["held"][0] == card, "the catch within the countdown failed"
                held = page.locator("#seats .seat[data-seat='0'] figure.held")
                assert held.get_attribute("data-card") == card
                assert page.text_content("#held-note").startswith("You hold the caught ")
                page.screenshot(path=str(artifacts_dir() / "doppio-held-card.png"),
                                full_page=True)
                caught = card
            else:
                page.click("#pass-button")
                wait_after(page, seq)
            continue
        current = view(page)
        if current.get("catch_window") is None and current["turn"] == 0:
            assert page.is_disabled("#doppio-button") == (current["hand_value"] > 10)
            assert page.text_content("#hand-value") == f"Your hand value: {current['hand_value']}"
        page.locator("#hand button.card.legal").first.click()
        wait_after(page, seq)
    assert caught is not None, "no catch window was offered to the person"
    result = page.evaluate("window.doppelrunde.state.result")
    lowest = min(result["totals"])
    assert result["winners"] == [s for s, t in enumerate(result["totals"]) if t == lowest]
    names = ", ".join(page.evaluate(f"window.doppelrunde.state.table.seats[{s}].name")
                      for s in result["winners"])
    assert page.text_content("#match-result") == f"Winner: {names}"
    rows = page.locator("#penalties tbody tr")
    assert rows.count() == 2
    final = page.evaluate("window.doppelrunde.state.scores")
    for seat in range(2):
        cells = rows.nth(seat).locator("td").all_text_contents()
        assert int(cells[3]) == final["rounds"][-1]["scores"][seat]
        assert int(cells[4]) == final["totals"][seat]
    page.screenshot(path=str(artifacts_dir() / "doppio-penalties.png"), full_page=True)
    assert problems == []
    page.close()


# --- Doppelganger Tricks --------------------------------------------------------------------

DGT_READY = """() => document.getElementById('match-result').textContent ||
  document.querySelector('#bid-entry button') ||
  document.querySelector('#suit-choice button[data-suit]') ||
  document.querySelector('#bonus-pile button.takeable') ||
  document.querySelector('#choices button[data-type=decline_bonus]') ||
  document.querySelector('#hand button.card.legal')"""


def test_doppelganger_tricks_whole_three_player_game(browser, site):
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    problems = console_errors(page)
    new_table(page, site, "doppelganger_tricks", players=3, bots=2, deals=3)
    seen = {"bids_hidden": 0, "bids_shown": 0, "navy_lead": 0, "bonus": 0, "annihilated": 0}
    deadline = time.monotonic() + 180
    while not page.text_content("#match-result"):
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_function(DGT_READY, timeout=20000)
        if page.text_content("#match-result"):
            break
        seq = page.evaluate("window.doppelrunde.seq")
        current = view(page)
        if page.locator("#bid-entry button").count():
            # before our bid: the others' bids are secret, on screen and in the view
            assert current["bids"] is None
            for seat in (1, 2):
                text = page.text_content(f"#seats .seat[data-seat='{seat}'] .bid")
                assert text in ("has bid (secret)", "bidding…"), text
            seen["bids_hidden"] += 1
            page.click("#bid-entry button[data-value='1']")
            page.wait_for_function("() => window.doppelrunde.state.view.bids", timeout=15000)
            bids = view(page)["bids"]
            for seat in range(3):
                bid = page.locator(f"#seats .seat[data-seat='{seat}'] .bid")
                assert bid.text_content().startswith(f"bid {bids[seat]} · won ")
            seen["bids_shown"] += 1
            continue
        if page.locator("#bonus-pile button.takeable").count():
            name = page.get_attribute("#bonus-pile button.takeable", "data-bonus")
            played = len(page.evaluate("window.doppelrunde.state.scores.rounds"))
            page.click(f"#bonus-pile button.takeable[data-bonus='{name}']")  # one click
            page.wait_for_function(  # ours now, or it ended the round (the last play's bonus)
                f"() => window.doppelrunde.state.view.bonus['{name}'] === 0 || "
                f"window.doppelrunde.state.scores.rounds.length > {played}", timeout=15000)
            rounds = page.evaluate("window.doppelrunde.state.scores.rounds")
            if len(rounds) > played:
                assert rounds[-1]["details"]["bonus"][name] == 0
            else:
                assert page.locator(f"#seats .seat[data-seat='0'] [data-bonus='{name}']").count() == 1
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
        card.click()
        if page.locator("#suit-choice button[data-suit]").count():
            assert code.startswith("N") and not current["trick"]
            assert page.locator("#suit-choice button[data-suit]").count() == 3
            seen["navy_lead"] += 1
            page.locator("#suit-choice button[data-suit]").first.click()
        wait_after(page, seq)
        # read in one go: the computer players keep playing while we look
        marked, note, cards = page.evaluate("""() => [
            document.querySelectorAll('#last-trick figure.annihilated').length,
            document.getElementById('annihilation-note')?.textContent || '',
            (window.doppelrunde.state.view.last_trick || {annihilated: []}).annihilated]""")
        assert marked == len(cards)
        if marked:
            assert note.startswith("Annihilated:"), note
            if not seen["annihilated"]:
                page.screenshot(path=str(artifacts_dir() / "dgt-annihilated.png"), full_page=True)
            seen["annihilated"] += 1
    assert page.text_content("#match-result").startswith("Winner:")
    scores = page.evaluate("window.doppelrunde.state.scores")
    assert len(scores["rounds"]) == 3
    lines = page.locator("#scoring-lines li").all_text_contents()
    assert len(lines) == 3
    last = scores["rounds"][-1]
    for seat, line in enumerate(lines):
        assert line.endswith(f"= {last['scores'][seat]} (total {scores['totals'][seat]})"), line
        assert f"bid {last['details']['bids'][seat]}" in line
    page.screenshot(path=str(artifacts_dir() / "dgt-scoring.png"), full_page=True)
    print("doppelganger tricks, seen:", seen)
    assert seen["bids_hidden"] == 3 and seen["bids_shown"] == 3
    assert seen["navy_lead"] >= 1 and seen["annihilated"] >= 1 and seen["bonus"] >= 1, seen
    assert problems == []
    page.close()


# --- Doublehead Kids ------------------------------------------------------------------------

KIDS_READY = """() => document.getElementById('match-result').textContent ||
  document.querySelector('#choices button[data-type]:not([data-type=announce])') ||
  document.querySelector('#hand button.card.legal')"""


def test_doublehead_kids_basic_round_with_kid_names_and_the_learning_aid(browser, site):
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True)  # on a phone
    problems = console_errors(page)
    new_table(page, site, "doublehead_kids", players=4, bots=3, deals=1)
    names = page.evaluate("window.doppelrunde.state.view.card_names")
    hand = view(page)["hand"]
    shown = page.locator("#hand button.card").evaluate_all(
        "nodes => nodes.map(n => n.querySelector('svg').getAttribute('aria-label'))")
    assert len(shown) == len(hand) == 12
    for card, text in zip(hand, shown, strict=True):
        assert text.startswith(names[card]), (card, text)
    # the picture names are written on the cards, legible: at least 8 px on a phone
    sizes = page.locator("#hand svg.kids text.name").evaluate_all(
        "nodes => nodes.map(n => n.getBoundingClientRect().height)")
    assert sizes and min(sizes) >= 8, sizes
    assert "golden coin" in page.text_content("#seats .seat[data-seat='0'] .golden")
    page.check("#learning-aid")
    assert page.is_checked("#learning-aid")
    page.screenshot(path=str(artifacts_dir() / "kids-start-phone.png"), full_page=True)

    seen = {"reason": 0, "duel": 0}
    deadline = time.monotonic() + 120
    while not page.text_content("#match-result"):
        assert time.monotonic() < deadline, "the round did not end in time"
        page.wait_for_function(KIDS_READY, timeout=20000)
        if page.text_content("#match-result"):
            break
        seq = page.evaluate("window.doppelrunde.seq")
        buttons = page.locator("#choices button[data-type]:not([data-type=announce])")
        if buttons.count():
            healthy = page.locator("#choices button[data-type=declare][data-value=healthy]")
            (healthy if healthy.count() else buttons).first.click()
            wait_after(page, seq)
            continue
        blocked = page.locator("#hand button.card.not-allowed")
        if blocked.count():
            # the aid: a card that is not allowed says why, in one line, and nothing is sent
            blocked.first.click()
            reason = page.text_content("#aid-reason")
            assert "you must play" in reason, reason
            assert page.evaluate("window.doppelrunde.seq") == seq
            assert page.text_content("#aid-rule").startswith("Follow the ")
            if not seen["reason"]:
                page.screenshot(path=str(artifacts_dir() / "kids-learning-aid.png"), full_page=True)
            seen["reason"] += 1
        duels = len(view(page)["tricks"])
        page.locator("#hand button.card.legal").first.click()
        wait_after(page, seq)
        if len(view(page)["tricks"]) > duels:
            last = view(page)["last_trick"]
            winner = page.evaluate(f"window.doppelrunde.state.table.seats[{last['winner']}].name")
            explanation = page.text_content("#aid-duel")
            assert explanation.startswith(f"{winner} won the duel with "), explanation
            assert f"It brings {last['points']} silver coins." in explanation
            seen["duel"] += 1
    assert page.text_content("#match-result").startswith("Winner:")
    assert seen["duel"] >= 1 and seen["reason"] >= 1, seen
    lines = page.locator("#kids-result li").all_text_contents()
    silver = [int(re.search(r": (\d+) silver coins", line).group(1)) for line in lines[:2]]
    assert sum(silver) == 240, lines
    scores = page.evaluate("window.doppelrunde.state.scores")
    for seat in range(4):
        coins = scores["totals"][seat]
        text = page.text_content(f"#seats .seat[data-seat='{seat}'] .golden")
        assert text == f"● {coins} golden coin{'' if coins == 1 else 's'}", text
    assert "duel" in page.text_content("#seats")
    page.screenshot(path=str(artifacts_dir() / "kids-result-phone.png"), full_page=True)
    assert problems == []
    page.close()
