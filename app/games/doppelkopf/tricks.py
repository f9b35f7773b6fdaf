"""Following suit and winning tricks (DDV rules 2.x; house rules on the heart ten)."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.doppelkopf.contracts import TRUMP, CardOrder
from app.games.doppelkopf.rules import Rules
from app.games.doppelkopf.state import Play


def playable_cards(hand: Sequence[str], trick: Sequence[Play], order: CardOrder) -> list[str]:
    """The distinct cards of ``hand`` that may be played into ``trick``.

    Follow suit: who holds a card of the led suit class (trump is a suit of its own) must play
    one; who cannot follow may play any card.
    """
    distinct = list(dict.fromkeys(hand))
    if not trick:
        return distinct
    suit_of = order.suit_of
    led = suit_of[trick[0].card]
    following = [card for card in distinct if suit_of[card] == led]
    return following or distinct


def trick_winner(plays: Sequence[Play], order: CardOrder, rules: Rules, *, last_trick: bool) -> int:
    """Return the seat that wins a complete trick.

    plays: the four plays in the order they were made; plays[0] is the lead.
    The highest trump wins, else the highest card of the led suit. Of two equal cards the first
    played wins (DDV), the two TH included — unless ``heart_ten_second_beats_first`` (house
    rule), which does not hold in the last trick when ``heart_ten_first_wins_last_trick``.

    Raises ValueError if ``plays`` does not hold exactly four plays.
    """
    first, second, third, fourth = plays
    strength = order.strength_after[first[1]]  # see CardOrder.strength
    best, top = first, strength[first[1]]
    power = strength[second[1]]
    if power > top:
        best, top = second, power
    power = strength[third[1]]
    if power > top:
        best, top = third, power
    if strength[fourth[1]] > top:
        best = fourth
    if (best[1] == "TH" and rules.heart_ten_second_beats_first and order.suit_of["TH"] == TRUMP
            and not (last_trick and rules.heart_ten_first_wins_last_trick)):
        best = [play for play in plays if play[1] == "TH"][-1]  # the second TH, if played
    return best[0]
