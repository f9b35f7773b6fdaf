"""Who is in which chat room, for the WebSocket endpoint: the lobby feed is room ``lobby``,
a table is room ``table:<id>``. Members are connections with the author name of their user
(None: an anonymous watcher, who reads but cannot post)."""

from __future__ import annotations

from typing import Any

from app.chat.service import LOBBY, ChatLine, ChatService
from app.rooms.connection import Connection


def table_room(table_id: int) -> str:
    return f"table:{table_id}"


def line_json(line: ChatLine) -> dict[str, Any]:
    """A chat line as sent to clients: raw text (clients set it with textContent)."""
    return {"id": line.id, "author": line.author, "text": line.text, "at": line.at}


class ChatRooms:
    """Connections per chat room, and delivery of lines to those allowed to see them."""

    def __init__(self, chat: ChatService) -> None:
        self.chat = chat
        self._members: dict[str, dict[int, tuple[Connection, str | None]]] = {}
        self._room_of: dict[int, str] = {}

    def join(self, room: str, conn: Connection, name: str | None) -> list[ChatLine]:
        """Put ``conn`` in ``room`` (leaving its old room); returns the history it may see."""
        self.leave(conn)
        self._members.setdefault(room, {})[conn.id] = (conn, name)
        self._room_of[conn.id] = room
        return self.chat.history(room, name or "") if name else [
            line for line in self.chat.history(room, "") if self.chat.visible_to(line, "")]

    def leave(self, conn: Connection) -> None:
        room = self._room_of.pop(conn.id, None)
        if room is not None:
            members = self._members.get(room, {})
            members.pop(conn.id, None)
            if not members:
                self._members.pop(room, None)

    def room_of(self, conn: Connection) -> str | None:
        return self._room_of.get(conn.id)

    def deliver(self, line: ChatLine, message_for) -> int:
        """Send ``message_for(line)`` to every member who may see the line; returns how many."""
        sent = 0
        for conn, name in list(self._members.get(line.room, {}).values()):
            if self.chat.visible_to(line, name or ""):
                conn.send(message_for(line))
                sent += 1
        return sent


__all__ = ["LOBBY", "ChatRooms", "line_json", "table_room"]
