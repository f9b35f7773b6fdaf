"""Shared lobby state: open tables, presence, matchmaking tickets under a lock."""

from __future__ import annotations

import asyncio

import pytest

from app.cluster.registry import LockLost, LockNotAcquired
from app.lobby.matchmaking import AlreadyQueued, QueueKey, QueueSettings, plan_queue
from app.ratings.model import Rating
from tests.cluster.conftest import TTL, Harness

DOKO = QueueKey("doppelkopf", "ddv", 4)
DOPPIO = QueueKey("doppio", "standard", 2)


# Open tables --------------------------------------------------------------------------------


async def test_open_tables_are_shared_and_ordered(harness: Harness):
    await harness.a.registry.list_table("t2", {"game": "doppio", "seats": 2, "taken": 1}, 20.0)
    await harness.b.registry.list_table("t1", {"game": "doppelkopf", "seats": 4, "taken": 3,
                                               "host": "ann", "private": False}, 10.0)
    await harness.a.registry.list_table("t3", {"game": "doppelkopf", "seats": 4, "taken": 0},
                                        30.0)
    listed = await harness.b.registry.open_tables()
    assert [t.table_id for t in listed] == ["t1", "t2", "t3"]
    assert listed[0].info == {"game": "doppelkopf", "seats": 4, "taken": 3, "host": "ann",
                              "private": False}
    assert listed[0].score == 10.0
    newest = await harness.a.registry.open_tables(newest_first=True, limit=2)
    assert [t.table_id for t in newest] == ["t3", "t2"]
    page = await harness.a.registry.open_tables(offset=1, limit=1)
    assert [t.table_id for t in page] == ["t2"]
    assert await harness.a.registry.count_open_tables() == 3


async def test_updating_and_unlisting_a_table(harness: Harness):
    await harness.a.registry.list_table("t1", {"game": "doppio", "seats": 3, "taken": 1}, 1.0)
    assert await harness.b.registry.update_table("t1", {"taken": 2, "players": ["ann", "bob"]})
    card = await harness.a.registry.open_table("t1")
    assert card is not None
    assert card.info == {"game": "doppio", "seats": 3, "taken": 2, "players": ["ann", "bob"]}
    assert not await harness.b.registry.update_table("gone", {"taken": 1})
    assert await harness.a.registry.open_table("gone") is None
    assert await harness.b.registry.unlist_table("t1")
    assert not await harness.b.registry.unlist_table("t1")
    assert await harness.a.registry.open_table("t1") is None
    assert await harness.a.registry.open_tables() == []
    assert await harness.a.registry.count_open_tables() == 0


async def test_relisting_replaces_the_card(harness: Harness):
    await harness.a.registry.list_table("t1", {"game": "doppio", "note": "old"}, 1.0)
    await harness.b.registry.list_table("t1", {"game": "doppio"}, 5.0)  # after a failover
    card = await harness.a.registry.open_table("t1")
    assert card is not None and card.info == {"game": "doppio"} and card.score == 5.0


# Presence -----------------------------------------------------------------------------------


async def test_presence_expires_without_heartbeats(harness: Harness):
    await harness.a.registry.heartbeat("ann", TTL)
    await harness.b.registry.heartbeat("bob", 30 * TTL)
    assert await harness.b.registry.is_online("ann")
    assert await harness.a.registry.online_users() == {"ann", "bob"}
    await harness.advance(TTL * 0.8)
    await harness.a.registry.heartbeat("ann", TTL)  # renewed in time
    await harness.advance(TTL * 0.5)  # 1.3 TTL after the first heartbeat
    assert await harness.b.registry.is_online("ann")
    await harness.advance(TTL)  # no heartbeat for longer than the TTL
    assert not await harness.b.registry.is_online("ann")
    assert await harness.a.registry.online_users() == {"bob"}
    assert not await harness.a.registry.is_online("nobody")


async def test_a_short_heartbeat_does_not_cut_a_longer_one(harness: Harness):
    await harness.a.registry.heartbeat("ann", 30 * TTL)  # a tab on process a
    await harness.b.registry.heartbeat("ann", TTL)  # a tab on process b
    await harness.advance(TTL * 1.5)
    assert await harness.b.registry.is_online("ann")
    await harness.b.registry.set_offline("ann")
    assert not await harness.a.registry.is_online("ann")
    assert await harness.a.registry.online_users() == set()


async def test_one_call_heartbeats_a_whole_process_and_never_cuts_a_longer_one(harness: Harness):
    users = [f"u{i}" for i in range(2500)]  # more than one script call's batch
    await harness.a.registry.heartbeat("u7", 30 * TTL)  # a tab elsewhere, for longer
    await harness.b.registry.heartbeat_many(users, TTL)
    assert await harness.a.registry.online_users() == set(users)
    await harness.advance(TTL * 1.5)
    assert await harness.a.registry.online_users() == {"u7"}
    await harness.b.registry.heartbeat_many([], TTL)  # nothing to do, nothing breaks


# Matchmaking tickets ------------------------------------------------------------------------


async def test_one_ticket_per_player_across_processes(harness: Harness):
    ticket = await harness.a.registry.add_ticket(1, DOKO, Rating(25.0, 8.0), 100.0)
    with pytest.raises(AlreadyQueued):
        await harness.b.registry.add_ticket(1, DOPPIO, Rating(), 101.0)
    # 1 and "1" are different players.
    await harness.b.registry.add_ticket("1", DOPPIO, Rating(), 101.0)
    assert await harness.b.registry.ticket(1) == ticket
    assert await harness.a.registry.remove_ticket(1) == ticket
    assert await harness.a.registry.remove_ticket(1) is None
    again = await harness.b.registry.add_ticket(1, DOPPIO, Rating(), 102.0)
    assert again.number > ticket.number


async def test_concurrent_joins_of_one_player_queue_once(harness: Harness):
    attempts = [
        (harness.a if n % 2 else harness.b).registry.add_ticket("ann", DOKO, Rating(), 1.0)
        for n in range(30)
    ]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, AlreadyQueued) for r in results if isinstance(r, Exception))
    assert len(await harness.a.registry.tickets()) == 1


async def test_tickets_come_back_in_join_order_and_by_queue(harness: Harness):
    await harness.a.registry.add_ticket("cid", DOKO, Rating(30.0, 2.0), 50.0)
    await harness.b.registry.add_ticket("ann", DOKO, Rating(20.0, 3.0), 10.0)
    await harness.a.registry.add_ticket("dan", DOPPIO, Rating(), 5.0)
    await harness.b.registry.add_ticket("bob", DOKO, Rating(22.5, 4.0), 10.0)  # same instant
    everyone = await harness.a.registry.tickets()
    assert [t.player for t in everyone] == ["dan", "ann", "bob", "cid"]
    doko = await harness.b.registry.tickets(DOKO)
    assert [t.player for t in doko] == ["ann", "bob", "cid"]
    assert doko[0].rating == Rating(20.0, 3.0) and doko[0].key == DOKO
    assert await harness.a.registry.remove_tickets(["ann", "nobody", "cid"]) == [doko[0],
                                                                                 doko[2]]
    assert [t.player for t in await harness.a.registry.tickets()] == ["dan", "bob"]


async def _tick(harness_side, now: float, settings: QueueSettings) -> list[list[str]]:
    """What a process does once a second: plan the queues under the lock, take the tickets
    of each formed table out of the store."""
    registry = harness_side.registry
    formed: list[list[str]] = []
    async with registry.lock("matchmaking", 5.0):
        tickets = await registry.tickets()
        await asyncio.sleep(0.01)  # give the other process every chance to interleave
        queues: dict[QueueKey, list] = {}
        for ticket in tickets:
            queues.setdefault(ticket.key, []).append(ticket)
        for key, waiting in queues.items():
            for people, _bots in plan_queue(waiting, key.seats, now, settings):
                taken = await registry.remove_tickets([t.player for t in people])
                assert len(taken) == len(people), "a ticket vanished under the lock"
                formed.append([t.player for t in people])
    return formed


async def test_matchmaking_under_the_lock_seats_everyone_once(harness: Harness):
    for n in range(10):
        side = harness.a if n % 2 else harness.b
        await side.registry.add_ticket(f"p{n}", DOKO, Rating(25.0 + n * 0.1), 100.0 + n)
    settings = QueueSettings()
    # Both processes tick at the same moment.
    results = await asyncio.gather(_tick(harness.a, 110.0, settings),
                                   _tick(harness.b, 110.0, settings))
    tables = [table for formed in results for table in formed]
    assert len(tables) == 2
    seated = [player for table in tables for player in table]
    assert sorted(seated) == sorted(f"p{n}" for n in range(8))
    assert [t.player for t in await harness.a.registry.tickets()] == ["p8", "p9"]


# Lock ---------------------------------------------------------------------------------------


async def test_lock_mutual_exclusion_across_processes(harness: Harness):
    inside = 0
    most = 0
    entered = 0

    async def worker(side) -> None:
        nonlocal inside, most, entered
        async with side.registry.lock("tick", 5.0):
            inside += 1
            entered += 1
            most = max(most, inside)
            await asyncio.sleep(0.005)
            inside -= 1

    await asyncio.wait_for(
        asyncio.gather(*(worker(harness.a if n % 2 else harness.b) for n in range(20))), 20.0)
    assert entered == 20
    assert most == 1


async def test_lock_try_once_and_wait(harness: Harness):
    async with harness.a.registry.lock("tick", 5.0):
        with pytest.raises(LockNotAcquired):
            async with harness.b.registry.lock("tick", 5.0, wait_s=0):
                pass
        with pytest.raises(LockNotAcquired):
            async with harness.b.registry.lock("tick", 5.0, wait_s=0.05):
                pass
        async with harness.b.registry.lock("other", 5.0, wait_s=0):
            pass  # other names are independent
    async with harness.b.registry.lock("tick", 5.0, wait_s=0):
        pass


async def test_an_expired_lock_frees_itself_and_its_holder_learns_it(harness: Harness):
    with pytest.raises(LockLost):
        async with harness.a.registry.lock("tick", TTL):
            await harness.advance(TTL * 1.5)  # the holder stalls past the TTL
            async with harness.b.registry.lock("tick", 5.0, wait_s=0):
                pass  # someone else got in
    async with harness.b.registry.lock("tick", 5.0, wait_s=0):
        pass  # the stale holder did not delete anything on its way out
