"""The HTML form pages: every mistake a person can make gets the page back with its message."""

from __future__ import annotations

import httpx
import pytest


async def post_form(client: httpx.AsyncClient, path: str, fields: dict[str, str]) -> httpx.Response:
    csrf = (await client.get("/api/me")).json()["csrf"]
    return await client.post(path, data={"csrf": csrf, **fields})


@pytest.mark.parametrize(("path", "fields", "message"), [
    ("/register", {"name": "<script>alert(1)</script>", "password": "long enough"}, "3 to 20"),
    ("/register", {"name": "bob", "password": "short"}, "password"),
    ("/login", {"name": "nobody", "password": "whatever"}, "wrong name or password"),
])
async def test_account_mistakes_show_the_form_again_with_the_reason(client, path, fields, message):
    response = await post_form(client, path, fields)
    assert response.status_code == 400
    assert message in response.text
    assert "<script>alert(1)</script>" not in response.text  # escaped when echoed


async def test_a_taken_name_and_a_wrong_password_are_explained(client):
    assert (await post_form(client, "/register", {"name": "carol", "password": "long enough"})).status_code == 303
    client.cookies.clear()
    taken = await post_form(client, "/register", {"name": "carol", "password": "long enough"})
    assert taken.status_code == 400 and "carol" in taken.text
    wrong = await post_form(client, "/login", {"name": "carol", "password": "not the one"})
    assert wrong.status_code == 400 and "wrong name or password" in wrong.text


@pytest.mark.parametrize("first", ["en", "de"])
async def test_new_game_opponents_are_in_the_page_language_whatever_was_shown_first(client, first):
    """The Opponents radios follow each request's language (a template must not keep the words
    of the language it was first rendered in), and "Anyone" is chosen by default."""
    assert (await post_form(client, "/guest", {})).status_code == 303
    words = {"en": ("Anyone", "Friends", "Invited players"), "de": ("Alle", "Freunde", "Eingeladene")}
    for lang in (first, "de" if first == "en" else "en"):
        page = (await client.get("/", headers={"Accept-Language": lang})).text
        for word in words[lang]:
            assert f"> {word}</label>" in page, (lang, word)
        assert 'value="any" checked' in page


@pytest.mark.parametrize(("fields", "words"), [
    ({"game": "doppio", "preset": "standard", "numbers": "catch_window_seconds",
      "opt_catch_window_seconds": "0"},
     "Regeloption „Sekunden zum Fangen“: erwartet: eine Zahl von Sekunden über 0 und höchstens 60"),
    ({"game": "doppelkopf", "preset": "gametwist", "choices": "table_mode",
      "opt_table_mode": "duel", "bots": "3"}, "Regeloption „Tischmodus“: Duellmodus"),
])
async def test_a_refused_rule_option_is_named_and_explained_in_german(client, fields, words):
    """Every word of a refused New Game option is German on a German page: the option's name
    (not its internal name ``table_mode``) and the reason."""
    assert (await post_form(client, "/guest", {})).status_code == 303
    client.headers["Accept-Language"] = "de-DE"
    sent = {"players": "4", "deals": "1", "bots": "3", "skill": "beginner", "opponents": "any",
            **fields}
    response = await post_form(client, "/tables", sent)
    assert response.status_code == 400
    said = response.text.split('id="page-error">', 1)[1].split("<", 1)[0]
    assert words in said, said
