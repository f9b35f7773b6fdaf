"""The live lobby feed: connections subscribed to the lobby get the open tables they may see
whenever a table opens, fills, starts or closes."""

from __future__ import annotations

from app import protocol
from app.lobby.service import Lobby, Viewer
from app.rooms.connection import Connection


class LobbyHub:
    """Subscribers and the feed's sequence number."""

    def __init__(self, lobby: Lobby) -> None:
        self._lobby = lobby
        self._subscribers: dict[int, tuple[Connection, Viewer | None]] = {}
        self.seq = 0

    async def subscribe(self, conn: Connection, viewer: Viewer | None) -> None:
        """Add a connection and send it the current list."""
        self._subscribers[conn.id] = (conn, viewer)
        await self._send(conn, viewer)

    def unsubscribe(self, conn: Connection) -> None:
        self._subscribers.pop(conn.id, None)

    async def publish(self, _table_id: int | None = None) -> None:
        """Send every subscriber its list again (one new seq)."""
        self.seq += 1
        for conn, viewer in list(self._subscribers.values()):
            if conn.closed:
                self.unsubscribe(conn)
                continue
            await self._send(conn, viewer)

    async def _send(self, conn: Connection, viewer: Viewer | None) -> None:
        tables = await self._lobby.open_tables(viewer)
        conn.send(protocol.dump(protocol.LobbyMessage(seq=self.seq, tables=tables)))
