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
    """
    suit_of, power = order.suit_of, order.power
    second_ten_wins = rules.heart_ten_second_beats_first and not (
        last_trick and rules.heart_ten_first_wins_last_trick)
    best = plays[0]
    for play in plays[1:]:
        card, best_card = play.card, best.card
        suit, best_suit = suit_of[card], suit_of[best_card]
        if suit == best_suit:
            if power[card] > power[best_card] or (
                second_ten_wins and card == best_card == "TH" and suit == TRUMP):
                best = play
        elif suit == TRUMP:
            best = play
    return best.seat
