"""Round scoring of Doppelganger Tricks, and who wins the match.

Bid of 1 or more: exact 3 points, off by one 1 point, otherwise 0. Bid of 0: exact 7 points,
otherwise 0. Then the bonus cards: the star +1 whatever the bid, the eye +3 if the bid is exact.
A match has as many rounds as players; the highest total wins and tied seats share the victory.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.base import JSON, MatchStatus, RoundOutcome, Seat, best_seats, totals
from app.games.doppelganger_tricks.cards import names
from app.games.doppelganger_tricks.state import Bonus, RoundState

EXACT_POINTS = 3
OFF_BY_ONE_POINTS = 1
ZERO_BID_POINTS = 7
STAR_POINTS = 1
EYE_POINTS = 3


def bid_points(bid: int, tricks: int) -> int:
    """Points for a bid of ``bid`` tricks when the seat won ``tricks`` tricks."""
    if bid == 0:
        return ZERO_BID_POINTS if tricks == 0 else 0
    miss = abs(bid - tricks)
    if miss == 0:
        return EXACT_POINTS
    return OFF_BY_ONE_POINTS if miss == 1 else 0


def bonus_points(bonus: Bonus | None, bid: int, tricks: int) -> int:
    """Points of the bonus card a seat holds (None: no card): star +1, eye +3 if exact."""
    if bonus is Bonus.STAR:
        return STAR_POINTS
    if bonus is Bonus.EYE and bid == tricks:
        return EYE_POINTS
    return 0


def tricks_won(state: RoundState) -> list[int]:
    """Per seat, the completed tricks it won (void tricks count for nobody)."""
    won = [0] * state.players
    for trick in state.tricks:
        if trick.winner is not None:
            won[trick.winner] += 1
    return won


def round_scores(state: RoundState) -> tuple[int, ...]:
    """Per seat, bid points plus bonus points. Requires every bid to be in."""
    won = tricks_won(state)
    scores = []
    for seat, bid in enumerate(state.bids):
        if bid is None:
            raise ValueError(f"seat {seat} has not bid")
        scores.append(bid_points(bid, won[seat]) + bonus_points(state.bonus_of(seat), bid, won[seat]))
    return tuple(scores)


def outcome_details(state: RoundState) -> JSON:
    """``bids``, ``tricks_won``, ``bonus`` ({"star": seat|null, "eye": seat|null}),
    ``annihilations`` (list of {"trick": index, "cards": [names in play order]}) and
    ``void_tricks`` (tricks nobody won). Trick indices count every completed trick from 0.
    """
    return {
        "bids": list(state.bids),
        "tricks_won": tricks_won(state),
        "bonus": {"star": state.star, "eye": state.eye},
        "annihilations": [
            {"trick": index, "cards": names(list(trick.annihilated))}
            for index, trick in enumerate(state.tricks)
            if trick.annihilated
        ],
        "void_tricks": sum(1 for trick in state.tricks if trick.winner is None),
    }


def match_status(players: int, outcomes: Sequence[RoundOutcome]) -> MatchStatus:
    """Over once ``players`` rounds are finished; the winners are the seats with the highest
    total (ties share). Rounds marked ``redeal`` or unfinished do not count towards the length.
    """
    counted = [outcome for outcome in outcomes if outcome.finished and not outcome.redeal]
    if len(counted) < players:
        return MatchStatus(game_over=False)
    winners: tuple[Seat, ...] = best_seats(totals(counted, players))
    return MatchStatus(game_over=True, winners=winners)
