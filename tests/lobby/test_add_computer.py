"""The owner of a waiting table puts computer players on its free seats (an invited person
declined, nobody came): through the lobby's seating (the seat's unique constraints, the
conditional UPDATE of tables.seated), the last one starts the match; nobody else may."""

from __future__ import annotations

import asyncio

from tests.test_history import registered


async def test_the_owner_fills_a_waiting_table_with_computer_players(app, new_client):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    made = (await alice.post("/api/tables", {"game": "doppelkopf", "bots": 1, "opponents": "invited",
                                             "invite": ["bob"]})).json()
    table = made["id"]
    assert "Invited, no answer yet: bob" in (await alice.get(f"/tables/{table}")).text
    assert (await bob.post(f"/api/tables/{table}/decline")).status_code == 200
    assert "Invited, no answer yet" not in (await alice.get(f"/tables/{table}")).text
    # bob may not fill alice's table
    refused = await bob.post(f"/api/tables/{table}/computer")
    assert refused.status_code == 403
    page = (await alice.get(f"/tables/{table}")).text
    assert 'id="add-computer"' in page and "2 seats free" in page
    seat = (await alice.post(f"/api/tables/{table}/computer")).json()["seat"]
    state = (await alice.get(f"/api/tables/{table}")).json()
    assert state["status"] == "open" and state["free"] == 1
    assert {s["seat"]: s["bot"] for s in state["seats"]}[seat] == made["skill"]
    assert (await alice.post(f"/api/tables/{table}/computer")).status_code == 200
    state = (await alice.get(f"/api/tables/{table}")).json()
    assert state["status"] == "playing" and state["free"] == 0
    again = await alice.post(f"/api/tables/{table}/computer")
    assert again.status_code == 409


async def test_two_fills_at_once_never_overfill_the_table(app, new_client):
    alice = await registered(new_client, "alice")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "bots": 2,
                                              "opponents": "invited"})).json()["id"]
    answers = await asyncio.gather(*(alice.post(f"/api/tables/{table}/computer") for _ in range(3)))
    assert sorted(a.status_code for a in answers) == [200, 409, 409]
    state = (await alice.get(f"/api/tables/{table}")).json()
    assert state["status"] == "playing" and state["free"] == 0
