"""The analysis API: POST starts the analysis of the asking player's own seat, GET shows it."""

from __future__ import annotations

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
