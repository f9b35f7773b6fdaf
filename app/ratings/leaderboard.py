"""Leaderboards per game: the top 100 by conservative rating, and a player's own rank.

Pure: the caller passes the rating records and ``now`` (an aware datetime, UTC); nothing here
reads a clock or a database. The rules (docs/ratings.md):

- a player is on a game's leaderboard when their rating in that game is not provisional and
  they finished a rated match of it within the last :data:`ACTIVE_DAYS` days (inclusive:
  exactly 30 days ago still counts);
- the order is by ordinal (mu - 3 sigma, openskill's conservative rating), highest first;
  equal ordinals share a rank ("1224" ranking) and are listed by player id;
- the board shows the first :data:`TOP` entries; a player's own rank is given even when it is
  below them, or, when they are not eligible, the reason why not.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from app.ratings.model import PlayerId, Rating, is_provisional

#: How many entries a leaderboard shows.
TOP = 100
#: A player counts as active when their last rated match of the game ended this recently.
ACTIVE_DAYS = 30


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """One player's stored rating in one game.

    last_active: when the player's last rated match of this game ended (aware datetime).
    provisional: as stored; :meth:`of` computes it with :func:`app.ratings.model.is_provisional`.
    """

    player: PlayerId
    game: str
    mu: float
    sigma: float
    last_active: datetime
    provisional: bool

    @classmethod
    def of(
        cls, player: PlayerId, game: str, rating: Rating, last_active: datetime
    ) -> RatingRecord:
        """A record whose ``provisional`` flag follows the rating's sigma."""
        return cls(player, game, rating.mu, rating.sigma, last_active, is_provisional(rating))

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma the leaderboard sorts by."""
        return Rating(self.mu, self.sigma).ordinal


class Ineligible(StrEnum):
    """Why a player is not on a game's leaderboard."""

    UNRATED = "unrated"  # no rating in this game
    PROVISIONAL = "provisional"  # sigma not yet under the threshold
    INACTIVE = "inactive"  # no rated match of this game in the last 30 days


@dataclass(frozen=True, slots=True)
class Entry:
    """A line of the leaderboard: ``rank`` counts from 1; equal ordinals share a rank."""

    rank: int
    player: PlayerId
    ordinal: float
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class OwnRank:
    """A player's own standing: ``entry`` when eligible (its rank may be below the top),
    else ``reason``."""

    player: PlayerId
    entry: Entry | None
    reason: Ineligible | None

    @property
    def rank(self) -> int | None:
        return self.entry.rank if self.entry else None


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A game's top entries and, when asked for, one player's own standing."""

    game: str
    entries: tuple[Entry, ...]
    own: OwnRank | None = None


def ineligibility(record: RatingRecord, now: datetime) -> Ineligible | None:
    """Why ``record`` is not on the leaderboard at ``now``, or None when it is.

    Provisional is reported before inactive. A last_active after ``now`` counts as active.
    """
    if record.provisional:
        return Ineligible.PROVISIONAL
    if now - record.last_active > timedelta(days=ACTIVE_DAYS):
        return Ineligible.INACTIVE
    return None


def ranked(records: Iterable[RatingRecord], game: str, now: datetime) -> list[Entry]:
    """Every eligible player of ``game`` in leaderboard order, with ranks.

    Raises ValueError when a player has two records for the game.
    """
    eligible = []
    seen: set[PlayerId] = set()
    for record in records:
        if record.game != game:
            continue
        if record.player in seen:
            raise ValueError(f"player {record.player!r} has two {game} ratings")
        seen.add(record.player)
        if ineligibility(record, now) is None:
            eligible.append(record)
    eligible.sort(key=lambda r: (-r.ordinal, str(r.player)))
    entries: list[Entry] = []
    for index, record in enumerate(eligible):
        ordinal = record.ordinal
        if entries and entries[-1].ordinal == ordinal:
            rank = entries[-1].rank
        else:
            rank = index + 1
        entries.append(Entry(rank, record.player, ordinal, record.mu, record.sigma))
    return entries


def own_rank(
    records: Iterable[RatingRecord], game: str, player: PlayerId, now: datetime
) -> OwnRank:
    """``player``'s standing in ``game`` at ``now``: their entry wherever it falls, or why
    they are not ranked (unrated, provisional, inactive)."""
    records = list(records)
    return _own(records, game, player, now, ranked(records, game, now))


def leaderboard(
    records: Iterable[RatingRecord],
    game: str,
    now: datetime,
    *,
    player: PlayerId | None = None,
    limit: int = TOP,
) -> Leaderboard:
    """The leaderboard of ``game`` at ``now``: the first ``limit`` entries, and ``player``'s
    own standing when a player is given.

    records may hold several games' records; only ``game``'s are used.
    """
    records = list(records)
    entries = ranked(records, game, now)
    own = None if player is None else _own(records, game, player, now, entries)
    return Leaderboard(game, tuple(entries[:limit]), own)


def _own(
    records: list[RatingRecord], game: str, player: PlayerId, now: datetime, entries: list[Entry]
) -> OwnRank:
    mine = next((r for r in records if r.game == game and r.player == player), None)
    if mine is None:
        return OwnRank(player, None, Ineligible.UNRATED)
    reason = ineligibility(mine, now)
    entry = None if reason else next(e for e in entries if e.player == player)
    return OwnRank(player, entry, reason)
