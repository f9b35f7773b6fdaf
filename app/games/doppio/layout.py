"""A seat's six cards around its divider: positions, pairs, hand value, discard and refill.

A hand is a tuple of six cards in scenario order ``(L3, L2, L1, R1, R2, R3)``: position 1 is
next to the divider, position 3 is the outer edge of its side. Pairs are L1-R1, L2-R2, L3-R3.
"""

from __future__ import annotations

from app.games.doppio.cards import HAND_SIZE, Card, face_value

Hand = tuple[Card, ...]

#: the six positions in scenario order (a deal lists a seat's cards in this order)
POSITIONS: tuple[str, ...] = ("L3", "L2", "L1", "R1", "R2", "R3")
#: the symmetric pairs, inner pair first
PAIRS: tuple[tuple[str, str], ...] = (("L1", "R1"), ("L2", "R2"), ("L3", "R3"))
#: the outer position of each side: where the refill goes
OUTER: dict[str, str] = {"L": "L3", "R": "R3"}


def index_of(position: str) -> int:
    """The index of ``position`` in a hand tuple. Raises ValueError for an unknown position."""
    try:
        return POSITIONS.index(position)
    except ValueError:
        raise ValueError(f"unknown position {position!r}") from None


def card_at(hand: Hand, position: str) -> Card:
    """The card at ``position`` of ``hand``."""
    return hand[index_of(position)]


def pair_value(first: Card, second: Card) -> int:
    """The value of one symmetric pair.

    Two equal numbers, or two bonus cards, make a pair worth 0; otherwise each card counts its
    face value (a bonus card -2).
    """
    if first == second:
        return 0
    return face_value(first) + face_value(second)


def hand_value(hand: Hand) -> int:
    """The hand value: the sum of the three pairs' values (lower is better).

    Raises ValueError unless the hand holds six cards.
    """
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a hand holds {HAND_SIZE} cards, not {len(hand)}")
    return sum(pair_value(card_at(hand, left), card_at(hand, right)) for left, right in PAIRS)


def _side(hand: Hand, side: str) -> list[Card]:
    """The cards of one side from the divider outwards: [X1, X2, X3]."""
    return [card_at(hand, f"{side}{number}") for number in (1, 2, 3)]


def _join(left: list[Card], right: list[Card]) -> Hand:
    """A hand from its two sides, each listed from the divider outwards."""
    return (left[2], left[1], left[0], right[0], right[1], right[2])


def discard(hand: Hand, position: str, refill: Card) -> tuple[Hand, Card]:
    """Take the card at ``position`` out; return the new hand and the discarded card.

    The cards further out on that side move one step toward the divider and ``refill`` fills
    the outer position of that side (L3 or R3). Discarding L1 from ``(a, b, c | d, e, f)``
    gives ``(refill, a, b | d, e, f)``; discarding L3 gives ``(refill, b, c | d, e, f)``.

    Raises ValueError for an unknown position.
    """
    index_of(position)
    side, number = position[0], int(position[1])
    cards = {"L": _side(hand, "L"), "R": _side(hand, "R")}
    discarded = cards[side].pop(number - 1)
    cards[side].append(refill)
    return _join(cards["L"], cards["R"]), discarded
