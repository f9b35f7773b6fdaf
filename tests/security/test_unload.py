"""Issue 17 (10): finished tables and idle open tables are unloaded (their actors end and are
dropped, so their memory goes back), and watching a finished table — a hello, however many —
starts no actor: it is served from the stored log. Injected clock; the memory figures (RSS and
tracemalloc) are printed by benchmarks/unload.py."""

from __future__ import annotations

import asyncio
import gc
import weakref

from app.api.ws import _hello
from app.clock import ManualClock
from app.db.engine import upgrade
from app.lobby.service import NewTable, Viewer
from app.protocol import Hello
from app.rooms.connection import Connection
from tests.platform_helpers import make_services, settings_for

LINGER, IDLE = 30.0, 120.0


async def _settle(services, clock: ManualClock, tables: list[int]) -> None:
    """Let the computer players play every table to its end."""
    for _ in range(200):
        statuses = [(await services.lobby.table(None, t))["status"] for t in tables]
        if all(s == "finished" for s in statuses):
            return
        for table_id in tables:
            await services.rooms.actor(table_id).idle()
        clock.advance(1)
        await asyncio.sleep(0)
    raise AssertionError(f"the matches did not end: {statuses}")


async def test_finished_and_idle_tables_unload_and_watching_starts_no_actor(tmp_path):
    clock = ManualClock()
    services = make_services(settings_for(tmp_path, away_grace=0.0, finished_linger=LINGER,
                                          idle_unload=IDLE), clock=clock)
    await asyncio.to_thread(upgrade, services.settings.database_url)
    await services.start()
    try:
        owner = await services.accounts.create_guest()
        me = Viewer(owner.id, owner.name)
        tables = [(await services.lobby.create_table(me, NewTable(bots=3, deals=1)))["id"]]
        for _ in range(3):  # one live seat per person: the other tables are other guests'
            other = await services.accounts.create_guest()
            tables.append((await services.lobby.create_table(
                Viewer(other.id, other.name), NewTable(bots=3, deals=1)))["id"])
        actors = [weakref.ref(services.rooms.actor(t)) for t in tables]
        await _settle(services, clock, tables)
        assert services.rooms.count() == len(tables)  # they linger for their watchers
        # meanwhile a hello (a reload at the match result) reaches the running actor, where
        # the rematch is decided and the table's chat goes on
        conn = Connection(owner.id)
        held, accepted = await _hello(services, conn, None, Hello(type="hello", table=tables[0]),
                                      None)
        assert held is services.rooms.running(tables[0]) is not None and accepted
        await held.idle()
        assert conn.pending()[-1]["state"]["rematch"] == {"accepted": [], "declined": [],
                                                          "table": None}
        held.detach(conn)
        await held.idle()
        del held  # so the check below sees the actor go
        clock.advance(LINGER + 1)
        for _ in range(5):
            await asyncio.sleep(0)
        gc.collect()
        assert services.rooms.count() == 0, "finished tables stay loaded"
        assert all(ref() is None for ref in actors), "an unloaded actor is still referenced"
        # a stranger (and the player) watching finished tables: snapshots, and no actor
        for _round in range(3):
            for table_id in tables:
                for user in (None, owner.id):
                    conn = Connection(user)
                    held, accepted = await _hello(services, conn, None,
                                                  Hello(type="hello", table=table_id), None)
                    assert held is None and accepted
                    [snapshot] = conn.pending()
                    assert snapshot["type"] == "snapshot"
                    assert snapshot["state"]["result"] is not None
                    assert snapshot["state"]["rematch"] is None  # no actor: none offered
        assert services.rooms.count() == 0, "watching a finished table started an actor"
        # an open table nobody watches unloads after IDLE; a watcher keeps it
        open_id = (await services.lobby.create_table(Viewer(owner.id, owner.name), NewTable(players=4)))["id"]
        watcher = Connection(None)
        actor, _accepted = await _hello(services, watcher, None,
                                        Hello(type="hello", table=open_id), None)
        await actor.idle()
        clock.advance(IDLE + 1)
        await actor.idle()
        assert services.rooms.count() == 1
        actor.detach(watcher)
        await actor.idle()
        clock.advance(IDLE + 1)
        for _ in range(5):
            await asyncio.sleep(0)
        assert services.rooms.count() == 0
    finally:
        await services.close()
