"""One client connection as the actors see it: an identity and a bounded outbox.

Actors never await a socket. With a ``write`` (the WebSocket endpoint's send), ``send`` writes
the message at once, in the caller's turn of the event loop: the socket's send completes
without waiting unless the client stopped reading (flow control). Only then does the rest of
that send, and every message after it, go through the outbox, which the endpoint's writer
task drains in order. Without a ``write`` (tests) every message waits in the outbox. A client
too slow to keep up (outbox full) is closed with reason ``overflow``.

Writing at once spares each message a wake-up of the writer task and the future it waits on
(at full speed about a tenth of the server's CPU per action, much of it the collector walking
those futures: docs/performance.md).

A message is a JSON-ready dict, or a ``str`` already encoded as JSON (the table actor encodes
each audience's message once and hands every connection of that audience the same string).
``deltas``: the client asked for events as patches (``hello.deltas``, docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Coroutine
from typing import Any

_ids = itertools.count(1)

Message = dict[str, Any] | str
#: the socket's send of one message (encoded JSON as text, or a dict to encode)
Write = Callable[[Message], Coroutine[Any, Any, None]]


class Unfinished:
    """A send that began at once and then had to wait (the client is not reading): the
    writer task finishes it, as an asyncio task would, before the messages queued after it."""

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        self._coro, self._waiting = coro, waiting

    async def finish(self) -> None:
        """Resume the send each time what it waits on is done, until it returns (its error,
        if any, is raised here)."""
        coro, waiting = self._coro, self._waiting
        while True:
            if waiting is None:  # a bare yield (asyncio.sleep(0))
                await asyncio.sleep(0)
            else:
                waiting._asyncio_future_blocking = False
                await asyncio.wait((waiting,))
            try:
                waiting = coro.send(None)
            except StopIteration:
                return


class Connection:
    """A connected client: ``user_id`` (None for an anonymous spectator) and its outbox."""

    def __init__(self, user_id: int | None, *, outbox_size: int = 256,
                 deltas: bool = False, write: Write | None = None) -> None:
        self.id = next(_ids)
        self.user_id = user_id
        self.deltas = deltas
        self._outbox: asyncio.Queue[Message | Unfinished | None] = asyncio.Queue(outbox_size)
        self._write = write
        #: the writer task has (or is writing) messages: later ones queue behind them
        self._behind = False
        self.closed = False

    def send(self, message: Message) -> None:
        """Write a server message at once, or queue it behind those waiting (dropped once
        closed; closes the connection when the outbox is full)."""
        if self.closed:
            return
        if self._write is not None and not self._behind:
            self._write_now(message)
            return
        try:
            self._outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.closed = True
            self._force(None)

    def _write_now(self, message: Message) -> None:
        """Run the socket's send until it completes or first waits; a send that waits is
        handed to the writer task (:class:`Unfinished`), and later messages queue behind it."""
        coro = self._write(message)  # type: ignore[misc]
        try:
            waiting = coro.send(None)
        except StopIteration:
            return
        except Exception:  # the socket is gone: the writer task ends the connection
            self.closed = True
            self._force(None)
            return
        self._behind = True
        self._outbox.put_nowait(Unfinished(coro, waiting))  # the outbox was empty

    def close(self, message: dict[str, Any] | None = None) -> None:
        """Queue a last message (if any), then the end of the stream."""
        if self.closed:
            return
        if message is not None:
            self.send(message)
        self.closed = True
        self._force(None)

    def _force(self, item: dict[str, Any] | None) -> None:
        while True:
            try:
                self._outbox.put_nowait(item)
                return
            except asyncio.QueueFull:
                self._outbox.get_nowait()

    async def receive(self) -> Message | Unfinished | None:
        """The next message to write to the client (or a send to finish); None when the server
        closed it. Asked for with nothing queued, later messages are written at once again."""
        if self._outbox.empty():
            self._behind = False
        return await self._outbox.get()

    def pending(self) -> list[dict[str, Any]]:
        """Take every queued message without waiting, encoded ones decoded (tests)."""
        items = []
        while not self._outbox.empty():
            item = self._outbox.get_nowait()
            if isinstance(item, dict | str):
                items.append(json.loads(item) if isinstance(item, str) else item)
        return items
