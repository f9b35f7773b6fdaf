"""The trick kernel of Doppelkopf (and Doublehead Kids): following suit, which card beats
which, the trick's winner (DDV rules 2.x; house rules on the heart ten) and what a trick
decides of an open wedding.

One home for these rules: the engine (app/games/doppelkopf/engine.py), the bots' simulator
(app/bots/doppelkopf/table.py) and the exact solver (app/bots/doppelkopf/solver.py) all call
them. Everything reads the contract's precomputed :class:`CardOrder`: by card name (``suit_of``,
``strength_after``, ``follow`` as a card set) or by card index (``suits``, ``powers``,
``class_masks``, over the count masks of app.games.doppelkopf.bits), so the solver keeps
working on integers. :class:`TrickRules` binds an order to the table's rules (the heart-ten
house rules) for the callers that ask many questions of one order.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.doppelkopf.bits import INDEX
from app.games.doppelkopf.contracts import TRUMP, CardOrder
from app.games.doppelkopf.modes import duel_wedding_cancelled, eligible_partner
from app.games.doppelkopf.rules import Rules

#: a play as ``(seat, card)``: app.games.doppelkopf.state.Play or a plain tuple
PlayLike = tuple[int, str]
#: a play by card index (app.games.doppelkopf.bits, ``INDEX``)
IndexPlay = tuple[int, int]

HEART_TEN = "TH"
_HEART_TEN_INDEX = INDEX[HEART_TEN]
_LOW = sum(1 << (2 * index) for index in range(24))  # the low bit of every card's pair

#: what a trick decides of an open wedding (:func:`wedding_decision`)
PARTNER, ALONE, CANCELLED = "partner", "alone", "cancelled"
#: the tricks within which a wedding must be clarified (else the bride plays alone)
WEDDING_TRICKS = 3


def playable_cards(hand: Sequence[str], trick: Sequence[PlayLike], order: CardOrder) -> list[str]:
    """The distinct cards of ``hand`` that may be played into ``trick``.

    Follow suit: who holds a card of the led suit class (trump is a suit of its own) must play
    one; who cannot follow may play any card. (The engine's legal actions ask the same of a
    hand's card set: ``held & order.follow[led] or held``.)
    """
    distinct = list(dict.fromkeys(hand))
    if not trick:
        return distinct
    suit_of = order.suit_of
    led = suit_of[trick[0][1]]
    following = [card for card in distinct if suit_of[card] == led]
    return following or distinct


def second_ten_wins(rules: Rules, order: CardOrder, last_trick: bool) -> bool:
    """Whether a second TH takes the trick from the first (house rule
    ``heart_ten_second_beats_first``, only while TH is trump, and not in the last trick with
    ``heart_ten_first_wins_last_trick``). By default (DDV) the first of two equal cards wins."""
    return (rules.heart_ten_second_beats_first and order.suit_of.get(HEART_TEN) == TRUMP
            and not (last_trick and rules.heart_ten_first_wins_last_trick))


def trick_winner(plays: Sequence[PlayLike], order: CardOrder, rules: Rules, *, last_trick: bool) -> int:
    """Return the seat that wins a complete trick.

    plays: the four plays in the order they were made; plays[0] is the lead.
    The highest trump wins, else the highest card of the led suit. Of two equal cards the first
    played wins (DDV), the two TH included — unless :func:`second_ten_wins`.

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
    if best[1] == HEART_TEN and second_ten_wins(rules, order, last_trick):
        best = [play for play in plays if play[1] == HEART_TEN][-1]  # the second TH, if played
    return best[0]


def _qualifies(rules: Rules, order: CardOrder, lead: str) -> bool:
    """Whether a trick led with ``lead`` may clarify a wedding (``wedding_clarification``):
    ``any`` trick, the first ``first_trump`` or ``first_non_trump`` one; never with ``named``,
    whose partner is named before the first trick."""
    rule = rules.wedding_clarification
    if rule == "any":
        return True
    if rule == "named":
        return False
    lead_is_trump = order.suit_of[lead] == TRUMP
    return lead_is_trump if rule == "first_trump" else not lead_is_trump


def wedding_decision(rules: Rules, order: CardOrder, bride: int, lead: str,
                     winners: Sequence[int]) -> str | None:
    """What the latest trick decides of a wedding still open: :data:`PARTNER` (its winner is
    the bride's partner: an eligible player, ``modes.eligible_partner``, won a trick of the kind
    the rules name), after the third trick without one :data:`ALONE` (the bride plays a solo)
    or :data:`CANCELLED` (duel mode, ``modes.duel_wedding_cancelled``: the deal is void), else
    None (still open).

    lead: the card that led the latest trick; winners: the winner of every trick so far.
    """
    if eligible_partner(rules, bride, winners[-1]) and _qualifies(rules, order, lead):
        return PARTNER
    if len(winners) == WEDDING_TRICKS:
        return CANCELLED if duel_wedding_cancelled(rules, bride, list(winners)) else ALONE
    return None


class TrickRules:
    """The trick kernel of one card order under one table's heart-ten rules, by card name and
    by card index (:func:`trick_rules` builds and keeps one per order and rules).

    second_ten, second_ten_last: :func:`second_ten_wins` outside and in the last trick.
    """

    __slots__ = ("order", "suit_of", "strength_after", "suits", "powers", "class_masks",
                 "second_ten", "second_ten_last")

    def __init__(self, order: CardOrder, rules: Rules) -> None:
        self.order = order
        self.suit_of = order.suit_of
        self.strength_after = order.strength_after
        self.suits = order.suits
        self.powers = order.powers
        self.class_masks = order.class_masks
        self.second_ten = second_ten_wins(rules, order, False)
        self.second_ten_last = second_ten_wins(rules, order, True)

    # --- by name -----------------------------------------------------------------------------

    def playable(self, hand: Sequence[str], trick: Sequence[PlayLike]) -> list[str]:
        """:func:`playable_cards` of ``hand`` into ``trick``."""
        return playable_cards(hand, trick, self.order)

    def beats(self, card: str, best: str, last: bool) -> bool:
        """Whether ``card``, played after ``best`` (the card winning the trick so far), takes
        the trick from it; ``last``: this is the deal's last trick."""
        strength = self.strength_after[best]  # best is of the led class or a trump
        if strength[card] > strength[best]:
            return True
        return card == best == HEART_TEN and (self.second_ten_last if last else self.second_ten)

    def best(self, plays: Sequence[PlayLike], last: bool) -> PlayLike:
        """The play winning ``plays`` (a trick complete or not, at least one play) so far."""
        best = plays[0]
        for play in plays[1:]:
            if self.beats(play[1], best[1], last):
                best = play
        return best

    def winner(self, plays: Sequence[PlayLike], last: bool) -> int:
        """The seat winning the complete trick ``plays`` (as :func:`trick_winner`)."""
        return self.best(plays, last)[0]

    # --- by index ----------------------------------------------------------------------------

    def moves(self, mask: int, led: int | None) -> list[int]:
        """The distinct cards (indices) a hand of count mask ``mask`` may play when the card
        ``led`` was led (None: the hand leads)."""
        if led is not None:
            follow = mask & self.class_masks[self.suits[led]]
            if follow:
                mask = follow
        present = (mask | (mask >> 1)) & _LOW
        out = []
        while present:
            low = present & -present
            out.append((low.bit_length() - 1) >> 1)
            present ^= low
        return out

    def beats_index(self, card: int, best: int, last: bool) -> bool:
        """:meth:`beats` by card index."""
        suits = self.suits
        suit, best_suit = suits[card], suits[best]
        if suit == best_suit:
            if self.powers[card] > self.powers[best]:
                return True
            return (card == best == _HEART_TEN_INDEX and suit == 0
                    and (self.second_ten_last if last else self.second_ten))
        return suit == 0

    def best_index(self, plays: Sequence[IndexPlay], last: bool) -> IndexPlay:
        """:meth:`best` by card index."""
        best = plays[0]
        beats = self.beats_index
        for play in plays[1:]:
            if beats(play[1], best[1], last):
                best = play
        return best


_KERNELS: dict[tuple[tuple[str, ...], int, bool, bool], TrickRules] = {}


def trick_rules(order: CardOrder, rules: Rules) -> TrickRules:
    """The :class:`TrickRules` of ``order`` under ``rules``, built once per trump sequence,
    deck and heart-ten rules (two orders with the same trumps rank every card alike: a
    contract's and the one a bot rebuilds from a view's list of trumps)."""
    key = (order.trumps, len(order.suit_of), rules.heart_ten_second_beats_first,
           rules.heart_ten_first_wins_last_trick)
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = TrickRules(order, rules)
    return kernel
