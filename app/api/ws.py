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

from app import metrics, protocol
from app.accounts.cookies import SESSION_COOKIE
from app.api.deps import client_address, services_of, user_of, viewer
from app.chat.rooms import LOBBY, line_json, table_room
from app.chat.service import Refusal, Refused
from app.guard.messages import frame_size_error
from app.guard.ratelimit import Policy
from app.lobby.service import LobbyError
from app.rooms.actor import TableActor
from app.rooms.connection import Connection

router = APIRouter()
#: Refused messages in a row (over the WS_MESSAGE rate) after which a flooding socket is closed.
FLOOD_CLOSE_AFTER = 50
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
        if isinstance(message, str):  # encoded once by the table actor for its audience
            await ws.send_text(message)
        else:
            await ws.send_json(message)


@router.websocket("/ws")
async def websocket(ws: WebSocket) -> None:
    services = services_of(ws)
    if not origin_allowed(ws, services.settings.allowed_origins):
        # closed before accept: the server answers the handshake with HTTP 403 (no socket)
        await ws.close(code=1008)
        return
    slot = services.sockets.acquire(client_address(ws), ws.cookies.get(SESSION_COOKIE))
    if slot is None:  # before any database work (app/guard/sockets.py)
        await _refuse(ws, "too_many_connections")
        return
    try:
        await _serve(ws, services)
    finally:
        services.sockets.release(slot)


async def _refuse(ws: WebSocket, reason: str) -> None:
    """Tell a socket why it is not served, and close it (1008: policy violation)."""
    with contextlib.suppress(Exception):
        await ws.accept()
        await ws.send_json(protocol.dump(protocol.Closed(seq=0, reason=reason,
                                                         reconnect=False)))
        await ws.close(code=1008, reason=reason)


async def _serve(ws: WebSocket, services) -> None:
    async with services.socket_db:
        user = await user_of(ws)
    await ws.accept()
    metrics.CONNECTIONS.inc()
    conn = Connection(user.id if user else None)
    if user is not None:
        await _came(services, user, conn)
    writer = asyncio.create_task(_write(ws, conn))
    actor: TableActor | None = None
    limit = services.settings.ws_max_message
    flood = services.limits.connection_limit(Policy.WS_MESSAGE)
    refused = 0
    try:
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", "replace")
            seq = actor.seq if actor else services.hub.seq
            decision = await flood.check()
            if not decision.allowed:
                refused += 1
                if refused >= FLOOD_CLOSE_AFTER:
                    conn.close(protocol.dump(protocol.Closed(seq=seq, reason="flood",
                                                             reconnect=False)))
                    break
                conn.send(_error(seq, "rate_limited", "too many messages; wait "
                                 f"{decision.retry_after_s:.1f} s"))
                continue
            refused = 0
            too_big = frame_size_error(text, limit)
            if too_big is not None:
                conn.send(_error(seq, "too_large", too_big))
                continue
            try:
                message = protocol.parse_client(text)
            except protocol.ProtocolError as err:
                conn.send(_error(seq, "bad_message", str(err)))
                continue
            if isinstance(message, protocol.Ping):
                conn.send(protocol.dump(protocol.Pong(seq=seq)))
            elif isinstance(message, protocol.Hello):
                async with services.socket_db:
                    actor, accepted = await _hello(services, conn, user, message, actor)
                _join_chat(services, conn, user, message, accepted, seq)
            elif isinstance(message, protocol.ChatCommand | protocol.MuteCommand
                            | protocol.ReportCommand):
                _chat(services, conn, user, message, seq, client_address(ws))
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
        if services.tournament_hub is not None:
            services.tournament_hub.unwatch(conn)
        services.chat.leave(conn)
        if actor is not None:
            actor.detach(conn)
        if conn.closed:  # let the writer send the last message (closed: why) before it ends
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(asyncio.shield(writer), 2)
        conn.closed = True
        writer.cancel()
        metrics.CONNECTIONS.dec()
        services.hub.untrack(conn)
        if user is not None:
            await services.presence.disconnected(user.id)


async def _came(services, user, conn: Connection) -> None:
    """A person's socket opened: online (their friends are told when it is their first
    socket anywhere), and it receives their live notices (app/lobby/notices.py)."""
    first = not await services.presence.is_online(user.id)
    await services.presence.connected(user.id)
    services.hub.track(conn)
    if first and not user.is_guest:
        try:
            async with services.socket_db:
                await services.notices.came_online(user.id, user.name)
        except Exception:
            log.warning("could not tell the friends of %s", user.id, exc_info=True)


async def _hello(services, conn: Connection, user, hello: protocol.Hello,
                 current: TableActor | None) -> tuple[TableActor | None, bool]:
    """Attach to the lobby feed or a table; returns the table actor now attached (if any) and
    whether the hello was accepted (a finished table without a running actor is watched from
    the stored log: accepted, no actor). A hello refused (a table that is not there or not
    open to this viewer) changes nothing: the connection stays where it was (``current``)."""
    if hello.table is None and hello.tournament is not None:
        return await _watch_tournament(services, conn, user, hello, current)
    if hello.table is not None:
        try:
            status = await services.lobby.check_watch(viewer(user), hello.table, hello.key)
        except LobbyError as err:
            if err.status == 403:
                conn.send(_error(0, "forbidden", "this table is private"))
            else:
                conn.send(_error(0, "not_found", "no such table"))
            return current, False
    if current is not None:
        current.detach(conn)
    services.hub.unsubscribe(conn)
    if services.tournament_hub is not None:
        services.tournament_hub.unwatch(conn)
    if hello.table is None:
        await services.hub.subscribe(conn, viewer(user))  # refused (an error) when full
        return None, True
    conn.deltas = hello.deltas
    actor = services.rooms.running(hello.table) if status == "finished" else None
    if status == "finished" and actor is None:  # from the stored log: watching starts no actor
        conn.send(await services.stored.snapshot(hello.table, conn.user_id))
        return None, True
    actor = actor or services.rooms.actor(hello.table)
    actor.attach(conn, hello.last_seq, hello.epoch)
    return actor, True


async def _watch_tournament(services, conn: Connection, user, hello: protocol.Hello,
                            current: TableActor | None) -> tuple[TableActor | None, bool]:
    """A tournament page's hello: its live standings (app/tournaments/hub.py), if the viewer
    may see the tournament (a refusal changes nothing, as for a table)."""
    from app.tournaments.spec import TournamentError

    assert hello.tournament is not None
    try:
        await services.tournaments.visible(viewer(user), hello.tournament, hello.key)
    except TournamentError:
        conn.send(_error(0, "not_found", "no such tournament"))
        return current, False
    if current is not None:
        current.detach(conn)
    services.hub.unsubscribe(conn)
    await services.tournament_hub.watch(conn, hello.tournament)
    return None, False  # no chat room of its own


def _join_chat(services, conn: Connection, user, hello: protocol.Hello,
               accepted: bool, seq: int) -> None:
    """After a hello: the room of the table (running or finished) or of the lobby; send its
    history (a ``chat`` message, which may arrive before or after the table's snapshot)."""
    if not accepted:  # a refused hello changes nothing: the connection keeps its room
        return
    room = table_room(hello.table) if hello.table is not None else LOBBY
    history = services.chat.join(room, conn, user.name if user else None)
    if history:  # nothing to send when the room is quiet
        conn.send(protocol.dump(protocol.ChatMessage(seq=seq, lines=[line_json(x) for x in history],
                                                     history=True)))


def _chat(services, conn: Connection, user, message, seq: int, address: str) -> None:
    """A chat line, mute or report from this connection (its user; never a name it sends).
    A line counts against the author's CHAT_LINE and, once accepted, the address's
    CHAT_ADDRESS (so new guests do not escape the per-account limit)."""
    room = services.chat.room_of(conn)
    if room is None:
        conn.send(_error(seq, "not_seated", "say hello to a table or the lobby first"))
        return
    if user is None:
        conn.send(_error(seq, "forbidden", "log in or play as a guest to chat"))
        return
    chat = services.chat.chat
    if isinstance(message, protocol.MuteCommand):
        if message.on:
            if not chat.mute(user.name, message.name.strip()):
                conn.send(_error(seq, "illegal", "you cannot mute yourself"))
        else:
            chat.unmute(user.name, message.name.strip())
        return
    if isinstance(message, protocol.ReportCommand):
        line = chat._lines.get(message.line)
        if line is None or line.room != room:
            conn.send(_error(seq, "not_found", "no such line here"))
            return
        result = chat.report(message.line, user.name, message.reason)
        if isinstance(result, Refused):
            conn.send(_error(seq, "illegal", f"cannot report: {result.reason.value}"))
        else:
            conn.send(protocol.dump(protocol.Reported(seq=seq, line=message.line)))
        return
    by_address = services.limits.peek(Policy.CHAT_ADDRESS, address)
    if not by_address.allowed:
        conn.send(_error(seq, "rate_limited", "chat line refused: rate_limited; wait "
                         f"{by_address.retry_after_s:.0f} s"))
        return
    result = chat.post(room, user.name, message.text)
    if not isinstance(result, Refused):
        services.limits.check(Policy.CHAT_ADDRESS, address)
    if isinstance(result, Refused):
        wait = f"; wait {result.retry_after_s:.0f} s" if result.retry_after_s else ""
        conn.send(_error(seq, "rate_limited" if result.reason == Refusal.RATE_LIMITED
                         else "illegal", f"chat line refused: {result.reason.value}{wait}"))
        return
    services.chat.deliver(result, lambda line: protocol.dump(
        protocol.ChatMessage(seq=seq, lines=[line_json(line)])))
