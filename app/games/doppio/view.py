"""What a seat may see (``view``) and the omniscient dump (``state_json``).

A seat sees its own six cards and hand value, the held caught cards of every seat (face up),
the dead pile, the deck size, whose turn it is and the catch window: its card, discarder,
eligible seats and who has answered, but not who caught (catches are secret until the window
closes, so a fast connection learns nothing). A seat also sees its own answer. Never another
seat's six cards, nor the deck's order. A spectator (``seat`` None) sees no hand at all.
"""

from __future__ import annotations

from app.games.base import JSON, Seat
from app.games.doppio.actions import legal_actions, to_act
from app.games.doppio.layout import hand_value
from app.games.doppio.scoring import round_outcome
from app.games.doppio.state import CatchWindow, DoppioState


def _window_view(window: CatchWindow | None, seat: Seat | None, seconds: float) -> JSON | None:
    if window is None:
        return None
    own = [caught for answering, caught in window.answers if answering == seat]
    return {
        "card": window.card,
        "discarder": window.discarder,
        "eligible": list(window.eligible),
        "answered": [answering for answering, _ in window.answers],
        "my_answer": None if not own else ("catch" if own[0] else "pass"),
        "seconds": seconds,
    }


def _result_view(state: DoppioState) -> JSON | None:
    """Once the round is over: scores, hand values and the declaration (hands were revealed
    by the round_end event)."""
    if not state.over:
        return None
    outcome = round_outcome(state)
    return {"scores": list(outcome.scores), **outcome.details}


def _own_view(state: DoppioState, seat: Seat | None) -> JSON:
    """The parts only ``seat`` may see: its hand, hand value and legal actions (none for a
    spectator)."""
    if seat is None or not 0 <= seat < state.players:
        return {"hand": None, "hand_value": None, "legal_actions": []}
    hand = state.hands[seat]
    return {"hand": list(hand), "hand_value": hand_value(hand), "legal_actions": legal_actions(state, seat)}


def view(state: DoppioState, seat: Seat | None) -> JSON:
    """What ``seat`` (or a spectator, None) may see; see the module docstring."""
    return {
        "game": "doppio",
        "seat": seat,
        "players": state.players,
        "dealer": state.dealer,
        **_own_view(state, seat),
        "held": list(state.held),
        "dead": list(state.dead),
        "deck_size": len(state.deck),
        "turn": None if state.over else state.turn,
        "to_act": list(to_act(state)),
        "catch_window": _window_view(state.window, seat, state.rules.catch_window_seconds),
        "over": state.over,
        "result": _result_view(state),
    }


def state_json(state: DoppioState) -> JSON:
    """The whole state, hidden cards and secret catch answers included: for replays and
    debugging, never for a client."""
    window = state.window
    call = state.doppio
    return {
        "players": state.players,
        "dealer": state.dealer,
        "hands": [list(hand) for hand in state.hands],
        "hand_values": [hand_value(hand) for hand in state.hands],
        "held": list(state.held),
        "deck": list(state.deck),
        "dead": list(state.dead),
        "turn": state.turn,
        "catch_window": None if window is None else {
            "card": window.card,
            "discarder": window.discarder,
            "eligible": list(window.eligible),
            "answers": [{"seat": seat, "catch": caught} for seat, caught in window.answers],
        },
        "end": state.end,
        "doppio": None if call is None else {"seat": call.seat, "hand_value": call.hand_value, "success": call.success},
    }
