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
from typing import Any

_ids = itertools.count(1)


class Connection:
    """A connected client: ``user_id`` (None for an anonymous spectator) and its outbox."""

    def __init__(self, user_id: int | None, *, outbox_size: int = 256,
                 deltas: bool = False) -> None:
        self.id = next(_ids)
        self.user_id = user_id
        self.deltas = deltas
        self._outbox: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(outbox_size)
        self.closed = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a server message (dropped once closed; closes the connection when full)."""
        if self.closed:
            return
        try:
            self._outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.closed = True
            self._force(None)

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

    async def receive(self) -> dict[str, Any] | str | None:
        """The next message to write to the client; None when the server closed it."""
        return await self._outbox.get()

    def pending(self) -> list[dict[str, Any]]:
        """Take every queued message without waiting, encoded ones decoded (tests)."""
        items = []
        while not self._outbox.empty():
            item = self._outbox.get_nowait()
            if item is not None:
                items.append(json.loads(item) if isinstance(item, str) else item)
        return items
