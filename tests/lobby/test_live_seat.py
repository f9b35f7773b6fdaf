"""One live seat per person (app/lobby/seating.py): New Game, Join and Play now refuse a second
seat alike (409, the table to return to), leaving the running match frees the person, and the
lobby names the running table instead of listing it among the open tables."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import Departure
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable
from app.rooms.connection import Connection
from tests.platform_helpers import Api
from tests.test_turn_timers import attach, last_state, mover, open_table, settle, world  # noqa: F401

BOT_TABLE = {"game": "doppelkopf", "bots": 3, "deals": 1}


async def registered(new_client, name: str) -> Api:
    api = new_client()
    created = await api.post("/api/register", {"name": name, "password": "long enough"})
    assert created.status_code == 201
    return api


async def test_new_game_join_and_play_now_refuse_a_second_live_seat_alike(new_client):
    ann, ben = await registered(new_client, "ann"), await registered(new_client, "ben")
    running = (await ann.post("/api/tables", BOT_TABLE)).json()
    assert running["status"] == "playing"
    other = (await ben.post("/api/tables", {"game": "doppelkopf"})).json()
    refusals = [await ann.post("/api/tables", BOT_TABLE),
                await ann.post(f"/api/tables/{other['id']}/join"),
                await ann.post("/api/play-now", {"game": "doppelkopf"})]
    for refused in refusals:
        assert refused.status_code == 409
        assert refused.json()["table"] == running["id"] and refused.json()["running"] is True
        assert refused.json()["detail"] == (f"You are playing at table {running['id']}. Return "
                                            "to it, or leave it to sit down elsewhere.")
    assert (await ann.get("/api/me")).json()["playing"] == running["id"]
    assert running["id"] not in [t["id"] for t in (await ann.get("/api/tables")).json()]


async def test_leave_it_hands_the_seat_over_and_frees_the_person(new_client):
    ann, ben = await registered(new_client, "ann"), await registered(new_client, "ben")
    running = (await ann.post("/api/tables", BOT_TABLE)).json()
    other = (await ben.post("/api/tables", {"game": "doppelkopf"})).json()
    left = await ann.post(f"/api/tables/{running['id']}/leave")
    assert left.json() == {"left": True, "how": "handed_over"}
    assert (await ann.get("/api/me")).json()["playing"] is None
    assert (await ann.post(f"/api/tables/{other['id']}/join")).json() == {"seat": 1}
    again = await ann.post(f"/api/tables/{running['id']}/leave")
    assert again.status_code == 404  # left already: the seat is the computer's


async def test_the_new_game_form_offers_return_and_leave(new_client):
    ann = await registered(new_client, "ann")
    running = (await ann.post("/api/tables", BOT_TABLE)).json()
    csrf = await ann.csrf()
    page = await ann.client.post("/tables", data={"csrf": csrf, "game": "doppelkopf",
                                                  "bots": "3", "deals": "1"})
    assert page.status_code == 409
    assert f'href="/tables/{running["id"]}"' in page.text and 'id="seat-taken-leave"' in page.text
    lobby = await ann.client.get("/")
    assert f"You are playing at table {running['id']} — return" in lobby.text
    leave = await ann.client.post(f"/tables/{running['id']}/leave", data={"csrf": csrf, "next": "/"})
    assert leave.status_code == 303 and leave.headers["location"] == "/"
    assert 'id="playing-banner" hidden' in (await ann.client.get("/")).text


async def test_a_computer_plays_the_seat_of_a_person_who_left(world):  # noqa: F811
    manager = world["rooms"]()
    actor, viewers = await open_table(world, manager, NewTable(
        game="highcard", players=2, deals=3), "cat", "dan")
    conns = await attach(actor, viewers)
    leaver = mover(actor)
    lobby = Lobby(world["sessions"], world["clock"], manager,
                  Friends(world["sessions"], world["clock"]))
    assert await lobby.leave(viewers[leaver], actor.table_id) == "handed_over"
    await settle(world, actor)
    assert actor.progress.current.actions[0]["seat"] == leaver  # the computer moved for them
    state = last_state(conns[1 - leaver])
    assert state["table"]["seats"][leaver]["autoplay"] is True
    assert last_state(conns[leaver])["you"] is None  # they watch now
    comeback = Connection(viewers[leaver].id)  # reconnecting does not give the seat back
    actor.attach(comeback)
    await actor.idle()
    assert last_state(comeback)["you"] is None
    async with world["sessions"]() as db:
        row = (await db.execute(select(Departure))).scalar_one()
        assert (row.seat, row.reason, row.returned_at) == (leaver, "left", None)
    assert await lobby.playing_at(viewers[leaver].id) is None
    assert await lobby.playing_at(viewers[1 - leaver].id) == actor.table_id


async def test_the_join_form_offers_return_and_leave_then_comes_back(new_client):
    ann, ben = await registered(new_client, "ann"), await registered(new_client, "ben")
    running = (await ann.post("/api/tables", BOT_TABLE)).json()
    other = (await ben.post("/api/tables", {"game": "doppelkopf"})).json()
    csrf = await ann.csrf()
    page = await ann.client.post(f"/tables/{other['id']}/join", data={"csrf": csrf, "key": ""})
    assert page.status_code == 409
    assert f'id="seat-taken-return" href="/tables/{running["id"]}"' in page.text
    assert f'name="next" value="/tables/{other["id"]}"' in page.text
    leave = await ann.client.post(f"/tables/{running['id']}/leave",
                                  data={"csrf": csrf, "next": f"/tables/{other['id']}"})
    assert leave.status_code == 303 and leave.headers["location"] == f"/tables/{other['id']}"
    assert (await ann.post(f"/api/tables/{other['id']}/join")).json() == {"seat": 1}
    outside = await ann.client.post(f"/tables/{other['id']}/leave",
                                    data={"csrf": csrf, "next": "//evil.example/"})
    assert outside.status_code == 303 and outside.headers["location"] == "/"  # this site only
