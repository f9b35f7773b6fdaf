"""What a new player tripped over at a live table (headless Chromium, 390×844 and 1366×768): the
moves the computer made for them counted honestly, names and badges never broken inside a word,
the score sheet's Total row in view, notices that cover no seat plate or control, the
reservation clock explained, no unread chat of one's own, the next announcement offered first
with the deeper ones behind "More", counts in the singular and plural.
"""

from __future__ import annotations

import pytest

from tests.browser_table import READY, context, new_table

pytestmark = pytest.mark.browser

#: the stood-in sentence of the page's language for a count (notices.js stoodInSummary)
SUMMARY = """async ([total, atLeast, kept]) => {
  const n = await import('/static/js/notices.js');
  const moves = Array.from({length: kept}, (_, i) => ({move: `M${i + 1}`, card: true, why: 'away'}));
  return n.stoodInSummary(moves, {total, atLeast});
}"""


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", {
        (52, False, 16): "The computer made 52 moves for you (you were away), the last: M13, M14, M15, M16.",
        (16, True, 16): "The computer made at least 16 moves for you (you were away), the last: M13, M14, M15, M16.",
        (3, False, 3): "The computer made 3 moves for you (you were away): M1, M2, M3.",
        (1, False, 1): "The computer played M1 for you: you were away."}),
    ("de-DE", {
        (52, False, 16): "Der Computer hat 52 Züge für dich gemacht (du warst nicht da), zuletzt: M13, M14, M15, M16.",
        (16, True, 16): "Der Computer hat mindestens 16 Züge für dich gemacht (du warst nicht da), zuletzt: M13, M14, M15, M16.",
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
