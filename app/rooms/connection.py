"""One client connection as the actors see it: an identity and a bounded outbox.

Actors never await a socket: ``send`` puts the message in the outbox and the WebSocket endpoint
drains it. A client too slow to keep up (outbox full) is closed with reason ``overflow``.

A message is a JSON-ready dict, or a ``str`` already encoded as JSON (the table actor encodes
each audience's message once and hands every connection of that audience the same string).
``deltas``: the client asked for events as patches (``hello.deltas``, docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque
from typing import Any, Protocol

_ids = itertools.count(1)


def new_id() -> int:
    """A connection id no other client of this process has (:class:`Connection` and
    app.rooms.cluster.RemotePeer draw from the same count: one actor may hold both)."""
    return next(_ids)


class Peer(Protocol):
    """A client as a table actor sees it (``TableActor.attach``/``detach``/``act``): a
    :class:`Connection` of this process or, with REDIS_URL, a connection of another process
    (app.rooms.cluster.RemotePeer).

    A protocol, not a class to inherit from: the actor is compiled by mypyc
    (app/compiled.py), which checks a native class at every call from Python code but erases
    a protocol, so any object with these members may cross (tests/test_compiled_boundary.py).
    ``id``: unique among this process's clients; ``user_id``: None for an anonymous
    spectator; ``deltas``: it takes events as patches (docs/protocol.md)."""

    @property
    def id(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def deltas(self) -> bool: ...

    @property
    def closed(self) -> bool: ...

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a server message (a JSON-ready dict, or JSON text encoded once)."""

    def close(self, message: dict[str, Any] | str | None = None) -> None:
        """Queue a last message (if any), then the end of the stream."""


class Connection:
    """A connected client: ``user_id`` (None for an anonymous spectator) and its outbox.

    The outbox is a deque and at most one bare future, made only while the writer waits on
    an empty outbox (an ``asyncio.Queue`` added its ``get`` coroutine and waiter bookkeeping
    to every wait: benchmarks/outbox.py, docs/performance.md)."""

    def __init__(self, user_id: int | None, *, outbox_size: int = 256,
                 deltas: bool = False) -> None:
        self.id = new_id()
        self.user_id = user_id
        self.deltas = deltas
        self._outbox: deque[dict[str, Any] | str | None] = deque()
        self._size = outbox_size
        #: the writer's wait for the next message (None: it is not waiting)
        self._waiter: asyncio.Future[None] | None = None
        self.closed = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a server message (dropped once closed; closes the connection when full)."""
        if self.closed:
            return
        if len(self._outbox) >= self._size:
            self.closed = True
            self._force(None)
        else:
            self._put(message)

    def close(self, message: dict[str, Any] | str | None = None) -> None:
        """Queue a last message (if any), then the end of the stream."""
        if self.closed:
            return
        if message is not None:
            self.send(message)
        self.closed = True
        self._force(None)

    def _force(self, item: dict[str, Any] | str | None) -> None:
        """Queue ``item``, dropping the oldest messages to make room."""
        while len(self._outbox) >= self._size:
            self._outbox.popleft()
        self._put(item)

    def _put(self, item: dict[str, Any] | str | None) -> None:
        self._outbox.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def receive(self) -> dict[str, Any] | str | None:
        """The next message to write to the client; None when the server closed it."""
        while not self._outbox:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._outbox.popleft()

    def take(self) -> list[dict[str, Any] | str | None]:
        """Take every queued message as queued, without waiting (tests, benchmarks)."""
        items = list(self._outbox)
        self._outbox.clear()
        return items

    def pending(self) -> list[dict[str, Any]]:
        """Take every queued message without waiting, encoded ones decoded (tests)."""
        return [json.loads(item) if isinstance(item, str) else item
                for item in self.take() if item is not None]
