"""In headless Chromium: a guest plays a deal of Doppelkopf against three computer players,
opens the replay, asks for the analysis of their play, and sees the accuracy and the costliest
decisions marked; one of them opens on the table with the better card flagged in the hand."""

from __future__ import annotations

import pytest

from tests.browser_table import context, new_table, play_to_end
from tests.conftest import artifacts_dir
from tests.platform_helpers import live_server, settings_for
from tests.test_browser_ux import axe_violations

pytestmark = pytest.mark.browser


def test_an_analysed_replay_marks_the_costliest_decisions(browser, tmp_path, axe_script):
    settings = settings_for(tmp_path, analysis_worlds=6, analysis_budget_ms=60_000)
    with live_server(settings) as site:
        ctx = context(browser, "desktop")
        page = ctx.new_page()
        table_id = new_table(page, site, game="doppelkopf", bots=3, deals=1)
        play_to_end([page])

        page.goto(f"{site}/tables/{table_id}/replay")
        page.wait_for_function("() => window.doppelrunde?.replay?.ready === true")
        page.wait_for_selector("#analysis[data-status=none] #analysis-start:not([hidden])")
        assert axe_violations(page, axe_script) == []  # the offer to analyse, too
        page.click("#analysis-start")
        page.wait_for_selector("#analysis[data-status=done]", timeout=240_000)

        summary = page.text_content("#analysis-summary")
        assert summary.startswith("Accuracy: ") and "in deal 1" in summary
        assert "Analysed: reservations, announcements, cards" in page.text_content("#analysis-what")
        marks = page.locator("#analysis-costliest .analysis-go")
        assert marks.count() >= 1
        first = marks.first.text_content()
        assert " cost about " in first and " game points; " in first and first.endswith("was better here.")

        marks.first.click()
        index = int(marks.first.get_attribute("data-index"))
        assert page.evaluate("window.doppelrunde.replay.frame") == index
        assert page.is_visible("#analysis-mark")
        assert page.text_content("#analysis-mark") == first
        doc = page.evaluate("window.doppelrunde.replay.analysis.doc")
        entry = next(d for d in doc["decisions"] if d["index"] == index)
        page.screenshot(path=str(artifacts_dir() / "analysis-desktop-mark.png"))
        if entry["action"].get("card"):  # the card played is flagged in the hand
            assert page.locator("#hand [data-analysis=taken]").count() == 1
        if entry["best_action"].get("card"):  # and the better one
            assert page.locator("#hand [data-analysis=better]").count() == 1
        page.screenshot(path=str(artifacts_dir() / "analysis-desktop.png"), full_page=True)
        assert axe_violations(page, axe_script) == []
        page.click("#next")  # right after the decision the mark stays
        assert page.is_visible("#analysis-mark")
        page.click("#next")  # two steps on, only another costly decision has a mark
        costly = {d["index"] for d in doc["decisions"] if d["analysed"] and d["cost"] > doc["tolerance"]}
        assert page.is_visible("#analysis-mark") == bool(costly & {index + 1, index + 2})

        phone = context(browser, "phone", storage_state=ctx.storage_state())
        small = phone.new_page()
        small.goto(f"{site}/tables/{table_id}/replay")
        small.wait_for_selector("#analysis[data-status=done]")
        small.locator("#analysis-costliest .analysis-go").first.click()
        assert small.is_visible("#analysis-mark")
        small.screenshot(path=str(artifacts_dir() / "analysis-phone.png"), full_page=True)
        phone.close()
        ctx.close()
