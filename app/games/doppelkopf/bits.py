"""Hands as bit sets: the rules core's fast representation of a multiset of cards.

Every distinct card has a small index (its place in the sorted card names, ``INDEX``); a hand
is an ``int`` holding, in the two bits at ``2 * index``, how many copies (0, 1 or 2) of that
card it holds. So adding or removing a card is adding or subtracting ``UNIT[card]``, "holds a
card of this suit class" is one ``&`` with a mask of the class (``CardOrder.masks``), and the
distinct cards of a hand come out in sorted name order (the order of a dealt hand) through
four small tables. The public state keeps its tuples of card names; these masks shadow them.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.games.doppelkopf.cards import ALL_CARDS

NAMES: tuple[str, ...] = tuple(sorted(ALL_CARDS))
INDEX: dict[str, int] = {card: index for index, card in enumerate(NAMES)}
#: the value of one copy of a card in a hand mask
UNIT: dict[str, int] = {card: 1 << (2 * index) for card, index in INDEX.items()}
#: both copies' bits of a card (``mask & BOTH[card]`` is nonzero iff the hand holds it)
BOTH: dict[str, int] = {card: 3 * unit for card, unit in UNIT.items()}
_LOW = sum(UNIT.values())  # the low bit of every card's pair
_CHUNK = 6  # cards per lookup table
_TABLES: tuple[dict[int, tuple[str, ...]], ...] = tuple(
    {sum(1 << (2 * j) for j in range(_CHUNK) if subset >> j & 1):
     tuple(NAMES[start + j] for j in range(_CHUNK) if subset >> j & 1)
     for subset in range(1 << _CHUNK)}
    for start in range(0, len(NAMES), _CHUNK)
)
_T0, _T1, _T2, _T3 = _TABLES
_CHUNK_BITS = (1 << (2 * _CHUNK)) - 1


def mask_of(cards: Iterable[str]) -> int:
    """The mask of a multiset of card names (at most two copies of each)."""
    return sum(UNIT[card] for card in cards)


def mask_of_set(cards: Iterable[str]) -> int:
    """Both bits of every card in ``cards``: a mask to ``&`` a hand with (a suit class)."""
    return sum(BOTH[card] for card in set(cards))


def count(mask: int, card: str) -> int:
    """How many copies of ``card`` the mask holds (0, 1 or 2)."""
    return (mask >> (2 * INDEX[card])) & 3


def distinct(mask: int) -> tuple[str, ...]:
    """The distinct card names held in ``mask``, in sorted name order."""
    d = (mask | (mask >> 1)) & _LOW
    return (_T0[d & _CHUNK_BITS] + _T1[(d >> 12) & _CHUNK_BITS]
            + _T2[(d >> 24) & _CHUNK_BITS] + _T3[d >> 36])



def cards_of(mask: int) -> list[str]:
    """Every card in ``mask``, each copy once, in sorted name order."""
    return [name for name in distinct(mask) for _ in range(count(mask, name))]
