"""The rules pages and the lobby in headless Chromium: every rules page in English and German
at 390×844 (phone) and 1366×768 draws its cards, scrolls only downwards and has no console
error; the New Game form's "Rules" link follows the chosen game to that game's page; axe-core
finds no serious or critical violation on the rules pages and on the lobby with its rule
options unfolded. Screenshots go to test-artifacts/ (rules-<game>-<lang>-<size>.png,
lobby-*.png)."""

from __future__ import annotations

import pytest

from app.web.pages import rules_games
from tests.browser_table import play_as_guest
from tests.conftest import artifacts_dir
from tests.test_browser_tables import console_errors
from tests.test_browser_ux import axe_violations, no_horizontal_scroll

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
LOCALES = {"en": "en-GB", "de": "de-DE"}
#: games whose cards the rules page draws with the site's card pictures (static/js/cards.js)
PICTURED = {"doppelkopf", "doppelganger_tricks"}


def context_for(browser, size: str, lang: str):
    width, height = SIZES[size]
    return browser.new_context(viewport={"width": width, "height": height}, locale=LOCALES[lang],
                               is_mobile=size == "phone", has_touch=size == "phone")


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("size", list(SIZES))
def test_every_rules_page_draws_its_cards_in_both_languages(browser, site, size, lang):
    context = context_for(browser, size, lang)
    page = context.new_page()
    problems = console_errors(page)
    for game in rules_games():
        page.goto(f"{site}/rules/{game}")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.get_attribute(f"#rules-tab-{game}", "aria-current") == "page"
        cards = page.locator("#rules [data-card]")
        assert cards.count() >= 4
        if game in PICTURED:
            page.wait_for_function("() => document.querySelectorAll('.rcard.drawn svg').length"
                                   " === document.querySelectorAll('#rules [data-card]').length")
            first = page.locator(".rcard.drawn").first.bounding_box()
            assert first["width"] >= 40 and first["height"] >= 60, first
        # every card still has its name for a screen reader
        names = cards.evaluate_all("nodes => nodes.map(n => n.querySelector('.rcard-name').textContent.trim())")
        assert all(names), names
        no_horizontal_scroll(page)
        page.screenshot(path=str(artifacts_dir() / f"rules-{game}-{lang}-{size}.png"))
        page.screenshot(path=str(artifacts_dir() / f"rules-{game}-{lang}-{size}-full.png"), full_page=True)
    assert problems == []
    context.close()


@pytest.mark.parametrize(("lang", "word"), [("en", "Rules"), ("de", "Regeln")])
def test_the_new_game_rules_link_follows_the_chosen_game(browser, site, lang, word):
    context = context_for(browser, "desktop", lang)
    page = context.new_page()
    problems = console_errors(page)
    page.goto(site + "/")
    play_as_guest(page)
    link = page.locator("#new-game #game-rules")
    for game in rules_games():
        page.select_option("#game", game)
        assert link.get_attribute("href") == f"/rules/{game}"
        label = page.locator(f"#game option[value={game}]").text_content()
        assert word in link.text_content() and label in link.text_content()
        assert page.text_content("#game-pitch")
    page.select_option("#game", "doppio")
    link.click()
    page.wait_for_url(f"{site}/rules/doppio")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.text_content("#rules-title").startswith(word)
    page.click("#rules-play")  # back to New Game with the game chosen
    page.wait_for_url(f"{site}/?game=doppio#new-game")
    assert page.input_value("#game") == "doppio"
    assert problems == []
    context.close()


def test_axe_finds_nothing_serious_on_the_rules_pages_and_the_lobby(browser, site, axe_script):
    context = context_for(browser, "desktop", "de")
    page = context.new_page()
    for game in rules_games():
        page.goto(f"{site}/rules/{game}")
        found = axe_violations(page, axe_script)
        assert not found, f"{game}:\n" + "\n".join(found)
    page.goto(f"{site}/rules")
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    page.goto(site + "/")
    found = axe_violations(page, axe_script)  # the welcome for visitors
    assert not found, "\n".join(found)
    play_as_guest(page)
    page.click("#rule-options summary")
    page.select_option("#game", "doppio")
    found = axe_violations(page, axe_script)
    assert not found, "\n".join(found)
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_is_compact_and_its_rule_options_fold(browser, site, size):
    """The New Game form fits the first screen (its button above the fold on a desktop), the
    rule options open on demand and say how many differ from the chosen rules, the invitation
    field shows for invited players, and the empty list of tables invites a New Game."""
    context = context_for(browser, size, "en")
    page = context.new_page()
    problems = console_errors(page)
    page.goto(site + "/")
    page.screenshot(path=str(artifacts_dir() / f"lobby-visitor-{size}.png"), full_page=True)
    play_as_guest(page)
    no_horizontal_scroll(page)
    assert page.is_visible("#tables-empty") and not page.is_visible("#tables")
    button = page.locator("#create-table").bounding_box()
    assert button["y"] + button["height"] <= SIZES[size][1], button  # no scrolling to start
    assert not page.is_visible("#opt-poverty")
    assert not page.is_visible("#invite")
    page.check("input[name=opponents][value=invited]")
    assert page.is_visible("#invite")
    page.check("input[name=opponents][value=any]")
    page.screenshot(path=str(artifacts_dir() / f"lobby-{size}.png"), full_page=True)
    page.click("#rule-options summary")
    assert page.text_content("#rule-options-note") == "(as the rules say)"
    page.check("#opt-poverty")
    assert page.text_content("#rule-options-note") == "(1 changed)"
    page.select_option("#preset", "gametwist")  # its table mode is a choice outside the fold
    assert page.is_visible("#opt-table_mode")
    assert page.locator("#rule-options #opt-table_mode").count() == 0
    page.screenshot(path=str(artifacts_dir() / f"lobby-rule-options-{size}.png"), full_page=True)
    assert problems == []
    context.close()
