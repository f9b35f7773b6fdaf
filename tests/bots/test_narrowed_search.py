"""The expert's card search starts from every playable card and narrows to the best few
(app.bots.doppelkopf.search, ``NARROW_AT`` and ``CANDIDATES``).

The situation (tests/scenarios/bots/doppelkopf_trump_in.json) is from the arena (seed 1, deal
269): seat 0, Kontra, void in hearts, third to a heart trick its partner led and the opponent
behind it holds; the intermediate's rules of thumb rank the discard of the ten of spades first
and the two high-scoring trumps (the ten and the ace of diamonds) last, so an expert that only
searched their best three could not find those."""

from __future__ import annotations

import random

from app.bots import get_bot
from app.bots.doppelkopf import search
from app.bots.doppelkopf.policy import card_values
from app.bots.doppelkopf.search import CANDIDATES, NARROW_AT, CardSearch, Clock
from app.bots.doppelkopf.table import Table
from tests.bots.test_doppelkopf_situations import situation


def trump_in():
    scenario, _state, seat, view = situation("trump_in")
    table = Table.from_view(view, scenario.rules)
    cards = [a["card"] for a in view["legal"] if a["type"] == "play"]
    return view, table, seat, cards


def test_the_intermediate_ranks_the_discard_first_and_the_high_trumps_last():
    _view, table, seat, cards = trump_in()
    values = card_values(table, seat, cards)
    ranked = sorted(cards, key=lambda c: -values[c])
    assert ranked[0] == "TS"
    assert {"TD", "AD"}.isdisjoint(ranked[:CANDIDATES])


def test_every_card_is_searched_on_the_first_deals_then_the_best_few():
    view, table, _seat, cards = trump_in()
    run = CardSearch(view, table, cards, keep=CANDIDATES)
    run.run(random.Random(4), Clock(60_000, NARROW_AT + 6))
    first, later = run.samples[:NARROW_AT], run.samples[NARROW_AT:]
    assert all(set(values) == set(cards) for _w, values in first)
    assert len(run.cards) == CANDIDATES and all(set(values) == set(run.cards) for _w, values in later)
    total = sum(w for w, _values in first)
    mean = {c: sum(w * values[c] for w, values in first) / total for c in cards}
    assert min(mean[c] for c in run.cards) >= max(mean[c] for c in cards if c not in run.cards)


def test_a_search_without_keep_searches_every_card_to_the_end():
    view, table, _seat, cards = trump_in()
    run = CardSearch(view, table, cards)
    run.run(random.Random(4), Clock(60_000, NARROW_AT + 2))
    assert run.cards == cards and set(run.samples[-1][1]) == set(cards)


def test_the_expert_searches_every_card_and_trumps_in(monkeypatch):
    view, _table, _seat, cards = trump_in()
    given = []
    original = search.CardSearch.__init__

    def record(self, view, table, cards, *args, **kwargs):
        given.append(list(cards))
        original(self, view, table, cards, *args, **kwargs)

    monkeypatch.setattr(search.CardSearch, "__init__", record)
    bot = get_bot("doppelkopf", "expert", budget_ms=60_000, worlds=40)
    chosen = [bot.choose(view, random.Random(seed))["card"] for seed in range(3)]
    assert all(sorted(cards_given) == sorted(cards) for cards_given in given) and given
    assert all(card not in ("TS", "AS") for card in chosen), chosen  # a trump, not a discard


def test_a_short_budget_narrows_once_half_of_it_is_used():
    """On a slow core or a short clock the best few still get the rest of the time."""
    view, table, _seat, cards = trump_in()
    run = CardSearch(view, table, cards, keep=CANDIDATES)
    run.run(random.Random(4), Clock(0, 400))
    assert run.done == search.MIN_WORLDS < NARROW_AT
    assert len(run.cards) == CANDIDATES
