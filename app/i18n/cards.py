"""Card names in the reader's language for pages the server renders (the rules pages).

The browser names cards with static/js/cards.js and the per-game tables; these are the same
msgids, so a card reads the same on a rules page as at the table: "Queen of clubs" /
"Kreuz-Dame", "Prince / Princess" / "Prinz / Prinzessin", "navy 7" / "Marineblau 7",
"card 11" / "Karte 11".
"""

from __future__ import annotations

from app.games.doublehead_kids.names import CARD_NAMES as KID_CARDS
from app.games.doublehead_kids.names import family_of
from app.i18n import N_, gettext

RANKS = {"A": N_("Ace"), "T": N_("Ten"), "K": N_("King"), "Q": N_("Queen"), "J": N_("Jack"),
         "9": N_("Nine")}
SUITS = {"C": N_("clubs"), "S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds")}
#: Doublehead Kids: the picture names (app/games/doublehead_kids/names.py) as msgids
KID_NAMES = {
    "King Friedrich": N_("King Friedrich"), "Prince / Princess": N_("Prince / Princess"),
    "Queen Elisabeth": N_("Queen Elisabeth"), "Court lady Antoinette": N_("Court lady Antoinette"),
    "Court lady Wilhelmine": N_("Court lady Wilhelmine"), "Karlchen": N_("Karlchen"),
    "Knight": N_("Knight"), "Foxy": N_("Foxy"), "August the Strong": N_("August the Strong"),
    "Bishop Marc-Antoine": N_("Bishop Marc-Antoine"), "Jester Kunz": N_("Jester Kunz"),
    "Castle": N_("Castle"), "Earl Ernst August": N_("Earl Ernst August"),
    "Earl Georg": N_("Earl Georg"), "Soldier": N_("Soldier"),
}
KID_FAMILIES = {"cross": N_("cross"), "spade": N_("spade"), "heart": N_("heart")}
COLOURS = {"P": N_("pink"), "G": N_("green"), "Y": N_("yellow"), "N": N_("navy")}


def card_name(game: str, code: str) -> str:
    """The name of card ``code`` of ``game`` in the current language.

    Doppelkopf: "Queen of clubs"; Doublehead Kids: its picture name, with the earl family where
    the name is shared, as the table names it ("Castle (spade)"); Doppelganger Tricks: "navy 7"; Doppio: "card 11"
    or "bonus card (-2)". An unknown code is returned as it is.
    """
    if game == "doublehead_kids" and code in KID_CARDS:
        name = gettext(KID_NAMES[KID_CARDS[code]])
        family = family_of(code)
        if family in KID_FAMILIES:
            return gettext("%(name)s (%(family)s)", name=name, family=gettext(KID_FAMILIES[family]))
        return name
    if game == "doppelganger_tricks" and code[:1] in COLOURS:
        return gettext("%(colour)s %(number)s", colour=gettext(COLOURS[code[0]]), number=code[1:])
    if game == "doppio":
        return gettext("bonus card (-2)") if code == "B" else gettext("card %(number)s", number=code)
    rank, suit = RANKS.get(code[:-1]), SUITS.get(code[-1:])
    if rank and suit:
        return gettext("%(rank)s of %(suit)s", rank=gettext(rank), suit=gettext(suit))
    return code
