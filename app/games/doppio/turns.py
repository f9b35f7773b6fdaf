"""A seat's turn: discard (with shift and refill) or declare Doppio.

The caller (``actions.apply_action``) has checked that it is the seat's turn, that the action is
well formed and that no catch window is open any more.
"""

from __future__ import annotations

from dataclasses import replace

from app.games.base import Event, IllegalAction, Seat
from app.games.doppio.catch import open_window
from app.games.doppio.layout import OUTER, discard, hand_value
from app.games.doppio.scoring import round_end_event
from app.games.doppio.state import (
    END_DECK,
    END_DOPPIO,
    DoppioCall,
    DoppioState,
    next_seat,
    replace_at,
)


def apply_discard(state: DoppioState, seat: Seat, position: str) -> tuple[DoppioState, list[Event]]:
    """Discard the card at ``position``; shift that side toward the divider and refill its
    outer position.

    The refill is the seat's held caught card if it holds one (the forced catch: it cannot be
    refused; the deck is not touched), otherwise the top card of the deck. When the refill
    takes the last card of the deck the round ends (``end == "deck"``): the discarded card is
    dead and no catch window opens. Otherwise the catch window for the card opens and the turn
    passes clockwise.
    """
    held = state.held[seat]
    refill = held if held is not None else state.deck[0]
    deck = state.deck if held is not None else state.deck[1:]
    hand, card = discard(state.hands[seat], position, refill)
    outer = OUTER[position[0]]
    refill_event: Event = {"type": "refill", "seat": seat, "position": outer,
                           "source": "caught" if held is not None else "deck"}
    if held is not None:
        refill_event["card"] = held
    state = replace(state, hands=replace_at(state.hands, seat, hand), held=replace_at(state.held, seat, None),
                    deck=deck, turn=next_seat(seat, state.players))
    events: list[Event] = [{"type": "discard", "seat": seat, "position": position, "card": card}, refill_event]
    if not deck:
        state = replace(state, dead=state.dead + (card,), end=END_DECK)
        return state, events + [{"type": "dead_card", "card": card}, round_end_event(state)]
    state, opened = open_window(state, seat, card)
    return state, events + opened


def doppio_refusal(state: DoppioState, seat: Seat) -> str | None:
    """Why ``seat`` may not declare Doppio now (its hand value is above the limit), or None.

    A held caught card does not count: only the six cards around the divider do.
    """
    value = hand_value(state.hands[seat])
    limit = state.rules.doppio_max_value
    return f"hand value {value} is above {limit}" if value > limit else None


def apply_doppio(state: DoppioState, seat: Seat) -> tuple[DoppioState, list[Event]]:
    """Declare Doppio; the round ends.

    Success when the declarer's hand value is strictly lower than every other seat's; a tie or
    a lower value elsewhere is a failure. Raises IllegalAction when the hand value is above
    ``doppio_max_value`` (10).
    """
    reason = doppio_refusal(state, seat)
    if reason is not None:
        raise IllegalAction(reason)
    values = [hand_value(hand) for hand in state.hands]
    success = all(values[seat] < value for other, value in enumerate(values) if other != seat)
    call = DoppioCall(seat=seat, hand_value=values[seat], success=success)
    state = replace(state, doppio=call, end=END_DOPPIO)
    event: Event = {"type": "doppio", "seat": seat, "hand_value": values[seat], "success": success}
    return state, [event, round_end_event(state)]
