"""The analysis API: POST starts the analysis of the asking player's own seat, GET shows it."""

from __future__ import annotations

import json

from tests.analysis.test_analyse import THROWN_AWAY
from tests.analysis.test_puzzles import stored_match
from tests.ratings.test_rating_store import play_out
from tests.test_history import me, registered


async def test_a_player_asks_for_and_reads_their_analysis(app, new_client):
    services = app.state.services
    services.analyses.budget_ms, services.analyses.worlds = 60_000, 2
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 2})).json()
    await bob.post(f"/api/tables/{table['id']}/join")
    path = f"/api/tables/{table['id']}/analysis"
    assert (await alice.post(path)).status_code == 409  # not over yet
    await play_out({"rooms": services.rooms}, table["id"], [await me(alice), await me(bob)])

    assert (await new_client().get(path)).status_code == 401
    stranger = await registered(new_client, "carol")
    refused = await stranger.post(path)
    assert refused.status_code == 403 and "own play" in refused.json()["detail"]
    no_csrf = await bob.client.post(path)
    assert no_csrf.status_code == 403

    assert (await bob.get(path)).json() == {"status": "none"}
    started = await bob.post(path)
    assert started.status_code == 202 and started.json()["seat"] == 1
    await services.analyses.idle()
    done = (await bob.get(path)).json()
    assert done["status"] == "done" and done["done"] == done["total"]
    assert done["result"]["seat"] == 1 and done["result"]["match"]["decisions"] == done["total"]
    assert (await alice.get(path)).json() == {"status": "none"}


async def test_play_from_here_over_http(app, new_client):
    """POST /api/tables/{id}/practice opens a table at a moment; a match one may not see, a
    moment it does not have and a missing CSRF token are refused and create nothing."""
    services = app.state.services
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    private = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 3,
                                                 "opponents": "invited"})).json()
    await play_out({"rooms": services.rooms}, private["id"], [await me(alice)])
    path = f"/api/tables/{private['id']}/practice"
    moment = {"round": 0, "index": 10, "seat": 0, "level": "beginner"}
    refused = {
        "not seen": await bob.post(path, moment),
        "no round": await alice.post(path, {**moment, "round": 3}),
        "no index": await alice.post(path, {**moment, "index": 999}),
        "bad level": await alice.post(path, {**moment, "level": "master"}),
        "extra": await alice.post(path, {**moment, "hand": ["QC"]}),
        "no table": await alice.post("/api/tables/999999/practice", moment),
        "no csrf": await alice.client.post(path, json=moment),
    }
    assert {why: r.status_code for why, r in refused.items()} == {
        "not seen": 404, "no round": 404, "no index": 404, "bad level": 422, "extra": 422,
        "no table": 404, "no csrf": 403}
    assert "no such moment" in refused["no index"].json()["detail"]
    assert (await bob.get(f"/api/tables/{private['id']}/practice")).status_code == 404
    opened = await alice.post(path, moment)
    assert opened.status_code == 201
    new_id = opened.json()["table"]
    info = (await alice.get(f"/api/tables/{new_id}/practice")).json()
    assert (info["source"], info["round"], info["index"], info["seat"]) == (private["id"], 0, 10, 0)
    assert (await bob.get(f"/api/tables/{new_id}/practice")).status_code == 404  # private
    assert (await alice.get(f"/api/tables/{private['id']}/practice")).status_code == 404  # not one
    page = await alice.client.get(f"/tables/{new_id}")
    assert 'id="practice-bar"' in page.text and f"/tables/{private['id']}/replay?round=0&amp;frame=10" in page.text


async def test_a_puzzle_over_http_is_its_players_alone(app, new_client):
    services = app.state.services
    services.analyses.budget_ms, services.analyses.worlds = 60_000, 32
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    world = {"sessions": services.analyses._db, "clock": services.clock}
    table_id = await stored_match(world, json.loads(THROWN_AWAY.read_text()), await me(alice))
    await alice.post(f"/api/tables/{table_id}/analysis")
    await services.analyses.idle()
    mine = (await alice.get("/api/puzzles")).json()
    assert mine["puzzles"], "the blunder of thrown_away.json makes a puzzle"
    puzzle_id = mine["puzzles"][0]["id"]
    assert (await bob.get(f"/api/puzzles/{puzzle_id}")).status_code == 403
    shown = (await alice.get(f"/api/puzzles/{puzzle_id}")).json()
    legal = shown["view"]["legal"]
    answer = {"action": {k: v for k, v in legal[0].items() if k != "seat"}}
    assert (await bob.post(f"/api/puzzles/{puzzle_id}/answer", answer)).status_code == 403
    assert (await alice.post(f"/api/puzzles/{puzzle_id}/answer", {"action": {"type": "play", "card": "ZZ"}})).status_code == 400
    assert (await alice.post(f"/api/puzzles/{puzzle_id}/answer", {"action": {"type": "x" * 40}})).status_code == 422
    assert (await alice.get("/api/puzzles")).json()["puzzles"][0]["answered"] is None  # nothing kept
    solved = await alice.post(f"/api/puzzles/{puzzle_id}/answer", answer)
    assert solved.status_code == 200 and solved.json()["source"]["table"] == table_id
    assert (await alice.get("/api/puzzles")).json()["puzzles"][0]["answered"] is not None
    assert (await alice.client.get(f"/puzzles/{puzzle_id}")).status_code == 200
    assert (await bob.client.get(f"/puzzles/{puzzle_id}")).status_code == 403
