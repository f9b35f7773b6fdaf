"""The round state of Doppelganger Tricks: one immutable value.

A round runs in two phases. Bidding: every seat bids once, in any order, in secret. Playing:
from the first seat, (dealer + 1) mod n, tricks are played until every hand is empty; the
trick's winner leads the next one, and after a void trick (nobody wins) the same seat leads
again.

Invariant of :class:`RoundState`: the cards in ``hands``, ``trick`` and the plays of ``tricks``
are together exactly the deck for ``players``, each once; ``len(trick) < players``; every hand
holds ``hand_size - len(tricks) - (1 if the seat already played to trick else 0)`` cards;
``trick`` is empty while any bid is missing; a seat holds at most one bonus card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from app.games.base import Seat
from app.games.doppelganger_tricks.cards import Card, Suit, sort_key


class Bonus(Enum):
    """The two bonus cards: the star (+1 point whatever the bid) and the eye (+3 if exact)."""

    STAR = "star"
    EYE = "eye"


class Phase(Enum):
    """Where a round stands."""

    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Play:
    """One card played to a trick. ``named_suit`` is the suit a navy lead names, else None."""

    seat: Seat
    card: Card
    named_suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick.

    plays: in the order they were made; plays[0] is the lead.
    lead_suit: the lead card's suit, or the suit a navy lead named.
    annihilated: the cards that left the trick, in the order they were played.
    winner: the seat that won it, or None when no card remained (a void trick).
    """

    plays: tuple[Play, ...]
    lead_suit: Suit
    annihilated: tuple[Card, ...]
    winner: Seat | None

    @property
    def leader(self) -> Seat:
        """The seat that led this trick."""
        return self.plays[0].seat


@dataclass(frozen=True, slots=True)
class RoundState:
    """Everything about one round, hidden cards and secret bids included.

    hands: per seat, the cards still held, in display order.
    bids: per seat, its bid 0..12 or None while it has not bid.
    leader: the seat that leads (or led) the trick in progress.
    trick: the plays of the trick in progress.
    tricks: the completed tricks, in order.
    star, eye: the seat holding that bonus card, or None while it is free.
    bonus_window: the seat that made the latest play, while it may still take a bonus card;
        the next play (or its taking a bonus, or declining at the round's end) closes it.
    """

    players: int
    dealer: Seat
    hands: tuple[tuple[Card, ...], ...]
    bids: tuple[int | None, ...]
    leader: Seat
    trick: tuple[Play, ...] = ()
    tricks: tuple[Trick, ...] = ()
    star: Seat | None = None
    eye: Seat | None = None
    bonus_window: Seat | None = None

    @property
    def first_seat(self) -> Seat:
        """The seat that leads the round's first trick: left of the dealer."""
        return (self.dealer + 1) % self.players

    @property
    def bids_complete(self) -> bool:
        """Whether every seat has bid (bids are then public)."""
        return all(bid is not None for bid in self.bids)

    @property
    def cards_left(self) -> int:
        """Cards still in the hands."""
        return sum(len(hand) for hand in self.hands)

    @property
    def next_seat(self) -> Seat:
        """The seat whose turn it is to play to the trick in progress."""
        return (self.leader + len(self.trick)) % self.players

    def bonus_holder(self, bonus: Bonus) -> Seat | None:
        """The seat holding ``bonus``, or None while it is free."""
        return self.star if bonus is Bonus.STAR else self.eye

    def bonus_of(self, seat: Seat) -> Bonus | None:
        """The bonus card ``seat`` holds, if any."""
        for bonus in Bonus:
            if self.bonus_holder(bonus) == seat:
                return bonus
        return None

    def holds_navy(self, seat: Seat) -> bool:
        """Whether ``seat`` still holds a navy (doppelganger) card."""
        return any(card.is_navy for card in self.hands[seat])


def new_state(players: int, dealer: Seat, hands: list[list[Card]]) -> RoundState:
    """The state at the start of a round: nobody has bid, the first seat will lead."""
    return RoundState(
        players=players,
        dealer=dealer,
        hands=tuple(tuple(sorted(hand, key=sort_key)) for hand in hands),
        bids=(None,) * players,
        leader=(dealer + 1) % players,
    )
