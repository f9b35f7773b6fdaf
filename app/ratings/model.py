"""Ratings per game with openskill's Plackett-Luce model (docs/ratings.md explains the choices).

Pure: no I/O, no clock. The caller (the room, once a match is over) loads each person's current
:class:`Rating` for the match's game, calls :func:`rate_match`, and stores what comes back.

- Doppelkopf and Doublehead Kids are rated deal by deal, in the order played, once the whole
  match has finished. A deal with two against two (normal game, Hochzeit — wedding, Armut —
  poverty) rates two teams of two by which party gained game points. A deal with one against
  three (a solo, a silent solo, a wedding without partner) is rated by the *soloist model*:
  the soloist against the average opponent, each opponent with a third of the weight.
- Doppelganger Tricks and Doppio are rated once per match by the rank order of the totals;
  Doppio totals are penalties, so lower is better. Equal totals share a rank.
- Computer players take part with the fixed, published rating of their level
  (:data:`BOT_RATINGS`) and are never updated.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

from openskill.models import PlackettLuce, PlackettLuceRating

PlayerId: TypeAlias = Hashable

#: The openskill model every game uses, with openskill's default parameters:
#: mu 25, sigma 25/3, beta 25/6, tau 25/300 (tau keeps sigma from collapsing to zero).
MODEL = PlackettLuce()

#: A person is provisional while their sigma (the rating's uncertainty) is at or above this.
#: From the default 8.33, about 30 normal Doppelkopf deals between equal players bring
#: sigma under 5 (docs/ratings.md has the measured counts per game).
PROVISIONAL_SIGMA = 5.0

#: z in the conservative rating (ordinal) mu - z * sigma, as on the leaderboards.
ORDINAL_Z = 3.0

#: Games rated deal by deal by Re and Kontra parties.
PARTY_GAMES = frozenset({"doppelkopf", "doublehead_kids"})
#: Games rated once per match by the rank order of the totals: True when lower is better.
RANK_GAMES: dict[str, bool] = {"doppelganger_tricks": False, "doppio": True}

#: Weight of the evidence a solo gives about each of the three opponents (the soloist gets 1).
SOLO_OPPONENT_WEIGHT = 1.0 / 3.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and uncertainty ``sigma`` (openskill units; a new
    person starts at mu 25, sigma 25/3)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma (openskill's ``ordinal``): the skill the
        person has with 99.7 % certainty. Leaderboards sort by it."""
        return _to_openskill(self).ordinal(z=ORDINAL_Z)

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional: sigma >= :data:`PROVISIONAL_SIGMA`."""
        return is_provisional(self)


def is_provisional(rating: Rating) -> bool:
    """A person is provisional until the rating's sigma falls under :data:`PROVISIONAL_SIGMA`."""
    return rating.sigma >= PROVISIONAL_SIGMA


class BotLevel(StrEnum):
    """The computer players' skill levels (strategies in app/bots/, not delays)."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    EXPERT = "expert"


#: The published, fixed rating of each computer level, the same in every game. Used when a bot
#: sits at a rated table and to pick the bot level that fills a matchmaking table. Never updated
#: by play; recalibrate by hand (docs/ratings.md) and publish the change.
BOT_RATINGS: dict[BotLevel, Rating] = {
    BotLevel.BEGINNER: Rating(mu=17.0, sigma=2.0),
    BotLevel.INTERMEDIATE: Rating(mu=25.0, sigma=2.0),
    BotLevel.EXPERT: Rating(mu=33.0, sigma=2.0),
}


def nearest_bot_level(mu: float) -> BotLevel:
    """The computer level whose published mu is closest to ``mu`` (a tie goes to the weaker)."""
    return min(BOT_RATINGS, key=lambda level: (abs(BOT_RATINGS[level].mu - mu), BOT_RATINGS[level].mu))


@dataclass(frozen=True, slots=True)
class Person:
    """A seat held by a person: their id and their rating in this game before the match."""

    player: PlayerId
    rating: Rating = Rating()


@dataclass(frozen=True, slots=True)
class Bot:
    """A seat held by a computer player of ``level``; its rating is the published one."""

    level: BotLevel

    @property
    def rating(self) -> Rating:
        return BOT_RATINGS[self.level]


Participant: TypeAlias = Person | Bot


class NotRated(ValueError):
    """rate_match was asked to rate a match that is not rated; ``str(err)`` says why."""


def unrated_reason(seats: Sequence[Participant], outcome: Mapping[str, Any]) -> str | None:
    """Why a match is not rated, or None when it is.

    Only matches that finished (``outcome["game_over"]`` is true: the rules' end condition was
    met, not an abandoned or aborted match) with at least two people (bots do not count) are
    rated. ``outcome`` is the match outcome in the scenario format (rounds, totals, game_over).
    """
    people = [seat for seat in seats if isinstance(seat, Person)]
    if len(people) < 2:
        return f"needs at least two people, has {len(people)}"
    if len({person.player for person in people}) != len(people):
        return "a person holds two seats"
    if outcome.get("game_over") is not True:
        return "the match did not finish"
    return None


def is_rated(seats: Sequence[Participant], outcome: Mapping[str, Any]) -> bool:
    """Whether :func:`rate_match` rates this match (see :func:`unrated_reason`)."""
    return unrated_reason(seats, outcome) is None


def rate_match(
    game: str, seats: Sequence[Participant], outcome: Mapping[str, Any]
) -> dict[PlayerId, Rating]:
    """Return each person's new rating after a finished match of ``game``.

    seats: who sat where, seat 0 first, each with the rating before the match.
    outcome: the match outcome in the scenario format: ``rounds`` (each with ``finished``,
        ``scores`` per seat, ``details``, optional ``redeal``), ``totals`` and ``game_over``.

    Doppelkopf family: each finished, non-void deal is rated in order, each starting from the
    ratings the previous deal produced. Rank-order games: one update from ``totals``.
    Bots keep their published rating throughout and are not in the result.

    Raises NotRated (see :func:`unrated_reason`), and ValueError for an unknown game or an
    outcome whose scores do not have one entry per seat.
    """
    reason = unrated_reason(seats, outcome)
    if reason is not None:
        raise NotRated(reason)
    ratings = [seat.rating for seat in seats]
    if game in PARTY_GAMES:
        for index, round_ in enumerate(outcome.get("rounds", [])):
            if not round_.get("finished") or round_.get("redeal"):
                continue
            scores = _scores(round_.get("scores"), len(seats), f"rounds[{index}].scores")
            updated = rate_deal(ratings, scores, round_.get("details") or {})
            ratings = [_keep_bots(seat, new) for seat, new in zip(seats, updated, strict=True)]
    elif game in RANK_GAMES:
        totals = _scores(outcome.get("totals"), len(seats), "totals")
        ratings = rate_ranking(ratings, totals, lower_is_better=RANK_GAMES[game])
    else:
        raise ValueError(f"no rating rules for game {game!r}")
    return {
        seat.player: rating
        for seat, rating in zip(seats, ratings, strict=True)
        if isinstance(seat, Person)
    }


def rate_deal(
    ratings: Sequence[Rating], scores: Sequence[float], details: Mapping[str, Any]
) -> list[Rating]:
    """Rate one Doppelkopf or Doublehead Kids deal; return every seat's new rating.

    The parties come from ``details["parties"]`` ({"re": [seats], "kontra": [seats]}). The
    party that gained won: the one whose seats scored more on average this deal (equal: a
    draw). Two against two: openskill on two teams. One against three: :func:`rate_solo`.
    Without parties (an outcome that does not name them) the seats are ranked by their
    scores, each on its own.
    """
    parties = details.get("parties")
    if not parties:
        return rate_ranking(ratings, scores, lower_is_better=False)
    re = list(parties["re"])
    kontra = list(parties["kontra"])
    if sorted(re + kontra) != list(range(len(ratings))):
        raise ValueError(f"parties {parties!r} do not cover the {len(ratings)} seats once each")
    re_average = sum(scores[seat] for seat in re) / len(re)
    kontra_average = sum(scores[seat] for seat in kontra) / len(kontra)
    re_rank = 0 if re_average >= kontra_average else 1
    kontra_rank = 0 if kontra_average >= re_average else 1
    result = list(ratings)
    if len(re) == 1 or len(kontra) == 1:
        soloist, opponents = (re[0], kontra) if len(re) == 1 else (kontra[0], re)
        soloist_rank = re_rank if len(re) == 1 else kontra_rank
        opponents_rank = kontra_rank if len(re) == 1 else re_rank
        new_soloist, new_opponents = rate_solo(
            ratings[soloist],
            [ratings[seat] for seat in opponents],
            soloist_won=soloist_rank < opponents_rank,
            draw=soloist_rank == opponents_rank,
        )
        result[soloist] = new_soloist
        for seat, new in zip(opponents, new_opponents, strict=True):
            result[seat] = new
        return result
    teams = _rate([[ratings[s] for s in re], [ratings[s] for s in kontra]], [re_rank, kontra_rank])
    for seat, new in zip(re, teams[0], strict=True):
        result[seat] = new
    for seat, new in zip(kontra, teams[1], strict=True):
        result[seat] = new
    return result


def rate_solo(
    soloist: Rating, opponents: Sequence[Rating], *, soloist_won: bool, draw: bool = False
) -> tuple[Rating, list[Rating]]:
    """Rate a deal of one against several (a solo): return the soloist's and each opponent's
    new rating.

    Not a team of one against a team with summed skill: that model expects three players to
    beat one almost surely, so a lost solo would cost the soloist nearly nothing and a won one
    would pay a windfall. In Doppelkopf the soloist picks the solo for a hand that should win
    it, so a solo is roughly even between equal players. The model (docs/ratings.md):

    - the soloist plays a one-against-one game against the *average opponent*, a rating with
      the opponents' mean mu and root-mean-square sigma;
    - each opponent plays a one-against-one game against the soloist, applied with weight
      :data:`SOLO_OPPONENT_WEIGHT` (a third: three opponents share the one result), to both
      mu and variance.
    All updates start from the ratings before the deal.
    """
    if not opponents:
        raise ValueError("a solo needs at least one opponent")
    ranks = [0, 0] if draw else ([0, 1] if soloist_won else [1, 0])
    average = Rating(
        mu=sum(o.mu for o in opponents) / len(opponents),
        sigma=math.sqrt(sum(o.sigma**2 for o in opponents) / len(opponents)),
    )
    new_soloist = _rate([[soloist], [average]], ranks)[0][0]
    new_opponents = []
    for opponent in opponents:
        full = _rate([[opponent], [soloist]], [ranks[1], ranks[0]])[0][0]
        new_opponents.append(_blend(opponent, full, SOLO_OPPONENT_WEIGHT))
    return new_soloist, new_opponents


def rate_ranking(
    ratings: Sequence[Rating], values: Sequence[float], *, lower_is_better: bool
) -> list[Rating]:
    """Rate a free-for-all by the rank order of ``values`` (one per seat); equal values share
    a rank. ``lower_is_better`` for penalty points (Doppio)."""
    ranks = competition_ranks(values, lower_is_better=lower_is_better)
    teams = _rate([[rating] for rating in ratings], ranks)
    return [team[0] for team in teams]


def competition_ranks(values: Sequence[float], *, lower_is_better: bool) -> list[int]:
    """Rank 0 for the best value; equal values share a rank ("1224" ranking, 0-based)."""
    key = [value if lower_is_better else -value for value in values]
    return [sum(1 for other in key if other < mine) for mine in key]


def _rate(teams: list[list[Rating]], ranks: list[int]) -> list[list[Rating]]:
    result = MODEL.rate([[_to_openskill(r) for r in team] for team in teams], ranks=ranks)
    return [[Rating(mu=p.mu, sigma=p.sigma) for p in team] for team in result]


def _blend(before: Rating, after: Rating, weight: float) -> Rating:
    """Move ``weight`` of the way from ``before`` to ``after`` in mu and in variance."""
    variance = before.sigma**2 + weight * (after.sigma**2 - before.sigma**2)
    return Rating(mu=before.mu + weight * (after.mu - before.mu), sigma=math.sqrt(variance))


def _to_openskill(rating: Rating) -> PlackettLuceRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def _keep_bots(seat: Participant, new: Rating) -> Rating:
    return seat.rating if isinstance(seat, Bot) else new


def _scores(values: Any, seats: int, path: str) -> list[float]:
    if not isinstance(values, Sequence) or len(values) != seats:
        raise ValueError(f"{path}: expected {seats} numbers, one per seat, got {values!r}")
    return [float(value) for value in values]
