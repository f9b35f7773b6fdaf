"""The catch window: who may catch a discard, and who gets it.

After a discard that does not end the round, every other seat that holds no caught card may
catch the card or pass, each once. The window closes

1. when every eligible seat has answered (inside ``answer``),
2. when the seat whose turn it is discards or declares Doppio (the scenario format's "the next
   non-catch action closes the window"; see ``actions.apply_action``), or
3. when the room calls :func:`close_catch_window` at the deadline (``catch_window_seconds``
   measured by the room's injected clock; the rules core has no clock).

On close, of the seats that caught, the one farthest clockwise from the discarder gets the card,
whatever the order of arrival, so network speed gives no advantage. Nobody caught: the card is
dead. Answers stay secret until the close; the close event names every seat that caught.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.games.base import Event, Seat
from app.games.doppio.cards import Card
from app.games.doppio.state import CatchWindow, DoppioState, replace_at


def clockwise_distance(start: Seat, seat: Seat, players: int) -> int:
    """How many steps clockwise from ``start`` to ``seat`` (1 for the next seat)."""
    return (seat - start) % players


def catch_priority(discarder: Seat, catchers: Sequence[Seat], players: int) -> Seat:
    """The catcher that gets the card: the one farthest clockwise from the discarder.

    Raises ValueError when ``catchers`` is empty.
    """
    if not catchers:
        raise ValueError("no catchers")
    return max(catchers, key=lambda seat: clockwise_distance(discarder, seat, players))


def eligible_seats(state: DoppioState, discarder: Seat) -> tuple[Seat, ...]:
    """The seats that may catch a card ``discarder`` discards: every other seat holding no
    caught card, clockwise from the discarder."""
    order = ((discarder + step) % state.players for step in range(1, state.players))
    return tuple(seat for seat in order if state.held[seat] is None)


def open_window(state: DoppioState, discarder: Seat, card: Card) -> tuple[DoppioState, list[Event]]:
    """Open the catch window for ``card``.

    Some seat is always eligible: the seat that discarded just before ``discarder`` used up
    any caught card it held at that discard, and it cannot catch its own discard (on the
    round's first discard nobody holds a card).
    """
    eligible = eligible_seats(state, discarder)
    window = CatchWindow(card=card, discarder=discarder, eligible=eligible)
    event: Event = {"type": "catch_window", "card": card, "discarder": discarder, "eligible": list(eligible)}
    return replace(state, window=window), [event]


def answer(state: DoppioState, seat: Seat, caught: bool) -> tuple[DoppioState, list[Event]]:
    """Record ``seat``'s catch (``caught``) or pass; close the window once every eligible
    seat has answered. The caller has checked that ``seat`` may answer."""
    window = state.window
    assert window is not None
    window = replace(window, answers=window.answers + ((seat, caught),))
    state = replace(state, window=window)
    events: list[Event] = [{"type": "catch_answered", "seat": seat}]
    if not window.waiting():
        state, closed = close_catch_window(state)
        events += closed
    return state, events


def close_catch_window(state: DoppioState) -> tuple[DoppioState, list[Event]]:
    """Close the open catch window: the priority catcher holds the card, or it is dead.

    Returns the state unchanged and no events when no window is open (the room may call this
    at a deadline after the window already closed early).
    """
    window = state.window
    if window is None:
        return state, []
    catchers = window.catchers()
    event: Event = {"type": "catch_window_closed", "card": window.card, "discarder": window.discarder,
                    "catchers": list(catchers), "caught_by": None}
    if not catchers:
        return replace(state, window=None, dead=state.dead + (window.card,)), [event]
    catcher = catch_priority(window.discarder, catchers, state.players)
    event["caught_by"] = catcher
    return replace(state, window=None, held=replace_at(state.held, catcher, window.card)), [event]
