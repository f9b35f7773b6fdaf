"""Issue 17 (6): every client action is checked against its game's action models (pydantic,
app.protocol.ACTIONS) before the rules see it: a ``type`` that is a list or an object, a field
of the wrong type, an unknown extra field (a 3 KB ``note``) — each is answered with
``bad_message``, nothing is logged and the table goes on. And any unexpected exception while
handling one command answers that client with ``server_error`` and leaves the table working
(a fault injected into a game's ``apply``)."""

from __future__ import annotations

import asyncio
import random

import pytest

from app.clock import ManualClock
from app.games.registry import get_game
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.connection import Connection
from app.rooms.store import SeatInfo, TableInfo
from tests.test_leaks import MemoryStore

GAMES = ["doppelkopf", "doublehead_kids", "doppelganger_tricks", "doppio"]


class LoggingStore(MemoryStore):
    def __init__(self, table: TableInfo) -> None:
        super().__init__(table)
        self.logged: list[dict] = []

    async def append_action(self, round_id, idx, action) -> None:
        self.logged.append(action)


async def _table(game_name: str):
    game = get_game(game_name)
    players = game.player_counts[-1]
    info = TableInfo(id=1, game=game_name, preset=None, rules={}, players=players, deals=1,
                     status="playing", skill="beginner",
                     seats=tuple(SeatInfo(seat=s, user_id=s + 1, name=f"p{s}", bot_level=None)
                                 for s in range(players)))
    store = LoggingStore(info)
    actor = TableActor(1, store, ManualClock(), ActorConfig(bot_delay=0, round_pause=0,
                                                             away_grace=None),
                       rng=random.Random(3))
    task = asyncio.get_running_loop().create_task(actor.run())
    conns = [Connection(s + 1, outbox_size=10_000) for s in range(players)]
    for conn in conns:
        actor.attach(conn)
    await actor.idle()
    return game, actor, task, store, conns


def _mover(game, actor, conns):
    seat = game.to_act(actor.progress.state)[0]
    legal = [a for a in game.legal_actions(actor.progress.state, seat) if a["type"] != "announce"]
    return seat, conns[seat], {k: v for k, v in legal[0].items() if k != "seat"}


def _errors(conn) -> list[dict]:
    return [m for m in conn.pending() if m["type"] == "error"]


@pytest.mark.parametrize("game_name", GAMES)
async def test_malformed_actions_are_refused_before_the_rules_see_them(game_name):
    game, actor, task, store, conns = await _table(game_name)
    seat, conn, move = _mover(game, actor, conns)
    conn.pending()
    seq = actor.seq
    malformed = [
        {**move, "type": [move["type"]]},
        {**move, "type": {"$ne": None}},
        {**move, "note": "x" * 3000},
        {**move, "extra": 1},
        {"type": move["type"], **{k: [v] for k, v in move.items() if k != "type"}},
        {"type": 7},
        {},
        {**move, "seat": str(seat)},
    ]
    for action in malformed:
        actor.act(conn, action)
        await actor.idle()
        errors = _errors(conn)
        assert len(errors) == 1, (action, errors)
        assert errors[0]["code"] in ("bad_message", "illegal"), errors
        assert len(errors[0]["message"]) <= 200
    assert actor.seq == seq and store.logged == []
    for action in ({**move, "note": "x" * 3000}, {**move, "extra": 1}):
        actor.act(conn, action)
        await actor.idle()
        assert _errors(conn)[0]["code"] == "bad_message"
    actor.act(conn, move)  # the well-formed action goes through
    await actor.idle()
    assert store.logged == [{**move, "seat": seat}] and actor.seq == seq + 1
    actor.stop()
    await task


@pytest.mark.parametrize("game_name", GAMES)
async def test_an_unexpected_exception_answers_the_client_and_the_table_goes_on(game_name,
                                                                               monkeypatch):
    game, actor, task, store, conns = await _table(game_name)
    seat, conn, move = _mover(game, actor, conns)
    conn.pending()
    real_apply = game.apply  # the game object's own (a staticmethod or a method)
    faults = {"left": 1}

    def faulty_apply(state, action):
        if faults["left"]:
            faults["left"] -= 1
            raise RuntimeError("a bug in the rules")
        return real_apply(state, action)

    monkeypatch.setattr(game, "apply", faulty_apply)
    actor.act(conn, move)
    await actor.idle()
    errors = _errors(conn)
    assert [e["code"] for e in errors] == ["server_error"] and "bug" not in errors[0]["message"]
    assert store.logged == []
    actor.act(conn, move)
    await actor.idle()
    assert store.logged == [{**move, "seat": seat}]
    actor.stop()
    await task


@pytest.mark.parametrize("game_name", GAMES)
def test_every_legal_action_fits_its_game_models(game_name):
    """The models refuse nothing the rules offer: every legal action of every seat along
    random games of every seat count, for every preset, parses unchanged."""
    from app import protocol

    game = get_game(game_name)
    rng = random.Random(11)
    checked = 0
    for players in game.player_counts:
        for preset in game.presets:
            rules = game.make_rules({"preset": preset})
            for _game in range(3):
                deal, deck = game.deal(rules, players, rng)
                state = game.new_round(rules, players, deal, deck, players - 1)
                while not game.is_over(state):
                    offered = [a for seat in range(players)
                               for a in game.legal_actions(state, seat)]
                    for action in offered:
                        sent = {k: v for k, v in action.items() if k != "seat"}
                        assert protocol.parse_action(game_name, sent) == sent, action
                        checked += 1
                    movers = game.to_act(state)
                    legal = game.legal_actions(state, movers[0])
                    state, _events = game.apply(state, rng.choice(legal))
    assert checked > 100
