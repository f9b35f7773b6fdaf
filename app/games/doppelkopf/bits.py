"""Hands as bit sets: the rules core's fast representation of a multiset of cards.

Every distinct card has a small index (its place in the sorted card names, ``INDEX``); a hand
is an ``int`` holding, in the two bits at ``2 * index``, how many copies (0, 1 or 2) of that
card it holds (a count mask). So adding or removing a card is adding or subtracting
``UNIT[card]``, and the cards of a hand come out in sorted name order (the order of a dealt
hand) through a few small tables (``distinct``, ``expand``).

The state keeps each hand as two card sets of one bit per distinct card (``BIT[card]``, 24
bits: a small int, whose operations cost a third of a count mask's): ``held``, the cards held
at least once, and ``pairs``, the cards held twice (a subset of ``held``). Playing a card
clears its bit in ``pairs`` if set, else in ``held``; the cards a seat may play come out of
``held`` through three 256-entry tables. ``counts`` joins the two sets into a count mask.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.games.doppelkopf.cards import ALL_CARDS

NAMES: tuple[str, ...] = tuple(sorted(ALL_CARDS))
INDEX: dict[str, int] = {card: index for index, card in enumerate(NAMES)}
#: the value of one copy of a card in a hand mask
UNIT: dict[str, int] = {card: 1 << (2 * index) for card, index in INDEX.items()}
LOW = sum(UNIT.values())  # the low bit of every card's pair

#: one bit per distinct card (its index): the card sets ``held`` and ``pairs`` of a hand
BIT: dict[str, int] = {card: 1 << index for card, index in INDEX.items()}
#: ``_SPREAD[part][byte]``: the low bits of a count mask for the eight cards of that byte of
#: a card set (``counts``)
_SPREAD = tuple(
    tuple(sum(1 << (2 * (8 * part + j)) for j in range(8) if byte >> j & 1) for byte in range(256))
    for part in range(3))
_S0, _S1, _S2 = _SPREAD

CHUNK = 6  # cards per lookup table of ``distinct``
CHUNK_BITS = (1 << (2 * CHUNK)) - 1
#: ``distinct``'s tables: for each run of CHUNK cards, the low bits held → their names
TABLES: tuple[dict[int, tuple[str, ...]], ...] = tuple(
    {sum(1 << (2 * j) for j in range(CHUNK) if subset >> j & 1):
     tuple(NAMES[start + j] for j in range(CHUNK) if subset >> j & 1)
     for subset in range(1 << CHUNK)}
    for start in range(0, len(NAMES), CHUNK)
)
_T0, _T1, _T2, _T3 = TABLES
_QUAD = 4  # cards per table of ``expand`` (8 bits)
_EXPAND: tuple[dict[int, tuple[str, ...]], ...] = tuple(
    {value: tuple(NAMES[start + j] for j in range(_QUAD) for _ in range((value >> (2 * j)) & 3))
     for value in range(1 << (2 * _QUAD)) if all((value >> (2 * j)) & 3 != 3 for j in range(_QUAD))}
    for start in range(0, len(NAMES), _QUAD)
)
_E0, _E1, _E2, _E3, _E4, _E5 = _EXPAND


def mask_of(cards: Iterable[str]) -> int:
    """The mask of a multiset of card names (at most two copies of each)."""
    return sum(map(UNIT.__getitem__, cards))


def count(mask: int, card: str) -> int:
    """How many copies of ``card`` the mask holds (0, 1 or 2)."""
    return (mask >> (2 * INDEX[card])) & 3


def distinct(mask: int) -> tuple[str, ...]:
    """The distinct card names held in ``mask``, in sorted name order."""
    d = (mask | (mask >> 1)) & LOW
    return (_T0[d & CHUNK_BITS] + _T1[(d >> 12) & CHUNK_BITS]
            + _T2[(d >> 24) & CHUNK_BITS] + _T3[d >> 36])


def expand(mask: int) -> tuple[str, ...]:
    """Every card in ``mask``, each copy once, in sorted name order (as :func:`cards_of`)."""
    return (_E0[mask & 255] + _E1[(mask >> 8) & 255] + _E2[(mask >> 16) & 255]
            + _E3[(mask >> 24) & 255] + _E4[(mask >> 32) & 255] + _E5[mask >> 40])


def cards_of(mask: int) -> list[str]:
    """Every card in ``mask``, each copy once, in sorted name order."""
    return [name for name in distinct(mask) for _ in range(count(mask, name))]


def sets_of(cards: Iterable[str]) -> tuple[int, int]:
    """The card sets ``(held, pairs)`` of a multiset of card names (at most two of each)."""
    held = pairs = 0
    for card in cards:
        bit = BIT[card]
        if held & bit:
            pairs |= bit
        else:
            held |= bit
    return held, pairs


def counts(held: int, pairs: int) -> int:
    """The count mask of a hand given as its card sets (``pairs`` a subset of ``held``)."""
    return (_S0[held & 255] + _S1[(held >> 8) & 255] + _S2[held >> 16]
            + _S0[pairs & 255] + _S1[(pairs >> 8) & 255] + _S2[pairs >> 16])
