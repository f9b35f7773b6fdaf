"""Deltas: a client that applies the event patches holds, after every step, exactly the state a
fresh snapshot gives — for all four games, random bot play, every seat and a spectator — in
Python (app.rooms.delta.ClientState) and in the browser's code (static/js/patch.js, run by
Node on the same message streams). A patch carries nothing that the receiver's own state at
that seq does not hold, so deltas cannot leak what whole states do not (tests/test_leaks.py
checks the states).

Each step compares JSON encodings with sorted keys, so a value that changes JSON type but not
Python equality (1 / 1.0 / True) would show up as a difference.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from app.bots import random_bot
from app.clock import ManualClock
from app.games.registry import get_game
from app.rooms import delta
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.connection import Connection
from app.rooms.store import SeatInfo, TableInfo
from tests.conftest import require
from tests.test_leaks import GAMES, MemoryStore, strings

ROOT = Path(__file__).resolve().parent.parent
GAMES_EACH = 4


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


async def play_synced(game_name: str, number: int, streams: list[dict]) -> int:
    """One bot game (two deals) with delta clients; asserts the sync after every step and
    appends each client's message stream (with the expected states) to ``streams``. Returns
    the number of events checked."""
    game = get_game(game_name)
    players = game.player_counts[-1]
    table = TableInfo(id=number, game=game_name, preset=None, rules={}, players=players, deals=2,
                      status="playing", skill="beginner",
                      seats=tuple(SeatInfo(seat=s, user_id=s + 1, name=f"p{s}", bot_level=None)
                                  for s in range(players)))
    actor = TableActor(number, MemoryStore(table), ManualClock(),
                       ActorConfig(bot_delay=0, round_pause=0), rng=random.Random(number))
    task = asyncio.get_running_loop().create_task(actor.run())
    audiences: list[int | None] = [*range(players), None]
    conns = {a: Connection(None if a is None else a + 1, outbox_size=100_000, deltas=True)
             for a in audiences}
    clients = {a: delta.ClientState() for a in audiences}
    recorded = {a: {"game": game_name, "audience": a, "messages": [], "expect": []}
                for a in audiences}
    for conn in conns.values():
        actor.attach(conn)
    await actor.idle()
    rng = random.Random(number * 31)
    checked = 0
    for _ in range(5000):
        for audience, conn in conns.items():
            for message in conn.pending():
                if message["type"] not in ("snapshot", "event"):
                    continue
                state = clients[audience].apply(message)
                if message["type"] == "event":
                    assert "state" not in message
                    owned = strings(state)
                    for op in message["patch"]:
                        assert strings(op.get("value")) <= owned, (audience, op)
                    checked += 1
                recorded[audience]["messages"].append(message)
            fresh = actor.audiences.state(audience)
            assert canonical(clients[audience].state) == canonical(fresh), (game_name, audience)
            recorded[audience]["expect"].append((clients[audience].seq, fresh))
        progress = actor.progress
        if actor.table.status == "finished" or progress.match_over():
            break
        seat = game.to_act(progress.state)[0]
        move = random_bot.choose(clients[seat].state["view"], rng)
        actor.act(conns[seat], {k: v for k, v in move.items() if k != "seat"})
        await actor.idle()
    assert actor.progress.match_over(), f"{game_name} #{number} did not finish"
    actor.stop()
    await task
    streams.extend(recorded.values())
    return checked


@pytest.mark.parametrize("game_name", GAMES)
async def test_a_client_applying_patches_holds_exactly_the_snapshot_state(game_name, tmp_path):
    streams: list[dict] = []
    checked = 0
    for number in range(1, GAMES_EACH + 1):
        checked += await play_synced(game_name, number, streams)
    assert checked > 50 * GAMES_EACH  # real games were played, patch by patch
    node = shutil.which("node")
    require("browser", node is not None, "node is needed to run the browser's patch code")
    run_node_check(node, streams, tmp_path)


def run_node_check(node: str, streams: list[dict], tmp_path: Path) -> None:
    """Replay every stream through static/js/patch.js in Node; it must reach each expected
    state at its seq."""
    (tmp_path / "patch.mjs").write_text((ROOT / "static/js/patch.js").read_text())
    (tmp_path / "streams.json").write_text(json.dumps(streams))
    (tmp_path / "check.mjs").write_text(NODE_CHECK)
    out = subprocess.run([node, str(tmp_path / "check.mjs"), str(tmp_path / "streams.json")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("ok "), out.stdout


NODE_CHECK = r"""
import {readFileSync} from "node:fs";
import {applyPatch} from "./patch.mjs";

const sorted = (v) => Array.isArray(v) ? v.map(sorted)
  : v !== null && typeof v === "object"
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v;
const canonical = (v) => JSON.stringify(sorted(v));
const streams = JSON.parse(readFileSync(process.argv[2], "utf8"));
let steps = 0;
for (const stream of streams) {
  let state = null, seq = null;
  const bySeq = new Map();
  for (const m of stream.messages) {
    if (m.type === "snapshot") state = m.state;
    else {
      if (m.seq !== seq + 1) throw new Error(`seq ${m.seq} after ${seq}`);
      state = applyPatch(state, m.patch);
    }
    seq = m.seq;
    bySeq.set(seq, canonical(state));
  }
  for (const [at, expected] of stream.expect) {
    if (bySeq.get(at) !== canonical(expected)) {
      console.log(`mismatch: ${stream.game} audience ${stream.audience} seq ${at}`);
      process.exit(1);
    }
    steps += 1;
  }
}
console.log(`ok ${steps} states`);
"""
