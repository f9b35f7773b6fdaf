"""The trick kernel of Doppelganger Tricks (Stich — trick): following suit, the cards a seat may
play, annihilation and the winner of a trick.

A navy (doppelganger) card always counts as a card of the lead suit: when it leads, the lead
suit is the suit it names (P, G or Y); when it follows, it takes the lead suit.

One home for these rules: the engine (actions.py, flow.py) and the bots' playouts
(app/bots/doppelganger_tricks.py) call them. The kernel works on card names (``"N7"``) over the
deck's precomputed suit letter and rank of every name (:data:`SUIT_OF`, :data:`RANK_OF`); a play
is ``(seat, card name, named suit letter or None)``. The functions on :class:`Card` and
:class:`Play` below (the engine's types) read the same kernel.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.base import Seat
from app.games.doppelganger_tricks.cards import LEAD_SUITS, Card, Suit, deck
from app.games.doppelganger_tricks.state import Play, Trick

NAVY = Suit.NAVY.value
#: the suit letters a navy lead may name, in the order a hand's options list them
LEAD_LETTERS: tuple[str, ...] = tuple(suit.value for suit in LEAD_SUITS)
#: card name → suit letter and rank, for the 40-card deck
SUIT_OF: dict[str, str] = {str(card): card.suit.value for card in deck(4)}
RANK_OF: dict[str, int] = {str(card): card.rank for card in deck(4)}

#: a play by name: (seat, card, the suit a navy lead names or None)
NamePlay = tuple[int, str, "str | None"]


# --- by card name (the kernel) -------------------------------------------------------------

def lead_of(plays: Sequence[NamePlay]) -> str:
    """The lead suit letter of a trick begun (the lead card's suit, or the suit a navy lead
    named)."""
    _, card, named = plays[0]
    suit = SUIT_OF[card]
    return named if suit == NAVY else suit  # type: ignore[return-value]


def playable(hand: Sequence[str], suit: str | None) -> list[str]:
    """The cards of ``hand`` that may be played to a trick with lead suit letter ``suit``
    (bedienen — follow suit), in the hand's order.

    ``suit`` None means the seat leads: any card. Following suit (ruling): a seat that holds a
    non-navy card of the lead suit must play a card of the lead suit or a navy card; otherwise
    any card. A navy card may always be played, never must.
    """
    if suit is None or not any(SUIT_OF[card] == suit for card in hand):
        return list(hand)
    return [card for card in hand if SUIT_OF[card] in (suit, NAVY)]


def options(hand: Sequence[str], plays: Sequence[NamePlay]) -> list[tuple[str, str | None]]:
    """Every ``(card, named suit)`` a seat holding ``hand`` may play to ``plays`` (the trick so
    far): a navy card that leads names P, G or Y (one option each); other plays name none."""
    suit = lead_of(plays) if plays else None
    out: list[tuple[str, str | None]] = []
    for card in playable(hand, suit):
        if suit is None and SUIT_OF[card] == NAVY:
            out.extend((card, named) for named in LEAD_LETTERS)
        else:
            out.append((card, None))
    return out


def annihilated(cards: Sequence[str], suit: str) -> list[int]:
    """The positions in ``cards`` (a trick's cards in play order) of the cards that annihilate,
    in play order.

    A navy card (counting as the lead suit) and the real lead-suit card of the same rank both
    leave the trick; several pairs may go in one trick; cards of other suits never annihilate,
    and two navy cards never annihilate each other.

    Matching: per rank, the navy cards and the real lead-suit cards are paired in play order,
    the first navy card with the first real card. With one deck each rank exists once per suit,
    so at most one pair per rank can form and the pairing is unique; the play-order rule only
    says what would happen if a rank held more copies (unpaired cards then stay in the trick).
    """
    navy: dict[int, list[int]] = {}
    real: dict[int, list[int]] = {}
    for index, card in enumerate(cards):
        card_suit = SUIT_OF[card]
        if card_suit == NAVY:
            navy.setdefault(RANK_OF[card], []).append(index)
        elif card_suit == suit:
            real.setdefault(RANK_OF[card], []).append(index)
    gone: set[int] = set()
    for rank, navy_indices in navy.items():
        for pair in zip(navy_indices, real.get(rank, []), strict=False):
            gone.update(pair)
    return sorted(gone)


def best_of(remaining: Sequence[NamePlay], suit: str) -> Seat | None:
    """The seat winning a trick from the plays that remain after annihilation.

    The highest remaining card of the lead suit (navy counts as the lead suit) wins, even when
    the lead card itself was annihilated. With no lead-suit card left, the highest remaining
    rank of any suit wins, ties going to the card played first. With no card left, nobody
    wins: None.
    """
    lead_cards = [play for play in remaining if SUIT_OF[play[1]] in (suit, NAVY)]
    candidates = lead_cards or list(remaining)
    if not candidates:
        return None
    best = candidates[0]
    for play in candidates[1:]:
        if RANK_OF[play[1]] > RANK_OF[best[1]]:
            best = play
    return best[0]


def winner(plays: Sequence[NamePlay]) -> Seat | None:
    """The seat that wins ``plays`` (a trick complete or not): annihilation, then
    :func:`best_of`."""
    suit = lead_of(plays)
    gone = set(annihilated([card for _, card, _ in plays], suit))
    return best_of([play for index, play in enumerate(plays) if index not in gone], suit)


# --- the engine's types --------------------------------------------------------------------

def named_plays(plays: Sequence[Play]) -> list[NamePlay]:
    """The engine's plays as the kernel's ``(seat, card name, named suit letter)``."""
    return [(play.seat, str(play.card), None if play.named_suit is None else play.named_suit.value)
            for play in plays]


def lead_suit(plays: Sequence[Play]) -> Suit:
    """The lead suit of a trick: the lead card's suit, or the suit a navy lead named.

    Raises ValueError for an empty trick or a navy lead without a named suit.
    """
    if not plays:
        raise ValueError("a trick without a lead has no lead suit")
    lead = plays[0]
    if lead.card.is_navy and lead.named_suit is None:
        raise ValueError("a navy lead must name its suit")
    return Suit(lead_of(named_plays(plays[:1])))


def playable_cards(hand: Sequence[Card], suit: Suit | None) -> list[Card]:
    """:func:`playable` for the engine's cards."""
    allowed = set(playable([str(card) for card in hand], None if suit is None else suit.value))
    return [card for card in hand if str(card) in allowed]


def annihilated_plays(plays: Sequence[Play], suit: Suit) -> list[Play]:
    """The plays that annihilate (:func:`annihilated`), in the order they were played."""
    return [plays[index] for index in annihilated([str(play.card) for play in plays], suit.value)]


def resolve_trick(plays: Sequence[Play]) -> Trick:
    """Resolve a complete trick: its lead suit, annihilated cards and winner (or None)."""
    suit = lead_suit(plays)
    named = named_plays(plays)
    gone = annihilated([card for _, card, _ in named], suit.value)
    return Trick(
        plays=tuple(plays),
        lead_suit=suit,
        annihilated=tuple(plays[index].card for index in gone),
        winner=best_of([play for index, play in enumerate(named) if index not in gone], suit.value),
    )
