"""The expert announces when the gain over its sampled deals clears the margin with room for
the noise of those deals (app.bots.doppelkopf.search.CardSearch.wants_announcement)."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.bots import get_bot
from app.bots.doppelkopf import search
from app.bots.doppelkopf.search import CardSearch, weighted_mean_error
from app.bots.doppelkopf.table import Table
from app.games.doppelkopf import GAME
from app.games.doppelkopf.cards import deck
from tests.bots.test_doppelkopf_situations import situation

values = st.floats(min_value=-20, max_value=20, allow_nan=False)


@given(st.lists(values, min_size=2, max_size=40))
def test_equal_weights_give_the_plain_mean_and_its_standard_error(draws):
    mean, error = weighted_mean_error([1.0] * len(draws), draws)
    assert mean == pytest.approx(statistics.fmean(draws), abs=1e-9)
    assert error == pytest.approx(math.sqrt(statistics.pvariance(draws) / len(draws)), abs=1e-9)


@given(st.lists(st.tuples(st.floats(min_value=0.01, max_value=5), values), min_size=2, max_size=40),
       st.floats(min_value=0.1, max_value=100))
def test_scaling_every_weight_changes_nothing(pairs, scale):
    weights = [w for w, _d in pairs]
    draws = [d for _w, d in pairs]
    mean, error = weighted_mean_error(weights, draws)
    scaled = weighted_mean_error([w * scale for w in weights], draws)
    assert scaled == pytest.approx((mean, error), abs=1e-6)


def test_a_deal_of_tiny_weight_hardly_counts():
    mean, error = weighted_mean_error([1.0, 1.0, 1e-9], [2.0, 2.0, -100.0])
    assert mean == pytest.approx(2.0, abs=1e-6)
    assert error < 0.01


def test_weights_that_sum_to_nothing_are_refused():
    with pytest.raises(ValueError, match="more than zero"):
        weighted_mean_error([0.0, 0.0], [1.0, 2.0])


def searched(draws: list[float]) -> tuple[CardSearch, str]:
    """A card search whose announcement gained ``draws`` (game points) in equally weighted deals."""
    scenario, _state, _seat, view = situation("fox")
    table = Table.from_view(view, scenario.rules)
    card = next(a["card"] for a in view["legal"] if a["type"] == "play")
    found = CardSearch(view, table, [card], [{"type": "announce", "value": "re"}])
    found.samples = [(1.0, {}) for _ in draws]
    found.weight = float(len(draws))
    found.done = len(draws)
    found.gains[card, 0] = sum(draws)
    found.gain_draws[card, 0] = list(draws)
    return found, card


def test_a_sure_gain_is_announced(monkeypatch):
    monkeypatch.setattr(search, "ANNOUNCE_Z", 1.0)
    found, card = searched([1.0] * 12)
    assert found.wants_announcement(card)


def test_a_gain_that_a_few_lucky_deals_make_is_not_announced(monkeypatch):
    """The same mean gain of 1 game point, from deals that won 3 or lost 1: the standard error
    (2 / sqrt(12), about 0.58) leaves less than the margin (0.6)."""
    found, card = searched([3.0, -1.0] * 6)
    monkeypatch.setattr(search, "ANNOUNCE_Z", 1.0)
    assert not found.wants_announcement(card)
    monkeypatch.setattr(search, "ANNOUNCE_Z", 0.0)
    assert found.wants_announcement(card)


def test_too_few_deals_announce_nothing():
    found, card = searched([2.0] * (search.ANNOUNCE_MIN_WORLDS - 1))
    assert not found.wants_announcement(card)


STRONG_RE = ["QC", "TH", "TH", "QS", "QS", "QH", "QH", "JC", "JC", "AD", "AD", "JS"]


def test_the_expert_announces_re_with_an_overwhelming_hand():
    rules = GAME.make_rules({})
    rest = deck(rules.nines)
    for card in STRONG_RE:
        rest.remove(card)
    random.Random(4).shuffle(rest)
    state = GAME.new_round(rules, 4, [rest[:12], STRONG_RE, rest[12:24], rest[24:36]], [], 0)
    while state.phase == "declare":
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, {"seat": seat, "type": "declare", "value": "healthy"})
    view = GAME.view(state, 1)
    assert view["to_move"] == 1 and any(a["type"] == "announce" for a in view["legal"])
    action = get_bot("doppelkopf", "expert", budget_ms=5000, worlds=24).choose(view, random.Random(0))
    assert action == {"seat": 1, "type": "announce", "value": "re"}
