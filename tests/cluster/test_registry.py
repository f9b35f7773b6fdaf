"""Shared lobby state (app.lobby.registry over the cluster): open tables, presence,
matchmaking tickets under the cluster's lock (app.cluster.locks)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from app.cluster.locks import LockLost, LockNotAcquired
from app.lobby.matchmaking import AlreadyQueued, QueueKey, QueueSettings, plan_queue
from app.lobby.registry import InProcessRegistry, LobbyRegistry, make_registry
from app.ratings.model import Rating
from tests.cluster.conftest import TTL, Harness

DOKO = QueueKey("doppelkopf", "ddv", 4)
DOPPIO = QueueKey("doppio", "standard", 2)


@dataclass
class Sides:
    """The lobby registry as each of the harness's two processes sees it."""

    a: LobbyRegistry
    b: LobbyRegistry


@pytest.fixture
def lobby(harness: Harness) -> Sides:
    if harness.redis:
        return Sides(make_registry(harness.a), make_registry(harness.b))
    shared = InProcessRegistry(harness.a.clock, locks=harness.a.locks)  # one process's state
    return Sides(shared, shared)


# Open tables --------------------------------------------------------------------------------


async def test_open_tables_are_shared_and_ordered(harness: Harness, lobby: Sides):
    await lobby.a.list_table("t2", {"game": "doppio", "seats": 2, "taken": 1}, 20.0)
    await lobby.b.list_table("t1", {"game": "doppelkopf", "seats": 4, "taken": 3,
                                               "host": "ann", "private": False}, 10.0)
    await lobby.a.list_table("t3", {"game": "doppelkopf", "seats": 4, "taken": 0},
                                        30.0)
    listed = await lobby.b.open_tables()
    assert [t.table_id for t in listed] == ["t1", "t2", "t3"]
    assert listed[0].info == {"game": "doppelkopf", "seats": 4, "taken": 3, "host": "ann",
                              "private": False}
    assert listed[0].score == 10.0
    newest = await lobby.a.open_tables(newest_first=True, limit=2)
    assert [t.table_id for t in newest] == ["t3", "t2"]
    page = await lobby.a.open_tables(offset=1, limit=1)
    assert [t.table_id for t in page] == ["t2"]
    assert await lobby.a.count_open_tables() == 3


async def test_updating_and_unlisting_a_table(harness: Harness, lobby: Sides):
    await lobby.a.list_table("t1", {"game": "doppio", "seats": 3, "taken": 1}, 1.0)
    assert await lobby.b.update_table("t1", {"taken": 2, "players": ["ann", "bob"]})
    card = await lobby.a.open_table("t1")
    assert card is not None
    assert card.info == {"game": "doppio", "seats": 3, "taken": 2, "players": ["ann", "bob"]}
    assert not await lobby.b.update_table("gone", {"taken": 1})
    assert await lobby.a.open_table("gone") is None
    assert await lobby.b.unlist_table("t1")
    assert not await lobby.b.unlist_table("t1")
    assert await lobby.a.open_table("t1") is None
    assert await lobby.a.open_tables() == []
    assert await lobby.a.count_open_tables() == 0


async def test_relisting_replaces_the_card(harness: Harness, lobby: Sides):
    await lobby.a.list_table("t1", {"game": "doppio", "note": "old"}, 1.0)
    await lobby.b.list_table("t1", {"game": "doppio"}, 5.0)  # after a failover
    card = await lobby.a.open_table("t1")
    assert card is not None and card.info == {"game": "doppio"} and card.score == 5.0


# Presence -----------------------------------------------------------------------------------


async def test_presence_expires_without_heartbeats(harness: Harness, lobby: Sides):
    await lobby.a.heartbeat("ann", TTL)
    await lobby.b.heartbeat("bob", 30 * TTL)
    assert await lobby.b.is_online("ann")
    assert await lobby.a.online_users() == {"ann", "bob"}
    await harness.advance(TTL * 0.8)
    await lobby.a.heartbeat("ann", TTL)  # renewed in time
    await harness.advance(TTL * 0.5)  # 1.3 TTL after the first heartbeat
    assert await lobby.b.is_online("ann")
    await harness.advance(TTL)  # no heartbeat for longer than the TTL
    assert not await lobby.b.is_online("ann")
    assert await lobby.a.online_users() == {"bob"}
    assert not await lobby.a.is_online("nobody")


async def test_a_short_heartbeat_does_not_cut_a_longer_one(harness: Harness, lobby: Sides):
    await lobby.a.heartbeat("ann", 30 * TTL)  # a tab on process a
    await lobby.b.heartbeat("ann", TTL)  # a tab on process b
    await harness.advance(TTL * 1.5)
    assert await lobby.b.is_online("ann")
    await lobby.b.set_offline("ann")
    assert not await lobby.a.is_online("ann")
    assert await lobby.a.online_users() == set()


async def test_one_call_heartbeats_a_whole_process_and_never_cuts_a_longer_one(harness: Harness, lobby: Sides):
    users = [f"u{i}" for i in range(2500)]  # more than one script call's batch
    await lobby.a.heartbeat("u7", 30 * TTL)  # a tab elsewhere, for longer
    await lobby.b.heartbeat_many(users, TTL)
    assert await lobby.a.online_users() == set(users)
    await harness.advance(TTL * 1.5)
    assert await lobby.a.online_users() == {"u7"}
    await lobby.b.heartbeat_many([], TTL)  # nothing to do, nothing breaks


# Matchmaking tickets ------------------------------------------------------------------------


async def test_one_ticket_per_player_across_processes(harness: Harness, lobby: Sides):
    ticket = await lobby.a.add_ticket(1, DOKO, Rating(25.0, 8.0), 100.0)
    with pytest.raises(AlreadyQueued):
        await lobby.b.add_ticket(1, DOPPIO, Rating(), 101.0)
    # 1 and "1" are different players.
    await lobby.b.add_ticket("1", DOPPIO, Rating(), 101.0)
    assert await lobby.b.ticket(1) == ticket
    assert await lobby.a.remove_ticket(1) == ticket
    assert await lobby.a.remove_ticket(1) is None
    again = await lobby.b.add_ticket(1, DOPPIO, Rating(), 102.0)
    assert again.number > ticket.number


async def test_concurrent_joins_of_one_player_queue_once(harness: Harness, lobby: Sides):
    attempts = [
        (lobby.a if n % 2 else lobby.b).add_ticket("ann", DOKO, Rating(), 1.0)
        for n in range(30)
    ]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, AlreadyQueued) for r in results if isinstance(r, Exception))
    assert len(await lobby.a.tickets()) == 1


async def test_tickets_come_back_in_join_order_and_by_queue(harness: Harness, lobby: Sides):
    await lobby.a.add_ticket("cid", DOKO, Rating(30.0, 2.0), 50.0)
    await lobby.b.add_ticket("ann", DOKO, Rating(20.0, 3.0), 10.0)
    await lobby.a.add_ticket("dan", DOPPIO, Rating(), 5.0)
    await lobby.b.add_ticket("bob", DOKO, Rating(22.5, 4.0), 10.0)  # same instant
    everyone = await lobby.a.tickets()
    assert [t.player for t in everyone] == ["dan", "ann", "bob", "cid"]
    doko = await lobby.b.tickets(DOKO)
    assert [t.player for t in doko] == ["ann", "bob", "cid"]
    assert doko[0].rating == Rating(20.0, 3.0) and doko[0].key == DOKO
    assert await lobby.a.remove_tickets(["ann", "nobody", "cid"]) == [doko[0],
                                                                                 doko[2]]
    assert [t.player for t in await lobby.a.tickets()] == ["dan", "bob"]


async def _tick(registry, now: float, settings: QueueSettings) -> list[list[str]]:
    """What a process does once a second: plan the queues under the lock, take the tickets
    of each formed table out of the store."""
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


async def test_matchmaking_under_the_lock_seats_everyone_once(harness: Harness, lobby: Sides):
    for n in range(10):
        side = lobby.a if n % 2 else lobby.b
        await side.add_ticket(f"p{n}", DOKO, Rating(25.0 + n * 0.1), 100.0 + n)
    settings = QueueSettings()
    # Both processes tick at the same moment.
    results = await asyncio.gather(_tick(lobby.a, 110.0, settings),
                                   _tick(lobby.b, 110.0, settings))
    tables = [table for formed in results for table in formed]
    assert len(tables) == 2
    seated = [player for table in tables for player in table]
    assert sorted(seated) == sorted(f"p{n}" for n in range(8))
    assert [t.player for t in await lobby.a.tickets()] == ["p8", "p9"]


# Lock ---------------------------------------------------------------------------------------


async def test_lock_mutual_exclusion_across_processes(harness: Harness, lobby: Sides):
    inside = 0
    most = 0
    entered = 0

    async def worker(side) -> None:
        nonlocal inside, most, entered
        async with side.lock("tick", 5.0):
            inside += 1
            entered += 1
            most = max(most, inside)
            await asyncio.sleep(0.005)
            inside -= 1

    await asyncio.wait_for(
        asyncio.gather(*(worker(lobby.a if n % 2 else lobby.b) for n in range(20))), 20.0)
    assert entered == 20
    assert most == 1


async def test_lock_try_once_and_wait(harness: Harness, lobby: Sides):
    async with lobby.a.lock("tick", 5.0):
        with pytest.raises(LockNotAcquired):
            async with lobby.b.lock("tick", 5.0, wait_s=0):
                pass
        with pytest.raises(LockNotAcquired):
            async with lobby.b.lock("tick", 5.0, wait_s=0.05):
                pass
        async with lobby.b.lock("other", 5.0, wait_s=0):
            pass  # other names are independent
    async with lobby.b.lock("tick", 5.0, wait_s=0):
        pass


async def test_an_expired_lock_frees_itself_and_its_holder_learns_it(harness: Harness, lobby: Sides):
    with pytest.raises(LockLost):
        async with lobby.a.lock("tick", TTL):
            await harness.advance(TTL * 1.5)  # the holder stalls past the TTL
            async with lobby.b.lock("tick", 5.0, wait_s=0):
                pass  # someone else got in
    async with lobby.b.lock("tick", 5.0, wait_s=0):
        pass  # the stale holder did not delete anything on its way out
