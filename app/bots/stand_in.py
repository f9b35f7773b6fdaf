"""A computer player standing in for a person (their move clock ran out, they are away, or
they left): it plays the person's seat with the table's level, with one rule of its own.

**No silent solo by accident.** In the Doppelkopf family, declaring "healthy" (gesund) with
both queens of clubs is a silent solo (stille Hochzeit): one against three, told to nobody. A
person may choose that; a stand-in must not slip into it without saying so. When the computer
would say "healthy" on such a hand, it announces the wedding (Hochzeit) instead, if the rules
offer it: a team game, said out loud. (Where no wedding is offered the declaration stays, and
the rules make it the silent solo the person's hand holds.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.bots import legal_of

#: the games whose declarations follow Doppelkopf's reservations
RESERVATION_GAMES = ("doppelkopf", "doublehead_kids")
QUEEN_OF_CLUBS = "QC"


def stand_in_action(game: str, view: Mapping[str, Any],
                    action: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The action a computer standing in for a person takes, given the bot's ``action`` for
    the seat's ``view``: the same action, except a "healthy" declaration on a hand holding
    both queens of clubs, which becomes the wedding when it is legal."""
    if game not in RESERVATION_GAMES or action is None:
        return action
    if action.get("type") != "declare" or action.get("value") != "healthy":
        return action
    hand = view.get("hand") or []
    if sum(1 for card in hand if card == QUEEN_OF_CLUBS) < 2:
        return action
    wedding = next((a for a in legal_of(view)
                    if a.get("type") == "declare" and a.get("value") == "wedding"), None)
    return wedding or action
