"""The failover sequence of docs/scaling.md at the coordination level (no database here):
the owner dies, its lease expires, the gateway finds no owner, another process takes over
and commands flow again, while the dead owner can no longer act as owner."""

from __future__ import annotations

import asyncio

from app.cluster.leases import LeaseRenewer
from tests.cluster.conftest import TTL, Harness


async def test_a_dead_owners_table_is_taken_over_after_the_lease_expires(harness: Harness):
    a, b = harness.a, harness.b
    # a owns t1: lease, command subscription, renewer.
    assert await a.leases.acquire("t1", a.process_id, TTL)
    inbox_a = await a.bus.commands("t1")
    renewer = LeaseRenewer(a.leases, a.process_id, TTL, lambda _t: None)
    if harness.clock is None:
        renewer.add("t1")
    events_b = await b.bus.events("t1")  # b's gateway has a socket at t1
    assert await b.bus.send_command("t1", {"cmd": "play", "n": 1}) == 1
    assert await asyncio.wait_for(inbox_a.get(), 2) == {"cmd": "play", "n": 1}

    # a dies: no more renewals, no more subscriptions, and no release.
    await renewer.stop(release=False)
    await inbox_a.close()
    assert await b.bus.send_command("t1", {"cmd": "play", "n": 2}) == 0  # nobody listening
    assert not await b.leases.acquire("t1", b.process_id, TTL)  # not before the TTL
    await harness.advance(TTL * 1.5)
    assert await b.leases.owner_of("t1") is None

    # b takes over (after rebuilding from the log, in the real server) and gets commands.
    assert await b.leases.acquire("t1", b.process_id, TTL)
    inbox_b = await b.bus.commands("t1")
    assert await b.bus.send_command("t1", {"cmd": "play", "n": 2}) == 1
    assert await asyncio.wait_for(inbox_b.get(), 2) == {"cmd": "play", "n": 2}
    await b.bus.publish_event("t1", {"seq": 8})
    assert await asyncio.wait_for(events_b.get(), 2) == {"seq": 8}

    # The old owner, back from the dead, cannot renew or re-acquire.
    assert not await a.leases.renew("t1", a.process_id, TTL)
    assert not await a.leases.acquire("t1", a.process_id, TTL)
    assert await a.leases.owner_of("t1") == b.process_id
