"""New Game's form offers what the lobby accepts: the Deals field's min, step and max and each
number option's range come from the same rules the server checks them with (a DDV match of 2
deals was offered, then refused: "a multiple of 4, so that everyone deals equally often")."""

from __future__ import annotations

import json
import re

import pytest
from pydantic import ValidationError

from app.games.base import RulesError
from app.games.registry import get_game
from app.lobby.service import Lobby, LobbyError, NewTable, games_json
from app.rooms.match import MAX_DEALS


def _server_accepts(lobby: Lobby, name: str, preset: str, players: int, deals: int) -> bool:
    """What New Game's POST does with ``deals``: the model's check, then the lobby's."""
    try:
        NewTable(game=name, preset=preset, players=players, deals=deals)
        game = get_game(name)
        lobby._match_deals(game, game.make_rules({"preset": preset}), players, deals)
    except (ValidationError, LobbyError):
        return False
    return True


def _offered(field: dict, deals: int) -> bool:
    return field["min"] <= deals <= field["max"] and (deals - field["min"]) % field["step"] == 0


@pytest.mark.parametrize("any_deal_count", [False, True])
def test_the_deals_field_offers_exactly_the_deals_the_lobby_accepts(any_deal_count):
    lobby = Lobby(None, None, None, None, any_deal_count=any_deal_count)  # only its rules
    checked = 0
    for game in lobby.games():
        for preset in game["presets"]:
            for players in game["players"]:
                if game["end"]["kind"] != "deals":  # no Deals field: the game's end is its own
                    assert game["deals"] is None
                    continue
                field = game["deals"][str(players)]
                for deals in range(-1, MAX_DEALS + 6):
                    assert _offered(field, deals) == _server_accepts(
                        lobby, game["name"], preset, players, deals), (game["name"], preset, players, deals)
                checked += 1
    assert checked >= 3  # Doppelkopf's DDV, GameTwist and GameTwist pub presets


def test_ddv_offers_multiples_of_four_up_to_48():
    doppelkopf = next(g for g in games_json() if g["name"] == "doppelkopf")
    assert doppelkopf["deals"] == {"4": {"min": 4, "max": 48, "step": 4}}


def test_every_number_option_offers_exactly_the_range_its_rules_accept():
    checked = 0
    for game in games_json():
        rules_of = get_game(game["name"]).make_rules
        for preset, numbers in game["numbers"].items():
            assert set(game["ranges"][preset]) == set(numbers), (game["name"], preset)
            for option, field in game["ranges"][preset].items():
                step = 0.5 if field["step"] == "any" else field["step"]
                for value, offered in ((field["min"], True), (field["max"], True),
                                       (field["min"] - step, False), (field["max"] + step, False)):
                    try:
                        rules_of({"preset": preset, option: value})
                        accepted = True
                    except (RulesError, ValueError):
                        accepted = False
                    assert accepted == offered, (game["name"], option, value)
                if field["step"] == 1:  # a whole number: a fraction is refused
                    with pytest.raises((RulesError, ValueError)):
                        rules_of({"preset": preset, option: field["min"] + 0.5})
                checked += 1
    assert checked >= 5  # Kids' target coins, Doppio's four


async def test_the_lobby_page_gives_the_deals_field_the_lobbys_limits(tmp_path):
    import httpx

    from tests.platform_helpers import Api, make_app, settings_for

    site = make_app(settings_for(tmp_path, any_deal_count=False))
    async with site.router.lifespan_context(site):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=site),
                                     base_url="http://test") as client:
            assert (await Api(client).post("/api/guest")).status_code == 201
            page = (await client.get("/")).text
    field = re.search(r'<input name="deals"[^>]*>', page).group(0)
    assert 'min="4"' in field and 'step="4"' in field and 'max="48"' in field, field
    games = json.loads(re.search(r'<script type="application/json" id="games-data">(.*?)</script>',
                                 page, re.S).group(1))
    assert next(g for g in games if g["name"] == "doppelkopf")["deals"]["4"] == {
        "min": 4, "max": 48, "step": 4}
