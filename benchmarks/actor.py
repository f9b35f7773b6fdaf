"""Benchmark of the table actors alone: server CPU per Doppelkopf action without sockets.

Runs ``--tables`` full Doppelkopf tables in this process (SQLite, the event log on or off),
each with four delta connections (as the browser asks) whose queued messages are taken after
every action, and plays random legal non-announcement moves as fast as the actors take them
for ``--seconds``. What it measures is the part of ``benchmarks/load.py``'s "ms/action" that
is the rules, the views, the deltas, the encoding and the log, without the WebSocket frames
and the clients.

    .venv/bin/python benchmarks/actor.py --tables 50 --seconds 10 --persist off

``--actions N`` plays exactly N moves instead (with ``--tables 1`` the same moves every run), for
an instruction count that the machine's load does not change: the difference of two counts,
``valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python
benchmarks/actor.py --tables 1 --actions N --persist off`` at N = 1,300 and 300, over 1,000
(docs/performance.md, "Counting instructions"; ``DOPPELRUNDE_COMPILED=1`` for the compiled build).

The last line is one JSON object: ``{"actions": n, "actions_per_s": x, "cpu_us_per_action": y,
"gc": {...}, "compiled": b}`` (CPU of this process, choosing the moves and reading the messages
included; ``compiled``: run with ``DOPPELRUNDE_COMPILED=1``, the hot modules' mypyc build).
``gc``: as the server does (app/server.py) the collector runs with the server's thresholds and
what start-up built is frozen after the warm-up; then, over the measured seconds, the
collections per generation, their total and longest pause (ms), and the objects the collector
tracks at the end (what a full collection walks).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import compiled  # noqa: E402
from app.accounts.service import Accounts  # noqa: E402
from app.clock import Clock  # noqa: E402
from app.config import Settings  # noqa: E402
from app.db.engine import make_engine, make_sessionmaker, upgrade  # noqa: E402
from app.lobby.friends import Friends  # noqa: E402
from app.lobby.service import Lobby, NewTable, Viewer  # noqa: E402
from app.rooms.actor import ActorConfig  # noqa: E402
from app.rooms.connection import Connection  # noqa: E402
from app.rooms.manager import RoomManager  # noqa: E402
from app.rooms.store import MatchStore, UnloggedMatchStore  # noqa: E402


async def make_tables(rooms: RoomManager, lobby: Lobby, accounts: Accounts, count: int,
                      turn_seconds: int | None = None):
    """``count`` full Doppelkopf tables of four guests (``turn_seconds``: their move clock,
    None: a public table's); returns [(actor, [user ids])]."""
    tables = []
    for _ in range(count):
        users = [await accounts.create_guest() for _seat in range(4)]
        viewers = [Viewer(id=u.id, name=u.name) for u in users]
        table = await lobby.create_table(viewers[0], NewTable(game="doppelkopf", preset="ddv",
                                                              deals=48, turn_seconds=turn_seconds))
        for viewer in viewers[1:]:
            await lobby.join(viewer, table["id"])
        actor = rooms.actor(table["id"])
        await actor.idle()
        tables.append((actor, [v.id for v in viewers]))
    return tables


def next_move(actor, rng: random.Random) -> tuple[int, dict] | None:
    """The seat to move at ``actor``'s table and a random legal move of it (the seat's own
    ``legal``, as its client would read it), or None between deals."""
    progress = actor.progress
    if progress is None or progress.current is None or progress.round_over():
        return None
    game, state = progress.game, progress.state
    to_act = game.to_act(state)
    if not to_act:
        return None
    seat = to_act[0]
    legal = [a for a in game.legal_actions(state, seat) if a["type"] != "announce"]
    if not legal:
        return None
    move = dict(rng.choice(legal))
    move.pop("seat", None)
    return seat, move


async def play(actor, user_ids: list[int], rng: random.Random, stop: asyncio.Event,
               counter: list[int], limit: float = float("inf"), collect_every: int = 0) -> None:
    conns = [Connection(user_id, deltas=True, outbox_size=100_000) for user_id in user_ids]
    for conn in conns:
        actor.attach(conn)
    await actor.idle()
    while not stop.is_set() and counter[0] < limit:
        for conn in conns:
            conn.take()  # read what a client would get
        chosen = next_move(actor, rng)
        if chosen is None:
            await asyncio.sleep(0.001)
            continue
        seat, move = chosen
        actor.act(conns[seat], move)
        await actor.idle()
        counter[0] += 1
        if collect_every and counter[0] % collect_every == 0:
            gc.collect(1)


async def main(args) -> dict:
    compiled.check()  # DOPPELRUNDE_COMPILED=1 measures the compiled build, or nothing
    workdir = Path(tempfile.mkdtemp(prefix="doppelrunde-actor-"))
    url = f"sqlite+aiosqlite:///{workdir}/actor.db"
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    gc.set_threshold(*Settings().gc_thresholds)  # as app/server.py sets them
    clock = Clock()
    store = (MatchStore if args.persist == "on" else UnloggedMatchStore)(sessions, clock)
    config = ActorConfig(bot_delay=0, round_pause=0, away_grace=86400)
    rooms = RoomManager(store, clock, config, rng_factory=lambda table_id: random.Random(table_id))
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), max_open_tables=args.tables + 1)
    try:
        tables = await make_tables(rooms, lobby, Accounts(sessions, clock), args.tables,
                                   args.turn_seconds)
        stop, counter = asyncio.Event(), [0]
        limit = args.actions if args.actions is not None else float("inf")
        tasks = [asyncio.create_task(play(actor, ids, random.Random(i), stop, counter, limit,
                                          args.collect_every))
                 for i, (actor, ids) in enumerate(tables)]
        if args.actions is not None:  # a fixed amount of work, no warm-up (count instructions)
            await asyncio.gather(*tasks)
            print(json.dumps({"actions": counter[0], "compiled": compiled.requested()}), flush=True)
            return {"actions": counter[0]}
        await asyncio.sleep(args.warmup)
        gc.collect()
        gc.freeze()
        pauses = GcPauses()
        start_n, start_cpu, start = counter[0], time.process_time(), time.perf_counter()
        await asyncio.sleep(args.seconds)
        actions = counter[0] - start_n
        cpu, elapsed = time.process_time() - start_cpu, time.perf_counter() - start
        collector = pauses.stop()
        stop.set()
        await asyncio.gather(*tasks)
    finally:
        await rooms.shutdown()
        await engine.dispose()
    result = {"actions": actions, "actions_per_s": round(actions / elapsed, 1),
              "cpu_us_per_action": round(cpu / max(actions, 1) * 1e6, 1), "gc": collector,
              "compiled": compiled.requested()}
    print(f"tables {args.tables}, log {args.persist}: {actions} actions in {elapsed:.1f} s, "
          f"{result['actions_per_s']} actions/s, {result['cpu_us_per_action']} µs CPU/action")
    print(f"gc: collections {collector['collections']} (generations 0/1/2), "
          f"{collector['total_ms']} ms in all, longest {collector['max_ms']} ms, "
          f"{collector['tracked']} tracked objects")
    print(json.dumps(result), flush=True)
    return result


class GcPauses:
    """The collector's pauses from now until ``stop`` (a gc callback)."""

    def __init__(self) -> None:
        self.collections = [0, 0, 0]
        self.pauses: list[float] = []
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.collections[info["generation"]] += 1
            self.pauses.append((time.perf_counter() - self._began) * 1000.0)

    def stop(self) -> dict:
        gc.callbacks.remove(self._callback)
        return {"collections": self.collections, "total_ms": round(sum(self.pauses), 1),
                "max_ms": round(max(self.pauses, default=0.0), 1),
                "tracked": len(gc.get_objects())}


def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--persist", choices=("on", "off"), default="off")
    parser.add_argument("--actions", type=int, default=None,
                        help="play exactly this many actions (no warm-up, no timing) and stop: "
                             "with --tables 1 the same work every run, for an instruction count "
                             "(valgrind --tool=callgrind) that the machine's load does not change")
    parser.add_argument("--turn-seconds", type=int, default=None,
                        help="the tables' move clock (default: a public table's, 30 s); under "
                             "valgrind give many tables 600, or their clocks run out and computer "
                             "players stand in")
    parser.add_argument("--collect-every", type=int, default=0, metavar="N",
                        help="collect generation 1 after every N-th action (the server's timed "
                             "collections come about every 150 actions at 500 tables at full "
                             "speed), so that an instruction count includes the collector's "
                             "walk of what the actions leave alive; 0: the allocation count only")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
