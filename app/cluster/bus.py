"""The room bus: commands to a table's owner, events to every process at the table.

Two channels per table:

- the **command channel** ``table:{id}:cmd`` — the process holding a player's WebSocket sends
  the player's commands (play a card, take a seat, resync ...) to the process that owns the
  table (the lease holder, :mod:`app.cluster.leases`); only the owner subscribes;
- the **event channel** ``table:{id}:evt`` — the owner publishes every room event (already
  written to the event log, carrying the table's ``seq``) and every process holding
  connections at that table subscribes and fans the events out to its sockets.

Messages are JSON objects (``dict``); each subscriber gets its own decoded copy.

Ordering. Messages on one channel reach every subscriber in the order they were published
by one publisher. Redis pub/sub keeps that order per publishing *connection*, so the Redis
bus publishes from one dedicated connection per process behind a FIFO lock: the order of
``await publish...`` calls in a process is the order on the wire. A table has one event
publisher (its owner), so a table's events arrive in seq order everywhere. Commands from two
different processes to the same table have no order between them (nor do they need one: the
owner serialises them in its room actor); commands from one process arrive in send order.

Loss. Redis pub/sub is fire-and-forget: a message published while a subscriber's connection
is down, or to a channel nobody subscribes to, is gone. The bus makes loss visible instead
of silent: after its subscriber connection reconnects (and the channel is subscribed again)
and when a slow consumer overflows its buffer, each affected subscription receives a
:class:`Gap` marker. On a Gap in an event subscription the gateway resyncs its clients from
a snapshot (the room layer resumes by seq; events also carry ``seq``, so a client that sees
``seq`` jump asks for a snapshot on its own). The send/publish calls return how many
processes received the message: 0 for a command means the table has no owner right now —
the caller checks the lease and takes the table over (docs/scaling.md, "Failover").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)

Message = dict[str, Any]
Kind = Literal["cmd", "evt"]

#: Messages a subscription buffers before it discards its backlog and reports a Gap.
DEFAULT_LIMIT = 10_000


@dataclass(frozen=True, slots=True)
class Gap:
    """Messages may have been lost before this point ("reconnected" or "overflow")."""

    reason: str


class SubscriptionClosed(Exception):
    """The subscription (or the whole bus) was closed."""


def encode(message: Message) -> str:
    """A bus message as JSON text (orjson: the owner encodes every batch of a table's events
    for other processes; raises TypeError for anything but a JSON object)."""
    if not isinstance(message, dict):
        raise TypeError(f"bus messages are JSON objects, not {type(message).__name__}")
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Subscription:
    """One consumer of one table channel: ``await sub.get()`` or ``async for msg in sub``.

    Yields message dicts and :class:`Gap` markers, in order. Buffers up to ``limit``
    messages; beyond that the backlog is dropped and replaced by ``Gap("overflow")``.
    """

    def __init__(self, bus: _BaseBus, table_id: str, kind: Kind, limit: int) -> None:
        self.table_id = table_id
        self.kind = kind
        self._bus = bus
        self._limit = limit
        self._items: deque[Message | Gap] = deque()
        self._ready = asyncio.Event()
        self._closed = False

    @property
    def channel(self) -> str:
        return self._bus.channel(self.table_id, self.kind)

    @property
    def closed(self) -> bool:
        return self._closed

    def pending(self) -> int:
        """How many messages wait in the buffer."""
        return len(self._items)

    def _deliver(self, item: Message | Gap) -> None:
        if self._closed:
            return
        if len(self._items) >= self._limit:
            self._items.clear()
            self._items.append(Gap("overflow"))
        self._items.append(item)
        self._ready.set()

    def _end(self, *, keep: bool = False) -> None:
        """No more messages; ``keep``: what is buffered is still read, then the end."""
        self._closed = True
        if not keep:
            self._items.clear()
        self._ready.set()

    async def get(self) -> Message | Gap:
        """The next message or Gap; raises SubscriptionClosed once closed."""
        while not self._items:
            if self._closed:
                raise SubscriptionClosed(self.channel)
            self._ready.clear()
            await self._ready.wait()
        return self._items.popleft()

    def __aiter__(self) -> AsyncIterator[Message | Gap]:
        return self

    async def __anext__(self) -> Message | Gap:
        try:
            return await self.get()
        except SubscriptionClosed:
            raise StopAsyncIteration from None

    async def close(self) -> None:
        """Stop receiving; the channel is unsubscribed when its last local consumer closes."""
        if self._closed:
            return
        self._end()
        await self._bus._drop(self)

    async def drain(self) -> None:
        """Stop receiving without losing what was sent before: once this returns, every
        message published before the channel was unsubscribed is in the buffer, and the
        consumer reads them before the end (a table's owner hands the table on: commands
        that reached it are still run). Redis confirms the unsubscribe after the messages
        published before it, on the same connection."""
        if self._closed:
            return
        await self._bus._drop(self, confirm=True)
        self._end(keep=True)


@runtime_checkable
class RoomBus(Protocol):
    async def send_command(self, table_id: str, message: Message) -> int:
        """Send ``message`` to the owner of ``table_id``; return the number of processes
        that received it (0: no owner is listening)."""
        ...

    async def publish_event(self, table_id: str, message: Message) -> int:
        """Publish a room event to every process subscribed to the table's events."""
        ...

    async def commands(self, table_id: str, *, limit: int = DEFAULT_LIMIT) -> Subscription:
        """Subscribe to the table's commands (the owner does, after taking the lease).
        Every command sent after this returns is delivered."""
        ...

    async def events(self, table_id: str, *, limit: int = DEFAULT_LIMIT) -> Subscription:
        """Subscribe to the table's events. Every event published after this returns is
        delivered (barring a Gap)."""
        ...

    async def close(self) -> None: ...


class _BaseBus:
    def __init__(self, prefix: str) -> None:
        self._prefix = prefix
        self._subs: dict[str, set[Subscription]] = {}

    def channel(self, table_id: str, kind: Kind) -> str:
        return f"{self._prefix}table:{table_id}:{kind}"

    def _fan_out(self, channel: str, payload: str) -> int:
        subs = self._subs.get(channel)
        if not subs:
            return 0
        for sub in list(subs):
            sub._deliver(orjson.loads(payload))
        return 1

    async def _drop(self, sub: Subscription, *, confirm: bool = False) -> None:
        """Forget ``sub``; unsubscribe its channel when it was the last consumer (with
        ``confirm``, wait until the unsubscribe is in effect)."""
        raise NotImplementedError


class InProcessRoomBus(_BaseBus):
    """The bus inside one process: a buffer per subscription, filled synchronously on publish
    (so order is the order of the publish calls). Payloads still go through JSON, so a
    message that Redis could not carry fails here too."""

    def __init__(self, prefix: str = "dr:") -> None:
        super().__init__(prefix)
        self._closed = False

    async def send_command(self, table_id: str, message: Message) -> int:
        return self._fan_out(self.channel(table_id, "cmd"), encode(message))

    async def publish_event(self, table_id: str, message: Message) -> int:
        return self._fan_out(self.channel(table_id, "evt"), encode(message))

    async def commands(self, table_id: str, *, limit: int = DEFAULT_LIMIT) -> Subscription:
        return self._subscribe(table_id, "cmd", limit)

    async def events(self, table_id: str, *, limit: int = DEFAULT_LIMIT) -> Subscription:
        return self._subscribe(table_id, "evt", limit)

    def _subscribe(self, table_id: str, kind: Kind, limit: int) -> Subscription:
        if self._closed:
            raise SubscriptionClosed("the bus is closed")
        sub = Subscription(self, table_id, kind, limit)
        self._subs.setdefault(sub.channel, set()).add(sub)
        return sub

    async def _drop(self, sub: Subscription, *, confirm: bool = False) -> None:
        subs = self._subs.get(sub.channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.channel]

    async def close(self) -> None:
        self._closed = True
        for subs in list(self._subs.values()):
            for sub in subs:
                sub._end()
        self._subs.clear()


class RedisRoomBus(_BaseBus):
    """The bus over Redis pub/sub.

    One subscriber connection per process (a redis-py ``PubSub``) read by one task, which
    dispatches to the local subscriptions by channel; channels are subscribed when their
    first local consumer appears and unsubscribed when the last one closes. One publisher
    connection per process (``single_connection_client``: redis-py serialises its commands
    behind a FIFO lock), which is what keeps the publish order.

    ``redis`` must be created with ``decode_responses=True``; the bus borrows two connections
    from its pool and returns them on :meth:`close`.
    """

    def __init__(
        self, redis: Redis, prefix: str = "dr:", *, subscribe_timeout_s: float = 5.0
    ) -> None:
        super().__init__(prefix)
        self._redis = redis
        self._publisher = Redis(connection_pool=redis.connection_pool,
                                single_connection_client=True)
        self._pubsub: PubSub = redis.pubsub()
        self._subscribe_timeout_s = subscribe_timeout_s
        self._lock = asyncio.Lock()  # subscribe/unsubscribe bookkeeping
        self._confirmed: dict[str, asyncio.Event] = {}
        #: channels being unsubscribed, set when Redis confirms it (Subscription.drain)
        self._unsubscribed: dict[str, asyncio.Event] = {}
        self._resync: set[str] = set()  # channels resubscribed after a reconnect
        self._reader: asyncio.Task[None] | None = None
        self._watching: object | None = None  # the connection our reconnect hook is on
        self._closed = False
        #: How many times the subscriber connection was re-established (for metrics/tests).
        self.reconnects = 0

    async def send_command(self, table_id: str, message: Message) -> int:
        return int(await self._publisher.publish(self.channel(table_id, "cmd"), encode(message)))

    async def publish_event(self, table_id: str, message: Message) -> int:
        return int(await self._publisher.publish(self.channel(table_id, "evt"), encode(message)))

    async def commands(self, table_id: str, *, limit: int = DEFAULT_LIMIT) -> Subscription:
        return await self._subscribe(table_id, "cmd", limit)

    async def events(self, table_id: str, *, limit: int = DEFAULT_LIMIT) -> Subscription:
        return await self._subscribe(table_id, "evt", limit)

    async def _subscribe(self, table_id: str, kind: Kind, limit: int) -> Subscription:
        if self._closed:
            raise SubscriptionClosed("the bus is closed")
        sub = Subscription(self, table_id, kind, limit)
        channel = sub.channel
        async with self._lock:
            subs = self._subs.setdefault(channel, set())
            first = not subs
            subs.add(sub)
            if first:
                confirmed = self._confirmed[channel] = asyncio.Event()
                try:
                    await self._pubsub.subscribe(channel)
                except BaseException:
                    subs.discard(sub)
                    if not subs:
                        del self._subs[channel]
                        self._confirmed.pop(channel, None)
                    raise
                self._watch_connection()
                self._ensure_reader()
            else:
                confirmed = self._confirmed[channel]
        try:
            # Redis confirms a SUBSCRIBE once it is in effect: from then on nothing is missed.
            await asyncio.wait_for(confirmed.wait(), self._subscribe_timeout_s)
        except BaseException:
            await sub.close()
            raise
        return sub

    async def _drop(self, sub: Subscription, *, confirm: bool = False) -> None:
        channel = sub.channel
        async with self._lock:
            subs = self._subs.get(channel)
            if subs is None:
                return
            if confirm and len(subs) == 1:
                # the last consumer drains: it still receives until Redis confirms
                done = self._unsubscribed[channel] = asyncio.Event()
                with contextlib.suppress(Exception):  # a dead connection forgets it anyway
                    await self._pubsub.unsubscribe(channel)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(done.wait(), self._subscribe_timeout_s)
                self._unsubscribed.pop(channel, None)
            subs.discard(sub)
            if subs or self._closed:
                return
            del self._subs[channel]
            self._confirmed.pop(channel, None)
            self._resync.discard(channel)
            if not confirm:
                with contextlib.suppress(Exception):  # a dead connection forgets it anyway
                    await self._pubsub.unsubscribe(channel)

    def _watch_connection(self) -> None:
        connection = self._pubsub.connection
        if connection is not None and connection is not self._watching:
            # Called on every (re)connect after this one; redis-py's own callback, registered
            # first, has already re-sent SUBSCRIBE for every channel by then.
            connection.register_connect_callback(self._on_reconnect)
            self._watching = connection

    async def _on_reconnect(self, connection: object) -> None:
        self.reconnects += 1
        log.warning("room bus: subscriber connection re-established; messages may be lost")
        for channel in self._subs:
            self._resync.add(channel)
            event = self._confirmed.get(channel)
            if event is not None:
                event.clear()

    def _ensure_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read(), name="room-bus-reader")

    async def _read(self) -> None:
        backoff = 0.05
        while not self._closed:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # redis-py reconnects (and resubscribes) on the next read
                log.warning("room bus: reading the subscriber connection failed: %r", exc)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.05
            if message is None:
                continue
            kind, channel = message["type"], message["channel"]
            if kind == "message":
                self._fan_out(channel, message["data"])
            elif kind == "unsubscribe":
                done = self._unsubscribed.get(channel)
                if done is not None:
                    done.set()
            elif kind == "subscribe":
                event = self._confirmed.get(channel)
                if event is not None:
                    event.set()
                if channel in self._resync:
                    self._resync.discard(channel)
                    for sub in list(self._subs.get(channel, ())):
                        sub._deliver(Gap("reconnected"))

    async def close(self) -> None:
        self._closed = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        for subs in list(self._subs.values()):
            for sub in subs:
                sub._end()
        self._subs.clear()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._publisher.aclose()


class SeqGuard:
    """Checks one table's event seqs on the receiving side (a gateway, per table).

    ``check(seq)`` says ``"next"`` for the expected event (and advances), ``"stale"`` for one
    already seen (a duplicate, or an event older than the snapshot the client got: drop it)
    and ``"gap"`` when events are missing (resync the table's clients from a snapshot, then
    :meth:`reset` to the snapshot's seq). A :class:`Gap` from the bus means the same as
    ``"gap"``. ``last`` is None until the first event or snapshot: then anything is "next".
    """

    def __init__(self, last: int | None = None) -> None:
        self.last = last

    def check(self, seq: int) -> Literal["next", "stale", "gap"]:
        if self.last is None or seq == self.last + 1:
            self.last = seq
            return "next"
        if seq <= self.last:
            return "stale"
        return "gap"

    def reset(self, seq: int | None) -> None:
        self.last = seq
