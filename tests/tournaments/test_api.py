"""The tournament JSON API and pages over HTTP: lists and one tournament, register and
unregister with CSRF, private tournaments for friends from the site, every bad request
refused with a clear error that changes nothing, the pages in German and English, the
profile's tournaments and the tournament table's link back."""

from __future__ import annotations

from datetime import timedelta

from app.lobby.service import Viewer
from app.rooms.connection import Connection
from tests.test_history import registered
from tests.tournaments.helpers import finish_tables, spec


async def _operator_tournament(app, **fields):
    services = app.state.services
    return await services.tournaments.create(spec(services.clock, **fields))


async def test_register_unregister_and_the_lists(app, new_client):
    ann = await registered(new_client, "ann")
    made = await _operator_tournament(app, name="Evening series", rounds=3, deals=8)
    tid = made["id"]
    listing = (await ann.get("/api/tournaments")).json()
    assert [t["name"] for t in listing["upcoming"]] == ["Evening series"]
    assert listing["upcoming"][0]["registered"] == 0
    forged = await ann.client.post(f"/api/tournaments/{tid}/register", json={})
    assert forged.status_code == 403  # no CSRF echo: refused
    assert (await ann.post(f"/api/tournaments/{tid}/register")).status_code == 200
    again = await ann.post(f"/api/tournaments/{tid}/register")
    assert again.status_code == 409 and "registered already" in again.json()["detail"]
    shown = (await ann.get(f"/api/tournaments/{tid}")).json()
    assert shown["registered"] == 1 and shown["mine"] is True
    assert [p["name"] for p in shown["players"]] == ["ann"]
    assert (await ann.post(f"/api/tournaments/{tid}/unregister")).json() == {"result": "unregistered"}
    assert (await ann.get(f"/api/tournaments/{tid}")).json()["registered"] == 0
    assert (await ann.get("/api/tournaments/99999")).status_code == 404


async def test_a_private_tournament_for_friends_from_the_site(app, new_client):
    ann, ben, cid = (await registered(new_client, "ann"), await registered(new_client, "ben"),
                     await registered(new_client, "cid"))
    await ann.post("/api/friends", {"name": "ben"})
    await ben.post("/api/friends/accept", {"name": "ann"})
    starts = (app.state.services.clock.now() + timedelta(minutes=10)).isoformat()
    made = await ann.post("/api/tournaments", {"name": "Friday club", "visibility": "friends",
                                               "starts_at": starts, "rounds": 2, "deals": 4})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert "secret" in made.json()
    assert (await ben.get(f"/api/tournaments/{tid}")).status_code == 200
    assert (await ben.post(f"/api/tournaments/{tid}/register")).status_code == 200
    # cid is not ann's friend: the tournament is not even admitted to exist
    assert (await cid.get(f"/api/tournaments/{tid}")).status_code == 404
    assert (await cid.post(f"/api/tournaments/{tid}/register")).status_code == 404
    assert tid not in [t["id"] for t in (await cid.get("/api/tournaments")).json()["upcoming"]]
    # … unless they hold the invitation link
    key = made.json()["secret"]
    assert (await cid.get(f"/api/tournaments/{tid}?key={key}")).status_code == 200
    # a player cannot make a public one; a guest none at all
    public = await ann.post("/api/tournaments", {"name": "x", "starts_at": starts})
    assert public.status_code == 403
    guest = new_client()
    await guest.post("/api/guest")
    refused = await guest.post("/api/tournaments", {"name": "x", "visibility": "friends",
                                                    "starts_at": starts})
    assert refused.status_code == 403 and "register" in refused.json()["detail"]
    assert (await ann.post(f"/api/tournaments/{tid}/cancel")).status_code == 200
    assert (await ben.post(f"/api/tournaments/{tid}/cancel")).status_code in (403, 409)


async def test_impossible_values_are_refused_with_the_field_named(app, new_client):
    ann = await registered(new_client, "ann")
    clock = app.state.services.clock
    later = (clock.now() + timedelta(minutes=10)).isoformat()
    cases = [
        ({"rounds": 0}, "rounds: at least 1"),
        ({"deals": 6}, "deals: a multiple of 4"),
        ({"deals": 0}, "deals: a multiple of 4"),
        ({"max_players": 10**30}, "max_players: at most 1024"),
        ({"starts_at": (clock.now() - timedelta(minutes=1)).isoformat()}, "the start is in the past"),
        ({"starts_at": "tomorrow"}, "starts_at: a date and time"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"table_size": 3}, "not played at tables of 3"),
        ({"format": "arena"}, "an arena lasts 5 to 1440 minutes"),
        ({"min_players": 9, "max_players": 8}, "minimum of players is above the maximum"),
        ({"rounds": "3"}, "rounds: not a valid value"),
        ({"scoring": "won_bonus", "game": "doppio"}, "+50 per deal won"),
        ({"options": {"nonsense": True}}, "rule option"),
        ({"invite": ["nobody-here"]}, "no player called 'nobody-here'"),
    ]
    before = (await ann.get("/api/tournaments")).json()
    for fields, words in cases:
        body = {"name": "Bad", "visibility": "friends", "starts_at": later, **fields}
        answer = await ann.post("/api/tournaments", body)
        assert answer.status_code in (400, 404), (fields, answer.text)
        assert words in answer.json()["detail"], (fields, answer.json())
    assert (await ann.get("/api/tournaments")).json() == before  # nothing was created


async def test_pages_in_both_languages_and_the_start_notice(app, new_client):
    services = app.state.services
    ann = await registered(new_client, "ann")
    ann_id = (await ann.get("/api/me")).json()["user"]["id"]
    tid = (await _operator_tournament(app, name="Abendserie", rounds=1, deals=4,
                                      min_players=1))["id"]
    await ann.post(f"/api/tournaments/{tid}/register")
    for lang, words in (("en", ("Tournaments", "Registered", "Upcoming")),
                        ("de", ("Turniere", "Angemeldet", "Demnächst"))):
        ann.client.cookies.set("dr_lang", lang)
        page = (await ann.get("/tournaments")).text
        assert all(w in page for w in words), (lang, [w for w in words if w not in page])
        one = (await ann.get(f"/tournaments/{tid}")).text
        assert "Abendserie" in one and 'id="standings"' in one
        lobby = (await ann.get("/")).text
        assert 'id="lobby-tournaments"' in lobby and "Abendserie" in lobby
    page_socket = Connection(ann_id)
    services.hub.track(page_socket)  # the person has a page open
    services.clock.advance(300)
    await services.director.tick()
    (notice,) = [m for m in page_socket.pending() if m.get("type") == "tournament_start"]
    assert notice["tournament"] == tid and notice["round"] == 1
    table_id = notice["table"]
    table_page = (await ann.get(f"/tables/{table_id}")).text
    assert f'href="/tournaments/{tid}"' in table_page  # the table's link back
    await finish_tables(services, [table_id])
    await services.director.tick()
    profile = (await ann.get("/players/ann")).text
    assert 'id="profile-tournaments"' in profile and "Abendserie" in profile
    assert "1 von 1" in profile  # German: the cookie says de


async def test_the_live_standings_reach_a_watcher_over_the_socket(app, new_client):
    services = app.state.services
    ann = await registered(new_client, "ann")
    ann_id = (await ann.get("/api/me")).json()["user"]["id"]
    tid = (await _operator_tournament(app, rounds=1, deals=4, min_players=1))["id"]
    watcher = Connection(None)
    await services.tournament_hub.watch(watcher, tid)
    (first,) = [m for m in watcher.pending() if m["type"] == "tournament"]
    assert first["tournament"]["registered"] == 0
    await services.tournaments.register(Viewer(ann_id, "ann"), tid)
    await services.tournament_hub._task  # noqa: SLF001 - the feed's round is done
    (update,) = [m for m in watcher.pending() if m["type"] == "tournament"]
    assert update["tournament"]["registered"] == 1
    assert [p["name"] for p in update["tournament"]["players"]] == ["ann"]


async def test_the_sites_form_creates_a_private_tournament_and_names_a_wrong_field(app, new_client):
    ann = await registered(new_client, "ann")
    csrf = await ann.csrf()
    form = {"csrf": csrf, "name": "Club night", "game": "doppelkopf", "format": "series",
            "rounds": "2", "deals": "8", "starts_in": "30", "max_players": "12",
            "bot_level": "beginner", "visibility": "invited", "invite": ""}
    made = await ann.client.post("/tournaments", data=form)
    assert made.status_code == 303 and "?key=" in made.headers["location"]
    page = (await ann.client.get(made.headers["location"])).text
    assert "Club night" in page and 'id="invite-url"' in page
    bad = await ann.client.post("/tournaments", data={**form, "deals": "6"})
    assert bad.status_code == 400
    assert "deals: a multiple of 4" in bad.text and 'aria-invalid="true"' in bad.text
