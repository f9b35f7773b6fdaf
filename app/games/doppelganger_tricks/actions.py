"""Applying actions: ``bid``, ``play``, ``take_bonus`` and ``decline_bonus``.

Each ``apply_*`` takes the state and a well-formed-looking action dict, and returns the new
state and the public events, or raises IllegalAction with a reason a player can read. States
are immutable, so the state passed in is never changed.

Public events (plain dicts):
- ``{"type": "bid", "seat": s}`` (the value stays secret), then once all are in
  ``{"type": "bids_revealed", "bids": [...]}``;
- ``{"type": "play", "seat": s, "card": "N7", "suit": "G"}`` (``suit`` only on a navy lead);
- ``{"type": "trick", "index": i, "winner": s | None, "annihilated": [...], "next_leader": s}``;
- ``{"type": "bonus_taken", "seat": s, "value": "star" | "eye"}``;
- ``{"type": "bonus_declined", "seat": s}``;
- ``{"type": "round_over"}`` once the round has ended.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from app.games.base import Event, IllegalAction, Seat, quoted
from app.games.doppelganger_tricks.cards import Card, Suit, parse_card, parse_suit
from app.games.doppelganger_tricks.flow import BIDS, MAX_BID, bonus_options, phase
from app.games.doppelganger_tricks.state import Bonus, Phase, Play, RoundState
from app.games.doppelganger_tricks.tricks import lead_suit, playable_cards, resolve_trick

ALLOWED_KEYS: dict[str, frozenset[str]] = {
    "bid": frozenset({"seat", "type", "value"}),
    "play": frozenset({"seat", "type", "card", "suit"}),
    "take_bonus": frozenset({"seat", "type", "value"}),
    "decline_bonus": frozenset({"seat", "type"}),
}


def check_shape(state: RoundState, action: Mapping[str, Any]) -> tuple[Seat, str]:
    """Return the action's seat and type; raise IllegalAction for a malformed action."""
    if not isinstance(action, Mapping):
        raise IllegalAction("an action is a JSON object")
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction(f"no such seat {quoted(seat)}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ALLOWED_KEYS:
        raise IllegalAction(f"unknown action type {quoted(kind)}")
    extra = sorted(str(key) for key in action if key not in ALLOWED_KEYS[kind])
    if extra:
        raise IllegalAction(f"unexpected field {quoted(extra[0])} in a {kind} action")
    return seat, kind


def apply_bid(state: RoundState, seat: Seat, action: Mapping[str, Any]) -> tuple[RoundState, list[Event]]:
    """A secret bid of 0..12 tricks, once per seat, before any card is played."""
    if phase(state) is not Phase.BIDDING:
        raise IllegalAction("bidding is over")
    if state.bids[seat] is not None:
        raise IllegalAction("you have already bid")
    value = action.get("value")
    if type(value) is not int or value not in BIDS:
        raise IllegalAction(f"a bid is a whole number from 0 to {MAX_BID}")
    bids = state.bids[:seat] + (value,) + state.bids[seat + 1 :]
    new = dataclasses.replace(state, bids=bids)
    events: list[Event] = [{"type": "bid", "seat": seat}]
    if new.bids_complete:
        events.append({"type": "bids_revealed", "bids": list(bids)})
    return new, events


def _card_to_play(state: RoundState, seat: Seat, action: Mapping[str, Any]) -> Play:
    """The play an action describes, checked against turn, hand, navy lead and following."""
    current = phase(state)
    if current is Phase.BIDDING:
        raise IllegalAction("bids are not all in yet")
    if current is Phase.OVER or state.cards_left == 0:
        raise IllegalAction("the round is over: every card has been played")
    if seat != state.next_seat:
        raise IllegalAction("not your turn")
    try:
        card = parse_card(action.get("card"))
    except ValueError as err:
        raise IllegalAction(str(err)) from None
    if card not in state.hands[seat]:
        raise IllegalAction(f"you do not hold {card}")
    named = _named_suit(state, card, action)
    if state.trick and card not in playable_cards(state.hands[seat], lead_suit(state.trick)):
        raise IllegalAction(f"must follow suit {lead_suit(state.trick).label}")
    return Play(seat, card, named)


def _named_suit(state: RoundState, card: Card, action: Mapping[str, Any]) -> Suit | None:
    """The suit a navy lead names; None for any other play. Raises IllegalAction."""
    leading_navy = not state.trick and card.is_navy
    if not leading_navy:
        if "suit" in action:
            raise IllegalAction("a suit is named only when leading with a navy card")
        return None
    if "suit" not in action:
        raise IllegalAction("a navy lead must name its suit: P, G or Y")
    try:
        return parse_suit(action["suit"])
    except ValueError as err:
        raise IllegalAction(str(err)) from None


def apply_play(state: RoundState, seat: Seat, action: Mapping[str, Any]) -> tuple[RoundState, list[Event]]:
    """Play a card to the trick; a complete trick is resolved at once.

    Opens the seat's bonus window and closes any other seat's.
    """
    play = _card_to_play(state, seat, action)
    hand = tuple(card for card in state.hands[seat] if card != play.card)
    hands = state.hands[:seat] + (hand,) + state.hands[seat + 1 :]
    event: Event = {"type": "play", "seat": seat, "card": str(play.card)}
    if play.named_suit is not None:
        event["suit"] = play.named_suit.value
    new = dataclasses.replace(state, hands=hands, trick=state.trick + (play,), bonus_window=seat)
    events = [event]
    if len(new.trick) == new.players:
        new, trick_event = _close_trick(new)
        events.append(trick_event)
    return new, events + _round_over_event(new)


def _close_trick(state: RoundState) -> tuple[RoundState, Event]:
    """Resolve the complete trick in progress; its winner (or, void, its leader) leads next."""
    trick = resolve_trick(state.trick)
    leader = trick.winner if trick.winner is not None else state.leader
    new = dataclasses.replace(state, trick=(), tricks=state.tricks + (trick,), leader=leader)
    event: Event = {
        "type": "trick",
        "index": len(state.tricks),
        "winner": trick.winner,
        "annihilated": [str(card) for card in trick.annihilated],
        "next_leader": leader,
    }
    return new, event


def _round_over_event(state: RoundState) -> list[Event]:
    return [{"type": "round_over"}] if phase(state) is Phase.OVER else []


def apply_take_bonus(state: RoundState, seat: Seat, action: Mapping[str, Any]) -> tuple[RoundState, list[Event]]:
    """Take a free bonus card right after one's own play, holding no navy card (ruling)."""
    try:
        bonus = Bonus(action.get("value"))
    except ValueError:
        raise IllegalAction("the bonus card is star or eye") from None
    _check_bonus_window(state, seat)
    holder = state.bonus_holder(bonus)
    if holder is not None:
        raise IllegalAction(f"the {bonus.value} is already taken by seat {holder}")
    if bonus is Bonus.STAR:
        new = dataclasses.replace(state, bonus_window=None, star=seat)
    else:
        new = dataclasses.replace(state, bonus_window=None, eye=seat)
    events: list[Event] = [{"type": "bonus_taken", "seat": seat, "value": bonus.value}]
    return new, events + _round_over_event(new)


def _check_bonus_window(state: RoundState, seat: Seat) -> None:
    """Raise IllegalAction unless ``seat`` is right after its own play and may take a card."""
    if phase(state) is Phase.OVER:
        raise IllegalAction("the round is over")
    if state.bonus_window != seat:
        raise IllegalAction("a bonus card may be taken only right after your own play")
    if state.holds_navy(seat):
        raise IllegalAction("you still hold a navy card")
    held = state.bonus_of(seat)
    if held is not None:
        raise IllegalAction(f"you already hold the {held.value}")


def apply_decline_bonus(state: RoundState, seat: Seat, action: Mapping[str, Any]) -> tuple[RoundState, list[Event]]:
    """Say "no bonus": close one's own open bonus chance (a live table's explicit answer; a
    scenario file never needs it, the next action or the file's end closes the chance)."""
    if not bonus_options(state, seat):
        raise IllegalAction("no bonus card to decline: only right after your own play, "
                            "holding no navy card")
    new = dataclasses.replace(state, bonus_window=None)
    return new, [{"type": "bonus_declined", "seat": seat}] + _round_over_event(new)


HANDLERS = {
    "bid": apply_bid,
    "play": apply_play,
    "take_bonus": apply_take_bonus,
    "decline_bonus": apply_decline_bonus,
}


def apply_action(state: RoundState, action: Mapping[str, Any]) -> tuple[RoundState, list[Event]]:
    """Apply one action; raise IllegalAction (state unchanged) for a malformed or forbidden one."""
    seat, kind = check_shape(state, action)
    return HANDLERS[kind](state, seat, action)

