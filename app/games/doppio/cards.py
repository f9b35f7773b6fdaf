"""Doppio cards and the 48-card deck.

A card is its scenario name (``str``): the number as text, ``"3"`` to ``"13"``, or ``"B"`` for a
bonus card. The deck holds the numbers 3 to 13 four times each and four bonus cards: 48 cards.
"""

from __future__ import annotations

from collections.abc import Sequence

Card = str

#: the bonus card's name
BONUS: Card = "B"
#: every card name, in deck order: "3".."13", then "B"
CARD_NAMES: tuple[Card, ...] = tuple(str(number) for number in range(3, 14)) + (BONUS,)
#: copies of each card name in the deck
COPIES = 4
#: the value of an unpaired bonus card
BONUS_VALUE = -2
#: cards each seat holds: three each side of its divider
HAND_SIZE = 6


def full_deck() -> tuple[Card, ...]:
    """The 48 cards, sorted by name in deck order (four copies of each)."""
    return tuple(name for name in CARD_NAMES for _ in range(COPIES))


def is_card(name: object) -> bool:
    """Whether ``name`` is a Doppio card name."""
    return isinstance(name, str) and name in CARD_NAMES


def face_value(card: Card) -> int:
    """The value of ``card`` when unpaired: its number, or -2 for a bonus card.

    Raises ValueError for a name that is not a Doppio card.
    """
    if card == BONUS:
        return BONUS_VALUE
    if not is_card(card):
        raise ValueError(f"unknown card {card!r}")
    return int(card)


def deck_size_after_deal(players: int) -> int:
    """Cards left in the draw pile after dealing six to each of ``players`` seats."""
    return len(full_deck()) - HAND_SIZE * players


def count_cards(cards: Sequence[Card]) -> dict[Card, int]:
    """How often each card name occurs in ``cards``."""
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts
