"""Memory of finished tables (issue 17, 10): actors and bytes held while finished tables
linger, after they unload, and after hellos to every one of them (served from the stored log,
no actor). Prints the actor count, the process RSS (psutil) and the Python heap (tracemalloc).

    .venv/bin/python benchmarks/unload.py [--tables 60] [--hellos 700]

In-process services on a temporary SQLite database with an injected clock: computer players
play every seat (the person is "away" at once), one deal per match. Before the fix a hello to
each of 700 table ids started 700 actors (+27 MB) that were never released.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import tempfile
import tracemalloc
from pathlib import Path

import psutil

from app.api.ws import _hello
from app.clock import ManualClock
from app.config import Settings
from app.db.engine import upgrade
from app.lobby.service import NewTable, Viewer
from app.protocol import Hello
from app.rooms.connection import Connection
from app.services import build_services

LINGER = 30.0


def figures(label: str, services) -> None:
    gc.collect()
    rss = psutil.Process(os.getpid()).memory_info().rss / 2**20
    heap = tracemalloc.get_traced_memory()[0] / 2**20
    print(f"{label:<44} actors {services.rooms.count():>4}   RSS {rss:7.1f} MiB   "
          f"heap {heap:6.1f} MiB")


async def run(args: argparse.Namespace, workdir: Path) -> None:
    settings = Settings(data_dir=workdir, database_url=f"sqlite+aiosqlite:///{workdir}/b.db",
                        secret_key="bench", bot_delay=0.0, away_grace=0.0,
                        finished_linger=LINGER, rate_limits={"table_create": "100000/hour"},
                        max_open_tables_per_user=100000)
    clock = ManualClock()
    services = build_services(settings, clock, round_pause=0.0,
                              rng_factory=lambda table_id: random.Random(table_id))
    await asyncio.to_thread(upgrade, settings.database_url)
    await services.start()
    tracemalloc.start()
    figures("start", services)
    owner = await services.accounts.create_guest()
    me = Viewer(owner.id, owner.name)
    tables = [(await services.lobby.create_table(me, NewTable(bots=3, deals=1)))["id"]
              for _ in range(args.tables)]
    for _ in range(500):
        for table_id in tables:
            await services.rooms.actor(table_id).idle()
        statuses = {(await services.lobby.table(None, t))["status"] for t in tables}
        if statuses == {"finished"}:
            break
        clock.advance(1)
        await asyncio.sleep(0)
    figures(f"{args.tables} finished tables, lingering", services)
    clock.advance(LINGER + 1)
    for _ in range(10):
        await asyncio.sleep(0)
    figures("after they unloaded", services)
    for number in range(args.hellos):
        conn = Connection(None)
        await _hello(services, conn, None, Hello(type="hello", table=tables[number % len(tables)]),
                     None)
    figures(f"after {args.hellos} hellos to finished tables", services)
    tracemalloc.stop()
    await services.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--hellos", type=int, default=700)
    args = parser.parse_args()
    from concurrent.futures import ThreadPoolExecutor

    from app.bots import runner

    runner.configure(executor=ThreadPoolExecutor(max_workers=2))
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    main()
