"""Trick play (Stich — trick): following suit, annihilation and the winner of a trick.

A navy (doppelganger) card always counts as a card of the lead suit: when it leads, the lead
suit is the suit it names (P, G or Y); when it follows, it takes the lead suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.base import Seat
from app.games.doppelganger_tricks.cards import Card, Suit
from app.games.doppelganger_tricks.state import Play, Trick


def lead_suit(plays: Sequence[Play]) -> Suit:
    """The lead suit of a trick: the lead card's suit, or the suit a navy lead named.

    Raises ValueError for an empty trick or a navy lead without a named suit.
    """
    if not plays:
        raise ValueError("a trick without a lead has no lead suit")
    lead = plays[0]
    if not lead.card.is_navy:
        return lead.card.suit
    if lead.named_suit is None:
        raise ValueError("a navy lead must name its suit")
    return lead.named_suit


def counts_as_lead_suit(card: Card, suit: Suit) -> bool:
    """Whether ``card`` counts as a card of lead suit ``suit`` (its own suit, or navy)."""
    return card.is_navy or card.suit is suit


def playable_cards(hand: Sequence[Card], suit: Suit | None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick with lead suit ``suit`` (bedienen —
    follow suit).

    ``suit`` None means the seat leads: any card. Following suit (ruling): a seat that holds a
    non-navy card of the lead suit must play a card of the lead suit or a navy card; otherwise
    any card. A navy card may always be played, never must.
    """
    if suit is None or not any(card.suit is suit for card in hand):
        return list(hand)
    return [card for card in hand if counts_as_lead_suit(card, suit)]


def annihilated_plays(plays: Sequence[Play], suit: Suit) -> list[Play]:
    """The plays that annihilate, in the order they were played.

    A navy card (counting as the lead suit) and the real lead-suit card of the same rank both
    leave the trick; several pairs may go in one trick; cards of other suits never annihilate,
    and two navy cards never annihilate each other.

    Matching: per rank, the navy cards and the real lead-suit cards are paired in play order,
    the first navy card with the first real card. With one deck each rank exists once per suit,
    so at most one pair per rank can form and the pairing is unique; the play-order rule only
    says what would happen if a rank held more copies (unpaired cards then stay in the trick).
    """
    return [plays[index] for index in sorted(_annihilated_indices(plays, suit))]


def _annihilated_indices(plays: Sequence[Play], suit: Suit) -> set[int]:
    """Positions in ``plays`` of the annihilated cards (see annihilated_plays)."""
    navy: dict[int, list[int]] = {}
    real: dict[int, list[int]] = {}
    for index, play in enumerate(plays):
        if play.card.is_navy:
            navy.setdefault(play.card.rank, []).append(index)
        elif play.card.suit is suit:
            real.setdefault(play.card.rank, []).append(index)
    gone: set[int] = set()
    for rank, navy_indices in navy.items():
        for pair in zip(navy_indices, real.get(rank, []), strict=False):
            gone.update(pair)
    return gone


def trick_winner(remaining: Sequence[Play], suit: Suit) -> Seat | None:
    """The seat winning a trick from the plays that remain after annihilation.

    The highest remaining card of the lead suit (navy counts as the lead suit) wins, even when
    the lead card itself was annihilated. With no lead-suit card left, the highest remaining
    rank of any suit wins, ties going to the card played first. With no card left, nobody
    wins: None.
    """
    lead_cards = [play for play in remaining if counts_as_lead_suit(play.card, suit)]
    candidates = lead_cards or list(remaining)
    if not candidates:
        return None
    best = candidates[0]
    for play in candidates[1:]:
        if play.card.rank > best.card.rank:
            best = play
    return best.seat


def resolve_trick(plays: Sequence[Play]) -> Trick:
    """Resolve a complete trick: its lead suit, annihilated cards and winner (or None)."""
    suit = lead_suit(plays)
    gone = _annihilated_indices(plays, suit)
    remaining = [play for index, play in enumerate(plays) if index not in gone]
    return Trick(
        plays=tuple(plays),
        lead_suit=suit,
        annihilated=tuple(plays[index].card for index in sorted(gone)),
        winner=trick_winner(remaining, suit),
    )
