"""The statistics with a long history (issue 45): the rebuild from the event logs of N finished
matches, and the profile page's server time with that history.

    .venv/bin/python benchmarks/stats.py [--matches 10000] [--requests 200] [--database-url URL]
                                         [--filled]

Fills a new database (a temporary SQLite file unless --database-url names an empty one) with
--matches finished, rated matches, as the site stores them (tests/stats/history.py): seven in
ten Doppelkopf of 4 deals, the rest Doublehead Kids, Doppelganger Tricks and Doppio, each with
the player "anna" and three of 40 others or computer players, over the last two years, one in
seven at a Friends table; the event logs come from 400 matches per game played with random
legal actions, used again and again. Then:

1. ``python -m app stats rebuild``'s work (app.stats.service.Stats.rebuild, the bots' process
   pool of one worker per core): prints matches/s;
2. the profile page /players/anna (anna's own view, with all 10,000 matches; a visitor's; and
   the API's /api/players/anna/stats) --requests times each through the whole ASGI app in this
   process: prints the server time p50/p95/max in ms (wall clock), and the CPU time this
   process spent per request (its threads too: the database's), which a busy machine does
   not stretch. Target: p95 <= 50 ms. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402
from argon2 import PasswordHasher  # noqa: E402
from sqlalchemy import update  # noqa: E402

from app.bots import runner  # noqa: E402
from app.clock import Clock  # noqa: E402
from app.config import Settings  # noqa: E402
from app.db.engine import make_engine, make_sessionmaker, upgrade  # noqa: E402
from app.db.models import Friendship, User  # noqa: E402
from app.main import create_app  # noqa: E402
from app.stats.service import Stats  # noqa: E402
from tests.stats.history import add_users, random_match, store_finished  # noqa: E402

GAMES = (("doppelkopf", 4, 70), ("doublehead_kids", 4, 10), ("doppelganger_tricks", 4, 10), ("doppio", 3, 10))
DISTINCT = 400  # matches played per game, stored again and again


async def fill(url: str, matches: int, seed: int = 1) -> None:
    """Store ``matches`` finished matches of anna's (see the module docstring)."""
    rng = random.Random(seed)
    now = datetime.now(UTC)
    started = time.perf_counter()
    documents = {game: [random_match(game, players, random.Random(f"{game}{i}"), deals=4)
                        for i in range(DISTINCT)] for game, players, _share in GAMES}
    print(f"played {DISTINCT} matches per game in {time.perf_counter() - started:.1f} s", flush=True)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    async with sessions() as db:
        people = await add_users(db, ["anna"] + [f"player{i:02d}" for i in range(40)],
                                 now - timedelta(days=800))
        anna, others = people[0], people[1:]
        await db.execute(update(User).where(User.id == anna).values(
            password_hash=PasswordHasher().hash("long enough")))
        db.add_all(Friendship(requester_id=anna, addressee_id=other, accepted=True, created_at=now)
                   for other in others[:10])
        await db.commit()
    weights = [share for _g, _p, share in GAMES]
    started = time.perf_counter()
    for index in range(matches):
        game, players, _share = rng.choices(GAMES, weights)[0]
        holders = [anna] + [rng.choice(others + [None, None]) for _ in range(players - 1)]
        while len({h for h in holders if h is not None}) != sum(h is not None for h in holders):
            holders = [anna] + [rng.choice(others + [None, None]) for _ in range(players - 1)]
        at = now - timedelta(minutes=(matches - index) * 100)
        async with sessions() as db:
            await store_finished(db, rng.choice(documents[game]), holders, at,
                                 opponents="friend" if index % 7 == 3 else "any")
            await db.commit()
        if (index + 1) % 1000 == 0:
            print(f"stored {index + 1} matches ({time.perf_counter() - started:.0f} s)", flush=True)
    await engine.dispose()


def percentiles(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(round(0.95 * len(times))) - 1)]
    return (f"p50 {statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
            f"max {times[-1] * 1000:.1f} ms")


async def serve_times(url: str, data_dir: Path, requests: int) -> None:
    """Time the profile page and the statistics API through the ASGI app."""
    settings = Settings(database_url=url, data_dir=data_dir, secret_key="benchmark")
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        await app.state.services.stats.idle()  # nothing left to count (the rebuild counted all)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as own, \
                httpx.AsyncClient(transport=transport, base_url="http://bench") as visitor:
            csrf = (await own.get("/api/me")).json()["csrf"]
            login = await own.post("/login", data={"name": "anna", "password": "long enough", "csrf": csrf})
            assert login.status_code in (200, 303), login.status_code
            for label, client, path in (("profile page, anna's own view", own, "/players/anna"),
                                        ("profile page, a visitor", visitor, "/players/anna"),
                                        ("GET /api/players/anna/stats (every game)", own,
                                         "/api/players/anna/stats")):
                for _ in range(5):  # warm up
                    assert (await client.get(path)).status_code == 200
                times, cpu = [], []
                for _ in range(requests):
                    started, started_cpu = time.perf_counter(), time.process_time()
                    response = await client.get(path)
                    times.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - started_cpu)
                    assert response.status_code == 200
                print(f"{label}: {percentiles(times)} ({requests} requests, {len(response.content)} bytes)")
                print(f"  CPU time of this process per request: {percentiles(cpu)}")


def load() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


async def main() -> None:
    print(load(), flush=True)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--database-url", default=None,
                        help="an empty database (default: a temporary SQLite file), or one an "
                             "earlier run filled, with --filled")
    parser.add_argument("--filled", action="store_true",
                        help="the database holds an earlier run's matches: rebuild and time only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bench.db"
        await asyncio.to_thread(upgrade, url)
        if not args.filled:
            await fill(url, args.matches)
        engine = make_engine(url)
        rebuilt = await Stats(make_sessionmaker(engine), Clock()).rebuild()
        await engine.dispose()
        print(f"rebuild: {rebuilt.matches} matches in {rebuilt.seconds:.1f} s: "
              f"{rebuilt.per_second:.0f} matches/s ({len(rebuilt.skipped)} skipped)", flush=True)
        print(load(), flush=True)
        await serve_times(url, Path(tmp), args.requests)
    await asyncio.to_thread(runner.shutdown)
    print(load())


if __name__ == "__main__":
    asyncio.run(main())
