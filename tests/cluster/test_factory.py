"""make_cluster: in-process without a URL, Redis with one; close() releases everything."""

from __future__ import annotations

import pytest

from app.cluster import (
    Claims,
    LeaseManager,
    Locks,
    RoomBus,
    SubscriptionClosed,
    make_cluster,
)
from app.cluster.bus import InProcessRoomBus, RedisRoomBus
from app.cluster.claims import InProcessClaims, RedisClaims
from app.cluster.leases import InProcessLeases, RedisLeases
from app.cluster.locks import InProcessLocks, RedisLocks
from tests.cluster.conftest import PREFIX, REDIS_URL, clear, require_redis


def _check_protocols(cluster) -> None:
    assert isinstance(cluster.leases, LeaseManager)
    assert isinstance(cluster.bus, RoomBus)
    assert isinstance(cluster.locks, Locks)
    assert isinstance(cluster.claims, Claims)


@pytest.mark.parametrize("url", [None, ""])
async def test_without_a_url_everything_is_in_process(url):
    cluster = make_cluster(url)
    assert not cluster.distributed and cluster.redis is None
    assert isinstance(cluster.leases, InProcessLeases)
    assert isinstance(cluster.bus, InProcessRoomBus)
    assert isinstance(cluster.locks, InProcessLocks)
    assert isinstance(cluster.claims, InProcessClaims)
    _check_protocols(cluster)
    assert cluster.process_id and cluster.process_id != make_cluster(None).process_id
    sub = await cluster.bus.events("t1")
    await cluster.close()
    with pytest.raises(SubscriptionClosed):
        await sub.get()


@pytest.mark.redis
async def test_with_a_url_everything_goes_through_redis():
    require_redis()
    cluster = make_cluster(REDIS_URL, prefix=PREFIX, process_id="web-1")
    try:
        assert cluster.distributed and cluster.process_id == "web-1"
        assert isinstance(cluster.leases, RedisLeases)
        assert isinstance(cluster.bus, RedisRoomBus)
        assert isinstance(cluster.locks, RedisLocks)
        assert isinstance(cluster.claims, RedisClaims)
        _check_protocols(cluster)
        assert await cluster.redis.ping()
        sub = await cluster.bus.events("t1")
    finally:
        await clear(cluster.redis)
        await cluster.close()
    with pytest.raises(SubscriptionClosed):
        await sub.get()
