"""The lobby feed under load (issue 17, 3): how long a join takes while many lobby sockets
watch many open tables. Prints the join latency (p50, p95, max) and what the sockets received.

    .venv/bin/python benchmarks/lobby_feed.py [--sockets 300] [--tables 60] [--joins 40]

Starts ``python -m app serve`` on a temporary SQLite database (rate limits raised: every client
here is one address), opens ``--tables`` tables of four seats (one guest each), connects
``--sockets`` anonymous lobby sockets that read everything they are sent, then lets ``--joins``
new guests join a table one after the other and times each POST .../join. Before the fix a
join took 16-28 s with 60 tables and 200-300 sockets (every subscriber's list was queried and
sent inside the join).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(workdir: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/bench.db",
           "DATA_DIR": str(workdir), "SECRET_KEY": "bench", "PORT": str(port),
           "HOST": "127.0.0.1", "BOT_DELAY": "0", "WS_PER_ADDRESS": "100000",
           "RATE_LIMITS": json.dumps({"guest_address": "100000/hour",
                                      "table_create_address": "100000/hour"})}
    env.pop("REDIS_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "app", "serve"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(workdir / "server.log", "w"))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


async def guest(base: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, timeout=120)
    csrf = (await client.get("/api/me")).json()["csrf"]
    client.headers["X-CSRF-Token"] = csrf
    assert (await client.post("/api/guest", json={})).status_code == 201
    return client


async def watch(url: str, received: list[int], stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "table": None}))
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), 0.5)
                received[0] += 1
            except TimeoutError:
                continue


async def run(args: argparse.Namespace, base: str) -> None:
    owners = [await guest(base) for _ in range(args.tables)]
    tables = []
    for owner in owners:
        answer = await owner.post("/api/tables", json={"game": "doppelkopf", "deals": 1})
        tables.append(answer.json()["id"])
    received, stop = [0], asyncio.Event()
    url = base.replace("http", "ws", 1) + "/ws"
    watchers = [asyncio.create_task(watch(url, received, stop)) for _ in range(args.sockets)]
    await asyncio.sleep(3)  # every socket got its first list
    first = received[0]
    times = []
    for number in range(args.joins):
        joiner = await guest(base)
        started = time.perf_counter()
        answer = await joiner.post(f"/api/tables/{tables[number % len(tables)]}/join", json={})
        times.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.text
        await joiner.aclose()
    await asyncio.sleep(2)
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    for owner in owners:
        await owner.aclose()
    times.sort()
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(f"{args.sockets} lobby sockets, {args.tables} open tables, {args.joins} joins")
    print(f"join: p50 {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"max {times[-1] * 1000:.0f} ms")
    print(f"lobby messages: {first} first lists, {received[0] - first} updates "
          f"({(received[0] - first) / args.sockets:.1f} per socket for {args.joins} joins)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--joins", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start(Path(tmp), port)
        try:
            asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
