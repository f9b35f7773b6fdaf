"""Ratings as people read them: one number per game on a familiar scale, and how far a
provisional rating is from settled (docs/ratings.md, "The number shown").

- :func:`shown` — the conservative rating (mu − 3σ, openskill's ordinal, which leaderboards sort
  by) on a 1500-based scale: ``1500 + 40 · ordinal``, rounded. A new player (25 ± 8.33,
  ordinal 0) shows 1500; one rated point of mu is 40 on this scale.
- :func:`matches_to_settle` — about how many more rated matches until the rating stops being
  provisional (sigma under ``PROVISIONAL_SIGMA``), assuming even matches against opponents of
  the player's own rating: the model's own updates are run forward, not guessed.
- :func:`matches_left` — the one count every page shows ("provisional — N more matches"):
  a new player's :func:`matches_to_settle` less the rated matches already played, so the
  profile and the leaderboard's "about N rated matches for a new player" always add up.
"""

from __future__ import annotations

from functools import lru_cache

from app.ratings.model import (
    PARTY_GAMES,
    PROVISIONAL_SIGMA,
    Person,
    Rating,
    is_provisional,
    rate_match,
)

#: the scale: a new player's number, and the points per unit of openskill ordinal
BASE, SCALE = 1500, 40
#: the deals of a match when estimating a party game (the New Game default)
DEALS_PER_MATCH = 4
#: at most this many matches are counted (a rating that never settles says "many")
MOST = 99


def shown(rating: Rating) -> int:
    """The one number shown for ``rating``: ``1500 + 40 · (mu − 3σ)``, rounded."""
    return round(BASE + SCALE * rating.ordinal)


def _even_match(game: str, rating: Rating, won: bool) -> Rating:
    """``rating`` after one match against three opponents of the same rating, won or lost."""
    seats = [Person(i, rating) for i in range(4)]
    if game in PARTY_GAMES:
        sign = 1 if won else -1
        rounds = [{"finished": True, "scores": [sign, sign, -sign, -sign],
                   "details": {"parties": {"re": [0, 1], "kontra": [2, 3]}}}] * DEALS_PER_MATCH
        outcome = {"rounds": rounds, "totals": [0] * 4, "game_over": True}
    else:
        totals = [3, 2, 1, 0] if won else [0, 1, 2, 3]
        outcome = {"rounds": [], "totals": totals, "game_over": True}
    return rate_match(game, seats, outcome)[0]


@lru_cache(maxsize=4096)
def _settle(game: str, mu: float, sigma: float) -> int:
    rating, count = Rating(mu, sigma), 0
    while is_provisional(rating) and count < MOST:
        rating = _even_match(game, rating, won=count % 2 == 0)
        rating = Rating(mu, rating.sigma)  # only the uncertainty matters here
        count += 1
    return count


def matches_to_settle(game: str, rating: Rating) -> int:
    """About how many more rated matches of ``game`` until ``rating`` is settled (0 when it
    is); at most MOST. Rounded to one decimal of sigma for the cache."""
    if rating.sigma < PROVISIONAL_SIGMA:
        return 0
    return _settle(game, 25.0, round(rating.sigma, 1))


def matches_left(game: str, rating: Rating, rated_matches: int) -> int:
    """How many more rated matches a provisional ``rating`` is shown to need: a new player's
    :func:`matches_to_settle` less ``rated_matches`` (only rated matches count: the ratings
    row's ``matches``), at least 1 while the rating is still provisional, 0 once it is not."""
    if not is_provisional(rating):
        return 0
    return max(1, matches_to_settle(game, Rating()) - rated_matches)
