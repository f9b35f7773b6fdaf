"""Tables across two processes (app/rooms/cluster.py) in one event loop: two ClusterRooms over
the in-process services and over real Redis, one SQLite event log, clients as Connection
objects. A table runs where its sockets are and then sends nothing through the bus; it moves
there once, without losing a command; sockets on both processes play through the bus; a
process that stops hands its tables on at once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.clock import Clock
from app.db.engine import make_engine, make_sessionmaker, upgrade
from app.db.models import User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.rooms.actor import ActorConfig
from app.rooms.cluster import ClusterRooms
from app.rooms.connection import Connection
from app.rooms.delta import ClientState
from app.rooms.store import MatchStore
from tests.cluster.conftest import Harness, eventually
from tests.platform_helpers import choose_move, register_highcard

FAST = ActorConfig(bot_delay=0, round_pause=0, resume_buffer=64)


class Spy:
    """Counts the bus messages carrying items for connections (``to``), per process."""

    def __init__(self, harness: Harness) -> None:
        self.items: dict[str, int] = {}
        for cluster in {id(c.bus): c for c in (harness.a, harness.b)}.values():
            self._wrap(cluster.bus)

    def _wrap(self, bus: Any) -> None:
        publish = bus.publish_event

        async def counted(table_id: str, message: dict) -> int:
            sent = sum(1 for item in message.get("items", ()) if "to" in item)
            self.items[table_id] = self.items.get(table_id, 0) + sent
            return await publish(table_id, message)

        bus.publish_event = counted


@pytest.fixture
async def site(harness: Harness, tmp_path):
    register_highcard()
    url = f"sqlite+aiosqlite:///{tmp_path}/across.db"
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    clock = Clock()
    spy = Spy(harness)
    store = MatchStore(sessions, clock)
    rooms = [ClusterRooms(store, clock, FAST, cluster, lease_ttl=5.0, sweep_interval=60,
                          retry_interval=0.02, rng_factory=lambda _t: random.Random(7))
             for cluster in (harness.a, harness.b)]
    lobby = Lobby(sessions, clock, rooms[0], Friends(sessions, clock), any_deal_count=True)

    async def table(deals: int = 2) -> tuple[int, list[Viewer]]:
        async with sessions() as db:
            users = [User(name=f"u{random.randrange(10**9)}", password_hash=None,
                          is_guest=True, created_at=clock.now()) for _ in range(2)]
            db.add_all(users)
            await db.commit()
        viewers = [Viewer(id=u.id, name=u.name) for u in users]
        created = await lobby.create_table(viewers[0], NewTable(
            game="highcard", players=2, deals=deals, opponents="invited",
            invite=[viewers[1].name]))
        await lobby.join(viewers[1], created["id"])  # full: started (process a takes it)
        await eventually(lambda: _true(rooms[0].owns(created["id"])), timeout=10)
        return created["id"], viewers

    yield {"rooms": rooms, "table": table, "spy": spy, "store": store}
    for each in rooms:
        await each.shutdown()
    await engine.dispose()


async def _true(value: bool) -> bool:
    return value


class Client:
    """One seat's socket: applies what it is sent, plays a random legal move when it may,
    and records the actions of its seat the server acknowledged (in events)."""

    def __init__(self, viewer: Viewer, seed: int) -> None:
        self.conn = Connection(viewer.id, deltas=True)
        self.state = ClientState()
        self.rng = random.Random(seed)
        self.acked: list[dict] = []
        self.sent = 0
        self.seen: dict | None = None
        self.waiting = False

    def step(self, handle: Any) -> None:
        for message in self.conn.pending():
            if message["type"] == "closed":
                self.conn.closed = True
                return
            if message["type"] not in ("snapshot", "event"):
                if message["type"] == "error":
                    self.waiting = False
                continue
            self.seen = state = self.state.apply(message)
            action = message.get("action")
            if message["type"] == "event" and action and action.get("seat") == state["you"]:
                self.acked.append(action)
                self.waiting = False
            if message["type"] == "snapshot":
                self.waiting = False
        if self.seen is None or self.waiting or self.done:
            return
        move = choose_move(self.seen, self.rng)
        if move is not None:
            self.waiting = move["type"] != "next_deal"
            self.sent += 1
            handle.act(self.conn, move)

    @property
    def done(self) -> bool:
        return self.seen is not None and self.seen.get("result") is not None


async def _play(clients: list[Client], handles: list[Any], timeout: float = 30) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not all(c.done for c in clients):
        assert loop.time() < deadline, [c.seen for c in clients]
        for client, handle in zip(clients, handles, strict=True):
            client.step(handle)
        await asyncio.sleep(0.002)


async def _logged(store: MatchStore, table_id: int) -> list[dict]:
    _match, rounds = await store.load_match(table_id)
    return [action for record in rounds for action in record.actions]


def _kept(client: Client, logged: list[dict]) -> bool:
    """Whether every action of the client's seat that it saw acknowledged is in the log, in
    order (a client that reconnected may have missed an event: the snapshot held it)."""
    it = iter(x for x in logged if x.get("seat") == client.seen["you"])
    return bool(client.acked) and all(any(a == x for x in it) for a in client.acked)


async def test_a_table_whose_sockets_are_on_its_owner_sends_nothing_through_the_bus(site):
    a, _b = site["rooms"]
    table_id, viewers = await site["table"]()
    clients = [Client(v, seed=i) for i, v in enumerate(viewers)]
    handles = [a.actor(table_id)] * 2
    for client, handle in zip(clients, handles, strict=True):
        handle.attach(client.conn)
    await _play(clients, handles)
    assert site["spy"].items.get(str(table_id), 0) == 0  # every message went straight out
    assert a.owns(table_id)
    logged = await _logged(site["store"], table_id)
    for client in clients:  # every acknowledged action is in the log
        assert _kept(client, logged)


async def test_the_table_moves_once_to_the_process_its_sockets_reached(site):
    a, b = site["rooms"]
    table_id, viewers = await site["table"]()
    assert a.owns(table_id) and not b.owns(table_id)
    clients = [Client(v, seed=10 + i) for i, v in enumerate(viewers)]
    handles = [b.actor(table_id)] * 2
    for client, handle in zip(clients, handles, strict=True):
        handle.attach(client.conn)
        client.step(handle)  # moves at once, while the table is being handed on
    await eventually(lambda: _true(b.owns(table_id) and not a.owns(table_id)), timeout=10)
    before = site["spy"].items.get(str(table_id), 0)
    await _play(clients, handles)
    assert site["spy"].items.get(str(table_id), 0) == before  # nothing more on the bus
    logged = await _logged(site["store"], table_id)
    for client in clients:  # no reconnect here: each saw every one of its actions
        assert _kept(client, logged)
        assert len(client.acked) == len([x for x in logged if x.get("seat") == client.seen["you"]])


async def test_sockets_on_both_processes_play_through_the_bus(site):
    a, b = site["rooms"]
    table_id, viewers = await site["table"]()
    clients = [Client(v, seed=20 + i) for i, v in enumerate(viewers)]
    handles = [a.actor(table_id), b.actor(table_id)]
    for client, handle in zip(clients, handles, strict=True):
        handle.attach(client.conn)
    await _play(clients, handles)
    assert a.owns(table_id) and not b.owns(table_id)  # the owner has a socket: it stays
    assert site["spy"].items.get(str(table_id), 0) > 0  # b's client was served by the bus
    logged = await _logged(site["store"], table_id)
    for client in clients:
        assert _kept(client, logged)


async def test_a_process_that_stops_hands_its_tables_on_at_once(site):
    a, b = site["rooms"]
    table_id, viewers = await site["table"](deals=3)
    clients = [Client(v, seed=30 + i) for i, v in enumerate(viewers)]
    handles: list[Any] = [a.actor(table_id)] * 2
    for client, handle in zip(clients, handles, strict=True):
        handle.attach(client.conn)
    for _ in range(20):  # a few moves on a
        for client, handle in zip(clients, handles, strict=True):
            client.step(handle)
        await asyncio.sleep(0.005)
    await a.shutdown()
    assert a.stopped_at_shutdown == 1 and not a.owns(table_id)
    for client in clients:  # told to reconnect; they do, to b
        client.step(None)
        assert client.conn.closed
        client.conn = Connection(client.conn.user_id, deltas=True)
    handles = [b.actor(table_id)] * 2
    for client, handle in zip(clients, handles, strict=True):
        handle.attach(client.conn)
    await _play(clients, handles)  # the lease was released: no wait for it to expire
    assert b.owns(table_id)
    logged = await _logged(site["store"], table_id)
    for client in clients:
        assert _kept(client, logged)
