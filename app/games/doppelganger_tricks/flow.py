"""Whose move it is, what each seat may do, and the bonus-card window.

The bonus window (ruling: a bonus card is taken "right after its own play, on that seat's own
turn"): after a seat plays, that seat alone may take a free bonus card, if it then holds no navy
card and no bonus card yet. The window stays open until the next card is played by anyone —
also when the play completed a trick, so the trick's winner leading the next trick closes it —
or until the seat says "no bonus" (``decline_bonus``). In a scenario file the next action or
the end of the file closes it (spec/scenario-format.md): a round whose every card is played is
finished (``cards_done``).

A live table (ruling: "the seat that may take one keeps the turn until it takes one or says
'no bonus'") waits for that seat whenever it could take a bonus card: ``bonus_pending`` names
it, ``to_act`` is that seat alone, ``live_actions`` offer it only ``take_bonus`` and
``decline_bonus`` and nobody else anything, and ``live_refusal`` refuses every other action
there. ``legal_actions`` stays the file's truth (the next play also closes the chance). After the
round's last card the round is over once that seat decided (at once, when the last seat has
nothing it could take)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action, Seat
from app.games.doppelganger_tricks.state import Bonus, Phase, RoundState
from app.games.doppelganger_tricks.tricks import named_plays, options

MAX_BID = 12
BIDS = range(0, MAX_BID + 1)


def bonus_options(state: RoundState, seat: Seat) -> list[Bonus]:
    """The bonus cards ``seat`` may take now (empty outside its window)."""
    if state.bonus_window != seat or state.holds_navy(seat) or state.bonus_of(seat):
        return []
    return [bonus for bonus in Bonus if state.bonus_holder(bonus) is None]


def bonus_pending(state: RoundState) -> Seat | None:
    """The seat that may take a bonus card now (its chance is open and a card is free), for
    which a live table waits; None when nobody may."""
    window = state.bonus_window
    if window is None or not state.bids_complete or not bonus_options(state, window):
        return None
    return window


def awaiting_final_bonus(state: RoundState) -> bool:
    """Whether every card is played but the last seat may still take a bonus card."""
    return state.cards_left == 0 and bonus_pending(state) is not None


def cards_done(state: RoundState) -> bool:
    """Whether every bid is in and every card is played (a bonus card may still be pending)."""
    return state.bids_complete and state.cards_left == 0


def phase(state: RoundState) -> Phase:
    """Bidding until every bid is in; over once every card is played and no bonus waits."""
    if not state.bids_complete:
        return Phase.BIDDING
    if state.cards_left == 0 and not awaiting_final_bonus(state):
        return Phase.OVER
    return Phase.PLAYING


def to_act(state: RoundState) -> tuple[Seat, ...]:
    """Bidding: the seats that have not bid. Playing: the seat that may take a bonus card
    (``bonus_pending``: a live table waits for it, mid-round as after the last card), else the
    seat to play. Over: nobody.
    """
    current = phase(state)
    if current is Phase.BIDDING:
        return tuple(seat for seat, bid in enumerate(state.bids) if bid is None)
    if current is Phase.OVER:
        return ()
    pending = bonus_pending(state)
    if pending is not None:
        return (pending,)
    return (state.next_seat,) if state.cards_left else ()


def legal_plays(state: RoundState, seat: Seat) -> list[Action]:
    """The ``play`` actions of ``seat``: empty unless it is its turn to play."""
    if phase(state) is not Phase.PLAYING or state.cards_left == 0 or seat != state.next_seat:
        return []
    hand = [str(card) for card in state.hands[seat]]
    actions: list[Action] = []
    for card, named in options(hand, named_plays(state.trick)):
        action: Action = {"seat": seat, "type": "play", "card": card}
        if named is not None:
            action["suit"] = named
        actions.append(action)
    return actions


def legal_actions(state: RoundState, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now by the rules (a scenario file's truth): bids; a
    bonus card or "no bonus" while its chance is open (listed first); plays."""
    current = phase(state)
    if current is Phase.BIDDING:
        if state.bids[seat] is not None:
            return []
        return [{"seat": seat, "type": "bid", "value": value} for value in BIDS]
    if current is Phase.OVER:
        return []
    options = bonus_options(state, seat)
    actions: list[Action] = [{"seat": seat, "type": "take_bonus", "value": bonus.value}
                             for bonus in options]
    if options:
        actions.append({"seat": seat, "type": "decline_bonus"})
    return actions + legal_plays(state, seat)


def live_actions(state: RoundState, seat: Seat) -> list[Action]:
    """What a live table offers ``seat``: while a seat may take a bonus card, that seat only
    its bonus choices and "no bonus", everybody else nothing; otherwise ``legal_actions``."""
    pending = bonus_pending(state)
    if pending is None:
        return legal_actions(state, seat)
    if seat != pending:
        return []
    return [a for a in legal_actions(state, seat) if a["type"] in ("take_bonus", "decline_bonus")]


def live_refusal(state: RoundState, action: Mapping[str, Any]) -> str | None:
    """Why a live table refuses ``action`` although the rules (a file) would accept it: while a
    seat may take a bonus card it keeps the turn (ruling). None when the table takes it."""
    pending = bonus_pending(state)
    if pending is None or action.get("type") in ("take_bonus", "decline_bonus") and action.get("seat") == pending:
        return None
    if action.get("seat") == pending:
        return "take a bonus card or say no bonus first"
    return f"wait: seat {pending} may still take a bonus card"
