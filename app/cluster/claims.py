"""Atomic cross-process claims, taken before the database write.

Two requests that race in different processes (two people clicking the same free seat, one
person double-submitting "create table") must not both go ahead. The database's unique
constraints (one row per table and seat, one table per idempotency key) stay the source of
truth — they hold even if Redis is flushed, a claim expires or a process is paused — but
hitting them means a failed transaction after work was done. A claim turns the race into a
cheap, atomic yes/no up front:

- ``claim_seat(table_id, seat, user)`` — True for exactly one caller while the seat is free,
  and only if that user holds no other seat at the same table; every other caller gets
  False. The winner writes the seat to the database; if that write fails (the constraint
  says the seat was taken after all), it calls ``release_seat``. The claim is released when
  the player leaves the seat, and ``clear_table`` drops all of a table's claims when it
  closes. Claims expire ``ttl_s`` after the table's last claim, so a process that died
  between claiming and writing cannot block a seat for ever.
- ``claim_table_key(key, value)`` — True for the first caller with this key (e.g. the
  idempotency key a "create table" form carries), which then creates the table; a repeat
  gets False and finds the first table with ``table_key_value(key)``.

A claim is strict: claiming what you already hold returns False too, so True always means
"you just took it, go and write it".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from redis.asyncio import Redis

Clock = Callable[[], float]

#: Seat claims of a table expire this long after its last claim (a long match).
SEAT_TTL_S = 24 * 3600.0
#: An idempotency key is remembered this long.
KEY_TTL_S = 3600.0


@runtime_checkable
class Claims(Protocol):
    async def claim_seat(self, table_id: str, seat: int, user: str, *,
                         ttl_s: float = SEAT_TTL_S) -> bool: ...

    async def release_seat(self, table_id: str, seat: int, user: str) -> bool:
        """Free the seat if ``user`` holds it; True when it was released."""
        ...

    async def seat_holder(self, table_id: str, seat: int) -> str | None: ...

    async def seats(self, table_id: str) -> dict[int, str]:
        """Claimed seats of a table: seat number -> user."""
        ...

    async def clear_table(self, table_id: str) -> None: ...

    async def claim_table_key(self, key: str, value: str = "1", *,
                              ttl_s: float = KEY_TTL_S) -> bool: ...

    async def table_key_value(self, key: str) -> str | None: ...

    async def release_table_key(self, key: str, value: str) -> bool:
        """Forget ``key`` if it still maps to ``value`` (the create failed: allow a retry)."""
        ...


class InProcessClaims:
    """Claims in dicts, expiring on an injected clock. Atomic because nothing awaits between
    the check and the write."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._tables: dict[str, tuple[dict[int, str], float]] = {}
        self._keys: dict[str, tuple[str, float]] = {}

    def _table(self, table_id: str) -> dict[int, str] | None:
        entry = self._tables.get(table_id)
        if entry is None:
            return None
        if entry[1] <= self._clock():
            del self._tables[table_id]
            return None
        return entry[0]

    async def claim_seat(self, table_id: str, seat: int, user: str, *,
                         ttl_s: float = SEAT_TTL_S) -> bool:
        seats = self._table(table_id) or {}
        if seat in seats or user in seats.values():
            return False
        seats[seat] = user
        self._tables[table_id] = (seats, self._clock() + ttl_s)
        return True

    async def release_seat(self, table_id: str, seat: int, user: str) -> bool:
        seats = self._table(table_id)
        if not seats or seats.get(seat) != user:
            return False
        del seats[seat]
        return True

    async def seat_holder(self, table_id: str, seat: int) -> str | None:
        return (self._table(table_id) or {}).get(seat)

    async def seats(self, table_id: str) -> dict[int, str]:
        return dict(self._table(table_id) or {})

    async def clear_table(self, table_id: str) -> None:
        self._tables.pop(table_id, None)

    def _key(self, key: str) -> str | None:
        entry = self._keys.get(key)
        if entry is None:
            return None
        if entry[1] <= self._clock():
            del self._keys[key]
            return None
        return entry[0]

    async def claim_table_key(self, key: str, value: str = "1", *,
                              ttl_s: float = KEY_TTL_S) -> bool:
        if self._key(key) is not None:
            return False
        self._keys[key] = (value, self._clock() + ttl_s)
        return True

    async def table_key_value(self, key: str) -> str | None:
        return self._key(key)

    async def release_table_key(self, key: str, value: str) -> bool:
        if self._key(key) != value:
            return False
        del self._keys[key]
        return True


# One hash per table: field "s:<seat>" -> user and "u:<user>" -> seat, so both "seat taken"
# and "user already seated here" are checked in the same atomic step.
_CLAIM_SEAT = """
local seat, user = 's:' .. ARGV[1], 'u:' .. ARGV[2]
if redis.call('HEXISTS', KEYS[1], seat) == 1 or redis.call('HEXISTS', KEYS[1], user) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], seat, ARGV[2], user, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

_RELEASE_SEAT = """
if redis.call('HGET', KEYS[1], 's:' .. ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], 's:' .. ARGV[1], 'u:' .. ARGV[2])
end
return 0
"""

_RELEASE_KEY = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisClaims:
    """Claims in Redis: a hash per table (``{prefix}claim:seats:{table}``, Lua-checked) and a
    ``SET NX PX`` key per idempotency key (``{prefix}claim:key:{key}``)."""

    def __init__(self, redis: Redis, prefix: str = "dr:") -> None:
        self._redis = redis
        self._p = prefix
        self._claim_seat = redis.register_script(_CLAIM_SEAT)
        self._release_seat = redis.register_script(_RELEASE_SEAT)
        self._release_key = redis.register_script(_RELEASE_KEY)

    def _seats_key(self, table_id: str) -> str:
        return f"{self._p}claim:seats:{table_id}"

    def _table_key(self, key: str) -> str:
        return f"{self._p}claim:key:{key}"

    async def claim_seat(self, table_id: str, seat: int, user: str, *,
                         ttl_s: float = SEAT_TTL_S) -> bool:
        ms = max(1, round(ttl_s * 1000))
        return bool(await self._claim_seat(keys=[self._seats_key(table_id)],
                                           args=[int(seat), user, ms]))

    async def release_seat(self, table_id: str, seat: int, user: str) -> bool:
        return bool(await self._release_seat(keys=[self._seats_key(table_id)],
                                             args=[int(seat), user]))

    async def seat_holder(self, table_id: str, seat: int) -> str | None:
        return await self._redis.hget(self._seats_key(table_id), f"s:{int(seat)}")

    async def seats(self, table_id: str) -> dict[int, str]:
        raw = await self._redis.hgetall(self._seats_key(table_id))
        return {int(field[2:]): user for field, user in raw.items() if field.startswith("s:")}

    async def clear_table(self, table_id: str) -> None:
        await self._redis.delete(self._seats_key(table_id))

    async def claim_table_key(self, key: str, value: str = "1", *,
                              ttl_s: float = KEY_TTL_S) -> bool:
        ms = max(1, round(ttl_s * 1000))
        return bool(await self._redis.set(self._table_key(key), value, nx=True, px=ms))

    async def table_key_value(self, key: str) -> str | None:
        return await self._redis.get(self._table_key(key))

    async def release_table_key(self, key: str, value: str) -> bool:
        return bool(await self._release_key(keys=[self._table_key(key)], args=[value]))
