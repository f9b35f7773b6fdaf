"""The statistics over HTTP: GET /api/players/{name}/stats, the profile page's statistics and
the leaderboards' tabs, after a match played at the site (counted in the background)."""

from __future__ import annotations

from tests.ratings.test_rating_store import play_out
from tests.test_history import me, registered


async def test_a_played_match_shows_in_the_api_the_profile_and_the_leaderboards(app, new_client):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 2, "bots": 2})).json()
    await bob.post(f"/api/tables/{table['id']}/join")
    services = app.state.services
    await play_out({"rooms": services.rooms}, table["id"], [await me(alice), await me(bob)])
    await services.stats.idle()

    data = (await alice.get("/api/players/alice/stats")).json()
    assert data["player"] == "alice" and data["own"] is True and data["scope"] == "all"
    assert data["games"] == [{"game": "doppelkopf", "matches": 1, "deals": 2}]
    figures = {f["key"]: f for f in data["stats"]["doppelkopf"]["figures"]}
    assert figures["deals"]["value"] == 2 and figures["deals"]["rests_on"] == "in 1 match"
    assert figures["points_per_deal"]["base"] == 2 and figures["points_per_deal"]["unit"] == "deals"
    (point,) = data["stats"]["doppelkopf"]["rating"]["points"]
    assert point["table"] == table["id"] and point["replay"] == f"/tables/{table['id']}/replay"
    assert point["provisional"] is True
    assert data["head_to_head"] == []  # alice and bob are not friends
    (pair,) = (await bob.get("/api/players/alice/stats")).json()["head_to_head"]
    assert pair["player"] == "alice" and pair["matches"] == 1
    assert (await new_client().get("/api/players/nobody/stats")).status_code == 404

    page = (await alice.get("/players/alice")).text
    assert 'id="stats"' in page and 'id="privacy-note"' in page and "/static/js/stats.js" in page
    assert page.count('data-t="') == 1 and f'href="/tables/{table["id"]}/replay"' in page
    assert 'data-key="won_as_re"' in page or 'data-key="won_as_kontra"' in page
    assert 'uPlot' not in page  # the chart library comes with the first chart in view
    await alice.get("/lang/de?next=/")
    german = (await alice.get("/players/alice")).text
    assert "Statistik" in german and "Verlauf der Wertung" in german and "in 1 Partie" in german

    fresh = await registered(new_client, "carla")
    empty = (await fresh.get("/players/carla")).text
    assert 'id="stats-empty"' in empty and "/static/js/stats.js" not in empty

    for board in ("week", "month", "all", "new"):
        response = await alice.get(f"/leaderboards/doppelkopf?board={board}")
        assert response.status_code == 200 and f'data-board="{board}"' in response.text, board
        assert (await alice.get(f"/api/leaderboards/doppelkopf?board={board}")).json()["board"] == board
    # a match of two people and computer players is rated and public: both are on this week's board
    week = (await alice.get("/api/leaderboards/doppelkopf?board=week")).json()
    assert sorted(e["name"] for e in week["entries"]) == ["alice", "bob"]
    assert (await alice.get("/leaderboards/doppelkopf?board=year")).status_code == 404
    assert (await alice.get("/api/leaderboards/doppelkopf?board=year")).status_code == 404
    assert 'aria-current="page">Nach Wertung' in (await alice.get("/leaderboards/doppelkopf")).text
