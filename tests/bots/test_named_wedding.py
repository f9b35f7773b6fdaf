"""A wedding that names its partner (Doublehead Kids): the expert's search plays the wedding
with the partner the bots name (opposite), known to all from the first trick, and the
analysis values every partner the bride could name."""

from __future__ import annotations

import random

import pytest

from app.bots import get_bot
from app.bots.doppelkopf import search
from app.bots.doppelkopf.sampling import random_hands
from app.games.doppelkopf.cards import deck
from app.games.doppelkopf.state import KONTRA, RE
from app.games.doublehead_kids import GAME

WEAK = ["QC", "QC", "9C", "9C", "KC", "9S", "9S", "KS", "9H", "KH", "9D", "KD"]
RULES = GAME.make_rules({})


def round_with(hand: list[str]):
    """A Kids round dealt by seat 0 with ``hand`` for seat 1 (who declares first)."""
    rest = deck(True)
    for card in hand:
        rest.remove(card)
    random.Random(1).shuffle(rest)
    return GAME.new_round(RULES, 4, [rest[:12], hand, rest[12:24], rest[24:36]], [], 0)


def naming_view() -> dict:
    """Seat 1's view when it has declared its wedding and names the partner."""
    state, _ = GAME.apply(round_with(WEAK), {"seat": 1, "type": "declare", "value": "wedding"})
    while state.phase == "declare":
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, {"seat": seat, "type": "declare", "value": "healthy"})
    assert state.phase == "wedding_partner"
    return GAME.view(state, 1)


@pytest.mark.parametrize("partner", [0, 2, 3])
def test_a_named_partner_is_on_the_bride_s_team_from_the_first_trick(partner):
    hands = random_hands(True, WEAK, 1, random.Random(3))
    table = search.contract_table(RULES, 0, 1, hands, "wedding", partner)
    assert table.clarified and table.bride == 1
    assert [table.party[s] == RE for s in range(4)] == [s in (1, partner) for s in range(4)]
    assert all(table.party[s] == KONTRA for s in range(4) if s not in (1, partner))


def test_without_a_partner_the_wedding_is_found_by_the_tricks():
    hands = random_hands(True, WEAK, 1, random.Random(3))
    table = search.contract_table(RULES, 0, 1, hands, "wedding")
    assert not table.clarified
    assert table.party == [None, RE, None, None]


def test_the_wedding_is_valued_with_the_partner_the_bots_name_on_the_same_deals():
    view = GAME.view(round_with(WEAK), 1)
    declared = search.declaration_values(view, RULES, random.Random(5), search.Clock(10 ** 6, 12),
                                         ["wedding"])
    partners = search.partner_values(naming_view(), RULES, random.Random(5), search.Clock(10 ** 6, 12))
    assert sorted(partners) == [0, 2, 3]
    assert declared["wedding"] == pytest.approx(partners[3])  # seat 1 names seat 3, opposite


@pytest.mark.parametrize("level", ["intermediate", "expert"])
def test_the_intermediate_and_the_expert_name_the_partner_opposite(level):
    action = get_bot("doublehead_kids", level, budget_ms=10 ** 6, worlds=8).choose(naming_view(), random.Random(0))
    assert action == {"seat": 1, "type": "wedding_partner", "partner": 3}


def test_the_analysis_values_every_partner_the_bride_could_name():
    from app.bots.doppelkopf.evaluate import evaluate

    values = evaluate(naming_view(), RULES, 10 ** 6, worlds=8, rng=random.Random(2))
    partners = search.partner_values(naming_view(), RULES, random.Random(2), search.Clock(10 ** 6, 8))
    assert values == {f"wedding_partner:{p}": partners[p] for p in (0, 2, 3)}
