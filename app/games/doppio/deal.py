"""Dealing and checking a deal: six cards to each seat, the rest is the draw pile."""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.games.base import DealError
from app.games.doppio.cards import COPIES, HAND_SIZE, Card, deck_size_after_deal, full_deck, is_card


def deal(players: int, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle the 48 cards with ``rng`` and deal six to each seat; the rest is the deck (top
    card first)."""
    cards = list(full_deck())
    rng.shuffle(cards)
    hands = [cards[HAND_SIZE * seat : HAND_SIZE * (seat + 1)] for seat in range(players)]
    return hands, cards[HAND_SIZE * players :]


def check_deal(players: int, hands: Sequence[Sequence[Card]], deck: Sequence[Card]) -> None:
    """Raise DealError unless ``hands`` (six cards each) and ``deck`` are the 48 cards.

    The error's path names the first problem: ``deal[2]`` (a hand of the wrong size),
    ``deal[1][4]`` or ``deck[7]`` (an unknown card or a fifth copy), ``deck`` (wrong size).
    """
    if len(hands) != players:
        raise DealError("deal", f"{len(hands)} hands, expected {players}")
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise DealError(f"deal[{seat}]", f"{len(hand)} cards, expected {HAND_SIZE}")
    expected = deck_size_after_deal(players)
    if len(deck) != expected:
        raise DealError("deck", f"{len(deck)} cards, expected {expected}")
    places = [(f"deal[{seat}][{index}]", card) for seat, hand in enumerate(hands) for index, card in enumerate(hand)]
    places += [(f"deck[{index}]", card) for index, card in enumerate(deck)]
    seen: dict[Card, int] = {}
    for path, card in places:
        if not is_card(card):
            raise DealError(path, f"unknown card {card!r}, expected 3..13 or B")
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > COPIES:
            raise DealError(path, f"a fifth card {card!r}: the deck holds {COPIES} of each")
