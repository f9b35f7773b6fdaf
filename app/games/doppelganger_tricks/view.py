"""What a seat may see (``view``), and the omniscient dump for replays (``state_json``).

A seat sees its own hand and bid, and the table: who has bid (the bids themselves only once
all are in), the trick in progress, the last completed trick, every annihilated card, tricks
won per seat, void tricks, the bonus holders, the seat that may take a bonus card now
(``bonus_pending``: the table waits for it), hand sizes, whose move it is, and its own actions
as a live table offers them (``flow.live_actions``). Never another seat's hand, nor another seat's bid before all bids are in.
"""

from __future__ import annotations

from app.games.base import JSON, Seat
from app.games.doppelganger_tricks.cards import names
from app.games.doppelganger_tricks.flow import bonus_pending, live_actions, phase, to_act
from app.games.doppelganger_tricks.scoring import tricks_won
from app.games.doppelganger_tricks.state import Play, RoundState, Trick
from app.games.doppelganger_tricks.tricks import lead_suit


def play_json(play: Play) -> JSON:
    """``{"seat": s, "card": "N7"}``, plus ``"suit"`` on a navy lead."""
    entry: JSON = {"seat": play.seat, "card": str(play.card)}
    if play.named_suit is not None:
        entry["suit"] = play.named_suit.value
    return entry


def trick_json(trick: Trick) -> JSON:
    """A completed trick: plays, lead suit, annihilated cards (play order), winner or None."""
    return {
        "leader": trick.leader,
        "lead_suit": trick.lead_suit.value,
        "plays": [play_json(play) for play in trick.plays],
        "annihilated": names(list(trick.annihilated)),
        "winner": trick.winner,
    }


def table_json(state: RoundState) -> JSON:
    """The public part of the state, the same for every seat and spectators."""
    return {
        "players": state.players,
        "dealer": state.dealer,
        "first_seat": state.first_seat,
        "phase": phase(state).value,
        "to_act": list(to_act(state)),
        "has_bid": [bid is not None for bid in state.bids],
        "bids": list(state.bids) if state.bids_complete else None,
        "hand_sizes": [len(hand) for hand in state.hands],
        "leader": state.leader,
        "lead_suit": lead_suit(state.trick).value if state.trick else None,
        "trick": [play_json(play) for play in state.trick],
        "last_trick": trick_json(state.tricks[-1]) if state.tricks else None,
        "tricks_played": len(state.tricks),
        "tricks_won": tricks_won(state),
        "void_tricks": sum(1 for trick in state.tricks if trick.winner is None),
        "annihilated": [
            {"trick": index, "cards": names(list(trick.annihilated))}
            for index, trick in enumerate(state.tricks)
            if trick.annihilated
        ],
        "bonus": {"star": state.star, "eye": state.eye},
        "bonus_window": state.bonus_window,
        "bonus_pending": bonus_pending(state),
    }


def view(state: RoundState, seat: Seat | None) -> JSON:
    """What ``seat`` may see; ``None`` is a spectator (no hand, no bid, no actions).

    Raises ValueError for a seat that is not at the table.
    """
    result = table_json(state)
    if seat is None:
        result.update(seat=None, hand=[], own_bid=None, legal_actions=[], legal=[])
        return result
    if not 0 <= seat < state.players:
        raise ValueError(f"no such seat {seat}")
    offered = live_actions(state, seat)
    result.update(
        seat=seat,
        hand=names(list(state.hands[seat])),
        own_bid=state.bids[seat],
        legal_actions=offered,
        # the same list under the protocol's common name, so that the room does not fill it
        # in from the rules' legal_actions (which would offer a play while the table waits for
        # a bonus decision)
        legal=offered,
    )
    return result


def state_json(state: RoundState) -> JSON:
    """The whole state, hands and secret bids included: for replays and debugging only."""
    result = table_json(state)
    result.update(
        hands=[names(list(hand)) for hand in state.hands],
        bids=list(state.bids),
        tricks=[trick_json(trick) for trick in state.tricks],
    )
    return result
