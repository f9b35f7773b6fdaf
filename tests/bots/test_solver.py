"""The exact endgame solver: hand-made positions with a known best line, agreement with plain
minimax on random endgames, and its scoring against the engine's own.

    DOPPELRUNDE_SOLVER_ENDGAMES=1000 pytest tests/bots/test_solver.py   # the full count
"""

from __future__ import annotations

import os
import random

import pytest

from app.bots.doppelkopf.solver import Position, Solver, minimax, solve, split
from app.bots.doppelkopf.values import DealValue, announcement_steps
from app.games.doppelkopf import GAME
from app.games.doppelkopf.cards import CARD_POINTS
from app.games.doppelkopf.contracts import card_order
from app.games.doppelkopf.state import KONTRA, RE
from app.games.doublehead_kids import GAME as KIDS
from tests.bots.endgames import position_of, random_endgame

ENDGAMES = int(os.environ.get("DOPPELRUNDE_SOLVER_ENDGAMES", "150"))
DDV = GAME.make_rules({})
NORMAL = card_order("normal", True)
PARTIES = (RE, KONTRA, RE, KONTRA)  # seats 0 and 2 are Re


def normal_position(hands, *, leader=0, trick=(), re_points, kontra_points, rules=DDV):
    """A normal game with Re at seats 0 and 2, both parties holding a trick already."""
    left = max(len(hand) for hand in hands)
    assert re_points + kontra_points + sum(CARD_POINTS[c] for h in hands for c in h) + sum(
        CARD_POINTS[c] for _, c in trick) == 240
    value = DealValue(rules, "normal", False, (-1, -1))
    return Position(NORMAL, rules, tuple(tuple(h) for h in hands), tuple(trick), leader, left,
                    PARTIES, (re_points, True, True, 0, 0), value)




def test_not_trumping_the_ace_wins_the_game_for_kontra():
    """Seat 3 (Kontra) may trump Re's ace of hearts with QD (18 points) but then must lead
    9C into Re's AC, TC and KC (25 points to Re, 125 in all: Re wins). Discarding 9C lets Re
    have the heart trick (15), and QD then trumps Re's AC in the last trick (28 to Kontra):
    Re ends with 115 and Kontra wins (won + against the elders)."""
    pos = normal_position(
        [["AC"], ["KC"], ["TC"], ["QD", "9C"]], leader=0,
        trick=((0, "AH"), (1, "9H"), (2, "KH")), re_points=100, kontra_points=97)
    values = {card: split(value) for card, value in solve(pos).items()}
    assert values == {"QD": (1, 125), "9C": (-2, 115)}
    assert Solver(pos).best_value() == min(solve(pos).values())


def test_charlie_needs_the_queen_of_clubs_first():
    """Re (seat 0) holds QC and JC, Kontra's QS is the only higher trump outside. QC first
    draws QS and JC takes the last trick: Charlie, both tricks (Re 136: won + Charlie = 2).
    JC first loses it to QS, and Kontra smears KH onto its own trick (Re 127: won = 1)."""
    pos = normal_position(
        [["QC", "JC"], ["QS", "9S"], ["9C", "KC"], ["9H", "KH"]], re_points=120,
        kontra_points=104)
    values = {card: split(value) for card, value in solve(pos).items()}
    assert values == {"QC": (2, 136), "JC": (1, 127)}


def test_a_caught_fox_and_charlie_in_the_last_trick():
    """The last trick: Re's JC beats Kontra's fox (AD): Re 143, won + Charlie + fox caught."""
    pos = normal_position([["JC"], ["AD"], ["9C"], ["9S"]], re_points=130, kontra_points=97)
    assert {card: split(v) for card, v in solve(pos).items()} == {"JC": (3, 143)}


def test_a_doppelkopf_trick():
    """AS, TS, AS, TS (42 points) won by the first ace, Re's: a Doppelkopf for Re."""
    pos = normal_position([["AS"], ["TS"], ["AS"], ["TS"]], re_points=100, kontra_points=98)
    assert {card: split(v) for card, v in solve(pos).items()} == {"AS": (2, 142)}


def test_the_fox_is_kept_out_of_the_opponents_trick():
    """Re led QC; Kontra (seat 1) must follow trump with the fox (AD) or 9D. The fox would be
    caught (Re 138: won + fox = 2); 9D keeps it, and AD then trumps Re's 9S in the last trick
    while seat 3 saves KH for it (Re 127: won = 1)."""
    pos = normal_position(
        [["9S"], ["AD", "9D"], ["9C", "KC"], ["9H", "KH"]], leader=0, trick=((0, "QC"),),
        re_points=120, kontra_points=98)
    values = {card: split(value) for card, value in solve(pos).items()}
    assert values == {"9D": (1, 127), "AD": (2, 138)}


def _agree(game, rules, seed: int, count: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        state = random_endgame(rules, rng, 3, game)
        pos = position_of(state)
        assert Solver(pos).best_value() == minimax(pos), state.to_json()
        values = solve(pos)
        best = max(values.values()) if pos.party[(pos.leader + len(pos.trick)) % 4] == RE else min(values.values())
        assert best == minimax(pos)


def test_solver_agrees_with_plain_minimax_on_random_three_trick_endgames():
    _agree(GAME, DDV, 1, ENDGAMES)


def test_agreement_under_house_rules_and_kids_coins():
    _agree(GAME, GAME.make_rules({"heart_ten_second_beats_first": True, "charlie_caught": True,
                                  "no_back_door": True, "re_kontra_doubles": True}), 2, ENDGAMES // 5)
    _agree(KIDS, KIDS.make_rules({"scoring": "advanced"}), 3, ENDGAMES // 5)


@pytest.mark.parametrize(("game", "raw"), [
    (GAME, {}), (GAME, {"charlie_caught": True, "no_back_door": True}),
    (GAME, {"re_kontra_doubles": True, "nines": False}),
    (KIDS, {}), (KIDS, {"scoring": "advanced"}),
])
def test_deal_value_scores_like_the_engine(game, raw):
    """A deal finished at random: the summary's score is the engine's score of every seat."""
    rules = game.make_rules(raw)
    rng = random.Random(7)
    for _ in range(60):
        state = random_endgame(rules, rng, 0, game)
        while state.phase == "play":
            legal = [a for a in game.legal_actions(state, state.to_move) if a["type"] == "play"]
            state, _ = game.apply(state, rng.choice(legal))
        if state.phase != "done" or state.contract == "redeal":
            continue
        pos = position_of(state)
        party = pos.party
        scores = game.outcome(state).scores
        re_score, kontra_score = pos.value.scores(pos.summary)
        for seat in range(4):
            assert scores[seat] == (re_score if party[seat] == RE else kontra_score), state.to_json()
        steps = announcement_steps(state.announcements, party)
        assert steps[RE] + steps[KONTRA] == len(state.announcements)
