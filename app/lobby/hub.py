"""The live lobby feed: connections subscribed to the lobby get the open tables they may see
whenever a table opens, fills, starts or closes.

A change is computed once and fanned out by the feed's own task, never by the request or the
table actor that made the change: :meth:`LobbyHub.changed` (or the awaitable
:meth:`LobbyHub.publish`, for the callbacks) only marks the list stale and returns. The feed
then loads the open tables once for every subscriber (app/lobby/listing.py: a fixed number of
queries), encodes the public list once, sends those same bytes to every subscriber who sees
nothing else (every anonymous one), and builds a list of its own only for a person with a
private table, a table of their own or a seat. Changes that come while it works are folded
into the next round. The number of subscribers is bounded (``max_subscribers``); a new
subscriber gets the last list from the cache when it is anonymous.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from app import protocol
from app.lobby.listing import Listing
from app.lobby.service import Lobby, Viewer
from app.rooms.connection import Connection

log = logging.getLogger(__name__)


class LobbyHub:
    """Subscribers, the feed's sequence number and the task that fans changes out."""

    def __init__(self, lobby: Lobby, *, max_subscribers: int = 5000) -> None:
        self._lobby = lobby
        self._subscribers: dict[int, tuple[Connection, Viewer | None]] = {}
        self.max_subscribers = max_subscribers
        self.seq = 0
        self._stale = asyncio.Event()
        self._quiet = asyncio.Event()
        self._quiet.set()
        self._task: asyncio.Task[None] | None = None
        self._public: str | None = None  # the last public list, encoded (anonymous hellos)
        #: every open socket of a person in this process (lobby or table): live notices
        self._sockets: dict[int, dict[int, Connection]] = {}

    def track(self, conn: Connection) -> None:
        """A person's socket opened (any page): it receives their live notices."""
        if conn.user_id is not None:
            self._sockets.setdefault(conn.user_id, {})[conn.id] = conn

    def untrack(self, conn: Connection) -> None:
        """The socket closed."""
        sockets = self._sockets.get(conn.user_id) if conn.user_id is not None else None
        if sockets is not None:
            sockets.pop(conn.id, None)
            if not sockets:
                del self._sockets[conn.user_id]

    async def subscribe(self, conn: Connection, viewer: Viewer | None) -> bool:
        """Add a connection and send it the current list; False (and an ``error`` sent) when
        the lobby holds ``max_subscribers`` already."""
        if len(self._subscribers) >= self.max_subscribers:
            conn.send(protocol.dump(protocol.ErrorMessage(
                seq=self.seq, code="busy", message="the lobby is full; try again soon")))
            return False
        self._subscribers[conn.id] = (conn, viewer)
        if viewer is None and self._public is not None and not self._stale.is_set():
            conn.send(self._public)  # the shared cache: no query
        else:
            who = None if viewer is None else viewer.id
            listing = await self._lobby.listing(() if who is None else (who,))
            conn.send(protocol.dump(protocol.LobbyMessage(
                seq=self.seq, tables=listing.for_viewer(who), playing=listing.playing_at(who))))
        return True

    def unsubscribe(self, conn: Connection) -> None:
        self._subscribers.pop(conn.id, None)

    def changed(self, _table_id: int | None = None) -> None:
        """The open tables changed: the feed will send every subscriber the new list. Never
        waits (call it from requests and table actors)."""
        self._stale.set()
        self._quiet.clear()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._feed(), name="lobby-feed")

    async def publish(self, _table_id: int | None = None) -> None:
        """:meth:`changed`, as the awaitable callback the lobby and the rooms call."""
        self.changed()

    async def idle(self) -> None:
        """Wait until every change so far has been sent (tests and shutdown)."""
        await self._quiet.wait()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _feed(self) -> None:
        while self._stale.is_set():
            self._stale.clear()
            try:
                await self._send_round()
            except Exception:
                log.exception("the lobby feed failed; the next change tries again")
        self._quiet.set()

    async def _send_round(self) -> None:
        people = {viewer.id for conn, viewer in self._subscribers.values()
                  if viewer is not None and not conn.closed}
        listing = await self._lobby.listing(people)
        self.seq += 1
        public = protocol.encode(protocol.dump(protocol.LobbyMessage(
            seq=self.seq, tables=listing.for_viewer(None))))
        self._public = public
        own: dict[int, str] = {}
        for conn_id, (conn, viewer) in list(self._subscribers.items()):
            if conn.closed:
                self._subscribers.pop(conn_id, None)
                continue
            conn.send(self._message_for(listing, viewer, public, own))

    def _message_for(self, listing: Listing, viewer: Viewer | None, public: str,
                     own: dict[int, str]) -> str:
        """The encoded list for ``viewer``: the shared public text, or its own (once per
        person per round, shared by their tabs)."""
        if viewer is None or not listing.personal(viewer.id):
            return public
        if viewer.id not in own:
            own[viewer.id] = protocol.encode(protocol.dump(protocol.LobbyMessage(
                seq=self.seq, tables=listing.for_viewer(viewer.id),
                playing=listing.playing_at(viewer.id))))
        return own[viewer.id]

    def user_ids(self) -> set[int]:
        """Users with an open lobby connection (for online status)."""
        return {viewer.id for conn, viewer in self._subscribers.values()
                if viewer is not None and not conn.closed}

    async def notify(self, user_id: int, message: dict) -> int:
        """Send ``message`` (a dict with ``type``) to every connection of ``user_id`` in this
        process — lobby subscribers and tracked sockets of any page (:meth:`track`); returns
        how many got it. Live notices (app/lobby/notices.py)."""
        targets = {conn.id: conn for conn, viewer in self._subscribers.values()
                   if viewer is not None and viewer.id == user_id}
        targets.update(self._sockets.get(user_id, {}))
        sent = 0
        for conn in targets.values():
            if not conn.closed:
                conn.send({**message, "seq": self.seq})
                sent += 1
        return sent
