"""Helpers for the platform tests: settings on a temp database, a live uvicorn server, an
API client that echoes the CSRF token, a protocol client, and the test-only game.

The live server runs in a thread with computer players thinking 0 seconds and no pause between
deals, so nothing in these tests waits on wall-clock time except for network I/O.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from app.config import Settings
from app.games import registry
from app.main import create_app
from app.server import build_server
from app.services import build_services

PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


def register_highcard() -> None:
    """Make the test-only game ``highcard`` (tests/highcard_game.py) available."""
    from app import protocol

    registry.GAME_MODULES.setdefault("highcard", "tests.highcard_game")
    registry.get_game.cache_clear()
    protocol.register_actions("highcard", protocol.Declare, protocol.Announce, protocol.PlayCard)


async def migrated_database(db_url: str):
    """Register the test-only game, migrate ``db_url`` to head and open it: ``(engine,
    sessionmaker)`` of app.db.engine (the caller disposes of the engine)."""
    from app.db.engine import make_engine, make_sessionmaker, upgrade

    register_highcard()
    await asyncio.to_thread(upgrade, db_url)
    engine = make_engine(db_url)
    return engine, make_sessionmaker(engine)


def settings_for(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": tmp_path, "database_url": f"sqlite+aiosqlite:///{tmp_path}/test.db",
        "secret_key": "test-secret", "bot_delay": 0.0,
        # short matches (1 or 2 deals) keep the tests fast; tests/test_match_end.py checks the
        # rule itself (a multiple of the players) with this off
        "any_deal_count": True}
    values.update(overrides)
    return Settings(**values)


def make_services(settings: Settings, *, round_pause: float = 0.0, clock=None, rng_factory=None,
                  limits=None):
    return build_services(settings, clock, round_pause=round_pause,
                          rng_factory=rng_factory or (lambda table_id: random.Random(table_id)),
                          limits=limits)


def make_app(settings: Settings, **options: Any):
    return create_app(settings, make_services(settings, **options))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerURL(str):
    """The base URL of a live test server; ``stop()`` asks it to shut down (not waiting)."""

    server: Any

    def stop(self) -> None:
        self.server.should_exit = True


@contextmanager
def live_server(settings: Settings, **app_options: Any) -> Iterator[ServerURL]:
    """Serve the app on a free port in a thread; yields the base URL (a ServerURL)."""
    port = free_port()
    server = build_server(settings, make_services(settings, **app_options), host="127.0.0.1",
                          port=port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:  # startup runs migrations: wait for it, bounded
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    url = ServerURL(f"http://127.0.0.1:{port}")
    url.server = server
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class Api:
    """An httpx client of the JSON API that echoes the CSRF cookie on every POST."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def csrf(self) -> str:
        return (await self.client.get("/api/me")).json()["csrf"]

    async def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return await self.client.post(path, json=body or {},
                                      headers={"X-CSRF-Token": await self.csrf()})

    async def get(self, path: str) -> httpx.Response:
        return await self.client.get(path)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.client.cookies.jar)


def choose_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A protocol client's move: "Next deal" in the pause between deals (once), else a random
    legal non-announcement action when it is our turn."""
    view = state.get("view")
    if not view or state.get("result"):
        return None
    you = state["you"]
    pause = state.get("pause")
    if pause:
        return {"type": "next_deal"} if you not in pause.get("ready", []) else None
    turn = view.get("to_move") if "to_move" in view else (view.get("to_act") or [None])[0]
    if turn != you:
        return None
    legal = [a for a in view.get("legal", []) if a["type"] != "announce"] or view.get("legal", [])
    if not legal:
        return None
    action = dict(rng.choice(legal))
    action.pop("seat", None)
    return action


async def play_until_over(url: str, table_id: int, cookie: str, rng: random.Random,
                          *, origin: str | None = None) -> dict[str, Any]:
    """Connect as a protocol client, play our seat to the end of the match, return the last
    state. Every message is checked to have a growing ``seq``."""
    import websockets

    headers = {"Cookie": cookie}
    if origin:
        headers["Origin"] = origin
    ws_url = url.replace("http", "ws", 1) + "/ws"
    async with websockets.connect(ws_url, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table_id}))
        last_seq = -1
        acted_at = -1
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "error":
                continue
            assert message["seq"] > last_seq or message["type"] == "snapshot", message["type"]
            last_seq = message["seq"]
            state = message["state"]
            if state["result"] is not None:
                return state
            move = choose_move(state, rng)
            if move is not None and message["seq"] > acted_at:
                acted_at = message["seq"]
                await ws.send(json.dumps({"type": "action", "action": move}))


def postgres_available() -> bool:
    """Whether PostgreSQL answers on 127.0.0.1:5432."""
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            return True
    except OSError:
        return False


async def create_pg_database(name: str) -> str:
    """Create a fresh PostgreSQL database ``name`` (dropping an old one); returns its URL."""
    import asyncpg

    conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"


async def drop_pg_database(name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test")
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


class ScriptedRandom(random.Random):
    """A test rng: the first shuffle puts ``first_hand`` on top of the deck (seat 0's hand);
    ``choice`` prefers an action whose value is in ``prefer`` (so computer players say
    "healthy" and "accept"). Everything else is an ordinary seeded random.Random."""

    def __init__(self, first_hand: list[str], prefer: tuple[str, ...], seed: int = 1) -> None:
        super().__init__(seed)
        self._first_hand = first_hand
        self._prefer = prefer

    def shuffle(self, x) -> None:  # type: ignore[override]
        super().shuffle(x)
        if self._first_hand:
            rest = list(x)
            for card in self._first_hand:
                rest.remove(card)
            x[:] = self._first_hand + rest
            self._first_hand = []

    def choice(self, seq):  # type: ignore[override]
        for value in self._prefer:
            for item in seq:
                if isinstance(item, dict) and item.get("value") == value:
                    return item
        return super().choice(seq)
