"""The Doppio round state: one immutable value; ``apply`` returns a new one.

Invariant of :class:`DoppioState` (checked by the property tests):

- ``hands[s]`` holds six cards in order (L3, L2, L1, R1, R2, R3) for every seat s;
- the 48 cards are exactly: the deck, the six cards of every hand, the held caught cards,
  the dead pile and the card of the open catch window (if any);
- while the round runs the deck is not empty (the discard that takes its last card ends it);
- at most one catch window is open, and only while the round runs; it always has a seat that
  has not answered (it closes when the last one answers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from app.games.base import Seat
from app.games.doppio.cards import Card
from app.games.doppio.layout import Hand
from app.games.doppio.rules import DoppioRules

#: how a round ended
END_DOPPIO = "doppio"
END_DECK = "deck"


@dataclass(frozen=True, slots=True)
class CatchWindow:
    """The open catch window of one discard.

    card: the discarded card.
    discarder: the seat that discarded it.
    eligible: the other seats that held no caught card at the discard, clockwise from the
        discarder.
    answers: ``(seat, caught)`` in order of arrival; ``caught`` False is a pass. Secret until
        the window closes: the view shows who answered, not how.
    """

    card: Card
    discarder: Seat
    eligible: tuple[Seat, ...]
    answers: tuple[tuple[Seat, bool], ...] = ()

    def answered(self, seat: Seat) -> bool:
        """Whether ``seat`` has caught or passed in this window."""
        return any(answering == seat for answering, _ in self.answers)

    def waiting(self) -> tuple[Seat, ...]:
        """The eligible seats that have not answered, clockwise from the discarder."""
        return tuple(seat for seat in self.eligible if not self.answered(seat))

    def catchers(self) -> tuple[Seat, ...]:
        """The seats that caught, in order of arrival."""
        return tuple(seat for seat, caught in self.answers if caught)


@dataclass(frozen=True, slots=True)
class DoppioCall:
    """A Doppio declaration: who declared, at which hand value, and whether it succeeded."""

    seat: Seat
    hand_value: int
    success: bool


@dataclass(frozen=True, slots=True)
class DoppioState:
    """One Doppio round (see the module docstring for the invariant).

    hands: per seat, six cards (L3, L2, L1, R1, R2, R3).
    held: per seat, the caught card it holds face up, or None.
    deck: the draw pile, top card first.
    dead: the dead pile: discards nobody caught, oldest first.
    turn: the seat whose turn it is to discard or declare Doppio (the seat after the last
        discarder, even while that discard's catch window is open).
    window: the open catch window, or None.
    end: None while the round runs, then ``"doppio"`` or ``"deck"``.
    doppio: the declaration that ended the round, if any.
    """

    rules: DoppioRules
    players: int
    dealer: Seat
    hands: tuple[Hand, ...]
    held: tuple[Card | None, ...]
    deck: tuple[Card, ...]
    dead: tuple[Card, ...] = ()
    turn: Seat = 0
    window: CatchWindow | None = None
    end: str | None = None
    doppio: DoppioCall | None = None

    @property
    def over(self) -> bool:
        """Whether the round has ended."""
        return self.end is not None


def next_seat(seat: Seat, players: int) -> Seat:
    """The seat clockwise after ``seat`` (seats are numbered clockwise)."""
    return (seat + 1) % players


def next_dealer(dealer: Seat, players: int) -> Seat:
    """The next round's dealer: the dealer moves one seat left, which is clockwise (seat+1).

    The rules core takes each round's dealer as given (a scenario names it); the room uses this.
    """
    return next_seat(dealer, players)


def new_round(
    rules: DoppioRules, players: int, deal: Sequence[Sequence[Card]], deck: Sequence[Card], dealer: Seat
) -> DoppioState:
    """The state at the start of a round: the seat left of the dealer, dealer+1, moves first.

    The deal must have passed ``check_deal``.
    """
    return DoppioState(
        rules=rules,
        players=players,
        dealer=dealer,
        hands=tuple(tuple(hand) for hand in deal),
        held=(None,) * players,
        deck=tuple(deck),
        turn=next_seat(dealer, players),
    )


T = TypeVar("T")


def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with ``values[index]`` replaced by ``value``."""
    return values[:index] + (value,) + values[index + 1 :]
