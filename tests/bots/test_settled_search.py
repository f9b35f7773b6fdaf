"""The expert's card search stops once its choice is settled (app.bots.doppelkopf.search):
the sampled deals go to the close choices, not the clear ones."""

from __future__ import annotations

import random

from app.bots.doppelkopf import search
from app.bots.doppelkopf.search import CardSearch, Clock, settled
from app.bots.doppelkopf.table import Table
from tests.bots.test_doppelkopf_situations import situation


def samples(values_a, values_b, weights=None):
    weights = weights or [1.0] * len(values_a)
    return [(w, {"QC": a, "KS": b}) for w, a, b in zip(weights, values_a, values_b, strict=True)]


def test_a_card_that_leads_in_every_deal_is_settled():
    rng = random.Random(1)
    a = [rng.gauss(1.0, 0.3) for _ in range(16)]
    assert settled(samples(a, [x - 1.0 for x in a]), ["QC", "KS"], {})


def test_a_small_lead_in_noisy_deals_is_not_settled():
    rng = random.Random(2)
    a = [rng.gauss(0.0, 3.0) for _ in range(16)]
    b = [rng.gauss(0.0, 3.0) for _ in range(16)]
    assert not settled(samples(a, b), ["QC", "KS"], {})


def test_cards_that_score_alike_in_every_deal_are_settled_as_a_tie():
    """The same value in every deal: either card costs nothing against the other."""
    a = [float(i % 5) for i in range(16)]
    assert settled(samples(a, list(a)), ["QC", "KS"], {})


def test_the_bonus_counts_towards_the_lead():
    a = [0.0] * 15 + [3.0]  # the same mean as KS (0.1875), noisily
    b = [0.1875] * 16
    assert not settled(samples(a, b), ["QC", "KS"], {})
    assert settled(samples(a, b), ["QC", "KS"], {"QC": 5.0})


def test_a_deal_of_tiny_weight_hardly_counts():
    a, b = [1.0] * 16 + [-50.0], [0.0] * 17
    assert settled(samples(a, b, [1.0] * 16 + [1e-6]), ["QC", "KS"], {})
    assert not settled(samples(a, b), ["QC", "KS"], {})


def card_search(name: str):
    scenario, _state, _seat, view = situation(name)
    table = Table.from_view(view, scenario.rules)
    cards = [a["card"] for a in view["legal"] if a["type"] == "play"]
    return CardSearch(view, table, cards)


def test_a_search_stops_when_settled_and_only_then():
    settled_search = card_search("fox")
    settled_search.run(random.Random(3), Clock(60_000, 400), bonus={})
    full = card_search("fox")
    full.run(random.Random(3), Clock(60_000, 60))  # no bonus given: never stops early
    assert full.done == 60
    assert search.SETTLE_MIN_WORLDS <= settled_search.done < 400
    assert settled(settled_search.samples, settled_search.cards, {})
    assert settled_search.done % search.SETTLE_EVERY == 0
    earlier = settled_search.samples[:settled_search.done - search.SETTLE_EVERY]
    assert settled_search.done == search.SETTLE_MIN_WORLDS or not settled(
        earlier, settled_search.cards, {})


def test_near_ties_are_figures_of_the_games_own_unit():
    """Game points for Doppelkopf; golden coins for Doublehead Kids, where a basic round is won
    or lost (+1 or -1 against the other team): a near-tie there is a smaller figure."""
    from app.games.doppelkopf.rules import make_rules as doppelkopf_rules
    from app.games.doublehead_kids.rules import make_rules as kids_rules

    assert search.near_ties(doppelkopf_rules({})) == (search.PRIOR_BONUS, search.INDIFFERENT)
    for scoring in ("basic", "advanced"):
        assert search.near_ties(kids_rules({"scoring": scoring})) == search.KIDS_NEAR_TIES
    bonus, indifferent = search.KIDS_NEAR_TIES
    assert bonus < search.PRIOR_BONUS and indifferent < search.INDIFFERENT


def test_a_difference_inside_the_indifference_band_is_a_tie_and_outside_it_is_not():
    """Cards 0.2 apart either way in alternate deals (mean 0, two standard errors 0.1): a tie
    within 0.25 game points, not within the 0.08 golden coins of Doublehead Kids."""
    a = [0.2 if i % 2 else -0.2 for i in range(16)]
    b = [0.0] * 16
    assert settled(samples(a, b), ["QC", "KS"], {}, search.INDIFFERENT)
    assert not settled(samples(a, b), ["QC", "KS"], {}, search.KIDS_NEAR_TIES[1])
