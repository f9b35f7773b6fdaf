"""The table actor: the one task that owns a table's game state.

Commands come from one asyncio.Queue and run one at a time, so nothing else ever touches the
state. For an action: check it with the rules (``apply`` on the immutable state), append it to
the event log (committed), then update the state and send each connection its own seat's view
(spectators ``view(state, None)``). Every server message carries the table's ``seq`` (one per
change) and the actor's ``epoch``; each audience keeps a bounded buffer of recent messages so a
reconnecting client receives what it missed, or a snapshot.

Computer seats act through the same path as people; when a computer player moves for a person
(turn timers and takeovers) is app/rooms/clocks.py.

Games with a timed *catch window* (Doppio: ``GAME.close_catch_window``) get one more timer, kept
by app/rooms/catch_window.py.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from app import metrics, protocol
from app.clock import Clock
from app.games.base import IllegalAction
from app.games.registry import get_game
from app.rooms import delta
from app.rooms.catch_window import WINDOW_ANSWERS, CatchWindow
from app.rooms.clocks import TurnClocks
from app.rooms.connection import Connection
from app.rooms.intermission import Intermission
from app.rooms.match import MatchProgress, RoundRecord, table_end
from app.rooms.projection import Unsendable, action_for, check_sendable
from app.rooms.store import LEFT, MatchStore, TableInfo

log = logging.getLogger(__name__)

#: room commands between deals and after the match (app.rooms.intermission; not logged)
INTERMISSION_ACTIONS = ("next_deal", "rematch")


@dataclass(frozen=True)
class ActorConfig:
    """bot_delay: seconds a computer player waits before it moves (pacing for people);
    bot_budget_ms: the expert's thinking time per decision; round_pause: seconds between deals;
    turn_timeout: seconds a person has per move (None: no timer); resume_buffer: messages kept
    per audience for resuming clients; away_grace: see below."""

    bot_delay: float = 0.6
    bot_budget_ms: int = 60
    #: seconds a seated person may be gone (no connection) before a computer player of the
    #: table's level moves for that seat, until the person is back (None: never)
    away_grace: float | None = 30.0
    #: the longest pause between two deals; it ends early once every person present said
    #: "Next deal" (app.rooms.intermission)
    round_pause: float = 20.0
    turn_timeout: float | None = None
    #: a person whose move clock runs out this many times in a row (no move of their own in
    #: between) is taken over until "I'm back"; before that a computer moves once for them
    timeouts_before_takeover: int = 2
    resume_buffer: int = 64
    #: seconds a finished table's actor stays after the end (its watchers see the result),
    #: then it unloads; later watchers get the result from the stored log (app/rooms/stored.py)
    finished_linger: float = 60.0
    #: seconds a table that is not in play (open, waiting for players) stays loaded with
    #: nobody connected (None: until the process ends)
    idle_unload: float | None = 300.0


def quoted_reason(text: str, limit: int = 200) -> str:
    """A refusal reason cut to ``limit`` characters (the protocol's error line limit)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class TableActor:
    """The actor of table ``table_id``. Start ``run()`` as a task; talk to it only through the
    command methods (``attach``, ``detach``, ``act``, ``seats_changed``, ``start``, ``stop``).
    Its parts (``clocks``: turn clocks and takeovers, ``window``: the catch window) run inside its task, and act through
    :meth:`apply` and :meth:`later` like its own handlers."""

    def __init__(self, table_id: int, store: MatchStore, clock: Clock, config: ActorConfig,
                 rng: random.Random | None = None,
                 on_change: Callable[[int], Awaitable[None]] | None = None,
                 on_rematch: Callable[[int, list[int]], Awaitable[int]] | None = None) -> None:
        self.table_id = table_id
        self._store, self._clock, self._config = store, clock, config
        self._rng = rng or random.Random(secrets.randbits(64))
        self._on_change = on_change
        #: awaited with (table id, seats of the people who accepted): opens the rematch's
        #: table and returns its id (app.lobby.service.Lobby.rematch)
        self._on_rematch = on_rematch
        self._between = Intermission()
        self._queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.epoch = secrets.token_hex(8)
        self.seq = 0
        self.table: TableInfo | None = None
        self.progress: MatchProgress | None = None
        self.match_id: int | None = None
        self._conns: dict[int, tuple[Connection, int | None]] = {}
        #: per audience (seat, None: spectators): (seq, encoded patch event) of recent seqs
        self._buffers: dict[int | None, deque[tuple[int, str]]] = {}
        #: per audience: its state as of the last seq (the base of the next patch)
        self._last_state: dict[int | None, dict[str, Any]] = {}
        self.clocks = TurnClocks(self, store, clock, config, self._rng)
        self.window = CatchWindow(self, clock)
        self._tasks: set[asyncio.Task[None]] = set()
        self.stopped = asyncio.Event()
        #: True when a write was refused by the log's unique (round, idx) / (match, number):
        #: another owner wrote first, and this actor dropped the table
        self.fenced = False
        #: monotonic time at which the table may unload (None: it stays); one timer at a time
        self._unload_at: float | None = None
        self._unload_timer = False
        self._sheet_cache: tuple[Any, dict[str, Any], dict[str, Any] | None] | None = None
        self._table_cache: tuple[TableInfo, tuple[frozenset[int], frozenset[int]],
                                 dict[str, Any]] | None = None
        #: what runs each queued command (named by its first item; "stop" and "unload" end
        #: the loop, see run)
        self._handlers: dict[str, Callable[..., Awaitable[None]]] = {
            "load": self._on_load, "attach": self._on_attach, "detach": self._on_detach,
            "act": self._on_act, "seats": self._on_seats, "start": self._on_start,
            "deal": self._on_deal, "turn": self.clocks.on_turn,
            "window": self.window.on_deadline, "autopass": self.window.on_autopass}
        self._queue.put_nowait(("load",))  # the first command: commands queue up behind it

    # --- commands (any task) ---------------------------------------------------------------

    def attach(self, conn: Connection, last_seq: int | None = None, epoch: str | None = None) -> None:
        """Connect a client: its seat if the user holds one, else as a spectator."""
        self._queue.put_nowait(("attach", conn, last_seq, epoch))

    def detach(self, conn: Connection) -> None:
        self._queue.put_nowait(("detach", conn))

    def act(self, conn: Connection, action: dict[str, Any]) -> None:
        """A client's action; refused with an ``error`` message unless legal for its seat."""
        if self.stopped.is_set():  # unloaded (a finished table): nothing more happens here
            self._error(conn, "illegal", "this table is not in play")
            return
        self._queue.put_nowait(("act", conn, action))

    def seats_changed(self) -> None:
        """Seats were taken or left in the database: reload and tell everyone."""
        self._queue.put_nowait(("seats",))

    def start(self) -> None:
        """The table is full and marked playing: start the match."""
        self._queue.put_nowait(("start",))

    def stop(self, reason: str = "shutdown") -> None:
        """Tell every client why and end the actor."""
        self._queue.put_nowait(("stop", reason))

    async def idle(self) -> None:
        """Wait until every queued command (and those they queued) has run. For tests."""
        await self._queue.join()

    # --- the loop --------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve commands; the first loads the table (rebuilding a match from the event log)."""
        try:
            while True:
                command = await self._queue.get()
                try:
                    if command[0] == "stop":
                        self._on_stop(command[1])
                        return
                    if command[0] == "unload":
                        if self._may_unload():
                            self._conns.clear()  # quietly: they hold the final state
                            return
                        continue
                    await self._handlers[command[0]](*command[1:])
                except IntegrityError:
                    # Fenced: another process owns this table now and wrote this position of
                    # the log first (docs/scaling.md). Drop the table; tell nobody anything.
                    log.warning("table %s: the event log has moved on; dropping the table",
                                self.table_id)
                    self._conns.clear()
                    self.fenced = True
                    return
                except Exception:  # one bad command must not end the table
                    log.exception("table %s: command %s failed", self.table_id, command[0])
                    if command[0] == "act":  # the sender gets an answer; nothing changed
                        self._error(command[1], "server_error",
                                    "the server could not handle this action; try again")
                finally:
                    self._queue.task_done()
                if self.table is None:  # the table could not be loaded: nothing to serve
                    return
        finally:
            for task in self._tasks:
                task.cancel()
            self.stopped.set()
            while not self._queue.empty():
                self._queue.get_nowait()
                self._queue.task_done()

    async def _on_load(self) -> None:
        await self._load_stored()
        if self.table.status == "playing":
            await self.clocks.restore()
            await self._resume_play()
        else:
            self._schedule_unload()

    async def _load_stored(self) -> None:
        """The table and its match as the event log has them (replayed)."""
        self.table = await self._store.load_table(self.table_id)
        stored = await self._store.load_match(self.table_id)
        if stored is not None:
            self.match_id, rounds = stored
            game = get_game(self.table.game)
            self.progress = MatchProgress.replay(game, game.make_rules(self.table.rules),
                                                 self.table.players, self.table.deals, rounds)

    async def _resume_play(self) -> None:
        """After a restart (or a start): deal, finish, or go on where the log ends."""
        if self.progress is None:
            await self._on_start()
        elif not self.progress.rounds:
            await self._deal_next()
        elif self.progress.round_over():
            await self._after_round()
        else:
            self.window.resume()
            self.clocks.schedule()

    # --- handlers --------------------------------------------------------------------------

    async def _on_attach(self, conn: Connection, last_seq: int | None, epoch: str | None) -> None:
        seat = self._seat_of_user(conn.user_id)
        if seat is not None:
            await self.clocks.arrived(seat)
            for other_id, (other, other_seat) in list(self._conns.items()):
                if other_seat == seat:
                    other.close(protocol.dump(protocol.Closed(
                        seq=self.seq, reason="taken_over", reconnect=False)))
                    del self._conns[other_id]
        self._conns[conn.id] = (conn, seat)
        if self.table is not None and self.table.status != "finished":
            self._unload_at = None  # someone is here: stay loaded
        missed = self._missed(conn, seat, last_seq, epoch)
        if missed is None:
            conn.send(self._snapshot(seat))
        else:
            for message in missed:
                conn.send(message)
        if seat is not None:
            self._broadcast(None, [{"type": "connected", "seat": seat, "connected": True}])

    async def _on_detach(self, conn: Connection) -> None:
        entry = self._conns.pop(conn.id, None)
        if not self._conns:
            self._schedule_unload()
        if entry is not None and entry[1] is not None and entry[0] is conn:
            self._broadcast(None, [{"type": "connected", "seat": entry[1], "connected": False}])
            if self.window.is_open():
                self.window.pass_absent(self.window.number)
            if not self._seat_connected(entry[1]) and self.seat_bot(entry[1]) is None:
                self.clocks.gone(entry[1])
            await self._after_presence_change()

    def _seat_connected(self, seat: int) -> bool:
        return any(other_seat == seat for _conn, other_seat in self._conns.values())

    async def _on_act(self, conn: Connection, action: dict[str, Any]) -> None:
        entry = self._conns.get(conn.id)
        seat = entry[1] if entry else None
        if seat is None:
            self._error(conn, "not_seated", "you do not hold a seat at this table")
            return
        try:  # the game's action models, before the rules see anything (app.protocol.ACTIONS)
            action = protocol.parse_action(self.table.game, action)
        except protocol.ProtocolError as err:
            self._error(conn, "bad_message", str(err))
            return
        if action.get("seat") is not None and action["seat"] != seat:
            self._error(conn, "illegal", "that is not your seat")
            return
        await self.clocks.heard_from(seat)  # anything they do: the computer player stops
        if action.get("type") == "back":
            return
        if action.get("type") in INTERMISSION_ACTIONS:
            await self._on_intermission(seat, action, conn)
            return
        await self.apply(seat, {**action, "seat": seat}, conn)

    async def _on_seats(self) -> None:
        """Reload the seats; connections of users who just sat down (or left) move along. A
        person who left the running match (a departure ``"left"``, app/lobby/seating.py) is
        taken over for good and watches from now on."""
        self.table = await self._store.load_table(self.table_id)
        if self.match_id is not None and self.table.status == "playing":
            for seat, reason in (await self._store.open_departures(self.match_id)).items():
                if reason == LEFT:
                    self.clocks.left_match(seat)
        for conn_id, (conn, _seat) in list(self._conns.items()):
            self._conns[conn_id] = (conn, self._seat_of_user(conn.user_id))
        self._broadcast(None, [{"type": "seats"}])

    async def _on_start(self) -> None:
        self.table = await self._store.load_table(self.table_id)
        if self.progress is not None or self.table.status != "playing":
            return
        game = get_game(self.table.game)
        self.match_id = await self._store.start_match(self.table)
        self.progress = MatchProgress(game, game.make_rules(self.table.rules),
                                      self.table.players, self.table.deals)
        await self._deal_next()
        await self._changed()

    async def _on_deal(self, pause: int | None = None) -> None:
        """Deal the next round (``pause``: the pause this wake-up ends; a stale one is ignored)."""
        if pause is not None and pause != self._between.number:
            return
        if self.progress is not None and self.progress.round_over() and not self.progress.match_over():
            await self._deal_next()

    # --- unloading (memory goes back when nobody needs the table here) ---------------------

    def _schedule_unload(self) -> None:
        """Unload a finished table after ActorConfig.finished_linger, a table not in play
        (open, waiting for players) after idle_unload with nobody connected; never a table in
        play (its timers and computer players must go on)."""
        table = self.table
        if table is None or table.status == "playing":
            return
        if table.status == "finished":
            delay: float | None = self._config.finished_linger
        else:
            delay = self._config.idle_unload if not self._conns else None
        if delay is None:
            return
        self._unload_at = self._clock.monotonic() + delay
        self._arm_unload(delay)

    def _arm_unload(self, delay: float) -> None:
        if not self._unload_timer:  # one timer, however often people come and go
            self._unload_timer = True
            self.later(delay, ("unload",))

    def _may_unload(self) -> bool:
        """At the unload timer: whether to end now (else the timer is armed again for a
        deadline that moved, or dropped when someone is here)."""
        self._unload_timer = False
        table, at = self.table, self._unload_at
        if table is None or table.status == "playing" or at is None:
            return False
        left = at - self._clock.monotonic()
        if left > 0:
            self._arm_unload(left)
            return False
        return table.status == "finished" or not self._conns

    async def stored_snapshot(self, user_id: int | None) -> str:
        """Without running this actor: load the table and its match from the log and return
        the encoded snapshot for ``user_id``'s seat (a spectator's when not seated). For a
        finished table, which needs no actor (app/rooms/stored.py)."""
        await self._load_stored()
        state = self._state(self._seat_of_user(user_id))
        state["rematch"] = None  # no actor, no rematch to decide: only a running table offers it
        return protocol.encode({"type": "snapshot", "seq": self.seq, "epoch": self.epoch,
                                "state": state})

    def _on_stop(self, reason: str) -> None:
        for conn, _seat in self._conns.values():
            conn.close(protocol.dump(protocol.Closed(
                seq=self.seq, reason=reason, reconnect=reason == "shutdown")))
        self._conns.clear()

    # --- the game --------------------------------------------------------------------------

    async def apply(self, seat: int, action: dict[str, Any], origin: Connection | None) -> bool:
        """Check, log (durably), commit, tell everyone; returns whether it was accepted.

        Errors go to ``origin`` only: ``illegal`` (the rules' reason) or ``server_error`` (the
        log could not be written; nothing changed).
        """
        started = time.perf_counter()
        progress = self.progress
        if progress is None or progress.current is None:
            self._error(origin, "illegal", "the game has not started")
            return False
        refusal = self.window.refusal(action)
        if refusal is not None:
            self._error(origin, "illegal", refusal)
            return False
        try:
            new_state, events = progress.try_action(action)
        except IllegalAction as err:  # a reason a player can read, never a wall of echoed input
            self._error(origin, "illegal", quoted_reason(str(err)) or "not allowed now")
            return False
        record = progress.current
        try:  # serialize before commit: log only what can be stored and sent
            check_sendable(progress.game, action, new_state, events)
        except Unsendable as err:
            log.error("table %s: refused %s: %s", self.table_id, action.get("type"), err)
            self._error(origin, "server_error", "the result of this action cannot be kept; "
                        "choose another")
            return False
        try:
            await self._store.append_action(record.id, len(record.actions), action)
        except IntegrityError:
            raise  # a second writer: fenced (see run)
        except Exception:
            log.exception("table %s: cannot store action", self.table_id)
            self._error(origin, "server_error", "the action could not be saved; try again")
            return False
        outcome = progress.commit_action(action, new_state)
        self.clocks.turn += 1
        self.window.track(events)
        if outcome is not None:
            await self._store.finish_round(record.id, outcome)
            await self._store_result()
            self.clocks.deadlines.clear()
            self._begin_pause()  # first, so the message carries the pause
        else:
            self.clocks.schedule()  # first, so the message carries the next mover's timer
        self._broadcast(action, events)
        metrics.ACTIONS.inc()
        metrics.ACTION_SECONDS.observe(time.perf_counter() - started)
        if outcome is not None:
            await self._after_round()
        return True

    async def _store_result(self) -> None:
        """Store the match result once it is over (before anyone is told)."""
        assert self.progress is not None and self.table is not None
        if self.progress.match_over() and self.table.status != "finished":
            await self._store.finish_match(self.match_id, self.table,
                                           self.progress.score_sheet()["totals"],
                                           self.progress.winners())
            self.table = await self._store.load_table(self.table_id)

    async def _after_round(self) -> None:
        assert self.progress is not None and self.table is not None
        if self.progress.match_over():
            await self._store_result()  # after a restart between the last action and here
            self._broadcast(None, [{"type": "match_over"}])
            await self._changed()
            self._schedule_unload()
        else:
            if not self._between.running():  # e.g. after a restart between two deals
                self._begin_pause()
            if not self._between.running():
                await self._deal_next()
            else:
                left = self._between.until - self._clock.monotonic()
                self.later(max(0.0, left), ("deal", self._between.number))

    async def _deal_next(self) -> None:
        assert self.progress is not None and self.match_id is not None
        progress = self.progress
        dealer = progress.next_dealer()
        deal, deck = progress.game.deal(progress.rules, progress.players, self._rng)
        record = RoundRecord(number=len(progress.rounds), dealer=dealer, deal=deal, deck=deck)
        record.id = await self._store.add_round(self.match_id, record)
        progress.begin_round(record)
        self._between.end()
        self.clocks.turn += 1
        self.window.reset()
        self.clocks.schedule()
        self._broadcast(None, [{"type": "deal", "number": record.number, "dealer": dealer}])

    # --- between deals and after the match (app.rooms.intermission) ----------------------------

    def _present_people(self) -> list[int]:
        """Seats of people connected to the table (computer seats and absent people do not
        hold the pause between deals or a rematch up)."""
        assert self.table is not None
        return [s.seat for s in self.table.seats
                if s.bot_level is None and self._seat_connected(s.seat)]

    def _begin_pause(self) -> None:
        """A deal ended: start the pause before the next one (unless the match is over)."""
        progress = self.progress
        if progress is None or progress.match_over():
            return
        self._between.begin(self._clock.monotonic(), self._config.round_pause)

    async def _on_intermission(self, seat: int, action: dict[str, Any],
                               conn: Connection | None) -> None:
        """``next_deal`` (shortens the pause between deals) or ``rematch`` (after the match)."""
        progress = self.progress
        if action["type"] == "next_deal":
            if self._between.say_ready(seat, self._present_people()):
                self._queue.put_nowait(("deal", self._between.number))
            if self._between.running():
                self._broadcast(None, [{"type": "next_deal", "seat": seat}])
            return
        if progress is None or not progress.match_over():
            self._error(conn, "illegal", "a rematch is offered once the match is over")
            return
        accept = action.get("accept", True)
        self._between.vote(seat, accept)
        self._broadcast(None, [{"type": "rematch", "seat": seat, "accept": accept}])
        await self._after_presence_change()

    async def _after_presence_change(self) -> None:
        """Someone voted or left: end the pause or open the rematch when everyone present agrees."""
        present = self._present_people()
        if self._between.everyone_ready(present):
            self._queue.put_nowait(("deal", self._between.number))
        seats = self._between.rematch_seats(present)
        if seats is None or self._on_rematch is None:
            return
        self._between.rematch_started = True
        try:
            self._between.rematch_table = await self._on_rematch(self.table_id, seats)
        except Exception:
            log.exception("table %s: the rematch could not be opened", self.table_id)
            self._between.rematch_started = False
            return
        self._broadcast(None, [{"type": "rematch_table", "table": self._between.rematch_table}])

    # --- turns -------------------------------------------------------------------------------

    def later(self, seconds: float, command: tuple[Any, ...]) -> None:
        """Queue ``command`` after ``seconds`` on the table's clock (at once for 0 or less)."""
        if seconds <= 0:
            self._queue.put_nowait(command)
            return

        async def wake() -> None:
            await self._clock.sleep(seconds)
            self._queue.put_nowait(command)

        task = asyncio.get_running_loop().create_task(wake())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _changed(self) -> None:
        if self._on_change is not None:
            await self._on_change(self.table_id)

    # --- messages --------------------------------------------------------------------------

    def _seat_of_user(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays (None: a spectator, or a person who left the match)."""
        if user_id is None or self.table is None:
            return None
        return next((s.seat for s in self.table.seats
                     if s.user_id == user_id and self.clocks.taken_over.get(s.seat) != LEFT), None)

    def seat_bot(self, seat: int) -> str | None:
        """The skill level of a computer seat; None for a person's seat."""
        assert self.table is not None
        info = next((s for s in self.table.seats if s.seat == seat), None)
        return info.bot_level if info is not None else None

    def _seat_view(self, seat: int | None) -> dict[str, Any]:
        """``Game.view(state, seat)``, with ``legal`` (the seat's legal actions) added for games
        whose view does not list them. The one projection every client and bot receives."""
        assert self.progress is not None
        game, state = self.progress.game, self.progress.state
        view = game.view(state, seat)
        if "legal" not in view:
            view["legal"] = game.legal_actions(state, seat) if seat is not None else []
        if self.window.is_open():
            # the table waits for the window: only answers now; the clients' countdown
            for key in ("legal", "legal_actions"):
                if isinstance(view.get(key), list):
                    view[key] = [a for a in view[key] if a.get("type") in WINDOW_ANSWERS]
            window = view.get("catch_window")
            if isinstance(window, dict) and self.window.deadline is not None:
                window["remaining"] = self.window.left()
        return view

    def _shared(self) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None,
                               list[dict[str, Any]]]:
        """The parts of the state that are the same for every audience right now: ``table``,
        the score sheet, the match result and the turn timers (once per seq, not per seat)."""
        table = self._table_json()
        progress = self.progress
        scores: dict[str, Any] = {"rounds": [], "totals": [0] * self.table.players,
                                  "deals": self.table.deals, "played": 0}
        result = None
        if progress is not None and progress.current is not None:
            scores, result = self._sheet(progress)
        now = self._clock.monotonic()
        timers = [{"seat": s, "remaining": round(max(0.0, at - now), 1)}
                  for s, at in sorted(self.clocks.deadlines.items())]
        return table, scores, result, timers

    def _state(self, seat: int | None, shared: tuple | None = None) -> dict[str, Any]:
        """What ``seat`` (None: spectators) sees now: the fields of protocol.TableState as a
        JSON-ready dict (built directly: this runs for every audience after every change).
        ``shared``: :meth:`_shared` of this moment, when the caller builds several audiences."""
        table, scores, result, timers = shared or self._shared()
        progress = self.progress
        view = None
        if progress is not None and progress.current is not None:
            view = self._seat_view(seat)
            view["round"] = progress.current.number
        deadline = next((timer["remaining"] for timer in timers if timer["seat"] == seat), None)
        return {"table": table, "you": seat, "view": view, "scores": scores, "result": result,
                "deadline": deadline, "timers": timers,
                "pause": self._between.pause_json(self._clock.monotonic()),
                "rematch": self._between.rematch_json(result is not None)}

    def _table_json(self) -> dict[str, Any]:
        """The ``table`` part of every audience's state: the same object until the table or
        the set of connected seats changes (so a delta skips it by identity)."""
        assert self.table is not None
        connected = frozenset(s for _c, s in self._conns.values() if s is not None)
        seen = (connected, frozenset(self.clocks.taken_over))
        cache = self._table_cache
        if cache is None or cache[0] is not self.table or cache[1] != seen:
            table = self.table
            self._table_cache = (table, seen, {
                "id": table.id, "game": table.game, "preset": table.preset,
                "players": table.players, "deals": table.deals, "status": table.status,
                "end": table_end(table.game, table.rules, table.players, table.deals),
                "skill": table.skill,
                "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot_level,
                           "connected": s.bot_level is not None or s.seat in connected,
                           "autoplay": s.seat in self.clocks.taken_over}
                          for s in table.seats],
                "turn_seconds": self.clocks.turn_seconds()})
        return self._table_cache[2]

    def _sheet(self, progress: MatchProgress) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The score sheet and result: the same for every audience until a round ends, so
        computed once (it replays every finished round's totals) and shared — the same
        object, which lets the delta skip it by identity."""
        key = (id(progress), len(progress.rounds), progress.round_over(), progress.match_over())
        if self._sheet_cache is None or self._sheet_cache[0] != key:
            scores = progress.score_sheet()
            result = ({"winners": progress.winners(), "totals": scores["totals"]}
                      if progress.match_over() else None)
            self._sheet_cache = (key, scores, result)
        return self._sheet_cache[1], self._sheet_cache[2]

    def _snapshot(self, seat: int | None) -> str:
        """The encoded snapshot for ``seat``."""
        return protocol.encode({"type": "snapshot", "seq": self.seq, "epoch": self.epoch,
                                "state": self._state(seat)})

    def _broadcast(self, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """One new seq: each audience (every seat, and spectators while any is connected) gets
        its own message, encoded once: the event with ``patch`` (the change of its state since
        the last seq, app.rooms.delta) for clients that asked for deltas, with the whole
        ``state`` for the others. The parts every audience shares are encoded once per seq.
        Each seat's buffer keeps the encoded patch messages for resuming delta clients."""
        assert self.table is not None
        self.seq += 1
        encode = protocol.encode
        head = f'{{"type":"event","seq":{self.seq},"epoch":{encode(self.epoch)}'
        events_json = encode(events)
        audiences: list[int | None] = [*range(self.table.players), None]
        connected: dict[int | None, list[Connection]] = {}
        for conn, seat in self._conns.values():
            connected.setdefault(seat, []).append(conn)
        shared = self._shared()
        game = get_game(self.table.game)
        for audience in audiences:
            conns = connected.get(audience, [])
            if audience is None and not conns:  # nobody watching: no view, no buffer
                self._buffers.pop(None, None)
                self._last_state.pop(None, None)
                continue
            state = self._state(audience, shared)
            patch = delta.diff(self._last_state.get(audience), state)
            self._last_state[audience] = state
            body = f'{head},"action":{encode(action_for(game, action, audience))},"events":{events_json}'
            patched = f'{body},"patch":{encode(patch)}}}'
            buffer = self._buffers.setdefault(audience, deque(maxlen=self._config.resume_buffer))
            buffer.append((self.seq, patched))
            whole: str | None = None
            for conn in conns:
                if conn.deltas:
                    conn.send(patched)
                else:
                    if whole is None:
                        whole = f'{body},"state":{encode(state)}}}'
                    conn.send(whole)

    def _missed(self, conn: Connection, seat: int | None, last_seq: int | None,
                epoch: str | None) -> list[str] | None:
        """The buffered messages after ``last_seq``, or None if a snapshot is needed (always,
        when something was missed by a client that takes whole states: only patches are
        buffered)."""
        if last_seq is None or epoch != self.epoch or last_seq > self.seq:
            return None
        if last_seq == self.seq:
            return []
        buffer = self._buffers.get(seat)
        if not conn.deltas or not buffer or buffer[0][0] > last_seq + 1:
            return None
        return [text for seq, text in buffer if seq > last_seq]

    def _error(self, conn: Connection | None, code: str, message: str) -> None:
        if conn is not None:
            conn.send(protocol.dump(protocol.ErrorMessage(seq=self.seq, code=code,
                                                          message=message)))
