"""Reservations (Vorbehalte): healthy or a reservation, and which one is played.

Each player, in turn from the dealer's left, says ``healthy`` or names a reservation. The
others learn only "reservation" until the reservations are resolved: a throw-in (option) beats
a solo, a solo beats a poverty (option), a poverty beats a wedding; between equal kinds the
player earlier in the order wins (rulings, "Reservations"). Only the winning one is revealed.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.doppelkopf.cards import FOX, QUEEN_OF_CLUBS
from app.games.doppelkopf.contracts import card_order
from app.games.doppelkopf.rules import Rules

HEALTHY = "healthy"
WEDDING = "wedding"  # Hochzeit
POVERTY = "poverty"  # Armut
THROW_IN = "throw_in"  # Schmeißen


def precedence(value: str) -> int:
    """Rank of a reservation kind: higher wins (throw-in 4, solo 3, poverty 2, wedding 1)."""
    if value == THROW_IN:
        return 4
    if value.startswith("solo_"):
        return 3
    return {POVERTY: 2, WEDDING: 1}.get(value, 0)


def poverty_trumps(hand: Sequence[str], nines: bool) -> int:
    """Trumps of a normal game in ``hand`` as counted for poverty: a single AD is not counted."""
    order = card_order("normal", nines)
    trumps = sum(1 for card in hand if order.is_trump(card))
    return trumps - 1 if hand.count(FOX) == 1 else trumps


def may_throw_in(hand: Sequence[str]) -> bool:
    """Throw-in hands (option ``throw_in``): five or more nines, five or more kings, eight or
    more nines and kings together, or seven or more aces and tens ("Volle")."""
    nines = sum(1 for card in hand if card[0] == "9")
    kings = sum(1 for card in hand if card[0] == "K")
    full = sum(1 for card in hand if card[0] in "AT")
    return nines >= 5 or kings >= 5 or nines + kings >= 8 or full >= 7


def allowed_declarations(hand: Sequence[str], rules: Rules) -> list[str]:
    """What a player holding ``hand`` may declare: healthy and each reservation open to it."""
    values = [HEALTHY]
    if rules.wedding and hand.count(QUEEN_OF_CLUBS) == 2:
        values.append(WEDDING)
    if rules.poverty and poverty_trumps(hand, rules.nines) <= 3:
        values.append(POVERTY)
    values += rules.solos  # rules.offered_solos without the property call
    values += rules.extra_solos
    if rules.throw_in and may_throw_in(hand):
        values.append(THROW_IN)
    return values


def winning_reservation(declarations: Sequence[str | None], first_seat: int) -> tuple[int, str] | None:
    """The reservation that is played, as (seat, value); None when all are healthy.

    declarations: per seat, the value said. Seats are considered in declaration order from
    ``first_seat``; the highest precedence wins, the earlier player among equals.
    """
    if declarations.count(HEALTHY) == len(declarations):
        return None
    best: tuple[int, str] | None = None
    for offset in range(len(declarations)):
        seat = (first_seat + offset) % len(declarations)
        value = declarations[seat]
        if value is None or value == HEALTHY:
            continue
        if best is None or precedence(value) > precedence(best[1]):
            best = (seat, value)
    return best
