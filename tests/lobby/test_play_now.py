"""Play now wired to the database: nine queued people with stored ratings and a fake clock form
tables by rating, computer players fill at the deadline; one queue or table at a time."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.db.engine import make_sessionmaker
from app.db.models import GameTable, PlayerRating, Seat
from app.lobby.playnow import PlayNow
from app.lobby.service import SeatTaken, Viewer
from app.rooms.connection import Connection
from tests.platform_helpers import Api


async def registered(new_client, name: str) -> tuple[Api, int]:
    api = new_client()
    response = await api.post("/api/register", {"name": name, "password": "long enough"})
    assert response.status_code == 201
    return api, response.json()["user"]["id"]


async def test_nine_people_form_tables_by_rating_and_bots_fill_at_the_deadline(app, new_client):
    services = app.state.services
    sessions = make_sessionmaker(services.engine)
    now = [100.0]
    play_now = PlayNow(sessions, services.clock, services.rooms, services.lobby, services.hub,
                       fill_after=30, deals=1, tick_interval=None, stale_after=None,
                       now_fn=lambda: now[0])
    mus = {"a1": 24.0, "a2": 25.0, "a3": 25.5, "a4": 26.0,   # close: a full table at once
           "b1": 15.0, "b2": 15.5, "b3": 16.0,               # low: three and a beginner bot
           "c1": 35.0, "c2": 36.0}                           # high: two and two expert bots
    order = ["b1", "a1", "c1", "b2", "a2", "c2", "a3", "b3", "a4"]  # interleaved joins
    ids = {}
    for name in order:
        ids[name] = (await registered(new_client, f"user{name}"))[1]
    async with sessions() as db:
        for name, mu in mus.items():
            db.add(PlayerRating(user_id=ids[name], game="doppelkopf", mu=mu, sigma=4.0,
                                provisional=False, matches=50, last_active=services.clock.now()))
        await db.commit()
    watcher = Connection(ids["b1"])
    await services.hub.subscribe(watcher, Viewer(ids["b1"], "userb1"))
    for name in order:
        await play_now.join(ids[name], "doppelkopf")

    first = await play_now.tick()
    assert len(first) == 1
    # the lobby's "computer players fill the free seats in N s": what the seconds count to
    waiter = play_now.matchmaker.waiting()[0].player
    assert (await play_now.status(waiter))["fill_in"] == 30
    now[0] += 29.9
    assert (await play_now.status(waiter))["fill_in"] == 1
    assert await play_now.tick() == []  # nobody has waited 30 s yet
    now[0] += 0.1
    later = await play_now.tick()
    assert len(later) == 2
    assert play_now.matchmaker.waiting() == []

    async with sessions() as db:
        seats = (await db.execute(select(Seat).order_by(Seat.table_id, Seat.seat))).scalars().all()
        tables = {t.id: t for t in (await db.execute(select(GameTable))).scalars()}
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    name_of = {v: k for k, v in ids.items()}

    def people(table_id):
        return [name_of[s.user_id] for s in by_table[table_id] if s.user_id is not None]

    def bots(table_id):
        return [s.bot_level for s in by_table[table_id] if s.user_id is None]

    assert people(first[0]) == ["a1", "a2", "a3", "a4"] and bots(first[0]) == []
    low, high = sorted(later, key=lambda t: people(t)[0])
    assert people(low) == ["b1", "b2", "b3"] and bots(low) == ["beginner"]
    assert people(high) == ["c1", "c2"] and bots(high) == ["expert", "expert"]
    assert all(tables[t].status == "playing" and tables[t].players == 4 and tables[t].deals == 1
               for t in (*first, *later))
    assert all(tables[t].turn_seconds == 30 for t in (*first, *later))  # the public move clock
    assert await play_now.status(ids["c2"]) == {"queued": False, "table": high}
    assert [m["table"] for m in watcher.pending() if m["type"] == "play_now"] == [low]

    # seated now: queueing again is refused until the table is over
    with pytest.raises(SeatTaken, match="playing at table") as refused:
        await play_now.join(ids["a1"], "doppelkopf")
    assert refused.value.table == first[0] and refused.value.running


async def test_a_person_queued_twice_or_seated_is_refused(app, new_client):
    (ann, _), (ben, _) = await registered(new_client, "ann"), await registered(new_client, "ben")
    ok = await ann.post("/api/play-now", {"game": "doppelkopf"})
    assert ok.status_code == 200 and ok.json()["seats"] == 4
    twice = await ann.post("/api/play-now", {"game": "doppio"})
    assert twice.status_code == 409 and "already waiting" in twice.json()["detail"]
    assert (await ann.get("/api/play-now")).json()["queued"] is True
    # waiting in the queue: no lobby table either
    assert (await ann.post("/api/tables", {"game": "doppelkopf"})).status_code == 409
    table = (await ben.post("/api/tables", {"game": "doppelkopf"})).json()
    assert (await ann.post(f"/api/tables/{table['id']}/join")).status_code == 409
    # ben sits at his open table: no queue for him
    seated = await ben.post("/api/play-now", {"game": "doppelkopf"})
    assert seated.status_code == 409 and "has not started" in seated.json()["detail"]
    assert seated.json()["table"] == table["id"] and seated.json()["running"] is False
    assert (await ann.post("/api/play-now/leave")).json() == {"left": True}
    assert (await ann.post(f"/api/tables/{table['id']}/join")).json() == {"seat": 1}
    assert (await ann.post("/api/play-now", {"game": "chess"})).status_code == 400


async def test_a_queued_page_that_stops_asking_is_dropped(app, new_client):
    services = app.state.services
    now = [0.0]
    play_now = PlayNow(make_sessionmaker(services.engine), services.clock, services.rooms,
                       services.lobby, services.hub, fill_after=60, tick_interval=None,
                       stale_after=15, now_fn=lambda: now[0])
    _, gone = await registered(new_client, "gone")
    _, here = await registered(new_client, "here")
    await play_now.join(gone, "doppelkopf")
    await play_now.join(here, "doppio", seats=2)
    for _ in range(4):
        now[0] += 10
        await play_now.status(here)  # this page polls; the other was closed
        assert await play_now.tick() == []
    assert [t.player for t in play_now.matchmaker.waiting()] == [here]
    now[0] += 20
    await play_now.status(here)
    (table,) = await play_now.tick()  # the deadline: here plays with a computer player
    assert (await play_now.status(here))["table"] == table
    assert await play_now.status(gone) == {"queued": False, "table": None}
