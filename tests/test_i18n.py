"""German and English: one catalogue, chosen from the browser, switchable and remembered."""

from __future__ import annotations

import re

import httpx
import pytest

from app import i18n
from app.i18n.catalogue import extract
from tests.platform_helpers import make_app, settings_for


@pytest.fixture
async def client(tmp_path):
    app = make_app(settings_for(tmp_path))
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as client:
            yield client


def _po_ids(lang: str) -> dict[str, str]:
    return {m.id: m.string for m in i18n.catalog(lang) if m.id}


def test_every_msgid_in_the_sources_has_a_german_translation():
    used = {m.id for m in extract() if m.id}
    german = _po_ids("de")
    assert len(used) > 50
    missing = sorted(msgid for msgid in used if not german.get(msgid))
    assert missing == [], f"untranslated into German (run python -m app.i18n.catalogue): {missing}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_catalogues_hold_no_msgid_nobody_uses(lang):
    used = {m.id for m in extract() if m.id}
    unused = sorted(set(_po_ids(lang)) - used)
    assert unused == [], f"{lang}: msgids no source uses: {unused}"


def test_placeholders_are_the_same_in_both_languages():
    for msgid, text in _po_ids("de").items():
        assert sorted(re.findall(r"%\((\w+)\)s", text)) == sorted(re.findall(r"%\((\w+)\)s", msgid)), msgid


@pytest.mark.parametrize(("header", "expected"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"),
    ("en-GB,en;q=0.9,de;q=0.5", "en"),
    ("fr-FR,fr;q=0.9,de;q=0.4", "de"),
    ("fr-FR", i18n.DEFAULT),
    ("de;q=0, en;q=0.1", "en"),
    ("", i18n.DEFAULT),
    (None, i18n.DEFAULT),
])
def test_the_language_follows_accept_language(header, expected):
    assert i18n.choose_language(None, header) == expected


def test_a_remembered_choice_wins_over_the_browser():
    assert i18n.choose_language("en", "de-DE,de") == "en"
    assert i18n.choose_language("xx", "de-DE,de") == "de"


def test_card_names_read_as_players_say_them():
    assert i18n.translate("%(rank)s of %(suit)s", "de", rank=i18n.translate("Queen", "de"),
                          suit=i18n.translate("clubs", "de")) == "Kreuz-Dame"
    assert i18n.translate("%(rank)s of %(suit)s", "en", rank="Queen", suit="clubs") == "Queen of clubs"


async def test_accept_language_de_gives_a_german_page(client):
    page = await client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert page.status_code == 200
    assert '<html lang="de">' in page.text
    assert "Bestenlisten" in page.text and "Leaderboards" not in page.text


async def test_accept_language_en_gives_an_english_page(client):
    page = await client.get("/", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert '<html lang="en">' in page.text
    assert "Leaderboards" in page.text and "Bestenlisten" not in page.text


async def test_switching_the_language_sets_a_lasting_cookie_and_is_remembered(client):
    switched = await client.get("/lang/de", params={"next": "/login"},
                                headers={"Accept-Language": "en"})
    assert switched.status_code == 303
    assert switched.headers["location"] == "/login"
    cookie = switched.headers["set-cookie"]
    assert cookie.startswith(f"{i18n.LANG_COOKIE}=de")
    assert int(re.search(r"Max-Age=(\d+)", cookie).group(1)) >= 365 * 24 * 3600
    again = await client.get("/login", headers={"Accept-Language": "en"})
    assert '<html lang="de">' in again.text and "Anmelden" in again.text
    back = await client.get("/lang/en", params={"next": "/"})
    assert back.headers["set-cookie"].startswith(f"{i18n.LANG_COOKIE}=en")
    assert "Leaderboards" in (await client.get("/", headers={"Accept-Language": "de"})).text


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example"])
async def test_the_switch_returns_only_to_this_site(client, target):
    switched = await client.get("/lang/de", params={"next": target})
    assert switched.headers["location"] == "/"


async def test_an_unknown_language_changes_nothing(client):
    switched = await client.get("/lang/xx", params={"next": "/"})
    assert switched.status_code == 303
    assert i18n.LANG_COOKIE not in switched.headers.get("set-cookie", "")


async def test_every_page_offers_de_and_en(client):
    for path in ("/", "/login", "/register", "/leaderboards/doppelkopf"):
        page = await client.get(path, headers={"Accept-Language": "de"})
        assert 'id="lang-de"' in page.text and 'id="lang-en"' in page.text, path


async def test_the_page_embeds_the_browser_catalogue_of_its_language(client):
    page = await client.get("/", headers={"Accept-Language": "de"})
    data = re.search(r'<script type="application/json" id="i18n-data">(.*?)</script>', page.text).group(1)
    import json

    catalogue = json.loads(data)
    assert catalogue["lang"] == "de"
    assert catalogue["messages"]["Reservation"] == "Vorbehalt"
    assert "Log out" not in catalogue["messages"]  # only what the browser uses


async def test_the_favicon_is_served(client):
    page = await client.get("/")
    assert 'rel="icon" href="/static/favicon.svg"' in page.text
    icon = await client.get("/static/favicon.svg")
    assert icon.status_code == 200 and "svg" in icon.headers["content-type"]
