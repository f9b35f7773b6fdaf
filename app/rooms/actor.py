"""The table actor: the one task that owns a table's game state.

Commands come from one asyncio.Queue and run one at a time, so nothing else ever touches the
state. For an action: check it with the rules (``apply`` on the immutable state), append it to
the event log (committed), then update the state and send each connection its own seat's view
(spectators ``view(state, None)``). Every server message carries the table's ``seq`` (one per
change) and the actor's ``epoch``; each audience keeps a bounded buffer of recent messages so a
reconnecting client receives what it missed, or a snapshot. Computer seats act through the
same path as people.

The actor's parts are small objects that run inside its task (settings: app/rooms/config.py):
- ``course`` (app/rooms/course.py): the match's start, each deal, the pause between deals, the
  end and the rematch, and where to go on after a restart;
- ``audiences`` (app/rooms/audiences.py): the connections by seat, each audience's state and
  message, the resume buffers;
- ``clocks`` (app/rooms/clocks.py): the move clocks, the away grace, and the computer player
  that takes a person's seat over until they are back;
- ``window`` (app/rooms/catch_window.py): the timed catch window of games that have one
  (Doppio: ``GAME.close_catch_window``);
- ``unloading`` (app/rooms/unloading.py): when a finished or idle table's actor ends.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from app import metrics, protocol
from app.clock import Clock, Timer
from app.games.base import IllegalAction
from app.games.registry import get_game
from app.rooms.audiences import Audiences
from app.rooms.catch_window import WINDOW_ANSWERS, CatchWindow
from app.rooms.clocks import TurnClocks
from app.rooms.config import ActorConfig
from app.rooms.connection import Peer
from app.rooms.course import INTERMISSION_ACTIONS, MatchCourse
from app.rooms.match import MatchProgress
from app.rooms.projection import Unsendable, check_sendable
from app.rooms.store import LEFT, MatchStore, TableInfo
from app.rooms.unloading import Unloading

__all__ = ["INTERMISSION_ACTIONS", "WINDOW_ANSWERS", "ActorConfig", "TableActor", "quoted_reason"]

log = logging.getLogger(__name__)


def quoted_reason(text: str, limit: int = 200) -> str:
    """A refusal reason cut to ``limit`` characters (the protocol's error line limit)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class TableActor:
    """The actor of table ``table_id``. Start ``run()`` as a task; talk to it only through the
    command methods (``attach``, ``detach``, ``act``, ``seats_changed``, ``start``, ``stop``,
    ``release``).
    Its parts (see above) act through :meth:`apply` and :meth:`later` like its own handlers."""

    def __init__(self, table_id: int, store: MatchStore, clock: Clock, config: ActorConfig,
                 rng: random.Random | None = None,
                 on_change: Callable[[int], Awaitable[None]] | None = None,
                 on_rematch: Callable[[int, list[int]], Awaitable[int]] | None = None) -> None:
        self.table_id = table_id
        self._store, self._clock, self._config = store, clock, config
        self._rng = rng or random.Random(secrets.randbits(64))
        self._queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.epoch = secrets.token_hex(8)
        self.seq = 0
        self.table: TableInfo | None = None
        self.progress: MatchProgress | None = None
        self.match_id: int | None = None
        self.course = MatchCourse(self, store, clock, config, self._rng, on_change, on_rematch)
        self.audiences = Audiences(self, clock, config, self.course.between)
        self.clocks = TurnClocks(self, store, clock, config, self._rng)
        self.window = CatchWindow(self, clock)
        self.unloading = Unloading(self, clock, config)
        #: pending ``later`` commands (cancelled when the actor stops)
        self._timers: set[Timer] = set()
        self.stopped = asyncio.Event()
        #: True when a write was refused by the log's unique (round, idx) / (match, number):
        #: another owner wrote first, and this actor dropped the table
        self.fenced = False
        #: what runs each queued command (named by its first item; "stop" and "unload" end
        #: the loop, see run)
        self._handlers: dict[str, Callable[..., Awaitable[None]]] = {
            "load": self._on_load, "act": self._on_act, "seats": self._on_seats,
            "attach": self.audiences.on_attach, "detach": self.audiences.on_detach,
            "start": self.course.on_start, "deal": self.course.on_deal,
            "turn": self.clocks.on_turn, "alarm": self.clocks.on_alarm,
            "window": self.window.on_deadline, "autopass": self.window.on_autopass}
        self._queue.put_nowait(("load",))  # the first command: commands queue up behind it

    # --- commands (any task) ---------------------------------------------------------------

    def attach(self, conn: Peer, last_seq: int | None = None, epoch: str | None = None) -> None:
        """Connect a client: its seat if the user holds one, else as a spectator."""
        self._queue.put_nowait(("attach", conn, last_seq, epoch))

    def detach(self, conn: Peer) -> None:
        self._queue.put_nowait(("detach", conn))

    def act(self, conn: Peer, action: dict[str, Any]) -> None:
        """A client's action; refused with an ``error`` message unless legal for its seat."""
        if self.stopped.is_set():  # unloaded (a finished table): nothing more happens here
            self.audiences.error(conn, "illegal", "this table is not in play")
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

    def release(self) -> None:
        """Hand the table on: run the commands queued before this one, then end without a
        word to anyone (another process serves the table from now, rebuilt from the event
        log, and its clients attach there: app/rooms/cluster.py)."""
        self._queue.put_nowait(("release",))

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
                    if command[0] == "stop":  # every client is told why
                        self.audiences.close_all(command[1])
                        return
                    if command[0] == "release":
                        self.audiences.drop_all()
                        return
                    if command[0] != "unload":
                        await self._handlers[command[0]](*command[1:])
                    elif self.unloading.due():
                        self.audiences.drop_all()  # quietly: they hold the final state
                        return
                except IntegrityError:
                    # Fenced: another process owns this table now and wrote this position of
                    # the log first (docs/scaling.md). Drop the table; tell nobody anything.
                    log.warning("table %s: the event log has moved on; dropping the table",
                                self.table_id)
                    self.audiences.drop_all()
                    self.fenced = True
                    return
                except Exception:  # one bad command must not end the table
                    log.exception("table %s: command %s failed", self.table_id, command[0])
                    if command[0] == "act":  # the sender gets an answer; nothing changed
                        self.audiences.error(command[1], "server_error",
                                             "the server could not handle this action; try again")
                finally:
                    self._queue.task_done()
                if self.table is None:  # the table could not be loaded: nothing to serve
                    return
        finally:
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()
            self.stopped.set()
            while not self._queue.empty():
                self._queue.get_nowait()
                self._queue.task_done()

    async def _on_load(self) -> None:
        table = await self._load_stored()
        if table.status == "playing":
            await self.clocks.restore()
            await self.course.resume()
        else:
            self.unloading.schedule()

    async def _load_stored(self) -> TableInfo:
        """The table and its match as the event log has them (replayed); returns the table."""
        self.table = table = await self._store.load_table(self.table_id)
        stored = await self._store.load_match(self.table_id)
        if stored is not None:
            self.match_id, rounds = stored
            game = get_game(table.game)
            self.progress = MatchProgress.replay(game, game.make_rules(table.rules),
                                                 table.players, table.deals, rounds)
        return table

    # --- handlers --------------------------------------------------------------------------

    async def _on_act(self, conn: Peer, action: dict[str, Any]) -> None:
        seat = self.audiences.seat_of(conn)
        if seat is None:
            self.audiences.error(conn, "not_seated", "you do not hold a seat at this table")
            return
        assert self.table is not None  # loaded by the first command
        try:  # the game's action models, before the rules see anything (app.protocol.ACTIONS)
            action = protocol.parse_action(self.table.game, action)
        except protocol.ProtocolError as err:
            self.audiences.error(conn, "bad_message", str(err))
            return
        if action.get("seat") is not None and action["seat"] != seat:
            self.audiences.error(conn, "illegal", "that is not your seat")
            return
        await self.clocks.heard_from(seat)  # anything they do: the computer player stops
        if action.get("type") == "back":
            return
        if action.get("type") in INTERMISSION_ACTIONS:
            await self.course.on_intermission(seat, action, conn)
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
        self.audiences.reseat()
        self.audiences.broadcast(None, [{"type": "seats"}])

    # --- without running -------------------------------------------------------------------

    async def stored_snapshot(self, user_id: int | None) -> str:
        """Without running this actor: load the table and its match from the log and return
        the encoded snapshot for ``user_id``'s seat (a spectator's when not seated). For a
        finished table, which needs no actor (app/rooms/stored.py)."""
        await self._load_stored()
        state = self.audiences.state(self.audiences.seat_of_user(user_id))
        state["rematch"] = None  # no actor, no rematch to decide: only a running table offers it
        return protocol.encode({"type": "snapshot", "seq": self.seq, "epoch": self.epoch,
                                "state": state})

    # --- the game --------------------------------------------------------------------------

    async def apply(self, seat: int, action: dict[str, Any], origin: Peer | None, *,
                    stood_in: str | None = None) -> bool:
        """Check, log (durably), commit, tell everyone; returns whether it was accepted.

        ``stood_in``: a computer player makes this move for the seat's person, and why
        (app.rooms.clocks): the message carries a ``stood_in`` event and the seat keeps the move.

        Errors go to ``origin`` only: ``illegal`` (the rules' reason) or ``server_error`` (the
        log could not be written; nothing changed).
        """
        started = time.perf_counter()
        progress = self.progress
        if progress is None or progress.current is None:
            self.audiences.error(origin, "illegal", "the game has not started")
            return False
        refusal = self.window.refusal(action)
        if refusal is not None:
            self.audiences.error(origin, "illegal", refusal)
            return False
        try:
            new_state, events = progress.try_action(action)
        except IllegalAction as err:  # a reason a player can read, never a wall of echoed input
            self.audiences.error(origin, "illegal", quoted_reason(str(err)) or "not allowed now")
            return False
        record = progress.current
        round_id = record.id
        assert round_id is not None  # a round is stored before its first action
        try:  # serialize before commit: log only what can be stored and sent
            check_sendable(progress.game, action, new_state, events)
        except Unsendable as err:
            log.error("table %s: refused %s: %s", self.table_id, action.get("type"), err)
            self.audiences.error(origin, "server_error",
                                 "the result of this action cannot be kept; choose another")
            return False
        try:
            await self._store.append_action(round_id, len(record.actions), action)
        except IntegrityError:
            raise  # a second writer: fenced (see run)
        except Exception:
            log.exception("table %s: cannot store action", self.table_id)
            self.audiences.error(origin, "server_error",
                                 "the action could not be saved; try again")
            return False
        outcome = progress.commit_action(action, new_state)
        self.clocks.turn += 1
        self.window.track(events)
        if stood_in is not None:  # the rules' events stay as they were; this one is the room's
            events = [*events, self.clocks.record_stood_in(seat, action, stood_in)]
        if outcome is not None:
            await self._store.finish_round(round_id, outcome)
            await self.course.store_result()
            self.clocks.deadlines.clear()
            self.course.begin_pause()  # first, so the message carries the pause
        else:
            self.clocks.schedule()  # first, so the message carries the next mover's timer
        self.audiences.broadcast(action, events)
        metrics.ACTIONS.inc()
        metrics.ACTION_SECONDS.observe(time.perf_counter() - started)
        if outcome is not None:
            await self.course.after_round()
        return True

    # --- for the parts --------------------------------------------------------------------

    def later(self, seconds: float, command: tuple[Any, ...]) -> Timer | None:
        """Queue ``command`` after ``seconds`` on the table's clock (at once for 0 or less,
        then None); the pending timer, which :meth:`cancel` drops. A timer is one loop handle,
        not a task: thousands of tables keep a move clock each (docs/performance.md)."""
        if seconds <= 0:
            self._queue.put_nowait(command)
            return None

        def fire() -> None:
            self._timers.discard(timer)
            self._queue.put_nowait(command)

        timer = self._clock.call_later(seconds, fire)
        self._timers.add(timer)
        return timer

    def cancel(self, timer: Timer) -> None:
        """Drop a pending :meth:`later` (no effect once it has run). The actor holds each
        pending timer until it runs or is cancelled here: a move clock cancelled by the next
        move is released at once, not kept until the table stops."""
        timer.cancel()
        self._timers.discard(timer)

    def seat_bot(self, seat: int) -> str | None:
        """The skill level of a computer seat; None for a person's seat."""
        assert self.table is not None
        info = next((s for s in self.table.seats if s.seat == seat), None)
        return info.bot_level if info is not None else None
