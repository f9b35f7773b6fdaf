"""The room bus: commands to the owner, events to every process, in order, loss made visible."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from app.cluster.bus import Gap, SeqGuard, Subscription, SubscriptionClosed
from app.cluster.factory import make_cluster
from tests.cluster.conftest import PREFIX, REDIS_URL, Harness, eventually, require_redis


async def _take(sub: Subscription, n: int, timeout: float = 5.0) -> list:
    async def take() -> list:
        return [await sub.get() for _ in range(n)]

    return await asyncio.wait_for(take(), timeout)


async def test_a_thousand_events_arrive_in_order_at_two_subscribers(harness: Harness):
    # One subscriber in each "process"; the owner (a) publishes.
    here = await harness.a.bus.events("t1")
    there = await harness.b.bus.events("t1")
    for seq in range(1, 1001):
        await harness.a.bus.publish_event("t1", {"seq": seq, "type": "card_played"})
    for sub in (here, there):
        received = await _take(sub, 1000)
        assert [m["seq"] for m in received] == list(range(1, 1001))
        assert received[0] == {"seq": 1, "type": "card_played"}


async def test_concurrent_publishes_keep_the_call_order(harness: Harness):
    sub = await harness.b.bus.events("t1")
    # Tasks started in order publish in order: one publisher connection behind a FIFO lock.
    await asyncio.gather(*(harness.a.bus.publish_event("t1", {"seq": s}) for s in range(300)))
    assert [m["seq"] for m in await _take(sub, 300)] == list(range(300))


async def test_events_reach_a_subscriber_in_another_process(harness: Harness):
    sub = await harness.b.bus.events("t1")
    receivers = await harness.a.bus.publish_event("t1", {"seq": 7, "type": "trick_won"})
    assert receivers == 1
    assert await _take(sub, 1) == [{"seq": 7, "type": "trick_won"}]
    # Tables are separate channels.
    assert await harness.a.bus.publish_event("t2", {"seq": 1}) == 0
    await harness.a.bus.publish_event("t1", {"seq": 8})
    assert await _take(sub, 1) == [{"seq": 8}]


async def test_commands_reach_the_owner_in_order(harness: Harness):
    assert await harness.b.bus.send_command("t1", {"cmd": "play"}) == 0  # no owner yet
    inbox = await harness.a.bus.commands("t1")
    for n in range(50):
        assert await harness.b.bus.send_command("t1", {"cmd": "play", "n": n}) == 1
    assert [m["n"] for m in await _take(inbox, 50)] == list(range(50))
    # Commands and events of a table do not mix.
    events = await harness.a.bus.events("t1")
    await harness.a.bus.publish_event("t1", {"seq": 1})
    await harness.b.bus.send_command("t1", {"cmd": "resync"})
    assert await _take(events, 1) == [{"seq": 1}]
    assert await _take(inbox, 1) == [{"cmd": "resync"}]


async def test_a_drained_subscription_keeps_every_command_sent_before_it(harness: Harness):
    """An owner handing a table on drains its command channel: what reached it before the
    unsubscribe is still read, then the iteration ends; what comes after reaches nobody."""
    inbox = await harness.a.bus.commands("t1")
    sent = 0

    async def sender() -> None:  # another process keeps sending while the owner leaves
        nonlocal sent
        while await harness.b.bus.send_command("t1", {"n": sent}) == 1:
            sent += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(sender())
    while sent < 20:
        await asyncio.sleep(0.001)
    await inbox.drain()
    await asyncio.wait_for(task, 5)
    received = [message["n"] async for message in inbox]
    assert received == list(range(sent))  # every command that counted a receiver, in order
    assert await harness.b.bus.send_command("t1", {"n": -1}) == 0


async def test_each_local_subscriber_gets_its_own_copy(harness: Harness):
    first = await harness.b.bus.events("t1")
    second = await harness.b.bus.events("t1")
    await harness.a.bus.publish_event("t1", {"seq": 1, "hand": ["D10"]})
    one, = await _take(first, 1)
    one["hand"].append("mutated")
    assert await _take(second, 1) == [{"seq": 1, "hand": ["D10"]}]


async def test_closing_one_subscriber_keeps_the_others(harness: Harness):
    first = await harness.b.bus.events("t1")
    second = await harness.b.bus.events("t1")
    await first.close()
    with pytest.raises(SubscriptionClosed):
        await first.get()
    await harness.a.bus.publish_event("t1", {"seq": 1})
    assert await _take(second, 1) == [{"seq": 1}]
    await second.close()

    async def nobody_listens() -> bool:
        return await harness.a.bus.publish_event("t1", {"seq": 2}) == 0

    await eventually(nobody_listens)
    # Subscribing again after the channel was dropped works.
    third = await harness.b.bus.events("t1")
    await harness.a.bus.publish_event("t1", {"seq": 3})
    assert await _take(third, 1) == [{"seq": 3}]


async def test_iteration_ends_when_the_bus_closes(harness: Harness):
    sub = await harness.b.bus.events("t1")
    await harness.a.bus.publish_event("t1", {"seq": 1})
    got = []

    async def consume() -> None:
        async for message in sub:
            got.append(message)

    consumer = asyncio.create_task(consume())
    await eventually(lambda: _true_if(got))
    await harness.b.bus.close()
    await asyncio.wait_for(consumer, 2.0)
    assert got == [{"seq": 1}]
    with pytest.raises(SubscriptionClosed):
        await harness.b.bus.events("t1")


async def _true_if(items: list) -> bool:
    return bool(items)


async def test_a_slow_consumer_gets_a_gap_instead_of_unbounded_memory(harness: Harness):
    sub = await harness.b.bus.events("t1", limit=10)
    for seq in range(1, 26):
        await harness.a.bus.publish_event("t1", {"seq": seq})
    assert await _take(sub, 1) == [Gap("overflow")]
    tail = []
    while not tail or tail[-1]["seq"] != 25:
        tail += await _take(sub, 1)
    seqs = [m["seq"] for m in tail]
    assert seqs == list(range(seqs[0], 26))
    assert len(seqs) <= 10
    assert sub.pending() == 0


async def test_messages_must_be_json_objects(harness: Harness):
    with pytest.raises(TypeError):
        await harness.a.bus.publish_event("t1", ["not", "an", "object"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        await harness.a.bus.send_command("t1", {"when": object()})


@pytest.mark.redis
async def test_subscriber_connection_loss_is_reported_as_a_gap():
    require_redis()
    admin = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
    owner = make_cluster(REDIS_URL, prefix=PREFIX, process_id="owner")
    gateway = make_cluster(REDIS_URL, prefix=PREFIX, process_id="gateway")
    try:
        events = await gateway.bus.events("t1")
        await owner.bus.publish_event("t1", {"seq": 1})
        assert await _take(events, 1) == [{"seq": 1}]
        # Kill every pub/sub connection (the gateway's subscriber): Redis forgets its
        # subscriptions, and whatever is published until it is back is lost.
        assert await admin.client_kill_filter(_type="pubsub") >= 1
        await owner.bus.publish_event("t1", {"seq": 2})
        # The Gap comes before anything received after the reconnect.
        assert await _take(events, 1) == [Gap("reconnected")]
        assert gateway.bus.reconnects >= 1
        # After the Gap the channel is subscribed again: the next event arrives (seq 2 too,
        # if it was published after the resubscription).
        await owner.bus.publish_event("t1", {"seq": 3})
        after = await _take(events, 1)
        if after == [{"seq": 2}]:
            after = await _take(events, 1)
        assert after == [{"seq": 3}]
    finally:
        await owner.close()
        await gateway.close()
        await admin.aclose()


def test_seq_guard_passes_the_next_event_and_flags_duplicates_and_gaps():
    guard = SeqGuard()
    assert guard.check(41) == "next"  # first event: whatever it is
    assert guard.check(42) == "next"
    assert guard.check(42) == "stale"
    assert guard.check(40) == "stale"
    assert guard.check(44) == "gap"
    assert guard.last == 42  # a gap does not advance
    guard.reset(50)  # the snapshot the clients were resynced with
    assert guard.check(50) == "stale"
    assert guard.check(51) == "next"
