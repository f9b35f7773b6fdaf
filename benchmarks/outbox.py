"""Benchmark of the connections' outboxes alone: CPU per server message from ``Connection.send``
to the writer task's socket write, with thousands of writers waiting (app/rooms/connection.py,
the writer loop of app/api/ws.py, a socket that writes nothing).

    .venv/bin/python benchmarks/outbox.py --connections 2000 --messages 12000

Each event-loop turn queues four messages (one action's broadcast to four seats) on
connections in turn. The last line is one JSON object: ``{"connections": n, "messages": m,
"cpu_us_per_message": x, "tracked_objects_per_waiting_writer": y}`` (the objects the
collector tracks for each writer task waiting on an empty outbox, its task included).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rooms.connection import Connection  # noqa: E402


class NullSocket:
    async def send_text(self, message: str) -> None:
        pass


async def writer(ws: NullSocket, conn: Connection) -> None:
    while (message := await conn.receive()) is not None:
        await ws.send_text(message)


async def run(connections: int, messages: int) -> dict[str, float]:
    conns = [Connection(1) for _ in range(connections)]
    gc.collect()
    before = len(gc.get_objects())
    tasks = [asyncio.create_task(writer(NullSocket(), conn)) for conn in conns]
    await asyncio.sleep(0)
    gc.collect()
    per_writer = (len(gc.get_objects()) - before) / connections
    text = "x" * 200
    started = time.process_time()
    for turn in range(messages // 4):
        for k in range(4):
            conns[(turn * 4 + k) % connections].send(text)
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    cpu = time.process_time() - started
    for conn in conns:
        conn.close()
    await asyncio.gather(*tasks)
    return {"connections": connections, "messages": messages // 4 * 4,
            "cpu_us_per_message": round(cpu * 1e6 / (messages // 4 * 4), 2),
            "tracked_objects_per_waiting_writer": round(per_writer, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=12000)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.connections, args.messages))))


if __name__ == "__main__":
    main()
