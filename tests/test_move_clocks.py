"""Move clocks on public tables (issue 18), on an injected clock, SQLite and PostgreSQL:

- Anyone and Play now tables have one by default (30 s per move); New Game may choose another,
  Friend and Invited tables (and a person alone with computer players) may have none;
- a reservation decision has twice the time per move;
- a clock run out once: a computer moves once for the seat, the person's next turn is theirs;
  run out again in a row: the computer takes the seat over until "I'm back";
- a computer standing in for a person never slips into a silent solo (both queens of clubs).
"""

from __future__ import annotations

import random

from sqlalchemy import select

from app.bots.stand_in import stand_in_action
from app.db.models import Departure
from app.games.registry import get_game
from app.lobby.friends import Friends
from app.lobby.service import Lobby, NewTable
from app.rooms.actor import ActorConfig
from app.rooms.clocks import STOOD_IN_KEPT
from app.rooms.connection import Connection
from tests.test_turn_timers import attach, last_state, mover, open_table, settle, world  # noqa: F401


async def test_public_tables_get_a_move_clock_unless_new_game_chose_one(world):  # noqa: F811
    manager = world["rooms"]()
    lobby = Lobby(world["sessions"], world["clock"], manager,
                  Friends(world["sessions"], world["clock"]))
    owners = await world["people"]("o1", "o2", "o3", "o4", "o5")
    cases = [(NewTable(game="doppelkopf"), 30),
             (NewTable(game="doppelkopf", turn_seconds=60), 60),
             (NewTable(game="doppelkopf", opponents="friend"), None),
             (NewTable(game="doppelkopf", opponents="invited", turn_seconds=15), 15),
             (NewTable(game="doppelkopf", bots=3), None)]  # one person and the computer
    for owner, (spec, seconds) in zip(owners, cases, strict=True):
        assert (await lobby.create_table(owner, spec))["turn_seconds"] == seconds, spec


async def test_a_clock_run_out_once_makes_the_computer_move_once(world):  # noqa: F811
    actor, viewers = await open_table(world, world["rooms"](), NewTable(
        game="highcard", players=2, deals=3, turn_seconds=15), "eve", "fay")
    conns = await attach(actor, viewers)
    silent = mover(actor)
    await settle(world, actor, 15)
    assert actor.progress.current.actions[-1]["seat"] == silent  # the computer moved for them
    state = last_state(conns[silent])
    assert state["table"]["seats"][silent]["autoplay"] is False
    events = [e for m in conns[1 - silent].pending() if m["type"] == "event" for e in m["events"]]
    assert {"type": "timeout", "seat": silent} in events
    async with world["sessions"]() as db:
        assert (await db.execute(select(Departure))).first() is None  # not a departure


async def test_a_person_who_keeps_timing_out_is_taken_over_until_back(world):  # noqa: F811
    actor, viewers = await open_table(world, world["rooms"](), NewTable(
        game="highcard", players=2, deals=3, turn_seconds=15), "gil", "hal")
    conns = await attach(actor, viewers)
    silent = mover(actor)
    other = 1 - silent
    for _ in range(12):  # the other plays; silent never does
        if silent in actor.clocks.taken_over or actor.progress.round_over():
            break
        if mover(actor) == other:
            legal = actor.progress.game.legal_actions(actor.progress.state, other)
            actor.act(conns[other], {k: v for k, v in legal[0].items() if k != "seat"})
            await settle(world, actor)
        else:
            await settle(world, actor, 15)
    assert last_state(conns[other])["table"]["seats"][silent]["autoplay"] is True
    timed_out = [a for a in actor.progress.current.actions if a["seat"] == silent]
    assert len(timed_out) >= 2
    async with world["sessions"]() as db:
        row = (await db.execute(select(Departure))).scalar_one()
        assert (row.seat, row.reason, row.returned_at) == (silent, "timeout", None)
    actor.act(conns[silent], {"type": "back"})
    await actor.idle()
    assert last_state(conns[other])["table"]["seats"][silent]["autoplay"] is False


async def test_a_reservation_decision_has_twice_the_time(world):  # noqa: F811
    manager = world["rooms"]()
    actor, viewers = await open_table(world, manager, NewTable(
        game="doppelkopf", bots=2, deals=1, turn_seconds=30), "ida", "jon")
    conns = await attach(actor, viewers)
    await settle(world, actor)
    people = {s.seat for s in actor.table.seats if s.bot_level is None}
    seat = mover(actor)
    assert seat in people and actor.progress.state.phase == "declare"
    # the timer says why it is double (the table's clock explains it: "Reservation: 2× …")
    assert last_state(conns[0])["timers"] == [{"seat": seat, "remaining": 60.0, "reservation": True}]


def doppelkopf_view_with_both_club_queens() -> dict:
    game = get_game("doppelkopf")
    rules = game.make_rules({"preset": "ddv"})
    for seed in range(1000):
        deal, deck = game.deal(rules, 4, random.Random(seed))
        state = game.new_round(rules, 4, deal, deck, 0)
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        if view["hand"].count("QC") == 2:
            view.setdefault("legal", game.legal_actions(state, seat))
            return view
    raise AssertionError("no such deal in 1000 seeds")


def test_a_stand_in_announces_the_wedding_instead_of_a_silent_healthy():
    view = doppelkopf_view_with_both_club_queens()
    healthy = next(a for a in view["legal"] if a["value"] == "healthy")
    chosen = stand_in_action("doppelkopf", view, healthy)
    assert chosen["type"] == "declare" and chosen["value"] == "wedding"
    solo = next(a for a in view["legal"] if a["value"] == "solo_clubs")
    assert stand_in_action("doppelkopf", view, solo) is solo  # a said choice stays
    plain = {**view, "hand": [c for c in view["hand"] if c != "QC"] + ["QS", "QS"]}
    assert stand_in_action("doppelkopf", plain, healthy) is healthy
    no_wedding = {**view, "legal": [a for a in view["legal"] if a["value"] != "wedding"]}
    assert stand_in_action("doppelkopf", no_wedding, healthy) is healthy


async def test_a_move_made_for_a_person_is_told_with_it_and_kept_until_they_act(world):  # noqa: F811
    actor, viewers = await open_table(world, world["rooms"](), NewTable(
        game="highcard", players=2, deals=3, turn_seconds=15), "ida", "jan")
    conns = await attach(actor, viewers)
    silent = mover(actor)
    await settle(world, actor, 15)
    made = {k: v for k, v in actor.progress.current.actions[-1].items() if k != "seat"}
    # the move's own message says a computer made it and why, to everyone ...
    received = [conn.pending() for conn in conns]
    for messages in received:
        moves = [m for m in messages if m["type"] == "event" and m["action"]
                 and m["action"].get("seat") == silent]
        assert {"type": "stood_in", "seat": silent, "reason": "timeout"} in moves[-1]["events"]
    # ... and the person's own state keeps what was played for them, the others' nothing
    assert received[silent][-1]["state"]["stood_in"] == [{"action": made, "reason": "timeout"}]
    assert received[1 - silent][-1]["state"]["stood_in"] == []
    # a reload (a new connection: a snapshot, no events) still tells it
    again = Connection(viewers[silent].id)
    actor.attach(again)
    await actor.idle()
    (snapshot,) = [m for m in again.pending() if m["type"] == "snapshot"]
    assert snapshot["state"]["stood_in"] == [{"action": made, "reason": "timeout"}]
    # once the person acts it is told: gone
    actor.act(again, {"type": "back"})
    await actor.idle()
    other = 1 - silent
    legal = actor.progress.game.legal_actions(actor.progress.state, other)
    if mover(actor) == other:
        actor.act(conns[other], {k: v for k, v in legal[0].items() if k != "seat"})
        await actor.idle()
    assert last_state(again)["stood_in"] == []


async def away_past_the_grace(world, deals: int):  # noqa: F811
    """A two-person High Card table whose player to move left and stayed away past the 30 s
    grace: (actor, viewers, conns, the absent seat)."""
    manager = world["rooms"](ActorConfig(bot_delay=0, round_pause=0, away_grace=30))
    actor, viewers = await open_table(world, manager, NewTable(
        game="highcard", players=2, deals=deals, opponents="invited", invite=["lea"]), "kim", "lea")
    conns = await attach(actor, viewers)
    gone = mover(actor)
    actor.detach(conns[gone])
    await settle(world, actor, 31)
    return actor, viewers, conns, gone


async def test_a_person_away_past_the_grace_is_told_on_return_what_was_played(world):  # noqa: F811
    actor, viewers, _conns, gone = await away_past_the_grace(world, deals=3)
    played = [{k: v for k, v in a.items() if k != "seat"}
              for a in actor.progress.current.actions if a["seat"] == gone]
    assert played
    back = Connection(viewers[gone].id)
    actor.attach(back)
    await actor.idle()
    (snapshot,) = [m for m in back.pending() if m["type"] == "snapshot"]
    assert snapshot["state"]["stood_in"] == [{"action": a, "reason": "away"} for a in played]


async def test_a_long_absence_keeps_the_newest_moves_and_counts_them_all(world):  # noqa: F811
    actor, viewers, conns, gone = await away_past_the_grace(world, deals=8)
    other = 1 - gone
    for _ in range(200):  # deal after deal: the other plays, a computer player for the absent
        progress = actor.progress
        if actor.clocks.stood_in_total.get(gone, 0) > STOOD_IN_KEPT + 2 or progress.round_over():
            break
        if mover(actor) == other:
            legal = progress.game.legal_actions(progress.state, other)
            actor.act(conns[other], {k: v for k, v in legal[0].items() if k != "seat"})
        await settle(world, actor, 1)
    total = actor.clocks.stood_in_total[gone]
    assert total > STOOD_IN_KEPT, total
    back = Connection(viewers[gone].id)
    actor.attach(back)
    await actor.idle()
    (snapshot,) = [m for m in back.pending() if m["type"] == "snapshot"]
    assert len(snapshot["state"]["stood_in"]) == STOOD_IN_KEPT
    assert snapshot["state"]["stood_in_total"] == total
    # the other seat (and a spectator) is told nothing of it
    assert last_state(conns[1 - gone])["stood_in_total"] == 0
    actor.act(back, {"type": "back"})
    await actor.idle()
    assert gone not in actor.clocks.stood_in_total  # told: the count starts afresh


async def test_a_move_clock_cancelled_by_the_move_is_released(world):  # noqa: F811
    """Each move cancels the last mover's clock; the actor keeps only the pending timers, not
    one cancelled timer per move for as long as the table runs."""
    actor, viewers = await open_table(world, world["rooms"](), NewTable(
        game="highcard", players=2, deals=3, turn_seconds=15), "ivy", "jon")
    conns = await attach(actor, viewers)
    moves = 0
    while not actor.progress.round_over():
        seat = mover(actor)
        legal = actor.progress.game.legal_actions(actor.progress.state, seat)
        actor.act(conns[seat], {k: v for k, v in legal[0].items() if k != "seat"})
        await settle(world, actor)
        moves += 1
    assert moves >= 4
    assert len(actor._timers) <= 2  # the clocks still running, if any
