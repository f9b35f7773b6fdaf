"""The Doublehead Kids card names (rulings, "Card names").

Doublehead Kids plays the Doppelkopf deck and only renames the cards: scenario files and actions
use the Doppelkopf codes (``QC``), the table here gives what the children's cards show. Silver
coins are the Doppelkopf card points (A 11, T 10, K 4, Q 3, J 2, 9 0).
"""

from __future__ import annotations

from typing import Any

from app.games.doppelkopf.cards import ALL_CARDS, CARD_POINTS

ROYAL = "royal"
FAMILIES = {"C": "cross", "S": "spade", "H": "heart", "D": ROYAL}

#: card code → picture name (each card exists twice)
CARD_NAMES: dict[str, str] = {
    "TH": "King Friedrich",
    "QC": "Prince / Princess",
    "QS": "Queen Elisabeth",
    "QH": "Court lady Antoinette",
    "QD": "Court lady Wilhelmine",
    "JC": "Karlchen",
    "JS": "Knight",
    "JH": "Knight",
    "JD": "Knight",
    "AD": "Foxy",
    "TD": "August the Strong",
    "KD": "Bishop Marc-Antoine",
    "9D": "Jester Kunz",
    "AC": "Castle",
    "AS": "Castle",
    "AH": "Castle",
    "TC": "Earl Ernst August",
    "TS": "Earl Ernst August",
    "KC": "Earl Georg",
    "KS": "Earl Georg",
    "KH": "Earl Georg",
    "9C": "Soldier",
    "9S": "Soldier",
    "9H": "Soldier",
}

#: the royal family (trumps), strongest first: the Doppelkopf normal game's trump order
ROYAL_ORDER = ("TH", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D")

#: cards with a printed word: the Prince/Princess cards show "Team"
PRINTED = {"QC": "Team", "AD": "Foxy", "JC": "Karlchen"}

TEAM_NAMES = {"re": "Team Prince/Princess", "kontra": "Team No Crown"}


def family_of(card: str) -> str:
    """The family crest of a card: ``royal`` for every trump, else ``cross``, ``spade``, ``heart``."""
    return ROYAL if card in ROYAL_ORDER else FAMILIES[card[1]]


def card_name(card: str) -> str:
    """The picture name of a card code, with its earl family where the name is shared.

    One naming scheme (as on the cards, capitalised like names): ``card_name("AS")`` is
    ``"Castle (spade)"``; ``card_name("QC")`` ``"Prince / Princess"``.
    Raises KeyError for an unknown code.
    """
    name = CARD_NAMES[card]
    family = family_of(card)
    return name if family == ROYAL else f"{name} ({family})"


def card_table() -> dict[str, dict[str, Any]]:
    """Every card: name, family and silver coins (for a client's legend)."""
    return {card: {"name": CARD_NAMES[card], "family": family_of(card),
                   "silver": CARD_POINTS[card], **({"printed": PRINTED[card]} if card in PRINTED else {})}
            for card in ALL_CARDS}
