"""The lobby's shared state: open tables, online presence, matchmaking tickets (and the
cluster's lock, app.cluster.locks, for the matchmaking tick).

Built over the cluster services (:func:`make_registry`): in Redis when the cluster is, else in
this process. The cluster package knows nothing of the lobby's types; the lobby brings them.

- **Open tables**: a hash per listed table (its lobby card: game, preset, seats taken ...,
  each field JSON-encoded so numbers stay numbers) plus a sorted set of table ids by a score
  the caller chooses (creation time: the lobby lists oldest first or newest first). The
  owner of a table lists it, updates it on seat changes and unlists it when it starts or
  closes; after a failover the new owner lists it again.
- **Presence**: who is online. Each process heartbeats its connected users with a TTL; a
  user is online while any heartbeat is unexpired (a sorted set scored by expiry; on Redis
  the expiry runs on the Redis server's clock, so process clocks do not matter).
- **Matchmaking tickets**: the waiting people of the "Play now" queues
  (:class:`app.lobby.matchmaking.Ticket`), one per player at most across all processes.
  One process at a time runs :func:`app.lobby.matchmaking.plan_queue` over them, under
  :meth:`LobbyRegistry.lock` ("matchmaking"), and removes the tickets of each table it forms.
  ``joined_at`` must come from a clock all processes share (``time.time()``), not
  ``time.monotonic()``, which is per process.
- **Lock**: :meth:`LobbyRegistry.lock` is the cluster's named lock with a TTL
  (app.cluster.locks), for short critical sections across processes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from redis.asyncio import Redis

from app.cluster.factory import Cluster
from app.cluster.locks import InProcessLocks, Locks, RedisLocks
from app.lobby.matchmaking import AlreadyQueued, QueueKey, Ticket
from app.ratings.model import PlayerId, Rating

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A lobby card: the table, its fields, and its listing score."""

    table_id: str
    info: dict[str, Any]
    score: float


def ticket_to_json(ticket: Ticket) -> str:
    return json.dumps({
        "player": ticket.player,
        "key": [ticket.key.game, ticket.key.preset, ticket.key.seats],
        "rating": [ticket.rating.mu, ticket.rating.sigma],
        "joined_at": ticket.joined_at,
        "number": ticket.number,
    }, separators=(",", ":"))


def ticket_from_json(text: str) -> Ticket:
    data = json.loads(text)
    game, preset, seats = data["key"]
    mu, sigma = data["rating"]
    return Ticket(data["player"], QueueKey(game, preset, seats), Rating(mu, sigma),
                  data["joined_at"], data["number"])


def _player_field(player: PlayerId) -> str:
    # JSON keeps 5 and "5" apart; player ids must be JSON values (ints or strings).
    return json.dumps(player)


def _already_queued(existing: Ticket) -> AlreadyQueued:
    return AlreadyQueued(f"already waiting for {existing.key.game} ({existing.key.preset}); "
                         "leave that queue first")


def _in_join_order(tickets: Iterable[Ticket], key: QueueKey | None) -> list[Ticket]:
    chosen = [t for t in tickets if key is None or t.key == key]
    return sorted(chosen, key=lambda t: (t.joined_at, t.number))


@runtime_checkable
class LobbyRegistry(Protocol):
    # Open tables
    async def list_table(self, table_id: str, info: Mapping[str, Any], score: float) -> None:
        """List (or re-list, replacing the fields) an open table."""
        ...

    async def update_table(self, table_id: str, changes: Mapping[str, Any]) -> bool:
        """Change some fields of a listed table; False (and nothing written) if not listed."""
        ...

    async def unlist_table(self, table_id: str) -> bool: ...

    async def open_table(self, table_id: str) -> OpenTable | None: ...

    async def open_tables(self, *, offset: int = 0, limit: int = 100,
                          newest_first: bool = False) -> list[OpenTable]: ...

    async def count_open_tables(self) -> int: ...

    # Presence (user ids as strings)
    async def heartbeat(self, user: str, ttl_s: float) -> None:
        """Mark ``user`` online for ``ttl_s`` more seconds (never shortens a longer one)."""
        ...

    async def heartbeat_many(self, users: Sequence[str], ttl_s: float) -> None:
        """:meth:`heartbeat` for each of ``users``, in one call (a process's whole list)."""
        ...

    async def set_offline(self, user: str) -> None: ...

    async def is_online(self, user: str) -> bool: ...

    async def online_users(self) -> set[str]: ...

    # Matchmaking tickets
    async def add_ticket(self, player: PlayerId, key: QueueKey, rating: Rating,
                         joined_at: float) -> Ticket:
        """Queue ``player``; raises AlreadyQueued if they wait anywhere (in any process)."""
        ...

    async def remove_ticket(self, player: PlayerId) -> Ticket | None: ...

    async def remove_tickets(self, players: Iterable[PlayerId]) -> list[Ticket]:
        """Take the players' tickets out (a table formed); returns those that were there."""
        ...

    async def ticket(self, player: PlayerId) -> Ticket | None: ...

    async def tickets(self, key: QueueKey | None = None) -> list[Ticket]:
        """The waiting tickets (of one queue, or all), in join order."""
        ...

    # Lock
    def lock(self, name: str, ttl_s: float, *,
             wait_s: float | None = None) -> Any:
        """``async with registry.lock(name, ttl_s, wait_s=...)``: mutual exclusion across
        processes. The lock frees itself after ``ttl_s`` if its holder dies. Raises
        LockNotAcquired after ``wait_s`` (None: wait for ever; 0: try once) and LockLost on
        exit when the TTL ran out inside the section."""
        ...


class InProcessRegistry:
    """The lobby state in dicts; expiry (presence, lock TTL) on an injected clock."""

    def __init__(self, clock: Clock = time.monotonic, *, locks: Locks | None = None) -> None:
        self._clock = clock
        self._locks = locks if locks is not None else InProcessLocks(clock)
        self._tables: dict[str, OpenTable] = {}
        self._presence: dict[str, float] = {}
        self._tickets: dict[str, Ticket] = {}
        self._numbers = 0

    async def list_table(self, table_id: str, info: Mapping[str, Any], score: float) -> None:
        self._tables[table_id] = OpenTable(table_id, json.loads(json.dumps(dict(info))),
                                           float(score))

    async def update_table(self, table_id: str, changes: Mapping[str, Any]) -> bool:
        table = self._tables.get(table_id)
        if table is None:
            return False
        info = {**table.info, **json.loads(json.dumps(dict(changes)))}
        self._tables[table_id] = OpenTable(table_id, info, table.score)
        return True

    async def unlist_table(self, table_id: str) -> bool:
        return self._tables.pop(table_id, None) is not None

    async def open_table(self, table_id: str) -> OpenTable | None:
        return self._tables.get(table_id)

    async def open_tables(self, *, offset: int = 0, limit: int = 100,
                          newest_first: bool = False) -> list[OpenTable]:
        ordered = sorted(self._tables.values(), key=lambda t: (t.score, t.table_id),
                         reverse=newest_first)
        return ordered[offset:offset + limit]

    async def count_open_tables(self) -> int:
        return len(self._tables)

    async def heartbeat(self, user: str, ttl_s: float) -> None:
        until = self._clock() + ttl_s
        self._presence[user] = max(until, self._presence.get(user, until))

    async def heartbeat_many(self, users: Sequence[str], ttl_s: float) -> None:
        for user in users:
            await self.heartbeat(user, ttl_s)

    async def set_offline(self, user: str) -> None:
        self._presence.pop(user, None)

    async def is_online(self, user: str) -> bool:
        return self._presence.get(user, float("-inf")) > self._clock()

    async def online_users(self) -> set[str]:
        now = self._clock()
        for user in [u for u, until in self._presence.items() if until <= now]:
            del self._presence[user]
        return set(self._presence)

    async def add_ticket(self, player: PlayerId, key: QueueKey, rating: Rating,
                         joined_at: float) -> Ticket:
        field = _player_field(player)
        existing = self._tickets.get(field)
        if existing is not None:
            raise _already_queued(existing)
        self._numbers += 1
        ticket = Ticket(player, key, rating, joined_at, self._numbers)
        self._tickets[field] = ticket
        return ticket

    async def remove_ticket(self, player: PlayerId) -> Ticket | None:
        return self._tickets.pop(_player_field(player), None)

    async def remove_tickets(self, players: Iterable[PlayerId]) -> list[Ticket]:
        removed = [self._tickets.pop(_player_field(p), None) for p in players]
        return [t for t in removed if t is not None]

    async def ticket(self, player: PlayerId) -> Ticket | None:
        return self._tickets.get(_player_field(player))

    async def tickets(self, key: QueueKey | None = None) -> list[Ticket]:
        return _in_join_order(self._tickets.values(), key)

    def lock(self, name: str, ttl_s: float, *, wait_s: float | None = None) -> Any:
        return self._locks.lock(name, ttl_s, wait_s=wait_s)


_HEARTBEAT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], 'GT', now + tonumber(ARGV[2]), ARGV[1])
return 1
"""

#: ARGV[1]: ms to live; ARGV[2..]: users
_HEARTBEAT_MANY = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local until_ms = now + tonumber(ARGV[1])
local args = {}
for i = 2, #ARGV do
  args[#args + 1] = until_ms
  args[#args + 1] = ARGV[i]
end
if #args > 0 then redis.call('ZADD', KEYS[1], 'GT', unpack(args)) end
return #ARGV - 1
"""

#: users per heartbeat_many script call (Lua's unpack takes a few thousand values at most)
HEARTBEAT_BATCH = 1000

_IS_ONLINE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = redis.call('ZSCORE', KEYS[1], ARGV[1])
if until_ms and tonumber(until_ms) > now then return 1 end
return 0
"""

_ONLINE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
"""

_UPDATE_TABLE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""


class RedisRegistry:
    """The lobby state in Redis (keys under ``{prefix}lobby:``, ``{prefix}presence``,
    ``{prefix}mm:``; the lock's ``{prefix}lock:``). ``redis`` must use ``decode_responses=True``."""

    def __init__(self, redis: Redis, prefix: str = "dr:", *, locks: Locks | None = None) -> None:
        self._redis = redis
        self._p = prefix
        self._locks = locks if locks is not None else RedisLocks(redis, prefix)
        self._tables_key = f"{prefix}lobby:tables"
        self._presence_key = f"{prefix}presence"
        self._tickets_key = f"{prefix}mm:tickets"
        self._numbers_key = f"{prefix}mm:number"
        self._heartbeat = redis.register_script(_HEARTBEAT)
        self._heartbeat_many = redis.register_script(_HEARTBEAT_MANY)
        self._is_online = redis.register_script(_IS_ONLINE)
        self._online = redis.register_script(_ONLINE)
        self._update = redis.register_script(_UPDATE_TABLE)

    def _table_key(self, table_id: str) -> str:
        return f"{self._p}lobby:table:{table_id}"

    # Open tables ---------------------------------------------------------------------------

    async def list_table(self, table_id: str, info: Mapping[str, Any], score: float) -> None:
        key = self._table_key(table_id)
        fields = {name: json.dumps(value) for name, value in info.items()}
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            if fields:
                pipe.hset(key, mapping=fields)
            else:  # an empty card still has to exist
                pipe.hset(key, "_", "null")
            pipe.zadd(self._tables_key, {table_id: float(score)})
            await pipe.execute()

    async def update_table(self, table_id: str, changes: Mapping[str, Any]) -> bool:
        if not changes:
            return bool(await self._redis.exists(self._table_key(table_id)))
        args: list[str] = []
        for name, value in changes.items():
            args += [name, json.dumps(value)]
        return bool(await self._update(keys=[self._table_key(table_id)], args=args))

    async def unlist_table(self, table_id: str) -> bool:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._table_key(table_id))
            pipe.zrem(self._tables_key, table_id)
            deleted, removed = await pipe.execute()
        return bool(deleted or removed)

    @staticmethod
    def _card(table_id: str, raw: Mapping[str, str], score: float) -> OpenTable:
        info = {name: json.loads(value) for name, value in raw.items() if name != "_"}
        return OpenTable(table_id, info, score)

    async def open_table(self, table_id: str) -> OpenTable | None:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(self._table_key(table_id))
            pipe.zscore(self._tables_key, table_id)
            raw, score = await pipe.execute()
        if not raw or score is None:
            return None
        return self._card(table_id, raw, float(score))

    async def open_tables(self, *, offset: int = 0, limit: int = 100,
                          newest_first: bool = False) -> list[OpenTable]:
        if limit <= 0:
            return []
        ranked = await self._redis.zrange(self._tables_key, offset, offset + limit - 1,
                                          desc=newest_first, withscores=True)
        if not ranked:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for table_id, _ in ranked:
                pipe.hgetall(self._table_key(table_id))
            cards = await pipe.execute()
        return [self._card(table_id, raw, float(score))
                for (table_id, score), raw in zip(ranked, cards, strict=True) if raw]

    async def count_open_tables(self) -> int:
        return int(await self._redis.zcard(self._tables_key))

    # Presence ------------------------------------------------------------------------------

    async def heartbeat(self, user: str, ttl_s: float) -> None:
        ms = max(1, round(ttl_s * 1000))
        await self._heartbeat(keys=[self._presence_key], args=[user, ms])

    async def heartbeat_many(self, users: Sequence[str], ttl_s: float) -> None:
        ms = max(1, round(ttl_s * 1000))
        for start in range(0, len(users), HEARTBEAT_BATCH):
            await self._heartbeat_many(keys=[self._presence_key],
                                       args=[ms, *users[start:start + HEARTBEAT_BATCH]])

    async def set_offline(self, user: str) -> None:
        await self._redis.zrem(self._presence_key, user)

    async def is_online(self, user: str) -> bool:
        return bool(await self._is_online(keys=[self._presence_key], args=[user]))

    async def online_users(self) -> set[str]:
        return set(await self._online(keys=[self._presence_key]))

    # Matchmaking tickets -------------------------------------------------------------------

    async def add_ticket(self, player: PlayerId, key: QueueKey, rating: Rating,
                         joined_at: float) -> Ticket:
        field = _player_field(player)
        number = int(await self._redis.incr(self._numbers_key))  # gaps are harmless
        ticket = Ticket(player, key, rating, joined_at, number)
        if await self._redis.hsetnx(self._tickets_key, field, ticket_to_json(ticket)):
            return ticket
        existing = await self.ticket(player)
        if existing is None:  # it left meanwhile: try once more
            return await self.add_ticket(player, key, rating, joined_at)
        raise _already_queued(existing)

    async def remove_ticket(self, player: PlayerId) -> Ticket | None:
        removed = await self.remove_tickets([player])
        return removed[0] if removed else None

    async def remove_tickets(self, players: Iterable[PlayerId]) -> list[Ticket]:
        fields = [_player_field(p) for p in players]
        if not fields:
            return []
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hmget(self._tickets_key, fields)
            pipe.hdel(self._tickets_key, *fields)
            raw, _ = await pipe.execute()
        return [ticket_from_json(text) for text in raw if text is not None]

    async def ticket(self, player: PlayerId) -> Ticket | None:
        text = await self._redis.hget(self._tickets_key, _player_field(player))
        return None if text is None else ticket_from_json(text)

    async def tickets(self, key: QueueKey | None = None) -> list[Ticket]:
        raw = await self._redis.hvals(self._tickets_key)
        return _in_join_order((ticket_from_json(text) for text in raw), key)

    # Lock ----------------------------------------------------------------------------------

    def lock(self, name: str, ttl_s: float, *, wait_s: float | None = None) -> Any:
        return self._locks.lock(name, ttl_s, wait_s=wait_s)


def make_registry(cluster: Cluster) -> LobbyRegistry:
    """The lobby's registry over ``cluster``: in Redis (its connections, key prefix and lock)
    when the cluster is distributed, else in this process (on the cluster's clock)."""
    if cluster.redis is not None:
        return RedisRegistry(cluster.redis, cluster.prefix, locks=cluster.locks)
    return InProcessRegistry(cluster.clock, locks=cluster.locks)
