"""Every bot move is legal: 500 random rounds per game and level (beginner, intermediate), and
a few with the expert on a tiny budget. The rounds vary the rules (Doppelkopf presets with
poverty, swines, solos) so that every phase is met."""

from __future__ import annotations

import pytest

from app.games.doppelkopf import GAME as DOPPELKOPF
from tests.bots.play import play_round

DOPPELKOPF_RULES = [
    {"preset": "ddv"},
    {"preset": "gametwist_pub"},
    {"preset": "ddv", "poverty": True, "swines": True, "heart_ten_second_beats_first": True},
    {"preset": "ddv", "nines": False, "poverty": True, "extra_solos": True},
    {"preset": "ddv", "wedding_clarification": "first_trump", "solo_leads": "soloist"},
]
GAMES = {
    "doppelkopf": DOPPELKOPF_RULES,
    "doublehead_kids": [{"preset": "basic"}, {"preset": "advanced", "announcements": True}],
    "doppelganger_tricks": [{}],
    "doppio": [{}],
}


@pytest.mark.parametrize("level", ["beginner", "intermediate"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_is_legal_in_500_rounds(game, level):
    rule_sets = GAMES[game]
    decisions = 0
    contracts = set()
    for seed in range(500):
        state, made = play_round(game, level, seed, rule_sets[seed % len(rule_sets)])
        decisions += made
        contracts.add(getattr(state, "contract", None))
    assert decisions > 500 * 8
    if game == "doppelkopf" and level == "intermediate":
        assert {"normal", "wedding", "poverty"} <= contracts
        assert any(str(c).startswith("solo_") for c in contracts)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_expert_moves_are_legal(game):
    rule_sets = GAMES[game]
    for seed in range(12):
        play_round(game, "expert", seed, rule_sets[seed % len(rule_sets)], budget_ms=5, worlds=3)


def test_doppelkopf_rules_sets_are_valid():
    for raw in DOPPELKOPF_RULES:
        DOPPELKOPF.make_rules(raw)
