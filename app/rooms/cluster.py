"""Tables across processes (REDIS_URL set): docs/scaling.md.

A table's actor runs in exactly one process, the holder of the table's lease (its *owner*).
Every process is also a *gateway* for the WebSockets it holds. The gateway never touches an
actor directly: it talks to the table through a :class:`RemoteTable` handle, which

- sends the connection's commands (``attach``, ``detach``, ``act``) and the lobby's
  (``seats``, ``start``, ``stop``) to the table's command channel, in order, one at a time;
  when no process received a command (no owner), it tries to take the table over itself
  (``acquire`` the lease, rebuild from the event log) and otherwise retries shortly;
- subscribes to the table's event channel while it has local connections, and hands every
  message addressed to one of them (``to``: the connection's cluster-wide key) to it.

The owner (:class:`_Owned`) runs an ordinary :class:`TableActor`. Connections of any process
appear to it as :class:`RemotePeer` objects whose ``send``/``close`` queue the message, in
order, for the table's publisher task, which publishes everything queued as one bus message
``{"items": [{"to": key, "m": message, "close"?: true}, ...]}``. The views are computed once
per seat by the actor (one message per audience per seq, as in one process); each gateway
picks the items of its own connections.

Takeover: a new owner announces itself with ``{"owner": process_id}`` on the event channel;
every gateway then re-attaches its connections with their last ``seq``/``epoch`` (new epoch:
a snapshot). A ``Gap`` (Redis reconnect, overflow) does the same. A sweeper takes over tables
in play that have no owner (only computer players or nobody connected).

Fencing: the lease is timing, the event log is the proof. A stale owner's append hits the
unique (round, idx) constraint; its actor drops the table (``TableActor.fenced``), and the
owner entry here is torn down. On lease loss the actor is dropped without a word to anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from app.clock import Clock
from app.cluster import Cluster, Gap, LeaseRenewer, Subscription
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.connection import Connection
from app.rooms.store import MatchStore

log = logging.getLogger(__name__)


class RemotePeer:
    """A connection (on any process) as the owner's actor sees it."""

    def __init__(self, key: str, user_id: int | None, publish: Callable[[dict], None],
                 deltas: bool = False) -> None:
        self.id = key
        self.user_id = user_id
        self.deltas = deltas
        self.closed = False
        self._publish = publish

    def send(self, message: dict[str, Any] | str) -> None:
        if not self.closed:
            # the actor's encoded messages are decoded here: the bus message carries them
            # as JSON values, and the gateway reads their seq/epoch
            self._publish({"to": self.id, "m": _decoded(message)})

    def close(self, message: dict[str, Any] | str | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        self._publish({"to": self.id, "m": _decoded(message), "close": True})


def _decoded(message: dict[str, Any] | str | None) -> dict[str, Any] | None:
    return json.loads(message) if isinstance(message, str) else message


class _Owned:
    """A table this process owns: its actor, command reader, publisher and lease renewer."""

    def __init__(self, rooms: ClusterRooms, table_id: int, actor: TableActor) -> None:
        self.rooms, self.table_id, self.actor = rooms, table_id, actor
        self.key = str(table_id)
        self.peers: dict[str, RemotePeer] = {}
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.commands: Subscription | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.renewer: LeaseRenewer | None = None

    def publish(self, item: dict[str, Any]) -> None:
        self.outbox.put_nowait(item)

    async def publisher(self) -> None:
        bus = self.rooms.cluster.bus
        while True:
            items = [await self.outbox.get()]
            while not self.outbox.empty():
                items.append(self.outbox.get_nowait())
            try:
                await bus.publish_event(self.key, {"items": items})
            except Exception:  # receivers resync on the next owner marker or gap
                log.exception("table %s: publishing %d items failed", self.table_id, len(items))

    def _peer(self, message: dict[str, Any]) -> RemotePeer:
        key = message["conn"]
        peer = self.peers.get(key)
        if peer is None:
            peer = self.peers[key] = RemotePeer(key, message.get("user"), self.publish,
                                                bool(message.get("deltas")))
        return peer

    async def reader(self) -> None:
        assert self.commands is not None
        actor = self.actor
        async for message in self.commands:
            if isinstance(message, Gap):
                log.warning("table %s: commands lost (%s)", self.table_id, message.reason)
                continue
            op = message.get("op")
            try:
                if op == "attach":
                    peer = self.peers.get(message["conn"])
                    if peer is not None:  # a re-attach (resync): replace the old attachment
                        actor.detach(peer)
                        del self.peers[message["conn"]]
                    actor.attach(self._peer(message), message.get("last_seq"),
                                 message.get("epoch"))
                elif op == "detach":
                    peer = self.peers.pop(message["conn"], None)
                    if peer is not None:
                        actor.detach(peer)
                elif op == "act":
                    known = message["conn"] in self.peers
                    peer = self._peer(message)
                    if not known:  # e.g. right after a takeover, before the re-attach
                        actor.attach(peer, message.get("last_seq"), message.get("epoch"))
                    actor.act(peer, message["action"])
                elif op == "seats":
                    actor.seats_changed()
                elif op == "start":
                    actor.start()
                elif op == "stop":
                    actor.stop(message.get("reason", "table_closed"))
                else:
                    log.warning("table %s: unknown command %r", self.table_id, op)
            except (KeyError, TypeError):
                log.warning("table %s: malformed command %r", self.table_id, message)


class RemoteTable:
    """The gateway's handle of one table (shared by this process's connections at it)."""

    def __init__(self, rooms: ClusterRooms, table_id: int) -> None:
        self.rooms, self.table_id = rooms, table_id
        self.key = str(table_id)
        self.seq = 0
        self._conns: dict[str, Connection] = {}
        self._last: dict[str, tuple[int | None, str | None]] = {}
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._events: Subscription | None = None
        self._reader: asyncio.Task[None] | None = None
        self._owner: str | None = None

    def _conn_key(self, conn: Connection) -> str:
        return f"{self.rooms.cluster.process_id}/{conn.id}"

    def _enqueue(self, command: dict[str, Any]) -> None:
        self._queue.put_nowait(command)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(
                self._send_all(), name=f"gateway-{self.table_id}")

    # --- the handle's commands -------------------------------------------------------------

    def attach(self, conn: Connection, last_seq: int | None = None,
               epoch: str | None = None) -> None:
        key = self._conn_key(conn)
        self._conns[key] = conn
        self._last[key] = (last_seq, epoch)
        self._enqueue({"op": "attach", "conn": key, "user": conn.user_id, "last_seq": last_seq,
                       "epoch": epoch, "deltas": conn.deltas})

    def detach(self, conn: Connection) -> None:
        key = self._conn_key(conn)
        if self._conns.pop(key, None) is not None:
            self._last.pop(key, None)
            self._enqueue({"op": "detach", "conn": key})

    def act(self, conn: Connection, action: dict[str, Any]) -> None:
        key = self._conn_key(conn)
        last_seq, epoch = self._last.get(key, (None, None))
        self._enqueue({"op": "act", "conn": key, "user": conn.user_id, "action": action,
                       "last_seq": last_seq, "epoch": epoch, "deltas": conn.deltas})

    def seats_changed(self) -> None:
        self._enqueue({"op": "seats"})

    def start(self) -> None:
        self._enqueue({"op": "start"})

    def stop(self, reason: str = "shutdown") -> None:
        self._enqueue({"op": "stop", "reason": reason})

    # --- sending ---------------------------------------------------------------------------

    async def _send_all(self) -> None:
        while not self._queue.empty():
            command = self._queue.get_nowait()
            if self._conns:
                await self._subscribe()
            await self._deliver(command)
            if not self._conns and self._queue.empty():
                await self._unsubscribe()

    async def _deliver(self, command: dict[str, Any]) -> None:
        """Send until the owner received it; take the table over when nobody owns it."""
        rooms = self.rooms
        loop = asyncio.get_running_loop()
        deadline = loop.time() + rooms.move_timeout
        while True:
            try:
                if await rooms.cluster.bus.send_command(self.key, command) > 0:
                    return
            except Exception:
                log.warning("table %s: sending %s failed", self.table_id, command.get("op"),
                            exc_info=True)
            if command["op"] in ("stop", "detach"):
                return  # nobody runs the table: nothing to stop or detach from
            if await rooms.take_over(self.table_id):
                continue
            if loop.time() > deadline:
                log.warning("table %s: no owner for %.0f s; dropping %s", self.table_id,
                            rooms.move_timeout, command.get("op"))
                return
            await asyncio.sleep(rooms.retry_interval)

    # --- receiving -------------------------------------------------------------------------

    async def _subscribe(self) -> None:
        if self._events is None or self._events.closed:
            self._events = await self.rooms.cluster.bus.events(self.key)
            self._reader = asyncio.get_running_loop().create_task(
                self._read(self._events), name=f"gateway-events-{self.table_id}")

    async def _unsubscribe(self) -> None:
        events, self._events = self._events, None
        if events is not None:
            await events.close()

    async def _read(self, events: Subscription) -> None:
        async for message in events:
            if isinstance(message, Gap):
                self._resync()
                continue
            for item in message.get("items", ()):
                owner = item.get("owner")
                if owner is not None:
                    if owner != self._owner:
                        self._owner = owner
                        self._resync()
                    continue
                key = item.get("to")
                conn = self._conns.get(key) if key else None
                if conn is None:
                    continue
                body = item.get("m")
                if body is not None and "seq" in body:
                    self.seq = body["seq"]
                    if "epoch" in body:
                        self._last[key] = (body["seq"], body["epoch"])
                if item.get("close"):
                    conn.close(body)
                    self._conns.pop(key, None)
                    self._last.pop(key, None)
                elif body is not None:
                    conn.send(body)

    def _resync(self) -> None:
        """Attach every local connection again, from its last seq (a new owner, or lost
        messages): the owner answers with what was missed or a snapshot."""
        for key, conn in list(self._conns.items()):
            last_seq, epoch = self._last.get(key, (None, None))
            self._enqueue({"op": "attach", "conn": key, "user": conn.user_id,
                           "last_seq": last_seq, "epoch": epoch, "deltas": conn.deltas})

    def close_local(self, reason: str) -> None:
        """Tell this process's connections at the table to reconnect (shutdown)."""
        from app import protocol

        for conn in self._conns.values():
            conn.close(protocol.dump(protocol.Closed(seq=self.seq, reason=reason,
                                                     reconnect=reason == "shutdown")))
        self._conns.clear()

    async def aclose(self) -> None:
        for task in (self._sender, self._reader):
            if task is not None:
                task.cancel()
        await self._unsubscribe()


class ClusterRooms:
    """:class:`app.rooms.manager.Rooms` over the cluster services (Redis or in-process)."""

    def __init__(self, store: MatchStore, clock: Clock, config: ActorConfig, cluster: Cluster,
                 *, lease_ttl: float = 10.0, sweep_interval: float = 5.0,
                 move_timeout: float = 30.0, retry_interval: float = 0.1,
                 rng_factory: Callable[[int], random.Random] | None = None,
                 on_change: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.store, self._clock, self._config, self.cluster = store, clock, config, cluster
        self.lease_ttl, self.sweep_interval = lease_ttl, sweep_interval
        self.move_timeout, self.retry_interval = move_timeout, retry_interval
        self._rng_factory = rng_factory
        self.on_change = on_change
        self.on_rematch: Callable[[int, list[int]], Awaitable[int]] | None = None
        self._owned: dict[int, _Owned] = {}
        self._handles: dict[int, RemoteTable] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False

    # --- Rooms -----------------------------------------------------------------------------

    def actor(self, table_id: int) -> RemoteTable:
        handle = self._handles.get(table_id)
        if handle is None:
            handle = self._handles[table_id] = RemoteTable(self, table_id)
        return handle

    def running(self, table_id: int) -> RemoteTable | None:
        """The table's handle if this process runs its actor now, else None (a finished table
        run by another process is then served from the stored log, without a rematch)."""
        owned = self._owned.get(table_id)
        return self.actor(table_id) if owned is not None else None

    def count(self) -> int:
        """Tables owned (run) by this process."""
        return len(self._owned)

    def owns(self, table_id: int) -> bool:
        return table_id in self._owned

    async def rebuild(self) -> list[int]:
        """Take over the tables in play that have no owner, and keep doing so (the sweeper).
        With Redis away this logs and returns []: the sweeper keeps trying."""
        try:
            taken = await self.sweep()
        except Exception:
            log.exception("taking over the tables in play failed; the sweeper retries")
            taken = []
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(),
                                                                   name="table-sweeper")
        return taken

    def close_table(self, table_id: int) -> None:
        self.actor(table_id).stop("table_closed")

    async def shutdown(self) -> None:
        """Hand the tables on: stop owning them (leases released, so another process takes
        over at once) and tell this process's connections to reconnect."""
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for handle in self._handles.values():
            handle.close_local("shutdown")
        for table_id in list(self._owned):
            await self._drop(table_id, release=True)
        for handle in self._handles.values():
            await handle.aclose()
        self._handles.clear()

    # --- owning ----------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping for ownerless tables failed")

    async def sweep(self) -> list[int]:
        """Take over every table in play without an owner; returns those taken."""
        taken = []
        for table_id in await self.store.playing_tables():
            if table_id in self._owned or self._closing:
                continue
            if await self.cluster.leases.owner_of(str(table_id)) is None:
                if await self.take_over(table_id):
                    taken.append(table_id)
        return taken

    async def take_over(self, table_id: int) -> bool:
        """Own the table if nobody else does: lease, rebuild from the log, serve commands."""
        if self._closing:
            return False
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            if table_id in self._owned:
                return True
            key, pid = str(table_id), self.cluster.process_id
            if not await self.cluster.leases.acquire(key, pid, self.lease_ttl):
                return False
            rng = self._rng_factory(table_id) if self._rng_factory else None
            actor = TableActor(table_id, self.store, self._clock, self._config, rng,
                               on_change=self._changed, on_rematch=self._rematch)
            owned = _Owned(self, table_id, actor)
            try:
                owned.commands = await self.cluster.bus.commands(key)
            except Exception:
                await self.cluster.leases.release(key, pid)
                raise
            loop = asyncio.get_running_loop()
            self._owned[table_id] = owned
            actor_task = loop.create_task(actor.run(), name=f"table-{table_id}")
            owned.tasks = [actor_task,
                           loop.create_task(owned.reader(), name=f"table-cmd-{table_id}"),
                           loop.create_task(owned.publisher(), name=f"table-pub-{table_id}")]
            actor_task.add_done_callback(
                lambda _t: loop.create_task(self._drop(table_id, owned=owned, release=True)))
            owned.renewer = LeaseRenewer(self.cluster.leases, key, pid, self.lease_ttl,
                                         on_lost=lambda _k: self._drop(table_id, owned=owned,
                                                                       release=False))
            owned.renewer.start()
            owned.publish({"owner": pid})
            log.info("table %s: owned by %s", table_id, pid)
            return True

    async def _drop(self, table_id: int, *, owned: _Owned | None = None,
                    release: bool = True) -> None:
        """Forget an owned table without telling anyone (lease lost, fenced, or shutdown)."""
        current = self._owned.get(table_id)
        if current is None or (owned is not None and current is not owned):
            return
        del self._owned[table_id]
        # let the publisher flush what the actor already said (e.g. table_closed)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(_drained(current.outbox), 1.0)
        for task in current.tasks:
            task.cancel()
        if current.commands is not None:
            with contextlib.suppress(Exception):
                await current.commands.close()
        if current.renewer is not None:
            renewer = current.renewer
            if asyncio.current_task() is not renewer._task:
                await renewer.stop(release=release and not current.actor.fenced)

    async def _changed(self, table_id: int) -> None:
        if self.on_change is not None:
            await self.on_change(table_id)

    async def _rematch(self, table_id: int, seats: list[int]) -> int:
        if self.on_rematch is None:
            raise RuntimeError("no lobby to open a rematch")
        return await self.on_rematch(table_id, seats)


async def _drained(queue: asyncio.Queue) -> None:
    while not queue.empty():
        await asyncio.sleep(0.01)
