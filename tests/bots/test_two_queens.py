"""A hand with both queens of clubs: every level chooses deliberately between the wedding and
the silent solo (``healthy`` with both QC is a silent solo, issue 18)."""

from __future__ import annotations

import random

import pytest

from app.bots import get_bot
from app.bots.doppelkopf.policy import two_queens_declaration
from app.games.doppelkopf import GAME
from app.games.doppelkopf.cards import deck

WEAK = ["QC", "QC", "9C", "9C", "KC", "9S", "9S", "KS", "9H", "KH", "9D", "KD"]
STRONG = ["QC", "QC", "TH", "TH", "QS", "QS", "QH", "JC", "JS", "AD", "AD", "AC"]


def view_with(hand: list[str], raw: dict | None = None) -> dict:
    """Seat 1's view at its declaration (first to declare), holding ``hand``."""
    rules = GAME.make_rules(raw or {})
    rest = deck(rules.nines)
    for card in hand:
        rest.remove(card)
    random.Random(1).shuffle(rest)
    deal = [rest[:12], hand, rest[12:24], rest[24:36]]
    state = GAME.new_round(rules, 4, deal, [], 0)
    return GAME.view(state, 1)


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_a_weak_hand_with_both_queens_announces_the_wedding(level):
    view = view_with(WEAK)
    action = get_bot("doppelkopf", level, budget_ms=2000, worlds=24).choose(view, random.Random(0))
    assert action == {"seat": 1, "type": "declare", "value": "wedding"}


@pytest.mark.parametrize("level", ["beginner", "intermediate"])
def test_a_strong_hand_with_both_queens_plays_the_silent_solo(level):
    view = view_with(STRONG)
    action = get_bot("doppelkopf", level).choose(view, random.Random(0))
    assert action == {"seat": 1, "type": "declare", "value": "healthy"}


def test_the_expert_weighs_wedding_against_silent_solo():
    view = view_with(STRONG)
    action = get_bot("doppelkopf", "expert", budget_ms=3000, worlds=24).choose(view, random.Random(0))
    assert action["value"] in ("healthy", "wedding") or action["value"].startswith("solo_")


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_without_a_wedding_on_offer_both_queens_mean_the_silent_solo(level):
    view = view_with(WEAK, {"wedding": False})
    action = get_bot("doppelkopf", level, budget_ms=2000, worlds=12).choose(view, random.Random(0))
    assert action["value"] == "healthy"


def test_the_choice_needs_both_queens():
    with pytest.raises(ValueError):
        two_queens_declaration(["QC", "9C"], ["healthy", "wedding"], True)
    assert two_queens_declaration(WEAK, ["healthy", "wedding"], True) == "wedding"
    assert two_queens_declaration(STRONG, ["healthy", "wedding"], True) == "healthy"
