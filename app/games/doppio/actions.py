"""Doppio actions: checking, applying, and listing the legal ones.

The vocabulary (scenario format plus ``pass``):

- ``{"seat": s, "type": "discard", "position": "L1"}``: on the seat's turn.
- ``{"seat": s, "type": "doppio"}``: on the seat's turn, hand value at most 10.
- ``{"seat": s, "type": "catch"}``: in the open catch window, by an eligible seat, once.
- ``{"seat": s, "type": "pass"}``: in the open catch window, by an eligible seat, once: it will
  not catch this card. Lets the window close before the deadline when everyone has answered.

The seat whose turn it is may discard or declare while the previous discard's catch window is
still open: its action first closes the window (the scenario format's "the next non-catch action
closes the window"), then applies. Any other seat's turn action is "not your turn". Keys other
than ``seat``, ``type`` and ``position`` are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action, Event, IllegalAction, Seat, quoted
from app.games.doppio.catch import answer, close_catch_window
from app.games.doppio.layout import POSITIONS
from app.games.doppio.state import DoppioState
from app.games.doppio.turns import apply_discard, apply_doppio, doppio_refusal

TURN_ACTIONS = ("discard", "doppio")
WINDOW_ACTIONS = ("catch", "pass")


def _seat_of(state: DoppioState, action: Mapping[str, Any]) -> Seat:
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction(f"no seat {quoted(seat)} at a table of {state.players}")
    return seat


def _position_of(action: Mapping[str, Any]) -> str:
    position = action.get("position")
    if not isinstance(position, str) or position not in POSITIONS:
        raise IllegalAction(f"unknown position {quoted(position)}, expected one of {' '.join(POSITIONS)}")
    return position


def window_refusal(state: DoppioState, seat: Seat) -> str | None:
    """Why ``seat`` may not catch or pass now, or None when it may."""
    window = state.window
    if window is None:
        return "the catch window is closed"
    if seat == window.discarder:
        return "you cannot catch your own discard"
    if state.held[seat] is not None:
        return "you hold a caught card"
    if window.answered(seat):
        return "you already answered this catch window"
    return None


def _apply_turn(state: DoppioState, seat: Seat, kind: str, action: Mapping[str, Any]) -> tuple[DoppioState, list[Event]]:
    """A discard or Doppio by the seat whose turn it is: close the open catch window first,
    then apply. Raises IllegalAction before anything changes."""
    if seat != state.turn:
        raise IllegalAction("not your turn")
    position = _position_of(action) if kind == "discard" else ""
    state, events = close_catch_window(state)
    if kind == "discard":
        state, more = apply_discard(state, seat, position)
    else:
        state, more = apply_doppio(state, seat)
    return state, events + more


def apply_action(state: DoppioState, action: Mapping[str, Any]) -> tuple[DoppioState, list[Event]]:
    """Apply one action; return the new state and its public events.

    Raises IllegalAction with a reason a player can read ("not your turn", "hand value 14 is
    above 10", "the catch window is closed", "you hold a caught card", "the round is over", ...);
    ``state`` itself is never changed.
    """
    if not isinstance(action, Mapping):
        raise IllegalAction("an action is a JSON object")
    seat = _seat_of(state, action)
    kind = action.get("type")
    if state.over:
        raise IllegalAction("the round is over")
    if kind in TURN_ACTIONS:
        return _apply_turn(state, seat, str(kind), action)
    if kind in WINDOW_ACTIONS:
        reason = window_refusal(state, seat)
        if reason is not None:
            raise IllegalAction(reason)
        return answer(state, seat, caught=kind == "catch")
    raise IllegalAction(f"unknown action type {quoted(kind)}, expected discard, doppio, catch or pass")


def legal_actions(state: DoppioState, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now: catch and pass while it may answer the open window;
    the six discards, and Doppio when its hand value allows, on its turn."""
    if state.over or not 0 <= seat < state.players:
        return []
    actions: list[Action] = []
    if window_refusal(state, seat) is None:
        actions += [{"seat": seat, "type": kind} for kind in WINDOW_ACTIONS]
    if seat == state.turn:
        actions += [{"seat": seat, "type": "discard", "position": position} for position in POSITIONS]
        if doppio_refusal(state, seat) is None:
            actions.append({"seat": seat, "type": "doppio"})
    return actions


def to_act(state: DoppioState) -> tuple[Seat, ...]:
    """The seats the table waits for: while a catch window is open, its eligible seats that have
    not answered (the seat whose turn is next may already act, but its turn timer starts when
    the window closes); otherwise the seat whose turn it is. Empty once the round is over."""
    if state.over:
        return ()
    if state.window is not None:
        return state.window.waiting()
    return (state.turn,)
