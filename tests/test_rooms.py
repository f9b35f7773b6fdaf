"""The table actor through its command interface with the test game (2 seats) on SQLite:
own views only, illegal commands, resume after a reconnect, a second tab, timers on an injected
clock, and no broadcast before the action is stored."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import text

from app.clock import ManualClock
from app.db.engine import make_engine, make_sessionmaker, upgrade
from app.db.models import User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.delta import ClientState
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore
from tests.platform_helpers import register_highcard

FAST = ActorConfig(bot_delay=0, round_pause=0, resume_buffer=8)


@pytest.fixture
async def env(tmp_path):
    register_highcard()
    url = f"sqlite+aiosqlite:///{tmp_path}/rooms.db"
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    clock = ManualClock()
    made: list[RoomManager] = []

    async def table(config: ActorConfig = FAST, bots: int = 0, join: bool = True,
                    game: str = "highcard", players: int = 2, deals: int = 2,
                    skill: str = "beginner"):
        rooms = RoomManager(MatchStore(sessions, clock), clock, config,
                            rng_factory=lambda table_id: random.Random(7))
        made.append(rooms)
        lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
        async with sessions() as db:
            users = [User(name=f"p{len(made)}{i}", password_hash=None, is_guest=True,
                          created_at=clock.now()) for i in range(2)]
            db.add_all(users)
            await db.commit()
        viewers = [Viewer(id=u.id, name=u.name) for u in users]
        # an Invited table: no move clock unless a test sets one (tests/test_move_clocks.py)
        created = await lobby.create_table(viewers[0], NewTable(
            game=game, players=players, deals=deals, bots=bots, opponents="invited",
            invite=[viewers[1].name], skill=skill))
        env["lobby"] = lobby
        if not bots and join:
            await lobby.join(viewers[1], created["id"])
        actor = rooms.actor(created["id"])
        await actor.idle()
        return actor, viewers

    env = {"table": table, "clock": clock, "engine": engine}
    yield env
    for rooms in made:
        await rooms.shutdown()
    await engine.dispose()


def messages(conn: Connection) -> list[dict]:
    return conn.pending()


async def attach_both(actor, viewers):
    conns = [Connection(v.id) for v in viewers]
    for conn in conns:
        actor.attach(conn)
    await actor.idle()
    return conns


def turn(actor) -> int:
    return actor.progress.game.to_act(actor.progress.state)[0]


async def step(actor, conns) -> dict:
    """The seat to act sends its first legal non-announcement action; returns that action."""
    seat = turn(actor)
    view = actor.progress.game.view(actor.progress.state, seat)
    move = next(a for a in view["legal"] if a["type"] != "announce")
    actor.act(conns[seat], {k: v for k, v in move.items() if k != "seat"})
    await actor.idle()
    return move


async def test_each_seat_receives_only_its_own_hand(env):
    actor, viewers = await env["table"]()
    conns = await attach_both(actor, viewers)
    spectator = Connection(None)
    actor.attach(spectator)
    await actor.idle()
    await step(actor, conns)
    deal = actor.progress.current.deal
    for seat, conn in enumerate(conns):
        for message in messages(conn):
            view = message["state"]["view"]
            assert message["state"]["you"] == seat
            assert set(view["hand"]) <= set(deal[seat])
            assert not set(view["hand"]) & set(deal[1 - seat])
    for message in messages(spectator):
        assert message["state"]["you"] is None and message["state"]["view"]["hand"] == []


async def test_illegal_and_foreign_commands_get_an_error_and_change_nothing(env):
    actor, viewers = await env["table"]()
    conns = await attach_both(actor, viewers)
    messages(conns[0]), messages(conns[1])
    waiting = 1 - turn(actor)
    seq, logged = actor.seq, list(actor.progress.current.actions)
    actor.act(conns[waiting], {"type": "declare", "value": "healthy"})
    actor.act(conns[turn(actor)], {"type": "declare", "value": "triple"})
    actor.act(conns[turn(actor)], {"type": "declare", "value": "healthy", "seat": waiting})
    spectator = Connection(None)
    actor.attach(spectator)
    actor.act(spectator, {"type": "declare", "value": "healthy"})
    await actor.idle()
    errors = [m for c in conns for m in messages(c)]
    assert [m["type"] for m in errors] == ["error"] * 3
    assert all(m["code"] == "illegal" and m["seq"] == seq for m in errors)
    assert [m["code"] for m in messages(spectator) if m["type"] == "error"] == ["not_seated"]
    assert actor.seq == seq and actor.progress.current.actions == logged


async def test_resume_sends_what_was_missed_else_a_snapshot(env):
    actor, viewers = await env["table"]()
    conns = [Connection(viewers[0].id), Connection(viewers[1].id, deltas=True)]
    for conn in conns:
        actor.attach(conn)
    await actor.idle()
    seen = ClientState()
    for message in messages(conns[1]):
        seen.apply(message)
    last_seen = {"seq": seen.seq, "epoch": seen.epoch}
    for _ in range(3):
        await step(actor, conns)
    # seat 1 reconnects (a new socket) and says which seq it saw last: the missed patches
    again = Connection(viewers[1].id, deltas=True)
    actor.attach(again, last_seq=last_seen["seq"], epoch=last_seen["epoch"])
    await actor.idle()
    got = messages(again)
    assert got[0]["type"] == "event" and all("state" not in m for m in got)
    assert [m["seq"] for m in got] == list(range(last_seen["seq"] + 1, actor.seq + 1))
    for message in got:
        seen.apply(message)
    assert seen.state["view"]["hand"] == list(actor.progress.state.hands[1])
    conns[1] = again

    # a client that takes whole states gets a snapshot instead (only patches are buffered)
    whole = Connection(viewers[1].id)
    actor.attach(whole, last_seq=last_seen["seq"], epoch=last_seen["epoch"])
    await actor.idle()
    assert [m["type"] for m in messages(whole)][0] == "snapshot"
    conns[1] = whole

    other_epoch = Connection(viewers[1].id, deltas=True)
    actor.attach(other_epoch, last_seq=last_seen["seq"], epoch="another-epoch")
    await actor.idle()
    assert messages(other_epoch)[0]["type"] == "snapshot"
    conns[1] = other_epoch

    while actor.seq - last_seen["seq"] <= 8:  # more than the buffer of 8 messages
        await step(actor, conns)
    late = Connection(viewers[1].id, deltas=True)
    actor.attach(late, last_seq=last_seen["seq"], epoch=last_seen["epoch"])
    await actor.idle()
    snapshot = messages(late)[0]
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == actor.seq - 1
    assert snapshot["state"]["you"] == 1


async def test_a_second_tab_takes_over_the_seat_and_the_first_is_told(env):
    actor, viewers = await env["table"]()
    first = Connection(viewers[0].id)
    actor.attach(first)
    await actor.idle()
    second = Connection(viewers[0].id)
    actor.attach(second)
    await actor.idle()
    closing = messages(first)[-1]
    assert closing == {"type": "closed", "seq": closing["seq"], "reason": "taken_over",
                       "reconnect": False}
    assert first.closed and not second.closed
    assert messages(second)[0]["state"]["you"] == 0


async def computer_moves_after(env, config: ActorConfig, skill: str = "beginner") -> float:
    """Seconds of the injected clock (in steps of 0.1) from the computer seat's turn to its
    move, at a two-seat table of ``config`` whose computer player is of ``skill``."""
    clock = env["clock"]
    actor, viewers = await env["table"](config, bots=1, skill=skill)
    conn = Connection(viewers[0].id)
    actor.attach(conn)
    await actor.idle()
    while turn(actor) != 1:
        await step(actor, {0: conn})
    before = len(actor.progress.current.actions)
    for tenths in range(1, 100):
        clock.advance(0.1)
        await asyncio.sleep(0)  # let woken tasks run; no wall-clock wait
        await actor.idle()
        if len(actor.progress.current.actions) > before:
            assert actor.progress.current.actions[-1]["seat"] == 1
            return round(tenths / 10, 1)
    raise AssertionError("the computer player never moved")


async def test_computer_player_waits_for_the_injected_clock(env):
    assert await computer_moves_after(env, ActorConfig(bot_delay=2.0, round_pause=0)) == 2.0


async def test_an_expert_thinks_inside_the_pacing(env):
    """The expert's thinking time (bot_budget_ms) is taken from the pacing, not added to it:
    its move is asked for 0.5 s earlier, so it lands when a beginner's would."""
    config = ActorConfig(bot_delay=2.0, bot_budget_ms=500, round_pause=0)
    assert await computer_moves_after(env, config, skill="expert") == 1.5


async def test_turn_timer_lets_a_computer_move_for_a_silent_person(env):
    clock = env["clock"]
    actor, viewers = await env["table"](ActorConfig(bot_delay=0, round_pause=0, turn_timeout=30))
    conns = await attach_both(actor, viewers)
    seat = turn(actor)
    assert messages(conns[seat])[-1]["state"]["deadline"] == 30
    clock.advance(29)
    await asyncio.sleep(0)
    await actor.idle()
    assert actor.progress.current.actions == []
    clock.advance(1)
    await asyncio.sleep(0)
    await actor.idle()
    assert [a["seat"] for a in actor.progress.current.actions] == [seat]


async def test_nothing_is_announced_when_the_action_cannot_be_stored(env):
    actor, viewers = await env["table"]()
    conns = await attach_both(actor, viewers)
    messages(conns[0]), messages(conns[1])
    async with env["engine"].begin() as conn:
        await conn.execute(text("DROP TABLE actions"))
    seq = actor.seq
    seat = turn(actor)
    actor.act(conns[seat], {"type": "declare", "value": "healthy"})
    await actor.idle()
    assert [m["code"] for m in messages(conns[seat])] == ["server_error"]
    assert messages(conns[1 - seat]) == []
    assert actor.seq == seq and actor.progress.current.actions == []


async def test_a_computer_player_that_picks_an_illegal_move_does_not_stall_the_table(env, monkeypatch):
    from app.bots import runner

    async def cheat(*_args, **_kwargs):
        return {"type": "cheat"}

    monkeypatch.setattr(runner, "decide", cheat)
    actor, viewers = await env["table"](bots=1)
    conn = Connection(viewers[0].id)
    actor.attach(conn)
    await actor.idle()
    while actor.table.status != "finished":
        await step(actor, {0: conn})
    assert actor.progress.counted() == 2
    assert all(a["type"] != "cheat" for r in actor.progress.rounds for a in r.actions)


async def test_a_watcher_who_joins_gets_the_seat_view_without_reconnecting(env):
    actor, viewers = await env["table"](join=False)
    watcher = Connection(viewers[1].id)
    actor.attach(watcher)
    await actor.idle()
    assert messages(watcher)[-1]["state"]["you"] is None
    await env["lobby"].join(viewers[1], actor.table_id)
    await actor.idle()
    latest = messages(watcher)[-1]["state"]
    assert latest["you"] == 1 and len(latest["view"]["hand"]) == 3


@pytest.mark.parametrize("game_name", ["doppelkopf", "doublehead_kids", "doppelganger_tricks",
                                       "doppio"])
async def test_every_registered_game_plays_a_deal_at_a_table(env, game_name):
    """The actor is game-agnostic: one person and computer players finish a deal of each game."""
    from app.games.registry import available_games, get_game

    assert game_name in available_games(), f"{game_name} does not load"
    game = get_game(game_name)
    players = game.player_counts[-1]
    actor, viewers = await env["table"](bots=players - 1, game=game_name, players=players,
                                        deals=1)
    conn = Connection(viewers[0].id)
    actor.attach(conn)
    await actor.idle()
    for _ in range(2000):
        if actor.table.status == "finished":
            break
        assert 0 in game.to_act(actor.progress.state), "the table waits for nobody"
        sent = game.legal_actions(actor.progress.state, 0)
        legal = [a for a in sent if a["type"] != "announce"] or sent
        actor.act(conn, {k: v for k, v in legal[0].items() if k != "seat"})
        await actor.idle()
    assert actor.table.status == "finished"
    assert actor.progress.counted() == 1


async def _tick(clock, seconds: float, actor) -> None:
    clock.advance(seconds)
    await asyncio.sleep(0)  # let woken tasks run; no wall-clock wait
    await actor.idle()


async def test_a_computer_player_moves_for_a_person_gone_longer_than_the_grace(env):
    clock = env["clock"]
    actor, viewers = await env["table"](ActorConfig(bot_delay=0, round_pause=0, away_grace=20))
    conns = await attach_both(actor, viewers)
    gone = turn(actor)
    actor.detach(conns[gone])
    await actor.idle()
    await _tick(clock, 19, actor)
    assert actor.progress.current.actions == []  # still within the grace period
    await _tick(clock, 1, actor)
    assert [a["seat"] for a in actor.progress.current.actions] == [gone]
    present = 1 - gone
    for _ in range(200):  # only the present person acts; the clock does not move any more
        if actor.table.status == "finished":
            break
        movers = () if actor.progress.round_over() else actor.progress.game.to_act(actor.progress.state)
        if movers and movers[0] == present:
            await step(actor, conns)
        await _tick(clock, 0, actor)
    # the gone seat was played at each of its turns without a new grace period, to the end
    assert actor.table.status == "finished"


async def test_a_person_back_within_the_grace_keeps_their_seat(env):
    clock = env["clock"]
    actor, viewers = await env["table"](ActorConfig(bot_delay=0, round_pause=0, away_grace=20))
    conns = await attach_both(actor, viewers)
    seat = turn(actor)
    actor.detach(conns[seat])
    await actor.idle()
    await _tick(clock, 10, actor)
    back = Connection(viewers[seat].id)
    actor.attach(back)
    await actor.idle()
    await _tick(clock, 30, actor)
    assert actor.progress.current.actions == []  # nobody moved for them
    conns[seat] = back
    await step(actor, conns)
    assert [a["seat"] for a in actor.progress.current.actions] == [seat]


async def test_a_client_attaching_while_the_server_shuts_down_is_told_to_reconnect(env):
    actor, viewers = await env["table"]()
    conns = await attach_both(actor, viewers)
    rooms = env["lobby"]._rooms
    await rooms.shutdown()
    assert messages(conns[0])[-1] == {"type": "closed", "seq": actor.seq, "reason": "shutdown",
                                      "reconnect": True}
    late = Connection(viewers[0].id)
    rooms.actor(actor.table_id).attach(late)  # a quick reconnect: no table starts again
    assert messages(late) == [{"type": "closed", "seq": 0, "reason": "shutdown",
                               "reconnect": True}]
    assert rooms.count() == 0
