"""In headless Chromium, at 390×844 and 1366×768, in English and German: a guest plays a deal
against three computer players, opens the replay and asks for the analysis of their play: the
costliest decisions with their reasons, the deal's curve (its values are the document's; a
click on a point moves the replay there), "Play from here" to a practice table, and a puzzle
from the analysis answered with its reason."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from app.clock import Clock
from app.db.engine import make_engine, make_sessionmaker
from app.lobby.service import Viewer
from tests.analysis.test_analyse import THROWN_AWAY
from tests.analysis.test_puzzles import stored_match
from tests.browser_table import context, guest_page, new_table, play_to_end
from tests.conftest import artifacts_dir
from tests.platform_helpers import live_server, settings_for
from tests.test_browser_ux import axe_violations

pytestmark = pytest.mark.browser

#: the chart's data (x, your choice, best choice, costly points) and where a point lies on screen
CHART = """(i) => {
  const chart = window.doppelrunde.replay.analysis.chart;
  const box = chart.over.getBoundingClientRect();
  return {data: chart.data.map((s) => Array.from(s)),
          x: box.left + chart.valToPos(chart.data[0][i], 'x'), y: box.top + chart.valToPos(chart.data[1][i], 'y')};
}"""


def analysed_replay(page, site, table_id):
    page.goto(f"{site}/tables/{table_id}/replay")
    page.wait_for_function("() => window.doppelrunde?.replay?.ready === true")
    page.wait_for_selector("#analysis[data-status=none] #analysis-start:not([hidden])")
    page.click("#analysis-start")
    page.wait_for_selector("#analysis[data-status=done]", timeout=240_000)
    return page.evaluate("window.doppelrunde.replay.analysis.doc")


def test_an_analysed_replay_explains_the_costliest_decisions_and_draws_the_deal(browser, tmp_path, axe_script):
    settings = settings_for(tmp_path, analysis_worlds=6, analysis_budget_ms=60_000)
    with live_server(settings) as site:
        ctx = context(browser, "desktop")
        page = ctx.new_page()
        table_id = new_table(page, site, game="doppelkopf", bots=3, deals=1)
        play_to_end([page])
        doc = analysed_replay(page, site, table_id)
        assert axe_violations(page, axe_script) == []

        summary = page.text_content("#analysis-summary")
        assert summary.startswith("Accuracy: ") and "in Deal 1" in summary
        assert "Analysed: reservations, announcements, cards" in page.text_content("#analysis-what")
        marks = page.locator("#analysis-costliest .analysis-go")
        assert marks.count() >= 1
        first = marks.first.text_content()
        assert " cost about " in first and " game points; " in first and first.endswith("was better here.")
        # each listed decision says why, in the words the server wrote from the sampled deals
        costly = [e for e in doc["decisions"] if e["analysed"] and e["cost"] > doc["tolerance"]]
        whys = page.locator("#analysis-costliest .analysis-why").all_text_contents()
        assert whys and all(why in [e["why"]["text"] for e in costly] for why in whys)
        assert all("sampled deals" in why for why in whys)

        # the curve: the document's values, costly moments marked; a click on a point goes there
        curve = doc["rounds"][0]["curve"]
        page.wait_for_function("() => window.doppelrunde.replay.analysis.chart")
        shown = page.evaluate(CHART, 0)["data"]
        assert shown[0] == list(range(1, len(curve) + 1))
        assert shown[1] == [point["value"] for point in curve]
        assert shown[3] == [point["value"] if point["costly"] else None for point in curve]
        pick = max(range(len(curve)), key=lambda i: (curve[i]["costly"], curve[i]["index"]))
        where = page.evaluate(CHART, pick)
        page.mouse.move(where["x"], where["y"])
        page.mouse.click(where["x"], where["y"])
        page.wait_for_function(f"() => window.doppelrunde.replay.frame === {curve[pick]['index']}")
        if curve[pick]["costly"]:
            assert page.is_visible("#analysis-moment") and page.is_visible("#analysis-mark")
        page.screenshot(path=str(artifacts_dir() / "analysis-curve-desktop.png"))
        page.evaluate("document.getElementById('analysis').style.maxHeight = 'none'")
        page.locator("#analysis").screenshot(path=str(artifacts_dir() / "analysis-panel-desktop.png"))

        marks.first.click()
        index = int(marks.first.get_attribute("data-index"))
        assert page.evaluate("window.doppelrunde.replay.frame") == index
        assert page.text_content("#analysis-mark") == first
        entry = next(d for d in doc["decisions"] if d["index"] == index)
        if entry["action"].get("card"):  # the card played is flagged in the hand
            assert page.locator("#hand [data-analysis=taken]").count() == 1
        if entry["best_action"].get("card"):  # and the better one
            assert page.locator("#hand [data-analysis=better]").count() == 1
        assert axe_violations(page, axe_script) == []

        phone = context(browser, "phone", storage_state=ctx.storage_state())
        small = phone.new_page()
        small.goto(f"{site}/tables/{table_id}/replay")
        small.wait_for_selector("#analysis[data-status=done]")
        small.wait_for_function("() => window.doppelrunde.replay.analysis.chart")
        box = small.locator("#analysis-curve").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # nothing cut at the side
        small.locator("#analysis-costliest .analysis-go").first.click()
        assert small.is_visible("#analysis-mark")
        small.screenshot(path=str(artifacts_dir() / "analysis-phone.png"), full_page=True)
        phone.close()
        ctx.close()


def test_in_german_on_a_phone_the_reasons_and_play_from_here(browser, tmp_path, axe_script):
    settings = settings_for(tmp_path, analysis_worlds=6, analysis_budget_ms=60_000)
    with live_server(settings) as site:
        ctx = context(browser, "phone", locale="de-DE")
        page = ctx.new_page()
        table_id = new_table(page, site, game="doppelkopf", bots=3, deals=1)
        play_to_end([page])
        analysed_replay(page, site, table_id)
        assert page.text_content("#analysis-summary").startswith("Genauigkeit: ")
        assert "in Spiel 1" in page.text_content("#analysis-summary")
        whys = page.locator("#analysis-costliest .analysis-why").all_text_contents()
        assert whys and all("gezogenen Verteilungen" in why or "gezogene Verteilungen" in why for why in whys)
        assert page.text_content("label:has(#round)").strip().startswith("Spiel")
        page.evaluate("document.getElementById('analysis').style.maxHeight = 'none'")
        page.screenshot(path=str(artifacts_dir() / "analysis-phone-de.png"), full_page=True)

        # Play from here: a moment in the middle of the deal, the seat's own cards at a new table
        page.goto(f"{site}/tables/{table_id}/replay?round=0&frame=21")
        page.wait_for_function("() => window.doppelrunde?.replay?.ready === true")
        assert page.evaluate("window.doppelrunde.replay.frame") == 21
        hand = sorted(page.evaluate("window.doppelrunde.replay.data.rounds[0].frames[21].hands[0]"))
        page.click("#play-from-here")
        page.wait_for_selector("#practice-dialog[open]")
        assert "Spiel 1 · Zug 21 von" in page.text_content("#practice-moment")
        assert axe_violations(page, axe_script) == []
        page.screenshot(path=str(artifacts_dir() / "play-from-here-phone-de.png"))
        page.select_option("#practice-level", "beginner")
        page.click("#practice-start")
        page.wait_for_url(f"{site}/tables/*")
        page.wait_for_function("() => window.doppelrunde && window.doppelrunde.state && window.doppelrunde.state.view")
        assert page.url != f"{site}/tables/{table_id}"
        state = page.evaluate("window.doppelrunde.state")
        assert state["you"] == 0 and state["table"]["deals"] == 1
        # the computer players may move on at once, the player's own cards wait for the player
        assert sorted(state["view"]["hand"]) == hand
        bar = page.text_content("#practice-bar")
        assert "Übung" in bar and f"Tisch {table_id}" in bar
        page.screenshot(path=str(artifacts_dir() / "practice-table-phone-de.png"))
        play_to_end([page])
        page.wait_for_selector("#practice-compare")
        compare = page.text_content("#practice-compare")
        assert "Hier hast du" in compare and "in der Partie" in compare
        page.screenshot(path=str(artifacts_dir() / "practice-result-phone-de.png"))
        ctx.close()


def _store_blunder(settings, user: dict) -> int:
    """thrown_away.json as a finished match of ``user`` in the live server's database."""
    async def store():
        engine = make_engine(settings.database_url)
        try:
            world = {"sessions": make_sessionmaker(engine), "clock": Clock()}
            return await stored_match(world, json.loads(THROWN_AWAY.read_text()),
                                      Viewer(user["id"], user["name"]))
        finally:
            await engine.dispose()

    with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this thread
        return thread.submit(asyncio.run, store()).result()


@pytest.mark.parametrize("size, locale", [("desktop", None), ("phone", "de-DE")])
def test_a_puzzle_from_the_analysis_is_answered_with_its_reason(browser, tmp_path, axe_script, size, locale):
    settings = settings_for(tmp_path, analysis_worlds=32, analysis_budget_ms=60_000)
    with live_server(settings) as site:
        ctx, page = guest_page(browser, site, size, locale=locale)
        user = page.evaluate("fetch('/api/me').then((r) => r.json()).then((b) => b.user)")
        table_id = _store_blunder(settings, user)
        analysed_replay(page, site, table_id)
        page.wait_for_function("() => fetch('/api/puzzles').then((r) => r.json()).then((b) => b.puzzles.length > 0)",
                               timeout=60_000, polling=500)
        page.goto(f"{site}/puzzles")
        page.click("#puzzles a")
        page.wait_for_selector("#hand .card.legal")
        puzzle = json.loads(page.text_content("#puzzle-data"))
        assert puzzle["mine"] and puzzle["answered"] is None
        assert axe_violations(page, axe_script) == []
        page.screenshot(path=str(artifacts_dir() / f"puzzle-{size}-{locale or 'en'}.png"))
        page.locator("#hand .card.legal").first.click()
        page.wait_for_selector("#puzzle-answer:not([hidden])")
        solution = page.evaluate("window.doppelrunde.puzzle.solution")
        verdict = page.text_content("#puzzle-verdict")
        if solution["correct"]:
            assert verdict.startswith("Gut gefunden" if locale else "Well found")
        else:
            assert verdict.startswith("Nicht ganz" if locale else "Not quite")
        assert page.text_content("#puzzle-why") == solution["why"] and any(c.isdigit() for c in solution["why"])
        source = page.get_attribute("#puzzle-source", "href")
        assert source == f"/tables/{table_id}/replay?round={solution['source']['round']}&frame={solution['source']['index']}"
        page.screenshot(path=str(artifacts_dir() / f"puzzle-answered-{size}-{locale or 'en'}.png"), full_page=True)
        # another guest may not open it
        other, stranger = guest_page(browser, site, size, locale=locale)
        refused = stranger.goto(f"{site}{page.url.removeprefix(site)}")
        assert refused.status == 403
        other.close()
        ctx.close()
