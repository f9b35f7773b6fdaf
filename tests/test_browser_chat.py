"""Table chat in headless Chromium: two guests at one table chat; a line holding <script> shows
as text; the length counter and the refusals (too long, too fast) are shown; a report is
accepted; muting hides the muted person's lines. The turn timer's countdown shows by the mover's
name on both pages. Lobby chat: a line said in the lobby reaches another lobby page.

The server is a real uvicorn in a thread on a free port with a temporary SQLite database.
"""

from __future__ import annotations

import re

import pytest

from tests.browser_table import play_as_guest
from tests.conftest import artifacts_dir

pytestmark = pytest.mark.browser

WAIT = 20000  # ms: generous, the machine may be loaded


def guest(browser, site):
    page = browser.new_context().new_page()
    page.goto(site + "/")
    play_as_guest(page)
    page.wait_for_selector("#chat[data-me^='Guest-'][data-live]", timeout=WAIT)
    return page


def say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def lines_of(page, author: str):
    return page.locator(f"#chat-lines li[data-author='{author}']")


def test_two_players_chat_at_a_table(browser, site):
    anna, bert = guest(browser, site), guest(browser, site)
    anna_name = anna.get_attribute("#chat", "data-me")
    bert_name = bert.get_attribute("#chat", "data-me")
    anna.fill("#deals", "1")
    anna.select_option("#bots", "2")
    anna.select_option("#turn-seconds", "60")
    anna.click("#create-table")
    anna.wait_for_url(re.compile(r".*/tables/\d+$"))
    table_url = anna.url
    bert.goto(table_url)
    bert.click("#join")
    bert.wait_for_url(table_url)
    for page in (anna, bert):
        page.wait_for_function("() => window.doppelrunde.state && window.doppelrunde.state.view",
                               timeout=WAIT)
        page.wait_for_selector("#chat[data-live]", timeout=WAIT)
        # the mover's countdown by the mover's name, on every page
        page.wait_for_selector("#seats .turn-clock:not([hidden])", timeout=WAIT)
        clock = page.locator("#seats .turn-clock:not([hidden])")
        assert re.fullmatch(r"\d+ s", clock.text_content()), clock.text_content()
        # (a reservation decision's clock says why it has twice the time: tests/test_browser_newcomer.py)
        assert re.fullmatch(r"(Reservation: 2× the time per move; )?\d+ s left", clock.get_attribute("title"))

    say(anna, "hello bert")
    lines_of(bert, anna_name).first.wait_for(timeout=WAIT)
    assert lines_of(bert, anna_name).first.locator(".chat-text").text_content() == "hello bert"

    hostile = "<script>window.pwned = 1</script><b>bold</b>"
    say(bert, hostile)
    lines_of(anna, bert_name).first.wait_for(timeout=WAIT)
    assert lines_of(anna, bert_name).first.locator(".chat-text").text_content() == hostile
    assert anna.locator("#chat-lines script, #chat-lines b").count() == 0
    assert anna.evaluate("window.pwned") is None

    # the counter, and a line too long is refused with a clear error
    anna.fill("#chat-input", "x" * 201)
    assert anna.text_content("#chat-count") == "201/200"
    assert "over" in anna.get_attribute("#chat-count", "class")
    anna.click("#chat-send")
    assert "at most 200 characters" in anna.text_content("#chat-error")
    anna.fill("#chat-input", "")

    # report bert's line: accepted
    lines_of(anna, bert_name).first.locator(".chat-report").click()
    anna.wait_for_function(
        "() => document.getElementById('chat-status').textContent.includes('reported')",
        timeout=WAIT)

    # mute bert: his lines disappear, new ones are not shown
    lines_of(anna, bert_name).first.locator(".chat-mute").click()
    assert lines_of(anna, bert_name).first.is_hidden()
    say(bert, "can you still read me")
    lines_of(bert, bert_name).nth(1).wait_for(timeout=WAIT)  # the server has it
    say(anna, "quiet now")
    lines_of(anna, anna_name).nth(1).wait_for(timeout=WAIT)  # lines are delivered in order
    assert all(not line.is_visible() for line in lines_of(anna, bert_name).all())
    assert "can you still read me" not in anna.text_content("#chat-lines")
    # bert still sees anna (the muted person is not told)
    lines_of(bert, anna_name).nth(1).wait_for(timeout=WAIT)

    # too fast: five lines per ten seconds, then a clear refusal with the wait
    for n in range(6):
        say(bert, f"line {n}")
        if bert.text_content("#chat-error"):
            break
        bert.wait_for_timeout(100)
    bert.wait_for_function("() => document.getElementById('chat-error').textContent",
                           timeout=WAIT)
    assert re.search(r"too fast\. Wait \d+ s\.", bert.text_content("#chat-error"))
    anna.screenshot(path=str(artifacts_dir() / "table-chat.png"), full_page=True)
    for page in (anna, bert):
        page.context.close()


def test_lobby_chat_reaches_another_lobby_page(browser, site):
    cleo, dora = guest(browser, site), guest(browser, site)
    cleo_name = cleo.get_attribute("#chat", "data-me")
    say(cleo, "anyone for a game?")
    lines_of(dora, cleo_name).first.wait_for(timeout=WAIT)
    assert lines_of(dora, cleo_name).first.locator(".chat-text").text_content() == \
        "anyone for a game?"
    for page in (cleo, dora):
        page.context.close()
