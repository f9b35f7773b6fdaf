"""Crash test: a real ``python -m app serve`` process with 50 live tables of protocol clients is
killed with SIGKILL at a random moment, restarted on the same database, and every table resumes
with every acknowledged action present (0 lost); on SQLite and on PostgreSQL.

Each table: doppelkopf, one protocol client (a guest) and three computer players (thinking 0 s).
A client counts an action of its seat as acknowledged when the server's event carrying it
arrives. After the kill the log in the database must hold, for every table, the acknowledged
actions of the client's seat in order (possibly followed by one that was in flight). Then every
client reconnects to the restarted server and plays its table to the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time

import httpx
import pytest
import websockets
from sqlalchemy import select

from app.db.engine import make_engine, make_sessionmaker
from app.db.models import ActionRow, Match, Round, Seat
from tests.conftest import ROOT, require
from tests.platform_helpers import (
    Api,
    choose_move,
    create_pg_database,
    drop_pg_database,
    free_port,
    postgres_available,
)

TABLES = 50
GUESTS = TABLES  # each opens one table: a person plays at one running table at a time


def stop_server(server: subprocess.Popen) -> None:
    """Stop a server process this test started, if it still runs (SIGTERM, then SIGKILL)."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


def start_server(db_url: str, data_dir, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": db_url, "DATA_DIR": str(data_dir),
           "SECRET_KEY": "crash-test", "BOT_DELAY": "0", "PORT": str(port),
           "HOST": "127.0.0.1", "PYTHONPATH": str(ROOT),
           "ANY_DEAL_COUNT": "1",  # short matches (a deal count that is not a multiple of 4)
           # one address opens 50 tables through 10 guests: the per-address limits of new
           # guests and new tables are another test's (tests/security/test_signup_limits.py)
           "RATE_LIMITS": '{"guest_address": "1000/hour", "table_create_address": "1000/hour"}'}
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=open(data_dir / f"server-{port}.log", "ab"))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise RuntimeError("the server exited at start")
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


class TableClient:
    """A protocol client of one table: plays its seat, remembers acknowledged actions."""

    def __init__(self, table_id: int, cookie: str, seed: int) -> None:
        self.table_id, self.cookie = table_id, cookie
        self.rng = random.Random(seed)
        self.acked: list[dict] = []
        self.seat = 0  # the creator's seat
        self.last_seq: int | None = None
        self.epoch: str | None = None
        self.result: dict | None = None
        self.closed: dict | None = None  # the server's last word (``closed``), if any

    async def run(self, url: str, stop: asyncio.Event | None = None) -> None:
        ws_url = url.replace("http", "ws", 1) + "/ws"
        async with websockets.connect(ws_url, additional_headers={"Cookie": self.cookie}) as ws:
            await ws.send(json.dumps({"type": "hello", "table": self.table_id,
                                      "last_seq": self.last_seq, "epoch": self.epoch}))
            acted_at = -1
            while stop is None or not stop.is_set():
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "closed":
                    self.closed = message
                    return
                if message["type"] not in ("event", "snapshot"):
                    continue
                self.last_seq, self.epoch = message["seq"], message["epoch"]
                state = message["state"]
                assert state["you"] == self.seat
                action = message.get("action")
                if message["type"] == "event" and action and action.get("seat") == self.seat:
                    self.acked.append(action)
                if state["result"] is not None:
                    self.result = state["result"]
                    return
                move = choose_move(state, self.rng)
                if move is not None and message["seq"] > acted_at:
                    acted_at = message["seq"]
                    await asyncio.sleep(self.rng.random() * 0.02)
                    try:
                        await ws.send(json.dumps({"type": "action", "action": move}))
                    except websockets.ConnectionClosed:
                        pass  # the server is closing: what it sent first is still to be read


async def logged_actions(db_url: str, table_id: int, seat: int) -> list[dict]:
    engine = make_engine(db_url)
    try:
        async with make_sessionmaker(engine)() as db:
            rows = (await db.execute(
                select(ActionRow.action).join(Round, Round.id == ActionRow.round_id)
                .join(Match, Match.id == Round.match_id).where(Match.table_id == table_id)
                .order_by(Round.number, ActionRow.idx))).scalars().all()
            seats = (await db.execute(select(Seat.seat).where(Seat.table_id == table_id)))
            assert seat in set(seats.scalars())
    finally:
        await engine.dispose()
    return [a for a in rows if a.get("seat") == seat]


async def live_play(clients: list[TableClient], at_least: int,
                    seconds: tuple[float, float]) -> None:
    """Wait for a random moment of live play: a random time within ``seconds`` and, on a slow
    or busy machine, on until more than ``at_least`` actions are acknowledged (at most 60 s
    more), so the signal never comes before real play."""
    await asyncio.sleep(random.uniform(*seconds))
    deadline = time.monotonic() + 60
    while sum(len(c.acked) for c in clients) <= at_least and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def crash_and_resume(db_url: str, data_dir) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = await asyncio.to_thread(start_server, db_url, data_dir, port)
    clients: list[TableClient] = []
    try:
        async with httpx.AsyncClient(base_url=url) as anon:
            for _guest in range(GUESTS):
                api = Api(httpx.AsyncClient(base_url=url))
                assert (await api.post("/api/guest")).status_code == 201
                for _ in range(TABLES // GUESTS):
                    made = await api.post("/api/tables", {"game": "doppelkopf", "bots": 3,
                                                          "deals": 2})
                    assert made.status_code == 201, made.text
                    clients.append(TableClient(made.json()["id"], api.cookie_header(),
                                               seed=len(clients)))
                await api.client.aclose()
            assert len((await anon.get("/api/games")).json()) >= 1
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(url, stop)) for c in clients]
        await live_play(clients, TABLES, (1.0, 4.0))
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        # the clients saw the connection die (or had finished): no other failure
        for result in results:
            assert result is None or isinstance(result, (OSError, websockets.ConnectionClosed,
                                                         asyncio.TimeoutError)), repr(result)
        acked_total = sum(len(c.acked) for c in clients)
        assert acked_total > TABLES, "the kill came before real play"
        for client in clients:  # 0 lost: every acknowledged action is in the log, in order
            logged = await logged_actions(db_url, client.table_id, client.seat)
            assert logged[:len(client.acked)] == client.acked, client.table_id
            assert len(logged) - len(client.acked) <= 1  # at most one was in flight
            client.acked = logged  # an action stored but not yet announced counts from now
        server = await asyncio.to_thread(start_server, db_url, data_dir, port)
        await asyncio.wait_for(asyncio.gather(*(c.run(url) for c in clients)), 240)
        assert all(c.result is not None for c in clients), "a table did not resume to its end"
        for client in clients:
            logged = await logged_actions(db_url, client.table_id, client.seat)
            assert logged == client.acked
        print(f"{len(clients)} tables, {acked_total} acknowledged before the kill, 0 lost; "
              f"all {len(clients)} resumed and finished")
    finally:
        stop_server(server)


@pytest.mark.slow
async def test_sigkill_loses_no_acknowledged_action_and_every_table_resumes_sqlite(tmp_path):
    await crash_and_resume(f"sqlite+aiosqlite:///{tmp_path}/crash.db", tmp_path)


@pytest.mark.slow
@pytest.mark.postgres
async def test_sigkill_loses_no_acknowledged_action_and_every_table_resumes_postgres(tmp_path):
    require("postgres", postgres_available(), "nothing listens on 127.0.0.1:5432")
    name = f"doppelrunde_crash_{os.getpid()}_{random.randrange(10**6)}"
    url = await create_pg_database(name)
    try:
        await crash_and_resume(url, tmp_path)
    finally:
        await drop_pg_database(name)


async def test_sigterm_finishes_in_flight_actions_and_tells_every_client_to_reconnect(tmp_path):
    """A deliberate shutdown while 10 tables are in live play: every client gets
    ``closed``/``shutdown`` with ``reconnect: true`` (after every event of its table), the
    process exits cleanly (0, or uvicorn re-raising SIGTERM after its graceful shutdown), and
    after a restart every action a client saw acknowledged is in the log, nothing was stored
    that was not announced first (the table finished each in-flight action, then stopped), and
    every table resumes and plays to its end."""
    db_url = f"sqlite+aiosqlite:///{tmp_path}/term.db"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = await asyncio.to_thread(start_server, db_url, tmp_path, port)
    clients: list[TableClient] = []
    try:
        for _guest in range(10):  # one running table per person
            api = Api(httpx.AsyncClient(base_url=url))
            assert (await api.post("/api/guest")).status_code == 201
            for _ in range(1):
                made = await api.post("/api/tables", {"game": "doppelkopf", "bots": 3,
                                                      "deals": 2})
                assert made.status_code == 201, made.text
                clients.append(TableClient(made.json()["id"], api.cookie_header(),
                                           seed=len(clients)))
            await api.client.aclose()
        tasks = [asyncio.create_task(c.run(url)) for c in clients]
        await live_play(clients, len(clients), (1.0, 3.0))  # actions are in flight
        server.send_signal(signal.SIGTERM)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(r is None for r in results), results
        # uvicorn re-raises the signal after its graceful shutdown: exit by SIGTERM, not a crash
        assert await asyncio.to_thread(server.wait, 30) in (0, -signal.SIGTERM)
        acked_total = sum(len(c.acked) for c in clients)
        assert acked_total > len(clients), "the signal came before real play"
        for client in clients:
            if client.result is None:  # a table still in play was told to come back
                assert client.closed is not None, client.table_id
                assert client.closed["reason"] == "shutdown"
                assert client.closed["reconnect"] is True
            logged = await logged_actions(db_url, client.table_id, client.seat)
            assert logged == client.acked, client.table_id  # acknowledged ones in; no others
        server = await asyncio.to_thread(start_server, db_url, tmp_path, port)
        unfinished = [c for c in clients if c.result is None]
        await asyncio.wait_for(asyncio.gather(*(c.run(url) for c in unfinished)), 240)
        assert all(c.result is not None for c in clients), "a table did not resume to its end"
        for client in clients:
            assert await logged_actions(db_url, client.table_id, client.seat) == client.acked
        print(f"SIGTERM: {len(clients)} tables, {acked_total} acknowledged before it, 0 lost, "
              f"{len(unfinished)} told to reconnect; all resumed and finished")
    finally:
        stop_server(server)
