"""Doppelkopf cards: names, card points and the deck.

A card is named rank then suit (scenario format): ranks ``A T K Q J 9``, suits ``C S H D``;
``QC`` is the queen of clubs (Kreuz-Dame), ``TH`` the ten of hearts (Dulle). Each card exists
twice, and both copies share one name.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = ("A", "T", "K", "Q", "J", "9")
SUITS = ("C", "S", "H", "D")
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}

#: card points (Augen): A 11, T 10, K 4, Q 3, J 2, 9 0; 240 in a deck with or without nines
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}

ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_POINTS = {card: POINTS[card[0]] for card in ALL_CARDS}

QUEEN_OF_CLUBS = "QC"  # Kreuz-Dame: marks the Re party of a normal game
FOX = "AD"  # Fuchs: the ace of diamonds
CHARLIE = "JC"  # Karlchen: the jack of clubs


def distinct_cards(nines: bool) -> tuple[str, ...]:
    """The 24 (or 20 without nines) distinct card names."""
    return ALL_CARDS if nines else tuple(c for c in ALL_CARDS if c[0] != "9")


def deck(nines: bool) -> list[str]:
    """The full deck, each card twice: 48 cards, or 40 without nines."""
    return [card for card in distinct_cards(nines) for _ in range(2)]


def card_points(cards: Iterable[str]) -> int:
    """The sum of the card points of ``cards``."""
    return sum(CARD_POINTS[card] for card in cards)
