"""Rating real engine outcomes: replayed scenario files, as the room will pass them."""

from __future__ import annotations

import pytest

from app.ratings.model import Person, Rating, rate_match

NEW = Rating()


def finished(outcome: dict) -> dict:
    # a scenario file is one or a few deals, not a whole match: mark it over for rating
    return {**outcome, "game_over": True}


def test_replayed_lost_heart_solo_costs_the_soloist_what_a_win_would_pay(replay_file):
    outcome = replay_file("doppelkopf/example_solo_hearts.json")
    assert outcome["rounds"][0]["details"]["parties"] == {"re": [3], "kontra": [0, 1, 2]}
    seats = [Person(f"p{seat}", NEW) for seat in range(4)]
    new = rate_match("doppelkopf", seats, finished(outcome))
    assert new["p3"].mu == pytest.approx(25.0 - 2.6354, abs=1e-3)
    for opponent in ("p0", "p1", "p2"):
        assert new[opponent].mu == pytest.approx(25.0 + 2.6354 / 3, abs=1e-3)


def test_replayed_wedding_is_rated_by_the_party_that_gained(replay_file):
    outcome = replay_file("doppelkopf/example_wedding.json")
    round_ = outcome["rounds"][0]
    re, kontra = round_["details"]["parties"]["re"], round_["details"]["parties"]["kontra"]
    gained = re if round_["scores"][re[0]] > 0 else kontra
    seats = [Person(f"p{seat}", NEW) for seat in range(4)]
    new = rate_match("doppelkopf", seats, finished(outcome))
    assert {int(p[1:]) for p in new if new[p].mu > NEW.mu} == set(gained)
