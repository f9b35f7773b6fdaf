"""Cards and deck of Doppelganger Tricks (Doppelgänger-Stiche).

Four suits, ranks 1-10: pink ``P``, green ``G``, yellow ``Y`` and navy ``N``, the doppelganger
suit. A card's name is its suit letter then its rank: ``N7``, ``G10``. Four players use all 40
cards (10 each); three players remove the four 10s and use 36 (12 each).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

RANKS_FOUR_PLAYERS = range(1, 11)
RANKS_THREE_PLAYERS = range(1, 10)


class Suit(Enum):
    """A suit; the value is its letter in card names."""

    PINK = "P"
    GREEN = "G"
    YELLOW = "Y"
    NAVY = "N"

    @property
    def label(self) -> str:
        """The suit's English name in lower case, for messages: ``"pink"``."""
        return self.name.lower()


#: The suits a navy lead may name (a navy card always counts as one of these).
LEAD_SUITS: tuple[Suit, ...] = (Suit.PINK, Suit.GREEN, Suit.YELLOW)
SUIT_ORDER: dict[Suit, int] = {suit: index for index, suit in enumerate(Suit)}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a suit and a rank 1..10. ``str(card)`` is its name (``"N7"``)."""

    suit: Suit
    rank: int

    def __str__(self) -> str:
        return f"{self.suit.value}{self.rank}"

    @property
    def is_navy(self) -> bool:
        """Whether this is a doppelganger (navy) card."""
        return self.suit is Suit.NAVY


def parse_card(name: object) -> Card:
    """Parse a card name (``"P3"``, ``"N10"``) of the 40-card deck.

    Raises ValueError for anything else (``"P0"``, ``"p3"``, ``"P03"``, ``"X1"``, a non-string).
    """
    if not isinstance(name, str) or len(name) < 2:
        raise ValueError(f"unknown card {name!r}")
    try:
        suit = Suit(name[0])
    except ValueError:
        raise ValueError(f"unknown card {name!r}") from None
    digits = name[1:]
    if not digits.isdigit() or str(int(digits)) != digits or int(digits) not in RANKS_FOUR_PLAYERS:
        raise ValueError(f"unknown card {name!r}")
    return Card(suit, int(digits))


def parse_suit(letter: object) -> Suit:
    """Parse a suit a navy lead names: ``"P"``, ``"G"`` or ``"Y"``. Raises ValueError."""
    for suit in LEAD_SUITS:
        if letter == suit.value:
            return suit
    raise ValueError(f"a navy lead names P, G or Y, not {letter!r}")


def ranks(players: int) -> range:
    """The ranks in play: 1-10 for four players, 1-9 for three (the 10s are removed)."""
    return RANKS_THREE_PLAYERS if players == 3 else RANKS_FOUR_PLAYERS


def deck(players: int) -> tuple[Card, ...]:
    """The deck for ``players`` (3 or 4), sorted by suit then rank."""
    return tuple(Card(suit, rank) for suit in Suit for rank in ranks(players))


def hand_size(players: int) -> int:
    """Cards dealt to each seat: 12 with three players, 10 with four."""
    return len(deck(players)) // players


def sort_key(card: Card) -> tuple[int, int]:
    """Order for displaying a hand: pink, green, yellow, navy; then by rank."""
    return SUIT_ORDER[card.suit], card.rank


def names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """The names of some cards, in the given order."""
    return [str(card) for card in cards]
