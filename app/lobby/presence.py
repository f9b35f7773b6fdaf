"""Online status: a user is online while they have an open WebSocket, to the lobby feed or to
a table. Read from the lobby hub's subscribers and the table actors' connections of this
process (one process; with several, presence would go where the Redis fan-out is)."""

from __future__ import annotations

from app.lobby.hub import LobbyHub
from app.rooms.manager import RoomManager


def online_users(hub: LobbyHub, rooms: RoomManager) -> set[int]:
    """Ids of the users with a live connection in this process."""
    online = hub.user_ids()
    for actor in list(getattr(rooms, "_actors", {}).values()):
        for conn, _seat in list(getattr(actor, "_conns", {}).values()):
            if conn.user_id is not None and not conn.closed:
                online.add(conn.user_id)
    return online
