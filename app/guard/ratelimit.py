"""Rate limits: a small typed facade over the ``limits`` package (PyPI ``limits``).

The server asks one question, ``check(policy, key)``, and gets a :class:`Decision`
(``allowed`` and, when refused, ``retry_after_s``). Each :class:`Policy` is one or more
windows that must *all* have room; the strategy is the library's moving window, so a burst
at the edge of a fixed window cannot double the rate.

Defaults (:data:`DEFAULT_POLICIES`, override any of them with ``RateLimits(policies=...)``):

==================  ====================  ==================================================
policy              key                   windows
==================  ====================  ==================================================
``WS_MESSAGE``      one WebSocket         20 per second (burst) and 300 per minute (a
                                          :class:`ConnectionLimit`, below)
``LOGIN_NAME``      account name          5 per minute, then back-off: 20 per hour, 50 a day
``LOGIN_ADDRESS``   client address        10 per minute, then 60 per hour, 200 a day
``TABLE_CREATE``    account               10 per hour
``CHAT_LINE``       account               5 per 10 seconds and 60 per 10 minutes
``REGISTER_ADDRESS`` client address       20 per hour, 100 a day: new accounts
``GUEST_ADDRESS``   client address        30 per hour, 200 a day: new guests
``TABLE_CREATE_     client address        30 per hour, 100 a day: new tables of every account
ADDRESS``                                 of one address together
``CHAT_ADDRESS``    client address        15 per 10 seconds, 200 per 10 minutes: chat lines of
                                          every account of one address together
==================  ====================  ==================================================

The ``*_ADDRESS`` companions of the per-account limits keep them from being escaped by making
new guests: a guest is cheap, an address is not. They are looser than the per-account ones
because a household or a school shares one address.

The login "back-off" is the stacking of windows: after 5 tries the name waits out the
minute; after 20 in the hour it waits out the hour, after 50 the day. The address limits are
looser than the name limits because a household or a school shares one address; they stop one
address trying many names. A refused attempt does not consume anything, so hammering a locked
name does not lengthen its lock (the retry time stays what was announced).

Storage: memory by default (one process); with ``redis_url`` (the server passes ``REDIS_URL``)
the counters live in Redis and every process shares them (``from_env`` reads the variable).

A WebSocket's message limit is different: its key is one connection, which lives in exactly
one process and for as long as the socket. ``connection_limit(policy)`` gives the connection
its own :class:`ConnectionLimit`: one leaky bucket per window (PyPI ``aiolimiter``), checked in
O(1) and dropped with the connection. Not the store above: ``limits``' memory storage starts a
thread every 10 ms that walks every key under a lock (with 2,000 sockets about a quarter of a
core, docs/performance.md), and Redis would put round trips (the client is synchronous) into
the event loop for every frame.

Clock: the library reads the wall clock (``time.time()``) itself and takes no clock argument
(checked in limits 5.8: ``storage/memory.py`` and ``storage/redis.py``). That is also what a
limit shared by several processes needs, so this facade does not pretend to inject a clock.
The tests move the wall clock with ``time-machine`` (a test dependency) instead of sleeping.

Keys are user-controlled (account names, addresses): keys longer than 128 characters are
replaced by their SHA-256 so a hostile name cannot grow the store.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from aiolimiter import AsyncLimiter
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

#: Keys longer than this are hashed before they reach the store.
MAX_KEY_CHARS = 128


class Policy(StrEnum):
    """What is being limited; the key says for whom."""

    WS_MESSAGE = "ws_message"
    LOGIN_NAME = "login_name"
    LOGIN_ADDRESS = "login_address"
    TABLE_CREATE = "table_create"
    CHAT_LINE = "chat_line"
    REGISTER_ADDRESS = "register_address"
    GUEST_ADDRESS = "guest_address"
    TABLE_CREATE_ADDRESS = "table_create_address"
    CHAT_ADDRESS = "chat_address"


#: The default windows of each policy, in the library's notation ("N per M unit", ";" between).
DEFAULT_POLICIES: Mapping[Policy, str] = {
    Policy.WS_MESSAGE: "20/second;300/minute",
    Policy.LOGIN_NAME: "5/minute;20/hour;50/day",
    Policy.LOGIN_ADDRESS: "10/minute;60/hour;200/day",
    Policy.TABLE_CREATE: "10/hour",
    Policy.CHAT_LINE: "5 per 10 seconds;60 per 10 minutes",
    Policy.REGISTER_ADDRESS: "20/hour;100/day",
    Policy.GUEST_ADDRESS: "30/hour;200/day",
    Policy.TABLE_CREATE_ADDRESS: "30/hour;100/day",
    Policy.CHAT_ADDRESS: "15 per 10 seconds;200 per 10 minutes",
}


@dataclass(frozen=True, slots=True)
class Decision:
    """The answer to one ``check``: allowed, or refused with the seconds to wait."""

    allowed: bool
    retry_after_s: float = 0.0
    policy: Policy | None = None


def _parse(spec: str | Sequence[RateLimitItem]) -> tuple[RateLimitItem, ...]:
    items = tuple(parse_many(spec)) if isinstance(spec, str) else tuple(spec)
    if not items:
        raise ValueError("a policy needs at least one window")
    return items


class RateLimits:
    """Named rate-limit policies over one storage (memory, or Redis shared by processes)."""

    def __init__(
        self,
        policies: Mapping[Policy, str | Sequence[RateLimitItem]] | None = None,
        *,
        redis_url: str | None = None,
        key_prefix: str = "doppelrunde-limits",
        storage: Storage | None = None,
    ) -> None:
        merged: dict[Policy, str | Sequence[RateLimitItem]] = dict(DEFAULT_POLICIES)
        merged.update(policies or {})
        self._policies: dict[Policy, tuple[RateLimitItem, ...]] = {
            policy: _parse(spec) for policy, spec in merged.items()
        }
        if storage is None:
            if redis_url:
                storage = storage_from_string(redis_url, key_prefix=key_prefix)
            else:
                storage = storage_from_string("memory://")
        self.storage = storage
        self._limiter = MovingWindowRateLimiter(storage)

    def connection_limit(self, policy: Policy) -> ConnectionLimit:
        """A new limit for one connection under ``policy``'s windows (see the module doc)."""
        return ConnectionLimit(policy, self._policies[policy])

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> RateLimits:
        """Redis storage when ``REDIS_URL`` is set (and not empty), memory otherwise."""
        env = os.environ if environ is None else environ
        return cls(redis_url=env.get("REDIS_URL") or None)

    def windows(self, policy: Policy) -> tuple[RateLimitItem, ...]:
        """The windows of ``policy`` (all must have room for a ``check`` to pass)."""
        return self._policies[policy]

    @staticmethod
    def _key(key: str) -> str:
        if len(key) <= MAX_KEY_CHARS:
            return key
        return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()

    def _refusal(self, policy: Policy, key: str) -> Decision | None:
        """The refusal for ``key`` if any window of ``policy`` is full, else None."""
        wait = 0.0
        now = time.time()
        for item in self._policies[policy]:
            if not self._limiter.test(item, policy.value, key):
                stats = self._limiter.get_window_stats(item, policy.value, key)
                wait = max(wait, stats.reset_time - now, 0.001)
        return Decision(False, round(wait, 3), policy) if wait else None

    def check(self, policy: Policy, key: str) -> Decision:
        """Count one event of ``policy`` for ``key`` if every window has room.

        A refused event is not counted. Under a race between processes a window can fill
        between the test and the hit; then the event is refused (a window already hit
        in this call keeps that hit: the error is on the safe side).
        """
        key = self._key(key)
        refused = self._refusal(policy, key)
        if refused is not None:
            return refused
        for item in self._policies[policy]:
            if not self._limiter.hit(item, policy.value, key):
                refused = self._refusal(policy, key)
                return refused if refused is not None else Decision(False, 1.0, policy)
        return Decision(True, 0.0, policy)

    def peek(self, policy: Policy, key: str) -> Decision:
        """What ``check`` would answer, without counting anything."""
        refused = self._refusal(policy, self._key(key))
        return refused if refused is not None else Decision(True, 0.0, policy)

    def remaining(self, policy: Policy, key: str) -> int:
        """Events left before the tightest window of ``policy`` refuses ``key``."""
        key = self._key(key)
        return min(
            self._limiter.get_window_stats(item, policy.value, key).remaining
            for item in self._policies[policy]
        )

    def reset(self, policy: Policy, key: str) -> None:
        """Forget ``key``'s events under ``policy`` (e.g. the name's count after a good login)."""
        key = self._key(key)
        for item in self._policies[policy]:
            self._limiter.clear(item, policy.value, key)


class ConnectionLimit:
    """One connection's limit: a leaky bucket (``aiolimiter.AsyncLimiter``) per window, "N per
    T seconds" becoming a bucket of N that drains N every T seconds: a burst of N, then the
    rate. ``check`` answers like :meth:`RateLimits.check` and counts only what it allows."""

    def __init__(self, policy: Policy, windows: Sequence[RateLimitItem]) -> None:
        self._policy = policy
        self._buckets = [AsyncLimiter(item.amount, item.get_expiry()) for item in windows]

    async def check(self) -> Decision:
        """Count one event if every bucket has room (never waits), else refuse with the
        seconds until a full bucket has drained one event."""
        full = [bucket for bucket in self._buckets if not bucket.has_capacity()]
        if full:
            wait = max(bucket.time_period / bucket.max_rate for bucket in full)
            return Decision(False, round(wait, 3), self._policy)
        for bucket in self._buckets:
            await bucket.acquire()  # has room: takes it without waiting
        return Decision(True, 0.0, self._policy)
