"""With REDIS_URL the limits hold across processes: two facades share one Redis."""

from __future__ import annotations

import uuid

import pytest

from app.guard.ratelimit import Policy, RateLimits
from tests.conftest import redis_test_url, require

REDIS_URL = redis_test_url(1)

pytestmark = pytest.mark.redis


def _reachable() -> tuple[bool, str]:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as exc:  # any failure means "not here"
        return False, f"{REDIS_URL}: {type(exc).__name__}: {exc}"
    return True, ""


@pytest.fixture
def prefix():
    ok, why = _reachable()
    require("redis", ok, why)
    import redis

    name = f"test-limits-{uuid.uuid4().hex}"
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"{name}*"):
        client.delete(key)


def test_two_processes_share_one_limit(prefix, wall_clock):
    one = RateLimits(redis_url=REDIS_URL, key_prefix=prefix)
    two = RateLimits(redis_url=REDIS_URL, key_prefix=prefix)
    assert type(one.storage).__name__ == "RedisStorage"
    # Five logins a minute for "alice", whichever process takes them.
    assert [one.check(Policy.LOGIN_NAME, "alice").allowed for _ in range(3)] == [True] * 3
    assert [two.check(Policy.LOGIN_NAME, "alice").allowed for _ in range(2)] == [True] * 2
    assert not one.check(Policy.LOGIN_NAME, "alice").allowed
    refused = two.check(Policy.LOGIN_NAME, "alice")
    assert not refused.allowed and 59 <= refused.retry_after_s <= 60
    # A fresh memory facade knows nothing of it: the sharing is Redis's doing.
    assert RateLimits().check(Policy.LOGIN_NAME, "alice").allowed
    wall_clock.shift(60.01)
    assert two.check(Policy.LOGIN_NAME, "alice").allowed
    assert one.remaining(Policy.LOGIN_NAME, "alice") == 4


def test_from_env_uses_redis(prefix):
    limits = RateLimits.from_env({"REDIS_URL": REDIS_URL})
    assert type(limits.storage).__name__ == "RedisStorage"
