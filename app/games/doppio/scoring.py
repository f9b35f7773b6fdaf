"""Round scores (penalty points), the round outcome and the match status.

Scores are penalties: lower is better. Each seat scores its hand value, except a Doppio
declarer: 0 on success, ``failure_penalty`` (20) + its hand value on failure. A caught card
still held at the end of the round is ignored.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.base import JSON, Event, MatchStatus, RoundOutcome, best_seats
from app.games.doppio.layout import hand_value
from app.games.doppio.rules import DoppioRules
from app.games.doppio.state import DoppioState


def round_scores(state: DoppioState) -> tuple[int, ...]:
    """Each seat's penalty for the finished round ``state``."""
    scores = [hand_value(hand) for hand in state.hands]
    call = state.doppio
    if call is not None:
        scores[call.seat] = 0 if call.success else state.rules.failure_penalty + call.hand_value
    return tuple(scores)


def round_details(state: DoppioState) -> JSON:
    """The outcome details: ``{"hands", "hand_values", "doppio", "end"}``.

    hands: each seat's final six cards [L3, L2, L1, R1, R2, R3]; hand_values: their values;
    doppio: ``{"seat", "success"}`` of the declaration or None; end: ``"doppio"`` or ``"deck"``.
    """
    call = state.doppio
    return {
        "hands": [list(hand) for hand in state.hands],
        "hand_values": [hand_value(hand) for hand in state.hands],
        "doppio": None if call is None else {"seat": call.seat, "success": call.success},
        "end": state.end,
    }


def round_outcome(state: DoppioState) -> RoundOutcome:
    """The outcome; for an unfinished round ``finished`` is False, scores 0 and no details."""
    if not state.over:
        return RoundOutcome(finished=False, scores=(0,) * state.players)
    return RoundOutcome(finished=True, scores=round_scores(state), details=round_details(state))


def round_end_event(state: DoppioState) -> Event:
    """The public event of the round's end: every hand is revealed for the scoring."""
    return {"type": "round_end", **round_details(state), "scores": list(round_scores(state))}


def match_status(rules: DoppioRules, players: int, outcomes: Sequence[RoundOutcome]) -> MatchStatus:
    """The match ends after the first finished round in which some seat's running total
    reaches ``game_end_total`` (100); the lowest total then wins, tied seats share."""
    running = [0] * players
    for outcome in outcomes:
        running = [total + score for total, score in zip(running, outcome.scores, strict=True)]
        if outcome.finished and max(running) >= rules.game_end_total:
            return MatchStatus(game_over=True, winners=best_seats(running, lowest=True))
    return MatchStatus(game_over=False)
