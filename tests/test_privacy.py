"""Privacy of private matches (issue 18): the table JSON, table page, score sheet, replay and
scenario download of a Friend or Invited match are for its players only — while it runs and
after it ended; a stranger, a logged-out visitor and a player of another table get 404 (the
WebSocket answers ``forbidden``). An Anyone match stays public after it ends. Histories and
profiles seen by someone else list only the matches that viewer may open."""

from __future__ import annotations

import pytest

from tests.ratings.test_rating_store import play_out
from tests.test_history import me, registered

PATHS = ("/api/tables/{id}", "/api/tables/{id}/replay", "/api/tables/{id}/scenario",
         "/tables/{id}", "/tables/{id}/replay", "/tables/{id}/scores")


async def finished_match(app, new_client, opponents: str, owner: str, guest: str):
    """A finished one-deal Doppelkopf match of ``owner`` and ``guest`` (invited) with two
    computer players; returns (table id, owner's Api, guest's Api)."""
    a, b = await registered(new_client, owner), await registered(new_client, guest)
    table = (await a.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 2,
                                          "opponents": opponents, "invite": [guest]})).json()
    assert (await b.post(f"/api/tables/{table['id']}/join")).status_code == 200
    await play_out({"rooms": app.state.services.rooms}, table["id"], [await me(a), await me(b)])
    return table["id"], a, b


@pytest.mark.parametrize("opponents", ["invited", "friend"])
async def test_a_finished_private_match_is_for_its_players_only(app, new_client, opponents):
    if opponents == "friend":
        a, b = await registered(new_client, "ann"), await registered(new_client, "ben")
        await a.post("/api/friends", {"name": "ben"})
        assert (await b.post("/api/friends/accept", {"name": "ann"})).status_code == 200
        table = (await a.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 2,
                                              "opponents": "friend"})).json()
        assert (await b.post(f"/api/tables/{table['id']}/join")).status_code == 200
        await play_out({"rooms": app.state.services.rooms}, table["id"],
                       [await me(a), await me(b)])
        private = table["id"]
    else:
        private, a, b = await finished_match(app, new_client, "invited", "ann", "ben")
    stranger, visitor = await registered(new_client, "sam"), new_client()
    other_player = await registered(new_client, "oli")
    assert (await other_player.post("/api/tables", {"game": "doppelkopf", "bots": 3})).status_code == 201
    for path in PATHS:
        url = path.format(id=private)
        for player in (a, b):
            assert (await player.get(url)).status_code == 200, (url, "player")
        for outsider in (stranger, visitor, other_player):
            refused = await outsider.get(url)
            assert refused.status_code == 404, (url, refused.status_code)
            assert "ann" not in refused.text and "ben" not in refused.text
    # histories and profiles: the players see it, others do not
    assert [m["table"] for m in (await b.get("/api/players/ann/matches")).json()["matches"]] == [private]
    for outsider in (stranger, visitor):
        listed = (await outsider.get("/api/players/ann/matches")).json()
        assert listed["matches"] == [] and listed["total"] == 0
        assert (await outsider.get("/api/players/ann")).json()["recent"] == []
        assert f"/tables/{private}/replay" not in (await outsider.get("/players/ann/matches")).text


async def test_a_running_private_match_is_hidden_from_outsiders_even_invited_ones(app, new_client):
    ann, ben, cid = [await registered(new_client, n) for n in ("ann", "ben", "cid")]
    table = (await ann.post("/api/tables", {"game": "doppelkopf", "bots": 2,
                                            "opponents": "invited", "invite": ["ben", "cid"]})).json()
    # open: the invited may look (to join)
    assert (await cid.get(f"/api/tables/{table['id']}")).status_code == 200
    assert (await ben.post(f"/api/tables/{table['id']}/join")).status_code == 200
    # running: cid was invited but does not play: no more look
    for path in ("/api/tables/{id}", "/tables/{id}", "/tables/{id}/scores"):
        assert (await cid.get(path.format(id=table["id"]))).status_code == 404
        assert (await ben.get(path.format(id=table["id"]))).status_code == 200


async def test_a_finished_anyone_match_is_public(app, new_client):
    public, a, _b = await finished_match(app, new_client, "any", "ann", "ben")
    stranger, visitor = await registered(new_client, "sam"), new_client()
    for path in PATHS:
        for outsider in (stranger, visitor):
            assert (await outsider.get(path.format(id=public))).status_code == 200, path
    listed = (await visitor.get("/api/players/ann/matches")).json()
    assert [m["table"] for m in listed["matches"]] == [public]
