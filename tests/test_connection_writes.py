"""A connection writes each message at once while the socket takes it, and queues behind a send
that had to wait (the client stopped reading), so the order of messages never changes
(app/rooms/connection.py)."""

from __future__ import annotations

import asyncio

from app.rooms.connection import Connection, Unfinished


class Socket:
    """A socket whose send waits while ``writable`` is clear, as uvicorn's does."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []
        self.fail = False

    async def send(self, message) -> None:
        await self.writable.wait()
        if self.fail:
            raise ConnectionResetError("gone")
        self.sent.append(message)


async def writer(conn: Connection, socket: Socket) -> None:
    """As app/api/ws.py's writer task."""
    while (message := await conn.receive()) is not None:
        if isinstance(message, Unfinished):
            await message.finish()
        else:
            await socket.send(message)


async def test_a_writable_socket_gets_each_message_in_the_senders_turn():
    socket = Socket()
    conn = Connection(1, write=socket.send)
    task = asyncio.create_task(writer(conn, socket))
    await asyncio.sleep(0)
    for n in range(3):
        conn.send(f"m{n}")
        assert socket.sent == [f"m{k}" for k in range(n + 1)]  # no task switch in between
    conn.close()
    await task


async def test_messages_queue_in_order_behind_a_send_that_waits_and_flow_resumes_after():
    socket = Socket()
    conn = Connection(1, write=socket.send)
    task = asyncio.create_task(writer(conn, socket))
    await asyncio.sleep(0)
    conn.send("a")
    socket.writable.clear()  # the client stopped reading
    conn.send("b")  # begins, waits on writable
    conn.send("c")
    conn.send("d")
    await asyncio.sleep(0.01)
    assert socket.sent == ["a"]
    socket.writable.set()
    await asyncio.sleep(0.01)
    assert socket.sent == ["a", "b", "c", "d"]
    conn.send("e")  # the outbox is drained: at once again
    assert socket.sent[-1] == "e"
    conn.close()
    await task


async def test_a_client_that_never_reads_is_closed_when_the_outbox_fills():
    socket = Socket()
    conn = Connection(1, write=socket.send, outbox_size=4)
    task = asyncio.create_task(writer(conn, socket))
    await asyncio.sleep(0)
    socket.writable.clear()
    for n in range(10):
        conn.send(f"m{n}")
    assert conn.closed
    task.cancel()


async def test_a_send_that_fails_at_once_closes_the_connection():
    socket = Socket()
    socket.fail = True
    conn = Connection(1, write=socket.send)
    task = asyncio.create_task(writer(conn, socket))
    await asyncio.sleep(0)
    conn.send("x")
    assert conn.closed and socket.sent == []
    conn.send("y")  # dropped: closed
    await asyncio.wait_for(task, 1)  # the writer ends on the close
