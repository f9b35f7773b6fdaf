"""The number shown for a rating (1500-based) and how many matches settle a provisional one
(app/ratings/display.py)."""

from __future__ import annotations

from app.ratings.display import matches_to_settle, shown
from app.ratings.model import PROVISIONAL_SIGMA, Rating


def test_a_new_player_shows_1500_and_a_point_of_ordinal_is_40():
    assert shown(Rating()) == 1500
    assert shown(Rating(26.0, 25 / 3)) == 1540
    assert shown(Rating(25.0, 25 / 3 + 1)) == 1380  # more doubt: a lower conservative number


def test_matches_to_settle_falls_as_the_rating_firms_up_and_is_zero_once_settled():
    new = matches_to_settle("doppelkopf", Rating())
    halfway = matches_to_settle("doppelkopf", Rating(25, (25 / 3 + PROVISIONAL_SIGMA) / 2))
    assert new > halfway > 0
    assert matches_to_settle("doppelkopf", Rating(25, PROVISIONAL_SIGMA - 0.01)) == 0
    # a rank game rates a match once (not deal by deal): it takes more matches to settle
    assert matches_to_settle("doppio", Rating()) > new
