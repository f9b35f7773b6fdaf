"""Doppelganger Tricks at a live table: the seat that may take a bonus card keeps the turn until
it takes one or says "no bonus" (rulings; app.games.doppelganger_tricks.flow). The deal is not
shuffled, so seat 0 (the person, first to lead) holds the ten pink cards and no navy card: right
after its first play it may take the star or the eye. The computer players wait for it however
long it takes (the injected clock runs a minute on); "no bonus" moves the game on."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.clock import ManualClock
from app.db.engine import make_engine, make_sessionmaker, upgrade
from app.db.models import User
from app.games.base import IllegalAction
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable, Viewer
from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.match import MatchProgress
from app.rooms.store import MatchStore


class Unshuffled(random.Random):
    """Deals the deck in order: seat 0 pink, 1 green, 2 yellow, 3 navy (4 players)."""

    def shuffle(self, x, *args, **kwargs) -> None:  # noqa: D102 - the deck stays in order
        return None


@pytest.fixture
async def table(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/bonus.db"
    await asyncio.to_thread(upgrade, url)
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    clock = ManualClock()
    rooms = RoomManager(MatchStore(sessions, clock), clock,
                        ActorConfig(bot_delay=0.6, round_pause=0, away_grace=None),
                        rng_factory=lambda _table: Unshuffled(3))
    lobby = Lobby(sessions, clock, rooms, Friends(sessions, clock))
    async with sessions() as db:
        user = User(name="anna", password_hash=None, is_guest=True, created_at=clock.now())
        db.add(user)
        await db.commit()
        person = Viewer(id=user.id, name=user.name)
    created = await lobby.create_table(person, NewTable(game="doppelganger_tricks", players=4,
                                                        bots=3, skill="intermediate"))
    actor = rooms.actor(created["id"])
    conn = Connection(person.id)
    actor.attach(conn)
    await actor.idle()
    yield actor, conn, clock
    await rooms.shutdown()
    await engine.dispose()


async def tick(actor, clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    for _ in range(4):
        await asyncio.sleep(0)
        await actor.idle()


def legal(actor, seat: int = 0) -> list[dict]:
    return actor.progress.game.view(actor.progress.state, seat)["legal_actions"]


async def test_the_seat_that_may_take_a_bonus_card_keeps_the_turn(table):
    actor, conn, clock = table
    actor.act(conn, {"type": "bid", "value": 3})
    for _ in range(20):  # the computer players bid
        if actor.progress.state.bids_complete:
            break
        await tick(actor, clock, 1)
    assert actor.progress.state.hands[0][0].suit.value == "P"
    actor.act(conn, {"type": "play", "card": "P1"})
    await actor.idle()
    state = actor.progress.state
    assert actor.progress.game.to_act(state) == (0,)
    for _ in range(60):  # a minute: nobody plays on while seat 0 may take a bonus card
        await tick(actor, clock, 1)
    assert len(actor.progress.state.trick) == 1
    assert [a["type"] for a in legal(actor)] == ["take_bonus", "take_bonus", "decline_bonus"]
    assert legal(actor, 1) == []
    with pytest.raises(IllegalAction, match="wait: seat 0 may still take a bonus card"):
        actor.progress.try_action({"seat": 1, "type": "play", "card": "G1"})
    actor.act(conn, {"type": "decline_bonus"})
    await actor.idle()
    assert actor.progress.state.bonus_window is None
    for _ in range(10):
        if len(actor.progress.state.trick) > 1:
            break
        await tick(actor, clock, 1)
    assert [p.seat for p in actor.progress.state.trick][:2] == [0, 1]  # the game moved on
    log = actor.progress.current.actions
    assert {"seat": 0, "type": "decline_bonus"} in log  # the live log holds the "no bonus"
    again = MatchProgress.replay(actor.progress.game, actor.progress.rules, 4, 4,
                                 [actor.progress.current])
    assert again.state == actor.progress.state
