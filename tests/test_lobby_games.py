"""Every game in every lobby mode (Any / Friend / Invited) and every seat count, through the New
Game form (its presets, seat counts and number options) and the join rules of each mode."""

from __future__ import annotations

import re

import pytest

from app.games.registry import available_games, get_game
from tests.platform_helpers import Api


async def registered(new_client, name: str) -> Api:
    api = new_client()
    response = await api.post("/api/register", {"name": name, "password": "long enough"})
    assert response.status_code == 201, response.text
    return api


async def form_table(api: Api, **fields) -> int:
    """Post the New Game form; return the new table's id (the form redirects to it)."""
    data = {"csrf": await api.csrf(), "deals": "1", "bots": "0", **fields}
    response = await api.client.post("/tables", data=data)
    assert response.status_code == 303, response.text[:500]
    found = re.fullmatch(r"/tables/(\d+)", response.headers["location"])
    assert found, response.headers["location"]
    return int(found.group(1))


async def test_the_new_game_form_offers_every_game_its_presets_and_seat_counts(new_client):
    alice = await registered(new_client, "alice")
    page = (await alice.get("/")).text
    for name in available_games():
        game = get_game(name)
        option = re.search(rf'<option value="{name}" data-presets="([^"]*)" data-players="([^"]*)"', page)
        assert option, name
        assert option.group(1).split(",") == list(game.presets)
        assert [int(n) for n in option.group(2).split(",")] == list(game.player_counts)
    games = {g["name"]: g for g in (await alice.get("/api/games")).json()}
    assert games["doppio"]["numbers"]["standard"]["catch_window_seconds"] == 3
    assert games["doublehead_kids"]["numbers"]["advanced"]["target_coins"] == 10


async def test_number_options_from_the_form_reach_the_rules(app, new_client):
    alice = await registered(new_client, "alice")
    table_id = await form_table(alice, game="doppio", preset="standard", players="2", bots="1",
                                numbers="catch_window_seconds", opt_catch_window_seconds="7.5")
    actor = app.state.services.rooms.actor(table_id)
    await actor.idle()
    assert actor.progress.rules.catch_window_seconds == 7.5
    bad = await alice.client.post("/tables", data={
        "csrf": await alice.csrf(), "game": "doppio", "players": "2", "bots": "1",
        "numbers": "catch_window_seconds", "opt_catch_window_seconds": "soon"})
    assert bad.status_code == 400
    assert "rule option &#39;Seconds to catch a discard&#39;: enter a number" in bad.text
    too_long = await alice.client.post("/tables", data={
        "csrf": await alice.csrf(), "game": "doppio", "players": "2", "bots": "1",
        "numbers": "catch_window_seconds", "opt_catch_window_seconds": "600"})
    assert too_long.status_code == 400


CASES = [(name, preset, players) for name in sorted(available_games())
         for preset in get_game(name).presets for players in get_game(name).player_counts]


@pytest.mark.parametrize("mode", ["any", "friend", "invited"])
async def test_every_game_and_seat_count_in_every_lobby_mode(new_client, mode):
    owner = await registered(new_client, "owner")
    others = [await registered(new_client, f"guest{i}") for i in range(3)]
    stranger = await registered(new_client, "stranger")
    if mode == "friend":
        for i, other in enumerate(others):
            await owner.post("/api/friends", {"name": f"guest{i}"})
            assert (await other.post("/api/friends/accept", {"name": "owner"})).status_code == 200
    for name, preset, players in CASES:
        fields = {"game": name, "preset": preset, "players": str(players), "opponents": mode}
        if mode == "invited":
            fields["invite"] = " ".join(f"guest{i}" for i in range(players - 1))
        table_id = await form_table(owner, **fields)
        info = (await owner.get(f"/api/tables/{table_id}")).json()
        assert (info["game"], info["players"], info["status"]) == (name, players, "open")
        listed = [t["id"] for t in (await stranger.get("/api/tables")).json()]
        assert (table_id in listed) == (mode == "any"), (name, mode)
        join = await stranger.post(f"/api/tables/{table_id}/join")
        joiners = others[:players - 1]
        if mode == "any":  # anyone may sit down: the stranger takes seat 1
            assert join.json() == {"seat": 1}
            joiners = [stranger, *others[:players - 2]]
        else:
            assert join.status_code == 403, (name, mode)
        for seat, other in enumerate(joiners, start=1):
            if seat > 1 or mode != "any":
                assert table_id in [t["id"] for t in (await other.get("/api/tables")).json()]
                assert (await other.post(f"/api/tables/{table_id}/join")).json() == {"seat": seat}
        started = (await owner.get(f"/api/tables/{table_id}")).json()
        assert started["status"] == "playing", (name, preset, players, mode)
        assert started["free"] == 0
        for person in (owner, *joiners):  # one live seat each: leave it for the next case
            assert (await person.post(f"/api/tables/{table_id}/leave")).status_code == 200
