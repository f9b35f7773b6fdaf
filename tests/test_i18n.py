"""German and English: one catalogue, chosen from the browser, switchable and remembered."""

from __future__ import annotations

import re

import pytest

from app import i18n
from app.i18n.catalogue import ROOT, extract


def _key(msgid: str | tuple[str, ...]) -> str:
    """A plural entry's key is its singular."""
    return msgid[0] if isinstance(msgid, tuple) else msgid


def _po_ids(lang: str) -> dict[str, tuple[str, ...]]:
    """msgid → its texts (one, or one per plural form)."""
    return {_key(m.id): m.string if isinstance(m.string, tuple) else (m.string,)
            for m in i18n.catalog(lang) if m.id}


def _used() -> set[str]:
    return {_key(m.id) for m in extract() if m.id}


def test_every_msgid_in_the_sources_has_a_german_translation():
    used = _used()
    german = _po_ids("de")
    assert len(used) > 300
    missing = sorted(msgid for msgid in used if not all(german.get(msgid, ("",))))
    assert missing == [], f"untranslated into German (run python -m app.i18n.catalogue): {missing}"


#: a literal first argument of the browser's t() or ngettext() (static/js/i18n.js)
JS_CALL = re.compile(r"""\b(?:t|ngettext)\(\s*(["'])((?:\\.|(?!\1).)*)\1""")


def test_every_browser_msgid_is_extracted():
    """pybabel's JavaScript extractor skips a t() call with an object literal inside a template
    literal's ${...}; such a msgid never reaches the catalogue and stays English in German
    (the replay's "action 0 of 53"). Every literal call in static/js must be extracted."""
    used = _used()
    missed = []
    for path in sorted((ROOT / "static" / "js").rglob("*.js")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith(("//", "*", "/*")):  # the doc comments' examples
                continue
            for match in JS_CALL.finditer(line):
                msgid = re.sub(r"\\(.)", r"\1", match.group(2))
                if msgid not in used:
                    missed.append(f"{path.relative_to(ROOT)}:{number}: {msgid}")
    assert missed == [], f"not extracted (call t() outside the template literal): {missed}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_catalogues_hold_no_msgid_nobody_uses(lang):
    unused = sorted(set(_po_ids(lang)) - _used())
    assert unused == [], f"{lang}: msgids no source uses: {unused}"


def test_placeholders_are_the_same_in_both_languages():
    for msgid, texts in _po_ids("de").items():
        wanted = set(re.findall(r"%\((\w+)\)s", msgid))
        for text in texts:
            assert set(re.findall(r"%\((\w+)\)s", text)) == wanted, (msgid, text)


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


# --- pages in German: no internal names, refusals in German ----------------------------------

INTERNAL_NAMES = ("ddv", "gametwist_pub", "doublehead_kids", "doppelganger_tricks", "solo_fleshless",
                  "heart_ten_second_beats_first", "re_kontra_doubles", "catch_window_seconds",
                  "beginner", "intermediate", "target_coins")


def _visible_text(html: str) -> str:
    """The page's text and attribute values a person sees (no scripts, no tags, no values of
    form fields, which the browser sends but never shows)."""
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    shown = " ".join(re.findall(r'(?:title|placeholder|aria-label|alt)="([^"]*)"', html))
    return re.sub(r"<[^>]+>", " ", html) + " " + shown


async def _register(client, name: str = "Anna") -> None:
    csrf = (await client.get("/api/me")).json()["csrf"]
    response = await client.post("/register", data={"csrf": csrf, "name": name, "password": "long enough"})
    assert response.status_code == 303


async def test_the_german_lobby_and_new_game_form_show_no_internal_names(client):
    await _register(client)
    page = await client.get("/", headers={"Accept-Language": "de"})
    text = _visible_text(page.text)
    for name in INTERNAL_NAMES:
        assert name not in text, name
    for words in ("Neues Spiel", "Turnierregeln (DDV)", "Doppelkopf für Kinder", "Anfänger",
                  "Computerspieler", "Offene Tische"):
        assert words in text, words
    import json

    games = json.loads(re.search(r'id="games-data">(.*?)</script>', page.text, re.S).group(1))
    doppelkopf = next(g for g in games if g["name"] == "doppelkopf")
    assert doppelkopf["option_labels"]["swines"] == "Schweinchen (beide Karo-Asse)"
    assert doppelkopf["preset_labels"]["gametwist_pub"] == "GameTwist-Kneipenregeln"


def test_every_installed_game_preset_and_option_has_words():
    from app.i18n import names
    from app.lobby.service import games_json

    for game in games_json():
        if game["name"] == "highcard":  # the test-only game (tests/highcard_game.py)
            continue
        assert game["name"] in names.GAMES
        for preset in game["presets"]:
            assert preset in names.PRESETS, preset
        for values in (*game["switches"].values(), *game["numbers"].values()):
            for option in values:
                assert option in names.OPTIONS, option


async def _new_game(client, lang: str, **fields: str):
    csrf = (await client.get("/api/me")).json()["csrf"]
    form = {"csrf": csrf, "game": "doppelkopf", "preset": "ddv", "players": "4", "deals": "4",
            "opponents": "any", "skill": "beginner", "bots": "3", "invite": "",
            "switches": "", "numbers": "", **fields}
    return await client.post("/tables", data=form, headers={"Accept-Language": lang})


def _error(page) -> str:
    return re.search(r'id="page-error">(.*?)</p>', page.text, re.S).group(1)


@pytest.mark.parametrize(("fields", "english", "german", "field"), [
    ({"deals": "99"}, "Deals: at most 48 deals", "Anzahl Spiele: höchstens 48 Spiele", "deals"),
    # one limit, one message: past what the model once allowed (1000) the same words
    ({"deals": "49"}, "Deals: at most 48 deals", "Anzahl Spiele: höchstens 48 Spiele", "deals"),
    ({"deals": "5000"}, "Deals: at most 48 deals", "Anzahl Spiele: höchstens 48 Spiele", "deals"),
    ({"deals": "0"}, "Deals: must be at least 1", "Anzahl Spiele: muss mindestens 1 sein", "deals"),
    ({"deals": "many"}, "Deals: enter a whole number", "Anzahl Spiele: gib eine ganze Zahl ein", "deals"),
    ({"players": "3"}, "Players: Doppelkopf is played by 4 players",
     "Spieler: Doppelkopf spielen 4 Spieler", "players"),
    ({"bots": "4"}, "Computer players: at most 3 of the 4 seats can be computer players",
     "Computerspieler: höchstens 3 der 4 Plätze können Computerspieler sein", "bots"),
    ({"invite": "nobody_here"}, "Invite (names): there is no player called &#39;nobody_here&#39;",
     "Einladen (Namen): es gibt keinen Spieler namens &#39;nobody_here&#39;", "invite"),
    ({"preset": "house_rules"}, "Rules: choose one of the offered values",
     "Regeln: wähle einen der angebotenen Werte", "preset"),
    ({"game": "doublehead_kids", "preset": "basic", "numbers": "target_coins", "opt_target_coins": "x"},
     "rule option &#39;Coins to win&#39;: enter a number",
     "Regeloption „Goldmünzen zum Sieg“: gib eine Zahl ein", "opt_target_coins"),
    ({"choices": "solo_leads", "opt_solo_leads": "bogus"},  # the core's codes are not shown
     "rule option &#39;Who leads a solo&#39;: choose one of the offered values",
     "Regeloption „Wer kommt beim Solo raus“: wähle einen der angebotenen Werte", "opt_solo_leads"),
    ({"game": "doppio", "players": "5"}, "Players: Doppio is played by 2 to 4 players",
     "Spieler: Doppio spielen 2 bis 4 Spieler", "players"),
    ({"game": "doublehead_kids", "preset": "basic", "numbers": "target_coins", "opt_target_coins": "0"},
     "rule option &#39;Coins to win&#39;: expected a positive whole number",
     "Regeloption „Goldmünzen zum Sieg“: erwartet: eine positive ganze Zahl", "opt_target_coins"),
])
async def test_new_game_errors_name_the_field_and_say_why(client, fields, english, german, field):
    await _register(client)
    for lang, expected in (("en", english), ("de", german)):
        page = await _new_game(client, lang, **fields)
        assert page.status_code == 400
        assert _error(page) == expected
    if not field.startswith("opt_"):
        assert re.search(rf'id="{field}"[^>]*aria-invalid="true"', page.text), field


async def test_a_refused_new_game_keeps_what_was_sent(client):
    await _register(client)
    # Doppio's match ends at its penalty limit (the deals are not asked): refused for the limit
    page = await _new_game(client, "en", deals="99", invite="", bots="2", opponents="friend",
                           skill="expert", game="doppio", preset="standard", players="3",
                           numbers="game_end_total", opt_game_end_total="0")
    assert page.status_code == 400
    assert 'value="99" id="deals"' in page.text
    assert re.search(r'<option value="doppio"[^>]* selected', page.text)
    assert re.search(r'<option value="2" selected>', page.text)
    assert re.search(r'value="friend" checked', page.text)
    assert re.search(r'<option value="expert" selected>', page.text)
    assert re.search(r"<option selected>3</option>", page.text)


async def test_refusals_reach_the_page_and_the_api_in_german(client):
    await _register(client)
    login = await client.get("/tables/999", headers={"Accept-Language": "de"})
    assert login.status_code == 404 and "Diesen Tisch gibt es nicht" in login.text
    api = await client.get("/api/tables/999", headers={"Accept-Language": "de"})
    assert api.status_code == 404 and api.json()["detail"] == "diesen Tisch gibt es nicht"
    english = await client.get("/api/tables/999", headers={"Accept-Language": "en"})
    assert english.json()["detail"] == "no such table"


async def test_login_errors_in_german(client):
    csrf = (await client.get("/api/me")).json()["csrf"]
    page = await client.post("/login", data={"csrf": csrf, "name": "nobody", "password": "whatever"},
                             headers={"Accept-Language": "de"})
    assert page.status_code == 400 and "Name oder Passwort falsch" in page.text


async def test_a_browser_gets_an_error_page_in_its_language(client):
    html = {"Accept": "text/html,application/xhtml+xml", "Accept-Language": "de"}
    missing = await client.get("/no/such/page", headers=html)
    assert missing.status_code == 404
    assert "Diese Seite gibt es nicht." in missing.text and '<html lang="de">' in missing.text
    forged = await client.post("/friends/add", data={"name": "x", "csrf": "forged"}, headers=html)
    assert forged.status_code == 403
    assert "Sicherheitsmerkmal (CSRF) fehlt oder ist falsch" in forged.text
    incomplete = await client.post("/login", data={"csrf": "x"}, headers=html)
    assert incomplete.status_code in (403, 422) and "<!doctype html>" in incomplete.text


async def test_programs_still_get_json_refusals(client):
    missing = await client.get("/api/no-such-thing", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and missing.json() == {"detail": "Not Found"}
    forged = await client.post("/api/guest", json={}, headers={"X-CSRF-Token": "forged"})
    assert forged.status_code == 403
    assert forged.json()["detail"] == "missing or wrong CSRF token; reload the page"


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "1 deal", "8 deals"), ("de", "1 Spiel", "8 Spiele")])
def test_a_match_of_one_deal_is_said_in_the_singular(lang, one, many):
    from app.i18n import set_language
    from app.i18n.names import end_text

    set_language(lang)
    try:
        assert end_text({"kind": "deals", "target": 1, "cap": None}) == one
        assert end_text({"kind": "deals", "target": 8, "cap": None}) == many
    finally:
        set_language("en")


def test_the_browser_catalogue_carries_plural_entries_as_both_forms():
    from app.i18n import browser_catalogue

    assert browser_catalogue("de")["%(num)s deal"] == ["%(num)s Spiel", "%(num)s Spiele"]
