"""The WebSocket endpoint ``/ws`` (docs/protocol.md).

One socket serves one page: after ``hello`` it is attached to a table's actor (as the user's
seat, or as a spectator) or to the lobby feed. The endpoint checks the Origin, the size and the
schema of every frame; the actor checks the rules. Messages to the client are written by a
separate task from the connection's outbox, so a slow client never stalls a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app import protocol
from app.api.deps import services_of, user_of, viewer
from app.lobby.service import LobbyError
from app.rooms.actor import TableActor
from app.rooms.connection import Connection

router = APIRouter()
log = logging.getLogger(__name__)


def origin_allowed(ws: WebSocket, allowed: list[str]) -> bool:
    """Same host as the request, or listed in ALLOWED_ORIGINS. No Origin (non-browser): ok."""
    origin = ws.headers.get("origin")
    if origin is None or "*" in allowed or origin in allowed:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


def _error(seq: int, code: str, message: str) -> dict:
    return protocol.dump(protocol.ErrorMessage(seq=seq, code=code, message=message))


async def _write(ws: WebSocket, conn: Connection) -> None:
    while True:
        message = await conn.receive()
        if message is None:
            with contextlib.suppress(Exception):
                await ws.close(code=1000)
            return
        await ws.send_json(message)


@router.websocket("/ws")
async def websocket(ws: WebSocket) -> None:
    services = services_of(ws)
    if not origin_allowed(ws, services.settings.allowed_origins):
        await ws.close(code=1008)
        return
    user = await user_of(ws)
    await ws.accept()
    conn = Connection(user.id if user else None)
    writer = asyncio.create_task(_write(ws, conn))
    actor: TableActor | None = None
    limit = services.settings.ws_max_message
    try:
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", "replace")
            seq = actor.seq if actor else services.hub.seq
            if len(text.encode()) > limit:
                conn.send(_error(seq, "too_large", f"messages are limited to {limit} bytes"))
                continue
            try:
                message = protocol.parse_client(text)
            except protocol.ProtocolError as err:
                conn.send(_error(seq, "bad_message", str(err)))
                continue
            if isinstance(message, protocol.Ping):
                conn.send(protocol.dump(protocol.Pong(seq=seq)))
            elif isinstance(message, protocol.Hello):
                actor = await _hello(services, conn, user, message, actor)
            elif actor is None:
                conn.send(_error(seq, "not_seated", "say hello to a table first"))
            else:
                actor.act(conn, message.action)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("websocket failed")
    finally:
        services.hub.unsubscribe(conn)
        if actor is not None:
            actor.detach(conn)
        conn.closed = True
        writer.cancel()


async def _hello(services, conn: Connection, user, hello: protocol.Hello,
                 current: TableActor | None) -> TableActor | None:
    """Attach to the lobby feed or a table; returns the table actor now attached (if any)."""
    if current is not None:
        current.detach(conn)
    services.hub.unsubscribe(conn)
    if hello.table is None:
        await services.hub.subscribe(conn, viewer(user))
        return None
    try:
        await services.lobby.table(None, hello.table)
    except LobbyError:
        conn.send(_error(0, "not_found", "no such table"))
        return None
    actor = services.rooms.actor(hello.table)
    actor.attach(conn, hello.last_seq, hello.epoch)
    return actor
