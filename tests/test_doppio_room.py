"""Doppio's catch window in the room (issue 6), on an injected ManualClock: nothing sleeps.

The window stays open for the table's ``catch_window_seconds`` or until every eligible seat has
answered; the farthest catcher clockwise from the discarder gets the card whatever the arrival
order; a late catch is refused; a seat that disconnects passes; computer players answer within
the window; every seat sees the countdown.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from app.clock import ManualClock
from app.db.engine import make_engine, make_sessionmaker, upgrade
from app.db.models import User
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.store import MatchStore

FAST = ActorConfig(bot_delay=0, round_pause=0, resume_buffer=64)


@pytest.fixture
async def env(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/doppio.db"
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    clock = ManualClock()
    made: list[RoomManager] = []

    async def table(people: int, bots: int = 0, config: ActorConfig = FAST, **options):
        rooms = RoomManager(MatchStore(sessions, clock), clock, config,
                            rng_factory=lambda table_id: random.Random(11))
        made.append(rooms)
        lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock), any_deal_count=True)
        async with sessions() as db:
            users = [User(name=f"d{len(made)}{i}", password_hash=None, is_guest=True,
                          created_at=clock.now()) for i in range(people)]
            db.add_all(users)
            await db.commit()
        viewers = [Viewer(id=u.id, name=u.name) for u in users]
        created = await lobby.create_table(viewers[0], NewTable(
            game="doppio", players=people + bots, deals=3, bots=bots, options=options))
        for viewer in viewers[1:]:
            await lobby.join(viewer, created["id"])
        actor = rooms.actor(created["id"])
        await actor.idle()
        conns = [Connection(v.id) for v in viewers]
        for conn in conns:
            actor.attach(conn)
        await actor.idle()
        return actor, conns

    yield {"table": table, "clock": clock}
    for rooms in made:
        await rooms.shutdown()
    await engine.dispose()


async def settle(actor) -> None:
    for _ in range(3):
        await asyncio.sleep(0)  # let tasks woken by the clock run
        await actor.idle()


async def tick(env, actor, seconds: float) -> None:
    env["clock"].advance(seconds)
    await settle(actor)


def window(actor):
    return actor.progress.state.window


def errors(conn: Connection) -> list[str]:
    return [m["message"] for m in conn.pending() if m["type"] == "error"]


async def discard(actor, conn, position: str = "L1") -> str:
    """The seat of ``conn`` discards; returns the card (a catch window is then open)."""
    seat = actor.progress.state.turn
    card = actor.progress.state.hands[seat][("L3", "L2", "L1", "R1", "R2", "R3").index(position)]
    actor.act(conn, {"type": "discard", "position": position})
    await settle(actor)
    assert window(actor) is not None and window(actor).card == card
    return card


async def test_window_closes_early_when_all_answered_and_farthest_catcher_wins(env):
    actor, conns = await env["table"](3)
    assert actor.progress.state.turn == 0  # the last seat deals, seat 0 leads
    card = await discard(actor, conns[0])
    assert set(window(actor).eligible) == {1, 2}
    actor.act(conns[1], {"type": "catch"})  # arrives first, but seat 2 is farther clockwise
    await settle(actor)
    assert window(actor) is not None  # seat 2 has not answered yet
    actor.act(conns[2], {"type": "catch"})
    await settle(actor)
    assert window(actor) is None  # closed at once, no time passed
    assert env["clock"].monotonic() == 0
    assert actor.progress.state.held == (None, None, card)
    closed = [e for m in conns[0].pending() if m["type"] == "event" for e in m["events"]
              if e["type"] == "catch_window_closed"]
    assert closed[-1]["caught_by"] == 2 and sorted(closed[-1]["catchers"]) == [1, 2]


async def test_window_closes_at_its_deadline_and_a_late_catch_is_refused(env):
    actor, conns = await env["table"](3, catch_window_seconds=4)
    spectator = Connection(None)
    actor.attach(spectator)
    await settle(actor)
    card = await discard(actor, conns[0])
    views = [c.pending()[-1]["state"]["view"] for c in [*conns, spectator]]
    for view in views:  # every seat (and a spectator) sees the countdown
        assert view["catch_window"]["seconds"] == 4
        assert view["catch_window"]["remaining"] == pytest.approx(4)
    assert [a["type"] for a in views[1]["legal"]] == ["catch", "pass"]
    actor.act(conns[1], {"type": "catch"})
    await tick(env, actor, 3.9)
    assert window(actor) is not None  # still open just before the deadline
    late_joiner = Connection(None)
    actor.attach(late_joiner)
    await settle(actor)
    remaining = late_joiner.pending()[-1]["state"]["view"]["catch_window"]["remaining"]
    assert remaining == pytest.approx(0.1)  # a snapshot counts down from the time left
    actor.act(conns[2], {"type": "pass"})  # the last answer, 0.1 s before the deadline
    await settle(actor)
    assert window(actor) is None  # that was the last answer: closed early at 3.9 s
    assert actor.progress.state.held[1] == card

    # the next window: seat 1 discards (its held card refills), nobody answers in time
    card = await discard(actor, conns[1])
    await tick(env, actor, 2)
    assert window(actor) is not None
    await tick(env, actor, 2)
    assert window(actor) is None  # the deadline closed it
    assert actor.progress.state.dead[-1] == card
    conns[2].pending()
    actor.act(conns[2], {"type": "catch"})
    await settle(actor)
    assert errors(conns[2]) == ["too late: the catch window has closed"]
    assert actor.progress.state.held == (None, None, None)


async def test_turn_actions_wait_for_the_window(env):
    actor, conns = await env["table"](3)
    await discard(actor, conns[0])
    conns[1].pending()
    actor.act(conns[1], {"type": "discard", "position": "R1"})  # seat 1 moves next, but waits
    await settle(actor)
    assert errors(conns[1]) == ["wait: the catch window is still open"]
    assert actor.progress.state.turn == 1 and window(actor) is not None
    await tick(env, actor, 3)
    assert window(actor) is None
    actor.act(conns[1], {"type": "discard", "position": "R1"})
    await settle(actor)
    assert errors(conns[1]) == []


async def test_a_player_who_disconnects_during_the_window_passes(env):
    actor, conns = await env["table"](3)
    card = await discard(actor, conns[0])
    actor.act(conns[1], {"type": "catch"})
    await settle(actor)
    assert window(actor) is not None
    actor.detach(conns[2])
    await settle(actor)
    assert window(actor) is None  # seat 2 passed on leaving: everyone answered
    assert env["clock"].monotonic() == 0
    assert actor.progress.current.actions[-1] == {"type": "pass", "seat": 2}
    assert actor.progress.state.held[1] == card


async def test_a_computer_player_answers_within_the_window(env):
    actor, conns = await env["table"](1, bots=1, config=ActorConfig(bot_delay=5, round_pause=0))
    await discard(actor, conns[0])
    await tick(env, actor, 0.9)
    assert window(actor) is not None
    await tick(env, actor, 0.2)  # 1.1 s: within the 3 s window, the computer has answered
    assert window(actor) is None
    assert actor.progress.current.actions[-1]["type"] in ("catch", "pass")
    assert actor.progress.current.actions[-1]["seat"] == 1


async def test_after_a_restart_an_open_window_gets_a_fresh_deadline(env):
    actor, conns = await env["table"](2)
    await discard(actor, conns[0])
    rebuilt = type(actor)(actor.table_id, actor._store, actor._clock, FAST)
    for conn in conns:  # attached before anything runs: nobody is away, nobody auto-passes
        rebuilt.attach(Connection(conn.user_id))
    task = asyncio.create_task(rebuilt.run())
    await settle(rebuilt)
    assert rebuilt.progress.state.window is not None
    await tick(env, rebuilt, 2.9)
    assert rebuilt.progress.state.window is not None
    await tick(env, rebuilt, 0.1)
    assert rebuilt.progress.state.window is None
    rebuilt.stop()
    await task


def test_a_match_ended_by_the_tables_deals_is_won_by_the_lowest_penalties():
    """Before any total reaches 100 the game gives no verdict; the room's fallback must still
    treat Doppio's scores as penalties."""
    from app.games.base import RoundOutcome
    from app.games.registry import get_game
    from app.rooms.match import MatchProgress, RoundRecord

    game = get_game("doppio")
    progress = MatchProgress(game, game.make_rules({}), 2, deals=1)
    progress.rounds.append(RoundRecord(number=0, dealer=1, deal=[], deck=[],
                                       outcome=RoundOutcome(scores=(29, 36), finished=True)))
    assert progress.match_over()
    assert not game.match_status(progress.rules, 2, progress.outcomes()).winners
    assert progress.winners() == [0]


async def test_a_computer_player_still_answers_in_time_when_people_answer_late(env):
    actor, conns = await env["table"](2, bots=1, config=ActorConfig(bot_delay=5, round_pause=0))
    card = await discard(actor, conns[0])
    assert set(window(actor).eligible) == {1, 2}
    await tick(env, actor, 0.9)
    actor.act(conns[1], {"type": "catch"})  # an answer re-schedules the computer player
    await settle(actor)
    assert window(actor) is not None
    await tick(env, actor, 1.0)  # 1.9 s: it answered within what was left (2.1 s / 3)
    assert window(actor) is None
    answer = actor.progress.current.actions[-1]
    assert answer["seat"] == 2 and answer["type"] in ("catch", "pass")
    expected = 2 if answer["type"] == "catch" else 1  # seat 2 is farther from seat 0
    assert actor.progress.state.held[expected] == card
