"""Leak scanner: every message the table actor sends to every seat during 1,000 bot games of
each of the four games is checked for a card of another seat's hand, and (doppelganger_tricks)
for another seat's bid before all bids are in. 0 found.

How: the real ``TableActor`` (the one projection, app/rooms/audiences.py) serves
a table whose seats are people with connections; each seat's "client" reads the messages of its
own connection, scans them, and when it is its turn plays the random computer player's move
*computed from the view in its own last message* and sends it with ``actor.act`` — the same
command path as the WebSocket. The only stand-in is the store: an in-memory ``MemoryStore``
instead of the database (the durable path is covered by the crash and DB tests).

What counts as a leak in a message to seat ``s`` (the omniscient truth is ``state_json``):
- a card held by another seat, not held by ``s``, found as a complete JSON string (a value or
  a key) anywhere in the message, unless it is also in the spectators' message of the same seq
  (what the spectators see is public: played cards, a rule-derived trump list);
- while some bid is still missing: another seat's bid value anywhere in the message (the view's
  ``bids``, the broadcast ``action``, the ``events``);
- a secret decision (issue 17): any action a seat takes that the rules keep from another
  audience. For every accepted action ``a`` of seat ``s`` in state ``S``, each other legal action
  ``a2`` of ``s`` in ``S`` (up to ``ALTERNATIVES`` of them, of every type) is applied too; when an
  audience ``o`` cannot tell ``a`` from ``a2`` by what the rules core makes public — the same
  game events and the same ``Game.view(state, o)`` — the message ``o`` got must not tell them
  apart either: its ``action`` must be what the room's projection
  (``app.rooms.projection.action_for``) gives for ``a2``, and no field of it may carry a value
  of ``a`` that ``a2`` does not share (a Doppio catch answer, a Doppelkopf reservation, the
  poverty cards, a sealed bid).
Spectator messages are checked for the bid rule too, and must never carry a hand. In every
other game the seats ask for deltas (``hello.deltas``, as the browser does): their events carry
JSON patches, scanned as sent and applied (``app.rooms.delta.ClientState``) for the bid rule and
the next move, so both encodings a seat can receive are scanned.

Cost (profiled with cProfile): the actor's own projection is about half of it; the check is one
``json.dumps`` per message and a substring test per hidden card (each seat's hidden cards are
computed once per step, not per message); the computer players are the random ones (a leak is
about the server's projection, not about bot strength); no sleeps (``ManualClock``, no bot
delay); the games run in pieces of ``CHUNK`` on two worker processes. The printed summary gives
the CPU seconds per game (docs/security.md, "Proofs"). By default the suite plays 300 games of each
game (about 90 CPU-s, so CI stays short); ``DOPPELRUNDE_LEAK_GAMES=1000`` is the full run of
docs/security.md, and a small number (50) suits development. Every seat count of a game is played (game ``n`` of a game seats
``player_counts[n % len(player_counts)]``).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

from app.bots import random_bot
from app.clock import ManualClock
from app.games.registry import available_games, get_game
from app.rooms.actor import ActorConfig, TableActor
from app.rooms.connection import Connection
from app.rooms.delta import ClientState
from app.rooms.match import RoundRecord
from app.rooms.store import SeatInfo, TableInfo

GAMES = ["doppelkopf", "doublehead_kids", "doppelganger_tricks", "doppio"]
#: games of each game: 300 in the suite; DOPPELRUNDE_LEAK_GAMES=1000 for the full run
GAMES_PER_GAME = int(os.environ.get("DOPPELRUNDE_LEAK_GAMES", "300"))
#: other legal actions of the acting seat compared with each accepted action (secret decisions)
ALTERNATIVES = 3
#: games per piece of work handed to a worker process
CHUNK = 50


class MemoryStore:
    """The MatchStore interface in memory (one table)."""

    def __init__(self, table: TableInfo) -> None:
        self.table = table
        self.rounds: list[RoundRecord] = []
        self.match_id: int | None = None

    async def load_table(self, table_id: int) -> TableInfo:
        return self.table

    async def load_match(self, table_id: int):
        return None if self.match_id is None else (self.match_id, self.rounds)

    async def start_match(self, table: TableInfo) -> int:
        self.match_id = 1
        return 1

    async def add_round(self, match_id: int, record: RoundRecord) -> int:
        self.rounds.append(record)
        return len(self.rounds)

    async def append_action(self, round_id: int, idx: int, action: dict[str, Any]) -> None:
        pass

    async def finish_round(self, round_id: int, outcome) -> None:
        pass

    async def finish_match(self, match_id, table, totals, winners) -> None:
        self.table = replace(self.table, status="finished")


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strings(value: Any) -> set[str]:
    """Every string inside a JSON value (keys too), via the C encoder and one regex (used by
    tests/test_deltas.py; the scan below tests for the hidden cards directly)."""
    return set(_STRING.findall(json.dumps(value)))


def quoted(card: str) -> str:
    """A card as it appears as a complete JSON string (keys included): ``"QC"``. Card
    strings are short ASCII codes, so no escaping is needed."""
    return f'"{card}"'


def hidden_by_seat(hands: list[list[str]]) -> list[list[str]]:
    """For each seat, the cards (as quoted JSON strings) held by another seat and not by it:
    what no message to that seat may contain unless the spectators see it too. Computed once
    per step, not per message."""
    out = []
    for seat, own in enumerate(hands):
        others = {c for s, hand in enumerate(hands) if s != seat for c in hand} - set(own)
        out.append(sorted(quoted(c) for c in others))
    return out


def scan_bids(message: dict[str, Any], audience: int | None, truth: dict[str, Any]) -> list[str]:
    """Another seat's bid in a message while some bid is still secret."""
    bids = truth.get("bids")
    if not isinstance(bids, list) or all(b is not None for b in bids):
        return []
    found = []
    view = message["state"]["view"] or {}
    if view.get("bids") is not None:
        found.append(f"view bids {view['bids']} before all are in")
    action = message.get("action") or {}
    if action.get("type") == "bid" and action.get("seat") != audience and "value" in action:
        found.append(f"action {action} shows another seat's bid")
    for event in message.get("events", []):
        if event.get("type") == "bid" and event.get("seat") != audience and len(event) > 2:
            found.append(f"event {event} shows another seat's bid")
    return found


def scan_cards(text: str, hidden: list[str], public: str) -> list[str]:
    """The hidden cards (quoted JSON strings) found as complete strings in ``text`` (a
    message as JSON) that are not in ``public`` (the spectators' message of the same seq, as
    JSON). Exact: a JSON string equals the card iff its quoted form occurs in the text (a
    quote inside a string is escaped, so a match cannot start or end inside another string
    except with a backslash before it, which only adds false alarms, never hides a card)."""
    return [json.loads(c) for c in hidden if c in text and c not in public]


def alternatives(game, state, action: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Other legal actions of ``action``'s seat in ``state``: every other type once, then more
    at random, at most ALTERNATIVES."""
    seat = action["seat"]
    others = [dict(a, seat=seat) for a in game.legal_actions(state, seat)
              if {**a, "seat": seat} != action]
    by_type: dict[str, dict[str, Any]] = {}
    for other in others:
        by_type.setdefault(other["type"], other)
    chosen = list(by_type.values())
    rest = [a for a in others if a not in chosen]
    rng.shuffle(rest)
    return (chosen + rest)[:ALTERNATIVES]


def scan_secret(game, state, action: dict[str, Any], messages: dict[int | None, dict[str, Any]],
                rng: random.Random) -> list[str]:
    """The secret-decision rule (module docstring): ``messages`` are the event messages each
    audience got for the accepted ``action`` taken in ``state``."""
    from app.rooms.projection import action_for

    after, events = game.apply(state, action)
    found = []
    for other in alternatives(game, state, action, rng):
        try:
            other_after, other_events = game.apply(state, other)
        except Exception:  # noqa: BLE001 - a listed action the rules refuse is not a secret
            continue
        if other_events != events:
            continue  # the rules make the difference public
        for audience, message in messages.items():
            if audience == action["seat"]:
                continue
            if game.view(after, audience) != game.view(other_after, audience):
                continue  # the audience's own view tells them apart: public
            told = message.get("action") or {}
            if told != action_for(game, other, audience):
                found.append(f"{audience} told {told} of {action} (as if {other}: "
                             f"{action_for(game, other, audience)})")
            found += [f"{audience} told {key}={value!r} of {action}, unlike {other}"
                      for key, value in told.items()
                      if key != "seat" and action.get(key) == value != other.get(key)]
    return found


async def play_one(game_name: str, number: int) -> tuple[int, list[str]]:
    """One bot game (one deal) at an actor; returns (messages scanned, leaks found)."""
    game = get_game(game_name)
    players = game.player_counts[number % len(game.player_counts)]
    table = TableInfo(id=number, game=game_name, preset=None, rules={}, players=players, deals=1,
                      status="playing", skill="beginner",
                      seats=tuple(SeatInfo(seat=s, user_id=s + 1, name=f"p{s}", bot_level=None)
                                  for s in range(players)))
    store = MemoryStore(table)
    actor = TableActor(number, store, ManualClock(), ActorConfig(bot_delay=0, round_pause=0,
                                                                  away_grace=None),
                       rng=random.Random(number))
    task = asyncio.get_running_loop().create_task(actor.run())
    # odd games: the seats ask for deltas (events carry JSON patches, as the browser's do);
    # even games: whole states. The spectator always gets whole states (the public reference).
    deltas = number % 2 == 1
    conns = [Connection(s + 1, outbox_size=100_000, deltas=deltas) for s in range(players)]
    clients = [ClientState() for _ in range(players)]
    watcher = Connection(None, outbox_size=100_000)  # first: it sees every seq from the start
    for conn in [watcher, *conns]:
        actor.attach(conn)
    await actor.idle()
    rng = random.Random(number * 7919)
    scanned, leaks = 0, []
    last: list[dict | None] = [None] * players  # each seat's state as its client holds it
    acted: tuple[Any, dict[str, Any], int] | None = None  # (state before, action, its seq)
    for _ in range(5000):
        progress = actor.progress
        truth = game.state_json(progress.state)
        hidden = hidden_by_seat(truth["hands"])
        public_by_seq: dict[int, str] = {}
        told: dict[int | None, dict[str, Any]] = {}  # per audience: the message of ``acted``
        for m in watcher.pending():
            if acted is not None and m["seq"] == acted[2]:
                told[None] = m
            scanned += 1
            public_by_seq[m["seq"]] = json.dumps(m)
            leaks += [f"spectator: {x}" for x in scan_bids(m, None, truth)]
            view = m["state"]["view"] or {}
            if view.get("hand"):
                leaks.append(f"spectator sees a hand {view['hand']}")
        for seat, conn in enumerate(conns):
            for m in conn.pending():
                scanned += 1
                if m["type"] not in ("event", "snapshot"):
                    leaks.append(f"seat {seat} got {m['type']}: {m}")
                    continue
                if acted is not None and m["seq"] == acted[2]:
                    told[seat] = m
                public = public_by_seq.get(m["seq"], "")
                leaks += [f"{game_name} #{number} seat {seat} seq {m['seq']}: card {c}"
                          for c in scan_cards(json.dumps(m), hidden[seat], public)]
                state = clients[seat].apply(m)  # a patch is scanned raw above, applied here
                leaks += [f"{game_name} #{number} seat {seat}: {x}"
                          for x in scan_bids({**m, "state": state}, seat, truth)]
                last[seat] = state
        if acted is not None and told:
            leaks += [f"{game_name} #{number} ({players} seats) secret: {x}"
                      for x in scan_secret(game, acted[0], acted[1], told, rng)]
        acted = None
        if actor.table.status == "finished" or progress.match_over():
            break
        movers = [s for s in game.to_act(progress.state)]
        if not movers:
            break
        seat = movers[0]
        view = last[seat]["view"]
        move = random_bot.choose(view, rng)
        before, seq = progress.state, actor.seq
        actor.act(conns[seat], {k: v for k, v in move.items() if k != "seat"})
        await actor.idle()
        if actor.seq > seq and progress.current.actions:
            acted = (before, progress.current.actions[-1], seq + 1)
    assert actor.progress.match_over(), f"{game_name} #{number} did not finish"
    actor.stop()
    await task
    return scanned, leaks


def scan_games(game_name: str, first: int,
               count: int) -> tuple[str, int, int, list[str], float]:
    """Play and scan games ``first`` .. ``first + count - 1`` of one game (in a worker
    process); returns (game, games played, messages scanned, the first leaks found, CPU
    seconds used)."""
    from tests.platform_helpers import register_highcard

    register_highcard()

    cpu = time.process_time()

    async def run() -> tuple[str, int, int, list[str], float]:
        total, found, played = 0, [], 0
        for number in range(first, first + count):
            scanned, leaks = await play_one(game_name, number)
            total, played = total + scanned, played + 1
            found += leaks
            if len(found) > 20:
                break
        return game_name, played, total, found, time.process_time() - cpu

    return asyncio.run(run())


def chunks(games: list[str], per_game: int, size: int = CHUNK) -> list[tuple[str, int, int]]:
    """(game, first number, count) pieces of ``per_game`` games of each game, so that two
    workers stay busy to the end whatever a game costs."""
    return [(game, first, min(size, per_game - first + 1))
            for game in games for first in range(1, per_game + 1, size)]


@pytest.mark.slow
def test_no_message_to_a_seat_shows_another_seats_cards_or_secret_bid():
    """GAMES_PER_GAME (300; 1,000 in the full run) games of each game, in pieces on two worker
    processes."""
    games = [g for g in GAMES if g in available_games()]
    assert games == GAMES, f"missing games: {set(GAMES) - set(games)}"
    ctx = multiprocessing.get_context("spawn")
    pieces = chunks(games, GAMES_PER_GAME)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx) as pool:
        results = list(pool.map(scan_games, *zip(*pieces, strict=True)))
    played: dict[str, int] = dict.fromkeys(games, 0)
    scanned: dict[str, int] = dict.fromkeys(games, 0)
    cpu: dict[str, float] = dict.fromkeys(games, 0.0)
    found = []
    for game_name, count, total, leaks, seconds in results:
        played[game_name] += count
        scanned[game_name] += total
        cpu[game_name] += seconds
        found += leaks
    for game_name in games:
        print(f"{game_name}: {played[game_name]} games, {scanned[game_name]} messages scanned, "
              f"{cpu[game_name]:.0f} CPU-s")
        assert played[game_name] == GAMES_PER_GAME
        assert scanned[game_name] > played[game_name] * 10
    print(f"{len(found)} leaks; {sum(cpu.values()):.0f} CPU-s, "
          f"{time.perf_counter() - started:.0f} s wall on 2 workers")
    assert found == [], found[:10]


def test_the_scanner_finds_a_planted_leak():
    """The scanner is not blind: a hand of another seat, or a bid before reveal, is found."""
    hands = [["QC", "JD"], ["AH", "TS"]]
    message = {"state": {"view": {"hand": ["QC", "JD"], "trick": [{"seat": 1, "card": "AH"}]}},
               "events": [], "action": None}
    hidden = hidden_by_seat(hands)
    assert hidden == [['"AH"', '"TS"'], ['"JD"', '"QC"']]
    assert scan_cards(json.dumps(message), hidden[0], public="") == ["AH"]
    assert scan_cards(json.dumps(message), hidden[0], public=json.dumps(message)) == []
    key = {"state": {"view": {"known": {"TS": 1}}}}  # a card as a key counts too
    assert scan_cards(json.dumps(key), hidden[0], public="") == ["TS"]
    near = {"state": {"view": {"note": "ATS", "cards": ["AH "]}}}  # not the complete string
    assert scan_cards(json.dumps(near), hidden[0], public="") == []
    truth = {"bids": [2, None]}
    bid = {"state": {"view": {"bids": None}}, "events": [],
           "action": {"type": "bid", "seat": 0, "value": 2}}
    assert scan_bids(bid, 1, truth) and not scan_bids(bid, 0, truth)
    assert not scan_bids(bid, 1, {"bids": [2, 3]})




@pytest.mark.parametrize("game_name", GAMES)
def test_secret_decisions_of_every_seat_count_stay_secret(game_name):
    """A few games of each seat count of each game (the full run is the slow test above):
    no card, bid or secret decision leaks."""
    counts = len(get_game(game_name).player_counts)
    played, total, found, _cpu = scan_games(game_name, 1, 4 * counts)[1:]
    assert found == [], found[:5]
    assert played == 4 * counts and total > 0


def test_the_scanner_finds_a_leaked_secret_answer():
    """The secret-decision rule is not blind: a catch answer told to another seat is found."""
    from app.games.doppio.actions import legal_actions as doppio_legal

    game = get_game("doppio")
    rng = random.Random(5)
    state = game.new_round(game.make_rules({}), 3, *game.deal(game.make_rules({}), 3, rng), 2)
    state, _ = game.apply(state, {"seat": 0, "type": "discard", "position": "L1"})
    assert {"type": "catch", "seat": 1} in doppio_legal(state, 1)
    catch = {"seat": 1, "type": "catch"}
    leaked = {0: {"action": {"type": "catch", "seat": 1}}}
    assert scan_secret(game, state, catch, leaked, rng)
