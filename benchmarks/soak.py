"""Soak: the deployment for half an hour, with a process killed and restarted on a schedule.

    .venv/bin/python benchmarks/soak.py --minutes 30 --tables 200 --kill-every 10

1. Seeds ``--tables`` full Doppelkopf tables (48 deals: none ends) in a new PostgreSQL
   database (benchmarks/load.py's seeding).
2. Runs the deployment's shape: two ``python -m app serve`` processes over Redis and
   PostgreSQL behind nginx (deploy/nginx.conf.template), as docker-compose.yml does.
3. One client per seat, through nginx, playing a random legal move after ``--think-ms``
   (average) whenever it may, and reconnecting (resuming from its last seq) whenever its
   socket drops.
4. Every ``--kill-every`` minutes the process that owns more tables is killed with SIGKILL and
   started again at once on its port; its clients reconnect through nginx to the other
   process, which takes its tables over once their leases run out.
5. Every minute: each process's memory (RSS), the tables it owns, actions acknowledged so far.
6. At the end: every action a client saw acknowledged is looked up in the event log, in
   order, per table and seat: ``lost`` counts those missing. Errors are every ``error``
   message and failed connection except the reconnects of the killed process's sockets,
   which are counted apart.

Progress goes to stderr; the results to stdout, the last line one JSON object. Targets
(issue 42): 0 lost, 0 errors, memory growth (both processes together) under 10 % between
minute 5 and the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402  (benchmarks/load.py, beside this script)


class Counts:
    def __init__(self) -> None:
        self.acked = 0
        self.errors: dict[str, int] = {}
        self.reconnects = 0
        #: (table, seat) -> the actions of that seat this client saw acknowledged, in order
        self.seen: dict[tuple[int, int], list[dict]] = {}
        self.keys: dict[tuple[int, int], set[str]] = {}

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def player(base: str, table_id: int, cookie: str, seed: int, counts: Counts,
                 stop: asyncio.Event, think: float, delay: float) -> None:
    """One seat's client: plays, and reconnects through nginx whenever its socket drops."""
    import orjson
    import websockets

    from app.rooms.delta import ClientState

    rng = random.Random(seed)
    tracker = ClientState()
    await asyncio.sleep(delay)
    while not stop.is_set():
        try:
            async with websockets.connect(f"{base}/ws?table={table_id}",
                                          additional_headers={"Cookie": cookie},
                                          open_timeout=30, ping_interval=None,
                                          max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "table": table_id, "deltas": True,
                                          "last_seq": tracker.seq, "epoch": tracker.epoch}))
                await _play(ws, table_id, tracker, rng, counts, stop, think, orjson)
        except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake,
                TimeoutError) as err:
            if stop.is_set():
                return
            counts.reconnects += 1
            if os.environ.get("SOAK_DEBUG"):
                load.log(f"reconnect {table_id}: {err!r}"[:200])
            await asyncio.sleep(0.5 + rng.random())


async def _play(ws, table_id, tracker, rng, counts: Counts, stop, think, orjson) -> None:
    """Read messages; once a move is ours, think, then make a move chosen on the state as it
    is by then (a move chosen before the pause could have become illegal meanwhile)."""
    loop = asyncio.get_running_loop()
    acted = -1
    due: float | None = None
    while not stop.is_set():
        try:
            if due is None:
                raw = await ws.recv()
            else:
                raw = await asyncio.wait_for(ws.recv(), max(0.0, due - loop.time()))
        except TimeoutError:
            due = None
            move = load.choose_move(tracker.state, rng) if tracker.state else None
            if move is not None and tracker.seq > acted:
                acted = tracker.seq
                await ws.send(json.dumps({"type": "action", "action": move}))
            continue
        message = orjson.loads(raw)
        kind = message["type"]
        if kind == "error":
            counts.error(f"server:{message.get('code')}")
            if os.environ.get("SOAK_DEBUG"):
                load.log(f"error {message}")
            acted = -1
            continue
        if kind == "closed":
            if not message.get("reconnect"):
                counts.error(f"closed:{message.get('reason')}")
            return
        if kind not in ("event", "snapshot"):
            continue
        try:
            state = tracker.apply(message)
        except ValueError:  # a gap: ask for a snapshot
            tracker.seq = tracker.epoch = None
            await ws.send(json.dumps({"type": "hello", "table": table_id, "deltas": True}))
            continue
        you = state["you"]
        action = message.get("action")
        if kind == "event" and action is not None and action.get("seat") == you:
            key = f"{message['epoch']}:{message['seq']}"
            keys = counts.keys.setdefault((table_id, you), set())
            if key not in keys:
                keys.add(key)
                counts.seen.setdefault((table_id, you), []).append(action)
                counts.acked += 1
        if due is None and message["seq"] > acted and load.choose_move(state, rng) is not None:
            due = loop.time() + think * (0.5 + rng.random())


def start_app(env: dict[str, str], port: int, log_path: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "app", "serve", "--host", "127.0.0.1",
                             "--port", str(port)], cwd=ROOT, env=env,
                            stdout=log_path.open("a"), stderr=subprocess.STDOUT)


async def owned_tables(redis, prefix: str, pids: list[int]) -> list[int]:
    """How many tables each process owns now (by its pid in the lease's owner)."""
    counts = [0] * len(pids)
    async for key in redis.scan_iter(match=f"{prefix}lease:*", count=1000):
        owner = await redis.get(key) or ""
        for i, pid in enumerate(pids):
            if f":{pid}:" in owner:
                counts[i] += 1
    return counts


async def lost_actions(url: str, counts: Counts) -> tuple[int, int]:
    """(acknowledged actions missing from the log, acknowledged actions checked)."""
    from app.clock import Clock
    from app.db.engine import make_engine, make_sessionmaker
    from app.rooms.store import MatchStore

    engine = make_engine(url)
    store = MatchStore(make_sessionmaker(engine), Clock())
    lost = checked = 0
    try:
        logs: dict[int, list[dict]] = {}
        for (table_id, seat), seen in counts.seen.items():
            if table_id not in logs:
                stored = await store.load_match(table_id)
                logs[table_id] = [a for r in (stored[1] if stored else []) for a in r.actions]
            logged = [a for a in logs[table_id] if a.get("seat") == seat]
            at = 0  # the seen actions must appear in the log in this order
            for action in seen:
                checked += 1
                found = next((i for i in range(at, len(logged)) if logged[i] == action), None)
                if found is None:
                    lost += 1
                else:
                    at = found + 1
    finally:
        await engine.dispose()
    return lost, checked


async def main(args) -> dict:
    import psutil
    from redis.asyncio import Redis

    workdir = Path(tempfile.mkdtemp(prefix="doppelrunde-soak-"))
    url, pg_name = await load.make_database("postgres", workdir)
    prefix = f"soak{os.getpid()}:"
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": load.SECRET,
           "DATA_DIR": str(workdir), "REDIS_URL": args.redis_url, "REDIS_PREFIX": prefix,
           "PYTHONPATH": str(ROOT), "MAX_DEALS": "48", "AWAY_GRACE": "86400",
           "FORWARDED_ALLOW_IPS": "127.0.0.1", "WS_PER_ADDRESS": "100000",
           "RATE_LIMITS": json.dumps({"ws_message": "1000/second"})}
    apps: list[subprocess.Popen] = []
    proxy = None
    redis = Redis.from_url(args.redis_url, decode_responses=True)
    stop = asyncio.Event()
    counts = Counts()
    clients: list[asyncio.Task] = []
    try:
        load.log(f"seeding {args.tables} tables ...")
        tables = await load.seed(url, args.tables, workdir)
        ports = [load.free_port(), load.free_port()]
        for i, port in enumerate(ports):
            apps.append(start_app(env, port, workdir / f"app{i}.log"))
            await load.wait_ready([(apps[i], port)])
        proxy, nginx_port = load.start_nginx(workdir, ports)
        base = f"ws://127.0.0.1:{nginx_port}"
        think = args.think_ms / 1000
        for t, (table_id, cookies) in enumerate(tables):
            for seat, cookie in enumerate(cookies):
                n = t * 4 + seat
                clients.append(asyncio.create_task(player(
                    base, table_id, cookie, n, counts, stop, think, n / args.connect_rate)))
        started = time.monotonic()
        minutes: list[dict] = []
        kills = 0
        for minute in range(1, args.minutes + 1):
            await asyncio.sleep(max(0.0, started + 60 * minute - time.monotonic()))
            rss = [round(psutil.Process(p.pid).memory_info().rss / 2**20, 1) for p in apps]
            owned = await owned_tables(redis, prefix, [p.pid for p in apps])
            row = {"minute": minute, "rss_mb": rss, "owned": owned, "acked": counts.acked,
                   "errors": sum(counts.errors.values()), "reconnects": counts.reconnects}
            minutes.append(row)
            load.log(f"minute {minute:2d}: rss {rss} MB, tables {owned}, acked {counts.acked}, "
                     f"errors {counts.errors or 0}, reconnects {counts.reconnects}")
            if args.kill_every and minute % args.kill_every == 0 and minute < args.minutes:
                i = max(range(len(apps)), key=lambda n: owned[n])
                apps[i].send_signal(signal.SIGKILL)
                apps[i].wait()
                apps[i] = start_app(env, ports[i], workdir / f"app{i}.log")
                await load.wait_ready([(apps[i], ports[i])])
                kills += 1
                load.log(f"minute {minute:2d}: killed app{i} ({owned[i]} tables) with SIGKILL "
                         "and started it again")
        stop.set()
        for task in clients:
            task.cancel()
        await asyncio.gather(*clients, return_exceptions=True)
        lost, checked = await lost_actions(url, counts)
        first = next((m for m in minutes if m["minute"] == 5), minutes[0])
        growth = (sum(minutes[-1]["rss_mb"]) / sum(first["rss_mb"]) - 1) if minutes else 0.0
        result = {"minutes": args.minutes, "tables": args.tables, "kills": kills,
                  "acked": counts.acked, "checked": checked, "lost": lost,
                  "errors": sum(counts.errors.values()), "error_kinds": counts.errors,
                  "reconnects": counts.reconnects,
                  "rss_mb_minute5": first["rss_mb"], "rss_mb_end": minutes[-1]["rss_mb"],
                  "memory_growth": round(growth, 4), "commit": load.commit(),
                  "compiled": load.compiled.requested()}
        print(f"soak: {args.minutes} min, {args.tables} tables, 2 processes + nginx, "
              f"{kills} kill(s)")
        print(f"acknowledged    {counts.acked} ({checked} checked against the log)")
        print(f"lost            {lost}")
        print(f"errors          {result['errors']}  {counts.errors or ''}")
        print(f"reconnects      {counts.reconnects} (the killed process's sockets)")
        for row in minutes:
            print(f"minute {row['minute']:2d}     rss {row['rss_mb']} MB  tables {row['owned']}  "
                  f"acked {row['acked']}")
        print(f"memory growth   {100 * growth:+.1f} % (both processes, minute 5 to "
              f"{minutes[-1]['minute']})")
        print(json.dumps(result), flush=True)
        return result
    finally:
        stop.set()
        for task in clients:
            task.cancel()
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        load.stop_servers([(p, 0) for p in apps])
        keys = [k async for k in redis.scan_iter(match=f"{prefix}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
        await load.drop_database(pg_name)


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--kill-every", type=int, default=10,
                        help="minutes between kills of the second process (0: none)")
    parser.add_argument("--think-ms", type=float, default=3000)
    parser.add_argument("--connect-rate", type=float, default=100)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
