"""The projection tables (player_stats, player_pairs, stats_matches) and how a finished match
adds to them.

:func:`contribution` turns one match's counters (app/stats/facts.py) and its seats' holders
into what it adds: per person, game and scope the seat's counters; per pair of people the
pair's counters; per person a stats_matches row. The incremental path adds one match's
contribution to the stored rows (:func:`add_match`); a rebuild merges every match's in memory
and writes them once (:func:`replace_all`). Both use the same contribution, so they agree
(tests/stats/test_projection.py checks it on played matches).

Scopes: ``public`` for a match at an Anyone table, ``private`` for Friends and Invited
tables; a player's own view adds both, anybody else sees ``public`` only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, select, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import PlayerPair, PlayerStats, StatsMatch
from app.stats.facts import Counters, MatchFacts, add
from app.stats.source import MatchSource

PUBLIC, PRIVATE = "public", "private"
StatsKey = tuple[int, str, str]  # (user_id, game, scope)
PairKey = tuple[int, int, str]  # (user_id, other_id, game)


@dataclass
class Contribution:
    """What matches add: counters per (user, game, scope) and per (user, other, game), and
    the stats_matches rows."""

    stats: dict[StatsKey, Counters] = field(default_factory=dict)
    pairs: dict[PairKey, Counters] = field(default_factory=dict)
    matches: list[dict[str, Any]] = field(default_factory=list)

    def merge(self, more: Contribution) -> None:
        """Add ``more`` into this one."""
        for key, counts in more.stats.items():
            self.stats[key] = add(self.stats.get(key, {}), counts)
        for key, counts in more.pairs.items():
            self.pairs[key] = add(self.pairs.get(key, {}), counts)
        self.matches.extend(more.matches)


def contribution(source: MatchSource, facts: MatchFacts) -> Contribution:
    """What the finished match ``source`` (whose counters are ``facts``) adds for its people."""
    scope = PUBLIC if source.public else PRIVATE
    out = Contribution()
    people = [(seat, user) for seat, user in enumerate(source.holders) if user is not None]
    for seat, user in people:
        out.stats[(user, source.game, scope)] = facts.seats[seat]
        out.matches.append({"match_id": source.match_id, "user_id": user, "game": source.game,
                            "finished_at": source.finished_at, "placing": facts.placings[seat],
                            "public": source.public, "rated": source.rated})
        for other_seat, other in people:
            if other != user:
                out.pairs[(user, other, source.game)] = facts.pairs[seat][other_seat]
    return out


async def add_match(db: AsyncSession, part: Contribution) -> bool:
    """Add one match's contribution in ``db``'s transaction (the caller commits). False, with
    the transaction rolled back and nothing added, when the match was counted before (its
    stats_matches rows exist: unique (match_id, user_id))."""
    if part.matches:
        try:
            await db.execute(insert(StatsMatch), part.matches)
        except IntegrityError:
            await db.rollback()
            return False
    await _add(db, PlayerStats, ("user_id", "game", "scope"), part.stats)
    await _add(db, PlayerPair, ("user_id", "other_id", "game"), part.pairs)
    return True


async def _add(db: AsyncSession, model: Any, columns: Sequence[str],
               increments: dict[Any, Counters]) -> None:
    """Add ``increments`` (key → counters) to the rows of ``model`` keyed by ``columns``: the
    missing rows are inserted empty, then every row is locked (in key order, so two matches of
    the same people finishing at once wait for each other instead of deadlocking; SQLite has
    one writer) and updated."""
    if not increments:
        return
    keys = sorted(increments)
    await _insert_missing(db, model, columns, keys)
    key_of = tuple(getattr(model, column) for column in columns)
    rows = (await db.execute(select(model).where(tuple_(*key_of).in_(keys))
                             .order_by(*key_of).with_for_update()
                             .execution_options(populate_existing=True))).scalars()
    for row in rows:
        key = tuple(getattr(row, column) for column in columns)
        row.counts = add(row.counts, increments[key])


async def _insert_missing(db: AsyncSession, model: Any, columns: Sequence[str],
                          keys: Iterable[tuple[Any, ...]]) -> None:
    dialect = db.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert
    rows = [{**dict(zip(columns, key, strict=True)), "counts": {}} for key in keys]
    await db.execute(upsert(model).values(rows).on_conflict_do_nothing(index_elements=list(columns)))


async def replace_all(db: AsyncSession, everything: Contribution) -> None:
    """Replace the whole projection with ``everything`` (a rebuild) in ``db``'s transaction
    (the caller commits)."""
    for model in (StatsMatch, PlayerPair, PlayerStats):
        await db.execute(delete(model))
    for model, columns, rows in (
            (PlayerStats, ("user_id", "game", "scope"), everything.stats),
            (PlayerPair, ("user_id", "other_id", "game"), everything.pairs)):
        values = [{**dict(zip(columns, key, strict=True)), "counts": counts}
                  for key, counts in sorted(rows.items())]
        for start in range(0, len(values), 1000):
            await db.execute(insert(model), values[start:start + 1000])
    for start in range(0, len(everything.matches), 1000):
        await db.execute(insert(StatsMatch), everything.matches[start:start + 1000])


async def snapshot(db: AsyncSession) -> dict[str, Any]:
    """The whole projection as plain data, ids left out (tests: rebuild = incremental)."""
    return {
        "stats": {(r.user_id, r.game, r.scope): r.counts
                  for r in (await db.execute(select(PlayerStats))).scalars() if r.counts},
        "pairs": {(r.user_id, r.other_id, r.game): r.counts
                  for r in (await db.execute(select(PlayerPair))).scalars() if r.counts},
        "matches": sorted((r.match_id, r.user_id, r.game, r.placing, r.public, r.rated)
                          for r in (await db.execute(select(StatsMatch))).scalars()),
    }
