"""Turn clocks and takeovers: when a computer player moves for a seat, and for whom.

Computer seats act through the same path as people. **Turn timers and takeover:** a table may
give people a time per move (``TableInfo.turn_seconds``, else ``ActorConfig.turn_timeout``).
Every seat sees the mover's seconds left (``TableState.timers``). When a person's time runs out,
or a person has been gone (no connection) longer than ``away_grace``, a computer player of the
table's level takes the seat over and moves for it until the person is back (a new connection,
any action of theirs, or ``{"type": "back"}``) — except that a clock run out once only makes
a computer move once for the seat (event ``timeout``); it takes over when the clock runs out
``ActorConfig.timeouts_before_takeover`` times in a row. A reservation decision (the game's
``reservation_phase``) has twice the time per move. A computer standing in for a person never
slips into a silent solo (app/bots/stand_in.py). Each takeover is stored as a departure
(``MatchStore.record_departure``) and cleared when the person returns; one still open when a
rated match ends counts as "left early". The timer of the turn in play runs from a stored wall
time (the last logged action's, or the deal's), so a restarted table resumes the timer from its
stored deadline, not from a fresh full timer.

Every move a computer player makes for a person is told with it: the event
``{"type": "stood_in", "seat", "reason"}`` (``timeout``: the move clock ran out, ``away``: the
person was gone past the grace, ``left``: they left the match) rides on that move's message, and
the seat's own state keeps ``stood_in`` — those moves (the action and the reason, the newest
``STOOD_IN_KEPT``) and ``stood_in_total``, how many there were in all — until the person next
acts, so a person who reconnects is told what was played for them (the snapshot has no events)
and how many moves, even after an absence longer than the kept list. Kept in memory only: a
restart forgets it.

While a catch window is open (app/rooms/catch_window.py) people have no move clock, and a
computer player answers within a third of what is left of the window.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from app.bots import runner
from app.bots.stand_in import stand_in_action
from app.clock import Clock, Timer
from app.rooms.config import ActorConfig
from app.rooms.parts import Actor
from app.rooms.store import LEFT, MatchStore

log = logging.getLogger(__name__)
#: how many moves made for a person a seat's state keeps (a deal's worth of tricks and more)
STOOD_IN_KEPT = 16
#: seconds by which a move clock counts as run out when the alarm rings (the loop's timers
#: ring on whole milliseconds)
ALARM_SLACK = 0.001


class TurnClocks:
    """The computer seats' moves, the people's move clocks, their away grace and the
    takeovers of table ``actor`` (whose task runs everything here).

    ``turn`` counts the table's turns: a queued move or timer of an older turn is void, so
    whatever changes whose move it is, or who makes it, adds one.
    """

    def __init__(self, actor: Actor, store: MatchStore, clock: Clock, config: ActorConfig,
                 rng: random.Random) -> None:
        self._actor, self._store, self._clock, self._config = actor, store, clock, config
        self._rng = rng
        self.turn = 0
        #: the timers of this turn's commands (``_later``), cancelled by the next ``schedule``
        self._pending: list[Timer] = []
        #: the people's move clocks of this turn that have not run out: seat → (when, turn)
        self._running: dict[int, tuple[float, int]] = {}
        #: the one loop timer the move clocks share (``_ring_by``): (when it rings, the timer)
        self._alarm: tuple[float, Timer] | None = None
        self.deadlines: dict[int, float] = {}  # seat → monotonic time its turn timer runs out
        self._turn_base: float | None = None  # after a restart: when the turn in play began
        self.taken_over: dict[int, str] = {}  # seat → why a computer player moves for it
        self._timeouts: dict[int, int] = {}  # seat → move clocks run out in a row
        self._away_since: dict[int, float] = {}  # seat → when its person's last connection went
        #: seat → the moves a computer player made for its person since they last acted:
        #: ``{"action", "reason"}``, the newest last (their state's ``stood_in``)
        self.stood_in: dict[int, list[dict[str, Any]]] = {}
        #: seat → how many moves were made for its person since they last acted (``stood_in``
        #: keeps only the newest STOOD_IN_KEPT of them; their state's ``stood_in_total``)
        self.stood_in_total: dict[int, int] = {}

    async def restore(self) -> None:
        """After a (re)start: nobody is connected yet, so every person's away grace runs from
        now; open takeovers stay; the turn in play keeps its stored start (wall clock)."""
        actor = self._actor
        assert actor.table is not None
        now = self._clock.monotonic()
        for info in actor.table.seats:
            if info.bot_level is None:
                self._away_since.setdefault(info.seat, now)
        progress = actor.progress
        if actor.match_id is None or progress is None or progress.current is None:
            return
        self.taken_over.update(await self._store.open_departures(actor.match_id))
        if not progress.round_over() and progress.current.id is not None:
            started = await self._store.turn_started_at(progress.current.id)
            if started is not None:
                elapsed = (self._clock.now() - started).total_seconds()
                self._turn_base = now - max(0.0, elapsed)

    def schedule(self, keep_deadlines: bool = False) -> None:
        """Queue the computer seats' moves and the people's turn timers for this turn (with
        ``keep_deadlines``, a person whose timer already runs keeps its deadline)."""
        actor = self._actor
        progress = actor.progress
        kept = dict(self.deadlines) if keep_deadlines else {}
        self.deadlines.clear()
        self._running.clear()
        self._cancel_pending()
        if progress is None or progress.round_over():
            return
        window = actor.window.is_open()
        now = self._clock.monotonic()
        base, self._turn_base = (self._turn_base if self._turn_base is not None else now), None
        timeout = self.turn_seconds()
        for seat in progress.game.to_act(progress.state):
            person = actor.seat_bot(seat) is None
            if not person or seat in self.taken_over:
                delay = self.bot_pause(seat)
                if window:  # a computer player answers well within what is left of the window
                    delay = min(delay, actor.window.left() / 3)
                self._later(delay, ("turn", seat, self.turn, "move" if not person else "auto"))
                continue
            if timeout is not None and not window:
                seconds = timeout * 2 if self.deciding_reservation(seat) else timeout
                at = self.deadlines[seat] = kept.get(seat, base + seconds)
                self._running[seat] = (at, self.turn)
                self._ring_by(at)
            self._schedule_away(seat)

    def bot_pause(self, seat: int) -> float:
        """Seconds before a computer player at ``seat`` is asked for its move: the table's
        pacing (``bot_delay``) less the thinking time of its level (the expert's
        ``bot_budget_ms``), so that its thinking falls inside the pacing and a person never
        waits longer for a computer player than the pacing (unless the bot pool is busy)."""
        thinking = self._config.bot_budget_ms / 1000.0 if self.bot_level(seat) == "expert" else 0.0
        return max(0.0, self._config.bot_delay - thinking)

    def bot_level(self, seat: int) -> str:
        """The level of the computer player that moves for ``seat``: the seat's own, or (for a
        person's seat) the table's. The table must be loaded."""
        table = self._actor.table
        assert table is not None
        return self._actor.seat_bot(seat) or table.skill

    def _later(self, seconds: float, command: tuple[Any, ...]) -> None:
        """``actor.later`` for a command of this turn, kept so the next ``schedule`` cancels it
        (a move clock of a turn gone by would only be ignored when it ran out: at 30 s per
        move a busy table kept dozens of them)."""
        timer = self._actor.later(seconds, command)
        if timer is not None:
            self._pending.append(timer)

    def _ring_by(self, at: float) -> None:
        """Have the move clocks' alarm ring by ``at`` (monotonic seconds). An alarm set to ring
        no later is kept: it rings, finds the clock not run out yet and is set again
        (:meth:`on_alarm`). A move at a table with a move clock restarts the clock, so this
        saves a loop timer made and cancelled per move (docs/performance.md, "Move clocks")."""
        alarm = self._alarm
        if alarm is not None:
            if alarm[0] <= at:
                return
            self._actor.cancel(alarm[1])
        timer = self._actor.later(max(0.0, at - self._clock.monotonic()), ("alarm",))
        self._alarm = None if timer is None else (at, timer)

    async def on_alarm(self) -> None:
        """The command ``alarm``: each move clock that has run out queues its ``turn``
        command (reason ``timeout``, stamped with the turn it ran for: void if that turn is
        gone), and the alarm is set again for the earliest clock still running."""
        self._alarm = None
        now = self._clock.monotonic()
        for seat, (at, turn) in list(self._running.items()):
            if at <= now + ALARM_SLACK:
                del self._running[seat]
                self._actor.later(0, ("turn", seat, turn, "timeout"))
        if self._running:
            self._ring_by(min(at for at, _turn in self._running.values()))

    def _cancel_pending(self) -> None:
        for timer in self._pending:
            self._actor.cancel(timer)
        self._pending.clear()

    def deciding_reservation(self, seat: int) -> bool:
        """Whether ``seat`` is to make the reservation decision (gesund / Vorbehalt) of a
        game that has one (``GameTraits.reservation_phase``): a move clock gives it twice the time
        (30 s per move: 60 s): the whole hand is judged at once — a solo, a wedding, a poverty
        — before a card is played. Its timer says so (``reservation``: true)."""
        progress = self._actor.progress
        if progress is None:
            return False
        phase = progress.game.traits.reservation_phase
        return phase is not None and getattr(progress.state, "phase", None) == phase

    def turn_seconds(self) -> float | None:
        """Seconds a person has per move: the table's setting, else the server's default."""
        table = self._actor.table
        if table is not None and table.turn_seconds is not None:
            return float(table.turn_seconds)
        return self._config.turn_timeout

    # --- people coming and going ---------------------------------------------------------------

    async def arrived(self, seat: int) -> None:
        """A connection of ``seat``'s person: the computer player stops moving for them."""
        self._away_since.pop(seat, None)
        await self._person_back(seat)

    def gone(self, seat: int) -> None:
        """The last connection of ``seat``'s person closed: their away grace starts."""
        self._away_since[seat] = self._clock.monotonic()
        self._schedule_away(seat)

    async def heard_from(self, seat: int) -> None:
        """Any action of ``seat``'s person: the computer player stops, and their clock's
        run-outs start counting afresh."""
        await self._person_back(seat)
        self._timeouts.pop(seat, None)
        self.stood_in.pop(seat, None)  # they have seen the table since
        self.stood_in_total.pop(seat, None)

    def left_match(self, seat: int) -> None:
        """``seat``'s person left the running match (a departure ``"left"``): taken over for
        good."""
        if self.taken_over.get(seat) == LEFT:
            return
        self.taken_over[seat] = LEFT
        self.deadlines.pop(seat, None)
        self.turn += 1  # a queued timer or move of theirs is void
        self.schedule(keep_deadlines=True)
        self._actor.audiences.broadcast(None, [{"type": "autoplay", "seat": seat, "on": True,
                                       "reason": LEFT}])

    def _schedule_away(self, seat: int) -> None:
        """If ``seat``'s person is gone and it is their move, let a computer player move for
        them once the grace period since they left is over (ActorConfig.away_grace)."""
        since, grace = self._away_since.get(seat), self._config.away_grace
        progress = self._actor.progress
        if since is None or grace is None or progress is None or progress.round_over():
            return
        if seat in progress.game.to_act(progress.state):
            wait = max(0.0, since + grace - self._clock.monotonic())
            self._later(max(wait, self._config.bot_delay), ("turn", seat, self.turn, "away"))

    # --- a computer player's move --------------------------------------------------------------

    async def on_turn(self, seat: int, turn: int, reason: str = "move") -> None:
        """The command ``turn``: a computer player's move for ``seat``: a computer seat's
        (reason "move"), or a person's whose timer ran out ("timeout") or who is gone past the
        grace ("away") — both start a takeover — or a seat already taken over ("auto")."""
        actor = self._actor
        progress = actor.progress
        if turn != self.turn or progress is None or progress.round_over():
            return
        if reason == "away" and (seat not in self._away_since
                                 or actor.audiences.seat_connected(seat)):
            return  # the person came back in time
        if reason == "auto" and seat not in self.taken_over:
            return  # the person is back
        if seat not in progress.game.to_act(progress.state):
            return
        if reason == "timeout" and seat not in self.taken_over:
            self._timeouts[seat] = self._timeouts.get(seat, 0) + 1
            if self._timeouts[seat] >= self._config.timeouts_before_takeover:
                await self._take_over(seat, reason)  # keeps timing out: until "I'm back"
            else:  # a computer moves once for the seat; the person's next turn is theirs
                self.deadlines.pop(seat, None)
                actor.audiences.broadcast(None, [{"type": "timeout", "seat": seat}])
        elif reason == "away" and seat not in self.taken_over:
            await self._take_over(seat, reason)
        view = actor.audiences.seat_view(seat)
        table = actor.table
        assert table is not None
        level = self.bot_level(seat)
        action = await self._bot_decision(seat, level, view) or {}
        why = None  # standing in for a person: why, told with the move
        if reason != "move":  # (app.bots.stand_in)
            action = dict(stand_in_action(table.game, view, action) or {})
            why = reason if reason in ("timeout", "away") else self.taken_over.get(seat, "timeout")
        if turn != self.turn or actor.progress is not progress:
            return  # the table moved on while the computer player thought
        if not await actor.apply(seat, {**action, "seat": seat}, None, stood_in=why):
            # a computer player must never stall a table: fall back to a legal move
            log.warning("table %s: bot move %r refused; playing a legal one", actor.table_id,
                        action)
            legal = progress.game.legal_actions(progress.state, seat)
            moves = [a for a in legal if a.get("type") != "announce"] or legal
            if moves:
                await actor.apply(seat, dict(moves[0]), None, stood_in=why)

    async def _bot_decision(self, seat: int, level: str,
                            view: dict[str, Any]) -> dict[str, Any] | None:
        """The computer player's choice for ``seat`` at ``level`` (app.bots), thought out off the
        event loop (app.bots.runner's process pool) so that it never delays another table.
        It sees only the seat's view and the table's rules. None when it fails or declines."""
        table = self._actor.table
        assert table is not None
        seed = self._rng.getrandbits(32)
        try:
            return await runner.decide(table.game, level, view, seed,
                                       self._config.bot_budget_ms, rules=table.rules)
        except Exception:
            log.exception("table %s: bot of seat %s failed", self._actor.table_id, seat)
            return None

    def record_stood_in(self, seat: int, action: dict[str, Any], reason: str) -> dict[str, Any]:
        """Keep the move a computer player made for ``seat``'s person (their state's
        ``stood_in``, the newest STOOD_IN_KEPT, and the count of all in ``stood_in_total``);
        returns the event that tells it."""
        self.stood_in_total[seat] = self.stood_in_total.get(seat, 0) + 1
        kept = self.stood_in.setdefault(seat, [])
        kept.append({"action": {k: v for k, v in action.items() if k != "seat"}, "reason": reason})
        del kept[:-STOOD_IN_KEPT]
        return {"type": "stood_in", "seat": seat, "reason": reason}

    async def _take_over(self, seat: int, reason: str) -> None:
        """A computer player moves for ``seat``'s person from now until they are back."""
        actor = self._actor
        assert actor.table is not None
        self.taken_over[seat] = reason
        self.deadlines.pop(seat, None)
        info = next((s for s in actor.table.seats if s.seat == seat), None)
        if actor.match_id is not None and info is not None and info.user_id is not None:
            await self._store.record_departure(actor.match_id, seat, info.user_id, reason)
        actor.audiences.broadcast(None, [{"type": "autoplay", "seat": seat, "on": True,
                                          "reason": reason}])

    async def _person_back(self, seat: int) -> None:
        """``seat``'s person is here again: end a takeover (their timer starts afresh)."""
        if self.taken_over.get(seat) in (None, LEFT):  # one who left does not come back
            return
        self.taken_over.pop(seat)
        self._timeouts.pop(seat, None)
        if self._actor.match_id is not None:
            await self._store.record_return(self._actor.match_id, seat)
        self.turn += 1  # the computer player's queued move is void
        self.schedule(keep_deadlines=True)
        self._actor.audiences.broadcast(None, [{"type": "autoplay", "seat": seat, "on": False}])
