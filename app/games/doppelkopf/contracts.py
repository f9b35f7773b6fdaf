"""Contracts and their card orders: which cards are trump and how every card ranks.

A contract (Spielart) is the kind of game a deal is played as: ``normal``, ``wedding``
(Hochzeit), ``poverty`` (Armut), ``silent_solo`` (stille Hochzeit) or a solo named
``solo_<name>``. Each has a :class:`CardOrder`: for every card its suit class (``TRUMP`` or
the plain suit letter) and its power within that class (higher beats lower).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from app.games.doppelkopf.bits import BIT, NAMES
from app.games.doppelkopf.cards import RANKS, SUITS, distinct_cards

TRUMP = "T"  # suit class of trumps; plain suits use their letter C S H D
#: suit class → its number in a card order's tables by index (``CardOrder.suits``)
SUIT_IDS = {TRUMP: 0, "C": 1, "S": 2, "H": 3, "D": 4}

#: contracts played by two parties of two (special points count)
TEAM_CONTRACTS = ("normal", "wedding", "poverty")

_QUEENS = ("QC", "QS", "QH", "QD")
_JACKS = ("JC", "JS", "JH", "JD")
_KINGS = ("KC", "KS", "KH", "KD")


@dataclass(frozen=True, slots=True)
class CardOrder:
    """The card order of one contract.

    suit_of: card → ``TRUMP`` or its plain suit letter (the suit that must be followed).
    power: card → rank within its suit class; a higher number beats a lower one.
    trumps: the trumps, highest first.
    follow: card → the card set (app.games.doppelkopf.bits, ``BIT``) of its suit class: what
        a seat must follow with when that card was led; derived from ``suit_of``.
    strength: suit class led → card → how strongly the card takes a trick of that lead: 0 for
        a card that cannot win it (another plain suit), else higher beats lower (every trump
        above every card of the led suit); derived from ``suit_of`` and ``power``.
    strength_after: card led → ``strength`` of its suit class (one lookup fewer per trick).
    suits, powers: the same by card index (app.games.doppelkopf.bits, ``INDEX``, every name of
        the 24 even without nines): the suit class (``SUIT_IDS``: 0 trump, 1-4 C S H D) and the
        power (0 for a card not in the deck), for the solver, which works on integers.
    class_masks: per suit class id, the count mask (app.games.doppelkopf.bits) of its cards.
    """

    name: str
    suit_of: dict[str, str]
    power: dict[str, int]
    trumps: tuple[str, ...]
    follow: dict[str, int] = field(init=False, repr=False, compare=False)
    strength: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)
    strength_after: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)
    #: card -> :meth:`sort_key` (``sorted(hand, key=order.hand_rank.__getitem__)``)
    hand_rank: dict[str, tuple[int, int]] = field(init=False, repr=False, compare=False)
    suits: tuple[int, ...] = field(init=False, repr=False, compare=False)
    powers: tuple[int, ...] = field(init=False, repr=False, compare=False)
    class_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        classes: dict[str, list[str]] = {}
        for card, suit in self.suit_of.items():
            classes.setdefault(suit, []).append(card)
        sets = {suit: sum(BIT[card] for card in cards) for suit, cards in classes.items()}
        object.__setattr__(self, "follow", {card: sets[suit] for card, suit in self.suit_of.items()})
        top = max(self.power.values(), default=0) + 1
        strength = {
            led: {card: (top + self.power[card] if suit == TRUMP else
                         self.power[card] if suit == led else 0)
                  for card, suit in self.suit_of.items()}
            for led in classes}
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "strength_after",
                           {card: strength[suit] for card, suit in self.suit_of.items()})
        object.__setattr__(self, "hand_rank", {card: self.sort_key(card) for card in self.suit_of})
        suits = tuple(SUIT_IDS[self.suit_of.get(name, name[1])] for name in NAMES)
        object.__setattr__(self, "suits", suits)
        object.__setattr__(self, "powers", tuple(self.power.get(name, 0) for name in NAMES))
        object.__setattr__(self, "class_masks", tuple(
            sum(3 << (2 * index) for index, suit in enumerate(suits) if suit == wanted)
            for wanted in range(len(SUIT_IDS))))

    def is_trump(self, card: str) -> bool:
        """Whether ``card`` is a trump in this order."""
        return self.suit_of[card] == TRUMP

    def sort_key(self, card: str) -> tuple[int, int]:
        """Key that sorts a hand: trumps first, then clubs, spades, hearts, diamonds; high first."""
        suit = self.suit_of[card]
        group = 0 if suit == TRUMP else 1 + SUITS.index(suit)
        return (group, -self.power[card])


def _suit_solo_trumps(suit: str) -> tuple[str, ...]:
    low = tuple(rank + suit for rank in ("A", "T", "K", "9") if rank + suit != "TH")
    return ("TH", *_QUEENS, *_JACKS, *low)


def trump_sequence(order_name: str) -> tuple[str, ...]:
    """The trumps of an order, highest first (nines included; filtered later).

    Raises KeyError for an unknown order name.
    """
    if order_name == "normal":
        return _suit_solo_trumps("D")
    solo = order_name.removeprefix("solo_")
    if solo in ("clubs", "spades", "hearts", "diamonds"):
        return _suit_solo_trumps(solo[0].upper())
    if solo.startswith("pure_"):
        suit = solo[5].upper()
        return tuple(rank + suit for rank in RANKS)
    groups = {"queens": _QUEENS, "jacks": _JACKS, "kings": _KINGS, "fleshless": ()}
    parts = solo.split("_")
    if all(part in groups for part in parts):
        return tuple(card for part in parts for card in groups[part])
    raise KeyError(order_name)


@cache
def card_order(order_name: str, nines: bool, swines: bool = False) -> CardOrder:
    """The CardOrder of an order name (``normal`` or a solo name).

    With ``swines`` the two AD (held by one player) rank above TH.
    Raises KeyError for an unknown order name.
    """
    cards = distinct_cards(nines)
    trumps = tuple(card for card in trump_sequence(order_name) if card in cards)
    if swines:
        trumps = ("AD", *(card for card in trumps if card != "AD"))
    suit_of: dict[str, str] = {}
    power: dict[str, int] = {}
    for index, card in enumerate(trumps):
        suit_of[card] = TRUMP
        power[card] = len(trumps) - index
    for card in cards:
        if card not in suit_of:
            suit_of[card] = card[1]
            power[card] = len(RANKS) - RANKS.index(card[0])
    return CardOrder(order_name, suit_of, power, trumps)


def order_name_of(contract: str) -> str:
    """The card order a contract plays with (wedding, poverty, silent solo: ``normal``)."""
    return contract if contract.startswith("solo_") else "normal"


def is_solo(contract: str) -> bool:
    """Whether the contract is played one against three (declared solo or silent solo)."""
    return contract.startswith("solo_") or contract == "silent_solo"
