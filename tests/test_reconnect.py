"""Reconnect: a client dropped 100 times at random points of a match ends with exactly the state
of a client that never dropped.

Two tables with the same deals (same seeded rng) play the same match, move for move (each seat
plays the first legal non-announcement action of its *own client's* view, as a browser would):
at table A nobody drops; at table B seat 1's connection is dropped 100 times, each time losing a
random number of the messages still in flight, staying away while seat 0 plays on (sometimes
longer than the resume buffer of 3 messages, so both resume paths run), then reconnecting with
the last seq and epoch it saw. The client checks every event continues its seq by exactly one
(nothing missed, nothing twice). The final states of both tables' clients must be equal.

The clients ask for deltas (``hello.deltas``): every event is a patch applied to the state the
client holds (app.rooms.delta.ClientState), so a missed or repeated patch would corrupt it.
"""

from __future__ import annotations

import random

from app.rooms.actor import ActorConfig
from app.rooms.connection import Connection
from app.rooms.delta import ClientState
from tests.test_rooms import env  # noqa: F401  (the actor fixture: test game on SQLite)

DROPS = 100


class Client:
    """A protocol client's memory: the last state, seq and epoch it saw."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.conn: Connection | None = None
        self.tracker = ClientState()
        self.state: dict | None = None
        self.seq: int | None = None
        self.epoch: str | None = None
        self.snapshots = 0
        self.resumed_events = 0

    def connect(self, actor) -> None:
        self.conn = Connection(self.user_id, deltas=True)
        actor.attach(self.conn, self.seq, self.epoch)
        self.fresh = True

    def apply(self, message: dict) -> None:
        kind = message["type"]
        assert kind in ("snapshot", "event"), message
        if kind == "snapshot":
            self.snapshots += 1
        else:
            assert message["epoch"] == self.epoch
            assert message["seq"] == self.seq + 1, (message["seq"], self.seq)  # no gap, no repeat
            if self.fresh:
                self.resumed_events += 1
            assert "patch" in message and "state" not in message
        self.fresh = False
        self.state = self.tracker.apply(message)
        self.seq, self.epoch = message["seq"], message["epoch"]

    def read(self, keep: int | None = None) -> None:
        pending = self.conn.pending()
        for message in pending[:keep] if keep is not None else pending:
            self.apply(message)

    def drop(self, actor, rng: random.Random) -> None:
        """The socket dies: messages still in flight are lost, the actor is told later."""
        pending = self.conn.pending()
        for message in pending[:rng.randrange(len(pending) + 1)]:
            self.apply(message)
        actor.detach(self.conn)
        self.conn = None

    def move(self) -> dict | None:
        view = self.state and self.state["view"]
        if not view or self.state["result"] or self.state["you"] not in view.get("to_act", []) \
                and view.get("to_move") != self.state["you"]:
            return None
        legal = [a for a in view["legal"] if a["type"] != "announce"] or view["legal"]
        return {k: v for k, v in legal[0].items() if k != "seat"} if legal else None


def comparable(state: dict) -> dict:
    table = {k: v for k, v in state["table"].items() if k != "id"}
    table["seats"] = [{k: v for k, v in s.items() if k != "name"} for s in table["seats"]]
    return {**state, "table": table}


async def play(env,  # noqa: F811
               drops: int, rng: random.Random) -> tuple[list[Client], int]:
    actor, viewers = await env["table"](ActorConfig(bot_delay=0, round_pause=0, resume_buffer=3),
                                        deals=24)
    clients = [Client(v.id) for v in viewers]
    for client in clients:
        client.connect(actor)
    await actor.idle()
    done = 0
    for _ in range(10_000):
        for client in clients:
            if client.conn is not None:
                client.read()
        if actor.table.status == "finished" and clients[1].conn is not None:
            break
        flaky = clients[1]
        if flaky.conn is not None and done < drops and rng.random() < 0.6:
            flaky.drop(actor, rng)
            done += 1
            await actor.idle()
            away = rng.choice([0, 1, 2, 3])  # seat 0 plays on meanwhile, when it may
            for _ in range(away):
                clients[0].read()
                move = clients[0].move()
                if move is None:
                    break
                actor.act(clients[0].conn, move)
                await actor.idle()
            flaky.connect(actor)
            await actor.idle()
            continue
        if flaky.conn is None:
            flaky.connect(actor)
            await actor.idle()
            continue
        moved = False
        for client in clients:
            move = client.move()
            if move is not None:
                actor.act(client.conn, move)
                await actor.idle()
                moved = True
                break
        assert moved or actor.table.status == "finished", "nobody can move"
    for client in clients:
        client.read()
    assert actor.table.status == "finished"
    return clients, done


async def test_a_client_dropped_100_times_ends_with_the_state_of_one_that_never_dropped(env):  # noqa: F811
    steady, none_dropped = await play(env, 0, random.Random(1))
    flaky, dropped = await play(env, DROPS, random.Random(2))
    assert none_dropped == 0 and dropped == DROPS
    print(f"drops={dropped} snapshots={flaky[1].snapshots} resumed_events={flaky[1].resumed_events}")
    assert flaky[1].snapshots > 1 and flaky[1].resumed_events > 0  # both resume paths ran
    for seat in (0, 1):
        assert comparable(flaky[seat].state) == comparable(steady[seat].state)
    assert flaky[1].state["result"] is not None
