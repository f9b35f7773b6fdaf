"""The rate-limit facade: every default policy refuses at its limit and frees after its window."""

from __future__ import annotations

import pytest

from app.guard.ratelimit import DEFAULT_POLICIES, MAX_KEY_CHARS, Decision, Policy, RateLimits


def burst(limits: RateLimits, policy: Policy, key: str, n: int) -> list[bool]:
    return [limits.check(policy, key).allowed for _ in range(n)]


def test_every_policy_has_documented_defaults():
    assert set(DEFAULT_POLICIES) == set(Policy)
    limits = RateLimits()
    assert [str(w) for w in limits.windows(Policy.WS_MESSAGE)] == [
        "20 per 1 second",
        "300 per 1 minute",
    ]
    assert [str(w) for w in limits.windows(Policy.CHAT_LINE)] == [
        "5 per 10 second",
        "60 per 10 minute",
    ]


def test_ws_messages_burst_limit_refuses_the_21st_and_frees_after_a_second(wall_clock):
    limits = RateLimits()
    assert burst(limits, Policy.WS_MESSAGE, "conn-1", 20) == [True] * 20
    refused = limits.check(Policy.WS_MESSAGE, "conn-1")
    assert refused == Decision(False, 1.0, Policy.WS_MESSAGE)
    # Another connection has its own budget.
    assert limits.check(Policy.WS_MESSAGE, "conn-2").allowed
    wall_clock.shift(0.5)
    assert not limits.check(Policy.WS_MESSAGE, "conn-1").allowed
    wall_clock.shift(0.51)
    assert limits.check(Policy.WS_MESSAGE, "conn-1").allowed


def test_ws_messages_minute_limit_holds_across_seconds_and_frees_after_the_minute(wall_clock):
    limits = RateLimits()
    for _ in range(15):  # 15 seconds of 20 messages: 300, the minute's budget
        assert burst(limits, Policy.WS_MESSAGE, "conn", 20) == [True] * 20
        wall_clock.shift(1.01)  # a window is closed at its edge: wait a little past it
    refused = limits.check(Policy.WS_MESSAGE, "conn")
    assert not refused.allowed
    # The first second's messages leave the window 60 s after they came.
    assert refused.retry_after_s == pytest.approx(60 - 15 * 1.01)
    wall_clock.shift(60 - 15 * 1.01 - 0.1)
    assert not limits.check(Policy.WS_MESSAGE, "conn").allowed
    wall_clock.shift(0.2)
    assert burst(limits, Policy.WS_MESSAGE, "conn", 20) == [True] * 20
    assert not limits.check(Policy.WS_MESSAGE, "conn").allowed


def test_login_brute_force_on_one_name_is_blocked_after_five_per_minute(wall_clock):
    limits = RateLimits()
    assert burst(limits, Policy.LOGIN_NAME, "alice", 5) == [True] * 5
    refused = limits.check(Policy.LOGIN_NAME, "alice")
    assert not refused.allowed and refused.retry_after_s == pytest.approx(60.0)
    assert limits.check(Policy.LOGIN_NAME, "bob").allowed
    wall_clock.shift(59)
    assert not limits.check(Policy.LOGIN_NAME, "alice").allowed
    wall_clock.shift(1.01)
    assert limits.check(Policy.LOGIN_NAME, "alice").allowed


def test_login_back_off_after_twenty_an_hour_then_fifty_a_day(wall_clock):
    limits = RateLimits()
    for _ in range(4):  # 5 a minute for 4 minutes: the hour's 20
        assert burst(limits, Policy.LOGIN_NAME, "alice", 5) == [True] * 5
        wall_clock.shift(61)
    refused = limits.check(Policy.LOGIN_NAME, "alice")
    assert not refused.allowed
    assert refused.retry_after_s == pytest.approx(3600 - 4 * 61)
    wall_clock.shift(3600 - 4 * 61 + 1)  # the first minute's tries have left the hour
    for _ in range(6):  # and 30 more over six more spread-out minutes, 50 in all
        assert burst(limits, Policy.LOGIN_NAME, "alice", 5) == [True] * 5
        wall_clock.shift(1200)  # 15 an hour: under the hour's 20
    refused = limits.check(Policy.LOGIN_NAME, "alice")
    assert not refused.allowed
    assert refused.retry_after_s > 3600  # now it is the day's window
    wall_clock.shift(refused.retry_after_s + 1)
    assert limits.check(Policy.LOGIN_NAME, "alice").allowed


def test_login_brute_force_from_one_address_over_many_names_is_blocked(wall_clock):
    limits = RateLimits()
    for i in range(10):
        assert limits.check(Policy.LOGIN_NAME, f"name-{i}").allowed
        assert limits.check(Policy.LOGIN_ADDRESS, "203.0.113.7").allowed
    assert not limits.check(Policy.LOGIN_ADDRESS, "203.0.113.7").allowed
    assert limits.check(Policy.LOGIN_ADDRESS, "198.51.100.1").allowed
    wall_clock.shift(60.01)
    assert limits.check(Policy.LOGIN_ADDRESS, "203.0.113.7").allowed


def test_refused_attempts_do_not_lengthen_the_lock(wall_clock):
    limits = RateLimits()
    burst(limits, Policy.LOGIN_NAME, "alice", 5)
    for _ in range(30):
        wall_clock.shift(1)
        assert not limits.check(Policy.LOGIN_NAME, "alice").allowed
    wall_clock.shift(30.01)
    assert limits.check(Policy.LOGIN_NAME, "alice").allowed


def test_table_creation_ten_an_hour(wall_clock):
    limits = RateLimits()
    for _ in range(10):
        assert limits.check(Policy.TABLE_CREATE, "acct-1").allowed
        wall_clock.shift(60)
    refused = limits.check(Policy.TABLE_CREATE, "acct-1")
    assert not refused.allowed and refused.retry_after_s == pytest.approx(3000)
    wall_clock.shift(3000.01)
    assert limits.check(Policy.TABLE_CREATE, "acct-1").allowed
    assert not limits.check(Policy.TABLE_CREATE, "acct-1").allowed


def test_chat_five_lines_per_ten_seconds_and_sixty_per_ten_minutes(wall_clock):
    limits = RateLimits()
    assert burst(limits, Policy.CHAT_LINE, "acct-1", 6) == [True] * 5 + [False]
    wall_clock.shift(10.01)
    assert burst(limits, Policy.CHAT_LINE, "acct-1", 5) == [True] * 5
    for _ in range(10):
        wall_clock.shift(10.01)
        assert burst(limits, Policy.CHAT_LINE, "acct-1", 5) == [True] * 5
    wall_clock.shift(10.01)  # 60 lines within 10 minutes now
    refused = limits.check(Policy.CHAT_LINE, "acct-1")
    assert not refused.allowed and refused.retry_after_s > 10


def test_peek_does_not_count_and_reset_forgets(wall_clock):
    limits = RateLimits()
    for _ in range(10):
        assert limits.peek(Policy.LOGIN_NAME, "alice").allowed
    assert limits.remaining(Policy.LOGIN_NAME, "alice") == 5
    burst(limits, Policy.LOGIN_NAME, "alice", 5)
    assert limits.remaining(Policy.LOGIN_NAME, "alice") == 0
    assert not limits.peek(Policy.LOGIN_NAME, "alice").allowed
    limits.reset(Policy.LOGIN_NAME, "alice")
    assert limits.check(Policy.LOGIN_NAME, "alice").allowed


def test_policies_can_be_overridden():
    limits = RateLimits({Policy.TABLE_CREATE: "2/hour"})
    assert burst(limits, Policy.TABLE_CREATE, "a", 3) == [True, True, False]
    assert [str(w) for w in limits.windows(Policy.LOGIN_NAME)][0] == "5 per 1 minute"
    with pytest.raises(ValueError):
        RateLimits({Policy.TABLE_CREATE: []})


def test_long_keys_are_hashed_but_stay_distinct(wall_clock):
    limits = RateLimits()
    a = "x" * 10_000 + "a"
    b = "x" * 10_000 + "b"
    assert burst(limits, Policy.LOGIN_NAME, a, 6) == [True] * 5 + [False]
    assert limits.check(Policy.LOGIN_NAME, b).allowed
    assert RateLimits._key(a) != RateLimits._key(b)
    assert len(RateLimits._key(a)) <= MAX_KEY_CHARS
    assert RateLimits._key("alice") == "alice"


def test_from_env_picks_memory_without_redis_url():
    limits = RateLimits.from_env({})
    assert type(limits.storage).__name__ == "MemoryStorage"
    limits = RateLimits.from_env({"REDIS_URL": ""})
    assert type(limits.storage).__name__ == "MemoryStorage"
