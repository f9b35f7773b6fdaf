"""A hand with both queens of clubs: every level chooses deliberately between the wedding and
the silent solo (``healthy`` with both QC is a silent solo, issue 18)."""

from __future__ import annotations

import random

import pytest

from app.bots import get_bot
from app.bots.doppelkopf.policy import two_queens_declaration
from app.bots.doppelkopf.search import contract_table
from app.games.doppelkopf import GAME
from app.games.doppelkopf.cards import deck
from app.games.doppelkopf.state import KONTRA, RE

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


def test_a_silent_solo_is_hidden_from_the_others_until_its_second_queen():
    """The playout simulator (app/bots/doppelkopf/table.py) as the engine's views have it: the
    others play a silent solo as a normal game (foxes, Charlie and Doppelkopf tricks count for
    them) until the soloist's second queen of clubs shows the solo to everyone."""
    rules = GAME.make_rules({})
    rest = deck(rules.nines)
    for card in STRONG:
        rest.remove(card)
    hands = [rest[:12], list(STRONG), rest[12:24], rest[24:36]]
    table = contract_table(rules, 0, 1, hands, "healthy")
    assert table.contract == "silent_solo" and table.declarer == 1
    others = (0, 2, 3)
    assert not table.team_as_known(1) and all(table.team_as_known(s) for s in others)
    shown: list[list[int | None]] = []
    for _ in range(2):  # each queen of clubs led by the soloist, the others follow
        table.leader = table.to_move = 1
        table.play(1, "QC")
        for seat in (2, 3, 0):
            table.play(seat, table.playable(seat)[0])
        shown.append(list(table.known[0]))
    assert shown[0][1] == RE and shown[0][2] is None  # one queen: seat 1 is Re, the rest unknown
    assert shown[1] == table.party == [KONTRA, RE, KONTRA, KONTRA]
    assert not any(table.team_as_known(s) for s in range(4))
