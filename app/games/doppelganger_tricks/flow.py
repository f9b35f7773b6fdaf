"""Whose move it is, what each seat may do, and the bonus-card window.

The bonus window (ruling: a bonus card is taken "right after its own play, on that seat's own
turn"): after a seat plays, that seat alone may take a free bonus card, if it then holds no navy
card and no bonus card yet. The window stays open until the next card is played by anyone —
also when the play completed a trick, so the trick's winner leading the next trick closes it —
or until the seat says "no bonus" (``decline_bonus``). In a scenario file the next action or
the end of the file closes it (spec/scenario-format.md): a round whose every card is played is
finished (``cards_done``). A live table waits after the round's last card for that seat, which
either takes a bonus card or declines; the round is over after that (at once, when the last
seat has nothing it could take)."""

from __future__ import annotations

from app.games.base import Action, Seat
from app.games.doppelganger_tricks.cards import LEAD_SUITS
from app.games.doppelganger_tricks.state import Bonus, Phase, RoundState
from app.games.doppelganger_tricks.tricks import lead_suit, playable_cards

MAX_BID = 12
BIDS = range(0, MAX_BID + 1)


def bonus_options(state: RoundState, seat: Seat) -> list[Bonus]:
    """The bonus cards ``seat`` may take now (empty outside its window)."""
    if state.bonus_window != seat or state.holds_navy(seat) or state.bonus_of(seat):
        return []
    return [bonus for bonus in Bonus if state.bonus_holder(bonus) is None]


def awaiting_final_bonus(state: RoundState) -> bool:
    """Whether every card is played but the last seat may still take a bonus card."""
    window = state.bonus_window
    return state.cards_left == 0 and window is not None and bool(bonus_options(state, window))


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
    """Bidding: the seats that have not bid. Playing: the seat to play, or at the round's end
    the seat whose bonus window the round waits for. Over: nobody.

    A seat whose bonus window is open mid-round has legal actions but is not listed: the game
    does not wait for it.
    """
    current = phase(state)
    if current is Phase.BIDDING:
        return tuple(seat for seat, bid in enumerate(state.bids) if bid is None)
    if current is Phase.OVER:
        return ()
    if state.cards_left == 0:
        return (state.bonus_window,) if state.bonus_window is not None else ()
    return (state.next_seat,)


def legal_plays(state: RoundState, seat: Seat) -> list[Action]:
    """The ``play`` actions of ``seat``: empty unless it is its turn to play."""
    if phase(state) is not Phase.PLAYING or state.cards_left == 0 or seat != state.next_seat:
        return []
    suit = lead_suit(state.trick) if state.trick else None
    actions: list[Action] = []
    for card in playable_cards(state.hands[seat], suit):
        if suit is None and card.is_navy:
            actions.extend(
                {"seat": seat, "type": "play", "card": str(card), "suit": named.value}
                for named in LEAD_SUITS
            )
        else:
            actions.append({"seat": seat, "type": "play", "card": str(card)})
    return actions


def legal_actions(state: RoundState, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now: bids, plays, bonus cards, or declining the last one."""
    current = phase(state)
    if current is Phase.BIDDING:
        if state.bids[seat] is not None:
            return []
        return [{"seat": seat, "type": "bid", "value": value} for value in BIDS]
    if current is Phase.OVER:
        return []
    actions = legal_plays(state, seat)
    options = bonus_options(state, seat)
    actions.extend({"seat": seat, "type": "take_bonus", "value": bonus.value} for bonus in options)
    if options:
        actions.append({"seat": seat, "type": "decline_bonus"})
    return actions
