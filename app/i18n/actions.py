"""Actions of every game in the reader's language, for text the server writes (the reasons of
the post-game analysis, puzzles): "Queen of clubs", "navy 8, leading pink", "announcing Re",
"a bid of 3", "discarding card 11 at L2", "catching card 7".

The msgids are those of the browser (static/js/words.js, analysis.js), so an action reads the
same in the analysis as on the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n import N_, gettext
from app.i18n.cards import COLOURS, card_name

LABELS = {
    "healthy": N_("Healthy"), "reservation": N_("Reservation"), "wedding": N_("Wedding"),
    "poverty": N_("Poverty"), "throw_in": N_("Throw in"), "re": N_("Re"), "kontra": N_("Kontra"),
    "no90": N_("No 90"), "no60": N_("No 60"), "no30": N_("No 30"), "black": N_("Black"),
    "solo_clubs": N_("Clubs solo"), "solo_spades": N_("Spades solo"), "solo_hearts": N_("Hearts solo"),
    "solo_diamonds": N_("Diamonds solo"), "solo_queens": N_("Queens solo"),
    "solo_jacks": N_("Jacks solo"), "solo_fleshless": N_("Fleshless solo"),
    "solo_kings": N_("Kings solo"), "solo_queens_jacks": N_("Queens-and-jacks solo"),
    "solo_kings_queens": N_("Kings-and-queens solo"), "solo_kings_jacks": N_("Kings-and-jacks solo"),
    "solo_kings_queens_jacks": N_("Kings-queens-and-jacks solo"),
    "solo_pure_clubs": N_("Pure clubs solo"), "solo_pure_spades": N_("Pure spades solo"),
    "solo_pure_hearts": N_("Pure hearts solo"), "solo_pure_diamonds": N_("Pure diamonds solo"),
}
#: Doublehead Kids names two declarations in its own words (static/js/games/kids.js)
KIDS_LABELS = {"healthy": N_("Ready to play"), "wedding": N_("Wedding (choose a partner)")}
BONUS = {"star": N_("star"), "eye": N_("eye")}
POSITIONS = ("L3", "L2", "L1", "R1", "R2", "R3")


def value_words(game: str, value: str) -> str:
    """A declaration or announcement value in words: "solo_clubs" → "Clubs solo"."""
    words = (KIDS_LABELS.get(value) if game == "doublehead_kids" else None) or LABELS.get(value)
    return gettext(words) if words else value.replace("_", " ")


def acted_card(view: Mapping[str, Any], action: Mapping[str, Any]) -> str | None:
    """The card an action moves without naming it: a Doppio discard's card (the hand at that
    position) or a catch's (the card in the window); None for any other action."""
    if action.get("type") == "discard" and action.get("position") in POSITIONS:
        hand = view.get("hand") or []
        index = POSITIONS.index(action["position"])
        return str(hand[index]) if index < len(hand) else None
    if action.get("type") == "catch" and view.get("catch_window"):
        return str(view["catch_window"]["card"])
    return None


def action_words(game: str, action: Mapping[str, Any], card: str | None = None) -> str:
    """``action`` in the current language; ``card``: the card it moves when the action does not
    name it (:func:`acted_card`)."""
    kind = action.get("type")
    if "card" in action:
        name = card_name(game, str(action["card"]))
        suit = action.get("suit")
        if suit in COLOURS:  # a navy card led as another suit
            return gettext("%(card)s, leading %(suit)s", card=name, suit=gettext(COLOURS[suit]))
        return name
    if kind == "bid":
        return gettext("a bid of %(bid)s", bid=action["value"])
    if kind == "discard":
        if card is not None:
            return gettext("discarding %(card)s at %(position)s", card=card_name(game, card),
                           position=action["position"])
        return gettext("discarding %(position)s", position=action["position"])
    if kind == "announce":
        return gettext("announcing %(value)s", value=value_words(game, action["value"]))
    if kind == "declare":
        return value_words(game, action["value"])
    if kind == "wedding_partner":
        return gettext("seat %(number)s as partner", number=int(action["partner"]) + 1)
    if kind == "catch":
        return gettext("catching %(card)s", card=card_name(game, card)) if card else gettext("catching")
    if kind == "pass":
        return gettext("passing")
    if kind == "doppio":
        return gettext("declaring Doppio")
    if kind == "take_bonus":
        return gettext("taking the %(bonus)s", bonus=gettext(BONUS.get(action["value"], action["value"])))
    if kind == "decline_bonus":
        return gettext("playing on without a bonus card")
    return str(kind).replace("_", " ")
