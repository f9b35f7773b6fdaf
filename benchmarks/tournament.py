"""Tournaments at size (issue 43): 256 people — played by computer players standing in for
them — in a Doppelkopf series and in an arena, on one process. Prints

- the director's CPU per round (series: the draw and seating of every table of a round, while
  no table plays; arena: one pairing tick — the process's CPU during it, which includes the
  running tables' own work interleaved on the same event loop), in ms;
- the round-to-round seating latency: from the last table of a round finishing to every table
  of the next round seated and started (series, pause 0), and in the arena from a match
  finishing to its people's next table (p50, p99, max; the target is p99 <= 2 s);
- the standings update latency: from a table finishing to the tournament page's watchers being
  sent the new standings (p50, p99, max).

    .venv/bin/python benchmarks/tournament.py [--people 256] [--rounds 3] [--deals 4]
        [--arena-minutes 5] [--level beginner] [--database-url URL]

The site's own services run in this process (SQLite in a temporary directory unless
--database-url; the director ticks every TOURNAMENT_TICK, 1 s, and is woken by every table
that starts or finishes), with computer players moving at once (BOT_DELAY 0) for every seat.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from app.clock import Clock  # noqa: E402
from app.config import Settings  # noqa: E402
from app.db.engine import upgrade  # noqa: E402
from app.db.models import TournamentSeat, User  # noqa: E402
from app.lobby.service import Viewer  # noqa: E402
from app.rooms.connection import Connection  # noqa: E402
from app.services import build_services  # noqa: E402
from app.tournaments.spec import parse_spec  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def line(name: str, values: list[float], unit: str = "ms", scale: float = 1000.0) -> str:
    if not values:
        return f"{name}: no samples"
    return (f"{name}: n={len(values)} p50={pct(values, 50) * scale:.1f} {unit} "
            f"p99={pct(values, 99) * scale:.1f} {unit} max={max(values) * scale:.1f} {unit} "
            f"mean={statistics.fmean(values) * scale:.1f} {unit}")


class Watcher(Connection):
    """A tournament page's socket that notes when each update was sent."""

    def __init__(self) -> None:
        super().__init__(None)
        self.sent_at: list[float] = []

    def send(self, message) -> None:  # noqa: ANN001
        self.sent_at.append(time.perf_counter())


class Run:
    """The site's services with the hooks the figures need."""

    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        url = args.database_url or f"sqlite+aiosqlite:///{workdir}/bench.db"
        self.settings = Settings(data_dir=workdir, database_url=url, secret_key="bench",
                                 bot_delay=0.0, away_grace=0.0, round_pause=0.0,
                                 tournament_tick=1.0)
        self.url = url
        self.services = build_services(self.settings, Clock(), round_pause=0.0)
        self.finished_at: dict[int, float] = {}  # table → when its room said it finished
        changed = self.services.rooms.on_change

        async def note(table_id: int) -> None:
            self.finished_at[table_id] = time.perf_counter()  # start, then finish: the last
            if changed is not None:
                await changed(table_id)

        self.services.rooms.on_change = note

        async def everyone() -> set[int]:  # the people have the page open: nobody absent
            return set(self.people_ids)

        self.services.director._hooks.online = everyone  # noqa: SLF001
        self.people_ids: list[int] = []

    async def people(self, count: int) -> list[Viewer]:
        out = []
        async with self.services.accounts._db() as db:  # noqa: SLF001
            for n in range(count):
                user = User(name=f"B{n:04d}", is_guest=False, password_hash=None,
                            created_at=self.services.clock.now())
                db.add(user)
                await db.flush()
                out.append(Viewer(user.id, user.name))
            await db.commit()
        self.people_ids = [p.id for p in out]
        return out

    async def tournament(self, fields: dict, people: list[Viewer]) -> int:
        tournaments = self.services.tournaments
        start = self.services.clock.now() + timedelta(seconds=3)
        made = await tournaments.create(parse_spec({**fields, "starts_at": start.isoformat()}))
        for person in people:
            await tournaments.register(person, made["id"])
        return made["id"]

    async def until_over(self, tournament_id: int, timeout: float) -> dict:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            data = await self.services.tournaments.show(None, tournament_id)
            if data["status"] in ("finished", "cancelled"):
                return data
            await asyncio.sleep(1.0)
        raise SystemExit(f"tournament {tournament_id} did not finish in {timeout} s")


def standings_latency(watcher: Watcher, finishes: list[float]) -> list[float]:
    """For each table finish, the time to the first update sent to the page after it."""
    out = []
    for at in finishes:
        after = [s for s in watcher.sent_at if s >= at]
        if after:
            out.append(min(after) - at)
    return out


async def series(run: Run, people: list[Viewer], args: argparse.Namespace) -> None:
    director = run.services.director
    cpu_before = len(director.seat_cpu)
    tid = await run.tournament({"name": "Bench series", "rounds": args.rounds,
                                "deals": args.deals, "pause": 0, "max_players": 1024,
                                "bot_level": args.level}, people)
    watcher = Watcher()
    await run.services.tournament_hub.watch(watcher, tid)
    started = time.perf_counter()
    data = await run.until_over(tid, 3600)
    took = time.perf_counter() - started
    tables = {n: [t["id"] for t in r["tables"]] for n, r in
              ((r["number"], r) for r in data["schedule"])}
    seating = []
    for number in range(2, args.rounds + 1):
        last_finish = max(run.finished_at[t] for t in tables[number - 1])
        seating.append(director.seated_at[(tid, number)] - last_finish)
    finishes = [run.finished_at[t] for ids in tables.values() for t in ids]
    print(f"series: {len(people)} people, {args.rounds} rounds of {args.deals} deals, "
          f"{len(tables[1])} tables a round, {took:.0f} s in all")
    print("  " + line("director CPU per round (draw and seating)",
                      director.seat_cpu[cpu_before:]))
    print("  " + line("last table of a round finished -> next round seated", seating))
    print("  " + line("table finished -> standings sent to the page",
                      standings_latency(watcher, finishes)))
    print("  " + line("standings computed and sent after a change (hub)",
                      run.services.tournament_hub.latencies))


async def arena(run: Run, people: list[Viewer], args: argparse.Namespace) -> None:
    director = run.services.director
    cpu_before = len(director.seat_cpu)
    run.services.tournament_hub.latencies.clear()
    tid = await run.tournament({"name": "Bench arena", "format": "arena",
                                "duration": args.arena_minutes, "deals": args.deals,
                                "fill_wait": 0, "max_players": 1024,
                                "bot_level": args.level}, people)
    watcher = Watcher()
    await run.services.tournament_hub.watch(watcher, tid)
    await run.until_over(tid, 3600 + 60 * args.arena_minutes)
    # each person's matches in order: from one match's finish to the next one's seating
    async with run.services.accounts._db() as db:  # noqa: SLF001 - every match, not the page's
        rows = (await db.execute(select(TournamentSeat.user_id, TournamentSeat.table_id).where(
            TournamentSeat.tournament_id == tid))).all()
    seated: dict[int, list[int]] = {}
    for user_id, table_id in rows:
        seated.setdefault(user_id, []).append(table_id)
    created = run.services.director.seated_tables
    again = []
    for matches in seated.values():
        matches.sort()
        for first, second in zip(matches, matches[1:], strict=False):
            again.append(created[second] - run.finished_at[first])
    tables = {t for _u, t in rows}
    finishes = [run.finished_at[t] for t in tables if t in run.finished_at]
    print(f"arena: {len(people)} people, {args.arena_minutes} min, matches of {args.deals} "
          f"deals, {len(tables)} matches")
    print("  " + line("process CPU during a pairing tick (tables' play included)",
                      director.seat_cpu[cpu_before:]))
    print("  " + line("match finished -> its people seated again", again))
    print("  " + line("table finished -> standings sent to the page",
                      standings_latency(watcher, finishes)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--arena-minutes", type=int, default=5, dest="arena_minutes",
                        help="the arena's window (at least 5)")
    parser.add_argument("--level", default="beginner",
                        help="the computer players' level (default beginner: the fastest)")
    parser.add_argument("--database-url", default=None, dest="database_url")
    parser.add_argument("--only", choices=("series", "arena"), default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = Run(args, Path(tmp))
        await asyncio.to_thread(upgrade, run.url)
        await run.services.start()
        await run.services.rooms.rebuild()
        try:
            people = await run.people(args.people)
            if args.only in (None, "series"):
                await series(run, people, args)
            if args.only in (None, "arena"):
                await arena(run, people, args)
        finally:
            await run.services.close()


if __name__ == "__main__":
    asyncio.run(main())
