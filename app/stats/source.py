"""Finished matches as the statistics read them: each match's event log as a scenario document,
with who held each seat, whether it was public and whether it was rated.

Loaded in a few queries per batch of matches (matches with their tables, results, rounds,
actions, rating history), never one query per round.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ActionRow, GameTable, Match, RatingChange, Result, Round, StatsMatch


@dataclass(frozen=True)
class MatchSource:
    """One finished match: ``holders[seat]`` the user id of each seat (None: a computer
    player); ``public``: played at an Anyone table; ``rated``: it changed ratings;
    ``document``: the scenario document of its event log (as the match's download)."""

    match_id: int
    game: str
    finished_at: datetime
    public: bool
    rated: bool
    holders: tuple[int | None, ...]
    document: dict[str, Any]


def scenario_rules(rules: dict[str, Any], deals: int) -> dict[str, Any]:
    """The match's rules as its scenario states them: an open-ended ``deals`` (null) becomes
    the table's number of deals, so the replay ends the match where the table did (as
    app.lobby.service.Lobby.scenario)."""
    rules = dict(rules)
    if "deals" in rules and rules["deals"] is None:
        rules["deals"] = deals
    return rules


def _with_people():
    """SQL: the ``Match`` had a person at the table (only those are counted)."""
    return exists().where(Result.match_id == Match.id, Result.user_id.is_not(None))


async def counted_ids(db: AsyncSession) -> list[int]:
    """Every finished match with a person, oldest first: what a rebuild counts."""
    rows = await db.execute(select(Match.id).where(Match.finished_at.is_not(None), _with_people())
                            .order_by(Match.finished_at, Match.id))
    return list(rows.scalars())


async def uncounted_ids(db: AsyncSession) -> list[int]:
    """The finished matches with a person that the statistics have not counted yet (the
    process that finished them went away first, or they finished during a rebuild)."""
    counted = exists().where(StatsMatch.match_id == Match.id)
    rows = await db.execute(select(Match.id).where(Match.finished_at.is_not(None), _with_people(),
                                                   ~counted).order_by(Match.finished_at, Match.id))
    return list(rows.scalars())


async def load(db: AsyncSession, match_ids: Sequence[int]) -> list[MatchSource]:
    """The finished matches ``match_ids`` (those not finished are left out), in that order."""
    if not match_ids:
        return []
    ids = list(match_ids)
    matches = {m.id: (m, opponents) for m, opponents in (await db.execute(
        select(Match, GameTable.opponents).join(GameTable, GameTable.id == Match.table_id)
        .where(Match.id.in_(ids), Match.finished_at.is_not(None)))).all()}
    holders: dict[int, dict[int, int | None]] = defaultdict(dict)
    for match_id, seat, user_id in (await db.execute(
            select(Result.match_id, Result.seat, Result.user_id).where(Result.match_id.in_(ids)))):
        holders[match_id][seat] = user_id
    rated = set((await db.execute(select(RatingChange.match_id).where(
        RatingChange.match_id.in_(ids)).distinct())).scalars())
    rounds: dict[int, list[Round]] = defaultdict(list)
    for row in (await db.execute(select(Round).where(Round.match_id.in_(ids))
                                 .order_by(Round.match_id, Round.number))).scalars():
        rounds[row.match_id].append(row)
    actions: dict[int, list[dict[str, Any]]] = defaultdict(list)
    round_ids = [r.id for rows in rounds.values() for r in rows]
    for start in range(0, len(round_ids), 2000):  # bound the statement's parameters
        for round_id, action in (await db.execute(
                select(ActionRow.round_id, ActionRow.action)
                .where(ActionRow.round_id.in_(round_ids[start:start + 2000]))
                .order_by(ActionRow.round_id, ActionRow.idx))):
            actions[round_id].append(action)
    out = []
    for match_id in ids:
        if match_id not in matches:
            continue
        match, opponents = matches[match_id]
        seats = holders[match_id]
        document = {"game": match.game, "rules": scenario_rules(match.rules, match.deals),
                    "players": match.players,
                    "rounds": [{"dealer": r.dealer, "deal": r.deal, "deck": r.deck,
                                "actions": actions[r.id]} for r in rounds[match_id]]}
        out.append(MatchSource(match_id=match_id, game=match.game,
                               finished_at=aware(match.finished_at), public=opponents == "any",
                               rated=match_id in rated,
                               holders=tuple(seats.get(seat) for seat in range(match.players)),
                               document=document))
    return out


def aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back (stored as UTC); PostgreSQL aware ones."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
