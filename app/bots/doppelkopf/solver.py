"""An exact solver for the last tricks of a Doppelkopf deal with every hand known.

Given a complete position of the card play (all four hands, the trick on the table, the
parties, the announcements), :func:`solve` finds the minimax value of every legal card of the
player to move: Re maximises and Kontra minimises the deal's final score (``values.DealValue``:
game points with the fox, Doppelkopf and Charlie special points, or Doublehead Kids golden
coins), and among equal scores the card points decide (``SCALE``), so the value is exact in
both. Alpha-beta search with a transposition table at trick boundaries (keyed by the hands,
the leader and what the finished tricks contributed to the scoring) and move ordering
(cards that take the trick first, the cheapest of them; otherwise points onto a partner's
trick, low cards onto an opponent's).

Cards are small ints (their index in ``app.games.doppelkopf.bits``) and hands the count masks
of that module, so a position is a handful of ints; which cards a hand may play and which card
takes a trick are the rules core's trick kernel by card index
(``app.games.doppelkopf.tricks.TrickRules``). ``minimax`` is the same game searched
without pruning or table, for the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.bots.doppelkopf.values import DealValue, Summary
from app.games.doppelkopf.bits import INDEX, NAMES, mask_of
from app.games.doppelkopf.cards import CARD_POINTS, CHARLIE, FOX
from app.games.doppelkopf.contracts import CardOrder
from app.games.doppelkopf.rules import Rules
from app.games.doppelkopf.state import KONTRA, RE
from app.games.doppelkopf.tricks import trick_rules

SCALE = 1000  # search value = SCALE * net score + Re card points (ties of score go to points)
INF = 10 ** 9
_POINTS = tuple(CARD_POINTS[name] for name in NAMES)
_FOX = INDEX[FOX]
_CHARLIE = INDEX[CHARLIE]


@dataclass(frozen=True)
class Position:
    """A position of the card play with every hand known (the solver's input).

    hands: per seat the cards held. trick: the plays of the current trick, ``(seat, card)``.
    leader: who led it (or leads next). tricks_left: tricks still to finish, the current one
    included (a hand holds ``tricks_left`` cards, or one fewer once it played to the trick).
    party: RE or KONTRA per seat. summary: what the finished tricks gave so far
    (``values.Summary``: Re card points, whether each party took a trick, special points).
    value: the scoring of the deal.
    """

    order: CardOrder
    rules: Rules
    hands: tuple[tuple[str, ...], ...]
    trick: tuple[tuple[int, str], ...]
    leader: int
    tricks_left: int
    party: tuple[int, ...]
    summary: Summary
    value: DealValue


class Solver:
    """Alpha-beta search of one position's remaining tricks (build one per position; the
    transposition table is shared by the searches of its moves)."""

    def __init__(self, pos: Position) -> None:
        kernel = trick_rules(pos.order, pos.rules)
        self.pos = pos
        self.value = pos.value
        self.party = pos.party
        self.suit, self.power = kernel.suits, kernel.powers
        #: the trick kernel by card index: a hand's cards to play, a card beating another,
        #: the best play of a trick
        self.moves, self.beats, self.best = kernel.moves, kernel.beats_index, kernel.best_index
        self.specials = pos.value.specials
        self.count_doppelkopf = pos.value.count_doppelkopf
        self.count_caught = pos.value.count_charlie_caught
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self.nodes = 0

    # --- trick mechanics ---------------------------------------------------------------------

    def finish(self, plays: Sequence[tuple[int, int]], winner: int, last: bool,
               summary: Summary) -> Summary:
        """The summary after a completed trick ``plays`` won by ``winner``."""
        re_points, re_trick, kontra_trick, sp_re, sp_kontra = summary
        won_by = self.party[winner]
        points = 0
        for _, card in plays:
            points += _POINTS[card]
        if self.specials:
            gained = 0
            if points >= 40 and self.count_doppelkopf:
                gained += 1
            for seat, card in plays:
                if card == _FOX and self.party[seat] != won_by:
                    gained += 1
                if last and card == _CHARLIE:
                    if seat == winner:
                        gained += 1
                    elif self.count_caught and self.party[seat] != won_by:
                        gained += 1
            if won_by == RE:
                sp_re += gained
            else:
                sp_kontra += gained
        if won_by == RE:
            return (re_points + points, True, kontra_trick, sp_re, sp_kontra)
        return (re_points, re_trick, True, sp_re, sp_kontra)

    def leaf(self, summary: Summary) -> int:
        return SCALE * self.value.net(summary) + summary[0]

    # --- search ------------------------------------------------------------------------------

    def search(self, hands: list[int], plays: list[tuple[int, int]], leader: int, left: int,
               summary: Summary, alpha: int, beta: int) -> int:
        """Minimax value (Re's view, ``SCALE`` units) of the position, within (alpha, beta)."""
        self.nodes += 1
        if not plays:
            if left == 0:
                return self.leaf(summary)
            key = (*hands, leader, *summary)
            entry = self.table.get(key)
            if entry is not None:
                low, high, _ = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
                alpha, beta = max(alpha, low), min(beta, high)
            value = self._expand(hands, plays, leader, left, summary, alpha, beta)
            low, high = (-INF, INF) if entry is None else entry[:2]
            if value <= alpha:
                high = min(high, value)
            elif value >= beta:
                low = max(low, value)
            else:
                low = high = value
            self.table[key] = (low, high, 0)
            return value
        return self._expand(hands, plays, leader, left, summary, alpha, beta)

    def _expand(self, hands: list[int], plays: list[tuple[int, int]], leader: int, left: int,
                summary: Summary, alpha: int, beta: int) -> int:
        seat = (leader + len(plays)) % 4
        maximise = self.party[seat] == RE
        best = -INF if maximise else INF
        for card in self.ordered(hands[seat], plays, seat, left):
            value = self.after(hands, plays, leader, left, summary, seat, card, alpha, beta)
            if maximise:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            else:
                if value < best:
                    best = value
                    if value < beta:
                        beta = value
            if alpha >= beta:
                break
        return best

    def after(self, hands: list[int], plays: list[tuple[int, int]], leader: int, left: int,
              summary: Summary, seat: int, card: int, alpha: int, beta: int) -> int:
        """The value after ``seat`` plays ``card``."""
        hands[seat] -= 1 << (2 * card)
        plays.append((seat, card))
        try:
            if len(plays) < 4:
                return self.search(hands, plays, leader, left, summary, alpha, beta)
            last = left == 1
            winner = self.best(plays, last)[0]
            done = list(plays)
            plays.clear()
            try:
                return self.search(hands, plays, winner, left - 1,
                                   self.finish(done, winner, last, summary), alpha, beta)
            finally:
                plays.extend(done)
        finally:
            plays.pop()
            hands[seat] += 1 << (2 * card)

    def ordered(self, mask: int, plays: list[tuple[int, int]], seat: int, left: int) -> list[int]:
        """Move ordering: the cheapest card that takes the trick, then by points (onto a
        partner's trick high first, onto an opponent's low first)."""
        cards = self.moves(mask, plays[0][1] if plays else None)
        if len(cards) < 2:
            return cards
        power = self.power
        suit = self.suit
        if not plays:
            return sorted(cards, key=lambda c: (suit[c] != 0, -power[c]))
        last = left == 1
        winner, best = self.best(plays, last)
        friend = self.party[winner] == self.party[seat]
        taking = [c for c in cards if self.beats(c, best, last)]
        rest = [c for c in cards if c not in taking]
        taking.sort(key=lambda c: power[c])
        rest.sort(key=lambda c: -_POINTS[c] if friend else _POINTS[c])
        return rest + taking if friend else taking + rest

    # --- entry points ------------------------------------------------------------------------

    def start(self) -> tuple[list[int], list[tuple[int, int]]]:
        pos = self.pos
        return [mask_of(hand) for hand in pos.hands], [(seat, INDEX[card]) for seat, card in pos.trick]

    def values(self) -> dict[str, int]:
        """The exact value (``SCALE`` units, Re's view) of each legal card of the player to
        move."""
        pos = self.pos
        hands, plays = self.start()
        seat = (pos.leader + len(plays)) % 4
        out: dict[str, int] = {}
        for card in self.ordered(hands[seat], plays, seat, pos.tricks_left):
            out[NAMES[card]] = self.after(hands, plays, pos.leader, pos.tricks_left, pos.summary,
                                          seat, card, -INF, INF)
        return out

    def best_value(self) -> int:
        """The minimax value of the position (``SCALE`` units, Re's view)."""
        hands, plays = self.start()
        return self.search(hands, plays, self.pos.leader, self.pos.tricks_left, self.pos.summary,
                           -INF, INF)


def solve(pos: Position) -> dict[str, int]:
    """The exact minimax value of each legal card of the player to move, in ``SCALE`` units
    from Re's view: ``value // SCALE`` would be Re's net score (see ``values.DealValue.net``)
    were it not for the card points in the low digits; use :func:`split`."""
    return Solver(pos).values()


def split(value: int) -> tuple[int, int]:
    """(net score, Re card points) of a solver value."""
    net, points = divmod(value, SCALE)
    return net, points


def minimax(pos: Position) -> int:
    """The plain minimax value of ``pos`` (no pruning, no table): the tests' reference."""
    solver = Solver(pos)
    hands, plays = solver.start()

    def walk(leader: int, left: int, summary: Summary) -> int:
        if not plays and left == 0:
            return solver.leaf(summary)
        seat = (leader + len(plays)) % 4
        results = []
        for card in solver.moves(hands[seat], plays[0][1] if plays else None):
            hands[seat] -= 1 << (2 * card)
            plays.append((seat, card))
            if len(plays) < 4:
                results.append(walk(leader, left, summary))
            else:
                winner = solver.best(plays, left == 1)[0]
                done = list(plays)
                plays.clear()
                results.append(walk(winner, left - 1, solver.finish(done, winner, left == 1, summary)))
                plays.extend(done)
            plays.pop()
            hands[seat] += 1 << (2 * card)
        return max(results) if solver.party[seat] == RE else min(results)

    return walk(pos.leader, pos.tricks_left, pos.summary)


def party_points(value: int) -> int:
    """Re's card points in a solver value (0-240)."""
    return value % SCALE


__all__ = ["KONTRA", "RE", "Position", "SCALE", "Solver", "minimax", "party_points", "solve", "split"]
