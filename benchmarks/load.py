"""Load test: how many tables one server process holds.

    .venv/bin/python benchmarks/load.py --tables 500 --seconds 20 --db sqlite --persist on

1. Prepares a fresh database (a SQLite file in a temp dir, or a new PostgreSQL database) with
   ``4 x tables`` guests and ``tables`` full Doppelkopf tables (48 deals, so none finishes).
2. Starts the server: ``python -m app serve`` (one worker; ``--workers W`` starts W processes
   on W ports sharing Redis, clients spread over them; ``--nginx`` puts nginx in front of two
   workers as docker-compose.yml does, with deploy/nginx.conf.template: every socket of a
   table then reaches one process, by the table id in ``/ws?table=``).
3. Echo baseline on the same stack: as many WebSockets as the game phase will have, opened
   at ``--connect-rate`` per second, then each sending a small frame to ``/ws/echo`` and
   waiting for it back, for ``--echo-seconds``.
4. Game: one protocol client per seat (4 per table), connecting at ``--connect-rate`` per
   second, asking for deltas (as the browser does) and applying them, each playing a random
   legal move as soon as its view says it is its turn (``--think-ms`` adds a pause), for
   ``--seconds`` once every client has its snapshot (no client moves before then, so the
   2,000 handshakes do not queue behind tables already playing at full speed).
   Latency is action sent -> the event carrying that action received by its sender.

Progress goes to stderr; the results to stdout, the last line one JSON object with keys
tables, connections, actions_per_s, p50_ms, p95_ms, p99_ms, errors, rss_mb, echo_msgs_per_s,
ratio. Loopback only; everything it starts it stops.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gclog  # noqa: E402  (benchmarks/gclog.py, beside this script)

from app import compiled  # noqa: E402

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
SECRET = "load-benchmark-secret"


def log(*parts: object) -> None:
    print(*parts, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- the database ------------------------------------------------------------------------


async def make_database(kind: str, workdir: Path) -> tuple[str, str | None]:
    """(url, postgres database name to drop afterwards)."""
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{workdir}/load.db", None
    import asyncpg

    name = f"doppelrunde_load_{os.getpid()}"
    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}", name


async def drop_database(name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def seed(url: str, tables: int, workdir: Path) -> list[tuple[int, list[str]]]:
    """Create the guests and full tables; returns [(table id, [cookie per seat])]."""
    from app.accounts.cookies import SESSION_COOKIE, SessionSigner
    from app.config import Settings
    from app.db.engine import upgrade
    from app.lobby.service import NewTable, Viewer
    from app.services import build_services

    await asyncio.to_thread(upgrade, url)
    settings = Settings(database_url=url, secret_key=SECRET, data_dir=workdir, bot_delay=0,
                        max_open_tables_per_user=tables + 1, redis_url=None)
    services = build_services(settings, round_pause=0)
    signer = SessionSigner(SECRET)
    out = []
    try:
        for i in range(tables):
            users = [await services.accounts.create_guest() for _ in range(4)]
            cookies = [f"{SESSION_COOKIE}={signer.sign(await services.accounts.open_session(u.id))}"
                       for u in users]
            table = await services.lobby.create_table(
                Viewer(users[0].id, users[0].name),
                # a move clock as at a public table, but long enough that the minutes of
                # seeding (a deal's first clock runs from its stored start) time out nobody
                NewTable(game="doppelkopf", preset="ddv", deals=48, turn_seconds=600))
            for user in users[1:]:
                await services.lobby.join(Viewer(user.id, user.name), table["id"])
            out.append((table["id"], cookies))
            if (i + 1) % 50 == 0:
                log(f"  seeded {i + 1}/{tables} tables")
    finally:
        await services.close()
    return out


# --- the server --------------------------------------------------------------------------


def start_servers(args, url: str, workdir: Path) -> list[tuple[subprocess.Popen, int]]:
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": SECRET, "DATA_DIR": str(workdir),
           "BOT_DELAY": "0", "ROUND_PAUSE": str(args.round_pause),
           "EVENT_LOG": "true" if args.persist == "on" else "false", "BENCH_ECHO": "1",
           "MAX_DEALS": "48", "PYTHONPATH": str(ROOT),
           # every seat is a benchmark client: no computer player may take over a seat whose
           # client is still connecting (the default 30 s grace would start bots at hundreds
           # of tables while 2,000 sockets attach)
           "AWAY_GRACE": "86400",
           # the per-connection message limit (20/s, 300/min) is for people; the benchmark's
           # clients move at machine speed, so it is raised for them (docs/performance.md)
           "RATE_LIMITS": json.dumps({"ws_message": "1000/second"}),
           # every benchmark socket comes from 127.0.0.1: the per-address socket limit is
           # for people (app/guard/sockets.py)
           "WS_PER_ADDRESS": "100000", "WS_DB_CONCURRENCY": "16"}
    if args.gc_log:  # a sitecustomize: the server logs its collections over 20 ms
        site = workdir / "site"
        site.mkdir(exist_ok=True)
        (site / "sitecustomize.py").write_text(
            f"import sys\nsys.path.append({str(ROOT / 'benchmarks')!r})\n"
            f"import gclog\ngclog.install({args.gc_log!r})\n")
        env["PYTHONPATH"] = f"{site}{os.pathsep}{ROOT}"
    if args.workers > 1:
        env["REDIS_URL"] = args.redis_url
        env["REDIS_PREFIX"] = f"load{os.getpid()}:"
    else:
        env.pop("REDIS_URL", None)
    if args.nginx:  # the deployment's REDIS_URL and prefix, and no direct clients
        env["FORWARDED_ALLOW_IPS"] = "127.0.0.1"
    servers = []
    for i in range(args.workers):
        port = free_port()
        out = (workdir / f"server{i}.log").open("w")
        profile = ["-m", "cProfile", "-o", f"{args.profile}.{i}"] if args.profile else []
        proc = subprocess.Popen([sys.executable, *profile, "-m", "app", "serve", "--host", "127.0.0.1",
                                 "--port", str(port)], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
        servers.append((proc, port))
    return servers


async def wait_ready(servers, timeout: float = 60) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as client:
        for proc, port in servers:
            while True:
                if proc.poll() is not None:
                    raise SystemExit(f"server on port {port} exited with {proc.returncode}")
                try:
                    if (await client.get(f"http://127.0.0.1:{port}/readyz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit(f"server on port {port} not ready")
                await asyncio.sleep(0.2)


def stop_servers(servers) -> None:
    for proc, _port in servers:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc, _port in servers:
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_nginx(workdir: Path, ports: list[int]) -> tuple[subprocess.Popen, int]:
    """nginx with the deployment's template in front of the two workers; (process, port)."""
    from deploy import nginx

    port = free_port()
    site = nginx.render_template(nginx.TEMPLATE.read_text(), {
        "DOPPELRUNDE_APP1": f"127.0.0.1:{ports[0]}", "DOPPELRUNDE_APP2": f"127.0.0.1:{ports[1]}",
        "NGINX_PORT": f"127.0.0.1:{port}"})
    proc = nginx.start(workdir / "nginx", site, ready_url=f"http://127.0.0.1:{port}/healthz")
    return proc, port


def cpu_s(servers) -> float:
    """CPU seconds (user + system) used so far by the server processes (and their children:
    an nginx master's workers)."""
    import psutil

    total = 0.0
    for proc, _port in servers:
        try:
            process = psutil.Process(proc.pid)
            for each in [process, *process.children(recursive=True)]:
                times = each.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            pass
    return total


def rss_mb(servers) -> float:
    import psutil

    total = 0
    for proc, _port in servers:
        try:
            total += psutil.Process(proc.pid).memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20


# --- the clients -------------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.actions = 0
        self.latencies: list[float] = []
        self.errors = 0
        self.error_kinds: dict[str, int] = {}
        self.echoes = 0
        self.connected = 0  # clients that received their first snapshot
        self.go = asyncio.Event()  # play starts once every client is attached

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


def choose_move(state: dict, rng: random.Random) -> dict | None:
    """A random legal non-announcement move when it is our turn (as tests/platform_helpers)."""
    view = state.get("view")
    if not view or state.get("result"):
        return None
    you = state["you"]
    turn = view.get("to_move") if "to_move" in view else (view.get("to_act") or [None])[0]
    if turn != you:
        return None
    legal = [a for a in view.get("legal", []) if a["type"] != "announce"] or view.get("legal", [])
    if not legal:
        return None
    action = dict(rng.choice(legal))
    action.pop("seat", None)
    return action


def error_kind(err: Exception) -> str:
    """The error's class, and for a closed socket who closed it with which code (``none``:
    the TCP connection ended without a close frame)."""
    received = getattr(err, "rcvd", None)
    if received is None and not hasattr(err, "rcvd"):
        return type(err).__name__
    return f"{type(err).__name__}:{received.code if received else 'none'}"


async def player(ws_url: str, table_id: int, cookie: str, seed: int, stats: Stats,
                 stop: asyncio.Event, measuring: asyncio.Event, think: float,
                 delay: float = 0.0) -> None:
    import orjson
    import websockets

    from app.rooms.delta import ClientState

    rng = random.Random(seed)
    tracker = ClientState()  # the client asks for deltas, as the browser does
    await asyncio.sleep(delay)  # clients arrive over time, not all in one instant
    try:
        async with websockets.connect(ws_url, additional_headers={"Cookie": cookie},
                                      open_timeout=60, ping_interval=None,
                                      max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "table": table_id, "deltas": True}))
            acted_seq = -1
            sent_at: float | None = None
            greeted = False
            while not stop.is_set():
                # no timeout per receive (at 8,000 mostly idle sockets, thousands of timeouts
                # a second cost this client CPU it needs to measure): the phase cancels it
                raw = await ws.recv()
                message = orjson.loads(raw)  # the browser parses natively; keep the client cheap
                kind = message["type"]
                if kind == "error":
                    stats.error(f"server:{message.get('code')}")
                    sent_at = None
                    acted_seq = -1
                    continue
                if kind not in ("event", "snapshot"):
                    if kind == "closed":
                        stats.error("closed")
                        return
                    continue
                try:
                    state = tracker.apply(message)
                except ValueError:  # cannot happen unless the server's patches are wrong
                    stats.error("patch")
                    return
                if kind == "snapshot" and not greeted:
                    greeted = True
                    stats.connected += 1
                    await stats.go.wait()  # attaching does not compete with play
                if kind == "event" and sent_at is not None:
                    action = message.get("action")
                    if action is not None and action.get("seat") == state["you"]:
                        if measuring.is_set():
                            stats.actions += 1
                            stats.latencies.append(time.perf_counter() - sent_at)
                        sent_at = None
                move = choose_move(state, rng)
                if move is not None and message["seq"] > acted_seq and sent_at is None:
                    if think:
                        await asyncio.sleep(think * (0.5 + rng.random()))
                    acted_seq = message["seq"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "action": move}))
    except Exception as err:  # a failed or dropped connection counts as an error
        if not stop.is_set():
            stats.error(error_kind(err))


async def echoer(ws_url: str, stats: Stats, stop: asyncio.Event, measuring: asyncio.Event,
                 delay: float = 0.0) -> None:
    import websockets

    payload = json.dumps({"type": "action", "action": {"type": "play", "card": "QC"}})
    await asyncio.sleep(delay)  # arrive over time, as the players do
    try:
        async with websockets.connect(ws_url, open_timeout=60, ping_interval=None) as ws:
            stats.connected += 1
            await stats.go.wait()  # every socket open before the first echo
            while not stop.is_set():
                await ws.send(payload)
                await ws.recv()
                if measuring.is_set():
                    stats.echoes += 1
    except Exception as err:
        if not stop.is_set():
            stats.error(f"echo:{type(err).__name__}")


def quiet_collector(gc_log: str | None = None) -> None:
    """Keep this client process's own garbage collections out of the latencies it measures.

    With 8,000 sockets the client's collections took up to 0.9 s (40 full ones in a 30 s run
    at 2,000 tables), and every action in flight meanwhile looked that much slower. Once every
    client is attached: what exists is frozen (never walked again), full collections are left
    for after the run, and the young generations are collected on a timer as in the server
    (app.server.TimedCollections), every tick taking generation 1 too: collected every 20th
    tick, generation 1 held two seconds of survivors and each of its collections froze this
    client for 112-132 ms every 2.4 s at 2,000 paced tables, most of the measured p99
    (docs/performance.md, "The collector"). ``gc_log``: also log this client's collections
    over 20 ms there (benchmarks/gclog.py)."""
    from app.server import TimedCollections

    gc.collect()
    gc.freeze()
    if gc_log:
        gclog.install(gc_log, prefix="client ")
    gc.set_threshold(10_000, 1, 1_000_000)
    TimedCollections(0.1, 1, float("inf")).start()


async def phase(name: str, coros_factory, seconds: float, warmup: float,
                servers=(), stats: Stats | None = None,
                gc_log: str | None = None, proxies=()) -> tuple[float, float, float, float]:
    """Run the clients, measure for ``seconds`` after ``warmup``; returns the measured time
    and the CPU seconds the servers, this client process and the proxies used meanwhile. With ``stats``,
    the warm-up starts once every client has its first snapshot (at most 180 s); ``gc_log``:
    :func:`quiet_collector`'s."""
    stop, measuring = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.create_task(c) for c in coros_factory(stop, measuring)]
    if stats is not None:
        began = time.perf_counter()
        while stats.connected < len(tasks) and time.perf_counter() - began < 180:
            await asyncio.sleep(0.25)
        log(f"{name}: {stats.connected}/{len(tasks)} clients attached after "
            f"{time.perf_counter() - began:.1f} s")
        quiet_collector(gc_log)
        stats.go.set()
    log(f"{name}: {len(tasks)} connections, warm-up {warmup:.0f} s")
    await asyncio.sleep(warmup)
    measuring.set()
    started = time.perf_counter()
    log(f"{name}: measuring from {time.time():.1f} (unix time, as in --gc-log)")
    server_cpu, client_cpu, proxy_cpu = cpu_s(servers), time.process_time(), cpu_s(proxies)
    for left in range(int(seconds), 0, -5):
        await asyncio.sleep(min(5, left))
        log(f"{name}: {time.perf_counter() - started:.0f}/{seconds:.0f} s")
    elapsed = time.perf_counter() - started
    server_cpu, client_cpu = cpu_s(servers) - server_cpu, time.process_time() - client_cpu
    proxy_cpu = cpu_s(proxies) - proxy_cpu
    measuring.clear()
    stop.set()
    for task in tasks:  # a player waits for its next message without a timeout
        task.cancel()
    await asyncio.wait(tasks, timeout=10)
    return elapsed, server_cpu, client_cpu, proxy_cpu


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def cpu_figures(game_cpu: float, actions: int, echo_cpu: float, echoes: int) -> dict:
    """The server's CPU per action and per echo frame, and the frame efficiency.

    An echo is two frames at the server (one in, one out); an action is five (one in, one
    event out to each of four seats). Frame efficiency = 5 x (echo CPU per frame) / (CPU per
    action): the share of an action's CPU that five frames of the bare stack would cost.
    """
    per_action_ms = 1000 * game_cpu / max(actions, 1)
    per_frame_us = 1e6 * echo_cpu / max(2 * echoes, 1)
    return {"server_cpu_ms_per_action": round(per_action_ms, 3),
            "echo_server_cpu_us_per_frame": round(per_frame_us, 1),
            "frame_efficiency": round(5 * per_frame_us / 1000 / per_action_ms, 3)
            if per_action_ms else None}


def commit() -> str:
    """The checked-out commit (short hash), '+dirty' when the tree has changes."""
    root = Path(__file__).resolve().parent.parent

    def run(*cmd: str) -> str:
        return subprocess.run(cmd, cwd=root, capture_output=True, text=True).stdout.strip()

    head = run("git", "rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+dirty" if run("git", "status", "--porcelain", "--untracked-files=no") else "")


async def main(args) -> dict:
    load_before = round(os.getloadavg()[0], 2)
    workdir = Path(tempfile.mkdtemp(prefix="doppelrunde-load-"))
    url, pg_name = await make_database(args.db, workdir)
    servers = []
    proxies: list[tuple[subprocess.Popen, int]] = []
    try:
        log(f"seeding {args.tables} tables on {args.db} ...")
        tables = await seed(url, args.tables, workdir)
        servers = start_servers(args, url, workdir)
        await wait_ready(servers)
        ports = [port for _proc, port in servers]
        if args.nginx:
            proxies = [start_nginx(workdir, ports)]
            ports = [proxies[0][1]]  # every client through nginx
        connections = 4 * len(tables)
        log(f"server(s) on {[port for _proc, port in servers]}, rss {rss_mb(servers):.0f} MB"
            f"{f', nginx on {ports[0]}' if proxies else ''}")

        echo = Stats()
        echo_time, echo_server_cpu, echo_client_cpu, _ = await phase("echo", lambda stop, measuring: [
            echoer(f"ws://127.0.0.1:{ports[i % len(ports)]}/ws/echo", echo, stop, measuring,
                   i / args.connect_rate)
            for i in range(connections)], args.echo_seconds, 2, servers, echo)
        echo_rate = echo.echoes / echo_time

        game = Stats()
        think = args.think_ms / 1000
        peak_rss = 0.0

        def players(stop, measuring):
            for t, (table_id, cookies) in enumerate(tables):
                for seat, cookie in enumerate(cookies):
                    # as static/js/socket.js: the table in the URL, for the balancer
                    ws_url = (f"ws://127.0.0.1:{ports[(t * 4 + seat) % len(ports)]}/ws"
                              f"?table={table_id}")
                    yield player(ws_url, table_id, cookie, t * 4 + seat, game, stop, measuring,
                                 think, (t * 4 + seat) / args.connect_rate)

        async def sample_rss(stop_after: float) -> None:
            nonlocal peak_rss
            end = time.monotonic() + stop_after
            while time.monotonic() < end:
                peak_rss = max(peak_rss, rss_mb(servers))
                await asyncio.sleep(1)

        sampler = asyncio.create_task(sample_rss(args.seconds + args.warmup))
        game_time, game_server_cpu, game_client_cpu, game_proxy_cpu = await phase(
            "game", lambda s, m: list(players(s, m)), args.seconds, args.warmup, servers, game,
            args.gc_log, proxies)
        sampler.cancel()
        peak_rss = max(peak_rss, rss_mb(servers))
        rate = game.actions / game_time
        result = {
            "tables": len(tables), "connections": connections,
            "actions_per_s": round(rate, 1),
            "p50_ms": round(percentile(game.latencies, 50) * 1000, 2),
            "p95_ms": round(percentile(game.latencies, 95) * 1000, 2),
            "p99_ms": round(percentile(game.latencies, 99) * 1000, 2),
            "errors": game.errors + echo.errors, "rss_mb": round(peak_rss, 1),
            "echo_msgs_per_s": round(echo_rate, 1),
            "ratio": round(rate / echo_rate, 3) if echo_rate else None,
            **cpu_figures(game_server_cpu, game.actions, echo_server_cpu, echo.echoes),
            "nginx_cpu_ms_per_action": round(1000 * game_proxy_cpu / max(game.actions, 1), 3)
            if proxies else None,
            "load_before": load_before, "commit": commit(),
            # DOPPELRUNDE_COMPILED=1 (passed on to the servers): the hot modules' mypyc build
            "compiled": compiled.requested(),
        }
        print(f"db={args.db} persist={args.persist} workers={args.workers} "
              f"think_ms={args.think_ms} round_pause={args.round_pause}"
              f"{' nginx' if proxies else ''}")
        print(f"tables          {result['tables']}")
        print(f"connections     {result['connections']}")
        print(f"actions/s       {result['actions_per_s']}  ({game.actions} in {game_time:.1f} s)")
        print(f"latency ms      p50 {result['p50_ms']}  p95 {result['p95_ms']}  "
              f"p99 {result['p99_ms']}  (action sent -> its event received)")
        print(f"errors          {result['errors']}  {game.error_kinds or ''}{echo.error_kinds or ''}")
        print(f"server rss      {result['rss_mb']} MB (peak, all workers)")
        print(f"echo msgs/s     {result['echo_msgs_per_s']}  ({echo.echoes} in {echo_time:.1f} s)")
        print(f"ratio           {result['ratio']}  (game actions/s / echo msgs/s)")
        print(f"cpu (game)      server {100 * game_server_cpu / game_time:.0f}% "
              f"({1000 * game_server_cpu / max(game.actions, 1):.2f} ms/action), "
              f"client {100 * game_client_cpu / game_time:.0f}%"
              + (f", nginx {100 * game_proxy_cpu / game_time:.0f}% "
                 f"({1000 * game_proxy_cpu / max(game.actions, 1):.2f} ms/action)"
                 if proxies else ""))
        print(f"cpu (echo)      server {100 * echo_server_cpu / echo_time:.0f}%, "
              f"client {100 * echo_client_cpu / echo_time:.0f}%")
        print(f"frame eff.      {result['frame_efficiency']}  (5 x echo CPU per frame "
              f"{result['echo_server_cpu_us_per_frame']} us / CPU per action)")
        print(f"load before     {load_before}  commit {result['commit']}"
              f"{'  compiled' if result['compiled'] else ''}")
        print(json.dumps(result), flush=True)
        return result
    finally:
        for proc, _port in proxies:
            proc.terminate()
            proc.wait(10)
        stop_servers(servers)
        if pg_name:
            await drop_database(pg_name)


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--persist", choices=("on", "off"), default="on")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--nginx", action="store_true",
                        help="nginx in front of two workers, as the deployment runs them")
    parser.add_argument("--echo-seconds", type=float, default=None,
                        help="length of the echo baseline (default: --seconds, at most 10)")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--think-ms", type=float, default=0,
                        help="average pause before each move (0: as fast as the game allows)")
    parser.add_argument("--connect-rate", type=float, default=100,
                        help="game clients connecting per second before the run (all at once "
                             "made 2,000 session look-ups wait behind the 500 table loads for "
                             "the database pool and time out)")
    parser.add_argument("--round-pause", type=float, default=0,
                        help="seconds between deals at a table (the site's default is 3)")
    parser.add_argument("--profile", default=None, metavar="PATH",
                        help="run the server under cProfile, writing PATH.<worker>")
    parser.add_argument("--gc-log", default=None, metavar="PATH",
                        help="append the server's garbage collections over 20 ms to PATH, and this "
                             "client's (lines starting 'client ')")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    args = parser.parse_args(argv)
    if args.echo_seconds is None:
        args.echo_seconds = min(args.seconds, 10)
    if args.nginx and args.workers != 2:
        parser.error("--nginx runs the deployment's two workers: use --workers 2")
    return args


if __name__ == "__main__":
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main(parse()))
