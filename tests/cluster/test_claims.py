"""Claims: one winner per seat and per idempotency key, across processes."""

from __future__ import annotations

import asyncio

from tests.cluster.conftest import TTL, Harness


async def test_two_hundred_racers_for_one_seat_have_one_winner(harness: Harness):
    users = [f"user-{n}" for n in range(200)]
    # Half the racers go through each "process" (on Redis: two separate connection pools).
    attempts = [
        (harness.a if n % 2 else harness.b).claims.claim_seat("t1", 2, user)
        for n, user in enumerate(users)
    ]
    results = await asyncio.gather(*attempts)
    winners = [user for user, won in zip(users, results, strict=True) if won]
    assert len(winners) == 1
    assert await harness.a.claims.seat_holder("t1", 2) == winners[0]
    assert await harness.b.claims.seats("t1") == {2: winners[0]}


async def test_every_seat_goes_to_a_different_user(harness: Harness):
    # 4 seats, 20 users trying every seat at once: 4 winners, each seated once.
    attempts, labels = [], []
    for n in range(20):
        for seat in range(4):
            side = harness.a if (n + seat) % 2 else harness.b
            attempts.append(side.claims.claim_seat("t1", seat, f"user-{n}"))
            labels.append((seat, f"user-{n}"))
    results = await asyncio.gather(*attempts)
    won = [label for label, ok in zip(labels, results, strict=True) if ok]
    assert sorted(seat for seat, _ in won) == [0, 1, 2, 3]
    assert len({user for _, user in won}) == 4
    assert await harness.a.claims.seats("t1") == dict(won)


async def test_one_seat_per_user_per_table(harness: Harness):
    assert await harness.a.claims.claim_seat("t1", 0, "ann")
    assert not await harness.b.claims.claim_seat("t1", 1, "ann")  # already seated here
    assert not await harness.b.claims.claim_seat("t1", 0, "ann")  # strict: not "yours again"
    assert await harness.b.claims.claim_seat("t2", 0, "ann")  # another table is fine
    assert await harness.b.claims.claim_seat("t1", 1, "bob")


async def test_release_only_by_the_holder(harness: Harness):
    assert await harness.a.claims.claim_seat("t1", 0, "ann")
    assert not await harness.b.claims.release_seat("t1", 0, "bob")
    assert not await harness.b.claims.release_seat("t1", 1, "ann")
    assert await harness.b.claims.seat_holder("t1", 0) == "ann"
    assert await harness.b.claims.release_seat("t1", 0, "ann")
    assert await harness.a.claims.seat_holder("t1", 0) is None
    # Both the seat and the user are free again.
    assert await harness.a.claims.claim_seat("t1", 1, "ann")
    assert await harness.b.claims.claim_seat("t1", 0, "bob")


async def test_clear_table_frees_every_seat(harness: Harness):
    for seat, user in enumerate(["ann", "bob", "cid"]):
        assert await harness.a.claims.claim_seat("t1", seat, user)
    assert await harness.a.claims.claim_seat("t2", 0, "ann")
    await harness.b.claims.clear_table("t1")
    assert await harness.a.claims.seats("t1") == {}
    assert await harness.a.claims.seats("t2") == {0: "ann"}
    assert await harness.a.claims.claim_seat("t1", 0, "dan")


async def test_seat_claims_expire(harness: Harness):
    assert await harness.a.claims.claim_seat("t1", 0, "ann", ttl_s=TTL)
    assert not await harness.b.claims.claim_seat("t1", 0, "bob", ttl_s=TTL)
    await harness.advance(TTL * 1.5)
    assert await harness.b.claims.seat_holder("t1", 0) is None
    assert await harness.b.claims.claim_seat("t1", 0, "bob")


async def test_a_double_submitted_create_makes_no_twin(harness: Harness):
    attempts = [
        (harness.a if n % 2 else harness.b).claims.claim_table_key("create:ann:8f3a", f"table-{n}")
        for n in range(50)
    ]
    results = await asyncio.gather(*attempts)
    winners = [n for n, ok in enumerate(results) if ok]
    assert len(winners) == 1
    # The loser finds the table the winner created.
    assert await harness.b.claims.table_key_value("create:ann:8f3a") == f"table-{winners[0]}"
    assert not await harness.a.claims.claim_table_key("create:ann:8f3a", "table-x")
    assert await harness.a.claims.claim_table_key("create:ann:other", "table-y")


async def test_a_failed_create_can_release_its_key(harness: Harness):
    assert await harness.a.claims.claim_table_key("k", "table-1")
    assert not await harness.b.claims.release_table_key("k", "table-2")
    assert await harness.b.claims.table_key_value("k") == "table-1"
    assert await harness.a.claims.release_table_key("k", "table-1")
    assert await harness.b.claims.table_key_value("k") is None
    assert await harness.b.claims.claim_table_key("k", "table-2")


async def test_table_keys_expire(harness: Harness):
    assert await harness.a.claims.claim_table_key("k", "table-1", ttl_s=TTL)
    await harness.advance(TTL * 0.3)
    assert not await harness.b.claims.claim_table_key("k", "table-2", ttl_s=TTL)
    await harness.advance(TTL * 1.2)
    assert await harness.b.claims.claim_table_key("k", "table-2", ttl_s=TTL)
