"""Tables across processes (REDIS_URL set): docs/scaling.md.

A table's actor runs in exactly one process, the holder of the table's lease (its *owner*).
Every process is also a *gateway* for the WebSockets it holds: the endpoint and the lobby talk
to a table through its :class:`Gateway` (``ClusterRooms.actor(id)``), which

- runs each command here when this process owns the table: the actor sees the socket's own
  :class:`Connection`, and its messages go straight to that socket's outbox, as with one
  process;
- otherwise sends it, in order, to the table's command channel; when no process received it
  (no owner), it takes the table over itself (``acquire`` the lease, rebuild from the event
  log) or retries shortly; meanwhile it subscribes to the table's event channel and hands
  every item addressed to one of its connections to it.

The owner (:class:`_Owned`) runs an ordinary :class:`TableActor`. A connection of another
process appears to it as a :class:`RemotePeer`, whose ``send``/``close`` queue the message
(JSON text, encoded once per audience by the actor) for the table's publisher task, which
publishes everything queued as one bus message ``{"items": [{"to": key, "m": text, "seq":
n, "close"?: true}, ...]}``. A table whose connections are all in its owner's process
publishes nothing.

**The owner follows the sockets.** When a connection of another process attaches to a table
whose owner holds none of its connections, the owner hands the table on to that process:
it drains its command channel (every command that reached it still runs), lets its actor run
what was queued and end quietly (``TableActor.release``), releases the lease and says
``{"moved": process}`` on the event channel; that process takes the table over at once. With
the load balancer sending every socket of a table to one process (deploy/nginx.conf hashes
the table id of ``/ws?table=``), each table ends up where its players are and runs as in one
process; with any other routing it stays correct, only slower.

Takeover: a new owner announces itself with ``{"owner": process_id}`` on the event channel;
every gateway then attaches its connections again (the new actor's new epoch: a snapshot).
A ``Gap`` (Redis reconnect, overflow) does the same. A sweeper takes over tables in play that
have no owner (only computer players or nobody connected).

Fencing: the lease is timing, the event log is the proof. A stale owner's append hits the
unique (round, idx) constraint; its actor drops the table (``TableActor.fenced``), and the
owner entry here is torn down. On lease loss the actor is dropped without a word to anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from app import protocol
from app.clock import Clock
from app.cluster import Cluster, Gap, LeaseRenewer, Subscription
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.connection import Connection, Peer, new_id
from app.rooms.manager import StoppedTable
from app.rooms.store import MatchStore

log = logging.getLogger(__name__)

#: seconds a table's owner waits for its publisher to send what its actor said, when it
#: drops the table
FLUSH_TIMEOUT = 1.0


class RemotePeer:
    """A connection of another process, as the owner's actor sees it (a
    :class:`app.rooms.connection.Peer`): ``key`` is its cluster-wide name, ``{process}/{id}``."""

    def __init__(self, key: str, user_id: int | None, publish: Callable[[dict], None],
                 deltas: bool = False) -> None:
        self.id = new_id()
        self.key = key
        self.user_id = user_id
        self.deltas = deltas
        self.closed = False
        self._publish = publish

    def send(self, message: dict[str, Any] | str) -> None:
        if not self.closed:
            self._publish({"to": self.key, "m": _text(message)})

    def close(self, message: dict[str, Any] | str | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        self._publish({"to": self.key, "m": None if message is None else _text(message),
                       "close": True})


def _text(message: dict[str, Any] | str) -> str:
    """A server message as the JSON text its socket is sent (the actor's audience messages
    are text already: passed on as they are, never decoded and encoded again)."""
    return message if isinstance(message, str) else protocol.encode(message)


class _Owned:
    """A table this process owns: its actor, command reader and publisher, and the peers
    (this process's connections themselves, the others' as :class:`RemotePeer`)."""

    def __init__(self, rooms: ClusterRooms, table_id: int, actor: TableActor) -> None:
        self.rooms, self.table_id, self.actor = rooms, table_id, actor
        self.key = str(table_id)
        self.local = f"{rooms.cluster.process_id}/"
        self.peers: dict[str, Peer] = {}
        self.outbox: list[dict[str, Any]] = []
        self._wake = asyncio.Event()
        self._publishing = False
        self.commands: Subscription | None = None
        self.tasks: list[asyncio.Task[None]] = []
        #: handing the table on (or shutting down): this process's commands go by the bus
        self.leaving = False
        #: being forgotten here (``dropped`` is set once the lease is released or lost)
        self.dropping = False
        self.dropped = asyncio.Event()

    # --- commands ----------------------------------------------------------------------------

    def handle(self, command: dict[str, Any]) -> None:
        """Run one command, from the bus or from this process's gateway. Raises KeyError or
        TypeError for a malformed one (the reader logs it)."""
        op, actor = command["op"], self.actor
        if op == "attach":
            key = command["conn"]
            old = self.peers.pop(key, None)
            if old is not None:  # a re-attach (resync): replace the old attachment
                actor.detach(old)
            peer = self._peer(command)
            if peer is None:
                return
            self.peers[key] = peer
            actor.attach(peer, command.get("last_seq"), command.get("epoch"))
            if not key.startswith(self.local) and not self._has_local():
                self.rooms.hand_on(self, key.split("/", 1)[0])
        elif op == "detach":
            gone = self.peers.pop(command["conn"], None)
            if gone is not None:
                actor.detach(gone)
        elif op == "act":
            peer = self.peers.get(command["conn"])
            if peer is None:  # e.g. right after a takeover, before the re-attach
                peer = self._peer(command)
                if peer is None:
                    return
                self.peers[command["conn"]] = peer
                actor.attach(peer, command.get("last_seq"), command.get("epoch"))
            actor.act(peer, command["action"])
        elif op == "seats":
            actor.seats_changed()
        elif op == "start":
            actor.start()
        elif op == "stop":
            actor.stop(command.get("reason", "table_closed"))
        else:
            log.warning("table %s: unknown command %r", self.table_id, op)

    def _peer(self, command: dict[str, Any]) -> Peer | None:
        """The peer a command's ``conn`` names: this process's own connection (None when it
        has closed meanwhile), or a RemotePeer."""
        key = command["conn"]
        if key.startswith(self.local):
            return self.rooms.local_connection(self.table_id, key)
        return RemotePeer(key, command.get("user"), self.publish, bool(command.get("deltas")))

    def _has_local(self) -> bool:
        return any(key.startswith(self.local) for key in self.peers)

    async def reader(self) -> None:
        """Commands from the bus, until the subscription ends (closed, or drained)."""
        assert self.commands is not None
        async for message in self.commands:
            if isinstance(message, Gap):
                log.warning("table %s: commands lost (%s)", self.table_id, message.reason)
                continue
            try:
                self.handle(message)
            except (KeyError, TypeError):
                log.warning("table %s: malformed command %r", self.table_id, message,
                            exc_info=True)

    # --- events to other processes -----------------------------------------------------------

    def publish(self, item: dict[str, Any]) -> None:
        item["seq"] = self.actor.seq
        self.outbox.append(item)
        self._wake.set()

    async def publisher(self) -> None:
        """Publish what was queued, as one bus message per wake-up (in order)."""
        bus = self.rooms.cluster.bus
        while True:
            await self._wake.wait()
            self._wake.clear()
            items, self.outbox = self.outbox, []
            if not items:
                continue
            self._publishing = True
            try:
                await bus.publish_event(self.key, {"items": items})
            except Exception:  # receivers resync on the next owner marker or gap
                log.exception("table %s: publishing %d items failed", self.table_id, len(items))
            finally:
                self._publishing = False

    async def flushed(self, timeout: float) -> None:
        """Wait (at most ``timeout`` s) until everything queued has been published."""
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(timeout):
                while self.outbox or self._publishing:
                    await asyncio.sleep(0.005)


class Gateway:
    """This process's handle of one table (shared by its connections there), the
    :class:`app.rooms.manager.TableHandle` of ``ClusterRooms.actor(id)``."""

    def __init__(self, rooms: ClusterRooms, table_id: int) -> None:
        self.rooms, self.table_id = rooms, table_id
        self.key = str(table_id)
        self._seq = 0
        self._conns: dict[str, Connection] = {}
        self._queue: deque[dict[str, Any]] = deque()
        self._sender: asyncio.Task[None] | None = None
        self._sending = False
        self._events: Subscription | None = None
        self._reader: asyncio.Task[None] | None = None
        self._owner: str | None = None

    @property
    def seq(self) -> int:
        """The table's latest seq as far as this process knows (for errors and closings)."""
        owned = self.rooms.serving(self.table_id)
        return owned.actor.seq if owned is not None else self._seq

    def _conn_key(self, conn: Connection) -> str:
        return f"{self.rooms.cluster.process_id}/{conn.id}"

    def connection(self, key: str) -> Connection | None:
        return self._conns.get(key)

    def _submit(self, command: dict[str, Any]) -> None:
        """Run here when this process owns the table and nothing is waiting to be sent
        (keeping the order), else queue for the bus."""
        owned = self.rooms.serving(self.table_id)
        if owned is not None and not self._queue and not self._sending:
            try:
                owned.handle(command)
            except (KeyError, TypeError):
                log.warning("table %s: malformed command %r", self.table_id, command)
            return
        self._queue.append(command)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(
                self._send_all(), name=f"gateway-{self.table_id}")

    # --- the handle's commands -------------------------------------------------------------

    def attach(self, conn: Connection, last_seq: int | None = None,
               epoch: str | None = None) -> None:
        key = self._conn_key(conn)
        self._conns[key] = conn
        self._submit({"op": "attach", "conn": key, "user": conn.user_id, "last_seq": last_seq,
                      "epoch": epoch, "deltas": conn.deltas})

    def detach(self, conn: Connection) -> None:
        key = self._conn_key(conn)
        if self._conns.pop(key, None) is not None:
            self._submit({"op": "detach", "conn": key})

    def act(self, conn: Connection, action: dict[str, Any]) -> None:
        self._submit({"op": "act", "conn": self._conn_key(conn), "user": conn.user_id,
                      "action": action, "deltas": conn.deltas})

    def seats_changed(self) -> None:
        self._submit({"op": "seats"})

    def start(self) -> None:
        self._submit({"op": "start"})

    def stop(self, reason: str = "shutdown") -> None:
        self._submit({"op": "stop", "reason": reason})

    # --- ownership here ----------------------------------------------------------------------

    def owner_here(self, owned: _Owned) -> None:
        """This process took the table over: attach every local connection to its actor."""
        self._owner = self.rooms.cluster.process_id
        for key, conn in list(self._conns.items()):
            owned.handle({"op": "attach", "conn": key, "user": conn.user_id,
                          "last_seq": None, "epoch": None, "deltas": conn.deltas})

    def owner_gone(self) -> None:
        """This process no longer runs the table: its connections attach wherever it runs
        next (through the bus; taking it over again if nobody else does)."""
        if self._owner == self.rooms.cluster.process_id:
            self._owner = None
        self._resync()

    # --- sending ---------------------------------------------------------------------------

    async def _send_all(self) -> None:
        while True:
            self._sending = True
            try:
                while self._queue:
                    command = self._queue.popleft()
                    if self._conns and self.rooms.serving(self.table_id) is None:
                        await self._subscribe()
                    await self._deliver(command)
            finally:
                self._sending = False
            if not self._conns and not self._queue:
                await self._unsubscribe()
            if not self._queue:  # else a command came while unsubscribing: send it too
                return

    async def _deliver(self, command: dict[str, Any]) -> None:
        """Run here if the table is (or becomes) ours; else send until the owner received
        it, taking the table over when nobody owns it."""
        rooms = self.rooms
        loop = asyncio.get_running_loop()
        deadline = loop.time() + rooms.move_timeout
        while True:
            owned = rooms.serving(self.table_id)
            if owned is not None:
                try:
                    owned.handle(command)
                except (KeyError, TypeError):
                    log.warning("table %s: malformed command %r", self.table_id, command)
                return
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
            moved = message.get("moved")
            if moved is not None:
                if moved == self.rooms.cluster.process_id:
                    try:
                        await self.rooms.take_over(self.table_id)
                    except Exception:  # the sweeper or the next command tries again
                        log.exception("table %s: taking over after a move failed",
                                      self.table_id)
                continue
            for item in message.get("items", ()):
                self._receive(item)

    def _receive(self, item: dict[str, Any]) -> None:
        owner = item.get("owner")
        if owner is not None:
            if owner != self._owner:
                self._owner = owner
                if owner != self.rooms.cluster.process_id:
                    self._resync()
            return
        key = item.get("to")
        conn = self._conns.get(key) if isinstance(key, str) else None
        if conn is None:
            return
        self._seq = max(self._seq, item.get("seq") or 0)
        text = item.get("m")
        if item.get("close"):
            if text is not None:
                conn.send(text)
            conn.close()
            self._conns.pop(str(key), None)
        elif text is not None:
            conn.send(text)

    def _resync(self) -> None:
        """Attach every local connection again (a new owner, or lost messages): the owner
        answers with a snapshot."""
        for key, conn in list(self._conns.items()):
            self._submit({"op": "attach", "conn": key, "user": conn.user_id,
                          "last_seq": None, "epoch": None, "deltas": conn.deltas})

    def close_local(self, reason: str) -> None:
        """Tell this process's connections at the table to reconnect (shutdown)."""
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
        self._handles: dict[int, Gateway] = {}
        #: takeovers under way (concurrent callers share one)
        self._taking: dict[int, asyncio.Task[bool]] = {}
        self._renewer = LeaseRenewer(cluster.leases, cluster.process_id, lease_ttl,
                                     self._lease_lost)
        self._sweeper: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._closing = False
        #: how many tables this process owned when the shutdown began (None: not shut down)
        self.stopped_at_shutdown: int | None = None

    # --- Rooms -----------------------------------------------------------------------------

    def actor(self, table_id: int) -> Gateway | StoppedTable:
        """The table's gateway here; once :meth:`shutdown` has begun, a StoppedTable."""
        if self._closing:
            return StoppedTable()
        handle = self._handles.get(table_id)
        if handle is None:
            handle = self._handles[table_id] = Gateway(self, table_id)
        return handle

    def running(self, table_id: int) -> Gateway | None:
        """The table's gateway if this process runs its actor now, else None (a finished
        table run by another process is then served from the stored log, without a rematch)."""
        if self.serving(table_id) is None or self._closing:
            return None
        handle = self.actor(table_id)
        return handle if isinstance(handle, Gateway) else None

    def serving(self, table_id: int) -> _Owned | None:
        """The table as this process owns it, unless it is being handed on."""
        owned = self._owned.get(table_id)
        return owned if owned is not None and not owned.leaving else None

    def local_connection(self, table_id: int, key: str) -> Connection | None:
        handle = self._handles.get(table_id)
        return handle.connection(key) if handle is not None else None

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
        """Hand the tables on: every owned table drains its commands and ends quietly, its
        lease released (another process takes it over at once), and this process's
        connections are told to reconnect. ``stopped_at_shutdown`` keeps how many it owned
        (the first call's count)."""
        if not self._closing:
            self.stopped_at_shutdown = self.count()
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for handle in self._handles.values():
            handle.close_local("shutdown")
        await asyncio.gather(*(self._hand_on(owned, None) for owned in list(self._owned.values())))
        await self._renewer.stop()
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
        """Take over every table in play without an owner; returns those taken. One query
        for the tables in play, one call for their owners."""
        candidates = [t for t in await self.store.playing_tables() if t not in self._owned]
        owners = await self.cluster.leases.owners([str(t) for t in candidates])
        taken = []
        for table_id, owner in zip(candidates, owners, strict=True):
            if owner is None and not self._closing and await self.take_over(table_id):
                taken.append(table_id)
        return taken

    async def take_over(self, table_id: int) -> bool:
        """Own the table if nobody else does: lease, rebuild from the log, serve commands.
        Returns whether this process runs it now. Concurrent calls share one attempt."""
        if self._closing:
            return False
        owned = self._owned.get(table_id)
        if owned is not None:
            return not owned.leaving
        attempt = self._taking.get(table_id)
        if attempt is None:
            attempt = self._taking[table_id] = asyncio.get_running_loop().create_task(
                self._take_over(table_id), name=f"take-over-{table_id}")
            attempt.add_done_callback(lambda _t: self._taking.pop(table_id, None))
        return await asyncio.shield(attempt)

    async def _take_over(self, table_id: int) -> bool:
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
        self._renewer.add(key)
        actor_task = loop.create_task(actor.run(), name=f"table-{table_id}")
        owned.tasks = [actor_task,
                       loop.create_task(owned.reader(), name=f"table-cmd-{table_id}"),
                       loop.create_task(owned.publisher(), name=f"table-pub-{table_id}")]
        actor_task.add_done_callback(
            lambda _t: self._spawn(self._drop(table_id, owned=owned, release=True)))
        handle = self._handles.get(table_id)
        if handle is not None:
            handle.owner_here(owned)
        owned.publish({"owner": pid})
        log.info("table %s: owned by %s", table_id, pid)
        return True

    def hand_on(self, owned: _Owned, to: str) -> None:
        """Hand the table on to process ``to``, whose connection just attached while this
        process holds none of the table's (the owner follows the sockets)."""
        if not owned.leaving and not self._closing:
            self._spawn(self._hand_on(owned, to))

    async def _hand_on(self, owned: _Owned, to: str | None) -> None:
        """Drain the commands (each that reached this process still runs), let the actor run
        what was queued and end quietly, release the lease, and tell ``to`` (if any) to take
        the table over."""
        if owned.leaving:
            await owned.dropped.wait()
            return
        owned.leaving = True
        table_id = owned.table_id
        try:
            if owned.commands is not None:
                await owned.commands.drain()
            reader = owned.tasks[1] if len(owned.tasks) > 1 else None
            if reader is not None:
                await asyncio.wait([reader], timeout=self.move_timeout)
            owned.actor.release()
            await asyncio.wait_for(owned.actor.stopped.wait(), self.move_timeout)
        except Exception:
            log.exception("table %s: handing on failed; dropping it", table_id)
        await self._drop(table_id, owned=owned, release=True)
        await owned.dropped.wait()
        if to is not None:
            with contextlib.suppress(Exception):
                await self.cluster.bus.publish_event(owned.key, {"moved": to})
            log.info("table %s: handed on to %s", table_id, to)

    def _lease_lost(self, key: str) -> Coroutine[Any, Any, None]:
        return self._drop(int(key), release=False)

    async def _drop(self, table_id: int, *, owned: _Owned | None = None,
                    release: bool = True) -> None:
        """Forget an owned table without telling its connections (handed on, lease lost,
        fenced, ended, or shutdown); this process's connections attach where it runs next.
        The entry stays (``leaving``: no takeover here) until the lease is released, so a
        new takeover by this process cannot be undone by the old one's release."""
        current = self._owned.get(table_id)
        if current is None or (owned is not None and current is not owned):
            return
        if current.dropping:
            await current.dropped.wait()
            return
        current.dropping = current.leaving = True
        try:
            await current.flushed(FLUSH_TIMEOUT)  # what the actor already said (table_closed)
            for task in current.tasks:
                task.cancel()
            if current.commands is not None:
                with contextlib.suppress(Exception):
                    await current.commands.close()
            await self._renewer.remove(current.key,
                                       release=release and not current.actor.fenced)
        finally:
            if self._owned.get(table_id) is current:
                del self._owned[table_id]
            current.dropped.set()
        handle = self._handles.get(table_id)
        if handle is not None and not self._closing:
            handle.owner_gone()

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _changed(self, table_id: int) -> None:
        if self.on_change is not None:
            await self.on_change(table_id)

    async def _rematch(self, table_id: int, seats: list[int]) -> int:
        if self.on_rematch is None:
            raise RuntimeError("no lobby to open a rematch")
        return await self.on_rematch(table_id, seats)
