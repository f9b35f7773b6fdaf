"""The audiences of a table: who is connected, and what each of them is sent.

Each seat is an audience, and so are the spectators (``None``) while any is connected; a seat's
person may have several connections, and a new one closes the older ones. Every change of the
table is one new ``seq``: each audience gets its own message, encoded once — the event with
``patch`` (the change of its state since the last seq, app/rooms/delta.py) for clients that
asked for deltas, with the whole ``state`` for the others. Every server message carries the
table's ``seq`` and the actor's ``epoch``; each audience keeps a bounded buffer of recent
messages (``ActorConfig.resume_buffer``) so a reconnecting client receives what it missed, or a
snapshot. ``Game.view(state, seat)`` (spectators ``view(state, None)``) is the one projection
any client or computer player receives.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from app import protocol
from app.clock import Clock
from app.games.registry import get_game
from app.rooms import delta
from app.rooms.catch_window import WINDOW_ANSWERS
from app.rooms.config import ActorConfig
from app.rooms.connection import Peer
from app.rooms.intermission import Intermission
from app.rooms.match import MatchProgress, table_end
from app.rooms.parts import Actor
from app.rooms.projection import action_for
from app.rooms.store import LEFT, TableInfo

#: ``stood_in`` of a seat no computer player stood in for: one read-only list for every state
NOBODY: list[Any] = []


class Audiences:
    """The connections of table ``actor`` by seat, the messages they are sent and the resume
    buffers. Everything but :meth:`error` runs inside the actor's task."""

    def __init__(self, actor: Actor, clock: Clock, config: ActorConfig,
                 between: Intermission) -> None:
        self._actor, self._clock, self._config, self._between = actor, clock, config, between
        self._conns: dict[int, tuple[Peer, int | None]] = {}
        #: per audience (seat, None: spectators): (seq, encoded patch event) of recent seqs
        self._buffers: dict[int | None, deque[tuple[int, str]]] = {}
        #: per audience: its state as of the last seq, frozen (the base of the next patch)
        self._last_state: dict[int | None, delta.Frozen] = {}
        #: what the last seq's freezer encoded (app.rooms.delta.Freezer: ``before``)
        self._encoded: delta.Encoded = {}
        self._sheet_cache: tuple[Any, dict[str, Any], dict[str, Any] | None] | None = None
        self._table_cache: tuple[TableInfo, tuple[frozenset[int], frozenset[tuple[int, str]]],
                                 dict[str, Any]] | None = None

    # --- connections -------------------------------------------------------------------------

    async def on_attach(self, conn: Peer, last_seq: int | None,
                        epoch: str | None) -> None:
        """The command ``attach``: connect ``conn`` to its user's seat (a spectator when not
        seated). It gets what it missed since ``last_seq`` of ``epoch``, or a snapshot; older
        connections of the seat close, and a computer player moving for its person stops."""
        actor = self._actor
        seat = self.seat_of_user(conn.user_id)
        if seat is not None:
            await actor.clocks.arrived(seat)
            for other_id, (other, other_seat) in list(self._conns.items()):
                if other_seat == seat:
                    other.close(protocol.dump(protocol.Closed(
                        seq=actor.seq, reason="taken_over", reconnect=False)))
                    del self._conns[other_id]
        self._conns[conn.id] = (conn, seat)
        actor.unloading.stay()
        missed = self._missed(conn, seat, last_seq, epoch)
        if missed is None:
            conn.send(self.snapshot(seat))
        else:
            for message in missed:
                conn.send(message)
        if seat is not None:
            self.broadcast(None, [{"type": "connected", "seat": seat, "connected": True}])

    async def on_detach(self, conn: Peer) -> None:
        """The command ``detach``: ``conn`` closed. If it was its seat's connection, the others
        are told, the seat passes in an open catch window, its person's away grace starts
        when no connection of theirs is left, and a pause or rematch vote may go on."""
        actor = self._actor
        entry = self._conns.pop(conn.id, None)
        if not self._conns:
            actor.unloading.schedule()
        if entry is None or entry[1] is None or entry[0] is not conn:
            return
        seat = entry[1]
        self.broadcast(None, [{"type": "connected", "seat": seat, "connected": False}])
        if actor.window.is_open():
            actor.window.pass_absent(actor.window.number)
        if not self.seat_connected(seat) and actor.seat_bot(seat) is None:
            actor.clocks.gone(seat)
        await actor.course.presence_changed()

    def seat_of(self, conn: Peer) -> int | None:
        """The seat ``conn`` is attached to (None: a spectator, or not attached)."""
        entry = self._conns.get(conn.id)
        return entry[1] if entry else None

    def reseat(self) -> None:
        """The seats changed: each connection moves to its user's seat now."""
        for conn_id, (conn, _seat) in list(self._conns.items()):
            self._conns[conn_id] = (conn, self.seat_of_user(conn.user_id))

    def seat_of_user(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays (None: a spectator, or a person who left the match)."""
        table = self._actor.table
        if user_id is None or table is None:
            return None
        taken_over = self._actor.clocks.taken_over
        return next((s.seat for s in table.seats
                     if s.user_id == user_id and taken_over.get(s.seat) != LEFT), None)

    def seat_connected(self, seat: int) -> bool:
        return any(other_seat == seat for _conn, other_seat in self._conns.values())

    def empty(self) -> bool:
        """Whether nobody is connected."""
        return not self._conns

    def close_all(self, reason: str) -> None:
        """Tell every client why the table ends here (they reconnect after a shutdown)."""
        for conn, _seat in self._conns.values():
            conn.close(protocol.dump(protocol.Closed(
                seq=self._actor.seq, reason=reason, reconnect=reason == "shutdown")))
        self._conns.clear()

    def drop_all(self) -> None:
        """Forget every connection without a word (they hold the final state, or another
        process serves the table now)."""
        self._conns.clear()

    # --- what each audience sees ---------------------------------------------------------------

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """``Game.view(state, seat)``, with ``legal`` (the seat's legal actions) added for games
        whose view does not list them. The one projection every client and bot receives."""
        progress, window = self._actor.progress, self._actor.window
        assert progress is not None
        game, state = progress.game, progress.state
        view = game.view(state, seat)
        if "legal" not in view:
            view["legal"] = game.legal_actions(state, seat) if seat is not None else []
        if window.is_open():
            # the table waits for the window: only answers now; the clients' countdown
            for key in ("legal", "legal_actions"):
                if isinstance(view.get(key), list):
                    view[key] = [a for a in view[key] if a.get("type") in WINDOW_ANSWERS]
            shown = view.get("catch_window")
            if isinstance(shown, dict) and window.deadline is not None:
                shown["remaining"] = window.left()
        return view

    def _shared(self) -> dict[str, Any]:
        """The members of the state that are the same for every audience right now:
        ``table``, ``scores`` (the score sheet), ``result`` (the match result), ``timers``
        (the turn timers), ``pause`` and ``rematch`` — built once per seq, not per seat."""
        table = self._table_json()
        progress, info = self._actor.progress, self._actor.table
        assert info is not None  # a table is served only once it is loaded
        players, deals = info.players, info.deals
        scores: dict[str, Any] = {"rounds": [], "totals": [0] * players, "deals": deals,
                                  "played": 0}
        result = None
        if progress is not None and progress.current is not None:
            scores, result = self._sheet(progress)
        now = self._clock.monotonic()
        clocks = self._actor.clocks
        timers = [{"seat": s, "remaining": round(max(0.0, at - now), 1)}
                  | ({"reservation": True} if clocks.deciding_reservation(s) else {})
                  for s, at in sorted(clocks.deadlines.items())]
        return {"table": table, "scores": scores, "result": result, "timers": timers,
                "pause": self._between.pause_json(now),
                "rematch": self._between.rematch_json(result is not None and info.rematch)}

    def _freezer(self, shared: dict[str, Any]) -> delta.Freezer:
        """The freezer of one seq (app.rooms.delta.Freezer), knowing what the last seq's
        freezer encoded, with the table and the score sheet encoded whole (each audience then
        compares one bytes object for each; they stay the same objects until they change)."""
        freezer = delta.Freezer(self._encoded)
        for key in ("table", "scores"):
            freezer.encode(shared[key])
        return freezer

    def state(self, seat: int | None, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """What ``seat`` (None: spectators) sees now: the fields of protocol.TableState as a
        JSON-ready dict (built directly: this runs for every audience after every change).
        ``shared``: :meth:`_shared` of this moment, when the caller builds several audiences."""
        shared = shared or self._shared()
        progress = self._actor.progress
        view = None
        if progress is not None and progress.current is not None:
            view = self.seat_view(seat)
            view["round"] = progress.current.number
        timers = shared["timers"]
        deadline = next((timer["remaining"] for timer in timers if timer["seat"] == seat), None)
        clocks = self._actor.clocks
        stood_in = clocks.stood_in.get(seat) if seat is not None else None
        stood_in_total = clocks.stood_in_total.get(seat, 0) if seat is not None else 0
        return {"table": shared["table"], "you": seat, "view": view, "scores": shared["scores"],
                "result": shared["result"], "deadline": deadline, "timers": timers,
                "stood_in": list(stood_in) if stood_in else NOBODY,
                "stood_in_total": stood_in_total, "pause": shared["pause"],
                "rematch": shared["rematch"]}

    def _table_json(self) -> dict[str, Any]:
        """The ``table`` part of every audience's state: the same object until the table or
        the set of connected seats changes (so a delta skips it by identity)."""
        table, taken_over = self._actor.table, self._actor.clocks.taken_over
        assert table is not None
        connected = frozenset(s for _c, s in self._conns.values() if s is not None)
        seen = (connected, frozenset(taken_over.items()))
        cache = self._table_cache
        if cache is None or cache[0] is not table or cache[1] != seen:
            cache = self._table_cache = (table, seen, {
                "id": table.id, "game": table.game, "preset": table.preset,
                "players": table.players, "deals": table.deals, "status": table.status,
                "end": table_end(table.game, table.rules, table.players, table.deals),
                "skill": table.skill,
                "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot_level,
                           "connected": s.bot_level is not None or s.seat in connected,
                           "autoplay": s.seat in taken_over,
                           # the person left the match: a computer player has the seat for good
                           "left": taken_over.get(s.seat) == LEFT}
                          for s in table.seats],
                "turn_seconds": self._actor.clocks.turn_seconds()})
        return cache[2]

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

    # --- messages ------------------------------------------------------------------------------

    def snapshot(self, seat: int | None) -> str:
        """The encoded snapshot for ``seat``."""
        return protocol.encode({"type": "snapshot", "seq": self._actor.seq,
                                "epoch": self._actor.epoch, "state": self.state(seat)})

    def broadcast(self, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """One new seq: each audience (every seat, and spectators while any is connected) gets
        its own message, encoded once: the event with ``patch`` (the change of its state since
        the last seq, app.rooms.delta) for clients that asked for deltas, with the whole
        ``state`` for the others. The parts every audience shares are encoded once per seq.
        Each seat's buffer keeps the encoded patch messages for resuming delta clients."""
        actor = self._actor
        assert actor.table is not None
        actor.seq += 1
        encode = protocol.encode
        head = f'{{"type":"event","seq":{actor.seq},"epoch":{encode(actor.epoch)}'
        events_json = encode(events)
        audiences: list[int | None] = [*range(actor.table.players), None]
        connected: dict[int | None, list[Peer]] = {}
        for conn, seat in self._conns.values():
            connected.setdefault(seat, []).append(conn)
        shared = self._shared()
        freezer = self._freezer(shared)
        game = get_game(actor.table.game)
        owner = None if action is None else action.get("seat")
        #: the action's JSON for its own seat (True) and for the others (action_for shows
        #: every other audience the same), each encoded once
        shown: dict[bool, str] = {}
        for audience in audiences:
            conns = connected.get(audience, [])
            if audience is None and not conns:  # nobody watching: no view, no buffer
                self._buffers.pop(None, None)
                self._last_state.pop(None, None)
                continue
            state = self.state(audience, shared)
            last = self._last_state.get(audience)
            frozen, patch = freezer.update(state, last)
            self._last_state[audience] = frozen
            mine = audience == owner
            action_json = shown.get(mine)
            if action_json is None:
                action_json = shown[mine] = encode(action_for(game, action, audience))
            body = f'{head},"action":{action_json},"events":{events_json}'
            patched = f'{body},"patch":{encode(patch)}}}'
            buffer = self._buffers.get(audience)
            if buffer is None:
                buffer = self._buffers[audience] = deque(maxlen=self._config.resume_buffer)
            buffer.append((actor.seq, patched))
            whole: str | None = None
            for conn in conns:
                if conn.deltas:
                    conn.send(patched)
                else:
                    if whole is None:
                        whole = f'{body},"state":{delta.frozen_json(frozen).decode()}}}'
                    conn.send(whole)
        self._encoded = freezer.encoded

    def _missed(self, conn: Peer, seat: int | None, last_seq: int | None,
                epoch: str | None) -> list[str] | None:
        """The buffered messages after ``last_seq``, or None if a snapshot is needed (always,
        when something was missed by a client that takes whole states: only patches are
        buffered)."""
        latest = self._actor.seq
        if last_seq is None or epoch != self._actor.epoch or last_seq > latest:
            return None
        if last_seq == latest:
            return []
        buffer = self._buffers.get(seat)
        if not conn.deltas or not buffer or buffer[0][0] > last_seq + 1:
            return None
        return [text for seq, text in buffer if seq > last_seq]

    def error(self, conn: Peer | None, code: str, message: str) -> None:
        """An ``error`` message to ``conn`` alone (none when None). Any task may send one."""
        if conn is not None:
            conn.send(protocol.dump(protocol.ErrorMessage(seq=self._actor.seq, code=code,
                                                          message=message)))
